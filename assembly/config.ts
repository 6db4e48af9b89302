// The sketch parameters, in one place. sk_configure (sketch.ts) validates a full set and only
// then writes it here; every kernel reads these and none writes them, so what a call computes
// depends on the last accepted configuration and nothing else. The tables derived from a
// parameter (the shingle window's removal table for w) are rebuilt by their owners, keyed by
// the value they were built for, never behind a separate flag.

export const MAX_W: u32 = 64;
export const MAX_S: u32 = 4096;
export const MAX_K: u32 = 4096;

export const KIND_MIN: u32 = 0;
export const KIND_MOD: u32 = 1;
export const KIND_ADAPTIVE: u32 = 2;

/** Shingle width in units, 1..MAX_W. */
export let cfgW: u32 = 8;
/** Units are code points of the canonical text (char shingles) instead of tokens. */
export let cfgChar = false;
/** Markup is dropped and character references decoded (html), or every byte is text. */
export let cfgMarkup = true;
/** Selection: KIND_MIN (s smallest), KIND_MOD (≡ 0 mod m) or KIND_ADAPTIVE. */
export let cfgKind: u32 = KIND_MIN;
export let cfgS: u32 = 128;
export let cfgM: u64 = 25;
/** Length of the one-permutation-hashing signature, 0 for none. */
export let cfgK: u32 = 0;
/** Seed of the permutation π. */
export let cfgSeed: u64 = 0;

/** Checks a full parameter set and stores it; false (nothing changed) when any value is out of range. */
export function setConfig(w: u32, unit: u32, markup: u32, kind: u32, s: u32, m: u64, k: u32, seed: u64): bool {
  if (w < 1 || w > MAX_W || unit > 1 || markup > 1 || kind > KIND_ADAPTIVE || s < 1 || s > MAX_S || m < 1 || k > MAX_K) return false;
  cfgW = w; cfgChar = unit == 1; cfgMarkup = markup == 1; cfgKind = kind; cfgS = s; cfgM = m; cfgK = k; cfgSeed = seed;
  return true;
}
