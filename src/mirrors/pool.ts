/**
 * Pooling of mirroring-test verdicts with transitive inference (Bharat et al. §4.1.2):
 * MIRROR(A,B) ∧ MIRROR(B,C) ⇒ MIRROR(A,C) through union-find over hosts, and
 * MIRROR(A,B) ∧ MISMATCH(B,C) ⇒ MISMATCH(A,C) through a mismatch relation between clusters,
 * so a pair whose answer follows from earlier tests is not tested again.
 */

/** Known mirror clusters and mismatches between them, over host ids 0..hostCount-1. */
export class MirrorPool {
  private readonly parent: Int32Array;
  private readonly rank: Uint8Array;
  /** Cluster root → roots of clusters known not to mirror it. */
  private readonly mismatch = new Map<number, Set<number>>();

  /** Takes the number of hosts. */
  constructor(readonly hostCount: number) {
    this.parent = Int32Array.from({ length: hostCount }, (_, i) => i);
    this.rank = new Uint8Array(hostCount);
  }

  /** Takes a host id; returns its cluster id (the root, with path halving). */
  find(x: number): number {
    const p = this.parent;
    while (p[x] !== x) {
      p[x] = p[p[x]];
      x = p[x];
    }
    return x;
  }

  /** Takes two hosts; returns what the pool already implies: 'mirror', 'mismatch' or undefined. */
  relation(a: number, b: number): 'mirror' | 'mismatch' | undefined {
    const ra = this.find(a), rb = this.find(b);
    if (ra === rb) return 'mirror';
    return this.mismatch.get(ra)?.has(rb) ? 'mismatch' : undefined;
  }

  /** Records MIRROR(a, b): joins their clusters and their mismatch sets. */
  addMirror(a: number, b: number): void {
    let ra = this.find(a), rb = this.find(b);
    if (ra === rb) return;
    if (this.rank[ra] < this.rank[rb]) [ra, rb] = [rb, ra];
    this.parent[rb] = ra;
    if (this.rank[ra] === this.rank[rb]) this.rank[ra]++;
    const moved = this.mismatch.get(rb);
    if (!moved) return;
    this.mismatch.delete(rb);
    let into = this.mismatch.get(ra);
    if (!into) this.mismatch.set(ra, (into = new Set()));
    for (const c of moved) {
      const back = this.mismatch.get(c)!;
      back.delete(rb);
      back.add(ra);
      into.add(c);
    }
  }

  /** Records MISMATCH(a, b) between their clusters. A pair already known as mirrors is left alone. */
  addMismatch(a: number, b: number): void {
    const ra = this.find(a), rb = this.find(b);
    if (ra === rb) return;
    for (const [x, y] of [[ra, rb], [rb, ra]]) {
      let s = this.mismatch.get(x);
      if (!s) this.mismatch.set(x, (s = new Set()));
      s.add(y);
    }
  }

  /** Returns the clusters of two or more hosts, each as sorted host ids, ordered by their first host. */
  clusters(): number[][] {
    const by = new Map<number, number[]>();
    for (let h = 0; h < this.hostCount; h++) {
      const r = this.find(h);
      const c = by.get(r);
      if (c) c.push(h);
      else by.set(r, [h]);
    }
    return [...by.values()].filter((c) => c.length > 1).sort((x, y) => x[0] - y[0]);
  }
}
