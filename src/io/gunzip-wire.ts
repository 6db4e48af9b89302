// What the reading thread and the gzip inflater's thread (gunzip-thread.ts, gunzip-worker.ts) say to each other.
import type { Damage } from './gunzip.js';

/** Inflated bytes the worker may hold out ahead of the reader, at most (plus one batch). */
export const AHEAD = 8 << 20;
/** Inflated bytes a batch of pieces holds before it is posted (or fewer, when the worker waits for input). */
export const BATCH = 1 << 20;

/** A piece on the wire: its bytes at [at, at + length) of the batch's buffer, or a damage. */
export type WirePiece = { at: number; length: number; member?: number; end?: number } | { damage: Damage };

/** Messages to the inflater: a compressed chunk, the end of the input, or bytes taken by the reader. */
export type ToInflater = { type: 'chunk'; bytes: Uint8Array } | { type: 'end' } | { type: 'taken'; bytes: number };

/** Messages from the inflater: it wants the next chunk; a batch of pieces; the end; an error. */
export type FromInflater =
  | { type: 'want' }
  | { type: 'pieces'; pieces: WirePiece[]; buffer: ArrayBuffer }
  | { type: 'done' }
  | { type: 'error'; message: string };

