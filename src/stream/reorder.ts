// Rows sketched out of order (content mode releases a site's pages once its template is trusted)
// put back in DocId order, each row copied once from the batch it came in.
import type { SketchParams } from '../sketch/options.js';
import { SketchSet, type SketchColumns, type SketchError } from '../sketch/sketch-set.js';

/**
 * Takes batches of rows (row k of a batch is the sketch of DocId ids[k]; together the ids are a
 * permutation of 0..n−1) and the errors by DocId; returns the set with row d the sketch of DocId
 * d, as one sketchMany call over the documents in DocId order would give it (its values and
 * offsets on SharedArrayBuffers when `shared`, as assembleSketchSet).
 */
export function scatterSketchSet(params: SketchParams, n: number, parts: readonly { ids: Uint32Array; columns: SketchColumns }[], errors: SketchError[], shared = false): SketchSet {
  const cardinality = new Float64Array(n);
  const tokens = new Uint32Array(n);
  const modulusLog2 = new Uint8Array(n);
  const rawFp = new BigUint64Array(n), lexicalFp = new BigUint64Array(n), shingleFp = new BigUint64Array(n);
  const templateTokens = params.content === 'main' ? new Uint32Array(n) : undefined;
  const k = params.k;
  const signature = k > 0 ? new BigUint64Array(n * k) : undefined;
  // a CSR column: row lengths by DocId, then each row copied to its place
  const csr = (column: (c: SketchColumns) => { values: BigUint64Array; offsets: Uint32Array }, share = false) => {
    const offsets = share ? new Uint32Array(new SharedArrayBuffer((n + 1) * 4)) : new Uint32Array(n + 1);
    for (const { ids, columns } of parts) {
      const o = column(columns).offsets;
      for (let r = 0; r < ids.length; r++) offsets[ids[r] + 1] = o[r + 1] - o[r];
    }
    for (let d = 0; d < n; d++) offsets[d + 1] += offsets[d];
    const values = share ? new BigUint64Array(new SharedArrayBuffer(offsets[n] * 8)) : new BigUint64Array(offsets[n]);
    for (const { ids, columns } of parts) {
      const { values: v, offsets: o } = column(columns);
      for (let r = 0; r < ids.length; r++) values.set(v.subarray(o[r], o[r + 1]), offsets[ids[r]]);
    }
    return { values, offsets };
  };
  const { values, offsets } = csr((c) => c, shared);
  const superShingles = params.superShingle > 0 ? csr((c) => c.superShingles!) : undefined;
  for (const { ids, columns: c } of parts) {
    for (let r = 0; r < ids.length; r++) {
      const d = ids[r];
      cardinality[d] = c.cardinality[r];
      tokens[d] = c.tokens[r];
      modulusLog2[d] = c.modulusLog2[r];
      rawFp[d] = c.rawFp[r]; lexicalFp[d] = c.lexicalFp[r]; shingleFp[d] = c.shingleFp[r];
      if (templateTokens) templateTokens[d] = c.templateTokens![r];
      if (signature) signature.set(c.signature!.subarray(r * k, r * k + k), d * k);
    }
  }
  return new SketchSet(params, { values, offsets, cardinality, tokens, modulusLog2, rawFp, lexicalFp, shingleFp, signature, superShingles, templateTokens }, [...errors].sort((a, b) => a.index - b.index));
}
