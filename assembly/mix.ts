// The permutation π: murmur3's 64-bit finaliser of (fingerprint XOR seed). Each step (xor-shift,
// multiplication by an odd constant) is invertible, so π is a bijection on 64-bit values and
// fingerprints "behave as a random permutation" (Broder §2) with no collisions added.

@inline export function mix(f: u64, seed: u64): u64 {
  let k = f ^ seed;
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccd;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53;
  k ^= k >> 33;
  return k;
}

/** π over n values in place (sketchItems: items are hashed in TypeScript-packed batches); returns n. */
export function mx_mix(ptr: usize, n: i32, seed: u64): i32 {
  for (let i = 0; i < n; i++) {
    const p = ptr + (<usize>i << 3);
    store<u64>(p, mix(load<u64>(p), seed));
  }
  return n;
}
