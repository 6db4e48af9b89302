import type { SimilarCluster } from './assemble.js';
import { HOLE } from './matrix.js';
import type { NamedPageGraph } from './page-graph.js';

/** One collection of a cluster as the CLI writes it. */
export interface CollectionRecord {
  host: string;
  /** Where it lives: the longest URL directory holding all its pages. */
  prefix: string;
  /** Entry page: its page in the first column it holds. */
  root: string;
  /** Pages it holds, and crawled pages under its prefix (its own and any others). */
  held: number;
  extent: number;
  /** Pages in column order, null where this copy holds none: page i of every collection are similar (the map M of Definition 5). */
  pages: Array<string | null>;
  /** In-links from other hosts into this copy. */
  externalInLinks: number;
}

/** One similar cluster as the CLI writes it (one JSON line). */
export interface ClusterRecord {
  cardinality: number;
  size: number;
  /** True when every collection holds every column; false when partial or older copies joined at the pages they share. */
  complete: boolean;
  noise: boolean;
  /** Definition 5 verified on this output. */
  similar: boolean;
  /** Per column, true when it joined by path (pages nothing crawled links, at one path below every prefix); absent when none did. */
  byPath?: boolean[];
  collections: CollectionRecord[];
}

/** Takes a cluster and the named graph; returns its record with URLs. */
export function clusterRecord(c: SimilarCluster, graph: NamedPageGraph): ClusterRecord {
  const collections: CollectionRecord[] = [];
  for (let x = 0; x < c.cardinality; x++) {
    const row = c.pages.subarray(x * c.size, (x + 1) * c.size);
    collections.push({
      host: graph.hosts[graph.hostOf[c.roots[x]]],
      prefix: c.prefixes[x],
      root: graph.urls[c.roots[x]],
      held: c.held[x],
      extent: c.extents[x],
      pages: Array.from(row, (p) => (p === HOLE ? null : graph.urls[p])),
      externalInLinks: c.externalInLinks[x],
    });
  }
  const byPath = c.byPath ? { byPath: Array.from(c.byPath, (b) => b === 1) } : {};
  return { cardinality: c.cardinality, size: c.size, complete: c.complete, noise: c.noise, similar: c.similar, ...byPath, collections };
}
