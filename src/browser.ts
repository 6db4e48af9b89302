// The browser root entry: the core (WebAssembly inlined as base64, so `await init()` needs no file to
// serve), the entry points on pages and files in memory (each loaded when first called), the worker
// pool on Web Workers (its script, worker-browser.js, sits beside this bundle) and the file reader
// for dropped files. No Node built-ins: it runs in pages and in workers. The steps (clusters of a
// sketch set, serialization, fingerprints, …) are in `web-resemble/advanced`.
import { poolWith, type PoolOptions } from './workers/pool.js';
import { browserCores, webWorkerSpawn } from './workers/browser.js';
import { poolOf, type Pool } from './stream/pool.js';
import { useWorkerScript } from './stream/pool-browser.js';

export * from './index.js';
export type { Pool, PoolOptions, FingerprintManyOptions, EstimateMinPairsOptions } from './stream/pool.js';
export { fileBytes, type FileBytes } from './io/file-bytes.js';
// The entry points, one per capability, on pages, strings, bytes, Files or Blobs: the records the
// matching `resemble` command prints, as in Node.
export {
  findNearDuplicates, dedup, sketchCrawl, findCollections, findMirrors, studyDuplicates, findSignatureCollisions, type BrowserInput
} from './browser-entry-points.js';
export type { EntryOptions, EntryResult, ReadSummary, Page, PageLike } from './stream/entry.js';
export type { NearDuplicateRunOptions, FoundNearDuplicates, NearDuplicateSummary, ThinPage } from './cluster/find.js';
export type { DedupOptions, Deduplicated, DedupSummary, DropRecord } from './cluster/deduplicate.js';
export type { PipelineEvent } from './cluster/stream.js';
export type { SketchCrawlOptions, SketchRecord, CrawlSketchRecords } from './stream/sketch-records.js';
export type { StreamProgress } from './stream/sketch-crawl.js';
export type { FindCollectionsOptions, FoundCollections, CollectionSummary, CollectionReport } from './collections/entry.js';
export type { UrlRules, UrlRule, UrlRuleKind, UrlRuleOptions, CrawlRuleOptions } from './collections/url-rules/index.js';
export type { FindMirrorsOptions, FoundMirrors, MirrorSummary, MirrorEvaluation } from './mirrors/entry.js';
export type { StudyDuplicatesOptions, StudiedDuplicates, StudySummary } from './study/entry.js';
export type { SignatureCollisionOptions, FoundSignatureCollisions, SignatureSummary, CollisionRecord, CollisionGroupRecord } from './signatures/entry.js';

/** Options of the browser pool: PoolOptions plus where the worker script is. */
export interface BrowserPoolOptions extends PoolOptions {
  /** The module worker script. Default: worker-browser.js beside this module. */
  workerUrl?: string | URL;
}

// The entry points' pools start the worker script beside this module.
const startWorker = () => new Worker(new URL('./worker-browser.js', import.meta.url), { type: 'module' });
useWorkerScript(startWorker);

/**
 * Takes pool options; returns a Web Worker pool (call `await init()` first, `await pool.close()`
 * when done). Bundlers (Vite, webpack, esbuild, Parcel) recognise the literal
 * `new Worker(new URL('./worker-browser.js', import.meta.url), { type: 'module' })` and emit the
 * worker script as its own file; pass `workerUrl` if yours does not.
 */
export function createPool(options: BrowserPoolOptions = {}): Pool {
  const { workerUrl, ...rest } = options ?? {};
  const start = workerUrl !== undefined ? () => new Worker(workerUrl, { type: 'module' }) : startWorker;
  return poolOf(poolWith(webWorkerSpawn(start), browserCores(), rest));
}
