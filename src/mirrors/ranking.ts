/**
 * A ranked list of host pairs, the output of every mirror algorithm: columns of host ids (a < b)
 * and scores in rank order, with the evidence behind each pair computed on demand (only the
 * pairs that are printed ever need it).
 */
import type { HostSet } from './host-set.js';

/** The algorithms of Bharat et al. (ip4 … combined) and the content-aware hybrid. */
export const ALGORITHMS = ['ip4', 'ip3', 'hosts', 'paths', 'prefix', 'shingles', 'conn', 'hconn1', 'hconn2', 'combined', 'hybrid'] as const;
/** The name of one ranking algorithm: one of `ALGORITHMS`. */
export type AlgorithmName = (typeof ALGORITHMS)[number];

/** Evidence of one ranked pair: plain JSON values. */
export type Evidence = Record<string, unknown>;

/** Ranked host pairs: position i is rank i + 1. */
export class Ranking {
  constructor(
    readonly algorithm: AlgorithmName,
    readonly hosts: HostSet,
    readonly a: Uint32Array,
    readonly b: Uint32Array,
    readonly score: Float64Array,
    private readonly explain: (i: number) => Evidence = () => ({}),
    private readonly foundBy: (i: number) => string[] = () => [algorithm],
  ) {}

  /** Number of ranked pairs. */
  get length(): number {
    return this.a.length;
  }

  /** Takes a position; returns the evidence for that pair. */
  evidence(i: number): Evidence {
    return this.explain(i);
  }

  /** Takes a position; returns the algorithms that proposed the pair. */
  algorithms(i: number): string[] {
    return this.foundBy(i);
  }

  /** Takes a position; returns the pair's key (see `pairKey`). */
  key(i: number): number {
    return pairKey(this.a[i], this.b[i], this.hosts.size);
  }

  /**
   * Takes unordered pair columns and their per-pair evidence; returns them ranked by score
   * descending, ties by host ids (a, then b), so the order never depends on input order.
   */
  static sorted(
    algorithm: AlgorithmName,
    hosts: HostSet,
    a: Uint32Array,
    b: Uint32Array,
    score: Float64Array,
    explain: (i: number) => Evidence = () => ({}),
    foundBy?: (i: number) => string[],
  ): Ranking {
    const order = Uint32Array.from({ length: a.length }, (_, i) => i).sort((x, y) => score[y] - score[x] || a[x] - a[y] || b[x] - b[y]);
    return new Ranking(
      algorithm,
      hosts,
      Uint32Array.from(order, (i) => a[i]),
      Uint32Array.from(order, (i) => b[i]),
      Float64Array.from(order, (i) => score[i]),
      (i) => explain(order[i]),
      foundBy ? (i) => foundBy(order[i]) : undefined,
    );
  }
}

/** Takes two host ids and the host count; returns one number naming the unordered pair. */
export function pairKey(x: number, y: number, hostCount: number): number {
  return x < y ? x * hostCount + y : y * hostCount + x;
}
