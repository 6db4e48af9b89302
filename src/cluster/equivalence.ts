// Identical documents are set aside before clustering and added back at the end (paper,
// "Identical documents"): each group of equal whole-document fingerprints keeps one
// representative. The same is done for lexically-equivalent documents (equal canonical token
// stream) and shingle-equivalent ones (equal selected shingles); each kind implies the next.
import { HI as HI_WORD, LO as LO_WORD, words, type RowColumns } from '../sketch/columns.js';
import { keyedColumns, sortKeyedFast } from './radix-sort.js';
import { thinRow } from '../sketch/sketch-set.js';

// Word positions as module constants: imported bindings are slower to read in hot loops.
const HI = HI_WORD, LO = LO_WORD;

/** How far to go setting equivalent documents aside. */
export type EquivalenceLevel = 'none' | 'identical' | 'lexical' | 'shingle';

/** Evidence kinds, as stored in `kind` columns. */
export const KIND_NONE = 0, KIND_IDENTICAL = 1, KIND_LEXICAL = 2, KIND_SHINGLE = 3, KIND_NEAR = 4;
/** Names of the evidence kinds, by code. */
export const KIND_NAMES = ['representative', 'identical', 'lexical', 'shingle', 'near'] as const;
/** The evidence kind of a cluster member. */
export type EvidenceKind = (typeof KIND_NAMES)[number];

/** Documents set aside: `via[d]` is the kept document d is equivalent to (-1 when kept). */
export interface Equivalence {
  via: Int32Array;
  kind: Uint8Array;
  /** Documents left to cluster, ascending. */
  kept: Uint32Array;
  identical: number;
  lexical: number;
  shingle: number;
}

/**
 * Sets equivalent documents aside up to `level`. Within a group the document with the lowest
 * `priority` (then the lowest DocId) is kept. Lexical and shingle equivalence only apply to
 * documents with at least one shingle / sketch value, so empty pages are not all glued together;
 * a content sketch's page with too little content (an empty row) takes part through its own
 * fingerprints when they are not 0: its whole text's (lexical) and its title and content's (shingle).
 * `only` (ascending) restricts the work to those documents.
 */
export function setAside(set: RowColumns, level: EquivalenceLevel, priority: Float64Array, only?: Uint32Array): Equivalence {
  const n = set.size;
  const docs = only ?? Uint32Array.from({ length: n }, (_, i) => i);
  const via = new Int32Array(n).fill(-1);
  const kind = new Uint8Array(n);
  const counts = [0, 0, 0, 0];
  const steps: [BigUint64Array | undefined, number][] = [];
  if (level !== 'none') steps.push([set.rawFp, KIND_IDENTICAL]);
  if (level === 'lexical' || level === 'shingle') steps.push([set.lexicalFp, KIND_LEXICAL]);
  if (level === 'shingle') steps.push([set.shingleFp, KIND_SHINGLE]);
  const a = keyedColumns(docs.length), t = keyedColumns(docs.length);
  // Content sketches of pages with too little content have no row and cardinality 0 (a sketched
  // page counts at least its one short shingle, even with an empty MOD_m row), their whole text's
  // lexical fingerprint and their title and content's shingle fingerprint (0 when too short):
  // equal ones are copies. Rejected pages have zero fingerprints.
  for (const [fp, code] of steps) {
    if (!fp) continue;
    const w = words(fp);
    let c = 0;
    for (const d of docs) {
      if (via[d] >= 0) continue;
      // A zero fingerprint marks a page with nothing to compare (rejected): never equivalent.
      if (code === KIND_IDENTICAL && w[2 * d + HI] === 0 && w[2 * d + LO] === 0) continue;
      const zero = w[2 * d + HI] === 0 && w[2 * d + LO] === 0;
      if (code === KIND_LEXICAL && !(set.cardinality[d] > 0) && !(thinRow(set.offsets, set.cardinality, d) && !zero)) continue;
      if (code === KIND_SHINGLE && set.offsets[d + 1] === set.offsets[d] && !(thinRow(set.offsets, set.cardinality, d) && !zero)) continue;
      a.hi[c] = w[2 * d + HI]; a.lo[c] = w[2 * d + LO]; a.pay[c] = d; c++;
    }
    sortKeyedFast(a, t, c);
    let i = 0;
    while (i < c) {
      let e = i + 1;
      while (e < c && a.hi[e] === a.hi[i] && a.lo[e] === a.lo[i]) e++;
      if (e - i > 1) {
        let best = a.pay[i];
        for (let k = i + 1; k < e; k++) {
          const d = a.pay[k];
          if (priority[d] < priority[best] || (priority[d] === priority[best] && d < best)) best = d;
        }
        for (let k = i; k < e; k++) {
          const d = a.pay[k];
          if (d !== best) { via[d] = best; kind[d] = code; counts[code]++; }
        }
      }
      i = e;
    }
  }
  const kept = new Uint32Array(docs.length - counts[1] - counts[2] - counts[3]);
  let k = 0;
  for (const d of docs) if (via[d] < 0) kept[k++] = d;
  return { via, kind, kept, identical: counts[1], lexical: counts[2], shingle: counts[3] };
}
