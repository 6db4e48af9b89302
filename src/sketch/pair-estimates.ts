// Estimates of many pairs at once from rows gathered elsewhere: a chunk of MIN_s pairs on the
// kernel with only the rows it names copied in (what a pool worker runs), the same over rows of any
// kind (the sketch store, the scale path). The one-pair estimates they reduce to, and the pairs of
// any estimator, are in estimate.ts.
import { words, type SketchKind } from './columns.js';
import { isInitialized, withArena } from '../wasm/instance.js';
import { ResembleError } from '../errors.js';
import { C_AB, C_BA, SHARED, estimateRows, type Row } from './row-estimates.js';

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
