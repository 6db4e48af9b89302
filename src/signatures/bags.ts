/**
 * Bags of words as columns: per document its distinct word fingerprints (ascending) with their
 * counts, in CSR. The input of the random projection and of the exact cosine that checks
 * precision (Di Iorio et al. §3).
 */
import { HI, LO } from '../cluster/index.js';

/** Bags of words of many documents (CSR). */
export interface BagsOfWords {
  size: number;
  /** Document d's words are `terms[offsets[d] .. offsets[d + 1])`, ascending and distinct. */
  offsets: Uint32Array;
  terms: BigUint64Array;
  /** Occurrences of each term in its document. */
  counts: Uint32Array;
  /** Euclidean norm of each document's count vector. */
  norms: Float64Array;
  /** `terms` as u32 halves (platform byte order; HI / LO of sketch/columns say which is which): comparisons without BigInt. */
  words: Uint32Array;
}

/** Takes one token-fingerprint stream per document (`tokenFingerprints`); returns their bags of words. */
export function bagsFromTokens(tokens: ArrayLike<BigUint64Array>): BagsOfWords {
  const n = tokens.length;
  const offsets = new Uint32Array(n + 1);
  // Sorted copies, compared through u32 views: reading a BigUint64Array element allocates a BigInt.
  const sorted: Uint32Array[] = new Array(n);
  for (let d = 0; d < n; d++) {
    const s = tokens[d].slice().sort();
    const w = new Uint32Array(s.buffer, s.byteOffset, s.length * 2);
    let distinct = 0;
    for (let i = 0; i < s.length; i++) if (i === 0 || w[2 * i] !== w[2 * i - 2] || w[2 * i + 1] !== w[2 * i - 1]) distinct++;
    sorted[d] = w;
    offsets[d + 1] = offsets[d] + distinct;
  }
  const terms = new BigUint64Array(offsets[n]);
  const words = new Uint32Array(terms.buffer, terms.byteOffset, terms.length * 2);
  const counts = new Uint32Array(offsets[n]);
  const norms = new Float64Array(n);
  for (let d = 0; d < n; d++) {
    const w = sorted[d];
    let t = offsets[d] - 1;
    for (let i = 0; 2 * i < w.length; i++) {
      if (i === 0 || w[2 * i] !== w[2 * i - 2] || w[2 * i + 1] !== w[2 * i - 1]) {
        t++;
        words[2 * t] = w[2 * i];
        words[2 * t + 1] = w[2 * i + 1];
      }
      counts[t]++;
    }
    let sq = 0;
    for (let u = offsets[d]; u < offsets[d + 1]; u++) sq += counts[u] * counts[u];
    norms[d] = Math.sqrt(sq);
  }
  return { size: n, offsets, terms, counts, norms, words };
}

/** Takes bags and two documents; returns the cosine of their count vectors (0 when either is empty). */
export function bagCosine(bags: BagsOfWords, a: number, b: number): number {
  const { offsets, words, counts, norms } = bags;
  if (norms[a] === 0 || norms[b] === 0) return 0;
  let i = offsets[a], j = offsets[b];
  const ie = offsets[a + 1], je = offsets[b + 1];
  let dot = 0;
  while (i < ie && j < je) {
    // High word first: the terms' numeric (sort) order, whatever the platform's byte order.
    const hi = words[2 * i + HI], hj = words[2 * j + HI];
    const c = hi !== hj ? hi - hj : words[2 * i + LO] - words[2 * j + LO];
    if (c === 0) dot += counts[i++] * counts[j++];
    else if (c < 0) i++;
    else j++;
  }
  return dot / (norms[a] * norms[b]);
}
