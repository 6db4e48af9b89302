// Random projection of bags of words (Di Iorio et al. 2003, §2.1): R̂^p_j = Σ_w weight(p, w) · π(w, j).
// The K × N matrix Π is never stored: π(w, j) is derived from a seeded hash of (word fingerprint, j),
// uniform in [-1, 1), so any vocabulary works and the same word always gets the same column.
// Twin: src/reference/projection.ts.

// splitmix64's finalizer: a bijection on u64 with full avalanche.
@inline
function rpMix(x: u64): u64 {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9;
  x ^= x >> 27;
  x *= 0x94d049bb133111eb;
  x ^= x >> 31;
  return x;
}

/** The per-(seed, row) key that π(·, j) hashes words with. */
@inline
function rpRowKey(seed: u32, j: u32): u64 {
  return rpMix(((<u64>seed << 32) | <u64>j) + 0x9e3779b97f4a7c15);
}

/** π(word, j) for one word fingerprint: uniform in [-1, 1) (53 random bits). */
export function rp_entry(word: u64, j: u32, seed: u32): f64 {
  return <f64>(rpMix(word ^ rpRowKey(seed, j)) >> 11) * 2.220446049250313e-16 - 1.0;
}

/**
 * Projects nDocs bags (CSR: terms u64 and weights f64 at [offsets[d], offsets[d+1])) to k
 * dimensions; writes out[d * k + j] (f64). Returns nDocs, -1 when outCap (in f64s) < nDocs * k,
 * -3 when k is 0 or the offsets decrease.
 */
export function rp_project(termsPtr: usize, weightsPtr: usize, offsetsPtr: usize, nDocs: u32,
  k: u32, seed: u32, outPtr: usize, outCap: u32): i32 {
  if (k == 0) return -3;
  if (<u64>nDocs * <u64>k > <u64>outCap) return -1;
  for (let d: u32 = 0; d < nDocs; d++) {
    const start = load<u32>(offsetsPtr + (<usize>d << 2));
    const end = load<u32>(offsetsPtr + (<usize>(d + 1) << 2));
    if (end < start) return -3;
    // Rows outer, terms inner: one row key per (doc, j), and every sum in term order (the twin's order).
    for (let j: u32 = 0; j < k; j++) {
      const key = rpRowKey(seed, j);
      let sum: f64 = 0;
      for (let t = start; t < end; t++) {
        const word = load<u64>(termsPtr + (<usize>t << 3));
        const w = load<f64>(weightsPtr + (<usize>t << 3));
        sum += w * (<f64>(rpMix(word ^ key) >> 11) * 2.220446049250313e-16 - 1.0);
      }
      store<f64>(outPtr + ((<usize>d * <usize>k + <usize>j) << 3), sum);
    }
  }
  return <i32>nDocs;
}
