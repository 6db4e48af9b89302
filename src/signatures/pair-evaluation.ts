/**
 * Pair-level evaluation of collisions against exact shingle Jaccard: precision is the share of
 * colliding pairs whose full word-shingle sets have Jaccard ≥ a level (0.8 by default), recall the
 * share of the pairs with Jaccard ≥ another level (0.9) that collide. The pairs over a level are
 * found exactly, without comparing all pairs, by prefix filtering (Chaudhuri, Ganti, Kaushik 2006):
 * with each set's shingles ordered rarest first, two sets with Jaccard ≥ t share one of the first
 * |x| − ⌈t·|x|⌉ + 1 shingles of each. Shingles are the core's 64-bit fingerprints of w-word windows,
 * renumbered to dense 32-bit ids so no comparison reads a BigInt.
 */
import { numberOption, rejectUnknown } from '../errors.js';
import { shingleValues, type DocInput, type SketchOptions } from '../sketch/index.js';
import { WordTable } from '../word-table.js';

/** Every page's distinct shingles as dense ids (CSR), each row ascending; ids are ranks by document frequency, rarest first. */
export interface ShingleSets {
  size: number;
  offsets: Uint32Array;
  ids: Uint32Array;
}

/** Options of {@link shingleSetsOf}: the shingle width, and the markup rule for all documents or for each. */
export interface ShingleSetOptions {
  /** Words per shingle (default 8, the core's). */
  w?: number;
  /** 'html' (markup dropped, the default) or 'text', or one per document. */
  markup?: SketchOptions['markup'] | ReadonlyArray<SketchOptions['markup']>;
}

/** Takes documents and options; returns their exact shingle sets (after `await init()`). */
export function shingleSetsOf(docs: readonly DocInput[], options: ShingleSetOptions = {}): ShingleSets {
  rejectUnknown(options, ['w', 'markup'], 'shingleSetsOf');
  const raw: Uint32Array[] = [];
  for (let d = 0; d < docs.length; d++) {
    const markup = Array.isArray(options.markup) ? options.markup[d] : (options.markup as SketchOptions['markup']);
    const v = shingleValues(docs[d], { w: options.w, markup });
    raw.push(new Uint32Array(v.buffer, v.byteOffset, v.length * 2));
  }
  return shingleSetsFromValues(raw);
}

/**
 * Takes each document's shingle values in page order (`shingleValues`, as u32 pairs: the
 * platform's view of the 64-bit values); returns their exact shingle sets, as `shingleSetsOf`
 * numbers them (so values computed batch by batch while a crawl streams give the same sets).
 */
export function shingleSetsFromValues(raw: ArrayLike<Uint32Array>): ShingleSets {
  const n = raw.length;
  let total = 0;
  for (let d = 0; d < n; d++) total += raw[d].length / 2;
  // Dense ids in first-seen order, with the number of documents holding each.
  const table = new WordTable(total, -1, 2);
  const df: number[] = [];
  const perDoc: Uint32Array[] = new Array(n);
  for (let d = 0; d < n; d++) {
    const w = raw[d];
    const ids = new Uint32Array(w.length / 2);
    for (let i = 0; i < ids.length; i++) {
      const s = table.slot(w[2 * i], w[2 * i + 1], 0);
      if (table.values[s] < 0) {
        table.values[s] = df.length;
        df.push(0);
      }
      ids[i] = table.values[s];
    }
    ids.sort();
    let u = 0;
    for (let i = 0; i < ids.length; i++) if (i === 0 || ids[i] !== ids[u - 1]) ids[u++] = ids[i];
    for (let i = 0; i < u; i++) df[ids[i]]++;
    perDoc[d] = ids.subarray(0, u);
  }
  // Renumber by document frequency (then first seen), so each sorted row lists its rarest shingles first.
  const order = Uint32Array.from(df.keys()).sort((x, y) => df[x] - df[y] || x - y);
  const rank = new Uint32Array(df.length);
  order.forEach((id, r) => (rank[id] = r));
  const offsets = new Uint32Array(n + 1);
  perDoc.forEach((s, d) => (offsets[d + 1] = offsets[d] + s.length));
  const ids = new Uint32Array(offsets[n]);
  perDoc.forEach((s, d) => {
    const row = ids.subarray(offsets[d], offsets[d + 1]);
    for (let i = 0; i < s.length; i++) row[i] = rank[s[i]];
    row.sort();
  });
  return { size: n, offsets, ids };
}

/** Takes shingle sets and two pages; returns the exact Jaccard of their sets (1 for two empty sets). */
export function exactJaccard(sets: ShingleSets, a: number, b: number): number {
  const { offsets, ids } = sets;
  let i = offsets[a], j = offsets[b], shared = 0;
  const ie = offsets[a + 1], je = offsets[b + 1];
  while (i < ie && j < je) {
    if (ids[i] === ids[j]) { shared++; i++; j++; } else if (ids[i] < ids[j]) i++; else j++;
  }
  const union = ie - offsets[a] + (je - offsets[b]) - shared;
  return union === 0 ? 1 : shared / union;
}

/** Pairs of pages (a < b), sorted by (a, b), with their exact Jaccard. */
export interface JaccardPairs {
  a: Uint32Array;
  b: Uint32Array;
  jaccard: Float64Array;
}

/** Takes shingle sets and a level t in (0, 1]; returns every pair with exact Jaccard ≥ t (prefix filtering, exact). */
export function pairsAtLeast(sets: ShingleSets, t: number): JaccardPairs {
  numberOption('t', t, 0.9, 1e-9, 1);
  const { size, offsets, ids } = sets;
  const len = (d: number) => offsets[d + 1] - offsets[d];
  // Postings of prefix shingles: shingle id → pages, filled as pages are visited by size.
  const postings = new Map<number, number[]>();
  const byLength = Uint32Array.from({ length: size }, (_, i) => i).sort((x, y) => len(x) - len(y) || x - y);
  const found: number[] = [];
  const seen = new Int32Array(size).fill(-1);
  for (const x of byLength) {
    const n = len(x);
    if (n === 0) continue;
    const prefix = n - Math.ceil(t * n - 1e-9) + 1;
    for (let i = offsets[x]; i < offsets[x] + prefix; i++) {
      const list = postings.get(ids[i]);
      if (list) {
        for (const y of list) {
          // Visited by size, so |y| ≤ |x|; the length filter: |y| ≥ t·|x|.
          if (seen[y] === x || len(y) < t * n - 1e-9) continue;
          seen[y] = x;
          if (exactJaccard(sets, x, y) >= t - 1e-12) found.push(x < y ? x * size + y : y * size + x);
        }
        list.push(x);
      } else postings.set(ids[i], [x]);
    }
  }
  const keys = Float64Array.from(found).sort();
  const out: JaccardPairs = { a: new Uint32Array(keys.length), b: new Uint32Array(keys.length), jaccard: new Float64Array(keys.length) };
  keys.forEach((k, i) => {
    out.a[i] = Math.floor(k / size);
    out.b[i] = k - out.a[i] * size;
    out.jaccard[i] = exactJaccard(sets, out.a[i], out.b[i]);
  });
  return out;
}

/** Pair-level precision and recall of one set of colliding pairs. */
export interface PairScore {
  /** Colliding pairs, and of those with exact Jaccard ≥ the precision level. */
  pairs: number;
  correct: number;
  pairPrecision: number;
  /** Pairs with exact Jaccard ≥ the recall level, and of those colliding. */
  wanted: number;
  found: number;
  pairRecall: number;
}

/**
 * Takes shingle sets, colliding pairs (a < b), the pairs wanted (Jaccard ≥ the recall level, from
 * {@link pairsAtLeast}) and the precision level; returns pair precision and recall. An empty
 * output has precision 1.
 */
export function scorePairs(sets: ShingleSets, pairs: { a: ArrayLike<number>; b: ArrayLike<number> }, wanted: JaccardPairs, precisionAt = 0.8): PairScore {
  numberOption('precisionAt', precisionAt, 0.8, 0, 1);
  const n = sets.size;
  const colliding = new Set<number>();
  let correct = 0;
  for (let i = 0; i < pairs.a.length; i++) {
    const a = Math.min(pairs.a[i], pairs.b[i]), b = Math.max(pairs.a[i], pairs.b[i]);
    if (colliding.has(a * n + b)) continue;
    colliding.add(a * n + b);
    if (exactJaccard(sets, a, b) >= precisionAt - 1e-12) correct++;
  }
  let found = 0;
  for (let i = 0; i < wanted.a.length; i++) if (colliding.has(wanted.a[i] * n + wanted.b[i])) found++;
  return {
    pairs: colliding.size,
    correct,
    pairPrecision: colliding.size === 0 ? 1 : correct / colliding.size,
    wanted: wanted.a.length,
    found,
    pairRecall: wanted.a.length === 0 ? 1 : found / wanted.a.length,
  };
}
