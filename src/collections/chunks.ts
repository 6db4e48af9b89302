import { fingerprintMany } from '../sketch/rabin.js';
import type { DocInput } from '../sketch/input.js';
import { sentences, textLines } from './text.js';

/** How a page is cut into chunks (Section 2.1 and 5.1). */
export interface ChunkParams {
  /**
   * 'document': one chunk per page; 'lines': one per `lines` consecutive lines (non-overlapping, as
   * the paper counts them); 'windows': every run of `lines` consecutive lines (overlapping, so one
   * inserted or edited line changes at most `lines` chunks instead of every chunk after it);
   * 'sentence': one per sentence.
   */
  unit: 'document' | 'lines' | 'windows' | 'sentence';
  /** Lines per chunk for units 'lines' and 'windows' (the paper used 4 and 2). */
  lines: number;
  /** 'html' converts markup to text lines first; 'text' takes the bytes as text. */
  markup: 'html' | 'text';
}

/** Chunk fingerprints per page: page i's are `values[offsets[i] .. offsets[i + 1])`, ascending and distinct. */
export interface ChunkColumns {
  readonly values: BigUint64Array;
  readonly offsets: Uint32Array;
  /** Fingerprint of each page's whole converted text: equal values mean equal chunk sets. */
  readonly textFp: BigUint64Array;
  /** Pages with no text (no chunk at all). */
  readonly empty: Uint8Array;
}

/** Takes a page and the chunk parameters; returns its chunks as strings (in page order, repeats kept). */
export function pageChunks(page: string, p: ChunkParams): string[] {
  const lines = textLines(page, p.markup);
  if (lines.length === 0) return [];
  if (p.unit === 'document') return [lines.join('\n')];
  if (p.unit === 'sentence') return sentences(lines);
  const out: string[] = [];
  if (p.unit === 'windows') {
    // A page of `lines` lines or fewer is one window of all of them.
    if (lines.length <= p.lines) return [lines.join('\n')];
    for (let i = 0; i + p.lines <= lines.length; i++) out.push(lines.slice(i, i + p.lines).join('\n'));
    return out;
  }
  // Non-overlapping groups of N lines, the last one possibly shorter, as the paper counts them.
  for (let i = 0; i < lines.length; i += p.lines) out.push(lines.slice(i, i + p.lines).join('\n'));
  return out;
}

/** Chunk strings handed to one `fingerprintMany` call (bounds the batch's memory). */
const BATCH_CHUNKS = 1 << 15;
const decoder = new TextDecoder('utf-8');

/**
 * Takes pages and the chunk parameters; returns each page's distinct chunk fingerprints (64-bit
 * Rabin, via the core's batched `fingerprintMany`), plus one fingerprint of its whole text.
 */
export function chunkFingerprints(pages: ArrayLike<DocInput>, p: ChunkParams): ChunkColumns {
  const n = pages.length;
  const offsets = new Uint32Array(n + 1);
  const textFp = new BigUint64Array(n);
  const empty = new Uint8Array(n);
  const rows: BigUint64Array[] = new Array(n);
  let pending: string[] = [], pendingDocs: number[] = [], pendingCounts: number[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const fps = fingerprintMany(pending);
    let at = 0;
    for (let k = 0; k < pendingDocs.length; k++) {
      const doc = pendingDocs[k], count = pendingCounts[k];
      textFp[doc] = fps[at];
      const row = fps.slice(at + 1, at + 1 + count).sort();
      let m = 0;
      for (let j = 0; j < row.length; j++) if (j === 0 || row[j] !== row[j - 1]) row[m++] = row[j];
      rows[doc] = row.subarray(0, m);
      at += 1 + count;
    }
    pending = []; pendingDocs = []; pendingCounts = [];
  };
  for (let i = 0; i < n; i++) {
    const page = pages[i];
    const chunks = pageChunks(typeof page === 'string' ? page : decoder.decode(page), p);
    if (chunks.length === 0) { empty[i] = 1; rows[i] = new BigUint64Array(0); continue; }
    // The whole text goes first; for unit 'document' it is also the one chunk.
    pending.push(p.unit === 'document' ? chunks[0] : chunks.join('\n'));
    for (const c of chunks) pending.push(c);
    pendingDocs.push(i); pendingCounts.push(chunks.length);
    if (pending.length >= BATCH_CHUNKS) flush();
  }
  flush();
  let total = 0;
  for (let i = 0; i < n; i++) { total += rows[i].length; offsets[i + 1] = total; }
  const values = new BigUint64Array(total);
  for (let i = 0; i < n; i++) values.set(rows[i], offsets[i]);
  return { values, offsets, textFp, empty };
}
