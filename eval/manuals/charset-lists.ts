/**
 * Derives the character lists of the charset sniffer (src/io/charset-lists.ts) from translated
 * text that no evaluation crawl holds: the manual-page translations of manpages-ja, manpages-zh,
 * manpages-ru and manpages-el, the GNOME help (gnome-user-docs) and VLC's gettext catalogues
 * (vlc-l10n), each at a pinned Debian version whose SHA-256 is checked. For each list, the
 * characters of its script in its language's text are counted over every file of every package
 * that holds that language (man pages `usr/share/man/LANG`, help `usr/share/help/LANG`, catalogues
 * `usr/share/locale/LANG/LC_MESSAGES/*.mo`: markup and English are ASCII and count for nothing),
 * and the list is its SIZE commonest, ties broken by code point.
 *
 *   node --import tsx eval/manuals/charset-lists.ts [--sources DIR] [--write]
 *
 * Packages are downloaded once into the sources folder (default $RESEMBLE_DATA/sources). Prints
 * each list as the code holds it, with the share of its script's characters in that text it holds,
 * then whether src/io/charset-lists.ts holds the same lists and eval/manuals/charset-counts.json the
 * same counts (exit 1 if not); --write rewrites the counts file. test/io/charset-lists.test.ts
 * checks, without the packages, that the lists are the commonest of the committed counts.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import * as LISTS from '../../src/io/charset-lists.js';
import { fetchSources, packageKey, type Source } from './sources.js';

/** One package at its pinned version, and its SHA-256. */
interface Pinned { package: string; version: string; sha256: string; licence: string; upstream: string }

/** The packages the text is taken from: none is a source of any evaluation crawl. */
export const PACKAGES: Pinned[] = [
  { package: 'manpages-ja', version: '0.5.0.0.20221215+dfsg-1', sha256: '4d270e9a1e83be4de0c072a110892a17dc9caa4b501257324006ac28d82c5743',
    licence: 'various free licences (see its copyright file)', upstream: 'Japanese manual pages (JM project)' },
  { package: 'manpages-zh', version: '1.6.4.0-1', sha256: '81bae29495f6445db290e3f329f1203eb19b651c2a7ea165b74ebdc853a32ac1',
    licence: 'GFDL-1.2+', upstream: 'Chinese manual pages, simplified (zh_CN) and traditional (zh_TW)' },
  { package: 'manpages-ru', version: '4.18.1-1', sha256: '5d5821dad5840652ba9c1c6b85bdc785c1fc52148a71c18fab6658c9659244c0',
    licence: 'GPL-3.0+ (translations)', upstream: 'Russian manual pages (manpages-l10n)' },
  { package: 'manpages-el', version: '4.18.1-1', sha256: '79ae710057edfd437a6fcdbf27ed8a1a3e29ae785730282313ed31ff3f93a95d',
    licence: 'GPL-3.0+ (translations)', upstream: 'Greek manual pages (manpages-l10n)' },
  { package: 'gnome-user-docs', version: '43.0-2', sha256: '0d635a840747958ca84da778b40d341f1155603851f922c9a171f5a181d6a39f',
    licence: 'CC-BY-SA-3.0', upstream: 'GNOME 43 help, translated (Mallard)' },
  { package: 'vlc-l10n', version: '3.0.24-0+deb12u1', sha256: '11e65bcd6a1d4626b9e2d7388bb93c80edc46da82a6ca3b26d88f71edcb6f9b2',
    licence: 'GPL-2.0+', upstream: 'VLC 3.0 messages, translated (gettext)' },
];

/** What a list holds: the characters of one script, in one language's text. */
export interface ListSpec {
  /** Its name in src/io/charset-lists.ts. */
  name: keyof typeof LISTS;
  /** The language's folder name in the packages (man, help, locale). */
  lang: string;
  /** Characters counted (code point ranges, inclusive). */
  ranges: Array<[number, number]>;
  /** How many of the commonest the list holds. */
  size: number;
}

const HAN: Array<[number, number]> = [[0x3400, 0x4dbf], [0x4e00, 0x9fff]];
/** The lists, their languages, scripts and sizes (the sizes the sniffer has always had). */
export const SPECS: ListSpec[] = [
  { name: 'JA_COMMON', lang: 'ja', ranges: HAN, size: 160 },
  { name: 'SC_COMMON', lang: 'zh_CN', ranges: HAN, size: 160 },
  { name: 'TC_COMMON', lang: 'zh_TW', ranges: HAN, size: 160 },
  { name: 'KO_COMMON', lang: 'ko', ranges: [[0xac00, 0xd7a3]], size: 160 },
  // lowercase Russian letters (а-я, ё)
  { name: 'RU_COMMON', lang: 'ru', ranges: [[0x430, 0x44f], [0x451, 0x451]], size: 16 },
  // lowercase Greek letters, with tonos and dialytika (ΐ, ά-ώ)
  { name: 'EL_COMMON', lang: 'el', ranges: [[0x390, 0x390], [0x3ac, 0x3ce]], size: 22 },
  // Arabic letters (ء-ي), without the marks
  { name: 'AR_COMMON', lang: 'ar', ranges: [[0x621, 0x64a]], size: 22 },
  // Hebrew letters (א-ת)
  { name: 'HE_COMMON', lang: 'he', ranges: [[0x5d0, 0x5ea]], size: 20 },
  // Thai consonants, vowels and tone marks (ก-๎), no digits
  { name: 'TH_COMMON', lang: 'th', ranges: [[0xe01, 0xe4e]], size: 33 },
];

/** Counts of a list's script in its language's text: the commonest (a margin past its size) and all of them. */
export interface ListCounts { letters: number; files: number; top: Array<[string, number]> }

/** How many more than a list's size the counts file keeps, so its cut can be checked. */
export const MARGIN = 20;

/** Takes counts; returns the list of `size` commonest characters, ties broken by code point. */
export function commonest(top: ReadonlyArray<[string, number]>, size: number): string {
  return [...top].sort((a, b) => b[1] - a[1] || a[0].codePointAt(0)! - b[0].codePointAt(0)!).slice(0, size).map(([c]) => c).join('');
}

/** The translations of a gettext catalogue (.mo, UTF-8), the header left out; plural forms each a string. */
export function moStrings(b: Buffer): string[] {
  const le = b.readUInt32LE(0) === 0x950412de;
  if (!le && b.readUInt32BE(0) !== 0x950412de) throw new Error('not a gettext catalogue');
  const u32 = (at: number) => (le ? b.readUInt32LE(at) : b.readUInt32BE(at));
  const n = u32(8), orig = u32(12), trans = u32(16), out: string[] = [];
  for (let i = 0; i < n; i++) {
    // the header is the translation of the empty message
    if (u32(orig + 8 * i) === 0) continue;
    const len = u32(trans + 8 * i), at = u32(trans + 8 * i + 4);
    out.push(...b.toString('utf8', at, at + len).split('\0'));
  }
  return out;
}

/** Every file under a folder (sorted), following no links. */
function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = statSync(p, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isDirectory()) out.push(...walk(p));
    else if (st.isFile()) out.push(p);
  }
  return out;
}

/** The texts of one language in one extracted package: its man pages, help pages and catalogues. */
function texts(root: string, lang: string): string[] {
  const out: string[] = [];
  for (const f of walk(join(root, 'usr/share/man', lang))) {
    const b = readFileSync(f);
    out.push((f.endsWith('.gz') ? gunzipSync(b) : b).toString('utf8'));
  }
  for (const f of walk(join(root, 'usr/share/help', lang))) if (/\.(page|xml)$/.test(f)) out.push(readFileSync(f, 'utf8'));
  for (const f of walk(join(root, 'usr/share/locale', lang, 'LC_MESSAGES'))) if (f.endsWith('.mo')) out.push(moStrings(readFileSync(f)).join('\n'));
  return out;
}

/** Takes the extracted packages' folders; returns each list's counts. */
export function countLists(roots: string[]): Record<string, ListCounts> {
  const out: Record<string, ListCounts> = {};
  for (const spec of SPECS) {
    const counts = new Map<string, number>();
    let letters = 0, files = 0;
    const inScript = (c: number) => spec.ranges.some(([a, b]) => c >= a && c <= b);
    for (const root of roots) {
      for (const t of texts(root, spec.lang)) {
        files++;
        for (const ch of t) {
          if (!inScript(ch.codePointAt(0)!)) continue;
          letters++;
          counts.set(ch, (counts.get(ch) ?? 0) + 1);
        }
      }
    }
    const top = [...counts].sort((a, b) => b[1] - a[1] || a[0].codePointAt(0)! - b[0].codePointAt(0)!).slice(0, spec.size + MARGIN);
    out[spec.name] = { letters, files, top };
  }
  return out;
}

const here = dirname(fileURLToPath(import.meta.url));
/** The committed counts: what the lists in src/io/charset-lists.ts are the commonest of. */
export const COUNTS_FILE = join(here, 'charset-counts.json');

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { sources: { type: 'string' }, write: { type: 'boolean' } } });
  const data = process.env.RESEMBLE_DATA;
  const cache = values.sources ?? (data ? join(data, 'sources') : undefined);
  if (!cache) {
    console.error('set RESEMBLE_DATA (a folder outside the repository) or give --sources DIR');
    process.exit(2);
  }
  const sources: Source[] = PACKAGES.map((p) => ({ id: p.package, kind: 'deb', package: p.package, version: p.version, html: '', licence: p.licence, upstream: p.upstream }));
  const fetched = fetchSources(resolve(cache), (l) => console.error(l), sources);
  const roots: string[] = [];
  let ok = true;
  for (const p of PACKAGES) {
    const f = fetched.get(packageKey(sources.find((s) => s.package === p.package)!))!;
    if (f.sha256 !== p.sha256) { console.error(`${p.package}=${p.version}: SHA-256 ${f.sha256}, pinned ${p.sha256 || '(none)'}`); ok = false; }
    roots.push(f.dir);
  }
  const counts = countLists(roots);
  for (const spec of SPECS) {
    const c = counts[spec.name], list = commonest(c.top, spec.size);
    const held = c.top.slice(0, spec.size).reduce((n, [, k]) => n + k, 0);
    console.log(`// ${spec.lang}: ${c.letters} characters in ${c.files} files; these ${spec.size} are ${(100 * held / c.letters).toFixed(1)}% of them`);
    console.log(`export const ${spec.name} = '${list}';`);
    const code = LISTS[spec.name];
    if (code !== list) {
      const a = new Set(code), b = new Set(list);
      console.log(`//   differs from src/io/charset-lists.ts: ${[...b].filter((x) => !a.has(x)).length} characters in, ${[...a].filter((x) => !b.has(x)).length} out${[...code].sort().join('') === [...list].sort().join('') ? ' (same characters, another order)' : ''}`);
      ok = false;
    }
  }
  const json = `${JSON.stringify(counts, null, 0).replace(/\],\[/g, '],\n[').replace(/\},"/g, '},\n"')}\n`;
  if (values.write) writeFileSync(COUNTS_FILE, json);
  else if (!existsSync(COUNTS_FILE) || readFileSync(COUNTS_FILE, 'utf8') !== json) { console.log('eval/manuals/charset-counts.json differs from these counts (--write rewrites it)'); ok = false; }
  console.log(ok ? 'src/io/charset-lists.ts and eval/manuals/charset-counts.json agree with the packages' : 'DISAGREE');
  process.exit(ok ? 0 : 1);
}
