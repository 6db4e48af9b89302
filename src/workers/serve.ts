// The worker side, shared by the Node and browser worker scripts: instantiate the module the pool
// sent, then answer each batch with the same sketchMany / fingerprintMany / template learning the
// main thread would run, and each chunk of pairs (or range of documents to walk for them) with the
// same MIN_s kernel.
import { ResembleError } from '../errors.js';
import { estimateMinChunk } from '../cluster/estimate.js';
import { walkPairs } from '../cluster/walk.js';
import { fingerprintMany } from '../sketch/rabin.js';
import { learnFromPages } from '../template/learn.js';
import { sketchMany } from '../sketch/sketch.js';
import { getMemory } from '../wasm/instance.js';
import { initSync } from '../wasm/source.js';
import { buffersOf, unpackBatch, type FromWorker, type ToWorker } from './protocol.js';
import type { LineJob } from '../io/read-back.js';

let initError: unknown;

/** Makes a batch's JSONL lines read back into their pages (`pagesOfLines`: Node workers only). */
export type LinePages = (docs: readonly (Uint8Array | null)[], job: LineJob) => { docs: (Uint8Array | null)[]; errors: { index: number; message: string }[] };

/** Handles one message from the pool; returns the reply and the buffers to transfer with it (none for init). */
export function serve(msg: ToWorker, linePages?: LinePages): { reply: FromWorker; transfer: ArrayBuffer[] } | undefined {
  if (msg.type === 'init') {
    try { initSync(msg.module); } catch (e) { initError = e; }
    return undefined;
  }
  try {
    if (initError) throw initError;
    if (msg.type === 'estimate' && msg.walk) {
      // the range's pairs, walked here, then estimated; only the pairs the estimates keep go back
      const w = walkPairs(msg.walk);
      const e = estimateMinChunk(msg.rows, w.a, w.b, msg.s, msg.floor);
      const k = e.index.length;
      const walked = { a: new Uint32Array(k), b: new Uint32Array(k), hits: new Uint32Array(k), candidates: w.candidates };
      for (let j = 0; j < k; j++) { const i = e.index[j]; walked.a[j] = w.a[i]; walked.b[j] = w.b[i]; walked.hits[j] = w.hits[i]; e.index[j] = j; }
      return { reply: { type: 'estimate', id: msg.id, estimates: e, walked },
        transfer: buffersOf([e.index, e.shared, e.resemblance, e.containmentAB, e.containmentBA, walked.a, walked.b, walked.hits]) };
    }
    if (msg.type === 'estimate') {
      const estimates = estimateMinChunk(msg.rows, msg.a, msg.b, msg.s, msg.floor);
      const e = estimates;
      return { reply: { type: 'estimate', id: msg.id, estimates }, transfer: buffersOf([e.index, e.shared, e.resemblance, e.containmentAB, e.containmentBA]) };
    }
    let docs = unpackBatch(msg);
    let lineErrors: { index: number; message: string }[] | undefined;
    if (msg.type === 'sketch' && msg.lines) {
      if (!linePages) throw new ResembleError('E_INPUT', 'JSONL lines are read back on Node workers only');
      ({ docs, errors: lineErrors } = linePages(docs, msg.lines));
    }
    // the input buffer goes back to the pool once the batch is done (nothing here keeps a view of it)
    const spare = msg.bytes.buffer instanceof ArrayBuffer ? msg.bytes.buffer : undefined;
    // results are copies out of WebAssembly memory; never list the memory itself for transfer
    const transferable = (arrays: (ArrayBufferView | undefined)[]) => buffersOf(arrays).filter((b) => !getMemory().owns(b));
    if (msg.type === 'fingerprint') {
      const fingerprints = fingerprintMany(docs as Uint8Array[]);
      return { reply: { type: 'fingerprint', id: msg.id, fingerprints, spare }, transfer: [...transferable([fingerprints]), ...(spare ? [spare] : [])] };
    }
    if (msg.type === 'template') {
      const { key, share, heavy } = msg.template!;
      const { table, site } = learnFromPages(docs as Uint8Array[], key, share, heavy);
      return { reply: { type: 'template', id: msg.id, table, site, spare }, transfer: [...transferable([table]), ...(spare ? [spare] : [])] };
    }
    const set = sketchMany(docs as Uint8Array[], msg.options);
    const columns = {
      values: set.values, offsets: set.offsets, cardinality: set.cardinality, tokens: set.tokens,
      modulusLog2: set.modulusLog2, rawFp: set.rawFp, lexicalFp: set.lexicalFp, shingleFp: set.shingleFp,
      signature: set.signature, superShingles: set.superShingles, templateTokens: set.templateTokens,
    };
    const transfer = transferable([columns.values, columns.offsets, columns.cardinality, columns.tokens, columns.modulusLog2,
      columns.rawFp, columns.lexicalFp, columns.shingleFp, columns.signature, columns.superShingles?.values, columns.superShingles?.offsets,
      columns.templateTokens]);
    if (spare) transfer.push(spare);
    return { reply: { type: 'sketch', id: msg.id, columns, spare, ...(lineErrors?.length ? { lineErrors } : {}) }, transfer };
  } catch (e) {
    const code = e instanceof ResembleError ? e.code : undefined;
    return { reply: { type: 'error', id: msg.id, code, message: e instanceof Error ? e.message : String(e) }, transfer: [] };
  }
}
