/**
 * The collection as the duplicate study sees it: per considered document, the multiset of its
 * shingle paragraphs as sorted 64-bit fingerprints (CSR). Documents under `minChars` or with no
 * paragraph are left out (Pereira et al. §4). Two distinct paragraphs sharing a 64-bit fingerprint
 * would be taken as equal; at the Rabin fingerprint's collision rate this is ignored.
 */
import { paragraphsOf, type ParagraphParams } from './paragraphs.js';

/** Fingerprints many strings at once (the core's `fingerprintMany`); one value per input. */
export type FingerprintMany = (texts: string[]) => BigUint64Array;

/** Paragraph fingerprints of the considered documents, as columns. */
export interface ParagraphColumns {
  /** Number of input documents (DocIds 0 .. docCount − 1). */
  docCount: number;
  /** Position → DocId of each considered document, ascending. */
  docIds: Uint32Array;
  /** Position i's paragraphs are `fps[offsets[i] .. offsets[i + 1])`, sorted ascending. */
  offsets: Uint32Array;
  fps: BigUint64Array;
  /** The same fingerprints as u32 halves (platform byte order; HI / LO of sketch/columns say which is which), for typed tables. */
  words: Uint32Array;
}

/** Paragraph strings handed to one `fingerprintMany` call: bounds the batch's memory. */
const BATCH = 1 << 16;

/**
 * Takes texts per DocId (undefined = no text), validated paragraph parameters and the batched
 * fingerprinter; returns the considered documents' paragraph multisets as columns.
 */
export function paragraphColumns(texts: ArrayLike<string | undefined>, params: ParagraphParams, fingerprintMany: FingerprintMany): ParagraphColumns {
  const docIds: number[] = [];
  const counts: number[] = [];
  const fpChunks: BigUint64Array[] = [];
  let pending: string[] = [];
  let total = 0;
  const flush = () => {
    if (pending.length === 0) return;
    const out = fingerprintMany(pending);
    if (out.length !== pending.length) throw new RangeError(`fingerprintMany returned ${out.length} values for ${pending.length} inputs`);
    fpChunks.push(out);
    pending = [];
  };
  for (let d = 0; d < texts.length; d++) {
    const text = texts[d];
    if (text === undefined) continue;
    const paragraphs = paragraphsOf(text, params);
    if (paragraphs === null || paragraphs.length === 0) continue;
    docIds.push(d);
    counts.push(paragraphs.length);
    total += paragraphs.length;
    for (const p of paragraphs) {
      pending.push(p);
      if (pending.length >= BATCH) flush();
    }
  }
  flush();
  const fps = new BigUint64Array(total);
  let at = 0;
  for (const chunk of fpChunks) {
    fps.set(chunk, at);
    at += chunk.length;
  }
  const offsets = new Uint32Array(counts.length + 1);
  for (let i = 0; i < counts.length; i++) {
    offsets[i + 1] = offsets[i] + counts[i];
    fps.subarray(offsets[i], offsets[i + 1]).sort();
  }
  return { docCount: texts.length, docIds: Uint32Array.from(docIds), offsets, fps, words: new Uint32Array(fps.buffer, fps.byteOffset, fps.length * 2) };
}

/** Takes per-document paragraph fingerprint lists; returns columns (every document considered). For tests and callers with their own paragraphs. */
export function columnsFromFingerprints(lists: ReadonlyArray<ArrayLike<bigint>>): ParagraphColumns {
  const offsets = new Uint32Array(lists.length + 1);
  for (let i = 0; i < lists.length; i++) offsets[i + 1] = offsets[i] + lists[i].length;
  const fps = new BigUint64Array(offsets[lists.length]);
  for (let i = 0; i < lists.length; i++) {
    fps.set(Array.from(lists[i]), offsets[i]);
    fps.subarray(offsets[i], offsets[i + 1]).sort();
  }
  const docIds = new Uint32Array(lists.length);
  for (let i = 0; i < lists.length; i++) docIds[i] = i;
  return { docCount: lists.length, docIds, offsets, fps, words: new Uint32Array(fps.buffer, fps.byteOffset, fps.length * 2) };
}
