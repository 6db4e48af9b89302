// Near-duplicate clustering, on-the-fly queries and the persistent index (Broder, Glassman,
// Manasse and Zweig): the public surface of this folder, for the core entry to re-export.
export { nearDuplicates, nearDuplicatesOnPool, NearDuplicates, candidatePairs, priorities, type NearDuplicateOptions, type PoolNearDuplicateOptions, type CandidateStats, type ClusterMethod, type RepresentativeRule } from './near-duplicates.js';
export { Clusters, finalPhase, type ClusterPolicy, type ClusterRecord as NearDuplicateCluster, type MemberEvidence, type ClusterStats } from './clusters.js';
export { ResembleIndex, saveIndex, loadIndex, type ResembleIndexOptions } from './resemble-index/resemble-index.js';
export { resolveIndexOptions, parseDate, type IndexOptions, type DocumentMeta, type QueryOptions, type QueryHit, type AddResult } from './resemble-index/options.js';
export { checksum, INDEX_MAGIC, INDEX_VERSION, type LoadIndexOptions } from './resemble-index/format.js';
export { setAside, KIND_NAMES, type EquivalenceLevel, type EvidenceKind, type Equivalence } from './equivalence.js';
export { SetEstimator, estimateRows, type MinRows, type MinChunkEstimates } from './estimate.js';
export { UnionFind, components, type Components } from './union-find.js';
export { lshParams, bandKeys, type LshParams } from './lsh.js';
export { buildPostings, findList, type PostingLists, type PostingsOptions } from './postings.js';
export { sortKeyed, sortKeyedFast, keyedColumns, type KeyedColumns } from './radix-sort.js';
export { clusterRecord as nearDuplicateRecord, sketchOptionsFor, type ClusterRecordOut, type MemberRecord } from './records.js';
export type { ClusterParams, SketchKind, ClusterColumns } from './columns.js';
export type { PairTable } from './pairs.js';
