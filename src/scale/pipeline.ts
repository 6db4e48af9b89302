// The reduce side on one machine beyond memory: the shipped SQL templates run on embedded DuckDB
// over the contract's (key, doc) rows, and only the thresholded pairs come back. Stages:
//   load       in-memory rows into tables (Parquet inputs are read in place)
//   cap        common keys dropped (Broder's cap), per-document counts of them kept
//   pairs      self-join on key, GROUP BY pair: Broder's pair counting with a threshold on hits
//   estimate   upper bound from counts, then Broder's estimators on the survivors, pair floor
//   edges      pairs over the clustering threshold
//   components union-find in the library when the edges fit, SQL label propagation otherwise
import { ResembleError, enumOption, intOption, numberOption, optionError, rejectUnknown } from '../errors.js';
import type { TableRows } from './contract.js';
import { ENGINE_OPTIONS, DuckDBEngine, type EngineOptions, type StatementProgress } from './duckdb.js';
import { readLabels, sqlComponents, unionFindLabels } from './components.js';
import { runTemplate } from './run-sql.js';
import { S_LIMITS } from '../sketch/options.js';

/** Stages of the pipeline, in order. */
export type PipelineStage = 'common' | 'load' | 'cap' | 'pairs' | 'estimate' | 'edges' | 'components' | 'read';

/** One progress report: a stage starting, running (DuckDB's own estimate) or done. */
export interface PipelineProgress {
  stage: PipelineStage;
  state: 'start' | 'running' | 'done';
  /** Seconds since the stage started. */
  seconds: number;
  /** While running: DuckDB's percent estimate for the statement (-1 when unknown). */
  percentage?: number;
  /** When done: rows the stage produced (pairs, edges...), or the rounds for SQL components. */
  rows?: number;
  rounds?: number;
}

/** Options of `runPipeline`; every one validated before the engine opens. */
export interface PipelineOptions extends EngineOptions {
  /** The only engine so far (default 'duckdb'). */
  engine?: 'duckdb';
  /** (key, doc) rows: a Parquet path or glob (several shards), or rows in memory (see `keyRows`). */
  keys?: string | TableRows;
  /**
   * Instead of `keys`/`sizes`: the map side in this process, batch by batch (each batch's rows are
   * appended to the engine's tables and can then be dropped, so memory stays at one batch).
   */
  batches?: Iterable<PipelineBatch> | AsyncIterable<PipelineBatch>;
  /** (doc, length, cardinality) rows: path/glob or rows. Needed for MIN_s; for MOD_m counted from the keys when absent. */
  sizes?: string | TableRows;
  /** Sketch kind the keys come from: 'min' (MIN_s, default) or 'mod' (MOD_m). */
  kind?: 'min' | 'mod';
  /** MIN_s sketch size (default 128). */
  s?: number;
  /** Keys in more documents than this are ignored (default 1000). */
  commonCap?: number;
  /** Least shared kept keys for a candidate pair (default 1: every pair sharing a key, as in memory). */
  minHits?: number;
  /** Pairs whose resemblance and containments are all below this are dropped (default min(0.2, threshold, containment)). */
  pairFloor?: number;
  /** Resemblance at which two documents join (default 0.5). */
  threshold?: number;
  /** Also join when containment either way reaches this (default off). */
  containment?: number;
  /** 'auto' (default): union-find in the library when edges ≤ maxLibraryEdges, else SQL; or force one. */
  components?: 'auto' | 'library' | 'sql';
  /** Most edges read back for the library union-find (default 50,000,000: 400 MB of DocIds). */
  maxLibraryEdges?: number;
  /** Documents (DocIds 0..documents-1) for the labels (default: largest DocId in sizes or keys, plus 1). */
  documents?: number;
  /** Table name prefix inside the database (default 'r_'). */
  prefix?: string;
  /** Progress per stage. */
  onProgress?: (p: PipelineProgress) => void;
}

/** One batch of map-side rows: (key, doc) and, for MIN_s, (doc, length, cardinality). */
export interface PipelineBatch {
  keys: TableRows;
  sizes?: TableRows;
}

const KNOWN = ['engine', 'keys', 'batches', 'sizes', 'kind', 's', 'commonCap', 'minHits', 'pairFloor', 'threshold', 'containment',
  'components', 'maxLibraryEdges', 'documents', 'prefix', 'onProgress', ...ENGINE_OPTIONS] as const;

/** Thresholded pairs as columns (a < b, ascending by a then b), the same columns as the in-memory PairTable. */
export interface ScalePairs {
  count: number;
  a: Uint32Array;
  b: Uint32Array;
  hits: Uint32Array;
  shared: Uint32Array;
  resemblance: Float64Array;
  containmentAB: Float64Array;
  containmentBA: Float64Array;
}

/** Counts of the pipeline, for reports. */
export interface PipelineStats {
  keyRows: number;
  keptKeys: number;
  keptRows: number;
  ignoredKeys: number;
  ignoredRows: number;
  candidatePairs: number;
  boundedPairs: number;
  retainedPairs: number;
  edges: number;
  components: 'library' | 'sql';
  rounds: number;
  /** Seconds per stage. */
  seconds: Partial<Record<PipelineStage, number>>;
}

/** What `runPipeline` returns. */
export interface PipelineResult {
  pairs: ScalePairs;
  /** Per document, the smallest DocId of its component under the threshold (itself when alone). */
  labels: Int32Array;
  stats: PipelineStats;
}

/** Validated pipeline settings. */
export interface ResolvedPipeline {
  kind: 'min' | 'mod';
  s: number;
  commonCap: number;
  minHits: number;
  /** Pairs sharing fewer than minHits keys are kept when their keys number fewer than this together (the prefix length with prefix keys; 0: none); the caller loads table `short` (doc, n) of the documents with fewer keys. */
  shortUnion?: number;
  pairFloor: number;
  threshold: number;
  containment?: number;
  components: 'auto' | 'library' | 'sql';
  maxLibraryEdges: number;
  prefix: string;
}

/** Takes pipeline options; returns them validated with defaults, or throws E_OPTION. */
export function resolvePipeline(options: PipelineOptions): ResolvedPipeline {
  rejectUnknown(options, KNOWN, 'runPipeline');
  enumOption('engine', options.engine, 'duckdb', ['duckdb'] as const);
  const kind = enumOption('kind', options.kind, 'min', ['min', 'mod'] as const);
  const s = intOption('s', options.s, S_LIMITS.default, S_LIMITS.min, S_LIMITS.max);
  const commonCap = intOption('commonCap', options.commonCap, 1000, 1, 0x7fffffff);
  const minHits = intOption('minHits', options.minHits, 1, 1, 1 << 20);
  const threshold = numberOption('threshold', options.threshold, 0.5, 0, 1);
  const containment = options.containment === undefined ? undefined : numberOption('containment', options.containment, 0, 0, 1);
  const pairFloor = numberOption('pairFloor', options.pairFloor, Math.min(0.2, threshold, containment ?? 1), 0, 1);
  if (pairFloor > threshold) throw optionError('pairFloor', `number ≤ threshold (${threshold})`, pairFloor);
  if (containment !== undefined && pairFloor > containment) throw optionError('pairFloor', `number ≤ containment (${containment})`, pairFloor);
  const components = enumOption('components', options.components, 'auto', ['auto', 'library', 'sql'] as const);
  const maxLibraryEdges = intOption('maxLibraryEdges', options.maxLibraryEdges, 50_000_000, 0, 2 ** 31 - 1);
  if (options.documents !== undefined) intOption('documents', options.documents, 0, 0, 2 ** 31 - 1);
  const prefix = options.prefix ?? 'r_';
  if (typeof prefix !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(prefix)) throw optionError('prefix', 'a table name prefix (letters, digits, _)', prefix);
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') throw optionError('onProgress', 'a function', options.onProgress);
  return { kind, s, commonCap, minHits, pairFloor, threshold, containment, components, maxLibraryEdges, prefix };
}

function checkSource(name: string, value: unknown): void {
  if (typeof value === 'string' ? value === '' : typeof value !== 'object' || value === null) throw optionError(name, 'a Parquet path or glob, or rows in memory', value);
}

/** Reports stage starts, DuckDB progress and completions, and records seconds per stage. */
export class StageClock {
  private started = 0;
  private stage: PipelineStage = 'load';
  readonly seconds: Partial<Record<PipelineStage, number>> = {};

  constructor(private readonly report?: (p: PipelineProgress) => void) {}

  /** Starts a stage. */
  start(stage: PipelineStage): void {
    this.stage = stage;
    this.started = performance.now();
    this.report?.({ stage, state: 'start', seconds: 0 });
  }

  /** A listener for DuckDB's progress on the current stage (undefined when nobody listens). */
  get running(): ((p: StatementProgress) => void) | undefined {
    const report = this.report;
    if (!report) return undefined;
    return (p) => report({ stage: this.stage, state: 'running', seconds: (performance.now() - this.started) / 1000, percentage: p.percentage });
  }

  /** Ends the current stage. */
  done(extra: Pick<PipelineProgress, 'rows' | 'rounds'> = {}): void {
    const seconds = (performance.now() - this.started) / 1000;
    this.seconds[this.stage] = (this.seconds[this.stage] ?? 0) + seconds;
    this.report?.({ stage: this.stage, state: 'done', seconds, ...extra });
  }
}

function toUint32(name: string, col: BigInt64Array | Int32Array | Float64Array): Uint32Array {
  const out = new Uint32Array(col.length);
  for (let i = 0; i < col.length; i++) {
    const x = Number(col[i]);
    if (!(x >= 0 && x <= 0xffffffff)) throw new ResembleError('E_INPUT', `${name} ${x} does not fit 32 bits; read this table from the engine instead`);
    out[i] = x;
  }
  return out;
}

/** Takes the engine and a pairs table; returns it as columns, ordered by (a, b). */
export async function readPairs(engine: DuckDBEngine, table: string): Promise<ScalePairs> {
  const c = await engine.read(`SELECT a, b, hits, shared, resemblance, containment_ab, containment_ba FROM ${table} ORDER BY a, b`);
  return {
    count: c.a.length, a: toUint32('DocId', c.a), b: toUint32('DocId', c.b), hits: toUint32('hits', c.hits), shared: toUint32('shared', c.shared),
    resemblance: Float64Array.from(c.resemblance as Float64Array), containmentAB: Float64Array.from(c.containment_ab as Float64Array),
    containmentBA: Float64Array.from(c.containment_ba as Float64Array),
  };
}

/** Table names of one run. */
export function tableNames(prefix: string) {
  const t = (x: string) => prefix + x;
  return {
    keys: t('keys'), short: t('short'), sizes: t('sizes'), counts: t('counts'), kept: t('kept'), common: t('common'), ignored: t('ignored'),
    candidates: t('candidates'), bounded: t('bounded'), ranked: t('ranked'), sides: t('sides'), bothCommon: t('both_common'), counted: t('counted'), tau: t('tau'), pairs: t('pairs'), edges: t('edges'),
  };
}

/**
 * Runs the candidate stages (cap, pairs, estimate) on an open engine, reading `keys` and `sizes`
 * (table names or Parquet locations). Returns the name of the pairs table and the counts.
 */
export async function candidateStages(
  engine: DuckDBEngine, o: ResolvedPipeline, keys: string, sizes: string, clock: StageClock, estimate = true,
): Promise<Pick<PipelineStats, 'keptKeys' | 'keptRows' | 'ignoredKeys' | 'ignoredRows' | 'candidatePairs' | 'boundedPairs' | 'retainedPairs'>> {
  const t = tableNames(o.prefix);
  clock.start('cap');
  await runTemplate(engine, 'cap', { keys, counts: t.counts, kept: t.kept, common: t.common, ignored: t.ignored, cap: o.commonCap }, clock.running);
  const cap = await engine.row(`SELECT
      COALESCE(SUM(CASE WHEN n <= ${o.commonCap} THEN 1 ELSE 0 END), 0) AS kept_keys,
      COALESCE(SUM(CASE WHEN n <= ${o.commonCap} THEN n ELSE 0 END), 0) AS kept_rows,
      COALESCE(SUM(CASE WHEN n > ${o.commonCap} THEN 1 ELSE 0 END), 0) AS ignored_keys,
      COALESCE(SUM(CASE WHEN n > ${o.commonCap} THEN n ELSE 0 END), 0) AS ignored_rows
    FROM ${t.counts}`);
  await engine.drop(t.counts);
  clock.done({ rows: cap.kept_rows });

  clock.start('pairs');
  await runTemplate(engine, 'pairs', { kept: t.kept, candidates: t.candidates, min_hits: o.minHits }, clock.running);
  // prefix keys: the pairs of short rows (table `short`, loaded by the caller) sharing fewer keys
  if ((o.shortUnion ?? 0) > 0 && o.minHits > 1) {
    await runTemplate(engine, 'pairs-short', { kept: t.kept, short: t.short, candidates: t.candidates, min_hits: o.minHits, short_union: o.shortUnion! }, clock.running);
  }
  const candidatePairs = (await engine.row(`SELECT COUNT(*) AS n FROM ${t.candidates}`)).n;
  await engine.drop(t.kept, t.short);
  clock.done({ rows: candidatePairs });

  let boundedPairs = candidatePairs, retainedPairs = candidatePairs;
  if (estimate) {
    clock.start('estimate');
    // The bound only prunes; a margin keeps a pair whose bound equals the floor up to rounding.
    const bound = { floor: o.pairFloor, floor_bound: o.pairFloor * (1 - 1e-9) };
    const shared = { candidates: t.candidates, sizes, ignored: t.ignored, bounded: t.bounded, sides: t.sides, pairs: t.pairs, ...bound };
    if (o.kind === 'min') await runTemplate(engine, 'estimate-min', { ...shared, keys, ranked: t.ranked, counted: t.counted, tau: t.tau, s: o.s }, clock.running);
    else await runTemplate(engine, 'estimate-mod', { ...shared, common: t.common, both_common: t.bothCommon }, clock.running);
    boundedPairs = (await engine.row(`SELECT COUNT(*) AS n FROM ${t.bounded}`)).n;
    retainedPairs = (await engine.row(`SELECT COUNT(*) AS n FROM ${t.pairs}`)).n;
    await engine.drop(t.bounded, t.ranked, t.sides, t.bothCommon, t.counted, t.tau, t.candidates, t.common);
    clock.done({ rows: retainedPairs });
  }
  return { keptKeys: cap.kept_keys, keptRows: cap.kept_rows, ignoredKeys: cap.ignored_keys, ignoredRows: cap.ignored_rows, candidatePairs, boundedPairs, retainedPairs };
}

/**
 * Finds near-duplicate pairs and their components beyond memory: the SQL templates on embedded
 * DuckDB under `memoryLimit`, spilling to `tempDir`; the thresholded pairs are read back, and
 * components come from the library's union-find when the edges fit, from SQL otherwise.
 */
export async function runPipeline(options: PipelineOptions): Promise<PipelineResult> {
  const o = resolvePipeline(options);
  const batches = options.batches;
  if (batches !== undefined) {
    if (options.keys !== undefined || options.sizes !== undefined) throw optionError('batches', 'no keys or sizes beside batches', 'both');
    if (typeof batches !== 'object' || batches === null || !(Symbol.iterator in batches || Symbol.asyncIterator in batches)) throw optionError('batches', 'an iterable of { keys, sizes } batches', batches);
  } else {
    checkSource('keys', options.keys);
    if (options.sizes !== undefined) checkSource('sizes', options.sizes);
    if (o.kind === 'min' && options.sizes === undefined) throw optionError('sizes', 'the (doc, length, cardinality) rows: MIN_s containment needs the cardinalities', undefined);
  }
  const engineOptions: EngineOptions = {};
  for (const k of ENGINE_OPTIONS) if (options[k] !== undefined) (engineOptions as Record<string, unknown>)[k] = options[k];
  const engine = await DuckDBEngine.open(engineOptions);
  const clock = new StageClock(options.onProgress);
  const t = tableNames(o.prefix);
  try {
    clock.start('load');
    let keys: string, sizes: string;
    let keyCount = 0;
    let givenSizes: string | TableRows | undefined = options.sizes;
    if (batches) {
      keys = t.keys;
      let withSizes = 0, count = 0;
      await engine.run(`DROP TABLE IF EXISTS ${t.keys}`);
      await engine.run(`DROP TABLE IF EXISTS ${t.sizes}`);
      for await (const batch of batches as AsyncIterable<PipelineBatch>) {
        keyCount += await engine.load(t.keys, 'keys', batch.keys, true);
        if (batch.sizes) { await engine.load(t.sizes, 'sizes', batch.sizes, true); withSizes++; }
        count++;
      }
      if (count === 0) await engine.loadColumns(t.keys, { key: new BigInt64Array(0), doc: new BigInt64Array(0) });
      if (withSizes > 0 && withSizes < count) throw optionError('batches', 'sizes in every batch or in none', `${withSizes} of ${count}`);
      if (withSizes === 0 && o.kind === 'min') throw optionError('batches', 'sizes in every batch: MIN_s containment needs the cardinalities', 'none');
      if (withSizes > 0) givenSizes = t.sizes;
    } else if (typeof options.keys === 'string') keys = options.keys;
    else { keyCount = await engine.load(t.keys, 'keys', options.keys!); keys = t.keys; }
    if (givenSizes === undefined) {
      await runTemplate(engine, 'sizes', { keys, sizes: t.sizes }, clock.running);
      sizes = t.sizes;
    } else if (typeof givenSizes === 'string') sizes = givenSizes;
    else { await engine.load(t.sizes, 'sizes', givenSizes); sizes = t.sizes; }
    if (typeof options.keys === 'string') keyCount = (await engine.row(`SELECT COUNT(*) AS n FROM ${engine.relation(keys)}`)).n;
    if (o.kind === 'min') {
      // A sketch row longer than s means the keys were made with another s: the estimates would be wrong.
      const longest = (await engine.row(`SELECT COALESCE(MAX(length), 0) AS n FROM ${engine.relation(sizes)}`)).n;
      if (longest > o.s) throw new ResembleError('E_INPUT', `sketch rows of ${longest} values do not fit MIN_s with s = ${o.s}; pass the s the keys were made with`, { s: o.s, longest });
    }
    clock.done({ rows: keyCount });

    const counts = await candidateStages(engine, o, keys, sizes, clock);

    clock.start('edges');
    await runTemplate(engine, 'edges', { pairs: t.pairs, edges: t.edges, threshold: o.threshold, containment: o.containment ?? 2 }, clock.running);
    const edges = (await engine.row(`SELECT COUNT(*) AS n FROM ${t.edges}`)).n;
    clock.done({ rows: edges });

    clock.start('read');
    const pairs = await readPairs(engine, t.pairs);
    const n = options.documents ?? (await engine.row(`SELECT COALESCE(MAX(doc), -1) + 1 AS n FROM ${engine.relation(sizes)}`)).n;
    clock.done({ rows: pairs.count });

    clock.start('components');
    const method = o.components === 'auto' ? (edges <= o.maxLibraryEdges ? 'library' : 'sql') : o.components;
    let labels: Int32Array, rounds = 0;
    if (method === 'library') {
      const e = await engine.read(`SELECT a, b FROM ${t.edges} ORDER BY a, b`);
      labels = unionFindLabels(n, toUint32('DocId', e.a), toUint32('DocId', e.b));
    } else {
      const result = await sqlComponents(engine, t.edges, { prefix: o.prefix });
      rounds = result.rounds;
      labels = await readLabels(engine, result.table, n);
    }
    clock.done({ rows: edges, rounds });
    return { pairs, labels, stats: { keyRows: keyCount, ...counts, edges, components: method, rounds, seconds: clock.seconds } };
  } finally {
    engine.close();
  }
}
