/** Options of the RP / HM signatures and of their collisions, validated before any work. */
import { enumOption, intOption, numberOption, optionError, rejectUnknown } from '../errors.js';

/** Options of `computeSignatures`. */
export interface SignatureOptions {
  /**
   * K, dimensions of both signatures. Default 32: on the realistic crawls pair precision rises with
   * K (0.966 at K = 5, 0.990 at 24 and 32, recall ≥ 0.97) and flattens past 24; Di Iorio et al.
   * used 5 on page-level measures. Cost: linear in K (projection and collision checks).
   */
  k?: number;
  /** Seed of the projection entries π(word, j). Default 0. */
  seed?: number;
  /**
   * Weights of the bag of words: 'tf' (occurrence counts, as in the paper) or 'unit' (counts
   * scaled to Euclidean length 1). Default 'unit': collisions use absolute tolerances, so document
   * length must not dominate, and the exact check is a cosine, which ignores length.
   */
  weighting?: 'tf' | 'unit';
  /** γ, the damping of equation (1), 0..1 (as the CLI's --gamma). Default 0.5. */
  gamma?: number;
  /** Iterations of equation (1): descendants this many links away contribute. Default 4 (the paper used 3–5). */
  iterations?: number;
}

/** Validated signature options. */
export interface SignatureParams {
  k: number;
  seed: number;
  weighting: 'tf' | 'unit';
  gamma: number;
  iterations: number;
}

export const SIGNATURE_OPTION_KEYS = ['k', 'seed', 'weighting', 'gamma', 'iterations'] as const;

/** Default K, and tolerances C (HM) and D (RP), chosen from the curves measured on the realistic crawl (docs/signatures.md). */
export const SIGNATURE_DEFAULTS = { k: 32, C: 2, D: 0.03 } as const;

/**
 * Defaults of `resemble signatures` (`findSignatureCollisions`), which verifies what the signatures
 * find: pages whose RP signatures (bags of every word of the page) are within the candidate
 * tolerance D collide when the exact resemblance of their word-8-shingle sets (whole pages) is at
 * least `verifyAt`. Chosen on the tuning crawls (docs/signatures.md): the candidates held every pair
 * of resemblance ≥ 0.9 from D = 0.08 on all four, and D = 0.1 leaves a margin; `verifyAt` lies
 * between the levels pair precision (0.8) and recall (0.9) count.
 */
export const VERIFIED_DEFAULTS = { D: 0.1, verifyAt: 0.85, content: 'page' } as const;

/** Takes signature options; returns them validated with defaults, or throws E_OPTION. */
export function signatureParams(o: SignatureOptions = {}): SignatureParams {
  rejectUnknown(o, SIGNATURE_OPTION_KEYS, 'signatures');
  return {
    k: intOption('k', o.k, SIGNATURE_DEFAULTS.k, 1, 256),
    seed: intOption('seed', o.seed, 0, 0, 0xffffffff),
    weighting: enumOption('weighting', o.weighting, 'unit', ['tf', 'unit'] as const),
    gamma: numberOption('gamma', o.gamma, 0.5, 0, 1),
    iterations: intOption('iterations', o.iterations, 4, 0, 1000),
  };
}

/** Options of `findCollisions`. */
export interface CollisionOptions {
  /**
   * Tolerance on the HM signatures: ‖X1 − X2‖∞ < C. Default 2, beyond any HM distance (HM signatures
   * lie in [0, 1]): RP alone. On both realistic crawls no C raised pair precision, and a tight C
   * costs recall, since a partial copy loses children and so moves its HM signature (C = 0.02 loses
   * a quarter of it). Give C ≤ 1 (the paper: 0.1) to require the link context too.
   */
  C?: number;
  /**
   * Tolerance on the RP signatures: ‖R1 − R2‖∞ < D, relative to each dimension's spread over the
   * crawl. Default 0.03, the best worst case over two realistic crawls: pair precision 0.990 / 0.970,
   * recall 0.970 / 0.978 (D = 0.035: 0.983 / 0.955 and 0.986 / 0.997).
   */
  D?: number;
  /** Stop with an error past this many colliding pairs (tolerances too loose for the collection). Default 50,000,000. */
  maxPairs?: number;
}

/** Validated collision options. */
export interface CollisionParams {
  C: number;
  D: number;
  maxPairs: number;
}

/** Takes collision options; returns them validated with defaults, or throws E_OPTION. */
export function collisionParams(o: CollisionOptions = {}): CollisionParams {
  rejectUnknown(o, ['C', 'D', 'maxPairs'], 'collisions');
  const C = numberOption('C', o.C, SIGNATURE_DEFAULTS.C, 0, Infinity);
  const D = numberOption('D', o.D, SIGNATURE_DEFAULTS.D, 0, Infinity);
  if (C === 0) throw optionError('C', 'number > 0', C);
  if (D === 0) throw optionError('D', 'number > 0', D);
  return { C, D, maxPairs: intOption('maxPairs', o.maxPairs, 50_000_000, 1, 2 ** 31) };
}
