/**
 * The slow, obvious twin of the collision search: an all-pairs scan, the oracle the tests hold
 * the fast code against (signatures/collisions.ts), beside the kernels' twins projection.ts and hyperlinkmap.ts.
 */

/** Every pair a < b with ‖X_a − X_b‖∞ < C and ‖R_a − R_b‖∞ < D, by comparing all pairs; sorted. */
export function collisionsReference(r: Float64Array, x: Float64Array, k: number, C: number, D: number): Array<[number, number]> {
  const n = r.length / k;
  const pairs: Array<[number, number]> = [];
  const far = (v: Float64Array, a: number, b: number, tol: number) => {
    for (let j = 0; j < k; j++) if (!(Math.abs(v[a * k + j] - v[b * k + j]) < tol)) return true;
    return false;
  };
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      if (!far(x, a, b, C) && !far(r, a, b, D)) pairs.push([a, b]);
    }
  }
  return pairs;
}
