// The root entry in Node (`web-resemble`): the core (init, sketches, the index, errors), one entry
// point per capability (each returns the records the matching `resemble` command prints), the worker
// pool on worker_threads and the crawl readers. At most 50 values (test/bundle/surface.test.ts): the
// algorithm steps are in `web-resemble/advanced` (src/advanced.ts). Browsers resolve the package to
// ./browser.ts through its "browser" export condition.
export * from './index.js';
// The entry points, one per capability: the records the matching `resemble` command prints.
export type { CrawlInput, EntryOptions, EntryResult, ReadSummary, Page, PageLike } from './stream/entry.js';
export { findNearDuplicates, type NearDuplicateRunOptions, type FoundNearDuplicates, type NearDuplicateSummary, type ThinPage } from './cluster/find.js';
export { dedup, type DedupOptions, type Deduplicated, type DedupSummary, type DropRecord } from './cluster/deduplicate.js';
export type { PipelineEvent } from './cluster/stream.js';
export { sketchCrawl, type SketchCrawlOptions, type SketchRecord, type CrawlSketchRecords } from './stream/sketch-records.js';
export type { StreamProgress } from './stream/sketch-crawl.js';
export { findCollections, type FindCollectionsOptions, type FoundCollections, type CollectionSummary, type CollectionReport } from './collections/entry.js';
// findCollections({ rules }) returns learnt URL rules (the class itself: web-resemble/crawlee).
export type { UrlRules, UrlRule, UrlRuleKind, UrlRuleOptions, CrawlRuleOptions } from './collections/url-rules/index.js';
export { findMirrors, type FindMirrorsOptions, type FoundMirrors, type MirrorSummary, type MirrorEvaluation } from './mirrors/entry.js';
export { studyDuplicates, type StudyDuplicatesOptions, type StudiedDuplicates, type StudySummary } from './study/entry.js';
export { findSignatureCollisions, type SignatureCollisionOptions, type FoundSignatureCollisions, type SignatureSummary, type CollisionRecord, type CollisionGroupRecord } from './signatures/entry.js';
export { buildIndex, type BuildIndexOptions, type BuiltIndex, type IndexSummary, type IndexClusterRecord } from './cluster/resemble-index/build-index.js';
export { queryIndex, type QueryInput, type QueryIndexOptions, type QueriedIndex, type QuerySummary, type QueryHitRecord, type ClusterQueryRecord } from './cluster/resemble-index/query-index.js';
// The worker pool the entry points run on (pass `pool` to share one between runs).
export { createPool, type NodePoolOptions, type Pool, type PoolOptions, type PoolSketchOptions, type FingerprintManyOptions, type EstimateMinPairsOptions } from './stream/pool-node.js';
export type { LineJob } from './io/read-back.js';
// The crawl readers: what the entry points read, as documents.
export { utf8Bytes } from './graph/index.js';
export {
  readCrawl, readBatches, loadCrawl, type BatchOptions, type DocumentBatch, type LoadedCrawl,
  type LoadOptions, type SkipCounts, readFolder, readWarc, readJsonl, readUrlList, fileBytes,
  type FileBytes, type Piece, type Damage, type ReadOptions, type InputKind, type SkipEvent, type SkipReason
} from './io/index.js';
