import type { SimilarCluster } from './find.js';
import type { NamedPageGraph } from './page-graph.js';

/** One collection of a cluster as the CLI writes it. */
export interface CollectionRecord {
  host: string;
  /** Entry page: the start point's page in this copy. */
  root: string;
  /** Pages in column order: page i of every collection in a cluster are similar (the map M of Definition 5). */
  pages: string[];
  /** In-links from other hosts into this copy. */
  externalInLinks: number;
}

/** One similar cluster as the CLI writes it (one JSON line). */
export interface ClusterRecord {
  cardinality: number;
  size: number;
  /** True when the partial-mirror condition joined part of it (some pages are shared by copies). */
  extended: boolean;
  noise: boolean;
  /** Definition 5 verified on this output. */
  similar: boolean;
  collections: CollectionRecord[];
}

/** Takes a cluster and the named graph; returns its record with URLs. */
export function clusterRecord(c: SimilarCluster, graph: NamedPageGraph): ClusterRecord {
  const collections: CollectionRecord[] = [];
  for (let x = 0; x < c.cardinality; x++) {
    const row = c.pages.subarray(x * c.size, (x + 1) * c.size);
    collections.push({
      host: graph.hosts[graph.hostOf[row[0]]],
      root: graph.urls[row[0]],
      pages: Array.from(row, (p) => graph.urls[p]),
      externalInLinks: c.externalInLinks[x],
    });
  }
  return { cardinality: c.cardinality, size: c.size, extended: c.extended, noise: c.noise, similar: c.similar, collections };
}
