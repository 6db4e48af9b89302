/**
 * Slow, obvious twins of the signature kernels (assembly/projection.ts, assembly/hyperlinkmap.ts)
 * and of the collision search: plain loops with BigInt hashing and an all-pairs scan, the oracle
 * the tests hold the fast code against.
 */

const M64 = (1n << 64n) - 1n;

function mix64(x: bigint): bigint {
  x &= M64;
  x ^= x >> 30n;
  x = (x * 0xbf58476d1ce4e5b9n) & M64;
  x ^= x >> 27n;
  x = (x * 0x94d049bb133111ebn) & M64;
  x ^= x >> 31n;
  return x;
}

/** π(word, j) for a 64-bit word fingerprint, row j and a 32-bit seed: uniform in [-1, 1). */
export function rpEntryReference(word: bigint, j: number, seed: number): number {
  const key = mix64(((BigInt(seed >>> 0) << 32n) | BigInt(j >>> 0)) + 0x9e3779b97f4a7c15n);
  return Number(mix64(word ^ key) >> 11n) * 2 ** -52 - 1;
}

/** Projects bags (one array of [word, weight] per document) to k dimensions; row-major n × k. */
export function rpProjectReference(bags: Array<Array<[bigint, number]>>, k: number, seed: number): Float64Array {
  const out = new Float64Array(bags.length * k);
  bags.forEach((bag, d) => {
    for (let j = 0; j < k; j++) {
      let sum = 0;
      for (const [word, weight] of bag) sum += weight * rpEntryReference(word, j, seed);
      out[d * k + j] = sum;
    }
  });
  return out;
}

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
