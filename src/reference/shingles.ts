/**
 * Slow, obvious shingles and sketches: token fingerprints, w-shingles, the permutation and
 * MIN_s / MOD_m / adaptive selection by sorting, the one-permutation-hashing signature and
 * super-shingles — each straight from its definition. The test oracle for the sketch kernels.
 */
import { canonicalRef, tokensRef } from './tokens.js';
import { mixRef, rabinRef, rabinWordsRef } from './rabin.js';

const utf8 = new TextEncoder();

export interface RefSketchOptions { w?: number; unit?: 'word' | 'char'; markup?: 'html' | 'text'; seed?: bigint }

/** The canonical units: tokens, or the characters of the canonical text. */
export function unitsRef(doc: Uint8Array | string, o: RefSketchOptions = {}): string[] {
  return o.unit === 'char' ? Array.from(canonicalRef(doc, o)) : tokensRef(doc, o);
}

/** Token fingerprints: Rabin of each unit's UTF-8. */
export function tokenFpsRef(doc: Uint8Array | string, o: RefSketchOptions = {}): bigint[] {
  return unitsRef(doc, o).map((t) => rabinRef(utf8.encode(t)));
}

/** Every π(shingle) in order: windows of w token fingerprints (one window of all when fewer). */
export function shingleValuesRef(doc: Uint8Array | string, o: RefSketchOptions = {}): bigint[] {
  const w = o.w ?? 8, seed = o.seed ?? 0n;
  const t = tokenFpsRef(doc, o);
  if (t.length < w) return [mixRef(rabinWordsRef(t), seed)];
  const out: bigint[] = [];
  for (let i = 0; i + w <= t.length; i++) out.push(mixRef(rabinWordsRef(t.slice(i, i + w)), seed));
  return out;
}

/** The distinct values, ascending. */
export function distinctSorted(values: bigint[]): bigint[] {
  return [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export const minSRef = (values: bigint[], s: number) => distinctSorted(values).slice(0, s);
export const modMRef = (values: bigint[], m: number) => distinctSorted(values).filter((v) => v % BigInt(m) === 0n);

/** Adaptive MOD_{2^i}: the largest i with n / 2^i ≥ 50 (i = 0 below 100 distinct shingles). */
export function adaptiveRef(values: bigint[]): { values: bigint[]; i: number } {
  const all = distinctSorted(values);
  let i = 0;
  while (Math.floor(all.length / 2 ** (i + 1)) >= 50) i++;
  const mask = (1n << BigInt(i)) - 1n;
  return { values: all.filter((v) => (v & mask) === 0n), i };
}

/** One-permutation hashing into k bins by the high 32 bits, empty bins filled by optimal densification. */
export function signatureRef(values: bigint[], k: number, seed: bigint): bigint[] {
  const MAX = (1n << 64n) - 1n;
  const bins = new Array<bigint>(k).fill(MAX);
  const binOf = (v: bigint) => Number(((v >> 32n) * BigInt(k)) >> 32n);
  for (const v of values) { const b = binOf(v); if (v < bins[b]) bins[b] = v; }
  const sigSeed = seed ^ 0x6f6e652d7065726dn;
  return bins.map((v, j) => {
    if (v !== MAX) return v;
    for (let attempt = 1n; attempt < 1n << 20n; attempt++) {
      const x = bins[binOf(mixRef((BigInt(j) << 32n) | attempt, sigSeed))];
      if (x !== MAX) return x;
    }
    return v;
  });
}

/** Super-shingles of a sorted sketch: Rabin over each run of `size` consecutive values. */
export function superShinglesRef(sketch: bigint[], size: number): bigint[] {
  if (sketch.length <= size) return [rabinWordsRef(sketch)];
  const out: bigint[] = [];
  for (let i = 0; i + size <= sketch.length; i++) out.push(rabinWordsRef(sketch.slice(i, i + size)));
  return out;
}
