/**
 * hconn1 and hconn2 (Bharat et al. §3.4): each host is one pseudo-document whose terms are the
 * hosts it links to. The host graph is pruned to the 10·log p heaviest out-edges per host; a
 * term's document frequency is then the target's in-degree in(t), and its weight depends on
 * in(t) only (term frequency selects, it does not weigh).
 */
import { intOption, rejectUnknown } from '../errors.js';
import type { HostSet } from './host-set.js';
import type { LinkTable } from './links.js';
import { DEFAULT_SEED } from './seed.js';
import { Ranking } from './ranking.js';
import { selectionSize } from './terms.js';
import { buildTermVectors, cosinePairs } from './vectors.js';
import { hconn1Weight, hconn2Weight } from './weights.js';
import { topSharedTerms } from './url-rank.js';

/** Options of `rankHconn`. */
export interface HconnOptions {
  /** Seed of the candidate sampling for popular targets (default `DEFAULT_SEED`). */
  seed?: number;
}

/**
 * How many of a target's in-linking hosts propose candidate pairs: all up to in(t) = 25, then 25
 * up to 125, then min(200, in(t)/5), the counts §3.4 gives for approximating its weights by
 * sampling. Here the weights are exact and the sampling only bounds the candidate pairs: a pair
 * found through any target is scored over its full vectors.
 */
export function hconnCandidateCap(indegree: number): number {
  if (indegree <= 25) return indegree;
  if (indegree <= 125) return 25;
  return Math.min(200, Math.floor(indegree / 5));
}

/** hconn1 / hconn2: takes hosts and their host graph; returns pairs ranked by cosine over linked-to hosts. */
export function rankHconn(variant: 1 | 2, hosts: HostSet, links: LinkTable, options: HconnOptions = {}): Ranking {
  const algorithm = variant === 1 ? 'hconn1' : 'hconn2';
  rejectUnknown(options, ['seed'], algorithm);
  const seed = intOption('seed', options.seed, DEFAULT_SEED, 0, 2 ** 32 - 1);
  // The out-edges each host keeps: its 10·log p heaviest (ties by target name).
  const kept: Array<Array<readonly [string, number]>> = links.hostEdges.map((edges, h) =>
    [...edges]
      .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))
      .slice(0, selectionSize(hosts.urlCount[h])),
  );
  let maxin = 1;
  const indegree = new Map<string, number>();
  for (const edges of kept) for (const [t] of edges) indegree.set(t, (indegree.get(t) ?? 0) + 1);
  for (const d of indegree.values()) if (d > maxin) maxin = d;
  const weight = variant === 1 ? (df: number) => hconn1Weight(df) : (df: number) => hconn2Weight(df, maxin);
  const v = buildTermVectors(hosts.size, (h) => kept[h].map(([t]) => t), weight, undefined, algorithm);
  const p = cosinePairs(v, { candidateCap: hconnCandidateCap, seed, label: algorithm });
  return Ranking.sorted(algorithm, hosts, p.a, p.b, p.cosine, (i) => ({
    cosine: p.cosine[i],
    sharedTargets: p.shared[i],
    topTargets: topSharedTerms(v, p.a[i], p.b[i], 5),
  }));
}
