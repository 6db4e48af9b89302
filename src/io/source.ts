/**
 * Input bytes for the readers: a file or standard input (`-`), read in chunks and inflated as a
 * stream when it is gzip (by its magic number, or a `.gz` name), handed out through a ByteReader.
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { ByteReader, concatBytes } from './byte-reader.js';
import { gunzipPieces, isGzipMagic, type Damage, type Piece } from './gunzip.js';
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
 * turn (a chunk is overwritten RING chunks later), else each in a new one.
 */
async function* fileChunks(path: string, onBytes: (n: number) => void, ring: { on: boolean }): AsyncGenerator<Uint8Array> {
  const fh = await open(path, 'r');
  try {
    const buffers: Uint8Array[] = [];
    for (let k = 0; ; k++) {
      const slot = ring.on && k > 0 ? (k - 1) % RING : -1;
      if (slot >= 0 && !buffers[slot]) buffers[slot] = new Uint8Array(CHUNK);
      const buf = slot >= 0 ? buffers[slot] : new Uint8Array(CHUNK);
      const { bytesRead } = await fh.read(buf, 0, CHUNK, null);
      if (bytesRead === 0) return;
      onBytes(bytesRead);
      yield buf.subarray(0, bytesRead);
    }
  } finally {
    await fh.close();
  }
}

/** Options of openInput. */
export interface OpenInputOptions {
  /**
   * The caller keeps no byte of the input past the next few reads (it copies what it keeps, as
   * the line readers do): chunks of a plain file are read into a small ring of reused buffers
   * instead of a new buffer each, sparing the garbage collector a gigabyte of garbage a gigabyte.
   */
  transient?: boolean;
  /** Only bytes [start, end) of the file (a file stored inside another, as a WACZ stores its WARCs). */
  range?: { start: number; end: number };
}

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
  const regular = path !== STDIN && (await stat(path).then((s) => s.isFile(), () => false));
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
  const pieces: AsyncIterator<Piece> = gzip ? gunzipPieces(all()) : plainPieces(all());
  return { reader: new ByteReader(pieces, onDamage, ring.on), gzip, head: head.subarray(0, 65536), regular };
}

async function* plainPieces(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Piece> {
  for await (const bytes of chunks) yield { bytes };
}
