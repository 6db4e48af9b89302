// Broder's estimators computed straight on CSR rows (no Sketch objects on the hot path):
//   MIN_s: r ≈ |MIN_s(F(A) ∪ F(B)) ∩ F(A) ∩ F(B)| / |MIN_s(F(A) ∪ F(B))|
//   MOD_m: r ≈ |V(A) ∩ V(B)| / |V(A) ∪ V(B)|,  c(A, B) ≈ |V(A) ∩ V(B)| / |V(A)|
//   adaptive MOD_{2^i}: both rows reduced to the modulus of the longer document first.
// MIN_s containment as the core estimates it: below τ (the smaller largest value of the two
// sketches, ∞ for a sketch holding all its shingles) F(A) samples S(A) and F(B) holds all of S(B),
// so c(A, B) ≈ |{a ∈ F(A) ∩ F(B), a ≤ τ}| / |{a ∈ F(A), a ≤ τ}|. Unlike the core, rows left
// empty (after reduction to a common modulus) give 0, not a vacuous 1: no evidence joins nothing.
import { HI as HI_WORD, LO as LO_WORD, words, type ClusterColumns, type PairEstimates, type PairEstimator, type SketchKind } from './columns.js';
import type { Kernels } from '../wasm/kernels.js';
import type { WasmMemory } from '../wasm/memory.js';
import { isInitialized, withArena } from '../wasm/instance.js';
import { ResembleError } from '../errors.js';

// Word positions as module constants: imported bindings are slower to read in hot loops.
const HI = HI_WORD, LO = LO_WORD;

/** One sketch row: words (see `words`), entry range [start, end), cardinality, modulus exponent. */
export interface Row {
  w: Uint32Array;
  start: number;
  end: number;
  cardinality: number;
  modulusLog2: number;
}

/** Output slots of `estimateRows`. */
export const R = 0, C_AB = 1, C_BA = 2, SHARED = 3;

/** Estimates for two rows into out: [resemblance, containment of a in b, of b in a, shared values]. */
export function estimateRows(kind: SketchKind, s: number, a: Row, b: Row, out: Float64Array): number {
  if (kind === 'min') return estimateMin(s, a, b, out);
  const j = kind === 'adaptive' ? Math.max(a.modulusLog2, b.modulusLog2) : 0;
  const loMask = j >= 32 ? 0xffffffff : 2 ** j - 1, hiMask = j > 32 ? 2 ** (j - 32) - 1 : 0;
  const filter = kind === 'adaptive' && (a.modulusLog2 !== j || b.modulusLog2 !== j);
  const wa = a.w, wb = b.w;
  let i = a.start, k = b.start, x = 0, la = 0, lb = 0;
  const ea = a.end, eb = b.end;
  while (i < ea && k < eb) {
    const ah = wa[2 * i + HI], bh = wb[2 * k + HI], al = wa[2 * i + LO], bl = wb[2 * k + LO];
    if (ah < bh || (ah === bh && al < bl)) {
      if (!filter || ((al & loMask) === 0 && (ah & hiMask) === 0)) la++;
      i++;
    } else if (ah === bh && al === bl) {
      if (!filter || ((al & loMask) === 0 && (ah & hiMask) === 0)) { la++; lb++; x++; }
      i++; k++;
    } else {
      if (!filter || ((bl & loMask) === 0 && (bh & hiMask) === 0)) lb++;
      k++;
    }
  }
  if (!filter) { la += ea - i; lb += eb - k; } else {
    for (; i < ea; i++) if ((wa[2 * i + LO] & loMask) === 0 && (wa[2 * i + HI] & hiMask) === 0) la++;
    for (; k < eb; k++) if ((wb[2 * k + LO] & loMask) === 0 && (wb[2 * k + HI] & hiMask) === 0) lb++;
  }
  const union = la + lb - x;
  out[R] = union > 0 ? x / union : 0;
  out[C_AB] = la > 0 ? x / la : 0;
  out[C_BA] = lb > 0 ? x / lb : 0;
  out[SHARED] = x;
  return out[R];
}

function estimateMin(s: number, a: Row, b: Row, out: Float64Array): number {
  const wa = a.w, wb = b.w, ea = a.end, eb = b.end;
  // τ: the largest value of a full sketch (the smaller of two), else above every value.
  let tauHi = 0xffffffff, tauLo = 0xffffffff;
  const fullA = ea - a.start >= s, fullB = eb - b.start >= s;
  if (fullA) { tauHi = wa[2 * (ea - 1) + HI]; tauLo = wa[2 * (ea - 1) + LO]; }
  if (fullB) {
    const h = wb[2 * (eb - 1) + HI], l = wb[2 * (eb - 1) + LO];
    if (h < tauHi || (h === tauHi && l < tauLo)) { tauHi = h; tauLo = l; }
  }
  let i = a.start, k = b.start, n = 0, x = 0, shared = 0, belowA = 0, belowB = 0, foundBelow = 0;
  while (i < ea && k < eb) {
    const ah = wa[2 * i + HI], bh = wb[2 * k + HI], al = wa[2 * i + LO], bl = wb[2 * k + LO];
    if (ah === bh && al === bl) {
      if (n < s) { n++; x++; }
      if (ah < tauHi || (ah === tauHi && al <= tauLo)) { belowA++; belowB++; foundBelow++; }
      shared++; i++; k++;
    } else {
      if (n < s) n++;
      if (ah < bh || (ah === bh && al < bl)) {
        if (ah < tauHi || (ah === tauHi && al <= tauLo)) belowA++;
        i++;
      } else {
        if (bh < tauHi || (bh === tauHi && bl <= tauLo)) belowB++;
        k++;
      }
    }
  }
  n = Math.min(s, n + (ea - i) + (eb - k));
  for (; i < ea; i++) { const h = wa[2 * i + HI]; if (h < tauHi || (h === tauHi && wa[2 * i + LO] <= tauLo)) belowA++; else break; }
  for (; k < eb; k++) { const h = wb[2 * k + HI]; if (h < tauHi || (h === tauHi && wb[2 * k + LO] <= tauLo)) belowB++; else break; }
  const r = n > 0 ? x / n : 0;
  out[R] = r;
  out[C_AB] = belowA > 0 ? foundBelow / belowA : 0;
  out[C_BA] = belowB > 0 ? foundBelow / belowB : 0;
  out[SHARED] = shared;
  return r;
}

/** Estimates between documents of one sketch set, by DocId. */
export class SetEstimator {
  readonly kind: SketchKind;
  readonly s: number;
  private readonly a: Row;
  private readonly b: Row;
  readonly out = new Float64Array(4);

  constructor(readonly set: ClusterColumns) {
    this.kind = set.params.kind;
    this.s = set.params.s ?? Infinity;
    const w = words(set.values);
    this.a = { w, start: 0, end: 0, cardinality: 0, modulusLog2: 0 };
    this.b = { w, start: 0, end: 0, cardinality: 0, modulusLog2: 0 };
  }

  /** Fills `row` with document d's row. */
  row(d: number, row: Row): Row {
    const set = this.set;
    row.start = set.offsets[d]; row.end = set.offsets[d + 1];
    row.cardinality = set.cardinality[d];
    row.modulusLog2 = set.modulusLog2 ? set.modulusLog2[d] : 0;
    return row;
  }

  /** Estimates documents a and b into `out` (see estimateRows); returns the resemblance. */
  pair(a: number, b: number): number {
    return estimateRows(this.kind, this.s, this.row(a, this.a), this.row(b, this.b), this.out);
  }

  /** Estimates an outside row (a query) against document b into `out`; returns the resemblance. */
  against(q: Row, b: number): number {
    return estimateRows(this.kind, this.s, q, this.row(b, this.b), this.out);
  }
}

/** Pairs estimated per kernel call. */
const PAIR_BATCH = 16384;
/** Sketch values copied into WebAssembly memory at most (larger sets are estimated in TypeScript). */
const KERNEL_VALUES_MAX = 1 << 30;

/**
 * MIN_s estimates of many pairs on the kernel (assembly/estimate.ts): `push` pairs in any order,
 * `flush` at the end; `emit` gets each pair, in push order, with the estimates of `estimateMin`
 * (the same numbers: the kernel counts, this divides). Use inside one `withArena` (`run`).
 */
export class MinPairBatch {
  private readonly values: number;
  private readonly offsets: number;
  private readonly pa: number;
  private readonly pb: number;
  private readonly out: number;
  private readonly hits = new Uint32Array(PAIR_BATCH);
  private count = 0;

  private constructor(private readonly mem: WasmMemory, private readonly k: Kernels, private readonly s: number, set: ClusterColumns,
    private readonly emit: (a: number, b: number, hits: number, shared: number, r: number, cab: number, cba: number) => void) {
    // 8 bytes of padding: a finished merge of the kernel's two at a time reads one value past its row
    this.values = mem.alloc(set.values.byteLength + 8);
    mem.u64.set(set.values, this.values >>> 3);
    this.offsets = mem.putU32(set.offsets);
    this.pa = mem.alloc(PAIR_BATCH * 4);
    this.pb = mem.alloc(PAIR_BATCH * 4);
    this.out = mem.alloc(PAIR_BATCH * 24);
  }

  /**
   * Runs f with a batch for a MIN_s set when the kernels are initialized and the set's values fit
   * the bound; returns undefined (f not run) otherwise, for the caller's TypeScript estimates.
   */
  static run<T>(set: ClusterColumns, emit: MinPairBatch['emit'], f: (batch: MinPairBatch) => T): T | undefined {
    if (set.params.kind !== 'min' || !isInitialized() || set.values.byteLength > KERNEL_VALUES_MAX) return undefined;
    return withArena((mem, k) => {
      const batch = new MinPairBatch(mem, k, set.params.s as number, set, emit);
      const r = f(batch);
      batch.flush();
      return r;
    });
  }

  /** Adds a pair (its estimates come out through `emit` at the next flush). */
  push(a: number, b: number, hits: number): void {
    const u32 = this.mem.u32, c = this.count;
    u32[(this.pa >>> 2) + c] = a;
    u32[(this.pb >>> 2) + c] = b;
    this.hits[c] = hits;
    if (++this.count === PAIR_BATCH) this.flush();
  }

  /** Estimates the pairs pushed since the last flush and emits them. */
  flush(): void {
    const n = this.count;
    if (n === 0) return;
    this.count = 0;
    this.k.es_min_pairs(this.values, this.offsets, this.pa, this.pb, n, this.s, this.out);
    const u32 = this.mem.u32, pa = this.pa >>> 2, pb = this.pb >>> 2, o = this.out >>> 2;
    for (let q = 0; q < n; q++) {
      const at = o + 6 * q;
      const taken = u32[at], x = u32[at + 1], belowA = u32[at + 3], belowB = u32[at + 4], found = u32[at + 5];
      this.emit(u32[pa + q], u32[pb + q], this.hits[q], u32[at + 2], taken > 0 ? x / taken : 0,
        belowA > 0 ? found / belowA : 0, belowB > 0 ? found / belowB : 0);
    }
  }
}

/** MIN_s sketch rows as the worker pool reads them: row d is values[offsets[d]..offsets[d+1]). */
export interface MinRows {
  values: BigUint64Array;
  offsets: Uint32Array;
}

/** Estimates of the pairs of a chunk that reach the floor: pair index[k] of the chunk has shared[k], resemblance[k], ... */
export interface MinChunkEstimates {
  index: Uint32Array;
  shared: Uint32Array;
  resemblance: Float64Array;
  containmentAB: Float64Array;
  containmentBA: Float64Array;
}

/** Per DocId: 1 + its row's place in the chunk being compacted, 0 when not in it (kept between calls, cleared after each). */
let slotOf = new Uint32Array(0);
/** Scratch of estimateMinChunk, grown as needed: the chunk's rows in first-seen order; the pairs kept. */
let rowOrder = new Uint32Array(0), keptPairs = new Uint32Array(0);

/**
 * Takes MIN_s rows, pairs a[i], b[i] of their DocIds, s and a floor; returns the estimates (those
 * of `estimateMin`, from the kernel) of the pairs whose resemblance or containment either way
 * reaches the floor, in pair order, as views on one buffer. Only the rows the pairs name are
 * copied into WebAssembly memory, one after another, so memory follows the chunk, not the crawl:
 * a chunk of 32,768 pairs of the 20,000-page scale crawl names about 4,100 rows (4 MB), and
 * copying them costs no more than MinPairBatch's pushes and callbacks save (the same thread CPU
 * time over the crawl's 1.46 M pairs, about 1.2 s).
 */
export function estimateMinChunk(rows: MinRows, a: Uint32Array, b: Uint32Array, s: number, floor: number): MinChunkEstimates {
  const n = a.length, off = rows.offsets, docs = off.length - 1;
  if (b.length !== n) throw new ResembleError('E_INPUT', `estimate: expected as many second documents as first, got ${b.length} and ${n}`);
  if (!(Number.isInteger(s) && s >= 1)) throw new ResembleError('E_INPUT', `estimate: expected a sketch size s ≥ 1, got ${s}`);
  if (slotOf.length < docs) slotOf = new Uint32Array(Math.max(docs, 2 * slotOf.length));
  if (rowOrder.length < 2 * n) { rowOrder = new Uint32Array(Math.max(2 * n, 2 * rowOrder.length)); keptPairs = new Uint32Array(rowOrder.length); }
  const slot = slotOf, order = rowOrder, keep = keptPairs;
  let rowsIn = 0, total = 0;
  try {
    for (let q = 0; q < 2 * n; q++) {
      const d = q < n ? a[q] : b[q - n];
      if (!(d < docs)) throw new ResembleError('E_INPUT', `estimate: pair ${q % n} names document ${d}, beyond the ${docs} rows`, { pair: q % n });
      if (slot[d] === 0) { order[rowsIn++] = d; slot[d] = 1; total += off[d + 1] - off[d]; }
    }
    // In DocId order, rows next to each other in the set are copied in one call: a copy per row
    // costs more in making its view than in moving 1 KB (about 600 runs for 4,100 rows a chunk on
    // the scale crawl)
    order.subarray(0, rowsIn).sort();
    return withArena((mem, k) => {
      // 8 bytes of padding: a finished merge of the kernel's two at a time reads one value past its row
      const values = mem.alloc(total * 8 + 8), offsets = mem.alloc((rowsIn + 1) * 4);
      const pa = mem.alloc(n * 4), pb = mem.alloc(n * 4), out = mem.alloc(n * 24);
      const u64 = mem.u64, u32 = mem.u32, v0 = values >>> 3, o0 = offsets >>> 2;
      let at = 0;
      for (let r = 0; r < rowsIn;) {
        let e = r + 1;
        while (e < rowsIn && order[e] === order[e - 1] + 1) e++;
        const from = off[order[r]], to = off[order[e - 1] + 1];
        for (let i = r; i < e; i++) { const d = order[i]; slot[d] = i + 1; u32[o0 + i] = at + off[d] - from; }
        u64.set(rows.values.subarray(from, to), v0 + at);
        at += to - from;
        r = e;
      }
      u32[o0 + rowsIn] = at;
      const a0 = pa >>> 2, b0 = pb >>> 2;
      for (let q = 0; q < n; q++) { u32[a0 + q] = slot[a[q]] - 1; u32[b0 + q] = slot[b[q]] - 1; }
      k.es_min_pairs(values, offsets, pa, pb, n, s, out);
      // the same divisions as MinPairBatch.flush, so the numbers are those of the inline kernel;
      // the pairs kept are listed first, then written to one buffer (one transfer, one allocation)
      const o = out >>> 2;
      let kept = 0;
      for (let q = 0; q < n; q++) {
        const at6 = o + 6 * q;
        const taken = u32[at6], belowA = u32[at6 + 3], belowB = u32[at6 + 4];
        const x = u32[at6 + 1], found = u32[at6 + 5];
        if (Math.max(belowA > 0 ? found / belowA : 0, belowB > 0 ? found / belowB : 0, taken > 0 ? x / taken : 0) >= floor) keep[kept++] = q;
      }
      const buffer = new ArrayBuffer(kept * 32);
      const e: MinChunkEstimates = {
        resemblance: new Float64Array(buffer, 0, kept), containmentAB: new Float64Array(buffer, kept * 8, kept),
        containmentBA: new Float64Array(buffer, kept * 16, kept), index: new Uint32Array(buffer, kept * 24, kept),
        shared: new Uint32Array(buffer, kept * 28, kept),
      };
      for (let i = 0; i < kept; i++) {
        const q = keep[i], at6 = o + 6 * q;
        const taken = u32[at6], belowA = u32[at6 + 3], belowB = u32[at6 + 4], found = u32[at6 + 5];
        e.index[i] = q; e.shared[i] = u32[at6 + 2];
        e.resemblance[i] = taken > 0 ? u32[at6 + 1] / taken : 0;
        e.containmentAB[i] = belowA > 0 ? found / belowA : 0;
        e.containmentBA[i] = belowB > 0 ? found / belowB : 0;
      }
      return e;
    });
  } finally {
    for (let r = 0; r < rowsIn; r++) slot[order[r]] = 0;
  }
}

/**
 * Pairs estimated per call of estimateMinChunk by estimateRowPairs: the rows they name are copied
 * into this thread's WebAssembly memory, which keeps the size it grows to (8,192 pairs whose second
 * rows are scattered name up to 16,384 rows, 16 MiB of MIN_128 rows).
 */
const ROW_PAIRS_STEP = 8192;

/**
 * Takes rows (CSR: row r is values[offsets[r]..offsets[r+1])), pairs of their row ids ra[i], rb[i],
 * the sketch kind and s, and a floor; calls emit(i, shared, resemblance, containment of a in b, of
 * b in a) for each pair reaching the floor (resemblance or containment either way), in pair order,
 * with the estimates of `estimateRows` (MIN_s: on the kernel once initialized, in steps of 8,192
 * pairs). Adaptive sketches need each pair's DocIds and the modulus column (`adaptive`).
 */
export function estimateRowPairs(kind: SketchKind, s: number, rows: MinRows, ra: Uint32Array, rb: Uint32Array, floor: number,
  emit: (i: number, shared: number, r: number, cab: number, cba: number) => void,
  adaptive?: { modulusLog2: Uint8Array; a: Uint32Array; b: Uint32Array }): void {
  const n = ra.length;
  if (kind === 'min' && isInitialized()) {
    for (let from = 0; from < n; from += ROW_PAIRS_STEP) {
      const to = Math.min(n, from + ROW_PAIRS_STEP);
      const e = estimateMinChunk(rows, ra.subarray(from, to), rb.subarray(from, to), s, floor);
      for (let k = 0; k < e.index.length; k++) emit(from + e.index[k], e.shared[k], e.resemblance[k], e.containmentAB[k], e.containmentBA[k]);
    }
    return;
  }
  const w = words(rows.values), off = rows.offsets, out = new Float64Array(4);
  const x: Row = { w, start: 0, end: 0, cardinality: 0, modulusLog2: 0 }, y: Row = { w, start: 0, end: 0, cardinality: 0, modulusLog2: 0 };
  for (let i = 0; i < n; i++) {
    x.start = off[ra[i]]; x.end = off[ra[i] + 1];
    y.start = off[rb[i]]; y.end = off[rb[i] + 1];
    if (adaptive) { x.modulusLog2 = adaptive.modulusLog2[adaptive.a[i]]; y.modulusLog2 = adaptive.modulusLog2[adaptive.b[i]]; }
    const r = estimateRows(kind, s, x, y, out);
    if (Math.max(out[C_AB], out[C_BA], r) >= floor) emit(i, out[SHARED], r, out[C_AB], out[C_BA]);
  }
}

/** Takes an estimator and pairs a[i], b[i] of DocIds; returns their estimates (through `many` when the estimator has it). */
export function estimatePairs(est: PairEstimator, a: Uint32Array, b: Uint32Array): PairEstimates {
  const n = a.length;
  const e: PairEstimates = { resemblance: new Float64Array(n), containmentAB: new Float64Array(n), containmentBA: new Float64Array(n), shared: new Uint32Array(n) };
  if (est.many) { est.many(a, b, e); return e; }
  const out = est.out;
  for (let i = 0; i < n; i++) {
    e.resemblance[i] = est.pair(a[i], b[i]);
    e.containmentAB[i] = out[C_AB]; e.containmentBA[i] = out[C_BA]; e.shared[i] = out[SHARED];
  }
  return e;
}
