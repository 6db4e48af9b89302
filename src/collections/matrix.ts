/**
 * A cluster as a matrix of pages: one row per collection (copy), one column per group of similar
 * pages, `pages[x * size + c]` the page of collection x in column c, or `HOLE` when that copy
 * holds no page there (a partial or older copy). Column c of every row holds similar pages, so
 * the one-to-one map M of Definition 5 between two collections is "same column".
 */
export interface PageMatrix {
  /** Number of collections (rows). */
  readonly cardinality: number;
  /** Number of columns. */
  readonly size: number;
  readonly pages: Uint32Array;
}

/** Marks a column a collection does not hold. */
export const HOLE = 0xffffffff;

/** Takes a matrix and a row; returns the pages that row holds, in column order. */
export function heldPages(m: PageMatrix, x: number): number[] {
  const out: number[] = [];
  for (let c = 0; c < m.size; c++) {
    const p = m.pages[x * m.size + c];
    if (p !== HOLE) out.push(p);
  }
  return out;
}

/** Takes a matrix; returns per row the number of pages it holds. */
export function heldCounts(m: PageMatrix): Uint32Array {
  const held = new Uint32Array(m.cardinality);
  for (let x = 0; x < m.cardinality; x++) for (let c = 0; c < m.size; c++) if (m.pages[x * m.size + c] !== HOLE) held[x]++;
  return held;
}
