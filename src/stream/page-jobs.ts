// What the streaming study, signatures and mirrors compute from one batch of pages, in the same
// pass that reads them: the same function runs on the calling thread (one worker) and in each
// worker of the page pool (page-worker.ts), so the result is the same for any worker count.
// Every result is a set of typed-array columns over the batch's pages, in batch order.
import { checkContentTables, contentTokenFingerprints, type ContentTables } from '../sketch/content.js';
import { resolveSketchOptions, type SketchOptions } from '../sketch/options.js';
import { fingerprintMany } from '../sketch/rabin.js';
import type { SketchColumns, SketchError } from '../sketch/sketch-set.js';
import { shingleValues } from '../sketch/shingles.js';
import { sketchMany } from '../sketch/sketch.js';
import { tokenFingerprints } from '../sketch/tokens.js';
import { bagsFromTokens, type BagsOfWords } from '../signatures/bags.js';
import { getMemory } from '../wasm/instance.js';
import { paragraphColumns, type ParagraphColumns } from '../study/columns.js';
import { htmlText } from '../study/page-text.js';
import type { ParagraphParams } from '../study/paragraphs.js';

/**
 * What to compute for each page of a batch (plain data: it is posted to workers). `html[i]` says
 * whether page i is read as HTML (its content type is HTML or unknown) or as plain text.
 */
export interface PageJob {
  /** The study: each page's visible text cut into shingle paragraphs, fingerprinted (study/columns). */
  paragraphs?: ParagraphParams;
  /**
   * Signatures: each page's bag of words. 'page': every canonical token (markup dropped for HTML
   * pages); 'text': only pages read as plain text get their bag here (HTML pages get an empty
   * one, filled later from their content tokens: `contentBags`).
   */
  bags?: 'page' | 'text';
  /** Each page's fingerprint (the core's fingerprintMany over its UTF-8 bytes). */
  fingerprints?: boolean;
  /** Each page's word-shingle values in page order (shingleValues, as u32 pairs), for the exact shingle sets. */
  shingles?: { w: number };
  /** Sketches of every page (sketchMany with these options). */
  sketch?: SketchOptions;
  /** Bags of content tokens of every page of the batch against these template tables (docTable: the batch's own). */
  contentBags?: ContentTables;
}

/** What a batch gave, column by column (each present when its job was asked for). */
export interface PageJobResult {
  /** Pages in the batch. */
  n: number;
  paragraphs?: Pick<ParagraphColumns, 'docIds' | 'offsets' | 'fps'>;
  bags?: Pick<BagsOfWords, 'offsets' | 'terms' | 'counts' | 'norms'>;
  fingerprints?: BigUint64Array;
  shingles?: { offsets: Uint32Array; words: Uint32Array };
  sketch?: { columns: SketchColumns; errors: SketchError[] };
}

const utf8 = new TextDecoder();

/** Takes a job, a batch's pages (UTF-8 bytes) and whether each is HTML; returns the batch's columns. Needs the kernels (`init` or `initSync`). */
export function runPageJob(job: PageJob, docs: readonly Uint8Array[], html: Uint8Array): PageJobResult {
  const n = docs.length;
  const out: PageJobResult = { n };
  if (job.paragraphs) {
    // As pageText: the visible text of HTML, other text types as they are; each page's text made
    // when paragraphColumns comes to it, so only one page's text is held at a time.
    const texts = new Proxy({ length: n } as ArrayLike<string>, {
      get: (target, key) => (typeof key === 'string' && /^\d+$/.test(key) ? (html[+key] ? htmlText(utf8.decode(docs[+key])) : utf8.decode(docs[+key])) : Reflect.get(target, key)),
    });
    const c = paragraphColumns(texts, job.paragraphs, fingerprintMany);
    out.paragraphs = { docIds: c.docIds, offsets: c.offsets, fps: c.fps };
  }
  if (job.bags) {
    const none = new BigUint64Array(0);
    const tokens = docs.map((d, i) => (job.bags === 'page' ? tokenFingerprints(d, { markup: html[i] ? 'html' : 'text' }) : html[i] ? none : tokenFingerprints(d, { markup: 'text' })));
    out.bags = bagColumns(bagsFromTokens(tokens));
  }
  if (job.contentBags) {
    checkContentTables(job.contentBags, n);
    out.bags = bagColumns(bagsFromTokens(contentTokenFingerprints(docs, job.contentBags)));
  }
  if (job.fingerprints) out.fingerprints = fingerprintMany(docs);
  if (job.shingles) {
    const rows = docs.map((d, i) => shingleValues(d, { w: job.shingles!.w, markup: html[i] ? 'html' : 'text' }));
    const offsets = new Uint32Array(n + 1);
    rows.forEach((r, i) => (offsets[i + 1] = offsets[i] + r.length));
    const all = new BigUint64Array(offsets[n]);
    rows.forEach((r, i) => all.set(r, offsets[i]));
    out.shingles = { offsets, words: new Uint32Array(all.buffer, 0, all.length * 2) };
  }
  if (job.sketch) {
    resolveSketchOptions(job.sketch);
    const set = sketchMany(docs, job.sketch);
    out.sketch = {
      columns: {
        values: set.values, offsets: set.offsets, cardinality: set.cardinality, tokens: set.tokens,
        modulusLog2: set.modulusLog2, rawFp: set.rawFp, lexicalFp: set.lexicalFp, shingleFp: set.shingleFp,
        signature: set.signature, superShingles: set.superShingles, templateTokens: set.templateTokens,
      },
      errors: set.errors.map((e) => ({ index: e.index, message: e.message })),
    };
  }
  return out;
}

function bagColumns(b: BagsOfWords): NonNullable<PageJobResult['bags']> {
  return { offsets: b.offsets, terms: b.terms, counts: b.counts, norms: b.norms };
}

/** Takes a result; returns the buffers its columns sit on, for a transfer list (never WebAssembly memory, which cannot be transferred). */
export function resultBuffers(r: PageJobResult): ArrayBuffer[] {
  const arrays: (ArrayBufferView | undefined)[] = [
    r.paragraphs?.docIds, r.paragraphs?.offsets, r.paragraphs?.fps,
    r.bags?.offsets, r.bags?.terms, r.bags?.counts, r.bags?.norms,
    r.fingerprints, r.shingles?.offsets, r.shingles?.words,
  ];
  const c = r.sketch?.columns;
  if (c) arrays.push(c.values, c.offsets, c.cardinality, c.tokens, c.modulusLog2, c.rawFp, c.lexicalFp, c.shingleFp, c.signature, c.superShingles?.values, c.superShingles?.offsets, c.templateTokens);
  const out = new Set<ArrayBuffer>();
  for (const a of arrays) if (a && a.buffer instanceof ArrayBuffer && !getMemory().owns(a.buffer)) out.add(a.buffer);
  return [...out];
}
