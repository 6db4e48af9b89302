import { intOption, optionError, rejectUnknown } from '../errors.js';
import { breakPoints, type BreakPoints } from './break-points.js';
import { checkDefinition5 } from './definition5.js';
import { growClusters, type GrownCluster } from './grow.js';
import { linkSummary } from './link-summary.js';
import { mergeEdges } from './merge.js';
import { interSiteInLinks, reverseLinks, type NamedPageGraph, type PageGraph } from './page-graph.js';
import type { TrivialClusters } from './trivial.js';
import { withVirtualLinks, type ExternalLinks } from './virtual-links.js';

/** Options of `findCollections`; every one has a default. */
export interface CollectionOptions {
  /** Merge with the partial-mirror condition |Ri| = s ≥ d = |Rj| (extended clusters, Section 4). Default false: |Ri| = s = d = |Rj|. */
  extended?: boolean;
  /** Restrict collections to a single site: only links between pages of one host are used (Section 5.1). Default false. */
  singleSite?: boolean;
  /** Clusters whose collections have fewer pages are noise (Section 5.1: "less than 10 pages"). Default 10. */
  minSize?: number;
  /** A score per page for choosing start points and roots. Default: in-links from pages of other hosts (Section 3.1). */
  rootScore?: ArrayLike<number>;
}

/** A similar cluster with its checks: see `GrownCluster` for the page matrix. */
export interface SimilarCluster extends GrownCluster {
  /** Collection size below `minSize`: PowerPoint slide shows, break-point fragments (Section 5.1). */
  readonly noise: boolean;
  /** Definition 5 verified on the output between every two collections. */
  readonly similar: boolean;
  /** Per collection (row): links into its pages from pages of other hosts; the copy to keep has most. */
  readonly externalInLinks: Uint32Array;
}

/** What `findCollections` returns. */
export interface ReplicatedCollections {
  /** Similar clusters of cardinality ≥ 2, by cardinality, then size (both descending), then first root DocId. */
  readonly clusters: SimilarCluster[];
  readonly trivial: TrivialClusters;
  /** DocId → index in `clusters`, or -1. */
  readonly clusterOf: Int32Array;
  /** DocId → its collection (row) in that cluster: the first row holding it (a shared page is in several). */
  readonly rowOf: Int32Array;
  readonly breakPoints: BreakPoints;
  /** Counts of the intermediate tables. */
  readonly stats: { linkSummaryRows: number; mergeEdges: number; unmatchedRows: number; offSiteRows: number; trivialClusters: number; virtualLinks: number };
}

const KNOWN = ['extended', 'singleSite', 'minSize', 'rootScore'] as const;

function hasExternal(graph: PageGraph): graph is PageGraph & NamedPageGraph & ExternalLinks {
  const g = graph as Partial<NamedPageGraph & ExternalLinks>;
  return g.externalOffsets instanceof Uint32Array && Array.isArray(g.externalUrls) && Array.isArray(g.urls);
}

/** Checks `CollectionOptions`; returns them with defaults filled in. */
export function collectionOptions(options: CollectionOptions = {}, pageCount?: number): Required<Omit<CollectionOptions, 'rootScore'>> & { rootScore?: ArrayLike<number> } {
  rejectUnknown(options, KNOWN, 'findCollections');
  for (const flag of ['extended', 'singleSite'] as const) {
    if (options[flag] !== undefined && typeof options[flag] !== 'boolean') throw optionError(flag, 'boolean', options[flag]);
  }
  const minSize = intOption('minSize', options.minSize, 10, 1, 2 ** 31);
  if (options.rootScore !== undefined && pageCount !== undefined && options.rootScore.length !== pageCount) {
    throw optionError('rootScore', `one score per page (${pageCount})`, `${options.rootScore.length} scores`);
  }
  return { extended: options.extended ?? false, singleSite: options.singleSite ?? false, minSize, rootScore: options.rootScore };
}

/**
 * Takes the page graph and its trivial clusters; returns the similar clusters (Algorithm 3.1): the
 * LinkSummary, the TCG edges meeting the merge condition, union-find and growth, then noise marks,
 * Definition 5 checks and break points.
 */
export function findCollections(graph: PageGraph, trivial: TrivialClusters, options: CollectionOptions = {}): ReplicatedCollections {
  const o = collectionOptions(options, graph.size);
  if (trivial.rid.length !== graph.size) throw optionError('trivial', `clusters over ${graph.size} pages`, `${trivial.rid.length} pages`);
  // A partial mirror whose missing pages were never crawled links outside the crawl; with the URLs
  // at hand those links are followed from the other copies (virtual links, extended condition only).
  let virtualLinks = 0, linked: PageGraph = graph;
  if (o.extended && hasExternal(graph)) ({ graph: linked, added: virtualLinks } = withVirtualLinks(graph, trivial));
  // Under the exact condition |Ri| = |Rj|, so rows from single pages only grow clusters of cardinality 1;
  // the extended condition needs them (the unmirrored pages d..g of Figure 10 are trivial clusters of one page).
  const summary = linkSummary(linked, trivial, { singleSite: o.singleSite, minSourceSize: o.extended ? 1 : 2 });
  const edges = mergeEdges(summary, o.extended, graph.hostOf);
  const pageScore = o.rootScore ?? interSiteInLinks(graph);
  const score = new Float64Array(trivial.count);
  for (let p = 0; p < graph.size; p++) score[trivial.rid[p]] += pageScore[p];
  const grown = growClusters(trivial, edges, score, graph.size);
  grown.sort((x, y) => y.cardinality - x.cardinality || y.size - x.size || x.pages[0] - y.pages[0]);

  // Definition 5 is checked on the links the clusters were grown from (virtual ones included); the
  // in-links from other sites that pick the copy to keep are real links only.
  const inLinks = reverseLinks(linked);
  const realIn = linked === graph ? inLinks : reverseLinks(graph);
  const clusterOf = new Int32Array(graph.size).fill(-1), rowOf = new Int32Array(graph.size).fill(-1);
  const clusters: SimilarCluster[] = grown.map((g, index) => {
    const external = new Uint32Array(g.cardinality);
    for (let x = 0; x < g.cardinality; x++) {
      for (let c = 0; c < g.size; c++) {
        const q = g.pages[x * g.size + c];
        if (clusterOf[q] < 0) { clusterOf[q] = index; rowOf[q] = x; }
        for (let e = realIn.offsets[q]; e < realIn.offsets[q + 1]; e++) if (graph.hostOf[realIn.sources[e]] !== graph.hostOf[q]) external[x]++;
      }
    }
    return { ...g, noise: g.size < o.minSize, similar: checkDefinition5(g, inLinks, 1).length === 0, externalInLinks: external };
  });
  return {
    clusters, trivial, clusterOf, rowOf,
    breakPoints: breakPoints(linked, inLinks, clusters, clusterOf, rowOf),
    stats: { linkSummaryRows: summary.length, mergeEdges: edges.length, unmatchedRows: edges.unmatched, offSiteRows: edges.offSite, trivialClusters: trivial.count, virtualLinks },
  };
}
