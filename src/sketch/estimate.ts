import { ResembleError } from '../errors.js';
import type { Sketch } from './sketch-set.js';
import { assertComparable } from './sketch.js';

/**
 * Estimated resemblance r(A, B) = |S(A) ∩ S(B)| / |S(A) ∪ S(B)| from two sketches (Broder §2):
 * MIN_s: |MIN_s(F(A) ∪ F(B)) ∩ F(A) ∩ F(B)| / |MIN_s(F(A) ∪ F(B))|;
 * MOD_m: |V(A) ∩ V(B)| / |V(A) ∪ V(B)|; adaptive: the same at the larger of the two moduli.
 */
export function resemblance(a: Sketch, b: Sketch): number {
  assertComparable(a.params, b.params);
  if (a.params.kind === 'min') return minResemblance(a.values, b.values, a.params.s);
  const [x, y] = atCommonModulus(a, b);
  const shared = intersectionSize(x, y);
  const union = x.length + y.length - shared;
  return union === 0 ? 1 : shared / union;
}

/**
 * Estimated containment c(A, B) = |S(A) ∩ S(B)| / |S(A)| (how much of A is in B).
 * MOD_m: |V(A) ∩ V(B)| / |V(A)| (Broder §2). MIN_s: below τ = the smaller of the two sketches'
 * largest values (∞ for a sketch holding all its shingles), F(A) is a uniform sample of S(A) and
 * F(B) holds all of S(B), so the fraction of A's values ≤ τ found in F(B) estimates c.
 */
export function containment(a: Sketch, b: Sketch): number {
  assertComparable(a.params, b.params);
  if (a.params.kind === 'min') {
    const s = a.params.s;
    const fullA = a.values.length >= s, fullB = b.values.length >= s;
    const maxU64 = (1n << 64n) - 1n;
    let tau = maxU64;
    if (fullA) tau = a.values[a.values.length - 1];
    if (fullB && b.values[b.values.length - 1] < tau) tau = b.values[b.values.length - 1];
    let below = 0, found = 0, j = 0;
    for (let i = 0; i < a.values.length && a.values[i] <= tau; i++) {
      below++;
      const v = a.values[i];
      while (j < b.values.length && b.values[j] < v) j++;
      if (j < b.values.length && b.values[j] === v) found++;
    }
    return below === 0 ? (a.values.length === 0 ? 1 : 0) : found / below;
  }
  const [x, y] = atCommonModulus(a, b);
  return x.length === 0 ? 1 : intersectionSize(x, y) / x.length;
}

/** MIN_s estimator over two sorted rows. */
export function minResemblance(x: BigUint64Array, y: BigUint64Array, s: number): number {
  let i = 0, j = 0, taken = 0, both = 0;
  while (taken < s && (i < x.length || j < y.length)) {
    if (j >= y.length || (i < x.length && x[i] < y[j])) i++;
    else if (i >= x.length || y[j] < x[i]) j++;
    else { both++; i++; j++; }
    taken++;
  }
  return taken === 0 ? 1 : both / taken;
}

/** |x ∩ y| of two sorted distinct rows. */
export function intersectionSize(x: BigUint64Array, y: BigUint64Array): number {
  let i = 0, j = 0, n = 0;
  while (i < x.length && j < y.length) {
    if (x[i] < y[j]) i++;
    else if (y[j] < x[i]) j++;
    else { n++; i++; j++; }
  }
  return n;
}

/** Adaptive sketches compared at the larger modulus: V_{i+1} is V_i filtered by 2^(i+1) (Broder §2). */
function atCommonModulus(a: Sketch, b: Sketch): [BigUint64Array, BigUint64Array] {
  if (a.params.kind !== 'adaptive' || a.modulusLog2 === b.modulusLog2) return [a.values, b.values];
  const i = Math.max(a.modulusLog2, b.modulusLog2);
  if (i > 63) throw new ResembleError('E_FORMAT', `modulus exponent ${i} out of range`);
  const mask = (1n << BigInt(i)) - 1n;
  return [a.values.filter((v) => (v & mask) === 0n), b.values.filter((v) => (v & mask) === 0n)];
}
