import { numberOption, rejectUnknown } from '../errors.js';
import { normalizeUrl } from '../graph/url.js';
import type { ReplicatedCollections } from './find.js';
import type { NamedPageGraph } from './page-graph.js';

/** Another copy of a result's collection: the paper's Replica link. */
export interface RollUpReplica {
  host: string;
  /** Entry page of that copy. */
  root: string;
  /** Results (in rank order) that fell in that copy, rolled up under the entry. */
  results: string[];
}

/** One line of a rolled-up result list (Section 5.2, Figure 14). */
export interface RollUpEntry {
  /** The result shown: the best-ranked one of its collection and replicas. */
  url: string;
  /** Its 0-based rank in the input list. */
  rank: number;
  /** Index of its similar cluster, or -1 for a page in none (or not crawled). */
  cluster: number;
  /** The Collection link: other results in the same collection, in rank order. */
  collection: string[];
  /** The Replica link: every other copy of the collection, with the results found in it. */
  replicas: RollUpReplica[];
}

/** A result URL that could not be used: reported with its position and skipped. */
export interface RollUpError {
  rank: number;
  url: string;
  message: string;
}

/** Options of `rollUp`. */
export interface RollUpOptions {
  /** Roll up noise clusters too. Default true: even a small replicated cluster is clutter in a result list. */
  includeNoise?: boolean;
  /**
   * A result not in the crawl is rolled up with the collection whose prefix holds it, when that
   * collection holds at least this share of the crawled pages under its prefix. Default 0.9; 1
   * takes only prefixes every crawled page of which is in the collection.
   */
  minCoverage?: number;
}

/**
 * Takes a ranked list of result URLs, the clusters and the named graph; returns the list with pages
 * of one collection folded into its first result (Collection link) and pages of the other copies
 * of that collection folded in too, grouped by copy (Replica link). A URL not in the crawl belongs
 * to the collection whose prefix holds it (see `minCoverage`). URLs that do not parse are reported
 * and skipped; other URLs in no cluster stay as they are.
 */
export function rollUp(
  results: readonly string[], found: ReplicatedCollections, graph: NamedPageGraph & { docId?(url: string): number | undefined },
  options: RollUpOptions = {},
): { entries: RollUpEntry[]; errors: RollUpError[] } {
  rejectUnknown(options, ['includeNoise', 'minCoverage'], 'rollUp');
  const includeNoise = options.includeNoise ?? true;
  const minCoverage = numberOption('minCoverage', options.minCoverage, 0.9, 0, 1);
  // Prefix → (cluster, row) of the collections that hold most of what was crawled under their prefix.
  const byPrefix = new Map<string, { cluster: number; row: number }>();
  found.clusters.forEach((c, k) => {
    if (c.noise && !includeNoise) return;
    for (let x = 0; x < c.cardinality; x++) {
      if (c.prefixes[x] !== '' && c.held[x] >= minCoverage * c.extents[x] && !byPrefix.has(c.prefixes[x])) byPrefix.set(c.prefixes[x], { cluster: k, row: x });
    }
  });
  /** The collection whose prefix is the longest one holding the URL. */
  const underPrefix = (url: string) => {
    const start = url.indexOf('/', url.indexOf('://') + 3), stop = url.search(/[?#]/);
    for (let i = (stop < 0 ? url.length : stop) - 1; i >= start && start >= 0; i--) {
      if (url.charCodeAt(i) !== 47) continue;
      const hit = byPrefix.get(url.slice(0, i + 1));
      if (hit) return hit;
    }
    return undefined;
  };
  let index: Map<string, number> | undefined;
  const lookup = (url: string): number | undefined => {
    if (graph.docId) return graph.docId(url);
    if (!index) { index = new Map(); for (let i = graph.urls.length - 1; i >= 0; i--) index.set(graph.urls[i], i); }
    return index.get(url);
  };
  const entries: RollUpEntry[] = [];
  const errors: RollUpError[] = [];
  const entryOf = new Map<number, RollUpEntry>();
  const rowOfEntry = new Map<RollUpEntry, number>();
  for (let rank = 0; rank < results.length; rank++) {
    const raw = results[rank].trim();
    if (!raw) continue;
    const url = normalizeUrl(raw);
    if (url === undefined) { errors.push({ rank, url: raw, message: `unparseable result URL ${JSON.stringify(raw)}` }); continue; }
    const page = lookup(url);
    let k = page === undefined ? -1 : found.clusterOf[page];
    let row = page === undefined ? -1 : found.rowOf[page];
    if (page === undefined) { const hit = underPrefix(url); if (hit) ({ cluster: k, row } = hit); }
    const cluster = k >= 0 && (includeNoise || !found.clusters[k].noise) ? k : -1;
    if (cluster < 0) { entries.push({ url, rank, cluster: -1, collection: [], replicas: [] }); continue; }
    const c = found.clusters[cluster];
    const first = entryOf.get(cluster);
    if (!first) {
      const replicas: RollUpReplica[] = [];
      for (let x = 0; x < c.cardinality; x++) {
        if (x === row) continue;
        const root = c.roots[x];
        replicas.push({ host: graph.hosts[graph.hostOf[root]], root: graph.urls[root], results: [] });
      }
      const entry: RollUpEntry = { url, rank, cluster, collection: [], replicas };
      entries.push(entry);
      entryOf.set(cluster, entry);
      rowOfEntry.set(entry, row);
      continue;
    }
    const firstRow = rowOfEntry.get(first)!;
    if (row === firstRow) first.collection.push(url);
    else first.replicas[row < firstRow ? row : row - 1].results.push(url);
  }
  return { entries, errors };
}
