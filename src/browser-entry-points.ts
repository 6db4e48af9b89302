// The entry points in browsers: the same seven as in Node, on the pages a page holds (objects
// `{ url, html | text | bytes }`, strings, bytes) or on `File`s and `Blob`s, running on the Web Worker
// pool. Each is loaded when first called (its own chunks beside the bundle, with the reading of
// files: src/stream/browser-pages.ts), so a page that only sketches downloads none of the pipelines; the
// records are those Node gives for the same pages.
import type { PageLike } from './io/pages.js';
import type { BrowserInput } from './stream/browser-pages.js';
import type { FoundNearDuplicates, NearDuplicateRunOptions } from './cluster/find.js';
import type { DedupOptions, Deduplicated } from './cluster/deduplicate.js';
import type { CrawlSketchRecords, SketchCrawlOptions } from './stream/sketch-records.js';
import type { FindCollectionsOptions, FoundCollections } from './collections/entry.js';
import type { FindMirrorsOptions, FoundMirrors } from './mirrors/entry.js';
import type { StudiedDuplicates, StudyDuplicatesOptions } from './study/entry.js';
import type { FoundSignatureCollisions, SignatureCollisionOptions } from './signatures/entry.js';

export type { BrowserInput } from './stream/browser-pages.js';

const pagesOf = async (input: BrowserInput, where: string): Promise<PageLike[]> => (await import('./stream/browser-pages.js')).browserPages(input, where);

/** Finds the near-duplicate clusters of pages or files: the records `resemble dups` prints (as Node's findNearDuplicates), on the Web Worker pool. */
export async function findNearDuplicates(input: BrowserInput, options: NearDuplicateRunOptions = {}): Promise<FoundNearDuplicates> {
  const [m, pages] = await Promise.all([import('./cluster/find.js'), pagesOf(input, 'findNearDuplicates')]);
  // pages in memory are read again for the exact checks: no spill file
  return m.findNearDuplicates(pages, { spillDir: false, ...(options ?? {}) });
}

/** Deduplicates pages or files: the records `resemble dedup` writes and its drop list (as Node's dedup), on the Web Worker pool. */
export async function dedup(input: BrowserInput, options: DedupOptions = {}): Promise<Deduplicated> {
  const [m, pages] = await Promise.all([import('./cluster/deduplicate.js'), pagesOf(input, 'dedup')]);
  return m.dedup(pages, { spillDir: false, ...(options ?? {}) });
}

/** Sketches pages or files: the records `resemble sketch` prints (as Node's sketchCrawl), on the Web Worker pool. */
export async function sketchCrawl(input: BrowserInput, options: SketchCrawlOptions = {}): Promise<CrawlSketchRecords> {
  const [m, pages] = await Promise.all([import('./stream/sketch-records.js'), pagesOf(input, 'sketchCrawl')]);
  return m.sketchCrawl(pages, options);
}

/** Finds the replicated collections of pages or files: the records `resemble collections` prints (as Node's findCollections), on the Web Worker pool. */
export async function findCollections(input: BrowserInput, options: FindCollectionsOptions = {}): Promise<FoundCollections> {
  const [m, pages] = await Promise.all([import('./collections/entry.js'), pagesOf(input, 'findCollections')]);
  return m.findCollections(pages, options);
}

/** Finds the mirrored hosts of pages or files: the records `resemble mirrors` prints (as Node's findMirrors), on the Web Worker pool. */
export async function findMirrors(input: BrowserInput, options: FindMirrorsOptions = {}): Promise<FoundMirrors> {
  const [m, pages] = await Promise.all([import('./mirrors/entry.js'), pagesOf(input, 'findMirrors')]);
  return m.findMirrors(pages, options);
}

/** Studies the duplicates of pages or files: the records `resemble study` prints (as Node's studyDuplicates), on the Web Worker pool. */
export async function studyDuplicates(input: BrowserInput, options: StudyDuplicatesOptions = {}): Promise<StudiedDuplicates> {
  const [m, pages] = await Promise.all([import('./study/entry.js'), pagesOf(input, 'studyDuplicates')]);
  return m.studyDuplicates(pages, options);
}

/** Finds the pages of pages or files whose signatures collide: the records `resemble signatures` prints (as Node's findSignatureCollisions), on the Web Worker pool. */
export async function findSignatureCollisions(input: BrowserInput, options: SignatureCollisionOptions = {}): Promise<FoundSignatureCollisions> {
  const [m, pages] = await Promise.all([import('./signatures/entry.js'), pagesOf(input, 'findSignatureCollisions')]);
  return m.findSignatureCollisions(pages, options);
}
