/**
 * Thin typed wrappers over the signature kernels (assembly/projection.ts, assembly/hyperlinkmap.ts):
 * copy columns into the WebAssembly arena, call once per batch, copy the results out.
 */
import { getKernels, withArena } from '../wasm/instance.js';
import { checked } from '../wasm/kernels.js';

/** Terms per projection call: bounds the arena at about 16 bytes × this (64 MiB). */
const TERMS_PER_CALL = 1 << 22;

/** Takes a word fingerprint, a row j and a seed; returns the projection entry π(word, j) in [-1, 1). */
export function projectionEntry(word: bigint, j: number, seed: number): number {
  return getKernels().rp_entry(BigInt.asUintN(64, word), j >>> 0, seed >>> 0);
}

/**
 * Takes weighted bags (CSR: terms, weights, offsets over n documents), k and a seed; returns the
 * projections, n × k row-major. Documents are batched so one call holds at most `termsPerCall` terms
 * (or one document).
 */
export function projectBags(terms: BigUint64Array, weights: Float64Array, offsets: Uint32Array, k: number, seed: number, termsPerCall = TERMS_PER_CALL): Float64Array {
  const n = offsets.length - 1;
  const out = new Float64Array(n * k);
  for (let first = 0; first < n;) {
    let last = first + 1;
    while (last < n && offsets[last + 1] - offsets[first] <= termsPerCall) last++;
    const t0 = offsets[first], t1 = offsets[last];
    withArena((mem, kernels) => {
      const tp = mem.putU64(terms.subarray(t0, t1));
      const wp = mem.putF64(weights.subarray(t0, t1));
      const op = mem.alloc((last - first + 1) * 4);
      const u32 = mem.u32;
      for (let d = first; d <= last; d++) u32[(op >>> 2) + d - first] = offsets[d] - t0;
      const cap = (last - first) * k;
      const outPtr = mem.alloc(cap * 8);
      checked('rp_project', kernels.rp_project(tp, wp, op, last - first, k, seed >>> 0, outPtr, cap));
      out.set(mem.f64.subarray(outPtr >>> 3, (outPtr >>> 3) + cap), first * k);
    });
    first = last;
  }
  return out;
}

/**
 * Takes RP signatures (n × k), out-link CSR over the same n pages, γ and the iterations; returns the
 * Hyperlink Map signatures (n × k), scaled so the largest component is 1.
 */
export function propagateHyperlinkMap(r: Float64Array, k: number, offsets: Uint32Array, targets: Uint32Array, gamma: number, iterations: number): Float64Array {
  const n = offsets.length - 1;
  const size = n * k;
  return withArena((mem, kernels) => {
    const rp = mem.putF64(r);
    const op = mem.putU32(offsets);
    const tp = mem.putU32(targets);
    const outPtr = mem.alloc(size * 8);
    const scratch = mem.alloc(size * 8);
    checked('hm_propagate', kernels.hm_propagate(rp, n, k, op, tp, targets.length, gamma, iterations, outPtr, scratch, size));
    return mem.takeF64(outPtr, size);
  });
}
