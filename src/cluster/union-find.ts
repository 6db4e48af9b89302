// Union-find over DocIds in typed arrays (the paper's final phase holds the whole structure in
// memory: 8 bytes per document here). Path compression plus union by size keeps every find
// near-constant; ties in size make the smaller DocId the root, so results never depend on timing.

/** Disjoint sets over 0..n-1: `find`, `union`, and component labels. */
export class UnionFind {
  parent: Int32Array;
  size: Int32Array;
  n: number;

  /** n singletons. */
  constructor(n: number) {
    this.n = n;
    this.parent = new Int32Array(n);
    this.size = new Int32Array(n).fill(1);
    for (let i = 0; i < n; i++) this.parent[i] = i;
  }

  /** Adds singletons up to n elements (capacity doubles, so repeated growth stays linear). */
  extend(n: number): void {
    if (n > this.parent.length) {
      let cap = Math.max(16, this.parent.length);
      while (cap < n) cap *= 2;
      const parent = new Int32Array(cap), size = new Int32Array(cap);
      parent.set(this.parent.subarray(0, this.n)); size.set(this.size.subarray(0, this.n));
      this.parent = parent; this.size = size;
    }
    for (let i = this.n; i < n; i++) { this.parent[i] = i; this.size[i] = 1; }
    this.n = n;
  }

  /** A union-find over roots given per element (as `roots()` returns); sizes recomputed. */
  static fromRoots(roots: Int32Array): UnionFind {
    const uf = new UnionFind(0);
    uf.n = roots.length;
    uf.parent = Int32Array.from(roots);
    uf.size = new Int32Array(roots.length);
    for (let i = 0; i < roots.length; i++) uf.size[roots[i]]++;
    return uf;
  }

  /** The root of x's set (compresses the path walked). */
  find(x: number): number {
    const parent = this.parent;
    let r = x;
    while (parent[r] !== r) r = parent[r];
    while (parent[x] !== r) { const next = parent[x]; parent[x] = r; x = next; }
    return r;
  }

  /** Joins the sets of a and b; returns false when they were already one set. */
  union(a: number, b: number): boolean {
    let ra = this.find(a), rb = this.find(b);
    if (ra === rb) return false;
    const size = this.size;
    if (size[ra] < size[rb] || (size[ra] === size[rb] && rb < ra)) { const t = ra; ra = rb; rb = t; }
    this.parent[rb] = ra;
    size[ra] += size[rb];
    return true;
  }

  /** Makes x a singleton again; only valid when every member of its old set is reset too. */
  reset(x: number): void {
    this.parent[x] = x;
    this.size[x] = 1;
  }

  /** The root of every element (fully compressed). */
  roots(): Int32Array {
    const out = new Int32Array(this.n);
    for (let i = 0; i < this.n; i++) out[i] = this.find(i);
    return out;
  }
}

/** Connected components as CSR: `label` per element (0.. in order of smallest member), `offsets`/`members` ascending. */
export interface Components {
  count: number;
  label: Int32Array;
  offsets: Uint32Array;
  members: Uint32Array;
}

/** Groups elements by root: components numbered by their smallest member, members ascending. */
export function components(roots: Int32Array): Components {
  const n = roots.length;
  const label = new Int32Array(n).fill(-1);
  const ofRoot = new Int32Array(n).fill(-1);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const r = roots[i];
    if (ofRoot[r] < 0) ofRoot[r] = count++;
    label[i] = ofRoot[r];
  }
  const offsets = new Uint32Array(count + 1);
  for (let i = 0; i < n; i++) offsets[label[i] + 1]++;
  for (let c = 0; c < count; c++) offsets[c + 1] += offsets[c];
  const cursor = offsets.slice(0, count);
  const members = new Uint32Array(n);
  for (let i = 0; i < n; i++) members[cursor[label[i]]++] = i;
  return { count, label, offsets, members };
}
