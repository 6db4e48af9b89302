import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { UnionFind, components } from '../../src/cluster/union-find.js';
import { Rng } from './helpers.js';

/** Naive connected components: DFS over an adjacency list, labels = smallest member. */
function naive(n: number, edges: [number, number][]): number[] {
  const adj: number[][] = Array.from({ length: n }, () => []);
  for (const [a, b] of edges) { adj[a].push(b); adj[b].push(a); }
  const label = new Array<number>(n).fill(-1);
  for (let s = 0; s < n; s++) {
    if (label[s] >= 0) continue;
    const stack = [s];
    label[s] = s;
    while (stack.length) {
      const u = stack.pop()!;
      for (const v of adj[u]) if (label[v] < 0) { label[v] = s; stack.push(v); }
    }
  }
  return label;
}

test('union-find equals naive connected components on random graphs', () => {
  const rng = new Rng(1);
  for (let round = 0; round < 60; round++) {
    const n = 1 + rng.int(300);
    const m = rng.int(n * 1.5);
    const edges: [number, number][] = [];
    for (let i = 0; i < m; i++) edges.push([rng.int(n), rng.int(n)]);
    const uf = new UnionFind(n);
    let unions = 0;
    for (const [a, b] of edges) if (uf.union(a, b)) unions++;
    const ref = naive(n, edges);
    const comp = components(uf.roots());
    // Same partition: two elements share a label exactly when they share a reference label.
    const smallest = new Map<number, number>();
    for (let i = 0; i < n; i++) {
      const c = comp.label[i];
      if (!smallest.has(c)) smallest.set(c, i);
      assert.is(smallest.get(c), ref[i], `round ${round}, element ${i}`);
    }
    assert.is(comp.count, new Set(ref).size);
    assert.is(unions, n - comp.count, 'successful unions = n − components');
    // Sizes at roots agree with component sizes; members ascending within a component.
    for (let c = 0; c < comp.count; c++) {
      const mem = Array.from(comp.members.subarray(comp.offsets[c], comp.offsets[c + 1]));
      assert.equal(mem, mem.slice().sort((x, y) => x - y));
      assert.is(uf.size[uf.find(mem[0])], mem.length);
    }
  }
});

test('union by size keeps trees shallow; find compresses paths', () => {
  const n = 1 << 12;
  const uf = new UnionFind(n);
  // A worst case for naive linking: always link the big set under a new singleton.
  for (let i = 1; i < n; i++) uf.union(i, 0);
  let maxDepth = 0;
  for (let i = 0; i < n; i++) {
    let d = 0, x = i;
    while (uf.parent[x] !== x) { x = uf.parent[x]; d++; }
    maxDepth = Math.max(maxDepth, d);
  }
  assert.ok(maxDepth <= Math.log2(n), `depth ${maxDepth} ≤ log2 n`);
  const r = uf.find(n - 1);
  assert.is(uf.parent[n - 1], r, 'path compressed to the root');
  assert.is(uf.size[r], n);
});

test('equal sizes: the smaller root wins, so labels do not depend on call order', () => {
  const a = new UnionFind(4), b = new UnionFind(4);
  a.union(2, 3); b.union(3, 2);
  assert.is(a.find(3), 2);
  assert.is(b.find(3), 2);
});

test.run();
