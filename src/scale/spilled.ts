// `nearDuplicates` for sketches kept on disk (SpilledSketches), with the candidate step on DuckDB:
// nothing of size pages × s is held in memory. Equivalent documents are set aside from the
// fingerprint columns; the common values (Broder's cap) are found with a count-min filter and an
// exact count of the few values it cannot clear, one sequential pass over the rows each; each kept
// document's keys (its first `prefix` non-common values, or all of them) are read from the file in
// one sequential pass and appended to DuckDB, which counts the pairs under its memory limit; the
// pairs are read back batch by batch and estimated from rows read back from the file. The result is
// the NearDuplicates `nearDuplicates` gives for the same sketches (method pairs).
import { optionError } from '../errors.js';
import { HI as HI_WORD, LO as LO_WORD, type PairEstimator, type RowColumns } from '../cluster/columns.js';
import { setAside } from '../cluster/equivalence.js';
import { C_AB, C_BA, SHARED } from '../cluster/estimate.js';
import { NearDuplicates, nonEmpty, resolveNearDuplicateOptions, completeAbove, type CandidateStats, type NearDuplicateOptions } from '../cluster/near-duplicates.js';
import { PairTableBuilder } from '../cluster/pairs.js';
import { CommonFilter, ValueCounts } from './common.js';
import { DuckDBEngine, type EngineOptions } from './duckdb.js';
import { candidateStages, StageClock, tableNames, type PipelineProgress, type ResolvedPipeline } from './pipeline.js';

/** Key rows appended to DuckDB at once. */
const LOAD_ROWS = 1 << 20;
const HI = HI_WORD, LO = LO_WORD;

/**
 * Sketches whose values are not in memory (the pipeline's SpilledSketches): their columns, one
 * sequential pass over every row (fn(d, w, start, end): DocId d's values as words w[2i], w[2i + 1]),
 * and estimators of pairs reading rows back.
 */
export type RowsElsewhere = RowColumns & {
  scan(fn: (d: number, w: Uint32Array, start: number, end: number) => void): void;
  estimator(): PairEstimator;
};

/** Options of `clusterSpilledWithDuckDB`. */
export interface SpilledClusterOptions {
  /** The options of `nearDuplicates` (method pairs). */
  cluster?: NearDuplicateOptions;
  /** DuckDB's memory limit, folder and threads. */
  engine?: EngineOptions;
  /** Progress per step: common (values over the cap, for prefix keys), load, cap and pairs (SQL), read (estimates). */
  onProgress?: (p: PipelineProgress) => void;
}

/**
 * Takes spilled sketches and options (method pairs only); returns the NearDuplicates that
 * `nearDuplicates` gives for the same sketches, finding candidate pairs on DuckDB and estimating
 * them from rows read back from disk. The NearDuplicates reads rows from `spilled` until it is closed.
 */
export async function clusterSpilledWithDuckDB(spilled: RowsElsewhere, options: SpilledClusterOptions = {}): Promise<NearDuplicates> {
  const clusterOptions = options.cluster ?? {};
  const o = resolveNearDuplicateOptions(spilled, clusterOptions, 'clusterSpilledWithDuckDB');
  if (o.method !== 'pairs') throw optionError('method', 'pairs for sketches on disk', o.method);
  const n = spilled.size;
  const eq = setAside(spilled, o.equivalence, o.priority);
  const docs = nonEmpty(spilled, eq.kept);
  const isDoc = new Uint8Array(n);
  for (const d of docs) isDoc[d] = 1;
  const cap = o.commonCap;
  const resolved: ResolvedPipeline = {
    kind: spilled.params.kind === 'mod' ? 'mod' : 'min', s: typeof spilled.params.s === 'number' ? spilled.params.s : 1,
    commonCap: cap, minHits: 1, pairFloor: o.pairFloor, threshold: o.policy.threshold, containment: o.policy.containment,
    components: 'library', maxLibraryEdges: 0, prefix: 'r_',
  };
  const clock = new StageClock(options.onProgress);
  const t = tableNames(resolved.prefix);

  // Prefix keys need the common values over `docs`: a count-min filter clears most values in one
  // pass, and a second pass counts exactly the values it could not clear.
  let common: { ignoredShingles: number; ignoredPostings: number } | undefined;
  let isCommon = (_hi: number, _lo: number) => false;
  if (o.prefix > 0) {
    clock.start('common');
    let values = 0;
    for (const d of docs) values += spilled.offsets[d + 1] - spilled.offsets[d];
    const filter = new CommonFilter(cap, values);
    spilled.scan((d, w, start, end) => { if (isDoc[d]) filter.addRow(w, start, end); });
    const counts = new ValueCounts();
    spilled.scan((d, w, start, end) => {
      if (!isDoc[d]) return;
      for (let i = start; i < end; i++) {
        const hi = w[2 * i + HI], lo = w[2 * i + LO];
        if (filter.mayExceed(hi, lo)) counts.add(hi, lo);
      }
    });
    const commonValues = new ValueCounts();
    let ignoredShingles = 0, ignoredPostings = 0;
    counts.forEach((hi, lo, c) => {
      if (c <= cap) return;
      ignoredShingles++; ignoredPostings += c;
      commonValues.add(hi, lo);
    });
    common = { ignoredShingles, ignoredPostings };
    isCommon = (hi, lo) => commonValues.get(hi, lo) > 0;
    clock.done({ rows: ignoredShingles });
  }

  const engine = await DuckDBEngine.open(options.engine ?? {});
  try {
    clock.start('load');
    const p = o.prefix > 0 ? o.prefix : Infinity;
    const key = new BigInt64Array(LOAD_ROWS), doc = new BigInt64Array(LOAD_ROWS);
    const kw = new Uint32Array(key.buffer);
    let m = 0, rows = 0;
    const appender = await engine.appender(t.keys, { key: 'BIGINT', doc: 'BIGINT' });
    try {
      const flush = () => {
        appender.append({ key: key.subarray(0, m), doc: doc.subarray(0, m) });
        rows += m; m = 0;
      };
      spilled.scan((d, w, start, end) => {
        if (!isDoc[d]) return;
        const big = BigInt(d);
        for (let i = start, k = 0; i < end && k < p; i++) {
          const hi = w[2 * i + HI], lo = w[2 * i + LO];
          if (isCommon(hi, lo)) continue;
          // The key column holds the value's bits as a signed INT64 (the contract's asSigned).
          kw[2 * m + LO] = lo; kw[2 * m + HI] = hi;
          doc[m] = big;
          m++; k++;
          if (m === LOAD_ROWS) flush();
        }
      });
      flush();
    } finally {
      appender.close();
    }
    clock.done({ rows });

    const counts = await candidateStages(engine, resolved, t.keys, t.sizes, clock, false);
    clock.start('read');
    const floor = o.pairFloor;
    const est = spilled.estimator();
    const out = est.out;
    const table = new PairTableBuilder();
    await engine.stream(`SELECT a, b, hits FROM ${t.candidates} ORDER BY a, b`, (c) => {
      const a = c.a, b = c.b, hits = c.hits;
      for (let i = 0; i < a.length; i++) {
        const x = Number(a[i]), y = Number(b[i]);
        const r = est.pair(x, y);
        if (Math.max(out[C_AB], out[C_BA], r) < floor) continue;
        table.push(x, y, Number(hits[i]), out[SHARED], r, out[C_AB], out[C_BA]);
      }
    });
    const pairs = table.finish();
    clock.done({ rows: pairs.count });
    const stats: CandidateStats = {
      documents: n, method: o.method, identical: eq.identical, lexical: eq.lexical, shingle: eq.shingle,
      kept: eq.kept.length, postings: counts.keptRows, ignoredShingles: common ? common.ignoredShingles : counts.ignoredKeys,
      ignoredPostings: common ? common.ignoredPostings : counts.ignoredRows,
      candidatePairs: counts.candidatePairs, retainedPairs: pairs.count, pairFloor: floor, lsh: undefined, prefix: o.prefix, exactChecked: 0,
      completeAbove: completeAbove(o.prefix, o.policy.threshold, spilled.params.s),
    };
    return new NearDuplicates(spilled, eq, pairs, stats, o.policy, o.priority, true, () => spilled.estimator());
  } finally {
    engine.close();
  }
}
