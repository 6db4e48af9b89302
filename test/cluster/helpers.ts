// Builds SketchSet-shaped columns by hand from explicit shingle sets, exactly as the core's
// contract lays them out, so clustering can be checked against exact Jaccard on the sets.
import type { ClusterColumns, ClusterParams } from '../../src/sketch/columns.js';
import { ResembleIndex } from '../../src/cluster/resemble-index/resemble-index.js';
import type { DocumentMeta, IndexOptions, QueryHit, QueryOptions } from '../../src/cluster/resemble-index/options.js';
import type { Sketch } from '../../src/sketch/sketch-set.js';
import { Rng } from '../helpers/random.js';

export { Rng };

/** A set of `n` fresh random shingle fingerprints. */
export function randomSet(rng: Rng, n: number): bigint[] {
  const out: bigint[] = [];
  for (let i = 0; i < n; i++) out.push(rng.u64());
  return out;
}

/** A variant of `base` with exact Jaccard ≈ j against it (same size; shared elements kept, the rest fresh). */
export function variant(rng: Rng, base: bigint[], j: number): bigint[] {
  const n = base.length;
  const keep = Math.round((2 * n * j) / (1 + j));
  const shuffled = rng.shuffle(base.slice());
  return shuffled.slice(0, keep).concat(randomSet(rng, n - keep));
}

/** Sets as sorted integer ids (one id per distinct value), for fast exact Jaccard over many pairs. */
export function toIds(sets: bigint[][]): Int32Array[] {
  const ids = new Map<bigint, number>();
  return sets.map((s) => Int32Array.from(new Set(s), (v) => { let id = ids.get(v); if (id === undefined) { id = ids.size; ids.set(v, id); } return id; }).sort());
}

/** Exact Jaccard of two sorted id arrays. */
export function jaccardIds(a: Int32Array, b: Int32Array): number {
  let i = 0, k = 0, x = 0;
  while (i < a.length && k < b.length) {
    if (a[i] === b[k]) { x++; i++; k++; } else if (a[i] < b[k]) i++; else k++;
  }
  const u = a.length + b.length - x;
  return u ? x / u : 0;
}

/** Exact Jaccard of two sets. */
export function jaccard(a: bigint[], b: bigint[]): number {
  const sa = new Set(a);
  let x = 0;
  const sb = new Set(b);
  for (const v of sb) if (sa.has(v)) x++;
  const u = sa.size + sb.size - x;
  return u ? x / u : 0;
}

/** Exact containment of a in b. */
export function containmentOf(a: bigint[], b: bigint[]): number {
  const sb = new Set(b);
  let x = 0;
  const sa = new Set(a);
  for (const v of sa) if (sb.has(v)) x++;
  return sa.size ? x / sa.size : 0;
}

function fmix(h: number): number {
  h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 64-bit fingerprint of a list of u64 values (two 32-bit murmur-style hashes), with a salt. */
function mixFp(values: BigUint64Array | bigint[], salt: bigint): bigint {
  const arr = values instanceof BigUint64Array ? values : BigUint64Array.from(values);
  const w = new Uint32Array(arr.buffer, arr.byteOffset, arr.length * 2);
  let h1 = Number(salt) ^ 0x811c9dc5, h2 = Math.imul(Number(salt) + 1, 0x9e3779b1) ^ arr.length;
  for (let i = 0; i < w.length; i++) {
    h1 = Math.imul(h1 ^ w[i], 0x01000193); h1 ^= h1 >>> 13;
    h2 = Math.imul(h2 + w[i], 0x85ebca6b); h2 ^= h2 >>> 16;
  }
  return (BigInt(fmix(h1 ^ h2) >>> 0) << 32n) | BigInt(fmix(h2 + h1) >>> 0);
}

export interface ColumnSpec {
  kind: 'min' | 'mod' | 'adaptive';
  /** MIN_s size. */
  s?: number;
  /** MOD_{2^mLog2}. */
  mLog2?: number;
}

/**
 * Columns from shingle sets. Whole-document fingerprints come from the set content, so equal sets
 * are identical documents; `lexicalTo[i] = j` gives document i the lexical fingerprint of set j.
 */
export function columnsFromSets(sets: bigint[][], spec: ColumnSpec, extra: { lexicalTo?: number[]; signatureK?: number; superSize?: number } = {}): ClusterColumns {
  const n = sets.length;
  const rows: BigUint64Array[] = [];
  const mlog2 = new Uint8Array(n);
  const cardinality = new Float64Array(n);
  const contents: BigUint64Array[] = [];
  for (let d = 0; d < n; d++) {
    const sorted = BigUint64Array.from(new Set(sets[d])).sort();
    contents.push(sorted);
    cardinality[d] = sorted.length;
    if (spec.kind === 'min') rows.push(sorted.slice(0, spec.s));
    else {
      const e = spec.kind === 'mod' ? spec.mLog2 ?? 0 : Math.max(0, Math.floor(Math.log2(Math.max(1, sorted.length) / 100)));
      mlog2[d] = e;
      const mask = (1 << e) - 1;
      const w = new Uint32Array(sorted.buffer);
      rows.push(sorted.filter((_, i) => (w[2 * i] & mask) === 0));
    }
  }
  const offsets = new Uint32Array(n + 1);
  for (let d = 0; d < n; d++) offsets[d + 1] = offsets[d] + rows[d].length;
  const values = new BigUint64Array(offsets[n]);
  for (let d = 0; d < n; d++) values.set(rows[d], offsets[d]);
  const rawFp = new BigUint64Array(n), lexicalFp = new BigUint64Array(n), shingleFp = new BigUint64Array(n);
  for (let d = 0; d < n; d++) {
    // Whole-document fingerprints from the content: equal sets are identical documents.
    const content = contents[d];
    rawFp[d] = mixFp(content, 1n);
    lexicalFp[d] = extra.lexicalTo ? mixFp(contents[extra.lexicalTo[d]], 2n) : mixFp(content, 2n);
    shingleFp[d] = mixFp(rows[d], 3n);
  }
  const params: ClusterParams = { w: 8, unit: 'word', markup: 'html', kind: spec.kind, s: spec.kind === 'min' ? spec.s ?? 128 : 0,
    m: spec.kind === 'mod' ? 2 ** (spec.mLog2 ?? 0) : 0, k: 0, superShingle: 0, seed: 0n };
  const set: { -readonly [K in keyof ClusterColumns]: ClusterColumns[K] } = { size: n, params, values, offsets, cardinality, rawFp, lexicalFp, shingleFp };
  if (spec.kind === 'adaptive') set.modulusLog2 = mlog2;
  if (extra.signatureK) {
    // k min-hashes: for hash j, the minimum over the set of a 64-bit mix of the value with seed j.
    const k = extra.signatureK;
    params.k = k;
    const sig = new BigUint64Array(n * k);
    const sw = new Uint32Array(sig.buffer);
    for (let d = 0; d < n; d++) {
      const his = sets[d].map((v) => Number(v >> 32n)), los = sets[d].map((v) => Number(v & 0xffffffffn));
      for (let j = 0; j < k; j++) {
        let mh = 0xffffffff, ml = 0xffffffff;
        for (let i = 0; i < his.length; i++) {
          const h = fmix(his[i] ^ Math.imul(j + 1, 0x9e3779b1) ^ fmix(los[i] + j));
          const l = fmix(los[i] ^ Math.imul(j + 7, 0x85ebca6b) ^ h);
          if (h < mh || (h === mh && l < ml)) { mh = h; ml = l; }
        }
        sw[2 * (d * k + j)] = ml; sw[2 * (d * k + j) + 1] = mh;
      }
    }
    set.signature = sig;
  }
  if (extra.superSize) {
    // Super-shingles: shingle the sorted sketch row in windows of superSize.
    const size = extra.superSize;
    const ssRows: BigUint64Array[] = rows.map((r) => {
      const out = new Set<bigint>();
      for (let i = 0; i + size <= r.length; i++) out.add(mixFp(r.subarray(i, i + size), 11n));
      return BigUint64Array.from(out).sort();
    });
    const so = new Uint32Array(n + 1);
    for (let d = 0; d < n; d++) so[d + 1] = so[d] + ssRows[d].length;
    const sv = new BigUint64Array(so[n]);
    for (let d = 0; d < n; d++) sv.set(ssRows[d], so[d]);
    set.superShingles = { values: sv, offsets: so };
    params.superShingle = size;
  }
  return set as ClusterColumns;
}

/** The same columns with documents reordered: new document i is old document order[i]. */
export function permute(set: ClusterColumns, order: number[]): ClusterColumns {
  const n = order.length;
  const offsets = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) offsets[i + 1] = offsets[i] + set.offsets[order[i] + 1] - set.offsets[order[i]];
  const values = new BigUint64Array(offsets[n]);
  for (let i = 0; i < n; i++) values.set(set.values.subarray(set.offsets[order[i]], set.offsets[order[i] + 1]), offsets[i]);
  const pick = <T extends BigUint64Array | Float64Array | Uint8Array>(col: T | undefined): T | undefined => {
    if (!col) return undefined;
    const out = new (col.constructor as new (n: number) => T)(n);
    for (let i = 0; i < n; i++) out[i] = col[order[i]];
    return out;
  };
  let signature: BigUint64Array | undefined;
  if (set.signature) {
    const k = set.params.k!;
    signature = new BigUint64Array(n * k);
    for (let i = 0; i < n; i++) signature.set(set.signature.subarray(order[i] * k, order[i] * k + k), i * k);
  }
  return {
    size: n, params: set.params, values, offsets, cardinality: pick(set.cardinality)!, rawFp: pick(set.rawFp),
    lexicalFp: pick(set.lexicalFp), shingleFp: pick(set.shingleFp), modulusLog2: pick(set.modulusLog2), signature,
  };
}

/** A planted corpus: groups of near-duplicates at known resemblances, chains, identical copies, loners. */
export interface Planted {
  sets: bigint[][];
  identicalTo: number[];
  /** Which planted group each document came from (-1 for loners). */
  group: number[];
}

/** Plants `groups` groups over sets of `size` shingles; see the test for the shapes. */
export function plantedCorpus(rng: Rng, groups: number, size: number): Planted {
  const sets: bigint[][] = [], identicalTo: number[] = [], group: number[] = [];
  const add = (s: bigint[], g: number, same = -1) => { identicalTo.push(same < 0 ? sets.length : same); sets.push(s); group.push(g); return sets.length - 1; };
  for (let g = 0; g < groups; g++) {
    const base = randomSet(rng, size);
    const b = add(base, g);
    for (const j of [0.9, 0.75, 0.62]) add(variant(rng, base, j), g);
    // Far relatives: should not join the base on their own.
    for (const j of [0.4, 0.25]) add(variant(rng, base, j), -1);
    if (g % 3 === 0) {
      // A chain: each link ≈ 0.62, the ends ≈ 0.4 apart.
      let prev = base;
      for (let k = 0; k < 3; k++) { prev = variant(rng, prev, 0.62); add(prev, g); }
    }
    if (g % 4 === 0) add(base.slice(), g, b); // an identical copy
  }
  for (let i = 0; i < groups; i++) add(randomSet(rng, size), -1);
  return { sets, identicalTo, group };
}

/** An index of every document of a set (or of one sketch), with its keys and dates and the policy given. */
export function indexed(set: ClusterColumns | Sketch, meta?: DocumentMeta, options?: IndexOptions): ResembleIndex {
  const index = new ResembleIndex(set.params, options);
  index.insertMany(set, meta);
  return index;
}

/** The documents resembling indexed document d, itself left out. */
export function queryDoc(index: ResembleIndex, d: number, options: Omit<QueryOptions, 'exclude'> = {}): QueryHit[] {
  return index.query(index.sketch(d), { ...options, exclude: d });
}
