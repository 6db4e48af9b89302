// Near-duplicate clustering, on-the-fly queries and the persistent index (Broder, Glassman,
// Manasse and Zweig): what this folder offers the rest of the library (the entries re-export a
// chosen part of it, by name). The other capabilities take the clustering steps they share (union-find,
// candidate pairs over postings, 64-bit columns' word order) from here, never from the files behind it,
// and so do the engines beyond memory built on the clustering (src/scale).
export { nearDuplicates, nearDuplicatesOnPool, NearDuplicates, candidatePairs, nonEmpty, priorities, completeAbove, resolveNearDuplicateOptions, type NearDuplicateOptions, type PoolNearDuplicateOptions, type CandidateStats, type ClusterMethod, type RepresentativeRule } from './near-duplicates.js';
export { Clusters, finalPhase, type ClusterPolicy, type ClusterRecord as NearDuplicateCluster, type MemberEvidence, type ClusterStats } from './clusters.js';
export { ResembleIndex, saveIndex, loadIndex, type ResembleIndexOptions } from './resemble-index/resemble-index.js';
export { resolveIndexOptions, parseDate, type IndexOptions, type DocumentMeta, type QueryOptions, type QueryHit, type AddResult } from './resemble-index/options.js';
export { checksum, INDEX_MAGIC, INDEX_VERSION, type LoadIndexOptions } from './resemble-index/format.js';
export { setAside, KIND_NAMES, type EquivalenceLevel, type EvidenceKind, type Equivalence } from './equivalence.js';
export { SetEstimator, estimateRows, C_AB, C_BA, SHARED } from '../sketch/row-estimates.js';
export { estimateRowPairs, type MinRows, type MinChunkEstimates } from '../sketch/pair-estimates.js';
export { UnionFind, components, type Components } from './union-find.js';
export { lshParams, bandKeys, type LshParams } from './lsh.js';
export { buildPostings, findList, type PostingLists, type PostingsOptions } from './postings.js';
export { sortKeyed, sortKeyedFast, keyedColumns, type KeyedColumns } from './radix-sort.js';
export { clusterRecord as nearDuplicateRecord, sketchOptionsFor, type ClusterRecordOut, type MemberRecord } from './records.js';
export { HI, LO, type ClusterParams, type SketchKind, type ClusterColumns, type PairEstimator, type RowColumns } from '../sketch/columns.js';
export { forEachCandidate, PairTableBuilder, type PairTable } from './pairs.js';
export { prefixKeys } from './prefix.js';
