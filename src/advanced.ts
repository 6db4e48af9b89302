// `web-resemble/advanced` in Node: the root entry (re-exported, so one import line suffices) and the
// steps inside each capability, for those who compose their own pipeline: content mode's templates,
// the web graph, the readers' steps, mirrors' rankings and tests, the study's and the signatures'
// stages, plots, and the scale path (Parquet, SQL plans, DuckDB, Spark). The browser build is
// src/advanced-browser.ts; docs/library.md lists what is here, docs/architecture.md why.
export * from './node.js';
export * from './advanced-core.js';
// The root has SketchSet as a type only: here it is the class.
export { SketchSet } from './advanced-core.js';
// Content mode: templates learnt per host and left out of the sketches.
export {
  learnTemplates, type TemplateOptions, type TemplateParams, type TemplateStats,
  type LearnedTemplates, sketchWithTemplates, type CrawlSketches, type MemberContentEvidence,
  type ContentTables, type BlockFingerprints, TemplateLearner, sketchReady, type ReadyPage,
  type LearnerOptions, type Reroute, SiteRouter, routeSites, deepestKnownSite, isRedirectStub, pageIdentity
} from './template/index.js';
// The web graph.
export { WebGraph, type WebGraphOptions, normalizeUrl, hostOfUrl, type Csr } from './graph/index.js';
// The readers' steps: one file, streaming WARC, charsets, links, URL variants and crawl phenomena.
export {
  readSingleFile, readWarcStreaming, decodeHtml, detectCharset, sniffCharset, type DecodedHtml,
  type CharsetSource, extractLinks, urlVariant, type UrlVariant, type VariantRule, CrawlPhenomena, phenomenaSummary, phenomenaRecords, type CrawlPhenomenaOptions,
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
// Plots (SVG from Vega-Lite): they need the optional packages vega and vega-lite.
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
