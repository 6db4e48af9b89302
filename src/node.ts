// The Node entry: the core and near-duplicate clustering (as in the browser entry), the worker
// pool on worker_threads, the web graph and the crawl readers, which use Node built-ins. Browsers
// resolve the package to ./browser.ts through its "browser" export condition.
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
// Content mode: templates learnt per host and left out of the sketches.
export {
  learnTemplates, type TemplateOptions, type TemplateParams, type TemplateStats,
  type LearnedTemplates, sketchWithTemplates, type CrawlSketches, type MemberContentEvidence,
  type ContentTables, type BlockFingerprints, TemplateLearner, sketchReady, type ReadyPage,
  type LearnerOptions, type Reroute, SiteRouter, routeSites, deepestKnownSite, isRedirectStub, pageIdentity
} from './template/index.js';
export { createPool, type NodePoolOptions, type Pool, type PoolOptions, type PoolSketchOptions, type FingerprintManyOptions, type EstimateMinPairsOptions } from './stream/pool-node.js';
export type { LineJob } from './io/read-back.js';
// The web graph and the document type.
export {
  WebGraph, type WebGraphOptions, normalizeUrl, hostOfUrl, type Csr, utf8Bytes, type Document,
  type ReadError, type RecordOrigin
} from './graph/index.js';
// The crawl readers.
export {
  readCrawl, readBatches, loadCrawl, type BatchOptions, type DocumentBatch, readSingleFile,
  type LoadedCrawl, type LoadOptions, type SkipCounts, readFolder, readWarc, readWarcStreaming,
  readJsonl, readUrlList, decodeHtml, detectCharset, sniffCharset, type DecodedHtml, type CharsetSource,
  extractLinks, fileBytes, type FileBytes, type Piece, type Damage, type ReadOptions,
  type InputKind, type SkipEvent, type SkipReason,
  urlVariant, type UrlVariant, type VariantRule, CrawlPhenomena, phenomenaSummary, phenomenaRecords, type CrawlPhenomenaOptions,
  type PhenomenaReport, type VariantRecord, type Soft404Record, type Soft404Host, type HostAliasRecord, type RedirectRecord
} from './io/index.js';
// Mirrored hosts (Bharat, Broder, Dean and Henzinger).
export {
  HostSet, parseHostsFile, type HostSetOptions, type HostsFile, type UrlParts, type IpAddress,
  Ranking, type AlgorithmName, type Evidence, type TermVectors, type DfLimits, type CosinePairs,
  type CosineOptions, type IpRankOptions, type TermRankOptions, type ConnOptions, type LinkTest,
  type HconnOptions, type CombinedOptions, type HybridScoreParams, type ContentEvidenceFn,
  type HybridOptions, type PathAlignment, type AlignOptions, type Verdict, type MirroringResult,
  type AlignmentEvidence, type MirrorRule, type MirrorRuleOptions, type PairOutcome,
  type ComparisonPlan, rankMirrors, rankAll, type MirrorInput, type RankMirrorsOptions,
  mirroringTest, verifyRanking, type MirroringTestOptions, type VerifyOptions, evaluateRankings,
  precisionAtRecall, truthJudge, poolJudge, type Judge, type Curve, type EvaluateOptions,
  type TruthFile, type FigureData, crawlContentSource, type Content, type ContentSource,
  type ContentSimilarity, type HostContent, type HostPages, mirrorInputFromDocuments,
  type CrawlInputOptions
} from './mirrors/index.js';
// Where duplicates occur (Pereira, Baeza-Yates and Ziviani).
export {
  shingleParagraphs, type ParagraphOptions, type ParagraphParams, paragraphColumns,
  type ParagraphColumns, type FingerprintMany, findDuplicates, type DuplicateOptions,
  type DuplicateResult, type Clustering, type GrowthPoint, reachableFrom, stronglyConnected,
  growthProfile, extrapolate, type ProfilePoint, type DuplicateEstimate, duplicateStudy,
  type StudyOptions, type StudyReport, type PartDuplicates, type SizeDistribution, studyCrawl,
  type CrawlStudyOptions, pageText, studyMarkdown, studyPlots
} from './study/index.js';
// Content and hyperlink signatures (Di Iorio et al.).
export {
  bagsFromTokens, type BagsOfWords, type SignatureOptions, type SignatureParams,
  type CollisionOptions, type CollisionParams, randomProjection, hyperlinkMap, computeSignatures,
  type Signatures, findCollisions, collisionGroups, cliqueGroups, type CollisionPairs,
  type CollisionGroup, type CliqueGroup, type GroupMember, sampleReference, evaluateCollisions,
  precisionRecall, type ReferenceOptions, type PrPoint, type SweepOptions, type ExactPairs,
  shingleSetsOf, exactJaccard, pairsAtLeast, scorePairs, type ShingleSets, type JaccardPairs,
  type PairScore, crawlBags, signaturesOfCrawl, type BagOptions, signatureReport,
  type SignatureReport, type SignatureReportOptions, type ReportGroup, type ReportMember, type ReportPairs
} from './signatures/index.js';
export { renderSvg, plotSeries, type PlotSeries, type PlotOptions, type VegaLiteSpec } from './report/plot.js';
// Beyond one machine: Parquet, SQL plans, DuckDB and Spark.
export {
  CONTRACT, CONTRACT_VERSION, type TableName, type TableRows, type ContractColumn, type ColumnType,
  type ColumnData, keyRows, type RowOptions, type KeyRowsSource, type DocumentFields, ParquetSink,
  type ParquetOptions, openParquetFile, writeParquetFile, type SqlTemplate, type TemplateParam,
  type TemplateName, type ParamValue, type DialectWriter, type Dialect, renderPlan, planScript,
  type PlanOptions, type PlanStatement, type PlanStage, DuckDBEngine, type EngineOptions,
  type StatementProgress, runPipeline, type PipelineOptions, type PipelineResult,
  type PipelineProgress, type PipelineBatch, type PipelineStats, type ScalePairs,
  clusterWithDuckDB, type DuckDBClusterOptions, linkSummaryWithDuckDB, type LinkSummaryInput,
  type LinkSummaryRows, type SqlComponentsOptions, openSpark, type SparkSession, type SparkOptions,
  sketchToParquet, readShardSet, type ParquetShardOptions, type ParquetShardResult, type ShardManifest,
  type ShardSet, type ShardId, nearDuplicatesFromParquet, type FromParquetOptions, type FromParquetResult
} from './scale/index.js';
