import { enumOption, intOption, numberOption, optionError, rejectUnknown, ResembleError } from '../errors.js';
import { assembleFromMatrices, assembleFromRows, type AssemblyContext, type SimilarCluster } from './assemble.js';
import { breakPoints, type BreakPoints } from './break-points.js';
import { splitColumns } from './columns.js';
import { growClusters } from './grow.js';
import { joinByPath } from './by-path.js';
import { clusterProblems, type InvariantGraph } from './invariants.js';
import { linkSummary } from './link-summary.js';
import { HOLE } from './matrix.js';
import { mergeEdges } from './merge.js';
import { interSiteInLinks, reverseLinks, type PageGraph } from './page-graph.js';
import { SortedUrls } from './prefix.js';
import { growRows } from './rows.js';
import type { SimilarPages } from './similarity.js';
import type { TrivialClusters } from './trivial.js';
import { NO_VIRTUAL_PAGES, virtualPages, withVirtualPages } from './virtual-pages.js';

export type { SimilarCluster } from './assemble.js';

/** Options of `collectionsOfGraph`; every one has a default. */
export interface CollectionOptions {
  /**
   * How clusters grow. 'mixed' (default): over links held by at least two copies, so full, partial
   * and older copies of a manual form one cluster and the smaller copies join at the pages they
   * share. 'paper': Algorithm 3.1 as published, the exact merge condition |Ri| = s = d = |Rj|
   * (clusters break wherever the copies' trivial clusters differ in size).
   */
  growth?: 'mixed' | 'paper';
  /** Clusters whose collections have fewer pages are noise (Section 5.1: "less than 10 pages"). Default 10. */
  minSize?: number;
  /**
   * Two collections are copies when they share at least this fraction of the smaller one, counted
   * over every crawled page under its prefix (mixed growth). Default 0.5.
   */
  minShare?: number;
  /** Join the fragments of a partial copy through the pages it links to but the crawl lacks (mixed growth). Default true. */
  virtualPages?: boolean;
  /** A score per page for choosing entry pages. Default: in-links from pages of other hosts (Section 3.1). */
  rootScore?: ArrayLike<number>;
}

/** What `collectionsOfGraph` returns. */
export interface ReplicatedCollections {
  /** Similar clusters of cardinality ≥ 2, by cardinality, then size (both descending), then first entry page. */
  readonly clusters: SimilarCluster[];
  /** The trivial clusters the columns are made of (after chained ones were split). */
  readonly trivial: TrivialClusters;
  /** DocId → index in `clusters`, or -1. */
  readonly clusterOf: Int32Array;
  /** DocId → its collection (row) in that cluster, or -1: a page is in at most one collection. */
  readonly rowOf: Int32Array;
  readonly breakPoints: BreakPoints;
  /** Counts of the intermediate steps. */
  readonly stats: {
    trivialClusters: number; splitClusters: number; replicatedEdges: number; linksJoined: number; linksRefused: number;
    virtualPages: number; mergeEdges: number; dropped: number;
    /** Pages joined by path (see `SimilarCluster.byPath`). */
    joinedByPath: number;
  };
}

const KNOWN = ['growth', 'minSize', 'minShare', 'virtualPages', 'rootScore'] as const;

/** Checks `CollectionOptions`; returns them with defaults filled in. */
export function collectionOptions(options: CollectionOptions = {}, pageCount?: number): Required<Omit<CollectionOptions, 'rootScore'>> & { rootScore?: ArrayLike<number> } {
  const o = options as CollectionOptions & { extended?: unknown; singleSite?: unknown };
  if (o.extended !== undefined) throw new ResembleError('E_OPTION', 'the option extended is gone: partial copies always join their cluster at the pages they share (growth: mixed); growth: paper is the exact condition', { option: 'extended' });
  if (o.singleSite !== undefined) throw new ResembleError('E_OPTION', 'the option singleSite is gone: a collection is always on one host', { option: 'singleSite' });
  rejectUnknown(options, KNOWN, 'collectionsOfGraph');
  if (options.virtualPages !== undefined && typeof options.virtualPages !== 'boolean') throw optionError('virtualPages', 'boolean', options.virtualPages);
  const minSize = intOption('minSize', options.minSize, 10, 1, 2 ** 31);
  if (options.rootScore !== undefined && pageCount !== undefined && options.rootScore.length !== pageCount) {
    throw optionError('rootScore', `one score per page (${pageCount})`, `${options.rootScore.length} scores`);
  }
  return {
    growth: enumOption('growth', options.growth, 'mixed', ['mixed', 'paper'] as const),
    minSize, minShare: numberOption('minShare', options.minShare, 0.5, 0, 1),
    virtualPages: options.virtualPages ?? true, rootScore: options.rootScore,
  };
}

function isSimilarPages(x: SimilarPages | TrivialClusters): x is SimilarPages {
  return (x as SimilarPages).trivial !== undefined;
}

/** Pages a cluster holds in columns joined by path. */
function pagesByPath(c: SimilarCluster): number {
  let pages = 0;
  for (let col = 0; c.byPath && col < c.size; col++) {
    if (!c.byPath[col]) continue;
    for (let x = 0; x < c.cardinality; x++) if (c.pages[x * c.size + col] !== HOLE) pages++;
  }
  return pages;
}

/** Passes of row growth and column splitting: each pass splits the columns the previous one found chained. */
const SPLIT_PASSES = 4;

/**
 * Takes the page graph and the page similarity (the `SimilarPages` of `similarPages`, or bare
 * trivial clusters, which are then never split); returns the similar clusters. Mixed growth: rows
 * (collections) grow over links held by two copies or more, chained trivial clusters are split so
 * that no collection holds two pages of one column, copies are gathered into clusters by the share
 * of pages they have in common, and every cluster is made to meet the invariants (see
 * `assembleFromRows`). Paper growth: the LinkSummary, the exact merge condition, union-find and
 * growth from a start point (Algorithm 3.1), with the same checks on the output.
 */
export function collectionsOfGraph(graph: PageGraph, similarity: SimilarPages | TrivialClusters, options: CollectionOptions = {}): ReplicatedCollections {
  const o = collectionOptions(options, graph.size);
  const n = graph.size;
  const similar = isSimilarPages(similarity) ? similarity : undefined;
  let trivial = similar ? similar.trivial : (similarity as TrivialClusters);
  if (trivial.rid.length !== n) throw optionError('trivial', `clusters over ${n} pages`, `${trivial.rid.length} pages`);
  const named = graph as InvariantGraph;
  const urls = Array.isArray(named.urls) && named.urls.length === n ? named.urls : undefined;
  const rootScore = o.rootScore ?? interSiteInLinks(graph);
  const inLinks = reverseLinks(graph);
  const stats = { trivialClusters: trivial.count, splitClusters: 0, replicatedEdges: 0, linksJoined: 0, linksRefused: 0, virtualPages: 0, mergeEdges: 0, dropped: 0, joinedByPath: 0 };
  const base = { graph, urls, sorted: urls ? new SortedUrls(urls) : undefined, inLinks, rootScore, minSize: o.minSize, minShare: o.minShare, kinds: similar?.kinds };

  let clusters: SimilarCluster[];
  if (o.growth === 'paper') {
    const summary = linkSummary(graph, trivial, { singleSite: true, minSourceSize: 2 });
    const edges = mergeEdges(summary);
    stats.mergeEdges = edges.length;
    const score = new Float64Array(trivial.count);
    for (let p = 0; p < n; p++) score[trivial.rid[p]] += rootScore[p];
    const ctx: AssemblyContext = { ...base, rid: trivial.rid, ridSize: trivial.size, linked: graph };
    clusters = assembleFromMatrices(ctx, growClusters(trivial, edges, score, n));
  } else {
    const virtual = o.virtualPages ? virtualPages(graph, trivial) : NO_VIRTUAL_PAGES;
    stats.virtualPages = virtual.count;
    const urlOf = urls ? (node: number) => (node < n ? urls[node] : virtual.urls[node - n]) : undefined;
    let linked = withVirtualPages(graph, virtual, trivial);
    let rows = growRows(linked.graph, linked.trivial, urlOf);
    for (let pass = 0; similar && pass < SPLIT_PASSES; pass++) {
      const split = splitColumns(similar, trivial, rows.affinity.subarray(0, n));
      if (split.split === 0) break;
      stats.splitClusters += split.split;
      trivial = split.trivial;
      linked = withVirtualPages(graph, virtual, trivial);
      rows = growRows(linked.graph, linked.trivial, urlOf);
    }
    Object.assign(stats, { replicatedEdges: rows.replicatedEdges, linksJoined: rows.joined, linksRefused: rows.refused });
    clusters = assembleFromRows({ ...base, rid: trivial.rid, ridSize: trivial.size, linked: linked.graph, rowRoot: rows.root });
  }

  // The invariants, checked on the output: a cluster that breaks one is dropped, never reported.
  const owner = new Int32Array(n).fill(-1);
  const listed = new Uint8Array(n);
  for (const c of clusters) for (const p of c.pages) if (p !== HOLE) listed[p] = 1;
  clusters = clusters.filter((c, i) => {
    const problems = clusterProblems(c, named, inLinks, trivial.rid, listed);
    for (const p of c.pages) if (p !== HOLE && owner[p] >= 0) problems.push(`page ${p} is in two clusters`);
    if (problems.length) { stats.dropped++; return false; }
    for (const p of c.pages) if (p !== HOLE) owner[p] = i;
    return true;
  });
  // Mixed growth: pages that growth over links cannot reach join by path; a cluster that then
  // breaks an invariant keeps its columns as they were.
  if (o.growth === 'mixed' && urls) {
    const joined = joinByPath(clusters, trivial, urls);
    for (const c of joined) for (const p of c.pages) if (p !== HOLE) listed[p] = 1;
    clusters = joined.map((c, i) => (c === clusters[i] || clusterProblems(c, named, inLinks, trivial.rid, listed).length > 0 ? clusters[i] : c));
    for (const c of clusters) stats.joinedByPath += pagesByPath(c);
  }
  clusters.sort((x, y) => y.cardinality - x.cardinality || y.size - x.size || x.roots[0] - y.roots[0]);
  const clusterOf = new Int32Array(n).fill(-1), rowOf = new Int32Array(n).fill(-1);
  clusters.forEach((c, index) => {
    for (let x = 0; x < c.cardinality; x++) {
      for (let col = 0; col < c.size; col++) {
        const q = c.pages[x * c.size + col];
        if (q !== HOLE) { clusterOf[q] = index; rowOf[q] = x; }
      }
    }
  });
  return {
    clusters, trivial, clusterOf, rowOf,
    breakPoints: breakPoints(graph, inLinks, clusters, clusterOf, rowOf),
    stats,
  };
}
