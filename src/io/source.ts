/**
 * Input bytes for the readers: a file or standard input (`-`), read in chunks and inflated as a
 * stream when it is gzip (by its magic number, or a `.gz` name), handed out through a ByteReader.
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { ByteReader } from './byte-reader.js';
import { concatBytes } from './concat-bytes.js';
import { gunzipPieces, isGzipMagic, type Damage, type Piece } from './gunzip.js';
import { gunzipPiecesOnThread } from './gunzip-thread.js';
import { looksBinary } from './sniff.js';

/** The name that stands for standard input. */
export const STDIN = '-';

const CHUNK = 1 << 20;
const SNIFF_BYTES = 1 << 16;

/** Takes a stream; yields its chunks as Uint8Arrays, counting them through onBytes. */
async function* chunksOf(stream: Readable, onBytes: (n: number) => void): AsyncGenerator<Uint8Array> {
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    onBytes(chunk.length);
    yield new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
  }
}

// Standard input can be read once: its first chunk is kept for sniffing its format and handed to the reader.
const stdin: { chunks?: AsyncIterator<Uint8Array>; head?: Uint8Array; stream: Readable; onBytes: (n: number) => void } = { stream: process.stdin, onBytes: () => {} };

/** Replaces the stream `-` stands for (tests); the default is process.stdin. */
export function setStdin(stream: Readable): void {
  stdin.stream = stream;
  stdin.chunks = undefined;
  stdin.head = undefined;
}

/** Returns the first chunk of standard input without consuming it (empty when it is empty). */
export async function peekStdin(): Promise<Uint8Array> {
  if (stdin.head !== undefined) return stdin.head;
  if (stdin.chunks === undefined) stdin.chunks = chunksOf(stdin.stream, (n) => stdin.onBytes(n));
  // Enough bytes to sniff the format, however the pipe cut them into chunks.
  const parts: Uint8Array[] = [];
  let size = 0;
  while (size < SNIFF_BYTES) {
    const next = await stdin.chunks.next();
    if (next.done) break;
    parts.push(next.value);
    size += next.value.length;
  }
  stdin.head = concatBytes(parts, size);
  return stdin.head;
}

/** Chunks read into and handed out from a ring of this many buffers (`transient` inputs). */
const RING = 4;

/**
 * Takes a file path; yields its chunks as Uint8Arrays, counting them through onBytes: the first in
 * a buffer of its own, the later ones, once `ring.on` is set, in a ring of RING buffers reused in
 * turn, else each in a new one. The next chunk is read while one is used, so a chunk stays as it
 * was until RING - 1 more have been handed out.
 */
async function* fileChunks(path: string, onBytes: (n: number) => void, ring: { on: boolean }): AsyncGenerator<Uint8Array> {
  const fh = await open(path, 'r');
  const buffers: Uint8Array[] = [];
  // chunk k goes to ring slot (k - 1) % RING once the ring is on (the first chunk decides it)
  const bufferFor = (k: number): Uint8Array => {
    const slot = ring.on && k > 0 ? (k - 1) % RING : -1;
    if (slot >= 0 && !buffers[slot]) buffers[slot] = new Uint8Array(CHUNK);
    return slot >= 0 ? buffers[slot] : new Uint8Array(CHUNK);
  };
  const readInto = (buf: Uint8Array) => {
    const read = fh.read(buf, 0, CHUNK, null).then(({ bytesRead }) => buf.subarray(0, bytesRead));
    // a read ahead that fails while the reader is busy is its error when it gets there, not an unhandled rejection now
    read.catch(() => undefined);
    return read;
  };
  // one chunk read ahead: the next is on its way while this one is used (the slot it fills held
  // the chunk three before this one, which the reader no longer holds)
  let next: Promise<Uint8Array> | undefined = readInto(bufferFor(0));
  try {
    for (let k = 0; ; k++) {
      const chunk = await next;
      next = undefined;
      if (chunk.length === 0) return;
      next = readInto(bufferFor(k + 1));
      onBytes(chunk.length);
      yield chunk;
    }
  } finally {
    // a read still under way finishes before the file is closed
    await next?.catch(() => undefined);
    await fh.close();
  }
}

export interface OpenInputOptions {
  /**
   * The caller keeps no byte of the input past the next few reads (it copies what it keeps, as
   * the line readers do): chunks of a plain file are read into a small ring of reused buffers
   * instead of a new buffer each, sparing the garbage collector a gigabyte of garbage a gigabyte.
   */
  transient?: boolean;
  /** Only bytes [start, end) of the file (a file stored inside another, as a WACZ stores its WARCs). */
  range?: { start: number; end: number };
  /**
   * Inflate gzip on a thread of its own while this one reads on (the same pieces either way).
   * Default: for standard input and for inputs of at least INFLATE_THREAD_BYTES, where it pays
   * for starting the thread.
   */
  inflateThread?: boolean;
}

/** Compressed inputs at least this large are inflated on a thread of their own by default. */
export const INFLATE_THREAD_BYTES = 4 << 20;

/** An opened input: its reader, whether it is gzip, and its first bytes (for sniffing the format). */
export interface OpenedInput {
  reader: ByteReader;
  gzip: boolean;
  /** Up to the first 64 KiB of the input as stored (compressed for gzip). */
  head: Uint8Array;
  /** True for a regular file (not standard input, a pipe or a device): its bytes can be read again at an offset. */
  regular: boolean;
}

/**
 * Takes a path (or `-` for standard input) and callbacks; returns a reader over its bytes, inflated
 * when gzip. Read errors (a file that vanishes, EIO) surface as exceptions from the reader's reads.
 */
export async function openInput(path: string, onBytes: (n: number) => void, onDamage: (d: Damage) => void, options: OpenInputOptions = {}): Promise<OpenedInput> {
  let head: Uint8Array;
  let chunks: AsyncIterator<Uint8Array>;
  const ring = { on: false };
  const info = path === STDIN ? undefined : await stat(path).catch(() => undefined);
  const regular = info?.isFile() === true;
  if (path === STDIN) {
    head = await peekStdin();
    chunks = stdin.chunks!;
    stdin.head = undefined;
    stdin.onBytes = onBytes;
    onBytes(head.length);
  } else {
    const range = options.range;
    chunks = range ? (range.end > range.start ? chunksOf(createReadStream(path, { highWaterMark: CHUNK, start: range.start, end: range.end - 1 }), onBytes) : (async function* () {})())
      : options.transient ? fileChunks(path, onBytes, ring) : chunksOf(createReadStream(path, { highWaterMark: CHUNK }), onBytes);
    const first = await chunks.next();
    head = first.done ? new Uint8Array(0) : first.value;
  }
  const rest = chunks;
  async function* all(): AsyncGenerator<Uint8Array> {
    if (head.length > 0) yield head;
    for (let r = await rest.next(); !r.done; r = await rest.next()) yield r.value;
  }
  // The magic number decides; a `.gz` name without it is still gzip (damaged at its start) unless the bytes are plain text.
  const gzip = isGzipMagic(head) || (head.length > 0 && /\.gz$/i.test(path) && looksBinary(head));
  // inflating holds on to its input chunks: a ring only for plain bytes
  ring.on = options.transient === true && !gzip;
  const stored = options.range ? options.range.end - options.range.start : info?.size ?? Infinity;
  const thread = options.inflateThread ?? (path === STDIN || stored >= INFLATE_THREAD_BYTES);
  // on a thread, the chunks move there: the first (kept as `head`) as a copy
  const given = async function* () { for await (const c of all()) yield c === head ? head.slice() : c; };
  const pieces: AsyncIterator<Piece> = gzip ? (thread ? gunzipPiecesOnThread(given(), { transfer: true }) : gunzipPieces(all())) : plainPieces(all());
  return { reader: new ByteReader(pieces, onDamage, ring.on), gzip, head: head.subarray(0, 65536), regular };
}

async function* plainPieces(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Piece> {
  for await (const bytes of chunks) yield { bytes };
}
