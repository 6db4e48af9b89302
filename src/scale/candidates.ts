// The candidate step of a library computation on an engine (DuckDB, or Spark): every pair of
// documents sharing a key held by at most `cap` of them, with the number of keys they share, found
// by the `cap` and `pairs` templates (under DuckDB's memory limit) and read back in order, chunk by chunk, so neither the
// postings nor the pairs are ever held whole. The library's pair counter (`forEachCandidate`) gives
// the same pairs in the same order (a ascending, then b) with the same counts.
import { C_AB, C_BA, SHARED, SetEstimator, PairTableBuilder } from '../cluster/index.js';
import type { PairFinder } from '../cluster/resemble-index/options.js';
import type { KeyRowsSource } from './rows.js';
import type { EngineOptions } from './duckdb.js';
import { openCandidateEngine, type CandidateEngineChoice } from './candidate-engine.js';
import { StageClock, type PipelineProgress, type ResolvedPipeline } from './pipeline.js';

/** Key rows appended at once. */
const LOAD_ROWS = 1 << 20;

/** What the cap dropped: keys held by more than `cap` documents, and their rows. */
export interface CapCounts {
  ignoredKeys: number;
  ignoredRows: number;
  /** Rows of the keys kept (held by 2..cap documents). */
  keptRows: number;
  /** Candidate pairs. */
  pairs: number;
}

/**
 * Takes CSR rows of distinct keys per document, the documents to pair (ascending; all when
 * absent), the cap and the engine options; calls `onPair(a, b, shared)` for every pair of those
 * documents sharing a key held by 2..cap of them, a ascending then b, and returns what the cap counted.
 */
export async function forEachCandidateOn(
  keys: KeyRowsSource, docs: Uint32Array | undefined, cap: number, engineOptions: EngineOptions | CandidateEngineChoice,
  onPair: (a: number, b: number, shared: number) => void, onProgress?: (p: PipelineProgress) => void,
  onIgnored?: (perDoc: Uint32Array) => void,
): Promise<CapCounts> {
  const resolved: ResolvedPipeline = {
    kind: 'min', s: 1, commonCap: cap, minHits: 1, pairFloor: 0, threshold: 1, components: 'library', maxLibraryEdges: 0, prefix: 'r_',
  };
  const clock = new StageClock(onProgress);
  const engine = await openCandidateEngine(engineChoice(engineOptions));
  try {
    clock.start('load');
    const appender = await engine.keys();
    const key = new BigInt64Array(LOAD_ROWS), doc = new BigInt64Array(LOAD_ROWS);
    const signed = new BigInt64Array(keys.values.buffer, keys.values.byteOffset, keys.values.length);
    let m = 0, rows = 0;
    const flush = () => { appender.append({ key: key.subarray(0, m), doc: doc.subarray(0, m) }); rows += m; m = 0; };
    try {
      const n = keys.offsets.length - 1;
      const count = docs ? docs.length : n;
      for (let i = 0; i < count; i++) {
        const d = docs ? docs[i] : i;
        const big = BigInt(d);
        for (let j = keys.offsets[d]; j < keys.offsets[d + 1]; j++) {
          key[m] = signed[j]; doc[m] = big; m++;
          if (m === LOAD_ROWS) flush();
        }
      }
      flush();
    } finally {
      appender.close();
    }
    clock.done({ rows });
    const counts = await engine.run(resolved, clock, onIgnored !== undefined);
    if (onIgnored) {
      // each document's keys left out by the cap (the cap template's `ignored` table), before the first pair
      const perDoc = new Uint32Array(keys.offsets.length - 1);
      await engine.ignored((d, k) => {
        for (let i = 0; i < d.length; i++) perDoc[d[i]] = k[i];
      });
      onIgnored(perDoc);
    }
    clock.start('read');
    await engine.pairs((a, b, hits) => {
      for (let i = 0; i < a.length; i++) onPair(a[i], b[i], hits[i]);
    });
    clock.done({ rows: counts.candidatePairs });
    return { ignoredKeys: counts.ignoredKeys, ignoredRows: counts.ignoredRows, keptRows: counts.keptRows, pairs: counts.candidatePairs };
  } finally {
    await engine.close();
  }
}

/** Takes DuckDB's options or an engine choice; returns the choice (DuckDB by default). */
function engineChoice(options: EngineOptions | CandidateEngineChoice): CandidateEngineChoice {
  return 'engine' in options && (options.engine === 'duckdb' || options.engine === 'spark') ? options as CandidateEngineChoice : { engine: 'duckdb', options: options as EngineOptions };
}

/**
 * Takes engine options; returns a PairFinder for `buildIndex` (engine duckdb) that finds a sweep's
 * candidate pairs on DuckDB and estimates them from the sweep's sketches: the pairs
 * `candidatePairs` gives, in the same order, without its postings or pair counter in memory.
 */
export function duckDBPairFinder(engineOptions: EngineOptions = {}): PairFinder {
  return async ({ columns, docs, cap, floor }) => {
    const est = new SetEstimator(columns);
    const out = est.out;
    const table = new PairTableBuilder();
    await forEachCandidateOn(columns, docs, cap, engineOptions, (a, b, hits) => {
      const r = est.pair(a, b);
      if (Math.max(out[C_AB], out[C_BA], r) < floor) return;
      table.push(a, b, hits, out[SHARED], r, out[C_AB], out[C_BA]);
    });
    return table.finish();
  };
}

/**
 * Cho's iceberg query on an engine (DuckDB, or Spark with an engine choice): takes CSR rows of distinct values per page, the pages to pair
 * (all when absent), the cap and an accept test; returns the accepted pairs with their shared
 * counts (a ascending, then b) and what the cap left out, as the collections' `icebergPairs` does.
 */
export async function icebergOnEngine(
  values: BigUint64Array, offsets: Uint32Array, options: { cap: number; pages?: Uint32Array; accept: (a: number, b: number, shared: number) => boolean; ignored?: (perPage: Uint32Array) => void },
  engineOptions: EngineOptions | CandidateEngineChoice = {},
): Promise<{ a: Uint32Array; b: Uint32Array; shared: Uint32Array; ignoredValues: number; ignoredPostings: number }> {
  const a: number[] = [], b: number[] = [], shared: number[] = [];
  const counts = await forEachCandidateOn({ values, offsets }, options.pages, options.cap, engineOptions, (x, y, s) => {
    if (options.accept(x, y, s)) { a.push(x); b.push(y); shared.push(s); }
  }, undefined, options.ignored);
  return { a: Uint32Array.from(a), b: Uint32Array.from(b), shared: Uint32Array.from(shared), ignoredValues: counts.ignoredKeys, ignoredPostings: counts.ignoredRows };
}
