// resemble's core entry: no Node built-ins, so the browser build stays clean. It exports the API the
// manual documents (docs/library.md), by capability, and every type of it; the steps inside each capability stay
// internal (test/bundle/surface.test.ts pins the list).
// `await init()` once; every other call is synchronous.
export { init, initSync, compiledModule, isInitialized, kernelBuild, simdSupported, type InitOptions, type WasmSource } from './wasm/loader.js';
// Sketches, estimates, exact measures, fingerprints and serialization.
export {
  resolveSketchOptions, DEFAULT_W, DEFAULT_S, DEFAULT_M, type SketchOptions, type SketchParams,
  SketchSet, kmvCardinality, type Sketch, type SketchColumns, type SketchError, sketchItems,
  SketchBuilder, sketch, sketchMany, assertComparable, type SketchManyOptions, resemblance,
  containment, minResemblance, intersectionSize, exactResemblance, exactContainment, shingleSet,
  canonicalize, tokenFingerprints, shingleValues, fingerprint, fingerprintMany, Fingerprinter,
  rollingFingerprints, chunkBoundaries, Chunker, POLYNOMIAL, type ChunkOptions, serializeSketchSet,
  deserializeSketchSet, SKETCH_MAGIC, SKETCH_VERSION, superShingles, type DocInput
} from './sketch/index.js';
export { ResembleError, type ErrorCode } from './errors.js';
export type { Document, ReadError, RecordOrigin } from './graph/document.js';
// Replicated collections (Cho, Shivakumar and Garcia-Molina): similar clusters, the avoid-list, roll-up.
export {
  avoidList, AvoidList, type AvoidEntry, type AvoidOptions, type Redundancy, breakPoints,
  type BreakPoints, type ChunkColumns, type ChunkParams, checkDefinition5,
  type Definition5Violation, collectionsOfGraph, type CollectionOptions, type ReplicatedCollections,
  type SimilarCluster, growClusters, type GrownCluster, type IcebergOptions, type SharedPairs,
  linkSummary, type LinkSummary, type LinkSummaryOptions, mergeEdges, type MergeEdges, pageGraph,
  type NamedPageGraph, type PageGraph, type PlantedCrawl, type PlantedOptions,
  replicatedCollections, type ReplicatedOptions, clusterRecord, type ClusterRecord,
  type CollectionRecord, rollUp, type RollUpEntry, type RollUpError, type RollUpOptions,
  type RollUpReplica, parseSimilarity, similarPages, type SimilarPages, type Similarity,
  trivialFromPairs, type TrivialClusters
} from './collections/index.js';
// Near-duplicate clusters, the index and its persistence.
export {
  nearDuplicates, NearDuplicates, type NearDuplicateOptions, type CandidateStats,
  nearDuplicatesOnPool, type PoolNearDuplicateOptions, type MinRows, type MinChunkEstimates,
  type ClusterMethod, type RepresentativeRule, Clusters, type ClusterPolicy,
  type NearDuplicateCluster, type MemberEvidence, type ClusterStats, ResembleIndex,
  type IndexOptions, type DocumentMeta, type QueryOptions, type QueryHit, type AddResult,
  saveIndex, loadIndex, INDEX_MAGIC, INDEX_VERSION, type LoadIndexOptions, type EquivalenceLevel,
  type EvidenceKind, type Equivalence, UnionFind, type Components, type LshParams,
  type PostingLists, type PostingsOptions, type KeyedColumns, nearDuplicateRecord,
  type ClusterRecordOut, type MemberRecord, type ClusterParams, type SketchKind,
  type ClusterColumns, type PairTable
} from './cluster/index.js';
