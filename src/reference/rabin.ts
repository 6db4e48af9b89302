/**
 * The slow, obvious Rabin fingerprint: the message as one big polynomial, reduced by long
 * division in BigInt arithmetic. The test oracle for assembly/rabin.ts and the shingle kernels.
 */
import { mod } from './gf2.js';

export const POLYNOMIAL_FULL = (1n << 64n) | 0xd4a41f7ee59d7dffn;

/** (x^(8n) + bytes(x)) mod P, bytes taken most significant first. */
export function rabinRef(bytes: Uint8Array): bigint {
  let m = 1n;
  for (const b of bytes) m = (m << 8n) | BigInt(b);
  return mod(m, POLYNOMIAL_FULL);
}

/** The 8 bytes of a 64-bit value, most significant first. */
export function be64(v: bigint): Uint8Array {
  const out = new Uint8Array(8);
  for (let i = 0; i < 8; i++) out[i] = Number((v >> BigInt(56 - 8 * i)) & 0xffn);
  return out;
}

/** Rabin over the concatenated big-endian words. */
export function rabinWordsRef(words: bigint[]): bigint {
  const bytes = new Uint8Array(words.length * 8);
  words.forEach((w, i) => bytes.set(be64(w), i * 8));
  return rabinRef(bytes);
}

/** murmur3's fmix64 of (v XOR seed), the permutation π, in BigInt. */
export function mixRef(v: bigint, seed: bigint): bigint {
  const M = (1n << 64n) - 1n;
  let k = (v ^ seed) & M;
  k ^= k >> 33n;
  k = (k * 0xff51afd7ed558ccdn) & M;
  k ^= k >> 33n;
  k = (k * 0xc4ceb9fe1a85ec53n) & M;
  k ^= k >> 33n;
  return k;
}

/** Content-defined chunk ends, window by window with one-shot fingerprints (quadratic, for small inputs). */
export function chunkEndsRef(bytes: Uint8Array, window: number, mask: bigint, minSize: number, maxSize: number): number[] {
  const ends: number[] = [];
  let size = 0;
  for (let i = 0; i < bytes.length; i++) {
    size++;
    const full = i + 1 >= window;
    const fp = full ? rabinRef(bytes.subarray(i + 1 - window, i + 1)) : 0n;
    if ((size >= minSize && full && (fp & mask) === 0n) || size >= maxSize) { ends.push(i + 1); size = 0; }
  }
  if (size > 0) ends.push(bytes.length);
  return ends;
}
