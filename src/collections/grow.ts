import { components as componentsOf, UnionFind } from '../cluster/index.js';
import type { MergeEdges } from './merge.js';
import type { TrivialClusters } from './trivial.js';

/**
 * A similar cluster as the growing algorithm builds it: a matrix of pages, one row per collection
 * (copy) and one column per trivial cluster. Column c of every row holds a page of trivial cluster
 * `trivial[c]`, so the one-to-one map M of Definition 5 between two collections is "same column".
 */
export interface GrownCluster {
  /** Number of collections (the cluster cardinality). */
  readonly cardinality: number;
  /** Pages per collection (the collection size): one column per trivial cluster. */
  readonly size: number;
  /** The trivial cluster of each column, in growth order; column 0 is the start point and holds the roots. */
  readonly trivial: Uint32Array;
  /** `pages[x * size + c]`: the page of collection x in column c. Rows are ordered by root DocId. */
  readonly pages: Uint32Array;
  /** The column each column grew from over a TCG edge (-1 for column 0). */
  readonly parent: Int32Array;
}

/**
 * Takes the trivial clusters, the TCG edges and a start score per trivial cluster; returns the
 * similar clusters of cardinality ≥ 2. Step 5 of Algorithm 3.1: connected components of the TCG by
 * union-find, then each component is grown from a start point into one collection per copy.
 *
 * The start point (Figure 7) is taken from the source strongly connected components of the TCG
 * (only their nodes can reach the others), preferring the largest trivial cluster, then the highest
 * score (the paper suggests most in-links from other sites), then the smallest rid. Growth follows
 * TCG edges in their direction, as the paper merges from a node that reaches the others: every
 * grown column then has a parent column linking to it in every copy, which is Definition 5 for it
 * (the start column is checked on the output). Trivial clusters the growth did not reach (two
 * clusters linking into a third) are grown again from the next source, so every collection stays
 * connected.
 */
export function growClusters(trivial: TrivialClusters, edges: MergeEdges, score: ArrayLike<number>, pageCount: number): GrownCluster[] {
  const R = trivial.count;
  const uf = new UnionFind(R);
  for (let e = 0; e < edges.length; e++) uf.union(edges.from[e], edges.to[e]);
  const components = componentsOf(uf.roots());

  // Incident edges per trivial cluster, as 2e (leaving) or 2e + 1 (arriving).
  const incident = new Uint32Array(R + 1);
  for (let e = 0; e < edges.length; e++) { incident[edges.from[e] + 1]++; incident[edges.to[e] + 1]++; }
  for (let r = 0; r < R; r++) incident[r + 1] += incident[r];
  const fill = incident.slice(0, R);
  const incidentEdges = new Uint32Array(2 * edges.length);
  for (let e = 0; e < edges.length; e++) { incidentEdges[fill[edges.from[e]]++] = 2 * e; incidentEdges[fill[edges.to[e]]++] = 2 * e + 1; }

  // Start points are taken in this order: larger trivial cluster, higher score, smaller rid.
  const better = (a: number, b: number) =>
    trivial.size[a] !== trivial.size[b] ? trivial.size[a] > trivial.size[b] : score[a] !== score[b] ? score[a] > score[b] : a < b;
  const scc = stronglyConnected(R, edges, incident, incidentEdges);
  const done = new Uint8Array(R);
  const scratch = new Int32Array(pageCount).fill(-1);
  const out: GrownCluster[] = [];
  for (let comp = 0; comp < components.count; comp++) {
    const nodes = components.members.subarray(components.offsets[comp], components.offsets[comp + 1]);
    if (nodes.length === 1) {
      if (trivial.size[nodes[0]] >= 2) out.push(growFrom(nodes[0], trivial, edges, incident, incidentEdges, done, scratch));
      continue;
    }
    // Only a node of a source SCC (no edge from outside it) can reach the others, so starts are taken
    // from the source SCCs of what is left, best first; a growth takes whole SCCs and all they reach.
    const best = new Map<number, number>(), indegree = new Map<number, number>();
    for (const r of nodes) {
      const c = scc[r], b = best.get(c);
      if (b === undefined || better(r, b)) best.set(c, r);
      if (!indegree.has(c)) indegree.set(c, 0);
      for (let x = incident[r]; x < incident[r + 1]; x++) {
        if ((incidentEdges[x] & 1) === 0) continue;
        const from = edges.from[incidentEdges[x] >>> 1];
        if (scc[from] !== c) indegree.set(c, indegree.get(c)! + 1);
      }
    }
    const heap = new StartHeap(better);
    for (const [c, d] of indegree) if (d === 0) heap.push(best.get(c)!);
    for (let start = heap.pop(); start !== undefined; start = heap.pop()) {
      // Edges only go from a cluster to one no larger, so when the best source is a single page, so is all that is left.
      if (done[start] || trivial.size[start] < 2) continue;
      const grown = growFrom(start, trivial, edges, incident, incidentEdges, done, scratch);
      out.push(grown);
      for (const r of grown.trivial) {
        for (let x = incident[r]; x < incident[r + 1]; x++) {
          if ((incidentEdges[x] & 1) === 1) continue;
          const to = edges.to[incidentEdges[x] >>> 1];
          if (scc[to] === scc[r] || done[to]) continue;
          const d = indegree.get(scc[to])! - 1;
          indegree.set(scc[to], d);
          if (d === 0) heap.push(best.get(scc[to])!);
        }
      }
    }
  }
  return out;
}

/** A binary max-heap of start candidates under `better`. */
class StartHeap {
  private readonly items: number[] = [];
  constructor(private readonly better: (a: number, b: number) => boolean) {}
  push(x: number): void {
    const a = this.items;
    a.push(x);
    for (let i = a.length - 1; i > 0;) {
      const up = (i - 1) >> 1;
      if (!this.better(a[i], a[up])) break;
      [a[i], a[up]] = [a[up], a[i]];
      i = up;
    }
  }
  pop(): number | undefined {
    const a = this.items;
    if (a.length === 0) return undefined;
    const top = a[0], last = a.pop()!;
    if (a.length) {
      a[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < a.length && this.better(a[l], a[m])) m = l;
        if (r < a.length && this.better(a[r], a[m])) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]];
        i = m;
      }
    }
    return top;
  }
}

/** Strongly connected components of the TCG (Tarjan, iterative): a component id per trivial cluster. */
function stronglyConnected(R: number, edges: MergeEdges, incident: Uint32Array, incidentEdges: Uint32Array): Int32Array {
  const index = new Int32Array(R).fill(-1), low = new Int32Array(R), comp = new Int32Array(R).fill(-1);
  const onStack = new Uint8Array(R), stack: number[] = [], callNode: number[] = [], callEdge: number[] = [];
  let counter = 0, comps = 0;
  for (let root = 0; root < R; root++) {
    if (index[root] >= 0 || incident[root] === incident[root + 1]) { if (index[root] < 0) comp[root] = comps++; continue; }
    callNode.push(root); callEdge.push(incident[root]);
    index[root] = low[root] = counter++; stack.push(root); onStack[root] = 1;
    while (callNode.length) {
      const top = callNode.length - 1, u = callNode[top];
      let x = callEdge[top];
      while (x < incident[u + 1] && (incidentEdges[x] & 1) === 1) x++;
      if (x < incident[u + 1]) {
        callEdge[top] = x + 1;
        const v = edges.to[incidentEdges[x] >>> 1];
        if (index[v] < 0) {
          index[v] = low[v] = counter++; stack.push(v); onStack[v] = 1;
          callNode.push(v); callEdge.push(incident[v]);
        } else if (onStack[v] && index[v] < low[u]) low[u] = index[v];
        continue;
      }
      callNode.pop(); callEdge.pop();
      if (callNode.length) { const p = callNode[callNode.length - 1]; if (low[u] < low[p]) low[p] = low[u]; }
      if (low[u] === index[u]) {
        let w: number;
        do { w = stack.pop()!; onStack[w] = 0; comp[w] = comps; } while (w !== u);
        comps++;
      }
    }
  }
  return comp;
}

function growFrom(
  start: number, trivial: TrivialClusters, edges: MergeEdges,
  incident: Uint32Array, incidentEdges: Uint32Array, done: Uint8Array, scratch: Int32Array,
): GrownCluster {
  const k = trivial.size[start];
  const columns: Uint32Array[] = [trivial.pages.slice(trivial.offsets[start], trivial.offsets[start + 1])];
  const nodes: number[] = [start], parent: number[] = [-1];
  done[start] = 1;
  for (let head = 0; head < nodes.length; head++) {
    const u = nodes[head], slots = columns[head];
    for (let x = incident[u]; x < incident[u + 1]; x++) {
      if ((incidentEdges[x] & 1) === 1) continue;
      const e = incidentEdges[x] >>> 1, v = edges.to[e];
      if (done[v]) continue;
      // Slot page p ∈ Ri goes to map(p) ∈ Rj: the page it links to in the same copy.
      const lo = edges.mapOffsets[e], hi = edges.mapOffsets[e + 1];
      for (let y = lo; y < hi; y++) scratch[edges.mapSrc[y]] = edges.mapDst[y];
      const next = new Uint32Array(k);
      for (let t = 0; t < k; t++) next[t] = scratch[slots[t]];
      for (let y = lo; y < hi; y++) scratch[edges.mapSrc[y]] = -1;
      done[v] = 1;
      nodes.push(v); parent.push(head); columns.push(next);
    }
  }
  const size = nodes.length;
  const pages = new Uint32Array(k * size);
  for (let c = 0; c < size; c++) for (let t = 0; t < k; t++) pages[t * size + c] = columns[c][t];
  return { cardinality: k, size, trivial: Uint32Array.from(nodes), pages, parent: Int32Array.from(parent) };
}
