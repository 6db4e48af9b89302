/**
 * Term weights and score scaling of Bharat et al. §3.2 and §3.4. Logarithms are base 10 (see
 * `selectionSize` in terms.ts for why).
 */

/** hosts (§3.2.1): log(len(t)) / (1 + log(df(t))); takes the term's segment count and document frequency. */
export function hostsWeight(len: number, df: number): number {
  return Math.log10(len) / (1 + Math.log10(df));
}

/** paths, prefix, shingles (§3.2.2): 1 + log(maxdf / df(t)); takes df and the largest df of any kept term. */
export function pathsWeight(df: number, maxdf: number): number {
  return 1 + Math.log10(maxdf / df);
}

/** prefix, shingles (§3.2.3): the similarity factor 1 / (0.1 + 0.15 (log n1 + log n2)); takes both hosts' URL counts. */
export function sizeScale(n1: number, n2: number): number {
  return 1 / (0.1 + 0.15 * (Math.log10(n1) + Math.log10(n2)));
}

/** hconn1 (§3.4): 1 for in(t) ≤ 25, 25/in(t) up to 125, then min(1/5, 200/in(t)); takes the target host's in-degree. */
export function hconn1Weight(indegree: number): number {
  if (indegree <= 25) return 1;
  if (indegree <= 125) return 25 / indegree;
  return Math.min(1 / 5, 200 / indegree);
}

/** hconn2 (§3.4): the hconn1 weight times 1 + log(maxin / in(t)); takes the in-degree and the largest in-degree. */
export function hconn2Weight(indegree: number, maxin: number): number {
  return hconn1Weight(indegree) * (1 + Math.log10(maxin / indegree));
}
