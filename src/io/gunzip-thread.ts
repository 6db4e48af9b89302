/**
 * gunzipPieces on a thread of its own: a `.warc.gz` or `.jsonl.gz` is inflated on a worker thread
 * while this thread frames records and makes pages, instead of both taking turns here. The worker
 * runs the very same gunzipPieces over the compressed chunks this thread reads and posts to it, so
 * the pieces (bytes, member offsets, damage and its messages) are the ones gunzipPieces yields
 * here; they come back packed in one transferred buffer a batch. The worker runs ahead by at most
 * AHEAD inflated bytes not yet taken (gunzip-wire.ts), so memory stays bounded by that, not by the input.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Piece } from './gunzip.js';
import { AHEAD, type FromInflater, type ToInflater, type WirePiece } from './gunzip-wire.js';
import { startWorker, workerScript } from '../workers/node.js';

let script: ReturnType<typeof workerScript> | undefined;
/** The worker script: gunzip-worker.js beside this module in the built package, the .ts sibling from sources. */
function inflaterScript(): ReturnType<typeof workerScript> {
  if (script) return script;
  const js = new URL('./gunzip-worker.js', import.meta.url);
  script = workerScript(js.protocol !== 'file:' || existsSync(fileURLToPath(js)) ? js : new URL('./gunzip-worker.ts', import.meta.url));
  return script;
}

/** Options of gunzipPiecesOnThread. */
export interface OnThreadOptions {
  /** The chunks are the caller's to give away: one that is a whole buffer moves to the worker instead of being copied (the rest are copied). Default false. */
  transfer?: boolean;
}

/**
 * Takes compressed chunks; yields what gunzipPieces(chunks) yields, inflated on a worker thread.
 * A chunk is copied to the worker as it is read (the caller may reuse its buffers), unless
 * `transfer`. An error reading the chunks is thrown here, as gunzipPieces would throw it.
 */
export async function* gunzipPiecesOnThread(chunks: AsyncIterable<Uint8Array>, options: OnThreadOptions = {}): AsyncGenerator<Piece> {
  const source = chunks[Symbol.asyncIterator]();
  const worker = startWorker(inflaterScript());
  worker.unref();
  const batches: { pieces: WirePiece[]; bytes: Uint8Array }[] = [];
  let done = false, failure: Error | undefined;
  let wake: (() => void) | undefined;
  const signal = () => { const w = wake; wake = undefined; w?.(); };
  const fail = (e: Error) => { failure ??= e; signal(); };
  // the next chunk, read when the worker asks for it (one request at a time)
  const feed = async () => {
    try {
      const next = await source.next();
      if (next.done) worker.postMessage({ type: 'end' } satisfies ToInflater);
      else {
        // a whole buffer given away moves; else only the chunk's own bytes are copied (a view may sit in a larger buffer)
        const v = next.value;
        const whole = v.byteOffset === 0 && v.byteLength === v.buffer.byteLength && v.buffer instanceof ArrayBuffer;
        const bytes = whole ? v : v.slice();
        worker.postMessage({ type: 'chunk', bytes } satisfies ToInflater, options.transfer && whole ? [v.buffer as ArrayBuffer] : []);
      }
    } catch (e) {
      fail(e instanceof Error ? e : new Error(String(e)));
    }
  };
  worker.on('message', (m: FromInflater) => {
    if (m.type === 'want') void feed();
    else if (m.type === 'pieces') { batches.push({ pieces: m.pieces, bytes: new Uint8Array(m.buffer) }); signal(); }
    else if (m.type === 'done') { done = true; signal(); }
    else fail(new Error(m.message));
  });
  worker.on('error', fail);
  worker.on('exit', (code) => { if (!done) fail(new Error(`the gzip inflater thread exited with code ${code}`)); });
  // bytes taken and not yet told: told a few batches at a time, and always before waiting
  let taken = 0;
  const tell = () => { if (taken > 0) worker.postMessage({ type: 'taken', bytes: taken } satisfies ToInflater); taken = 0; };
  try {
    for (;;) {
      const batch = batches.shift();
      if (batch) {
        for (const p of batch.pieces) {
          if ('damage' in p) yield p;
          else {
            taken += p.length;
            const piece: Piece = { bytes: batch.bytes.subarray(p.at, p.at + p.length) };
            if (p.member !== undefined) piece.member = p.member;
            if (p.end !== undefined) piece.end = p.end;
            yield piece;
          }
        }
        if (taken >= AHEAD >> 2) tell();
        continue;
      }
      if (failure) throw failure;
      if (done) return;
      tell();
      // the worker keeps the process alive only while this thread waits for it
      worker.ref();
      await new Promise<void>((resolve) => { wake = resolve; });
      worker.unref();
    }
  } finally {
    await worker.terminate();
    await source.return?.();
  }
}
