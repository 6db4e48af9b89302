import { UnionFind } from '../cluster/index.js';
import { linkSummary } from './link-summary.js';
import { commonDirectory } from './prefix.js';
import type { PageGraph } from './page-graph.js';
import type { TrivialClusters } from './trivial.js';

/** The collections (rows) grown over the links, before they are gathered into clusters. */
export interface Rows {
  /** Node → its row's root node (a union-find root); nodes in no replicated trivial cluster are their own root. */
  readonly root: Int32Array;
  /** Node → the row it belongs to, or the row it was refused from (-1 for none): what `splitColumns` keeps apart. */
  readonly affinity: Int32Array;
  /** Links that joined two rows, and links refused because the rows held pages of one column. */
  readonly joined: number;
  readonly refused: number;
  /** LinkSummary rows held by at least two copies (the generalized merge condition). */
  readonly replicatedEdges: number;
}

/**
 * Grows the collections of a similar cluster of any cardinality mix. A link p → q between two pages
 * of one host is replicated when at least two pages of p's trivial cluster link to at least two
 * pages of q's (s ≥ 2 and d ≥ 2 in the LinkSummary): the generalization of the merge condition
 * |Ri| = s = d = |Rj| to trivial clusters of different sizes, where a partial or older copy holds
 * fewer pages. Replicated links join their pages into one collection (union-find), in LinkSummary
 * order, unless the two collections already hold pages of one trivial cluster: a collection holds
 * at most one page per column (the one-to-one map of Definition 5), so such a link is refused.
 * Links between hosts are never used: a collection lives on one host. Takes the page graph, its
 * trivial clusters and the URL of each node (optional); returns each page's row and affinity.
 */
export function growRows(graph: PageGraph, trivial: TrivialClusters, urlOf?: (node: number) => string): Rows {
  const n = graph.size;
  const summary = linkSummary(graph, trivial, { singleSite: true, minSourceSize: 2 });
  const uf = new UnionFind(n);
  // Root → (column → page) for rows of two or more pages; a single page holds only its own column.
  const columns = new Map<number, Map<number, number>>();
  const columnsOf = (root: number) => columns.get(root) ?? new Map([[trivial.rid[root], root]]);
  const refusals: number[] = [];
  let joined = 0, refused = 0, replicatedEdges = 0;
  for (let g = 0; g < summary.length; g++) {
    if (summary.s[g] < 2 || summary.d[g] < 2) continue;
    replicatedEdges++;
    for (let e = summary.offsets[g]; e < summary.offsets[g + 1]; e++) {
      const p = summary.linkSrc[e], q = summary.linkDst[e];
      const rp = uf.find(p), rq = uf.find(q);
      if (rp === rq) continue;
      const mp = columnsOf(rp), mq = columnsOf(rq);
      const [small, big] = mp.size <= mq.size ? [mp, mq] : [mq, mp];
      let clash = false;
      for (const c of small.keys()) if (big.has(c)) { clash = true; break; }
      if (clash) { refused++; refusals.push(p, q); continue; }
      uf.union(rp, rq);
      for (const [c, x] of small) big.set(c, x);
      columns.delete(rp); columns.delete(rq);
      columns.set(uf.find(rp), big);
      joined++;
    }
  }
  const root = Int32Array.from(uf.roots());
  const affinity = new Int32Array(n).fill(-1);
  for (let p = 0; p < n; p++) if (uf.size[root[p]] >= 2) affinity[p] = root[p];
  // A refusal between a small row and a larger one is a column chained across pages of one copy
  // (two pages that only look alike) when the two rows share few columns, or when the small row
  // lies in the larger one's folder: the small row's pages in those columns belong with the larger
  // row, and are marked so for `splitColumns`. Two rows sharing most of their columns in folders of
  // their own are two copies on one host that link to each other: left as they are.
  const folderOf = (members: Map<number, number>) => (urlOf ? commonDirectory([...members.values()].map(urlOf)) : '');
  const done = new Set<string>();
  for (let i = 0; i < refusals.length; i += 2) {
    let x = root[refusals[i]], y = root[refusals[i + 1]];
    if (x === y) continue;
    if (uf.size[x] > uf.size[y] || (uf.size[x] === uf.size[y] && x > y)) [x, y] = [y, x];
    const key = `${x} ${y}`;
    if (done.has(key)) continue;
    done.add(key);
    const mx = columnsOf(x), my = columnsOf(y);
    const shared: number[] = [];
    for (const [c, page] of mx) if (my.has(c)) shared.push(page);
    if (mx.size > 1 && shared.length > mx.size / 2 && !(urlOf && folderOf(mx).startsWith(folderOf(my)))) continue;
    for (const page of shared) affinity[page] = y;
  }
  return { root, affinity, joined, refused, replicatedEdges };
}
