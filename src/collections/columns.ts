import { UnionFind } from '../cluster/index.js';
import type { SimilarPages } from './similarity.js';
import { trivialFromLabels, type TrivialClusters } from './trivial.js';

/** Label groups larger than this are joined as a star around their first page, not pair by pair. */
const MAX_GROUP_PAIRS = 256;

/**
 * Splits trivial clusters so that no two pages of one collection share a column. Transitive
 * similarity (Definition 4) chains pages of one manual that only look alike (two index pages, two
 * release notes); a column holding both breaks the one-to-one map M of Definition 5 (Figure 3(b):
 * "replicas within the collection"). Takes the similar pairs with their scores, the current
 * trivial clusters and an affinity per page (the collection it is in or was refused from, -1 for
 * none); returns trivial clusters where each cluster holding two pages of one affinity is rebuilt
 * by constrained single linkage: its pairs are joined best score first, identical texts first, and
 * a join is refused when it would put two pages of one affinity in one column. Clusters without
 * such a conflict are kept as they are.
 */
export function splitColumns(similar: SimilarPages, trivial: TrivialClusters, affinity: Int32Array): { trivial: TrivialClusters; split: number; refused: number } {
  const n = trivial.rid.length;
  // Which trivial clusters hold two pages of one affinity.
  const conflicted = new Uint8Array(trivial.count);
  let split = 0;
  for (let r = 0; r < trivial.count; r++) {
    const seen = new Set<number>();
    for (let x = trivial.offsets[r]; x < trivial.offsets[r + 1]; x++) {
      const f = affinity[trivial.pages[x]];
      if (f < 0) continue;
      if (seen.has(f)) { conflicted[r] = 1; split++; break; }
      seen.add(f);
    }
  }
  if (split === 0) return { trivial, split: 0, refused: 0 };

  // Edges inside conflicted clusters: identical copies to their representative (score 2, first),
  // the test's pairs, and each copy to its representative's partners (a refused copy can still
  // join the column of its own page elsewhere).
  const { label, a, b, score } = similar;
  const copies = new Map<number, number[]>();
  for (let p = 0; p < n; p++) {
    if (label[p] === p || !conflicted[trivial.rid[p]]) continue;
    let list = copies.get(label[p]);
    if (!list) copies.set(label[p], (list = []));
    list.push(p);
  }
  const ea: number[] = [], eb: number[] = [], es: number[] = [];
  // Only pairs inside one conflicted cluster (an earlier split may have parted a pair's pages).
  const edge = (x: number, y: number, s: number) => { if (trivial.rid[x] === trivial.rid[y]) { ea.push(x); eb.push(y); es.push(s); } };
  for (const [rep, list] of copies) {
    const group = [rep, ...list];
    if (group.length <= MAX_GROUP_PAIRS) for (let i = 0; i < group.length; i++) for (let j = i + 1; j < group.length; j++) edge(group[i], group[j], 2);
    else for (const c of list) edge(rep, c, 2);
  }
  for (let i = 0; i < a.length; i++) {
    if (!conflicted[trivial.rid[a[i]]]) continue;
    edge(a[i], b[i], score[i]);
    for (const c of copies.get(a[i]) ?? []) edge(c, b[i], score[i]);
    for (const c of copies.get(b[i]) ?? []) edge(a[i], c, score[i]);
  }
  const order = Array.from(ea.keys()).sort((x, y) => es[y] - es[x] || ea[x] - ea[y] || eb[x] - eb[y]);

  const uf = new UnionFind(n);
  const affinities = new Map<number, Set<number>>();
  const setOf = (root: number) => {
    let s = affinities.get(root);
    if (!s) { s = new Set(affinity[root] >= 0 ? [affinity[root]] : []); affinities.set(root, s); }
    return s;
  };
  let refused = 0;
  for (const e of order) {
    const ra = uf.find(ea[e]), rb = uf.find(eb[e]);
    if (ra === rb) continue;
    const sa = setOf(ra), sb = setOf(rb);
    const [small, big] = sa.size <= sb.size ? [sa, sb] : [sb, sa];
    let clash = false;
    for (const f of small) if (big.has(f)) { clash = true; break; }
    if (clash) { refused++; continue; }
    uf.union(ra, rb);
    for (const f of small) big.add(f);
    affinities.delete(ra); affinities.delete(rb);
    affinities.set(uf.find(ra), big);
  }
  // Pages of clusters kept whole keep their cluster; pages of split ones take their component.
  const labels = new Float64Array(n);
  for (let p = 0; p < n; p++) labels[p] = conflicted[trivial.rid[p]] ? n + uf.find(p) : trivial.rid[p];
  return { trivial: trivialFromLabels(labels), split, refused };
}
