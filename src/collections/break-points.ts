import { HOLE, type PageMatrix } from './matrix.js';
import type { PageGraph } from './page-graph.js';

/** Break-point pages (Figure 3(c)): page i sits between a page of cluster `from[i]` and a page of cluster `to[i]`. */
export interface BreakPoints {
  readonly pages: Uint32Array;
  readonly from: Uint32Array;
  readonly to: Uint32Array;
}

/**
 * Takes the page graph, the clusters and the cluster of each page (-1 for none); returns the break
 * points: pages like [i].q and [ii].t of Figure 3(c) whose content differs between copies and so
 * splits (or holes) a replicated collection. Page x is one when, on one host, a page u of cluster A
 * links to x and x links to a page v of cluster B, A and B have the same cardinality, x is in no
 * cluster of that cardinality or more, and another copy has a page y ≠ x at the same place: linked from A's page in u's column
 * and linking to B's page in v's column, y in neither A nor B. When A = B (a hole in one collection),
 * u and v must be in the same collection. The first (A, B) found, in link order, is reported.
 */
export function breakPoints(
  graph: PageGraph, inLinks: { offsets: Uint32Array; sources: Uint32Array },
  clusters: readonly PageMatrix[], clusterOf: Int32Array, rowOf: Int32Array,
): BreakPoints {
  const { hostOf, linkOffsets, linkTargets } = graph;
  const columnOf = new Int32Array(graph.size).fill(-1);
  for (const c of clusters) for (let i = 0; i < c.pages.length; i++) if (c.pages[i] !== HOLE) columnOf[c.pages[i]] = i % c.size;
  const outside = (y: number, A: number, B: number) => clusterOf[y] !== A && clusterOf[y] !== B;
  const linksTo = (y: number, v: number) => {
    for (let e = linkOffsets[y]; e < linkOffsets[y + 1]; e++) if (linkTargets[e] === v) return true;
    return false;
  };
  /** Another copy's page between A's column cu and B's column cv, other than x. */
  const counterpart = (x: number, A: number, cu: number, B: number, cv: number, rowU: number) => {
    const a = clusters[A], b = clusters[B];
    for (let r = 0; r < a.cardinality; r++) {
      const u2 = a.pages[r * a.size + cu];
      if (u2 === HOLE || (A === B ? r === rowU : u2 === a.pages[rowU * a.size + cu])) continue;
      for (let e = linkOffsets[u2]; e < linkOffsets[u2 + 1]; e++) {
        const y = linkTargets[e];
        if (y === x || hostOf[y] !== hostOf[u2] || !outside(y, A, B)) continue;
        // Rows of two clusters are not aligned, so any copy of v's column on y's host will do.
        for (let s = A === B ? r : 0; s < (A === B ? r + 1 : b.cardinality); s++) {
          const v2 = b.pages[s * b.size + cv];
          if (v2 !== HOLE && hostOf[v2] === hostOf[y] && linksTo(y, v2)) return true;
        }
      }
    }
    return false;
  };
  const pages: number[] = [], from: number[] = [], to: number[] = [];
  for (let x = 0; x < graph.size; x++) {
    let found = false;
    for (let e = inLinks.offsets[x]; e < inLinks.offsets[x + 1] && !found; e++) {
      const u = inLinks.sources[e], A = clusterOf[u];
      // x must be replicated less widely than its neighbours: in no cluster of A's cardinality or more.
      if (A < 0 || hostOf[u] !== hostOf[x] || (clusterOf[x] >= 0 && clusters[clusterOf[x]].cardinality >= clusters[A].cardinality)) continue;
      for (let f = linkOffsets[x]; f < linkOffsets[x + 1] && !found; f++) {
        const v = linkTargets[f], B = clusterOf[v];
        if (B < 0 || hostOf[v] !== hostOf[x] || clusterOf[x] === B || clusters[A].cardinality !== clusters[B].cardinality) continue;
        if (A === B && rowOf[u] !== rowOf[v]) continue;
        if (counterpart(x, A, columnOf[u], B, columnOf[v], rowOf[u])) {
          pages.push(x); from.push(A); to.push(B);
          found = true;
        }
      }
    }
  }
  return { pages: Uint32Array.from(pages), from: Uint32Array.from(from), to: Uint32Array.from(to) };
}
