// The steps of each algorithm that need no Node built-ins, for `web-resemble/advanced` (src/advanced.ts
// in Node, src/advanced-browser.ts in browsers, which also re-export the root): the sketch
// machinery, fingerprints and chunking, serialization, the in-memory near-duplicate clustering of a
// sketch set, and the replicated collections' steps. Not an entry of its own.
export { compiledModule, isInitialized, kernelBuild, simdSupported } from './wasm/loader.js';
// Sketches, estimates, exact measures, fingerprints and serialization.
export {
  DEFAULT_W, DEFAULT_S, DEFAULT_M,
  SketchSet, kmvCardinality, type SketchColumns, type SketchError, sketchItems,
  SketchBuilder, assertComparable, minResemblance, intersectionSize, exactResemblance, exactContainment, shingleSet,
  canonicalize, tokenFingerprints, shingleValues, fingerprint, fingerprintMany, Fingerprinter,
  rollingFingerprints, chunkBoundaries, Chunker, POLYNOMIAL, type ChunkOptions, serializeSketchSet,
  deserializeSketchSet, SKETCH_MAGIC, SKETCH_VERSION, superShingles
} from './sketch/index.js';
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
// Near-duplicate clusters of a sketch set in memory, and the index's file format.
export {
  nearDuplicates, NearDuplicates, type NearDuplicateOptions, type CandidateStats,
  nearDuplicatesOnPool, type PoolNearDuplicateOptions, type MinRows, type MinChunkEstimates,
  type ClusterMethod, type RepresentativeRule, Clusters, type ClusterPolicy,
  type NearDuplicateCluster, type MemberEvidence, type ClusterStats,
  INDEX_MAGIC, INDEX_VERSION, type EquivalenceLevel,
  type EvidenceKind, type Equivalence, UnionFind, type Components, type LshParams,
  type PostingLists, type PostingsOptions, type KeyedColumns, nearDuplicateRecord,
  type ClusterRecordOut, type MemberRecord, type ClusterParams, type SketchKind,
  type ClusterColumns, type PairTable
} from './cluster/index.js';
