// Hyperlink Map signature (Di Iorio et al. 2003, §2.2, equation 1):
//   x^p_j(t+1) = r^p_j + γ · Σ_{q ∈ ch(p)} x^q_j(t) · r^q_j,   x^p_j(0) = r^p_j,
// iterated over the out-link CSR (children of p = targets[offsets[p] .. offsets[p+1])), then every
// component multiplied by 1 / x_M, x_M the largest component over all pages. Twin:
// src/signatures/reference.ts (hmPropagateReference).

/**
 * Propagates RP signatures r (f64, n × k, row-major) through the links for `iterations` steps.
 * out and scratch each hold n × k f64s (outCap counts f64s); the result lands in out, scaled to
 * max 1 (left as is when every component is 0). Returns n, -1 when outCap < n * k, -3 when k is 0,
 * the offsets decrease or exceed nEdges, or a target is not a page.
 */
export function hm_propagate(rPtr: usize, n: u32, k: u32, offsetsPtr: usize, targetsPtr: usize,
  nEdges: u32, gamma: f64, iterations: u32, outPtr: usize, scratchPtr: usize, outCap: u32): i32 {
  if (k == 0) return -3;
  if (<u64>n * <u64>k > <u64>outCap) return -1;
  if (load<u32>(offsetsPtr + (<usize>n << 2)) > nEdges) return -3;
  for (let p: u32 = 0; p < n; p++) {
    const start = load<u32>(offsetsPtr + (<usize>p << 2));
    const end = load<u32>(offsetsPtr + (<usize>(p + 1) << 2));
    if (end < start) return -3;
    for (let e = start; e < end; e++) {
      if (load<u32>(targetsPtr + (<usize>e << 2)) >= n) return -3;
    }
  }
  const size = <usize>n * <usize>k;
  // Ping-pong between the two buffers, starting in the one that makes step `iterations` end in out.
  let cur = (iterations & 1) == 0 ? outPtr : scratchPtr;
  let next = cur == outPtr ? scratchPtr : outPtr;
  memory.copy(cur, rPtr, size << 3);
  for (let t: u32 = 0; t < iterations; t++) {
    for (let p: u32 = 0; p < n; p++) {
      const start = load<u32>(offsetsPtr + (<usize>p << 2));
      const end = load<u32>(offsetsPtr + (<usize>(p + 1) << 2));
      const row = <usize>p * <usize>k;
      for (let j: u32 = 0; j < k; j++) {
        let sum: f64 = 0;
        for (let e = start; e < end; e++) {
          const q = <usize>load<u32>(targetsPtr + (<usize>e << 2)) * <usize>k + <usize>j;
          sum += load<f64>(cur + (q << 3)) * load<f64>(rPtr + (q << 3));
        }
        const at = (row + <usize>j) << 3;
        store<f64>(next + at, load<f64>(rPtr + at) + gamma * sum);
      }
    }
    const swap = cur;
    cur = next;
    next = swap;
  }
  let xM: f64 = 0;
  for (let i: usize = 0; i < size; i++) xM = max(xM, load<f64>(outPtr + (i << 3)));
  // Division rather than a product with 1 / x_M: the largest component then comes out exactly 1.
  if (xM > 0) {
    for (let i: usize = 0; i < size; i++) store<f64>(outPtr + (i << 3), load<f64>(outPtr + (i << 3)) / xM);
  }
  return <i32>n;
}
