// Content mode's inputs (docs/FORMATS.md, "Content mode"): the block fingerprints template learning
// counts (tp_blocks of assembly/template.ts; its exports are typed with the others in
// src/wasm/kernels.ts), and the template tables a batch of pages is sketched against
// (./content-tables.ts, re-exported here).
import { ResembleError } from '../errors.js';
import { checked, type Kernels } from '../wasm/kernels.js';
import type { WasmMemory } from '../wasm/memory.js';
import { withArena } from '../wasm/instance.js';
import { byteBound, checkDoc, writeDoc, type DocInput } from './input.js';
import { configureKernels, resolveSketchOptions, type SketchOptions } from './options.js';
import { checkContentTables, type ContentTables } from './content-tables.js';

export { NO_TABLE, WHOLE_PAGE, checkContentTables, type ContentTables } from './content-tables.js';

const BATCH_BYTES = 4 << 20;

/** Block fingerprints per document, in order, repeats kept (CSR: doc i's at values[offsets[i]..offsets[i+1])), with each block's token and link-token counts. */
export interface BlockFingerprints {
  values: BigUint64Array;
  offsets: Uint32Array;
  /** Tokens of block j (aligned with values). */
  tokens: Uint32Array;
  /** Tokens of block j inside links. */
  links: Uint32Array;
}

/** One batch of documents written to the arena: its range [i, j), their bytes and offsets, total and longest length. */
interface DocBatch { i: number; j: number; inPtr: number; offPtr: number; bytes: number; maxLen: number }

/**
 * Runs f on batches of docs (up to 4 MiB and 4,096 documents each; at least one), each written
 * into a fresh arena; a document that is not a string or bytes is E_INPUT naming it and `what`.
 */
function forEachBatch(docs: ArrayLike<DocInput>, what: string, f: (mem: WasmMemory, k: Kernels, b: DocBatch) => void): void {
  const n = docs.length;
  let i = 0;
  while (i < n) {
    let j = i, bytes = 0;
    while (j < n && (j === i || bytes + byteBound(docs[j]) <= BATCH_BYTES) && j - i < 4096) {
      const bad = checkDoc(docs[j]);
      if (bad) throw new ResembleError('E_INPUT', `${what}: document ${j}: ${bad}`, { index: j });
      bytes += byteBound(docs[j]); j++;
    }
    const from = i;
    withArena((mem, k) => {
      const inPtr = mem.alloc(bytes);
      const offPtr = mem.alloc((j - from + 1) * 4);
      let at = 0, maxLen = 0;
      for (let d = from; d < j; d++) {
        mem.u32[(offPtr >>> 2) + d - from] = at;
        const len = writeDoc(mem, docs[d], inPtr + at);
        at += len;
        if (len > maxLen) maxLen = len;
      }
      mem.u32[(offPtr >>> 2) + j - from] = at;
      f(mem, k, { i: from, j, inPtr, offPtr, bytes: at, maxLen });
    });
    i = j;
  }
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
  let total = 0;
  // blocks are read as content mode reads pages (HTML markup, word tokens), whatever the kernels were configured for last
  const p = resolveSketchOptions({ content: 'main', markup: 'html', unit: 'word' });
  forEachBatch(docs, 'blockFingerprints', (mem, k, { i, j, inPtr, offPtr, bytes, maxLen }) => {
    configureKernels(p, k.sk_configure);
    // A document of len bytes has at most len / 4 + 1 blocks (each but the last holds a token and ends at a tag).
    const cap = (bytes >>> 2) + (j - i);
    const outPtr = mem.alloc(cap * 8);
    const outOffPtr = mem.alloc((j - i + 1) * 4);
    const tokPtr = mem.alloc((maxLen + 1) * 8);
    const countsPtr = mem.alloc(cap * 8);
    const got = checked('tp_blocks', k.tp_blocks(inPtr, offPtr, j - i, outPtr, cap, outOffPtr, tokPtr, maxLen + 1, countsPtr));
    parts.push(mem.takeU64(outPtr, got));
    countParts.push(mem.takeU32(countsPtr, 2 * got));
    for (let d = 1; d <= j - i; d++) offsets[i + d] = total + mem.u32[(outOffPtr >>> 2) + d];
    total += got;
  });
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

/**
 * The content tokens of each document, in order: the token fingerprints its content sketch
 * shingles (the blocks neither in its table nor link-heavy; a page of links keeps its link
 * blocks), for bags of words. A document marked WHOLE_PAGE gets every token, title included, as
 * `tokenFingerprints` gives them (markup 'html', word tokens). Many documents per WebAssembly call.
 * `linkDensity` and `minContent` as for content sketches.
 */
export function contentTokenFingerprints(docs: ArrayLike<DocInput>, templates: ContentTables, options: Pick<SketchOptions, 'linkDensity' | 'minContent'> = {}): BigUint64Array[] {
  const n = docs.length;
  checkContentTables(templates, n);
  const p = resolveSketchOptions({ ...options, content: 'main', markup: 'html', unit: 'word' });
  const out: BigUint64Array[] = [];
  forEachBatch(docs, 'contentTokenFingerprints', (mem, k, { i, j, inPtr, offPtr, bytes, maxLen }) => {
    configureKernels(p, k.sk_configure);
    checked('tp_configure', k.tp_configure(p.linkDensity!, p.minContent!));
    // as tk_tokens bounds them: at most 2 tokens a byte; at most len / 4 + 1 blocks a page
    const cap = 2 * bytes + (j - i);
    const outPtr = mem.alloc(cap * 8);
    const outOffPtr = mem.alloc((j - i + 1) * 4);
    const tokPtr = mem.alloc((maxLen + 1) * 8);
    const blocksCap = (maxLen >>> 2) + 1;
    const blkPtr = mem.alloc(blocksCap * 8);
    const tabPtr = mem.putU64(templates.values), tabOffPtr = mem.putU32(templates.offsets);
    const docTabPtr = mem.putU32(templates.docTable.subarray(i, j));
    checked('tp_content_tokens', k.tp_content_tokens(inPtr, offPtr, j - i, tabPtr, tabOffPtr, docTabPtr, outPtr, cap, outOffPtr, tokPtr, maxLen + 1, blkPtr, blocksCap));
    for (let d = 0; d < j - i; d++) out.push(mem.takeU64(outPtr + mem.u32[(outOffPtr >>> 2) + d] * 8, mem.u32[(outOffPtr >>> 2) + d + 1] - mem.u32[(outOffPtr >>> 2) + d]));
  });
  return out;
}
