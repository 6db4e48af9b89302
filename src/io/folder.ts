import type { Stats } from 'node:fs';
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, relative } from 'node:path';
import { capAdvice, formatBytes } from './lines.js';
import type { Document } from '../graph/document.js';
import { parseUrl } from '../graph/url.js';
import { makeDocument } from './make-document.js';
import { resolveReadOptions, type ReadOptions } from './options.js';
import { contentTypeFromName, isBinaryType } from './sniff.js';

/**
 * Takes a path segment as wget wrote it; returns it as a URL path segment. wget (restrict-file-names
 * =unix, its default) writes percent-decoded names but keeps the escapes it could not decode (`%2F`,
 * `%3F` in a path): existing `%XX` escapes are kept as they are, everything else is escaped.
 */
export function segmentToUrl(segment: string): string {
  return segment
    .split(/(%[0-9A-Fa-f]{2})/)
    .map((part, i) => (i % 2 === 1 ? part : encodeURI(part).replace(/[#?]/g, (c) => (c === '#' ? '%23' : '%3F'))))
    .join('');
}

/**
 * Takes a host folder name; returns the URL host: `host+8080` (wget's spelling on Windows) and
 * `host_8080` (HTTrack's) become `host:8080` (a name ending in `_` and digits is no host name).
 */
export function hostFolderToHost(folder: string): string {
  const m = /^(.+)[+_](\d{1,5})$/.exec(folder);
  return m ? `${m[1]}:${m[2]}` : folder;
}

/** What HTTrack writes at the top of a project beside its host folders: its cache, log, index page and that page's images. */
const HTTRACK_TOP = new Set(['hts-cache', 'hts-log.txt', 'hts-err.txt', 'hts-in_progress.lock', 'hts-nohup.out', 'cookies.txt', 'index.html', 'backblue.gif', 'fade.gif']);

/**
 * Takes the path of a file inside a wget mirror as segments `[host, ...dirs, file]`; returns its URL.
 * `index.html` stands for the directory URL (ending in '/'); a file name `page.php?x=1` carries its
 * query after the first `?`, as wget writes it.
 */
export function mirrorPathToUrl(segments: readonly string[], scheme: 'http' | 'https' = 'http'): string | undefined {
  if (segments.length < 2) return undefined;
  const host = hostFolderToHost(segments[0]);
  const file = segments[segments.length - 1];
  const q = file.indexOf('?');
  let name = q < 0 ? file : file.slice(0, q);
  const query = q < 0 ? '' : file.slice(q);
  if (name === 'index.html') name = '';
  const path = [...segments.slice(1, -1), name].map(segmentToUrl).join('/');
  const u = parseUrl(`${scheme}://${host}/${path}${query.length > 1 ? query : ''}`);
  if (!u || u.host === '') return undefined;
  u.hash = '';
  return u.href;
}

interface Entry {
  path: string;
  segments: string[];
  size: number;
}

/** What the walk found that is not a file to read: a link not followed, a special file. */
interface Passed {
  path: string;
  reason: 'link' | 'other';
  message: string;
}

/** Takes file-system info; returns what kind of special file it is, for a message. */
export function specialKind(info: Stats): string {
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

function inside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

async function* walk(root: string, dir: string, segments: string[], follow: boolean, onError: (path: string, e: unknown) => void): AsyncGenerator<Entry | Passed> {
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch (e) {
    onError(dir, e);
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    let info: Stats;
    try {
      // lstat and the file read below are synchronous: through the thread pool, five round trips a
      // file left the walk waiting most of the time (a 4,654-file mirror read 2.4 s slower than
      // the same pages as JSONL); a file of the page cache is read in tens of microseconds
      info = lstatSync(path);
      if (info.isSymbolicLink()) {
        const target = await realpath(path);
        info = await stat(path);
        // A symlinked folder could loop back on itself: links are followed to files only.
        if (info.isDirectory()) {
          yield { path, reason: 'link', message: `symbolic link to a folder (${target}); folders are not followed through links` };
          continue;
        }
        if (!follow && !inside(root, target)) {
          yield { path, reason: 'link', message: `symbolic link to ${target}, outside the folder; not followed (followSymlinks, --follow-symlinks)` };
          continue;
        }
      }
    } catch (e) {
      onError(path, e);
      continue;
    }
    if (info.isDirectory()) yield* walk(root, path, [...segments, name], follow, onError);
    else if (info.isFile()) yield { path, segments: [...segments, name], size: info.size };
    else yield { path, reason: 'other', message: `${specialKind(info)}; skipped` };
  }
}

/**
 * Takes a wget mirror folder `<root>/<host>/<path>`; yields its files as documents with URLs
 * `http://<host>/<path>`, walking in sorted order. HTML is always kept; other files only when they
 * are text (binaries are skipped and reported through `onSkip`); `*.orig` backups that
 * `wget --backup-converted` leaves beside converted pages are skipped too. Links to
 * `.../index.html` inside the mirror are rewritten to the directory URL, as wget's converted links
 * name the saved file rather than the URL.
 */
export async function* readFolder(root: string, options: ReadOptions = {}): AsyncGenerator<Document> {
  const opts = resolveReadOptions(options, 'readFolder');
  const hosts = new Set<string>();
  // host folder name → its host, for links wget's --convert-links wrote into another host's folder
  const folders = new Map<string, string>();
  const ownFolders = new Map<string, boolean>();
  const hostFolders: string[] = [];
  try {
    for (const entry of await readdir(root, { withFileTypes: true })) {
      const name = entry.name;
      if (entry.isDirectory()) hostFolders.push(name);
      const host = parseUrl(`http://${hostFolderToHost(name)}/`)?.host ?? name;
      hosts.add(host);
      folders.set(name, host);
    }
  } catch (e) {
    opts.onError({ source: root, location: root, code: 'E_IO', message: (e as Error).message });
    return;
  }
  const report = (path: string, e: unknown) => opts.onError({ source: root, location: path, code: 'E_IO', message: (e as Error).message });
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch (e) {
    report(root, e);
    return;
  }
  let turn = performance.now();
  // pages beside the host folders: not a wget mirror's layout (said once, at the end)
  const topFiles: string[] = [];
  // an HTTrack project: its own files at the top are not the crawl's
  const httrack = hostFolders.includes('hts-cache');
  for await (const entry of walk(realRoot, root, [], opts.followSymlinks, report)) {
    if (httrack && HTTRACK_TOP.has((entry.path === root ? '' : relative(root, entry.path)).split(/[\\/]/)[0])) continue;
    if ('reason' in entry) {
      opts.onSkip({ reason: entry.reason, source: root, location: entry.path, message: entry.message });
      continue;
    }
    const { path, segments, size } = entry;
    const file = segments[segments.length - 1];
    const name = file.split('?')[0];
    // HTTrack's files of a run stopped midway: pages half fetched (.tmp), types not yet known (.delayed)
    const unfinished = httrack && /\.(tmp|delayed)$/i.test(name);
    const url = segments.length >= 2 && !name.endsWith('.orig') && !unfinished ? mirrorPathToUrl(segments, opts.scheme) : undefined;
    if (url === undefined) {
      // a page there, not notes beside a crawl (README, lists): the layout is likely not a mirror's
      if (segments.length < 2 && contentTypeFromName(name) === 'text/html') topFiles.push(file);
      opts.onBytes(size);
      opts.onSkip({ reason: 'other', source: root, location: path });
      continue;
    }
    const mime = contentTypeFromName(name);
    if (mime !== undefined && isBinaryType(mime)) {
      opts.onBytes(size);
      opts.onSkip({ reason: 'binary', source: root, location: path });
      continue;
    }
    if (size > opts.maxRecordBytes) {
      opts.onBytes(size);
      opts.onError({ source: root, location: path, code: 'E_INPUT', message: `file of ${formatBytes(size)} is ${capAdvice(opts.maxRecordBytes)}; skipped` });
      continue;
    }
    if (size === 0) {
      opts.onSkip({ reason: 'other', source: root, location: path, message: 'empty file; skipped' });
      continue;
    }
    // the reads are synchronous (see walk): now and then the event loop gets a turn (progress, workers' results)
    if (performance.now() - turn > TURN_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      turn = performance.now();
    }
    let bytes: Uint8Array;
    try {
      const buf = readFileSync(path);
      bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
    } catch (e) {
      report(path, e);
      continue;
    }
    opts.onBytes(bytes.length);
    const doc = folderDocument(path, bytes, url, opts.links);
    if (doc === undefined) {
      opts.onSkip({ reason: 'binary', source: root, location: path });
      continue;
    }
    if (doc.links) doc.links = doc.links.map((l) => undoIndexHtml(intoHostFolder(l, segments[0], folders, realRoot, ownFolders), hosts));
    yield doc;
  }
  if (topFiles.length > 0) opts.onWarning({ source: root, location: root, code: 'W_LAYOUT', message: layoutAdvice(topFiles, hostFolders.sort()) });
}

/**
 * What to say of a folder with pages at its top: read as a wget mirror, its top-level folders are
 * hosts and those pages are not read; `wget -nH` (no host folders) and a site's own folder look so.
 */
export function layoutAdvice(files: readonly string[], folders: readonly string[]): string {
  const list = (names: readonly string[]) => names.slice(0, 3).join(', ') + (names.length > 3 ? `, … (${names.length})` : '');
  return `${files.length} page${files.length === 1 ? '' : 's'} at the top of the folder (${list(files)}) not read: a folder is read as a wget mirror, one folder per host as \`wget -r\` writes it (without -nH)`
    + (folders.length > 0 ? `, so its folders are read as hosts (${list(folders)})` : '')
    + '. To read one site\'s files, put them in a folder named for its host: mkdir crawl && mv SITE crawl/example.org';
}

/**
 * Takes a file of a mirror folder, its bytes and its URL; returns its document as readFolder
 * yields it (charset found and the page re-encoded as UTF-8 the same way), with the file as its
 * origin, or undefined when it is binary. The exact checks read pages back through it.
 */
export function folderDocument(path: string, bytes: Uint8Array, url: string, links: boolean): Document | undefined {
  const doc = makeDocument({ url, bytes, mime: contentTypeFromName(basename(path).split('?')[0]), source: path }, links);
  if (doc) doc.origin = { path, kind: 'file', offset: 0, length: bytes.length };
  return doc;
}

/** Milliseconds of synchronous reading after which the folder reader lets the event loop run. */
const TURN_MS = 20;

/**
 * Takes an out-link of a page in host folder `from`; returns it as the URL it stands for when it is
 * a link wget's --convert-links wrote to a page saved under another host's folder: a relative link
 * that climbs out of its host's folder into a sibling (`../../docs.example.org/manual/x.html`)
 * resolves, its `..` stopped at the host's root, to `http://<from>/docs.example.org/manual/x.html`;
 * when that first folder names another host folder of the mirror and the page's host has no folder
 * of that name, it is `http://docs.example.org/manual/x.html`. Other links are returned as they are.
 */
function intoHostFolder(link: string, from: string, folders: ReadonlyMap<string, string>, root: string, seen: Map<string, boolean>): string {
  const u = parseUrl(link);
  const fromHost = folders.get(from);
  if (!u || fromHost === undefined || u.host !== fromHost) return link;
  const slash = u.pathname.indexOf('/', 1);
  if (slash < 0) return link;
  let first: string;
  try { first = decodeURIComponent(u.pathname.slice(1, slash)); } catch { return link; }
  const host = folders.get(first);
  if (host === undefined || first === from) return link;
  const key = `${from}/${first}`;
  let own = seen.get(key);
  if (own === undefined) seen.set(key, (own = existsSync(join(root, from, first))));
  if (own) return link;
  const v = parseUrl(`${u.protocol}//${host}${u.pathname.slice(slash)}${u.search}`);
  return v ? v.href : link;
}

function undoIndexHtml(link: string, hosts: Set<string>): string {
  if (!link.endsWith('/index.html')) return link;
  const u = parseUrl(link);
  return u && hosts.has(u.host) ? link.slice(0, -'index.html'.length) : link;
}
