/**
 * The slow, obvious twin of assembly/sketch.ts and select.ts (sk_*): MIN_s / MOD_m / adaptive
 * selection by sorting, and the one-permutation-hashing signature, straight from their definitions.
 */
import { mixRef } from './rabin.js';

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
