// Content mode's inputs (docs/FORMATS.md, "Content mode"): the template tables a batch of pages
// is sketched against, and the block fingerprints template learning counts (tp_blocks of
// assembly/template.ts; its exports are typed with the others in src/wasm/kernels.ts).
import { ResembleError } from '../errors.js';
import { checked } from '../wasm/kernels.js';
import { withArena } from '../wasm/instance.js';
import { byteBound, checkDoc, writeDoc, type DocInput } from './input.js';

const BATCH_BYTES = 4 << 20;

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

/** Block fingerprints per document, in order, repeats kept (CSR: doc i's at values[offsets[i]..offsets[i+1])), with each block's token and link-token counts. */
export interface BlockFingerprints {
  values: BigUint64Array;
  offsets: Uint32Array;
  /** Tokens of block j (aligned with values). */
  tokens: Uint32Array;
  /** Tokens of block j inside links. */
  links: Uint32Array;
}

/**
 * The fingerprints of every block of each document (docs/FORMATS.md "Content mode"), many
 * documents per WebAssembly call: what template learning counts. Titles are not blocks.
 */
export function blockFingerprints(docs: ArrayLike<DocInput>): BlockFingerprints {
  const n = docs.length;
  const offsets = new Uint32Array(n + 1);
  const parts: BigUint64Array[] = [];
  const countParts: Uint32Array[] = [];
  let total = 0, i = 0;
  while (i < n) {
    let j = i, bytes = 0;
    while (j < n && (j === i || bytes + byteBound(docs[j]) <= BATCH_BYTES) && j - i < 4096) {
      const bad = checkDoc(docs[j]);
      if (bad) throw new ResembleError('E_INPUT', `blockFingerprints: document ${j}: ${bad}`, { index: j });
      bytes += byteBound(docs[j]); j++;
    }
    const before = total;
    total += withArena((mem, k) => {
      const inPtr = mem.alloc(bytes);
      const offPtr = mem.alloc((j - i + 1) * 4);
      let at = 0, maxLen = 0;
      for (let d = i; d < j; d++) {
        mem.u32[(offPtr >>> 2) + d - i] = at;
        const len = writeDoc(mem, docs[d], inPtr + at);
        at += len;
        if (len > maxLen) maxLen = len;
      }
      mem.u32[(offPtr >>> 2) + j - i] = at;
      // A document of len bytes has at most len / 4 + 1 blocks (each but the last holds a token and ends at a tag).
      const cap = (at >>> 2) + (j - i);
      const outPtr = mem.alloc(cap * 8);
      const outOffPtr = mem.alloc((j - i + 1) * 4);
      const tokPtr = mem.alloc((maxLen + 1) * 8);
      const countsPtr = mem.alloc(cap * 8);
      const got = checked('tp_blocks', k.tp_blocks(inPtr, offPtr, j - i, outPtr, cap, outOffPtr, tokPtr, maxLen + 1, countsPtr));
      parts.push(mem.takeU64(outPtr, got));
      countParts.push(mem.takeU32(countsPtr, 2 * got));
      for (let d = 1; d <= j - i; d++) offsets[i + d] = before + mem.u32[(outOffPtr >>> 2) + d];
      return got;
    });
    i = j;
  }
  const values = new BigUint64Array(total);
  const tokens = new Uint32Array(total), links = new Uint32Array(total);
  let at = 0;
  parts.forEach((p, k) => {
    values.set(p, at);
    const c = countParts[k];
    for (let b = 0; b < p.length; b++) { tokens[at + b] = c[2 * b]; links[at + b] = c[2 * b + 1]; }
    at += p.length;
  });
  return { values, offsets, tokens, links };
}
