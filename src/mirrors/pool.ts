/**
 * Pooling of mirroring-test verdicts with transitive inference (Bharat et al. §4.1.2):
 * MIRROR(A,B) ∧ MIRROR(B,C) ⇒ MIRROR(A,C) through the union-find of cluster/ over hosts, and
 * MIRROR(A,B) ∧ MISMATCH(B,C) ⇒ MISMATCH(A,C) through a mismatch relation between clusters,
 * so a pair whose answer follows from earlier tests is not tested again.
 */
import { UnionFind } from '../cluster/index.js';

/** Known mirror clusters and mismatches between them, over host ids 0..hostCount-1. */
export class MirrorPool {
  private readonly sets: UnionFind;
  /** Cluster root → roots of clusters known not to mirror it. */
  private readonly mismatch = new Map<number, Set<number>>();

  /** Takes the number of hosts. */
  constructor(readonly hostCount: number) {
    this.sets = new UnionFind(hostCount);
  }

  /** Takes a host id; returns its cluster id (the root). */
  find(x: number): number {
    return this.sets.find(x);
  }

  /** Takes two hosts; returns what the pool already implies: 'mirror', 'mismatch' or undefined. */
  relation(a: number, b: number): 'mirror' | 'mismatch' | undefined {
    const ra = this.find(a), rb = this.find(b);
    if (ra === rb) return 'mirror';
    return this.mismatch.get(ra)?.has(rb) ? 'mismatch' : undefined;
  }

  /** Records MIRROR(a, b): joins their clusters and their mismatch sets. */
  addMirror(a: number, b: number): void {
    const ra = this.find(a), rb = this.find(b);
    if (!this.sets.union(ra, rb)) return;
    const root = this.find(ra), gone = root === ra ? rb : ra;
    const moved = this.mismatch.get(gone);
    if (!moved) return;
    this.mismatch.delete(gone);
    let into = this.mismatch.get(root);
    if (!into) this.mismatch.set(root, (into = new Set()));
    for (const c of moved) {
      // Two clusters once called a mismatch and now joined: the mirror verdict wins.
      if (c === root) {
        into.delete(gone);
        continue;
      }
      const back = this.mismatch.get(c)!;
      back.delete(gone);
      back.add(root);
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
