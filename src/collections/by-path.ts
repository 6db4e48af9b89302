// Pages that growth over links cannot reach. A partial or sampled copy can hold a page that no
// crawled page of it links to or from: a redirect stub whose target was not crawled, a page whose
// parents the copy lacks. Its copies still lie at one path below each copy's prefix, so a trivial
// cluster in no similar cluster whose pages sit at one path below the prefixes of two collections
// or more of one cluster joins that cluster as a column of its own ("by path").
import type { SimilarCluster } from './assemble.js';
import { HOLE } from './matrix.js';
import type { TrivialClusters } from './trivial.js';

/** One collection a page may lie under: its cluster, its row and its prefix. */
interface Under { cluster: number; row: number; prefix: string }

/**
 * Takes the similar clusters (checked), their trivial clusters and the pages' URLs; returns the
 * clusters with the pages joined by path (`byPath` marks their columns; a cluster that joined none
 * is returned as it was).
 * Noise clusters take none. A trivial cluster joins when none of its pages is in a cluster, and at
 * least two of them lie under collections of one cluster (each page under the longest collection
 * prefix of its URL; a prefix two collections share places no page), in different collections, at
 * the same path below each prefix; its pages under no collection stay out.
 */
export function joinByPath(clusters: readonly SimilarCluster[], trivial: TrivialClusters, urls: readonly string[]): SimilarCluster[] {
  const n = urls.length;
  const inCluster = new Uint8Array(n);
  // collection prefix (a URL directory, host included) → its collection; null when two share it
  const byPrefix = new Map<string, Under | null>();
  clusters.forEach((c, cluster) => {
    for (let x = 0; x < c.cardinality; x++) {
      for (let col = 0; col < c.size; col++) {
        const p = c.pages[x * c.size + col];
        if (p !== HOLE) inCluster[p] = 1;
      }
      const prefix = c.prefixes[x];
      if (c.noise || prefix === '') continue;
      byPrefix.set(prefix, byPrefix.has(prefix) ? null : { cluster, row: x, prefix });
    }
  });
  // the longest collection prefix of a page's URL: its directories, deepest first
  const under = (p: number): Under | undefined => {
    const url = urls[p];
    for (let i = url.lastIndexOf('/'); i > 0; i = url.lastIndexOf('/', i - 1)) {
      const u = byPrefix.get(url.slice(0, i + 1));
      if (u !== undefined) return u ?? undefined;
    }
    return undefined;
  };

  // cluster → columns to add: per column, the page of each row (HOLE where none)
  const added = new Map<number, Array<{ rid: number; rel: string; rows: Map<number, number> }>>();
  for (let r = 0; r < trivial.count; r++) {
    const a = trivial.offsets[r], b = trivial.offsets[r + 1];
    if (b - a < 2) continue;
    let skip = false;
    for (let i = a; i < b && !skip; i++) skip = inCluster[trivial.pages[i]] === 1;
    if (skip) continue;
    let cluster = -1, rel: string | undefined;
    const rows = new Map<number, number>();
    for (let i = a; i < b && !skip; i++) {
      const p = trivial.pages[i];
      const u = under(p);
      if (!u) continue;
      const path = urls[p].slice(u.prefix.length);
      if (cluster < 0) { cluster = u.cluster; rel = path; }
      // one cluster, one path below every prefix, one page per collection
      if (u.cluster !== cluster || path !== rel || rows.has(u.row)) skip = true;
      else rows.set(u.row, p);
    }
    if (skip || rows.size < 2) continue;
    (added.get(cluster) ?? added.set(cluster, []).get(cluster)!).push({ rid: r, rel: rel!, rows });
  }

  return clusters.map((c, index) => {
    const cols = added.get(index);
    if (!cols) return c;
    cols.sort((x, y) => (x.rel < y.rel ? -1 : x.rel > y.rel ? 1 : x.rid - y.rid));
    const size = c.size + cols.length;
    const pages = new Uint32Array(c.cardinality * size).fill(HOLE);
    const held = Uint32Array.from(c.held), reach = Uint32Array.from(c.reach);
    let complete = c.complete;
    for (let x = 0; x < c.cardinality; x++) {
      pages.set(c.pages.subarray(x * c.size, (x + 1) * c.size), x * size);
      cols.forEach((col, k) => {
        const p = col.rows.get(x);
        if (p === undefined) { complete = false; return; }
        pages[x * size + c.size + k] = p;
        held[x]++; reach[x]++;
      });
    }
    const byPath = new Uint8Array(size);
    if (c.byPath) byPath.set(c.byPath);
    byPath.fill(1, c.size);
    const trivialOf = new Uint32Array(size);
    trivialOf.set(c.trivial);
    cols.forEach((col, k) => { trivialOf[c.size + k] = col.rid; });
    const parent = new Int32Array(size).fill(-1);
    parent.set(c.parent);
    const joined: SimilarCluster = { ...c, size, pages, held, reach, complete, trivial: trivialOf, parent, byPath };
    return joined;
  });
}
