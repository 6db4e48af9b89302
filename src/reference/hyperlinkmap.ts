/**
 * The slow, obvious twin of assembly/hyperlinkmap.ts (hm_*): the Hyperlink Map propagation
 * (Di Iorio et al. 2003, §2.2, equation 1) over children lists, in plain loops.
 */

/** Equation (1) with children lists, iterated, then divided by the largest component; row-major n × k. */
export function hmPropagateReference(r: Float64Array, k: number, children: number[][], gamma: number, iterations: number): Float64Array {
  const n = children.length;
  let x = Float64Array.from(r);
  for (let t = 0; t < iterations; t++) {
    const next = new Float64Array(n * k);
    for (let p = 0; p < n; p++) {
      for (let j = 0; j < k; j++) {
        let sum = 0;
        for (const q of children[p]) sum += x[q * k + j] * r[q * k + j];
        next[p * k + j] = r[p * k + j] + gamma * sum;
      }
    }
    x = next;
  }
  let xM = 0;
  for (const v of x) xM = Math.max(xM, v);
  if (xM > 0) for (let i = 0; i < x.length; i++) x[i] /= xM;
  return x;
}
