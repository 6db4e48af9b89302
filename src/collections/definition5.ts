import { HOLE, type PageMatrix } from './matrix.js';

/** A pair of collections that breaks Definition 5 at one column. */
export interface Definition5Violation {
  column: number;
  x: number;
  y: number;
}

/** In-links in CSR form: the sources of page p's links are sources[offsets[p] .. offsets[p + 1]]. */
type InLinks = { offsets: Uint32Array; sources: Uint32Array };

/**
 * Per column, per row holding it: the columns of its parents inside its own collection (a parent
 * is a page of the same row linking to it). Columns are small integers, so each set is an array.
 */
function parentColumns(m: PageMatrix, inLinks: InLinks, c: number, columnOf: Map<number, number>): Array<number[] | undefined> {
  const out: Array<number[] | undefined> = new Array(m.cardinality);
  for (let x = 0; x < m.cardinality; x++) {
    const q = m.pages[x * m.size + c];
    if (q === HOLE) continue;
    const set: number[] = [];
    for (let e = inLinks.offsets[q]; e < inLinks.offsets[q + 1]; e++) {
      const p = inLinks.sources[e];
      const pc = columnOf.get(p);
      // p is a parent inside collection x only if it is x's page of its column.
      if (pc !== undefined && m.pages[x * m.size + pc] === p && !set.includes(pc)) set.push(pc);
    }
    out[x] = set;
  }
  return out;
}

/**
 * Definition 5 between collections x and y at column c, for collections with holes: compared on
 * the columns both hold (the sub-collections they have in common are equi-sized, matched column to
 * column), the two pages need a parent in a common column, unless neither has a parent in those
 * columns.
 */
function compatible(m: PageMatrix, px: number[], py: number[], x: number, y: number): boolean {
  for (const a of px) if (py.includes(a)) return true;
  const holds = (row: number, col: number) => m.pages[row * m.size + col] !== HOLE;
  for (const a of px) if (holds(y, a)) return false;
  for (const b of py) if (holds(x, b)) return false;
  return true;
}

function columnIndex(m: PageMatrix): Map<number, number> {
  const columnOf = new Map<number, number>();
  for (let i = 0; i < m.pages.length; i++) if (m.pages[i] !== HOLE) columnOf.set(m.pages[i], i % m.size);
  return columnOf;
}

/**
 * Checks Definition 5 (similar collections) on a cluster, every two collections on the columns both
 * hold: for every such column the two pages have parents in their own collections that are
 * similar (the same column), unless neither has a parent there. Takes the cluster and the reverse
 * link CSR; returns the violations found (at most `limit`).
 */
export function checkDefinition5(m: PageMatrix, inLinks: InLinks, limit = 16): Definition5Violation[] {
  const columnOf = columnIndex(m);
  const violations: Definition5Violation[] = [];
  for (let c = 0; c < m.size && violations.length < limit; c++) {
    const parents = parentColumns(m, inLinks, c, columnOf);
    // Fast path: one parent column common to every row holding c.
    const rows = parents.map((p, x) => (p ? x : -1)).filter((x) => x >= 0);
    if (rows.length < 2) continue;
    const first = parents[rows[0]]!;
    if (first.some((pc) => rows.every((x) => parents[x]!.includes(pc)))) continue;
    for (let i = 0; i < rows.length && violations.length < limit; i++) {
      for (let j = i + 1; j < rows.length && violations.length < limit; j++) {
        if (!compatible(m, parents[rows[i]]!, parents[rows[j]]!, rows[i], rows[j])) violations.push({ column: c, x: rows[i], y: rows[j] });
      }
    }
  }
  return violations;
}

/**
 * Makes a cluster meet Definition 5 by taking pages out (holes), never by adding: at a column where
 * two collections disagree, the largest group of collections that agree is kept (those sharing
 * one parent column, or those with no parent at all) and the others lose their page there; this
 * repeats until no violation is left, since a removed page can take a parent from its children.
 * Takes the cluster and the reverse link CSR; returns the repaired pages and how many were removed.
 */
export function repairDefinition5(m: PageMatrix, inLinks: InLinks): { pages: Uint32Array; removed: number } {
  const pages = m.pages.slice();
  const cur: PageMatrix = { cardinality: m.cardinality, size: m.size, pages };
  let removed = 0;
  // Removed pages stay in the index, harmlessly: a parent must still be its row's page of its column.
  const columnOf = columnIndex(cur);
  for (let changed = true; changed;) {
    changed = false;
    for (let c = 0; c < m.size; c++) {
      const parents = parentColumns(cur, inLinks, c, columnOf);
      const rows = parents.map((p, x) => (p ? x : -1)).filter((x) => x >= 0);
      if (rows.length < 2) continue;
      let ok = true;
      for (let i = 0; i < rows.length && ok; i++) for (let j = i + 1; j < rows.length && ok; j++) ok = compatible(cur, parents[rows[i]]!, parents[rows[j]]!, rows[i], rows[j]);
      if (ok) continue;
      // Candidate groups: rows without parents, and per parent column the rows having it.
      const groups = new Map<number, number[]>();
      for (const x of rows) {
        const ps = parents[x]!;
        if (ps.length === 0) (groups.get(-1) ?? groups.set(-1, []).get(-1)!).push(x);
        for (const pc of ps) (groups.get(pc) ?? groups.set(pc, []).get(pc)!).push(x);
      }
      let best: number[] = [], bestKey = Infinity;
      for (const [key, g] of groups) if (g.length > best.length || (g.length === best.length && key < bestKey)) { best = g; bestKey = key; }
      const keep = new Set(best);
      for (const x of rows) {
        if (keep.has(x)) continue;
        pages[x * m.size + c] = HOLE;
        removed++;
        changed = true;
      }
    }
  }
  return { pages, removed };
}
