/**
 * The crawl simulator of Pereira et al. (§4.1): follow links breadth-first from seed pages; what is
 * reached is the connected part (the bow tie's core and OUT when the seed lies in the core), the
 * rest is disconnected. Links are out-link CSR over DocIds.
 */

import type { Csr } from '../graph/csr.js';

/** Takes links over n pages and seed DocIds; returns 1 for every page reached by following links (seeds included). */
export function reachableFrom(links: Csr, seeds: ArrayLike<number>): Uint8Array {
  const n = links.offsets.length - 1;
  const seen = new Uint8Array(n);
  const queue = new Uint32Array(n);
  let tail = 0;
  for (let i = 0; i < seeds.length; i++) {
    const s = seeds[i];
    if (s >= 0 && s < n && !seen[s]) { seen[s] = 1; queue[tail++] = s; }
  }
  for (let head = 0; head < tail; head++) {
    const p = queue[head];
    for (let e = links.offsets[p]; e < links.offsets[p + 1]; e++) {
      const q = links.targets[e];
      if (!seen[q]) { seen[q] = 1; queue[tail++] = q; }
    }
  }
  return seen;
}

/**
 * Takes links; returns the strongly connected components (Tarjan, iterative) as a component id
 * per page, numbered in order of completion.
 */
export function stronglyConnected(links: Csr): { component: Uint32Array; count: number } {
  const { offsets, targets } = links;
  const n = offsets.length - 1;
  const index = new Int32Array(n).fill(-1);
  const low = new Uint32Array(n);
  const onStack = new Uint8Array(n);
  const stack = new Uint32Array(n);
  const component = new Uint32Array(n);
  const callNode = new Uint32Array(n), callEdge = new Uint32Array(n);
  let sp = 0, next = 0, count = 0;
  for (let root = 0; root < n; root++) {
    if (index[root] >= 0) continue;
    let depth = 0;
    callNode[0] = root;
    callEdge[0] = offsets[root];
    index[root] = low[root] = next++;
    stack[sp++] = root;
    onStack[root] = 1;
    while (depth >= 0) {
      const v = callNode[depth];
      const e = callEdge[depth];
      if (e < offsets[v + 1]) {
        callEdge[depth] = e + 1;
        const w = targets[e];
        if (index[w] < 0) {
          index[w] = low[w] = next++;
          stack[sp++] = w;
          onStack[w] = 1;
          depth++;
          callNode[depth] = w;
          callEdge[depth] = offsets[w];
        } else if (onStack[w]) {
          low[v] = Math.min(low[v], index[w]);
        }
        continue;
      }
      if (low[v] === index[v]) {
        let w: number;
        do {
          w = stack[--sp];
          onStack[w] = 0;
          component[w] = count;
        } while (w !== v);
        count++;
      }
      depth--;
      if (depth >= 0) {
        const u = callNode[depth];
        low[u] = Math.min(low[u], low[v]);
      }
    }
  }
  return { component, count };
}

/**
 * Takes links; returns the default seed: the lowest DocId of the largest strongly connected
 * component (ties to the component holding the lowest DocId), as the paper seeds from the core.
 * Returns −1 for an empty graph.
 */
export function coreSeed(links: Csr): number {
  const { component, count } = stronglyConnected(links);
  const n = component.length;
  if (n === 0) return -1;
  const size = new Uint32Array(count);
  const first = new Int32Array(count).fill(-1);
  for (let i = 0; i < n; i++) {
    size[component[i]]++;
    if (first[component[i]] < 0) first[component[i]] = i;
  }
  let best = component[0];
  for (let c = 0; c < count; c++) {
    if (size[c] > size[best] || (size[c] === size[best] && first[c] < first[best])) best = c;
  }
  return first[best];
}
