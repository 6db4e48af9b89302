/**
 * The slow, obvious twin of assembly/projection.ts (rp_*): the random projection of bags of words
 * (Di Iorio et al. 2003, §2.1) with BigInt hashing and plain loops.
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
