// `nearDuplicates` for sketches kept on disk (SpilledSketches), with the candidate step on DuckDB
// (or Apache Spark, candidate-engine.ts):
// nothing of size pages × s is held in memory. Equivalent documents are set aside from the
// fingerprint columns; the common values (Broder's cap) are found with a count-min filter and an
// exact count of the few values it cannot clear, one sequential pass over the rows each; each kept
// document's keys (its first `prefix` non-common values, or all of them) are read from the file in
// one sequential pass and appended to the engine, which counts the pairs (DuckDB under its memory
// limit); the pairs come back in (a, b) order and are estimated a chunk at a time from the rows the chunk
// names, read back from the file together in file order (on the worker pool when one is given).
// The result is the NearDuplicates `nearDuplicates` gives for the same sketches (method pairs).
import { intOption, optionError } from '../errors.js';
import { HI as HI_WORD, LO as LO_WORD, setAside, estimateRowPairs, NearDuplicates, nonEmpty, resolveNearDuplicateOptions, completeAbove, PairTableBuilder, type PairEstimator, type RowColumns, type MinChunkEstimates, type MinRows, type CandidateStats, type NearDuplicateOptions } from '../cluster/index.js';
import { openCandidateEngine } from './candidate-engine.js';
import { CommonFilter, ValueCounts } from './common.js';
import type { EngineOptions } from './duckdb.js';
import { shortRows } from './rows.js';
import { StageClock, type PipelineProgress, type ResolvedPipeline } from './pipeline.js';
import type { SparkOptions } from './spark.js';
import type { Pool } from '../stream/pool.js';

/** Key rows appended to DuckDB at once. */
const LOAD_ROWS = 1 << 20;
const HI = HI_WORD, LO = LO_WORD;
/**
 * Candidate pairs estimated from one set of rows at most, and the bytes of rows a set holds at most
 * by default: a chunk of pairs ends when either is reached. Two sets are held at once (one being
 * estimated while the next is read), so the estimates hold 2 × 64 MiB of rows (and the short gaps
 * read with them, a quarter more at most) and 2 × 20 bytes a pair (a chunk's DocIds, hits and
 * rows): at most 200 MiB, whatever the crawl's size. A set's rows are mostly the second rows of
 * its pairs, scattered over the file, so larger sets read about as many bytes in all until they
 * near the file's size.
 */
const CHUNK_PAIRS = 1 << 20;
const CHUNK_BYTES = 32 << 20;
/**
 * Pairs of a chunk sent to a worker at a time. A worker copies the rows they name into its
 * WebAssembly memory, which keeps the size it grows to: the second rows of a chunk's pairs are
 * scattered over the file, so 16,384 pairs name up to 32,768 rows (32 MiB of MIN_128 rows).
 */
const POOL_PAIRS = 16384;

/** The rows of chosen DocIds read back together (SpilledSketches' RowGather). */
export interface RowGatherer {
  /** Adds the rows of DocIds a and b; false (nothing added) when the set is full. */
  addPair(a: number, b: number): boolean;
  /** Reads the rows added; returns them as CSR rows, row `rows(docs)[i]` being docs[i]'s. */
  read(): MinRows;
  /** Writes the row of each DocId docs[i] in the rows read last into out[i]. */
  rows(docs: Uint32Array, out: Uint32Array): void;
  /** Empties the set. */
  clear(): void;
}

/**
 * Sketches whose values are not in memory (the pipeline's SpilledSketches): their columns, one
 * sequential pass over every row (fn(d, w, start, end): DocId d's values as words w[2i], w[2i + 1]),
 * estimators of pairs reading rows back, and sets of rows read back together (`buffers` buffers
 * used in turn, on SharedArrayBuffers when `shared`).
 */
export type RowsElsewhere = RowColumns & {
  scan(fn: (d: number, w: Uint32Array, start: number, end: number) => void): void;
  estimator(): PairEstimator;
  gather(capacity: number, buffers?: number, shared?: boolean): RowGatherer;
};

/** Options of `clusterSpilled`. */
export interface SpilledClusterOptions {
  /** The options of `nearDuplicates` (method pairs). */
  cluster?: NearDuplicateOptions;
  /** DuckDB's memory limit, folder and threads. */
  engine?: EngineOptions;
  /** The candidate step on Apache Spark instead of DuckDB, with these settings (master, sparkConf…). */
  spark?: SparkOptions;
  /** Progress per step: common (values over the cap, for prefix keys), load, cap and pairs (SQL), read (estimates). */
  onProgress?: (p: PipelineProgress) => void;
  /** Workers that estimate MIN_s pairs (default: this thread); rows reach them on SharedArrayBuffers. */
  pool?: Pool;
  /** Bytes of rows read back for one chunk of candidate pairs, 1 KiB..4 GiB (default 64 MiB; two chunks' rows are held at once). */
  chunkBytes?: number;
  /** Candidate pairs in one chunk at most, 1..2^24 (default 2^20). */
  chunkPairs?: number;
}

/**
 * Takes spilled sketches and options (method pairs only); returns the NearDuplicates that
 * `nearDuplicates` gives for the same sketches, finding candidate pairs on DuckDB and estimating
 * them from rows read back from disk. The NearDuplicates reads rows from `spilled` until it is closed.
 */
export async function clusterSpilled(spilled: RowsElsewhere, options: SpilledClusterOptions = {}): Promise<NearDuplicates> {
  const chunkBytes = intOption('chunkBytes', options.chunkBytes, CHUNK_BYTES, 1024, 2 ** 32);
  const chunkPairs = intOption('chunkPairs', options.chunkPairs, CHUNK_PAIRS, 1, 1 << 24);
  const clusterOptions = options.cluster ?? {};
  const o = resolveNearDuplicateOptions(spilled, clusterOptions, 'clusterSpilled');
  if (o.method !== 'pairs') throw optionError('method', 'pairs for sketches on disk', o.method);
  const n = spilled.size;
  const eq = setAside(spilled, o.equivalence, o.priority);
  const docs = nonEmpty(spilled, eq.kept);
  const isDoc = new Uint8Array(n);
  for (const d of docs) isDoc[d] = 1;
  const cap = o.commonCap;
  const resolved: ResolvedPipeline = {
    kind: spilled.params.kind === 'mod' ? 'mod' : 'min', s: typeof spilled.params.s === 'number' ? spilled.params.s : 1,
    commonCap: cap, minHits: o.minHits, shortUnion: o.prefix, pairFloor: o.pairFloor, threshold: o.policy.threshold, containment: o.policy.containment,
    components: 'library', maxLibraryEdges: 0, prefix: 'r_',
  };
  const clock = new StageClock(options.onProgress);

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

  const engine = await openCandidateEngine(options.spark ? { engine: 'spark', options: options.spark } : { engine: 'duckdb', options: options.engine });
  try {
    clock.start('load');
    const p = o.prefix > 0 ? o.prefix : Infinity;
    const key = new BigInt64Array(LOAD_ROWS), doc = new BigInt64Array(LOAD_ROWS);
    const kw = new Uint32Array(key.buffer);
    let m = 0, rows = 0;
    // keys per document, for the documents with fewer keys than the prefix (the pairs-short template's table)
    const keyCount = o.prefix > 0 ? new Uint16Array(n) : undefined;
    const appender = await engine.keys();
    try {
      const flush = () => {
        appender.append({ key: key.subarray(0, m), doc: doc.subarray(0, m) });
        rows += m; m = 0;
      };
      spilled.scan((d, w, start, end) => {
        if (!isDoc[d]) return;
        const big = BigInt(d);
        let k = 0;
        for (let i = start; i < end && k < p; i++) {
          const hi = w[2 * i + HI], lo = w[2 * i + LO];
          if (isCommon(hi, lo)) continue;
          // The key column holds the value's bits as a signed INT64 (the contract's asSigned).
          kw[2 * m + LO] = lo; kw[2 * m + HI] = hi;
          doc[m] = big;
          m++; k++;
          if (m === LOAD_ROWS) flush();
        }
        if (keyCount) keyCount[d] = k;
      });
      flush();
    } finally {
      appender.close();
    }
    if (keyCount && (resolved.shortUnion ?? 0) > 0) await engine.short(shortRows((d) => keyCount[d], docs, resolved.shortUnion!));
    clock.done({ rows });

    const counts = await engine.run(resolved, clock);
    clock.start('read');
    const chunks = new SpilledChunks(spilled, o.pairFloor, chunkBytes, chunkPairs, options.pool);
    await engine.pairs(async (a, b, hits) => {
      for (let i = 0; i < a.length; i++) {
        const x = a[i], y = b[i], h = hits[i];
        if (!chunks.push(x, y, h)) { await chunks.flush(); chunks.push(x, y, h); }
      }
    });
    const pairs = await chunks.finish();
    clock.done({ rows: pairs.count });
    const stats: CandidateStats = {
      documents: n, method: o.method, identical: eq.identical, lexical: eq.lexical, shingle: eq.shingle,
      kept: eq.kept.length, postings: counts.keptRows, ignoredShingles: common ? common.ignoredShingles : counts.ignoredKeys,
      ignoredPostings: common ? common.ignoredPostings : counts.ignoredRows,
      candidatePairs: counts.candidatePairs, retainedPairs: pairs.count, pairFloor: o.pairFloor, lsh: undefined, prefix: o.prefix, minHits: o.minHits, exactChecked: 0,
      completeAbove: completeAbove(o.prefix, o.policy.threshold, spilled.params.s),
    };
    return new NearDuplicates(spilled, eq, pairs, stats, o.policy, o.priority, true, () => spilled.estimator());
  } finally {
    await engine.close();
  }
}

/**
 * Candidate pairs estimated a chunk at a time: `push` adds pairs (in the order they are to be kept)
 * while the chunk's rows fit its bytes and pairs; `flush` reads the rows the chunk names together
 * (RowGather) and hands its pairs to the pool's workers, or estimates them here. Chunks are taken
 * back in the order they were read, so the table is the one a pair-by-pair walk makes. While a
 * chunk is estimated on the pool the next one is gathered and read; a third waits for the first.
 */
class SpilledChunks {
  private readonly gather: RowGatherer;
  private readonly kind: RowsElsewhere['params']['kind'];
  private readonly s: number;
  private readonly table = new PairTableBuilder();
  /** Per chunk buffer: DocIds, hits and rows of its pairs (two, used in turn with the gather's two row buffers). */
  private readonly columns: { a: Uint32Array; b: Uint32Array; hits: Uint32Array; ra: Uint32Array; rb: Uint32Array }[] = [];
  private turn = 0;
  private n = 0;
  /** Chunks being estimated on the pool, oldest first (each puts its pairs in the table when its estimates are in). */
  private readonly pending: Promise<void>[] = [];

  constructor(private readonly set: RowsElsewhere, private readonly floor: number, bytes: number, private readonly pairs: number, private readonly pool?: Pool) {
    this.kind = set.params.kind;
    this.s = set.params.s ?? Infinity;
    // on the pool only MIN_s, and only where rows can be shared with the workers
    if (this.kind !== 'min' || typeof SharedArrayBuffer !== 'function') this.pool = undefined;
    this.gather = set.gather(bytes, this.pool ? 2 : 1, this.pool !== undefined);
    for (let i = 0; i < (this.pool ? 2 : 1); i++) {
      const m = Math.min(pairs, 1 << 16);
      this.columns.push({ a: new Uint32Array(m), b: new Uint32Array(m), hits: new Uint32Array(m), ra: new Uint32Array(m), rb: new Uint32Array(m) });
    }
  }

  /** Adds pair (a, b); false (not added) when the chunk is full: `flush`, then push it again. */
  push(a: number, b: number, hits: number): boolean {
    if (this.n === this.pairs || !this.gather.addPair(a, b)) {
      if (this.n > 0) return false;
    }
    let c = this.columns[this.turn];
    if (this.n === c.a.length) {
      const m = Math.min(this.pairs, 2 * this.n);
      const grow = (x: Uint32Array) => { const y = new Uint32Array(m); y.set(x); return y; };
      c = this.columns[this.turn] = { a: grow(c.a), b: grow(c.b), hits: grow(c.hits), ra: new Uint32Array(m), rb: new Uint32Array(m) };
    }
    c.a[this.n] = a; c.b[this.n] = b; c.hits[this.n] = hits;
    this.n++;
    return true;
  }

  /** Reads the chunk's rows and estimates its pairs (on the pool: the estimates are taken when the next chunk is flushed). */
  async flush(): Promise<void> {
    const n = this.n;
    if (n === 0) return;
    const c = this.columns[this.turn];
    const rows = this.gather.read();
    const a = c.a.subarray(0, n), b = c.b.subarray(0, n), ra = c.ra.subarray(0, n), rb = c.rb.subarray(0, n);
    this.gather.rows(a, ra); this.gather.rows(b, rb);
    this.gather.clear();
    this.n = 0;
    if (!this.pool) {
      const table = this.table, hits = c.hits;
      estimateRowPairs(this.kind, this.s, rows, ra, rb, this.floor, (i, shared, r, cab, cba) => table.push(a[i], b[i], hits[i], shared, r, cab, cba),
        this.kind === 'adaptive' ? { modulusLog2: this.set.modulusLog2!, a, b } : undefined);
      return;
    }
    const pool = this.pool, s = this.s, floor = this.floor;
    const parts: Promise<MinChunkEstimates>[] = [];
    for (let from = 0; from < n; from += POOL_PAIRS) {
      const to = Math.min(n, from + POOL_PAIRS);
      const done = pool.estimateMinPairs(rows, ra.subarray(from, to), rb.subarray(from, to), { s, floor });
      done.catch(() => undefined); // awaited in turn; a later part failing first is not unhandled
      parts.push(done);
    }
    this.turn = (this.turn + 1) % this.columns.length;
    const table = this.table, hits = c.hits;
    const previous = this.pending[this.pending.length - 1];
    const done = (async () => {
      // the chunk before this one is in the table first (pairs stay in order)
      await previous;
      for (let p = 0; p < parts.length; p++) {
        const e = await parts[p], at = p * POOL_PAIRS;
        for (let k = 0; k < e.index.length; k++) {
          const i = at + e.index[k];
          table.push(a[i], b[i], hits[i], e.shared[k], e.resemblance[k], e.containmentAB[k], e.containmentBA[k]);
        }
      }
    })();
    done.catch(() => undefined);
    this.pending.push(done);
    // The next chunk's pairs and rows go where the chunk before this one had its own: wait for it.
    while (this.pending.length > 1) await this.pending.shift();
  }

  /** Estimates what is left; returns the table of the pairs that reach the floor, in push order. */
  async finish(): Promise<ReturnType<PairTableBuilder['finish']>> {
    await this.flush();
    while (this.pending.length > 0) await this.pending.shift();
    return this.table.finish();
  }
}
