// How often sniffCharset (src/io/charset-sniff.ts) finds the charset of an undeclared legacy page,
// on real text: every page of the Debian Administrator's Handbook's translations (Debian package
// `debian-handbook` 11.20220922, UTF-8 HTML) encoded in its language's legacy charsets, and
// optionally pages made of the translated messages of gettext catalogues (languages the handbook
// lacks: Slovak, Hungarian, Slovenian, Finnish, Estonian, Icelandic, Thai...). The sniffer's
// character lists are taken from neither (charset-lists.ts derives them from other packages' text;
// up to 71a2021 they were taken from the handbook, whose figures were then in-sample).
//
//   node --import tsx eval/manuals/charset-check.ts HANDBOOK_HTML_DIR [--locales DIR] [--before REV] [--snippets N]
//
// HANDBOOK_HTML_DIR: the handbook's html folder, holding one folder per language (cs-CZ, fr-FR...):
//   `apt-get download debian-handbook=11.20220922 && dpkg-deb -x debian-handbook_*.deb DIR`, then
//   DIR/usr/share/doc/debian-handbook/html.
// --locales DIR: also the catalogues DIR/<locale>/LC_MESSAGES/*.mo (e.g. /usr/share/locale), their
//   translations laid out as pages of about 6 KB, at most 127 a language.
// --before REV: also the sniffer as committed at REV (`git show REV:src/io/charset-sniff.ts`), in a
//   column beside the working tree's.
// --snippets N: instead of whole pages, pieces of N characters of their text (markup left out),
//   each a page of its own, at most 500 a language: pages with little text, where a few letters
//   decide.
//
// Each page is stripped of its charset declarations (XML declaration, <meta>) and encoded in the
// charset; a character the charset cannot hold becomes a numeric character reference (&#NNNN;) as
// a converted mirror writes it (Vietnamese in windows-1258: its base letter and combining marks).
// A page is right when the sniffed charset decodes its bytes to the same text as the charset it
// was encoded in. Romanian's ș ț (comma below) are in neither of its charsets: `ro-RO` writes them
// as references, `ro-RO ş` as ş ţ (cedilla), as Romanian was written in windows-1250 and ISO-8859-2.
// (Decoding is this Node's TextDecoder, the project's: Node 20 reads windows-1252's 0x80-0x9f as C1
// controls, so a windows-1250 page's quotes read as windows-1252 differ too.) Prints one row per
// language and charset: pages right of all, before and now, and the wrong answers; then the
// sniffer's time per page.
import iconv from 'iconv-lite';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sniffCharset } from '../../src/io/charset-sniff.js';
import { snifferAt, type Sniff } from './sniffer-at.js';


/** Each handbook language, and the charsets (WHATWG names) its legacy pages are written in. */
const HANDBOOK: Array<[lang: string, charsets: string[]]> = [
  ['cs-CZ', ['windows-1250', 'iso-8859-2']], ['hr-HR', ['windows-1250', 'iso-8859-2']],
  ['pl-PL', ['windows-1250', 'iso-8859-2']], ['ro-RO', ['windows-1250', 'iso-8859-2']], ['ro-RO ş', ['windows-1250', 'iso-8859-2']],
  ['ca-ES', ['windows-1252', 'iso-8859-1']], ['da-DK', ['windows-1252', 'iso-8859-1']],
  ['de-DE', ['windows-1252', 'iso-8859-1']], ['es-ES', ['windows-1252', 'iso-8859-1']],
  ['fr-FR', ['windows-1252', 'iso-8859-1']], ['it-IT', ['windows-1252', 'iso-8859-1']],
  ['nb-NO', ['windows-1252', 'iso-8859-1']], ['nl-NL', ['windows-1252', 'iso-8859-1']],
  ['pt-BR', ['windows-1252', 'iso-8859-1']], ['sv-SE', ['windows-1252', 'iso-8859-1']],
  ['id-ID', ['windows-1252']], ['en-US', ['windows-1252']],
  ['tr-TR', ['windows-1254', 'iso-8859-9']],
  ['ja-JP', ['shift_jis', 'euc-jp']], ['zh-CN', ['gbk', 'gb18030']], ['zh-TW', ['big5']], ['ko-KR', ['euc-kr']],
  ['ru-RU', ['windows-1251', 'koi8-r']], ['el-GR', ['windows-1253', 'iso-8859-7']],
  ['ar-MA', ['windows-1256']], ['fa-IR', ['windows-1256']], ['vi-VN', ['windows-1258']],
];

/** Each gettext locale, and its legacy charsets. */
const LOCALES: Array<[lang: string, charsets: string[]]> = [
  ['cs', ['windows-1250', 'iso-8859-2']], ['sk', ['windows-1250', 'iso-8859-2']], ['pl', ['windows-1250', 'iso-8859-2']],
  ['hu', ['windows-1250', 'iso-8859-2']], ['sl', ['windows-1250', 'iso-8859-2']], ['hr', ['windows-1250', 'iso-8859-2']],
  ['ro', ['windows-1250', 'iso-8859-2']], ['ro ş', ['windows-1250', 'iso-8859-2']],
  ['ca', ['windows-1252']], ['da', ['windows-1252']], ['de', ['windows-1252']], ['es', ['windows-1252']],
  ['fr', ['windows-1252']], ['it', ['windows-1252']], ['nb', ['windows-1252']], ['nl', ['windows-1252']],
  ['pt', ['windows-1252']], ['pt_BR', ['windows-1252']], ['sv', ['windows-1252']], ['fi', ['windows-1252']],
  ['et', ['windows-1252']], ['is', ['windows-1252']], ['ga', ['windows-1252']], ['eu', ['windows-1252']],
  ['gl', ['windows-1252']], ['af', ['windows-1252']], ['sq', ['windows-1252']], ['oc', ['windows-1252']],
  ['br', ['windows-1252']], ['cy', ['windows-1252']], ['fo', ['windows-1252']], ['gd', ['windows-1252']],
  ['ast', ['windows-1252']], ['an', ['windows-1252']], ['nn', ['windows-1252']], ['wa', ['windows-1252']],
  ['ia', ['windows-1252']], ['ms', ['windows-1252']], ['sc', ['windows-1252']], ['fur', ['windows-1252']],
  ['tr', ['windows-1254']], ['vi', ['windows-1258']], ['th', ['windows-874']],
];

const args = process.argv.slice(2);
const option = (name: string) => { const i = args.indexOf(name); return i >= 0 ? args.splice(i, 2)[1] : undefined; };
const localesDir = option('--locales'), beforeRev = option('--before'), snippetChars = Number(option('--snippets') ?? 0);
const handbookDir = args[0];
if (!handbookDir || !existsSync(handbookDir)) {
  console.error('usage: node --import tsx eval/manuals/charset-check.ts HANDBOOK_HTML_DIR [--locales DIR] [--before REV] [--snippets N]');
  process.exit(2);
}

// Encoding, one character at a time (cached): the charset's bytes when its decoder gives the
// character back, else (windows-1258) those of a letter it holds and a combining mark (ệ as ê and
// U+0323), else a numeric character reference.
const encoders = new Map<string, Map<string, number[]>>();
function holds(ch: string, charset: string): number[] | undefined {
  const b = [...iconv.encode(ch, charset)];
  return new TextDecoder(charset).decode(Uint8Array.from(b)) === ch ? b : undefined;
}
function encodeChar(ch: string, charset: string, cache: Map<string, number[]>): number[] {
  const cached = cache.get(ch);
  if (cached) return cached;
  let bytes = holds(ch, charset);
  const d = ch.normalize('NFD');
  for (let j = 1; !bytes && j < d.length; j++) {
    const base = holds((d.slice(0, j) + d.slice(j + 1)).normalize('NFC'), charset), mark = holds(d[j], charset);
    if (base && mark) bytes = [...base, ...mark];
  }
  bytes ??= [...new TextEncoder().encode(`&#${ch.codePointAt(0)};`)];
  cache.set(ch, bytes);
  return bytes;
}
function encode(text: string, charset: string): Uint8Array {
  let cache = encoders.get(charset);
  if (!cache) encoders.set(charset, (cache = new Map()));
  const out: number[] = [];
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    if (c < 0x80) out.push(c);
    else for (const b of encodeChar(ch, charset, cache)) out.push(b);
  }
  return Uint8Array.from(out);
}

const undeclared = (html: string) => html
  .replace(/^<\?xml[^>]*\?>\s*/, '')
  .replace(/<meta\s+(?:http-equiv="Content-Type"\s+content="[^"]*"|charset="[^"]*")\s*\/?>/gi, '');

function handbookPages(lang: string): string[] {
  const dir = join(handbookDir, lang);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.html')).sort().map((f) => undeclared(readFileSync(join(dir, f), 'utf8')));
}

/** The translations of a gettext catalogue (.mo, UTF-8), the header left out. */
function moStrings(file: string): string[] {
  const b = readFileSync(file);
  const le = b.readUInt32LE(0) === 0x950412de;
  const u32 = (at: number) => (le ? b.readUInt32LE(at) : b.readUInt32BE(at));
  const n = u32(8), trans = u32(16), out: string[] = [];
  for (let i = 0; i < n; i++) {
    const len = u32(trans + 8 * i), at = u32(trans + 8 * i + 4);
    const s = b.toString('utf8', at, at + len);
    if (!s.startsWith('Project-Id-Version') && !s.includes('Content-Type: text/plain')) out.push(...s.split('\0'));
  }
  return out;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function localePages(lang: string): string[] {
  const dir = join(localesDir!, lang, 'LC_MESSAGES');
  if (!existsSync(dir)) return [];
  const pages: string[] = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.mo')).sort()) {
    let body = '';
    for (const s of moStrings(join(dir, f))) {
      body += `<p>${escapeHtml(s)}</p>\n`;
      if (body.length < 6000) continue;
      pages.push(`<!DOCTYPE html>\n<html><head><title>${f}</title></head><body>\n${body}</body></html>`);
      body = '';
      if (pages.length === 127) return pages;
    }
  }
  return pages;
}

const now = sniffCharset as Sniff;
const before = beforeRev ? await snifferAt(beforeRev) : undefined;
let sniffs = 0, sniffMs = 0, beforeMs = 0;

function row(lang: string, pages: string[], charset: string): string {
  const counts = { before: 0, now: 0 };
  const wrong = new Map<string, number>();
  for (const html of pages) {
    const bytes = encode(html, charset);
    const truth = new TextDecoder(charset).decode(bytes);
    const right = (sniffed: string) => sniffed === charset || new TextDecoder(sniffed).decode(bytes) === truth;
    const t = performance.now();
    const got = now(bytes);
    sniffMs += performance.now() - t; sniffs++;
    if (right(got)) counts.now++;
    else wrong.set(got, (wrong.get(got) ?? 0) + 1);
    if (before) {
      const t0 = performance.now();
      const old = before(bytes);
      beforeMs += performance.now() - t0;
      if (right(old)) counts.before++;
    }
  }
  const cell = (n: number) => `${n}/${pages.length}`.padStart(8);
  const misread = [...wrong].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} ${n}`).join(', ');
  return `${lang.padEnd(8)} ${charset.padEnd(13)}${before ? cell(counts.before) : ''}${cell(counts.now)}  ${misread}`;
}

/** `LANG ş`: LANG's pages with ș ț written ş ţ. */
const cedilla = (pagesOf: (lang: string) => string[]) => (lang: string) => (lang.endsWith(' ş')
  ? pagesOf(lang.slice(0, -2)).map((p) => p.replace(/[șțȘȚ]/g, (c) => ({ ș: 'ş', ț: 'ţ', Ș: 'Ş', Ț: 'Ţ' })[c]!))
  : pagesOf(lang));

/** The pages, or with --snippets pieces of their text, each in a page of its own. */
const pieces = (pagesOf: (lang: string) => string[]) => (lang: string) => {
  if (!snippetChars) return pagesOf(lang);
  const out: string[] = [];
  for (const html of pagesOf(lang)) {
    const text = html.replace(/<(script|style)[^]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ');
    for (let i = 0; i + snippetChars <= text.length && out.length < 500; i += snippetChars) {
      out.push(`<!DOCTYPE html>\n<html><head><title>${lang}</title></head><body><p>${text.slice(i, i + snippetChars)}</p></body></html>`);
    }
  }
  return out;
};

function table(title: string, langs: Array<[string, string[]]>, pagesOf: (lang: string) => string[]) {
  pagesOf = pieces(pagesOf);
  console.log(`\n${title}\n${'language'.padEnd(8)} ${'charset'.padEnd(13)}${before ? `${beforeRev}`.padStart(8) : ''}${'now'.padStart(8)}  misread as`);
  for (const [lang, charsets] of langs) {
    const pages = pagesOf(lang);
    if (pages.length === 0) continue;
    for (const charset of charsets) console.log(row(lang, pages, charset));
  }
}

const what = snippetChars ? `, pieces of ${snippetChars} characters` : '';
table(`Debian Administrator's Handbook (${handbookDir})${what}`, HANDBOOK, cedilla(handbookPages));
if (localesDir) table(`gettext catalogues (${localesDir})${what}`, LOCALES, cedilla(localePages));
console.log(`\nsniffCharset: ${(sniffMs / sniffs).toFixed(3)} ms a page${before ? ` (${beforeRev}: ${(beforeMs / sniffs).toFixed(3)} ms)` : ''}, ${sniffs} pages`);
