/**
 * Lays the plan out as pages: which source file becomes which URL and file of the wget-mirror
 * layout, with what bytes (re-encoded, links made absolute), and the truth that follows from how
 * the crawl was built: every page's work, release and copy, its corresponding page in every other
 * copy, the relation of every pair of copies and of every pair of hosts.
 */
import { cp1258Form } from './cp1258.js';
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { encodeIso2022jp, iso2022jpHolds } from './iso-2022-jp.js';
import type { CopySpec, Work } from './plan.js';
import type { Source } from './sources.js';

/** One page of the crawl. */
export interface Page {
  url: string;
  /** Path of the file under the crawl folder: `host/path/file.html`. */
  file: string;
  copy: string;
  work: string;
  source: string;
  release: string;
  /** Path of the page inside its manual: the key of path correspondences. */
  page: string;
  /** Charset the bytes are in (declared in the page). */
  charset: string;
  bytes: Uint8Array;
}

/** A pair of copies of one work and how they relate. */
export interface CopyPair {
  a: string;
  b: string;
  work: string;
  relation: 'exact' | 'partial' | 'lagging' | 'distant' | 'single-page copy';
  /** exact, partial and lagging copies mirror each other; distant releases and single pages do not. */
  mirror: boolean;
  prefixShifted: boolean;
  sameHost: boolean;
  reencoded: boolean;
  pagesA: number;
  pagesB: number;
  /** Pages present in both (same path inside the manual). */
  common: number;
  /** Common pages whose decoded text differs. */
  changed: number;
}

const sha = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/** Takes a folder; returns the paths (relative, '/'-separated, sorted) of the regular `.html` files under it (`others`: of the other regular files). */
export function listHtml(root: string, exclude: string[] = [], others = false): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name), r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(p);
      if (st.isDirectory()) walk(p, r);
      else if (st.isFile() && /\.html?$/.test(name) !== others && !exclude.some((e) => r.startsWith(e))) out.push(r);
    }
  };
  walk(root, '');
  return out.sort();
}

/** A file of the crawl that is not a page of the truth (a copy's `withFiles`). */
export interface OtherFile {
  file: string;
  bytes: Uint8Array;
}

/**
 * Takes the plan and the extracted source folders; returns the other files of the copies made
 * `withFiles`: every regular file of the manual's folder that is not a page, chosen by the copy's
 * selection as its pages are (all, or the same fraction by a hash of the path), copied as they are.
 */
export function layOutOtherFiles(copies: CopySpec[], sources: Source[], sourceDir: (s: Source) => string): OtherFile[] {
  const sourceById = new Map(sources.map((s) => [s.id, s]));
  const out: OtherFile[] = [];
  for (const c of copies) {
    if (!c.withFiles) continue;
    const src = sourceById.get(c.source);
    if (!src) throw new Error(`copy ${c.id}: unknown source`);
    if ('single' in c.select) throw new Error(`copy ${c.id}: withFiles goes with all pages or a fraction of them`);
    const select = c.select;
    for (const path of listHtml(join(sourceDir(src), src.html), src.exclude, true)) {
      if ('fraction' in select && !chosen(select.salt, path, select.fraction)) continue;
      out.push({ file: `${c.host}${c.prefix}${path}`, bytes: new Uint8Array(readFileSync(join(sourceDir(src), src.html, path))) });
    }
  }
  return out;
}

/** Whether a page is in a fractional selection: a hash of salt and path, not a random draw. */
export function chosen(salt: string, page: string, fraction: number): boolean {
  return parseInt(sha(`${salt}\n${page}`).slice(0, 8), 16) / 2 ** 32 < fraction;
}

/** The URL of a file path `host/dir/file` as a wget-mirror reader gives it (`index.html` stands for the folder). */
export function fileToUrl(file: string): string {
  const slash = file.indexOf('/');
  const path = file.slice(slash).replace(/(^|\/)index\.html$/, '$1');
  return `http://${file.slice(0, slash)}${encodeURI(path)}`;
}

const CHARSET_DECL = /(<meta\b[^>]*?\bcharset\s*=\s*["']?\s*)utf-8/gi;
const XML_DECL = /(<\?xml\b[^>]*?\bencoding\s*=\s*["'])utf-8/i;

/**
 * Takes UTF-8 HTML and a legacy charset; returns it encoded in that charset with its meta tag (and
 * XML prolog) declaring it, or (`declare` false) with no declaration left. Characters the charset cannot hold become numeric character references,
 * as browsers' "save as" does, so the decoded text is unchanged (windows-1258: Vietnamese letters
 * written as a letter and a combining tone mark, as that charset holds them).
 */
export function reencode(html: string, charset: string, declare = true): Uint8Array {
  if (new TextDecoder(charset).encoding === 'windows-1258') html = cp1258Form(html);
  let declared = 0;
  let text = html.replace(CHARSET_DECL, (_m, head: string) => { declared++; return head + charset; }).replace(XML_DECL, `$1${charset}`);
  if (declared === 0) throw new Error(`no meta charset to rewrite for ${charset}`);
  // undeclared: the meta tags naming a charset and the XML prolog's encoding go (the server's header said it)
  if (!declare) text = text.replace(/<meta\b[^>]*?\bcharset\s*=[^>]*>/gi, '').replace(/(<\?xml\b[^>]*?)\s+encoding\s*=\s*["'][^"']*["']/i, '$1');
  const decoder = new TextDecoder(charset);
  const jis = decoder.encoding === 'iso-2022-jp';
  const ok = new Map<string, boolean>();
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) { out += ch; continue; }
    let fits = ok.get(ch);
    if (fits === undefined) {
      fits = jis ? iso2022jpHolds(ch) : decoder.decode(iconv.encode(ch, charset)) === ch;
      ok.set(ch, fits);
    }
    out += fits ? ch : `&#${cp};`;
  }
  const bytes = jis ? Buffer.from(encodeIso2022jp(out)) : iconv.encode(out, charset);
  if (decoder.decode(bytes) !== out) throw new Error(`re-encoding in ${charset} does not round-trip`);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}

/** Takes HTML and the URL it was copied from; returns it with relative `href`/`src` links made absolute on that URL. */
export function absolutize(html: string, base: string): string {
  return html.replace(/(\s(?:href|src)\s*=\s*)(["'])([^"']*)\2/gi, (m, head: string, q: string, link: string) => {
    if (link === '' || link.startsWith('#') || /^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith('//')) return m;
    return `${head}${q}${new URL(link, base).href}${q}`;
  });
}

/**
 * Decodes a page's bytes in its charset: its text as its reader sees it. windows-1258 writes Vietnamese tone marks as combining
 * characters, canonically equivalent to the precomposed letters of its UTF-8 original, so its text
 * is taken in composed form (NFC).
 */
export const decode = (p: Pick<Page, 'bytes' | 'charset'>) => {
  const d = new TextDecoder(p.charset);
  const text = d.decode(p.bytes);
  return d.encoding === 'windows-1258' ? text.normalize('NFC') : text;
};

/** Takes the plan and the extracted source folders; returns every page of the crawl, in the order a folder walk reads them. */
export function layOut(works: Work[], copies: CopySpec[], sources: Source[], sourceDir: (s: Source) => string): Page[] {
  const workById = new Map(works.map((w) => [w.id, w]));
  const sourceById = new Map(sources.map((s) => [s.id, s]));
  const lists = new Map<string, string[]>();
  const list = (s: Source) => {
    let l = lists.get(s.id);
    if (!l) lists.set(s.id, (l = listHtml(join(sourceDir(s), s.html), s.exclude)));
    return l;
  };
  const copyById = new Map(copies.map((c) => [c.id, c]));
  const pages: Page[] = [];
  const files = new Set<string>();
  for (const c of copies) {
    const work = workById.get(c.work), src = sourceById.get(c.source);
    if (!work || !src || !work.releases[c.source]) throw new Error(`copy ${c.id}: unknown work or release`);
    if (!/^\/.+\/$/.test(c.prefix)) throw new Error(`copy ${c.id}: prefix must start and end with '/' and not be the root`);
    const all = list(src);
    const chosenPages: Array<[string, string]> = 'all' in c.select ? all.map((p) => [p, p])
      : 'fraction' in c.select ? all.filter((p) => chosen((c.select as { salt: string }).salt, p, (c.select as { fraction: number }).fraction)).map((p) => [p, p])
      : c.select.single;
    for (const [page, path] of chosenPages) {
      if (!all.includes(page)) throw new Error(`copy ${c.id}: ${page} is not in ${src.id}`);
      const file = `${c.host}${c.prefix}${path}`;
      if (file === `${c.host}/index.html`) throw new Error(`copy ${c.id}: would write the host root page`);
      if (files.has(file)) throw new Error(`copy ${c.id}: ${file} written twice`);
      files.add(file);
      let bytes: Uint8Array = new Uint8Array(readFileSync(join(sourceDir(src), src.html, page)));
      let charset = 'utf-8';
      if (c.absoluteLinksTo || c.charset) {
        let html = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        if (c.absoluteLinksTo) {
          const to = copyById.get(c.absoluteLinksTo);
          if (!to) throw new Error(`copy ${c.id}: unknown copy ${c.absoluteLinksTo}`);
          html = absolutize(html, fileToUrl(`${to.host}${to.prefix}${page}`));
        }
        if (c.charset) {
          bytes = reencode(html, c.charset, !c.undeclared);
          charset = new TextDecoder(c.charset).encoding;
        } else bytes = new TextEncoder().encode(html);
      }
      pages.push({ url: fileToUrl(file), file, copy: c.id, work: c.work, source: c.source, release: work.releases[c.source].release, page, charset, bytes });
    }
  }
  return pages.sort((a, b) => walkOrder(a.file, b.file));
}

/** Compares two file paths in the order a sorted recursive folder walk visits them. */
export function walkOrder(a: string, b: string): number {
  const x = a.split('/'), y = b.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] === y[i]) continue;
    // A folder's entries are sorted by name; a file and a folder compare by their names too.
    return x[i] < y[i] ? -1 : 1;
  }
  return x.length - y.length;
}

/** Takes the plan and the pages; returns every pair of copies of one work with its relation. */
export function copyPairs(works: Work[], copies: CopySpec[], pages: Page[]): CopyPair[] {
  const workById = new Map(works.map((w) => [w.id, w]));
  const byCopy = new Map<string, Map<string, string>>();
  for (const p of pages) {
    let m = byCopy.get(p.copy);
    if (!m) byCopy.set(p.copy, (m = new Map()));
    m.set(p.page, sha(decode(p)));
  }
  const out: CopyPair[] = [];
  for (let i = 0; i < copies.length; i++) {
    for (let j = i + 1; j < copies.length; j++) {
      const a = copies[i], b = copies[j];
      if (a.work !== b.work) continue;
      const pa = byCopy.get(a.id)!, pb = byCopy.get(b.id)!;
      let common = 0, changed = 0;
      for (const [page, h] of pa) {
        const hb = pb.get(page);
        if (hb === undefined) continue;
        common++;
        if (hb !== h) changed++;
      }
      const releases = workById.get(a.work)!.releases;
      const single = 'single' in a.select || 'single' in b.select;
      const sameSet = common === pa.size && common === pb.size;
      const relation: CopyPair['relation'] = single ? 'single-page copy'
        : a.source === b.source ? (sameSet ? 'exact' : 'partial')
        : releases[a.source].line === releases[b.source].line ? 'lagging' : 'distant';
      out.push({
        a: a.id, b: b.id, work: a.work, relation, mirror: relation === 'exact' || relation === 'partial' || relation === 'lagging',
        prefixShifted: a.prefix !== b.prefix, sameHost: a.host === b.host, reencoded: (a.charset ?? 'utf-8') !== (b.charset ?? 'utf-8'),
        pagesA: pa.size, pagesB: pb.size, common, changed,
      });
    }
  }
  return out;
}

/** A pair of hosts and the relations of the copies between them. */
export interface HostPair {
  a: string;
  b: string;
  /** True when some copy on one mirrors some copy on the other (exact, partial or lagging, prefix-shifted or not). */
  mirror: boolean;
  relations: Array<{ a: string; b: string; relation: CopyPair['relation']; prefixShifted: boolean }>;
}

/** Takes the plan and the copy pairs; returns every pair of distinct hosts that hold copies of one work. */
export function hostPairs(copies: CopySpec[], pairs: CopyPair[]): HostPair[] {
  const host = new Map(copies.map((c) => [c.id, c.host]));
  const out = new Map<string, HostPair>();
  for (const p of pairs) {
    let [ha, hb] = [host.get(p.a)!, host.get(p.b)!];
    if (ha === hb) continue;
    let [ca, cb] = [p.a, p.b];
    if (hb < ha) [ha, hb, ca, cb] = [hb, ha, cb, ca];
    const key = `${ha} ${hb}`;
    let hp = out.get(key);
    if (!hp) out.set(key, (hp = { a: ha, b: hb, mirror: false, relations: [] }));
    hp.mirror ||= p.mirror;
    hp.relations.push({ a: ca, b: cb, relation: p.relation, prefixShifted: p.prefixShifted });
  }
  return [...out.values()].sort((x, y) => (x.a === y.a ? (x.b < y.b ? -1 : 1) : x.a < y.a ? -1 : 1));
}
