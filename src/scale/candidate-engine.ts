// The candidate step of the library's computations on an engine: each document's keys go in,
// Broder's common-key cap and pair counting run there as the `cap`, `pairs` and `pairs-short`
// templates, and the pairs (a, b, hits) come back in (a, b) order a chunk at a time. Two engines,
// one answer: embedded DuckDB on this machine (tables in its database, pairs streamed from a
// query), or Apache Spark (keys written as Parquet for the executors, the templates rendered for
// the spark dialect and run by the driver, pairs written as sorted Parquet part files and read
// back in order).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteFile } from 'hyparquet-writer';
import { ResembleError } from '../errors.js';
import { DuckDBEngine, type EngineOptions, type TableAppender } from './duckdb.js';
import { dialectWriter } from './dialects.js';
import { openParquetFile } from './parquet-file.js';
import { readParquetGroups } from './parquet-read.js';
import { candidateStages, tableNames, type ResolvedPipeline, type StageClock } from './pipeline.js';
import { openSpark, type SparkOptions, type SparkSession } from './spark.js';
import { loadTemplate } from './template-files.js';
import { renderTemplate, type ParamValue, type TemplateName } from './templates.js';

/** Which engine runs the candidate step, with its options. */
export type CandidateEngineChoice = { engine: 'duckdb'; options?: EngineOptions } | { engine: 'spark'; options?: SparkOptions };

/** What the cap and the pair counting counted. */
export interface CandidateCounts {
  keptKeys: number;
  keptRows: number;
  ignoredKeys: number;
  ignoredRows: number;
  candidatePairs: number;
}

/** The candidate step on one engine: load keys (and short rows), run, read back. */
export interface CandidateEngine {
  readonly name: 'duckdb' | 'spark';
  /** Opens the keys table (key, doc: signed INT64 bits, DocId) for appending. */
  keys(): Promise<TableAppender>;
  /** Loads the `short` table of the pairs-short template: (doc, n) of the documents with fewer keys than the prefix. */
  short(rows: { doc: BigInt64Array; n: BigInt64Array }): Promise<void>;
  /** Runs cap, pairs and (with o.shortUnion and o.minHits > 1) pairs-short; returns the counts. `ignored`: keep each document's count of common keys for `ignored()`. */
  run(o: ResolvedPipeline, clock: StageClock, ignored?: boolean): Promise<CandidateCounts>;
  /** Hands over (doc, ignored) rows: each document's keys dropped as common (only documents with some). */
  ignored(onChunk: (doc: Float64Array, ignored: Float64Array) => void): Promise<void>;
  /** Hands over the candidate pairs (a < b) in (a, b) order, chunk by chunk; returns their number. */
  pairs(onChunk: (a: Float64Array, b: Float64Array, hits: Float64Array) => void | Promise<void>): Promise<number>;
  /** Drops what the engine holds (tables, files). */
  close(): Promise<void>;
}

/** Takes the engine choice; returns it open. */
export async function openCandidateEngine(choice: CandidateEngineChoice): Promise<CandidateEngine> {
  return choice.engine === 'spark' ? SparkCandidates.open(choice.options ?? {}) : DuckDBCandidates.open(choice.options ?? {});
}

function floats(col: BigInt64Array | Int32Array | Float64Array): Float64Array {
  return col instanceof Float64Array ? col : Float64Array.from(col as unknown as ArrayLike<number>, Number);
}

class DuckDBCandidates implements CandidateEngine {
  readonly name = 'duckdb';
  private readonly t = tableNames('r_');
  private constructor(private readonly engine: DuckDBEngine) {}

  static async open(options: EngineOptions): Promise<DuckDBCandidates> {
    return new DuckDBCandidates(await DuckDBEngine.open(options));
  }

  keys(): Promise<TableAppender> {
    return this.engine.appender(this.t.keys, { key: 'BIGINT', doc: 'BIGINT' });
  }

  async short(rows: { doc: BigInt64Array; n: BigInt64Array }): Promise<void> {
    await this.engine.loadColumns(this.t.short, rows);
  }

  async run(o: ResolvedPipeline, clock: StageClock): Promise<CandidateCounts> {
    const c = await candidateStages(this.engine, { ...o, prefix: 'r_' }, this.t.keys, this.t.sizes, clock, false);
    return { keptKeys: c.keptKeys, keptRows: c.keptRows, ignoredKeys: c.ignoredKeys, ignoredRows: c.ignoredRows, candidatePairs: c.candidatePairs };
  }

  async ignored(onChunk: (doc: Float64Array, ignored: Float64Array) => void): Promise<void> {
    await this.engine.stream(`SELECT doc, ignored FROM ${this.t.ignored}`, (c) => onChunk(floats(c.doc), floats(c.ignored)));
  }

  pairs(onChunk: (a: Float64Array, b: Float64Array, hits: Float64Array) => void | Promise<void>): Promise<number> {
    // DocIds are below 2^31 (checkColumns): 32-bit columns come back without BigInts
    return this.engine.stream(`SELECT a::INTEGER AS a, b::INTEGER AS b, hits::INTEGER AS hits FROM ${this.t.candidates} ORDER BY a, b`,
      (c) => onChunk(floats(c.a), floats(c.b), floats(c.hits)));
  }

  async close(): Promise<void> {
    this.engine.close();
  }
}

/**
 * Takes the keys' (and short rows') Parquet paths, the pipeline settings and the table names;
 * returns the Spark SQL of the two jobs: `cap`, then `pairs` (and `pairs-short` with prefix keys),
 * rendered from the shipped templates as `resemble plan --dialect spark` renders them.
 */
export function sparkCandidateSql(keys: string, short: string | undefined, o: Pick<ResolvedPipeline, 'commonCap' | 'minHits' | 'shortUnion'>, t: ReturnType<typeof tableNames>): { cap: string[]; pairs: string[] } {
  const dialect = dialectWriter('spark');
  const render = (name: TemplateName, params: Record<string, ParamValue>) => renderTemplate(loadTemplate(name), params, dialect);
  const cap = render('cap', { keys, counts: t.counts, kept: t.kept, common: t.common, ignored: t.ignored, cap: o.commonCap });
  const pairs = render('pairs', { kept: t.kept, candidates: t.candidates, min_hits: o.minHits });
  if ((o.shortUnion ?? 0) > 0 && o.minHits > 1) {
    if (!short) throw new ResembleError('E_ENGINE', 'pairs-short needs the short table: load it first');
    pairs.push(...render('pairs-short', { kept: t.kept, short, candidates: t.candidates, min_hits: o.minHits, short_union: o.shortUnion! }));
  }
  return { cap, pairs };
}

let sparkRuns = 0;

/**
 * The candidate step on Spark. The keys are written as one Parquet file in a folder the executors
 * read (the session's temporary folder: on a cluster, give it `tempDir` on shared storage); the
 * tables live in the session's warehouse under names of their own, so runs sharing a session do
 * not meet; the pairs come back as Parquet part files sorted by (a, b), read in order.
 */
class SparkCandidates implements CandidateEngine {
  readonly name = 'spark';
  private readonly t: ReturnType<typeof tableNames>;
  private keysPath: string;
  private shortPath?: string;
  private outputs: Record<string, { path: string; files: string[] }> = {};
  private closed = false;

  private constructor(private readonly session: SparkSession, private readonly folder: string) {
    this.t = tableNames(`r${++sparkRuns}_${process.pid}_`);
    this.keysPath = join(folder, 'keys.parquet');
  }

  static async open(options: SparkOptions): Promise<SparkCandidates> {
    const session = await openSpark(options);
    return new SparkCandidates(session, session.jobFolder());
  }

  async keys(): Promise<TableAppender> {
    const sink = openParquetFile(this.keysPath, 'keys');
    return {
      append: (columns) => { sink.write({ key: columns.key as BigInt64Array, doc: columns.doc as BigInt64Array }); },
      close: () => sink.finish(),
    };
  }

  async short(rows: { doc: BigInt64Array; n: BigInt64Array }): Promise<void> {
    this.shortPath = join(this.folder, 'short.parquet');
    parquetWriteFile({ filename: this.shortPath, columnData: [{ name: 'doc', data: rows.doc, type: 'INT64' }, { name: 'n', data: rows.n, type: 'INT64' }] });
  }

  private get tables(): string[] {
    const t = this.t;
    return [t.counts, t.kept, t.common, t.ignored, t.candidates];
  }

  async run(o: ResolvedPipeline, clock: StageClock, ignored = false): Promise<CandidateCounts> {
    const t = this.t;
    const sql = sparkCandidateSql(this.keysPath, this.shortPath, o, t);
    clock.start('cap');
    const cap = await this.session.run({
      statements: sql.cap,
      queries: {
        cap: `SELECT
      COALESCE(SUM(CASE WHEN n <= ${o.commonCap} THEN 1 ELSE 0 END), 0) AS kept_keys,
      COALESCE(SUM(CASE WHEN n <= ${o.commonCap} THEN n ELSE 0 END), 0) AS kept_rows,
      COALESCE(SUM(CASE WHEN n > ${o.commonCap} THEN 1 ELSE 0 END), 0) AS ignored_keys,
      COALESCE(SUM(CASE WHEN n > ${o.commonCap} THEN n ELSE 0 END), 0) AS ignored_rows
    FROM ${t.counts}`,
      },
    });
    const c = cap.rows.cap as Record<string, number>;
    clock.done({ rows: Number(c.kept_rows) });

    clock.start('pairs');
    const statements = sql.pairs;
    const outputs = [{ sql: `SELECT a, b, hits FROM ${t.candidates} ORDER BY a, b`, path: join(this.folder, 'candidates') }];
    if (ignored) outputs.push({ sql: `SELECT doc, ignored FROM ${t.ignored}`, path: join(this.folder, 'ignored') });
    const pairs = await this.session.run({ statements, queries: { pairs: `SELECT COUNT(*) AS n FROM ${t.candidates}` }, outputs, drop: this.tables });
    for (const out of pairs.outputs) this.outputs[out.path.slice(this.folder.length + 1)] = out;
    const candidatePairs = Number(pairs.rows.pairs.n);
    clock.done({ rows: candidatePairs });
    return { keptKeys: Number(c.kept_keys), keptRows: Number(c.kept_rows), ignoredKeys: Number(c.ignored_keys), ignoredRows: Number(c.ignored_rows), candidatePairs };
  }

  private files(name: string): string[] {
    const out = this.outputs[name];
    if (!out) throw new ResembleError('E_ENGINE', `Spark wrote no ${name} output: run the candidate step first`);
    return out.files.map((f) => join(out.path, f));
  }

  async ignored(onChunk: (doc: Float64Array, ignored: Float64Array) => void): Promise<void> {
    for (const f of this.files('ignored')) await readParquetGroups(f, { doc: 'number', ignored: 'number' }, (c) => onChunk(c.doc as Float64Array, c.ignored as Float64Array));
  }

  async pairs(onChunk: (a: Float64Array, b: Float64Array, hits: Float64Array) => void | Promise<void>): Promise<number> {
    // Spark writes a sorted result as one part file per range, in range order: checked as read.
    let lastA = -1, lastB = -1, rows = 0;
    for (const f of this.files('candidates')) {
      rows += await readParquetGroups(f, { a: 'number', b: 'number', hits: 'number' }, async (c) => {
        const a = c.a as Float64Array, b = c.b as Float64Array;
        for (let i = 0; i < a.length; i++) {
          if (a[i] < lastA || (a[i] === lastA && b[i] <= lastB)) throw new ResembleError('E_ENGINE', `Spark returned the pairs out of order at (${a[i]}, ${b[i]}) in ${f}`);
          lastA = a[i]; lastB = b[i];
        }
        await onChunk(a, b, c.hits as Float64Array);
      });
    }
    return rows;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.session.run({ drop: this.tables }).catch(() => undefined);
    } finally {
      rmSync(this.folder, { recursive: true, force: true });
      await this.session.release();
    }
  }
}
