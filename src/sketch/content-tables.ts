// Content mode's template tables (docs/FORMATS.md, "Content mode"): per host the fingerprints of
// its template blocks, per page the table it is sketched against, and their check. What sketches
// and the index need of content mode without the block fingerprints (./content.ts).
import { ResembleError } from '../errors.js';

/** Marks a document that has no template table (only the link-density rule and the title apply). */
export const NO_TABLE = 0xffffffff;

/** Marks a document sketched whole, exactly as content 'page' would (its site's template is light or unknown). */
export const WHOLE_PAGE = 0xfffffffe;

/**
 * Template tables for content-mode sketching: per host, the sorted fingerprints of its template
 * blocks; per document, the table it is checked against. Built by `src/template/`.
 */
export interface ContentTables {
  /** Every table's sorted block fingerprints, one table after another. */
  values: BigUint64Array;
  /** Table t is values[offsets[t]..offsets[t+1]). */
  offsets: Uint32Array;
  /** Per document: its table, NO_TABLE, or WHOLE_PAGE. */
  docTable: Uint32Array;
}

/** Checks tables against the number of documents: offsets consistent, tables ascending, document tables in range. */
export function checkContentTables(t: ContentTables, documents: number): void {
  const bad = (why: string) => new ResembleError('E_OPTION', `templates: ${why}`, { option: 'templates' });
  if (!(t.values instanceof BigUint64Array) || !(t.offsets instanceof Uint32Array) || !(t.docTable instanceof Uint32Array)) throw bad('expected values BigUint64Array, offsets and docTable Uint32Array');
  const nt = t.offsets.length - 1;
  if (nt < 0 || t.offsets[0] !== 0 || t.offsets[nt] !== t.values.length) throw bad('offsets do not cover values');
  if (t.docTable.length !== documents) throw bad(`expected ${documents} document tables, got ${t.docTable.length}`);
  for (let k = 0; k < nt; k++) {
    if (t.offsets[k + 1] < t.offsets[k]) throw bad(`table ${k} ends before it starts`);
    for (let i = t.offsets[k] + 1; i < t.offsets[k + 1]; i++) if (t.values[i] <= t.values[i - 1]) throw bad(`table ${k} is not ascending and distinct`);
  }
  for (const d of t.docTable) if (d !== NO_TABLE && d !== WHOLE_PAGE && d >= nt) throw bad(`document table ${d} does not exist (${nt} tables)`);
}
