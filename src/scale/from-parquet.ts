// The reduce side of near-duplicates over Parquet shards (shards.ts): the shards' sketch rows are
// read into a sketch file on this machine (as the DuckDB engine's single run keeps them), the
// candidate step runs on DuckDB or Spark, and the final phase (estimates, union-find, evidence) in
// the library: the clusters a single run gives without exact checks, which need the pages.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResembleError, optionError, rejectUnknown } from '../errors.js';
import { type NearDuplicateOptions, type NearDuplicates } from '../cluster/index.js';
import { SketchStore, type SpilledSketches } from '../stream/sketch-store.js';
import type { SketchError, SketchSet } from '../sketch/sketch-set.js';
import { createPool } from '../stream/pool-node.js';
import { asUnsigned } from './contract.js';
import type { EngineOptions } from './duckdb.js';
import { readParquetGroups } from './parquet-read.js';
import type { PipelineProgress } from './pipeline.js';
import { readShardSet, type ShardSet } from './shards.js';
import { openSpark, type SparkOptions, type SparkSession } from './spark.js';
import { clusterSpilled } from './spilled.js';

/** Pages per batch handed to the sketch file. */
const BATCH = 4096;

/** The shards' sketches on this machine, with their pages' URLs and dates by DocId. */
export interface ShardSketches {
  set: ShardSet;
  sketches: SpilledSketches;
  urls: string[];
  /** Fetch dates (ms since 1970; NaN when unknown). */
  dates: Float64Array;
}

/**
 * Takes a checked shard set and a folder; returns its sketches in a sketch file there (removed by
 * `sketches.close()`), and the pages' URLs and dates. Each shard's tables are read in order, a row
 * group at a time: sizes and pages row by row in the order the shard wrote them, keys alongside.
 */
export async function loadShards(set: ShardSet, tempDir = tmpdir()): Promise<ShardSketches> {
  const n = set.pages;
  const store = new SketchStore(tempDir, set.params);
  const urls: string[] = new Array(n).fill('');
  const dates = new Float64Array(n).fill(NaN);
  const errors: SketchError[] = [];
  try {
    for (const { path } of set.shards) {
      const table = (t: string) => join(path, `${t}.parquet`);
      const sizes: { doc: number[]; length: number[]; cardinality: number[] } = { doc: [], length: [], cardinality: [] };
      await readParquetGroups(table('sizes'), { doc: 'number', length: 'number', cardinality: 'number' }, (c) => {
        for (let i = 0; i < c.doc.length; i++) { sizes.doc.push((c.doc as Float64Array)[i]); sizes.length.push((c.length as Float64Array)[i]); sizes.cardinality.push((c.cardinality as Float64Array)[i]); }
      });
      const pages = { tokens: [] as number[], template: [] as number[], modulus: [] as number[], raw: [] as bigint[], lexical: [] as bigint[], shingle: [] as bigint[] };
      let row = 0;
      await readParquetGroups(table('pages'), { doc: 'number', tokens: 'number', template_tokens: 'number', modulus_log2: 'number', raw_fp: 'bigint', lexical_fp: 'bigint', shingle_fp: 'bigint', error: 'string' }, (c) => {
        for (let i = 0; i < c.doc.length; i++, row++) {
          const d = (c.doc as Float64Array)[i];
          if (d !== sizes.doc[row]) throw new ResembleError('E_INPUT', `${path}: row ${row} of pages.parquet is DocId ${d}, of sizes.parquet ${sizes.doc[row]}`, { path });
          pages.tokens.push((c.tokens as Float64Array)[i]); pages.template.push((c.template_tokens as Float64Array)[i]); pages.modulus.push((c.modulus_log2 as Float64Array)[i]);
          pages.raw.push((c.raw_fp as BigInt64Array)[i]); pages.lexical.push((c.lexical_fp as BigInt64Array)[i]); pages.shingle.push((c.shingle_fp as BigInt64Array)[i]);
          const e = (c.error as (string | null)[])[i];
          if (e !== null) errors.push({ index: d, message: e });
        }
      });
      await readParquetGroups(table('documents'), { doc: 'number', url: 'string', date: 'number' }, (c) => {
        for (let i = 0; i < c.doc.length; i++) {
          const d = (c.doc as Float64Array)[i];
          if (!(d >= 0 && d < n)) throw new ResembleError('E_INPUT', `${path}: DocId ${d} out of range 0..${n - 1}`, { path });
          urls[d] = (c.url as (string | null)[])[i] ?? '';
          dates[d] = (c.date as Float64Array)[i];
        }
      });
      // keys: each page's values in the order of sizes, a batch of pages at a time
      const total = sizes.doc.length;
      let p = 0, left = 0;
      let batch = newBatch(Math.min(BATCH, total), sizes, pages, 0);
      // moves to the next page with values (pages with empty rows are passed), handing full batches over
      const next = async () => {
        for (;;) {
          if (batch.count > 0 && batch.filled === batch.count) {
            await store.add(batch.set as unknown as SketchSet, batch.ids);
            batch = newBatch(Math.min(BATCH, total - p), sizes, pages, p);
          }
          if (p >= total) { left = 0; return; }
          left = sizes.length[p];
          if (left > 0) return;
          batch.filled++; p++;
        }
      };
      await next();
      await readParquetGroups(table('keys'), { key: 'bigint', doc: 'number' }, async (c) => {
        const key = asUnsigned(c.key as BigInt64Array), doc = c.doc as Float64Array;
        for (let i = 0; i < key.length; i++) {
          if (left === 0 || doc[i] !== sizes.doc[p]) throw new ResembleError('E_INPUT', `${path}: a key row of DocId ${doc[i]} where sizes.parquet expects ${p < total ? `DocId ${sizes.doc[p]}` : 'none'}`, { path });
          batch.values[batch.used++] = key[i];
          if (--left === 0) { batch.filled++; p++; await next(); }
        }
      });
      if (p < total) throw new ResembleError('E_INPUT', `${path}: keys.parquet ends before the rows sizes.parquet counts`, { path });
    }
    errors.sort((a, b) => a.index - b.index);
    return { set, sketches: await store.finish(n, errors), urls, dates };
  } catch (e) {
    store.remove();
    throw e;
  }
}


/** A batch of pages being filled from the tables: the SketchSet columns the sketch file takes. */
function newBatch(count: number, sizes: { doc: number[]; length: number[]; cardinality: number[] }, pages: { tokens: number[]; template: number[]; modulus: number[]; raw: bigint[]; lexical: bigint[]; shingle: bigint[] }, from: number) {
  let total = 0;
  for (let i = 0; i < count; i++) total += sizes.length[from + i];
  const offsets = new Uint32Array(count + 1);
  let at = 0;
  for (let i = 0; i < count; i++) { offsets[i] = at; at += sizes.length[from + i]; }
  offsets[count] = at;
  const values = new BigUint64Array(total);
  const slice = <T>(a: T[]) => a.slice(from, from + count);
  const set = {
    size: count, values, offsets,
    cardinality: Float64Array.from(slice(sizes.cardinality)), tokens: Uint32Array.from(slice(pages.tokens)),
    templateTokens: Uint32Array.from(slice(pages.template)), modulusLog2: Uint8Array.from(slice(pages.modulus)),
    rawFp: asUnsigned(BigInt64Array.from(slice(pages.raw))), lexicalFp: asUnsigned(BigInt64Array.from(slice(pages.lexical))), shingleFp: asUnsigned(BigInt64Array.from(slice(pages.shingle))),
    errors: [],
  };
  return { count, set, values, ids: Uint32Array.from(slice(sizes.doc)), used: 0, filled: 0 };
}

/** Options of `nearDuplicatesFromParquet`. */
export interface FromParquetOptions {
  /** The engine of the candidate step: 'duckdb' (default) or 'spark'. */
  engine?: 'duckdb' | 'spark';
  /** DuckDB's (memoryLimit, tempDir…) or Spark's (master, sparkConf, tempDir…) options. */
  engineOptions?: EngineOptions | SparkOptions;
  /** The clustering options of `nearDuplicates` (method pairs); `dates` are the shards'. */
  cluster?: NearDuplicateOptions;
  /** Threads that estimate the candidate pairs (default: available cores). */
  workers?: number;
  /** Called as each stage advances. */
  onProgress?: (p: PipelineProgress) => void;
}

/** What `nearDuplicatesFromParquet` returns; `close()` removes the sketch file the result reads. */
export interface FromParquetResult extends ShardSketches {
  nd: NearDuplicates;
  /** Removes the sketch file the result reads. */
  close(): void;
}

const KNOWN = ['engine', 'engineOptions', 'cluster', 'workers', 'onProgress'] as const;

/**
 * Takes a folder of Parquet shards (sketchToParquet's) and options; checks the shard set, then
 * returns the near-duplicate clusters of its pages: those `nearDuplicatesOfCrawl` gives on the crawl
 * with the same options and `exact: false` (exact checks read pages, which are not here).
 */
export async function nearDuplicatesFromParquet(dir: string, options: FromParquetOptions = {}): Promise<FromParquetResult> {
  rejectUnknown(options, KNOWN, 'nearDuplicatesFromParquet');
  const engine = options.engine ?? 'duckdb';
  if (engine !== 'duckdb' && engine !== 'spark') throw optionError('engine', 'duckdb | spark', engine);
  const cluster: NearDuplicateOptions = { ...(options.cluster ?? {}) };
  if ((cluster.method ?? 'pairs') !== 'pairs') throw optionError('cluster.method', 'pairs from Parquet shards', cluster.method);
  if (cluster.representative === 'most-linked') throw optionError('cluster.representative', 'first, earliest or newest from Parquet shards (they hold no links)', cluster.representative);
  const set = await readShardSet(dir);
  // the Spark session starts while the shards are read
  let session: Promise<SparkSession> | undefined;
  if (engine === 'spark') { session = openSpark(options.engineOptions as SparkOptions); session.catch(() => undefined); }
  const pool = (options.workers ?? 2) > 1 ? createPool({ workers: options.workers }) : undefined;
  let loaded: ShardSketches | undefined;
  try {
    loaded = await loadShards(set, options.engineOptions?.tempDir);
    if (cluster.representative === 'earliest' || cluster.representative === 'newest') cluster.dates = loaded.dates;
    const nd = await clusterSpilled(loaded.sketches, {
      cluster, pool, onProgress: options.onProgress,
      ...(engine === 'spark' ? { spark: options.engineOptions as SparkOptions } : { engine: options.engineOptions as EngineOptions }),
    });
    const sketches = loaded.sketches;
    return { ...loaded, nd, close: () => sketches.close() };
  } catch (e) {
    loaded?.sketches.close();
    throw e;
  } finally {
    await pool?.close();
    if (session) await session.then((s) => s.release(), () => undefined);
  }
}
