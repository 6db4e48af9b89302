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
