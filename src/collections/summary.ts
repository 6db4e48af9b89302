import { numberOption, rejectUnknown } from '../errors.js';
import type { SimilarCluster } from './assemble.js';
import type { ReplicatedCollections } from './find.js';
import { HOLE } from './matrix.js';
import type { NamedPageGraph } from './page-graph.js';

/** One side of a replica record: a collection and where it lives. */
export interface ReplicaSide {
  host: string;
  /** The URL directory holding all its pages. */
  prefix: string;
  /** Its entry page. */
  root: string;
  /** Pages of the collection, and crawled pages under its prefix. */
  held: number;
  extent: number;
}

/** How two copies of a collection relate. */
export type Relation = 'exact' | 'partial' | 'near' | 'lagging';

/** One record of the replica summary: a pair of collections of one cluster with pages in common. */
export interface ReplicaRecord {
  /** Index of the similar cluster. */
  cluster: number;
  a: ReplicaSide;
  b: ReplicaSide;
  /** Pages of each that have a copy in the other (columns both hold). */
  common: number;
  /** common / extent of each side: the share of what was crawled under the prefix that the other side holds. */
  coverageA: number;
  coverageB: number;
  /** Common pages whose text is identical. */
  identical: number;
  /** Mean resemblance of the common pages to their copies (exact Jaccard of their chunk sets, or the sketch estimate). */
  resemblance: number;
  relation: Relation;
}

/** Options of `replicaSummary`. */
export interface SummaryOptions {
  /** Mean resemblance at or above which copies whose pages differ are `near` rather than `lagging`. Default 0.9. */
  near?: number;
  /** Include noise clusters. Default false. */
  includeNoise?: boolean;
}

const round = (x: number) => Math.round(x * 10000) / 10000;

/**
 * The relation of two copies: `exact` when every common page has identical text and neither holds a
 * page the other lacks (in the cluster, or in the copy under its prefix that its pages link to); `partial` when the common pages are identical but one holds
 * pages the other lacks; `near` when pages differ but little (mean resemblance ≥ `near`: a
 * re-encoded or re-templated copy); `lagging` otherwise (pages changed: another release).
 */
export function relationOf(common: number, identical: number, sameSet: boolean, resemblance: number, near = 0.9): Relation {
  if (identical === common) return sameSet ? 'exact' : 'partial';
  return resemblance >= near ? 'near' : 'lagging';
}

/** What two collections of a cluster have in common. */
export interface PairMeasure {
  common: number;
  identical: number;
  resemblance: number;
  relation: Relation;
}

/** Takes a cluster, two of its rows and the page resemblance; returns what the two have in common (common 0: nothing). */
export function measurePair(c: SimilarCluster, x: number, y: number, resemblance: (a: number, b: number) => number, near = 0.9): PairMeasure {
  let common = 0, identical = 0, sum = 0;
  for (let col = 0; col < c.size; col++) {
    const p = c.pages[x * c.size + col], q = c.pages[y * c.size + col];
    if (p === HOLE || q === HOLE) continue;
    common++;
    const r = resemblance(p, q);
    sum += r;
    if (r === 1) identical++;
  }
  const mean = common === 0 ? 0 : sum / common;
  // The same pages: each holds only the common ones, and neither is part of a larger copy under its prefix.
  const sameSet = common === c.held[x] && common === c.held[y] && c.reach[x] === c.reach[y];
  return { common, identical, resemblance: mean, relation: relationOf(common, identical, sameSet, mean, near) };
}

/**
 * Takes the clusters, the named graph and the page resemblance (`SimilarPages.resemblance`: 1 for
 * identical text); returns one record per pair of collections of a cluster with
 * pages in common: what a crawler operator needs to decide which copy to crawl. Cost: one
 * resemblance per common page per pair of collections (k(k−1)/2 pairs for a cluster of k copies).
 */
export function replicaSummary(
  found: ReplicatedCollections, graph: NamedPageGraph,
  pages: { resemblance: (a: number, b: number) => number },
  options: SummaryOptions = {},
): ReplicaRecord[] {
  rejectUnknown(options, ['near', 'includeNoise'], 'replicaSummary');
  const near = numberOption('near', options.near, 0.9, 0, 1);
  const out: ReplicaRecord[] = [];
  found.clusters.forEach((c, index) => {
    if (c.noise && !options.includeNoise) return;
    const side = (x: number): ReplicaSide => ({
      host: graph.hosts[graph.hostOf[c.roots[x]]], prefix: c.prefixes[x], root: graph.urls[c.roots[x]], held: c.held[x], extent: c.extents[x],
    });
    for (let x = 0; x < c.cardinality; x++) {
      for (let y = x + 1; y < c.cardinality; y++) {
        const m = measurePair(c, x, y, pages.resemblance, near);
        if (m.common === 0) continue;
        out.push({
          cluster: index, a: side(x), b: side(y), common: m.common,
          coverageA: round(m.common / c.extents[x]), coverageB: round(m.common / c.extents[y]),
          identical: m.identical, resemblance: round(m.resemblance), relation: m.relation,
        });
      }
    }
  });
  return out;
}
