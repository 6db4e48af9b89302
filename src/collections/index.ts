// Replicated web collections (Cho, Shivakumar, Garcia-Molina, "Finding replicated web collections").
export { avoidList, AvoidList, type AvoidEntry, type AvoidOptions, type Redundancy } from './avoid.js';
export { breakPoints, type BreakPoints } from './break-points.js';
export { chunkFingerprints, pageChunks, type ChunkColumns, type ChunkParams } from './chunks.js';
export { checkDefinition5, type Definition5Violation } from './definition5.js';
export { collectionOptions, findCollections, type CollectionOptions, type ReplicatedCollections, type SimilarCluster } from './find.js';
export { growClusters, type GrownCluster } from './grow.js';
export { icebergPairs, type IcebergOptions, type SharedPairs } from './iceberg.js';
export { linkSummary, type LinkSummary, type LinkSummaryOptions } from './link-summary.js';
export { mergeCondition, mergeEdges, type MergeEdges } from './merge.js';
export { interSiteInLinks, pageGraph, reverseLinks, type NamedPageGraph, type PageGraph } from './page-graph.js';
export { plantedCrawl, type PlantedCrawl, type PlantedOptions } from './planted.js';
export { replicatedCollections, type ReplicatedOptions } from './replicated.js';
export { clusterRecord, type ClusterRecord, type CollectionRecord } from './report.js';
export { rollUp, type RollUpEntry, type RollUpError, type RollUpOptions, type RollUpReplica } from './rollup.js';
export { DEFAULT_SIMILARITY, parseSimilarity, similarPages, type SimilarPages, type Similarity } from './similarity.js';
export { trivialFromLabels, trivialFromPairs, type TrivialClusters } from './trivial.js';
