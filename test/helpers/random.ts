/** A small seeded PRNG (splitmix32-style) so generated test inputs are the same on every run. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 2 ** 32;
  };
}

/** Random bytes. */
export function randomBytes(r: () => number, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(r() * 256);
  return out;
}

/** Random words from a vocabulary of `vocab` words. */
export function randomWords(r: () => number, n: number, vocab = 500): string[] {
  return Array.from({ length: n }, () => `w${Math.floor(r() * vocab).toString(36)}`);
}
