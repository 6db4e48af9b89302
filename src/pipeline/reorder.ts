// Rows sketched out of order (content mode releases a site's pages once its template is trusted)
// put back in DocId order.
import { SketchSet, type SketchError } from '../sketch/sketch-set.js';

/**
 * Takes a set whose row k is the sketch of DocId ids[k] (ids a permutation of 0..n−1) and the
 * errors by DocId; returns the set with row d the sketch of DocId d (its values and offsets on
 * SharedArrayBuffers when `shared`, as assembleSketchSet).
 */
export function permuteSketchSet(set: SketchSet, ids: Uint32Array, errors: SketchError[], shared = false): SketchSet {
  const n = set.size;
  const row = new Uint32Array(n);
  for (let k = 0; k < n; k++) row[ids[k]] = k;
  const gather = <A extends Float64Array | Uint32Array | Uint8Array | BigUint64Array>(a: A): A => {
    const out = new (a.constructor as new (n: number) => A)(n);
    for (let d = 0; d < n; d++) out[d] = a[row[d]];
    return out;
  };
  const csr = (values: BigUint64Array, offsets: Uint32Array, share = false) => {
    const o = share ? new Uint32Array(new SharedArrayBuffer((n + 1) * 4)) : new Uint32Array(n + 1);
    for (let d = 0; d < n; d++) o[d + 1] = o[d] + offsets[row[d] + 1] - offsets[row[d]];
    const v = share ? new BigUint64Array(new SharedArrayBuffer(o[n] * 8)) : new BigUint64Array(o[n]);
    for (let d = 0; d < n; d++) v.set(values.subarray(offsets[row[d]], offsets[row[d] + 1]), o[d]);
    return { values: v, offsets: o };
  };
  const { values, offsets } = csr(set.values, set.offsets, shared);
  let signature: BigUint64Array | undefined;
  const k = set.params.k;
  if (set.signature && k > 0) {
    signature = new BigUint64Array(n * k);
    for (let d = 0; d < n; d++) signature.set(set.signature.subarray(row[d] * k, row[d] * k + k), d * k);
  }
  return new SketchSet(set.params, {
    values, offsets, cardinality: gather(set.cardinality), tokens: gather(set.tokens), modulusLog2: gather(set.modulusLog2),
    rawFp: gather(set.rawFp), lexicalFp: gather(set.lexicalFp), shingleFp: gather(set.shingleFp), signature,
    superShingles: set.superShingles ? csr(set.superShingles.values, set.superShingles.offsets) : undefined,
    templateTokens: set.templateTokens ? gather(set.templateTokens) : undefined,
  }, [...errors].sort((a, b) => a.index - b.index));
}
