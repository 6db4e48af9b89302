// Beyond one machine: the Parquet contract, the SQL templates and their dialects, and DuckDB
// embedded as the engine (Node only; DuckDB is an optional peer dependency loaded on first use).
export { CONTRACT, CONTRACT_VERSION, asSigned, asUnsigned, checkRows, type TableName, type TableRows, type ContractColumn, type ColumnType, type ColumnData } from './contract.js';
export { keyRows, sizeRows, documentRows, linkRows, memberRows, pageRows, type PageColumns, type RowOptions, type KeyRowsSource, type DocumentFields } from './rows.js';
export { ParquetSink, parquetBytes, parquetSchema, type ParquetOptions } from './parquet.js';
export { openParquetFile, writeParquetFile } from './parquet-file.js';
export { parseTemplate, renderTemplate, numberLiteral, TEMPLATE_NAMES, type SqlTemplate, type TemplateParam, type TemplateName, type ParamValue, type DialectWriter } from './templates.js';
export { loadTemplate, loadTemplates, templateFolder } from './template-files.js';
export { dialectWriter, isTableName, DIALECTS, type Dialect } from './dialects.js';
export { renderPlan, planScript, PLAN_STAGES, type PlanOptions, type PlanStatement, type PlanStage } from './plan.js';
export { DuckDBEngine, loadDuckDB, parseMemory, type EngineOptions, type StatementProgress } from './duckdb.js';
export { runPipeline, type PipelineOptions, type PipelineResult, type PipelineProgress, type PipelineBatch, type PipelineStats, type ScalePairs } from './pipeline.js';
export { clusterWithDuckDB, type DuckDBClusterOptions } from './cluster.js';
export { clusterSpilled } from './spilled.js';
export { duckDBPairFinder } from './candidates.js';
export { linkSummaryWithDuckDB, type LinkSummaryInput, type LinkSummaryRows } from './link-summary.js';
export { sqlComponents, unionFindLabels, type SqlComponentsOptions } from './components.js';
export { openSpark, SparkSession, type SparkOptions, type SparkJob, type SparkResult } from './spark.js';
export { sketchToParquet, readShardSet, parseShard, shardOfHost, type ParquetShardOptions, type ParquetShardResult, type ShardManifest, type ShardSet, type ShardId } from './shards.js';
export { nearDuplicatesFromParquet, type FromParquetOptions, type FromParquetResult } from './from-parquet.js';
