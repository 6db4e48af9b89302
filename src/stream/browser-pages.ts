// The pages a browser entry point reads: an array or iterable of pages, strings, bytes, Files or
// Blobs made into an array of pages, files placed and named as the Node folder reader places and
// names a folder's files. Loaded with the entry points' chunks (src/browser-entry-points.ts).
import { optionError } from '../errors.js';
import { mirrorPathToUrl } from '../io/folder.js';
import { contentTypeFromName } from '../io/sniff.js';
import type { Page, PageLike } from '../io/pages.js';
/**
 * What an entry point reads in a browser: an array or (async) iterable of pages
 * `{ url, html | text | bytes, date?, ip? }`, strings (plain text), byte arrays, or `File`s and
 * `Blob`s. Files are read as the Node folder reader reads a folder: sorted by path, a file
 * `folder/host/a/b.html` (its `webkitRelativePath`) is the page `http://host/a/b.html`, its type from
 * its name and its bytes; a file without such a path, and a Blob, is the page `id:<position>`.
 */
export type BrowserInput = Iterable<PageLike | Blob> | AsyncIterable<PageLike | Blob>;

const isBlob = (x: unknown): x is Blob => typeof Blob !== 'undefined' && x instanceof Blob;

/** Orders paths as a walk that sorts each folder's names does (`a/z` before `a-b/c`). */
function comparePaths(a: string, b: string): number {
  const x = a.split('/'), y = b.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return x.length - y.length;
}

/** Takes a browser input and the entry's name; resolves to its pages as an array (files read and placed in path order), ready for the entry point. */
export async function browserPages(input: BrowserInput, where: string): Promise<PageLike[]> {
  if (input === null || typeof input !== 'object' || typeof input === 'string'
    || (typeof (input as Iterable<unknown>)[Symbol.iterator] !== 'function' && typeof (input as AsyncIterable<unknown>)[Symbol.asyncIterator] !== 'function')) {
    throw optionError(`${where} input`, 'an array or iterable of pages, strings, bytes, Files or Blobs (a path needs Node)', input);
  }
  const items: (PageLike | Blob)[] = [];
  for await (const item of input as AsyncIterable<PageLike | Blob>) items.push(item);
  if (!items.some(isBlob)) return items as PageLike[];
  // files in the order the folder reader walks their folder, the other items where they stand
  const files = items.map((item, i) => ({ item, i, path: isBlob(item) ? pathOf(item) : undefined }));
  const placed = files.filter((f) => f.path !== undefined).sort((a, b) => comparePaths(a.path!, b.path!));
  let k = 0;
  const ordered = files.map((f) => (f.path !== undefined ? placed[k++] : f));
  return Promise.all(ordered.map(async ({ item, i, path }) => (isBlob(item) ? filePage(item, path, i) : item)));
}

function pathOf(blob: Blob): string | undefined {
  const f = blob as Blob & { name?: string; webkitRelativePath?: string; relativePath?: string };
  const path = f.webkitRelativePath || f.relativePath || f.name;
  return typeof path === 'string' && path !== '' ? path : undefined;
}

async function filePage(blob: Blob, path: string | undefined, i: number): Promise<Page> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  const segments = path?.split('/') ?? [];
  // the first segment is the folder chosen, the second the host (a wget mirror's layout)
  const url = segments.length >= 3 ? mirrorPathToUrl(segments.slice(1)) : undefined;
  const name = segments[segments.length - 1]?.split('?')[0];
  const contentType = name !== undefined ? contentTypeFromName(name) : undefined;
  return { url: url ?? `id:${i}`, bytes, ...(contentType !== undefined ? { contentType } : {}) };
}
