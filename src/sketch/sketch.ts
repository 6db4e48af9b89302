import { optionError, ResembleError } from '../errors.js';
import { checked } from '../wasm/kernels.js';
import { getKernels, withArena } from '../wasm/instance.js';
import { checkContentTables, NO_TABLE, WHOLE_PAGE, type ContentTables } from './content-tables.js';
import { byteBound, checkDoc, writeDoc, type DocInput } from './input.js';
import { configureKernels, paramDiff, resolveSketchOptions, sameParams, type SketchOptions, type SketchParams } from './options.js';
import { kmvCardinality, SketchSet, type Sketch, type SketchError } from './sketch-set.js';
import { superShingles } from './supershingles.js';

/** Input bytes per kernel call: big enough to amortise the call, small enough to keep memory flat. */
const BATCH_BYTES = 4 << 20;
const BATCH_DOCS = 4096;
const EMPTY_TABLES: ContentTables = { values: new BigUint64Array(0), offsets: new Uint32Array(1), docTable: new Uint32Array(0) };

export interface SketchManyOptions extends SketchOptions {
  /** Called after each batch with documents done so far (for progress bars). */
  onProgress?: (done: number, total: number) => void;
  /** content 'main' only: the template table of each document's host (default: none, so only the
   *  link-density rule and the title apply). Built by `learnTemplates` / `TemplateLearner`. */
  templates?: ContentTables;
}

/** Sketches one document. */
export function sketch(doc: DocInput, options?: SketchOptions): Sketch {
  return sketchMany([doc], options).get(0);
}

/**
 * Sketches many documents, many per WebAssembly call. A document that is not a string or
 * Uint8Array is reported in `errors` with its index and gets an empty row (no values, all-zero
 * fingerprints, so it never joins a cluster); the rest go on.
 */
export function sketchMany(docs: ArrayLike<DocInput>, options: SketchManyOptions = {}): SketchSet {
  const { onProgress, templates, ...rest } = options;
  const p = resolveSketchOptions(rest);
  const n = docs.length;
  const main = p.content === 'main';
  if (templates !== undefined && !main) throw optionError('templates', "no value with content 'page' (templates apply to content 'main')", 'tables');
  if (templates) checkContentTables(templates, n);
  const kernels = getKernels();
  configureKernels(p, kernels.sk_configure);
  if (main) checked('tp_configure', kernels.tp_configure(p.linkDensity!, p.minContent!));
  const templateTokens = main ? new Uint32Array(n) : undefined;
  const errors: SketchError[] = [];
  const offsets = new Uint32Array(n + 1);
  const cardinality = new Float64Array(n);
  const tokens = new Uint32Array(n);
  const modulusLog2 = new Uint8Array(n);
  const rawFp = new BigUint64Array(n);
  const lexicalFp = new BigUint64Array(n);
  const shingleFp = new BigUint64Array(n);
  const signature = p.k > 0 ? new BigUint64Array(n * p.k) : undefined;
  const parts: BigUint64Array[] = [];
  let total = 0;

  let i = 0;
  while (i < n) {
    // choose the batch [i, j): at least one document, then up to the byte and count budgets
    let j = i, bytes = 0;
    while (j < n && j - i < BATCH_DOCS) {
      const d = docs[j];
      const b = checkDoc(d) === undefined ? byteBound(d) : 0;
      if (j > i && bytes + b > BATCH_BYTES) break;
      bytes += b; j++;
    }
    const count = j - i;
    const before = total;
    total += withArena((mem, k) => {
      const inPtr = mem.alloc(bytes);
      const offPtr = mem.alloc((count + 1) * 4);
      let at = 0, maxLen = 0;
      for (let d = 0; d < count; d++) {
        mem.u32[(offPtr >>> 2) + d] = at;
        const doc = docs[i + d];
        const bad = checkDoc(doc);
        if (bad) { errors.push({ index: i + d, message: `document ${i + d}: ${bad}` }); continue; }
        const len = writeDoc(mem, doc, inPtr + at);
        at += len;
        if (len > maxLen) maxLen = len;
      }
      mem.u32[(offPtr >>> 2) + count] = at;
      // Output bounds: MIN_s keeps ≤ s values; MOD_m keeps ≤ its shingles ≤ bytes + 1 (a token needs a byte).
      const cap = p.kind === 'min' ? count * p.s : at + count;
      const valPtr = mem.alloc(cap * 8);
      const outOffPtr = mem.alloc((count + 1) * 4);
      const infoPtr = mem.alloc(count * 48);
      const sigPtr = mem.alloc(count * p.k * 8);
      const scratchCap = p.kind === 'min' ? 0 : maxLen + 1;
      const scratchPtr = mem.alloc(scratchCap * 8);
      let countsPtr = 0;
      if (main) {
        // A page has at most maxLen tokens, and at most maxLen / 4 + 1 blocks (each but the last holds a token and ends at a tag).
        const tokPtr = mem.alloc((maxLen + 1) * 8);
        const blocksCap = (maxLen >>> 2) + 1;
        const blkPtr = mem.alloc(blocksCap * 8);
        countsPtr = mem.alloc(count * 12);
        const t = templates ?? EMPTY_TABLES;
        const tabPtr = mem.putU64(t.values), tabOffPtr = mem.putU32(t.offsets);
        const docTabPtr = mem.putU32(templates ? templates.docTable.subarray(i, j) : new Uint32Array(count).fill(NO_TABLE));
        checked('tp_sketch_batch', k.tp_sketch_batch(inPtr, offPtr, count, tabPtr, tabOffPtr, docTabPtr, valPtr, cap, outOffPtr, infoPtr, sigPtr,
          scratchPtr, scratchCap, tokPtr, maxLen + 1, blkPtr, blocksCap, countsPtr));
      } else {
        checked('sk_sketch_batch', k.sk_sketch_batch(inPtr, offPtr, count, valPtr, cap, outOffPtr, infoPtr, sigPtr, scratchPtr, scratchCap));
      }

      const u32 = mem.u32, u64 = mem.u64;
      const base = valPtr >>> 3;
      // Rows left empty: rejected documents, and in content 'main' pages with too little content (not pages sketched whole).
      const dropped = (d: number) => checkDoc(docs[i + d]) !== undefined
        || (main && u32[(countsPtr >>> 2) + 3 * d] < p.minContent! && templates?.docTable[i + d] !== WHOLE_PAGE);
      let anyDropped = false;
      for (let d = 0; d < count && !anyDropped; d++) anyDropped = dropped(d);
      let kept = 0;
      const rows = anyDropped ? new BigUint64Array(u32[(outOffPtr >>> 2) + count]) : undefined;
      for (let d = 0; d < count; d++) {
        const doc = i + d;
        const a = u32[(outOffPtr >>> 2) + d];
        let b = u32[(outOffPtr >>> 2) + d + 1];
        const drop = rows !== undefined && dropped(d);
        if (rows) {
          if (drop) b = a;
          rows.set(u64.subarray(base + a, base + b), kept);
        }
        if (templateTokens) templateTokens[doc] = u32[(countsPtr >>> 2) + 3 * d + 1] + u32[(countsPtr >>> 2) + 3 * d + 2];
        const len = b - a;
        offsets[doc + 1] = before + (rows ? kept + len : b);
        const rec = (infoPtr >>> 3) + d * 6;
        rawFp[doc] = u64[rec];
        lexicalFp[doc] = u64[rec + 1];
        shingleFp[doc] = u64[rec + 2];
        tokens[doc] = Number(u64[rec + 3]);
        modulusLog2[doc] = Number(u64[rec + 5]);
        cardinality[doc] = p.kind === 'min'
          ? (len > 0 ? kmvCardinality(len, p.s, u64[base + b - 1]) : 0)
          : Number(u64[rec + 4]);
        if (rows) {
          kept += len;
          if (drop) {
            // A page with too little content keeps its raw fingerprint (byte-identical copies are still
            // identical), its whole text's lexical fingerprint (lexically equivalent copies too), its
            // title and content's as shingle fingerprint (copies whose template text differs) and its
            // content token count; it is never compared by estimate.
            const rejected = checkDoc(docs[doc]) !== undefined;
            if (rejected) { rawFp[doc] = 0n; tokens[doc] = 0; lexicalFp[doc] = 0n; shingleFp[doc] = 0n; }
            cardinality[doc] = 0;
          }
        }
      }
      const written = rows ? kept : u32[(outOffPtr >>> 2) + count];
      parts.push(rows ? rows.slice(0, kept) : u64.slice(base, base + written));
      if (signature) signature.set(u64.subarray(sigPtr >>> 3, (sigPtr >>> 3) + count * p.k), i * p.k);
      return written;
    });
    i = j;
    onProgress?.(i, n);
  }
  const values = concat(parts, total);
  const columns = { values, offsets, cardinality, tokens, modulusLog2, rawFp, lexicalFp, shingleFp, signature, templateTokens };
  const set = new SketchSet(p, columns, errors);
  if (p.superShingle > 0) return new SketchSet(p, { ...columns, superShingles: superShingles(set, p.superShingle) }, errors);
  return set;
}

function concat(parts: BigUint64Array[], total: number): BigUint64Array {
  if (parts.length === 1) return parts[0];
  const out = new BigUint64Array(total);
  let at = 0;
  for (const part of parts) { out.set(part, at); at += part.length; }
  return out;
}

/** Rejects sketches made with different parameters (E_PARAMS), content modes included. */
export function assertComparable(a: SketchParams, b: SketchParams, what = 'sketches'): void {
  if (a === b) return;
  if (!sameParams(a, b)) throw new ResembleError('E_PARAMS', `${what} made with different parameters: ${paramDiff(a, b)}`);
}
