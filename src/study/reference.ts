/**
 * Slow, obvious twins of the duplicate study's fast paths: all pairs compared with plain arrays,
 * components by repeated relabelling. The oracle the tests hold `findDuplicates` against.
 */

/** Takes two paragraph lists; returns the size of their multiset intersection. */
export function sharedParagraphs<T>(a: readonly T[], b: readonly T[]): number {
  const left = [...b];
  let shared = 0;
  for (const x of a) {
    const i = left.indexOf(x);
    if (i >= 0) {
      shared++;
      left.splice(i, 1);
    }
  }
  return shared;
}

/**
 * Takes paragraph lists and a threshold percentage (100 = duplicates); returns the clusters as
 * sorted arrays of document indices, sorted by first member. Empty lists never match.
 */
export function clustersReference<T>(docs: ReadonlyArray<readonly T[]>, percent: number): number[][] {
  const comp = docs.map((_, i) => i);
  for (let a = 0; a < docs.length; a++) {
    for (let b = a + 1; b < docs.length; b++) {
      const na = docs[a].length, nb = docs[b].length;
      if (na === 0 || nb === 0) continue;
      const s = sharedParagraphs(docs[a], docs[b]);
      const match = percent >= 100 ? s === na && s === nb : 100 * s >= percent * Math.max(na, nb);
      if (!match || comp[a] === comp[b]) continue;
      const from = comp[b], to = comp[a];
      for (let i = 0; i < comp.length; i++) if (comp[i] === from) comp[i] = to;
    }
  }
  const groups = new Map<number, number[]>();
  comp.forEach((c, i) => groups.set(c, [...(groups.get(c) ?? []), i]));
  return [...groups.values()].filter((g) => g.length > 1).sort((x, y) => x[0] - y[0]);
}

/** The paper's own test (§3): same paragraph count and every paragraph of the probing document a found in b. */
export function paperMatch<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}
