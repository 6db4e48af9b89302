/**
 * The link graph as plain columns: all the cluster growing algorithm reads. `WebGraph` has this
 * shape already (so it is passed as is); tests and generators build it from arrays.
 */
export interface PageGraph {
  /** Number of pages; DocIds are 0..size-1. */
  readonly size: number;
  /** DocId → HostId. */
  readonly hostOf: Uint32Array;
  /** Out-links among crawled pages, CSR over DocIds: page i links to `linkTargets[linkOffsets[i] .. linkOffsets[i + 1])`. */
  readonly linkOffsets: Uint32Array;
  readonly linkTargets: Uint32Array;
}

/** A page graph with the names the reports print. */
export interface NamedPageGraph extends PageGraph {
  /** DocId → URL. */
  readonly urls: readonly string[];
  /** HostId → host name. */
  readonly hosts: readonly string[];
}

/** Takes a page count, a host per page and links [from, to]; returns the page graph (rows sorted, duplicates and self-links dropped). */
export function pageGraph(size: number, hostOf: ArrayLike<number>, links: ReadonlyArray<readonly [number, number]>): PageGraph {
  const offsets = new Uint32Array(size + 1);
  for (const [from, to] of links) if (from !== to) offsets[from + 1]++;
  for (let i = 0; i < size; i++) offsets[i + 1] += offsets[i];
  const fill = offsets.slice(0, size);
  const raw = new Uint32Array(offsets[size]);
  for (const [from, to] of links) if (from !== to) raw[fill[from]++] = to;
  const linkOffsets = new Uint32Array(size + 1);
  const kept: number[] = [];
  for (let i = 0; i < size; i++) {
    const row = raw.subarray(offsets[i], offsets[i + 1]).sort();
    for (let j = 0; j < row.length; j++) if (j === 0 || row[j] !== row[j - 1]) kept.push(row[j]);
    linkOffsets[i + 1] = kept.length;
  }
  return { size, hostOf: Uint32Array.from(hostOf), linkOffsets, linkTargets: Uint32Array.from(kept) };
}

/** Takes a page graph; returns per page the number of in-links from pages on other hosts (the paper's measure of a natural entry point, Section 3.1). */
export function interSiteInLinks(graph: PageGraph): Uint32Array {
  const score = new Uint32Array(graph.size);
  const { hostOf, linkOffsets, linkTargets } = graph;
  for (let p = 0; p < graph.size; p++) {
    for (let e = linkOffsets[p]; e < linkOffsets[p + 1]; e++) {
      const q = linkTargets[e];
      if (hostOf[q] !== hostOf[p]) score[q]++;
    }
  }
  return score;
}

/** Takes a page graph; returns the in-links as reverse CSR (row q lists the pages linking to q, ascending). */
export function reverseLinks(graph: PageGraph): { offsets: Uint32Array; sources: Uint32Array } {
  const n = graph.size, { linkOffsets, linkTargets } = graph;
  const offsets = new Uint32Array(n + 1);
  for (let e = 0; e < linkTargets.length; e++) offsets[linkTargets[e] + 1]++;
  for (let i = 0; i < n; i++) offsets[i + 1] += offsets[i];
  const fill = offsets.slice(0, n);
  const sources = new Uint32Array(linkTargets.length);
  for (let p = 0; p < n; p++) for (let e = linkOffsets[p]; e < linkOffsets[p + 1]; e++) sources[fill[linkTargets[e]]++] = p;
  return { offsets, sources };
}
