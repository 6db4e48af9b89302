// The gzip inflater's thread (gunzip-thread.ts): compressed chunks in, as it asks for them;
// gunzipPieces' pieces out, packed a batch to one transferred buffer, while the reader has taken
// all but AHEAD of the bytes sent.
import { parentPort } from 'node:worker_threads';
import { gunzipPieces, type Piece } from './gunzip.js';
import { AHEAD, BATCH, type FromInflater, type ToInflater, type WirePiece } from './gunzip-wire.js';

const port = parentPort!;
const inbox: ToInflater[] = [];
let outstanding = 0;
// Two may wait at once: a large member's inflater reads its input (for a chunk) while its output
// waits for the reader to take bytes; every message wakes both, and each looks again.
let waiting: (() => void)[] = [];
port.on('message', (m: ToInflater) => {
  if (m.type === 'taken') outstanding -= m.bytes;
  else inbox.push(m);
  const wake = waiting;
  waiting = [];
  for (const w of wake) w();
});
const wait = () => new Promise<void>((resolve) => { waiting.push(resolve); });

let batch: Piece[] = [], batchBytes = 0;
/** Posts the pieces inflated so far, their bytes packed into one buffer. */
function flush(): void {
  if (batch.length === 0) return;
  const buffer = new ArrayBuffer(batchBytes);
  const into = new Uint8Array(buffer);
  let at = 0;
  const pieces: WirePiece[] = batch.map((p) => {
    if ('damage' in p) return p;
    into.set(p.bytes, at);
    const wire: WirePiece = { at, length: p.bytes.length };
    if (p.member !== undefined) wire.member = p.member;
    if (p.end !== undefined) wire.end = p.end;
    at += p.bytes.length;
    return wire;
  });
  outstanding += batchBytes;
  port.postMessage({ type: 'pieces', pieces, buffer } satisfies FromInflater, [buffer]);
  batch = [];
  batchBytes = 0;
}

async function* chunks(): AsyncGenerator<Uint8Array> {
  for (;;) {
    // what is inflated goes out before waiting for more input
    flush();
    port.postMessage({ type: 'want' } satisfies FromInflater);
    while (inbox.length === 0) await wait();
    const m = inbox.shift()!;
    if (m.type === 'end') return;
    if (m.type === 'chunk') yield m.bytes;
  }
}

async function run(): Promise<void> {
  try {
    for await (const p of gunzipPieces(chunks())) {
      batch.push(p);
      if ('bytes' in p) batchBytes += p.bytes.length;
      if (batchBytes >= BATCH) flush();
      while (outstanding > AHEAD) await wait();
    }
    flush();
    port.postMessage({ type: 'done' } satisfies FromInflater);
  } catch (e) {
    port.postMessage({ type: 'error', message: e instanceof Error ? e.message : String(e) } satisfies FromInflater);
  }
}
void run();
