import type { GrownCluster } from './grow.js';

/** A pair of collections that breaks Definition 5 at one column (the page `column` has no similar parent in both). */
export interface Definition5Violation {
  column: number;
  x: number;
  y: number;
}

/**
 * Checks Definition 5 (similar collections) on a grown cluster: for every column and every two
 * collections x, y, the two pages have parents in their own collections that are similar (the
 * same column, since a collection holds one page per trivial cluster), unless neither has a parent.
 * Takes the cluster and the reverse link CSR; returns the violations found (at most `limit`).
 */
export function checkDefinition5(
  cluster: GrownCluster, inLinks: { offsets: Uint32Array; sources: Uint32Array }, limit = 16,
): Definition5Violation[] {
  const { cardinality: k, size, pages } = cluster;
  const columnOf = new Map<number, number>();
  for (let x = 0; x < k; x++) for (let c = 0; c < size; c++) columnOf.set(pages[x * size + c], c);
  const violations: Definition5Violation[] = [];
  const parentSets: Uint32Array[] = new Array(k);
  for (let c = 0; c < size && violations.length < limit; c++) {
    let empty = 0;
    const seenIn = new Map<number, number>();
    for (let x = 0; x < k; x++) {
      const q = pages[x * size + c];
      const set: number[] = [];
      for (let e = inLinks.offsets[q]; e < inLinks.offsets[q + 1]; e++) {
        const p = inLinks.sources[e];
        const pc = columnOf.get(p);
        // p is a parent inside collection x only if it is x's page of its column (shared pages sit in several rows).
        if (pc !== undefined && pages[x * size + pc] === p && !set.includes(pc)) set.push(pc);
      }
      parentSets[x] = Uint32Array.from(set);
      if (set.length === 0) empty++;
      for (const pc of set) seenIn.set(pc, (seenIn.get(pc) ?? 0) + 1);
    }
    if (empty === k) continue;
    let common = false;
    for (const n of seenIn.values()) if (n === k) { common = true; break; }
    if (common) continue;
    for (let x = 0; x < k && violations.length < limit; x++) {
      for (let y = x + 1; y < k && violations.length < limit; y++) {
        if (parentSets[x].length === 0 && parentSets[y].length === 0) continue;
        if (!parentSets[x].some((pc) => parentSets[y].includes(pc))) violations.push({ column: c, x, y });
      }
    }
  }
  return violations;
}
