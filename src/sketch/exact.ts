import type { DocInput } from './input.js';
import type { SketchOptions } from './options.js';
import { intersectionSize } from './estimate.js';
import { shingleValues } from './shingles.js';

/** The full set S(D) of a document's distinct shingles (permuted values, ascending). */
export function shingleSet(doc: DocInput, options?: SketchOptions): BigUint64Array {
  const v = shingleValues(doc, options).sort();
  let w = 0;
  for (let i = 0; i < v.length; i++) if (i === 0 || v[i] !== v[w - 1]) v[w++] = v[i];
  return v.slice(0, w);
}

/** Exact resemblance |S(A) ∩ S(B)| / |S(A) ∪ S(B)| over the full shingle sets. */
export function exactResemblance(a: DocInput, b: DocInput, options?: SketchOptions): number {
  const x = shingleSet(a, options), y = shingleSet(b, options);
  const shared = intersectionSize(x, y);
  return shared / (x.length + y.length - shared);
}

/** Exact containment |S(A) ∩ S(B)| / |S(A)| over the full shingle sets. */
export function exactContainment(a: DocInput, b: DocInput, options?: SketchOptions): number {
  const x = shingleSet(a, options), y = shingleSet(b, options);
  return intersectionSize(x, y) / x.length;
}
