/**
 * Streaming gzip: inflates a stream of compressed chunks member by member (RFC 1952 §2.2: a gzip
 * file is one or more members), with memory bounded by the pieces in flight, never by a member's
 * size. Every member is checked against its CRC-32 and size. A truncated or corrupt member yields
 * all its bytes up to the damage, then a `damage` piece saying where and what happened; after a
 * corrupt member, inflating resumes at the next gzip member header.
 *
 * Corrupt deflate data loses nothing that inflates before it: zlib drops the output of the call in
 * which it meets the damage, so the member is inflated again from its start (recoverBeforeDamage)
 * and the failing stretch fed in ever smaller steps, down to the byte at which inflating fails,
 * which is the offset the damage reports. A CRC-32 or size mismatch is found only at the member's
 * end, after its bytes came out: they are handed out (a large member's are, as it streams), then
 * the damage.
 */
import * as zlib from 'node:zlib';
import { concatBytes } from './concat-bytes.js';

/** Where an input stream is damaged: the offset (in the compressed file) and what happened there. */
export interface Damage {
  offset: number;
  message: string;
  /** True when the input ended inside a member (truncated), false for corrupt data in the middle. */
  truncated: boolean;
}

/**
 * A piece of an inflated stream: bytes and the offset of the gzip member holding them (`end`, on a
 * member's last piece: the offset just after the member, once its trailer checked), or a damage.
 */
export type Piece = { bytes: Uint8Array; member?: number; end?: number } | { damage: Damage };

const FEXTRA = 4, FNAME = 8, FCOMMENT = 16, FHCRC = 2;

/** Takes bytes starting at a gzip member; returns its header length (RFC 1952 §2.3), or -1 when the bytes end inside it. */
export function gzipHeaderLength(b: Uint8Array): number {
  if (b.length < 10) return -1;
  const flags = b[3];
  let at = 10;
  if (flags & FEXTRA) {
    if (b.length < 12) return -1;
    at += 2 + (b[10] | (b[11] << 8));
  }
  for (const flag of [FNAME, FCOMMENT]) {
    if (!(flags & flag)) continue;
    while (at < b.length && b[at] !== 0) at++;
    at++;
  }
  if (flags & FHCRC) at += 2;
  return at <= b.length ? at : -1;
}

/** True when the bytes at `i` start a gzip member (magic and the deflate method). */
export const isGzipMagic = (b: Uint8Array, i = 0): boolean => b[i] === 0x1f && b[i + 1] === 0x8b && b[i + 2] === 0x08;

// The largest header we wait for (FEXTRA up to 64 KiB plus a name and comment); past it, garbage.
const MAX_HEADER = 1 << 18;
// Compressed bytes handed to the inflater at a time: with deflate's 1032:1 ceiling, at most ~66 MB out per piece.
const PIECE = 64 << 10;
// A member that inflates to at most this many bytes from the bytes at hand is inflated in one call.
const FAST_MAX = 4 << 20;
const FAST_WINDOW = 1 << 20;
const EMPTY = new Uint8Array(0);
// How many compressed bytes of a member are kept to search them again for the next member after
// corruption is detected: the detection comes after the damage, often inside the next member.
const MAX_REWIND = 64 << 20;

/** Compressed input: a buffer over the chunk iterator with an absolute offset and push-back. */
class Input {
  private buf: Uint8Array = EMPTY;
  private eof = false;
  // Bytes taken since mark(), so that a corrupt member can be searched again for the next header.
  private history: Uint8Array[] | undefined;
  private historyBytes = 0;
  private markedAt = 0;
  /** Absolute offset of buf[0]. */
  offset = 0;
  constructor(private readonly chunks: AsyncIterator<Uint8Array>) {}

  get buffered(): Uint8Array {
    return this.buf;
  }

  /** Buffers at least n bytes unless the input ends first; returns what is buffered. */
  async ensure(n: number): Promise<Uint8Array> {
    while (this.buf.length < n && !this.eof) {
      const next = await this.chunks.next();
      if (next.done) this.eof = true;
      else if (next.value.length > 0) this.buf = this.buf.length === 0 ? next.value : concatBytes([this.buf, next.value]);
    }
    return this.buf;
  }

  /** Up to n bytes, or null at the end of the input. */
  async take(n: number): Promise<Uint8Array | null> {
    if (this.buf.length === 0) await this.ensure(1);
    if (this.buf.length === 0) return null;
    const piece = this.buf.subarray(0, n);
    this.consume(piece.length);
    if (this.history) {
      this.history.push(piece);
      this.historyBytes += piece.length;
      if (this.historyBytes > MAX_REWIND) this.history = undefined;
    }
    return piece;
  }

  /** The bytes taken since the mark from `offset` on (the mark's bytes kept), or undefined when they were not kept. */
  keptFrom(offset: number): Uint8Array | undefined {
    if (!this.history || offset < this.markedAt || offset > this.offset) return undefined;
    return concatBytes(this.history).subarray(offset - this.markedAt);
  }

  /** Starts keeping the bytes taken from here on (up to MAX_REWIND), for `rewind`. */
  mark(): void {
    this.history = [];
    this.historyBytes = 0;
    this.markedAt = this.offset;
  }

  /** Goes back to `offset` (at or after the mark) when the bytes since the mark were kept; returns whether it could. */
  rewind(offset: number): boolean {
    if (!this.history || offset < this.markedAt || offset > this.offset) return false;
    const kept = concatBytes([...this.history, this.buf]);
    this.buf = kept.subarray(offset - this.markedAt);
    this.offset = offset;
    this.history = undefined;
    return true;
  }

  consume(n: number): void {
    this.buf = this.buf.subarray(n);
    this.offset += n;
  }

  /** Puts back the last n bytes of `piece` (the last piece taken). */
  unread(piece: Uint8Array, n: number): void {
    const back = piece.subarray(piece.length - n);
    this.buf = this.buf.length === 0 ? back : concatBytes([back, this.buf]);
    this.offset -= n;
    if (this.history) this.historyBytes -= n, this.history[this.history.length - 1] = piece.subarray(0, piece.length - n);
  }

  /** Skips to the next gzip member header after the current offset; returns the bytes skipped (the rest of the input when none). */
  async skipToMagic(): Promise<number> {
    let skipped = 0;
    for (;;) {
      const b = await this.ensure(3);
      if (b.length < 3) {
        skipped += b.length;
        this.consume(b.length);
        return skipped;
      }
      let i = 1;
      for (; i + 2 < b.length; i++) if (isGzipMagic(b, i)) break;
      skipped += i;
      this.consume(i);
      if (isGzipMagic(this.buf, 0)) return skipped;
    }
  }
}

const crc32 = (zlib as unknown as { crc32?: (d: Uint8Array, v?: number) => number }).crc32;

function trailerOf(b: Uint8Array): { crc: number; size: number } {
  const u32 = (i: number) => (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0;
  return { crc: u32(0), size: u32(4) };
}

type FastResult = { data: Uint8Array; used: number } | undefined;

/** Inflates a member whole when it ends within the bytes at hand and is small; undefined otherwise. */
function inflateFast(b: Uint8Array): FastResult {
  try {
    const r = zlib.inflateRawSync(b, { info: true, maxOutputLength: FAST_MAX } as zlib.ZlibOptions) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
    return { data: new Uint8Array(r.buffer.buffer, r.buffer.byteOffset, r.buffer.length), used: r.engine.bytesWritten };
  } catch {
    return undefined; // incomplete, too large or corrupt: the streaming path finds out which
  }
}

/** Writes one piece and resolves when the inflater has consumed it (true) or failed (false). */
function writeOne(z: zlib.InflateRaw, piece: Uint8Array): Promise<boolean> {
  return new Promise((resolve) => {
    const fail = () => done(false);
    const done = (ok: boolean) => {
      z.off('error', fail);
      z.off('close', fail);
      resolve(ok);
    };
    z.once('error', fail);
    z.once('close', fail);
    z.write(piece, (err) => done(!err));
  });
}

type MemberEnd = { ok: true } | { damage: Damage; corruptFrom?: number };

/**
 * Inflates one member's deflate data from `input` (positioned after the header), yielding output
 * pieces as the consumer pulls them; returns how the member ended. The input is left right after
 * the deflate data.
 */
async function* streamMember(input: Input, start: number, member: number): AsyncGenerator<Uint8Array, MemberEnd & { crc: number; size: number }> {
  // A sync flush after every piece hands out all it inflated, so a truncated stream loses nothing before the cut.
  const z = zlib.createInflateRaw({ chunkSize: 64 << 10, flush: zlib.constants.Z_SYNC_FLUSH });
  let sawEof = false;
  // Compressed bytes of the member the inflater took without failing: the damage is past them.
  let accepted = 0;
  const pump = (async () => {
    for (;;) {
      const piece = await input.take(PIECE);
      if (piece === null) {
        sawEof = true;
        z.end();
        return;
      }
      const before = z.bytesWritten;
      if (!(await writeOne(z, piece))) return;
      const used = z.bytesWritten - before;
      accepted += used;
      if (used < piece.length) {
        // The deflate stream ended inside this piece: the rest is the trailer and what follows.
        input.unread(piece, piece.length - used);
        z.end();
        return;
      }
    }
  })();
  let crc = 0, size = 0;
  try {
    for await (const out of z as AsyncIterable<Buffer>) {
      const bytes = new Uint8Array(out.buffer, out.byteOffset, out.length);
      if (crc32) crc = crc32(bytes, crc);
      size += bytes.length;
      yield bytes;
    }
    await pump;
    return { ok: true, crc, size };
  } catch (e) {
    await pump.catch(() => {});
    const code = (e as { code?: string }).code;
    if (sawEof && code === 'Z_BUF_ERROR') {
      return { damage: { offset: member, truncated: true, message: `truncated gzip member at offset ${member}: the input ends at offset ${input.offset} inside its compressed data (${size} bytes inflated)` }, crc, size };
    }
    const from = start + accepted;
    return { damage: { offset: member, truncated: false, message: `corrupt gzip member at offset ${member}: bad deflate data in offsets ${from}–${Math.max(from, input.offset - 1)} (${(e as Error).message})` }, corruptFrom: from, crc, size };
  } finally {
    z.close();
  }
}

// Deflate data up to this many bytes is searched for its damage with one-call inflates (bisection);
// longer, by inflating it again as a stream.
const RECOVER_SYNC = 1 << 20;
// What one of those calls may inflate; past it, the stream search.
const RECOVER_OUT = 64 << 20;
// The stream search feeds the failing stretch in steps of these sizes, one pass each.
const RECOVER_STEPS = [1024, 16, 1];

/** Inflates a prefix of deflate data in one call; returns its output, or the error zlib met (RangeError past RECOVER_OUT). */
function inflatePrefix(data: Uint8Array, n: number): Uint8Array | Error {
  try {
    const out = zlib.inflateRawSync(data.subarray(0, n), { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: RECOVER_OUT });
    return new Uint8Array(out.buffer, out.byteOffset, out.length);
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

/** What recoverBeforeDamage found: the offset in the deflate data where inflating fails, zlib's message, the bytes inflated before it. */
interface Found {
  at: number;
  message: string;
  inflated: number;
}

/**
 * Takes a member's deflate data from its start through the stretch where inflating failed, the
 * bytes of it known to inflate (`good`), and how many inflated bytes were handed out already;
 * yields (as pieces of `member`) the rest of what inflates before the damage, and returns where
 * inflating fails, or undefined when it could not be found (the stretch inflates now).
 */
async function* recoverBeforeDamage(data: Uint8Array, good: number, emitted: number, member: number): AsyncGenerator<Piece, Found | undefined> {
  const beyond = function* (out: Uint8Array, from: number): Generator<Piece> {
    if (from + out.length > emitted) {
      const bytes = out.subarray(Math.max(0, emitted - from));
      emitted += bytes.length;
      yield { bytes, member };
    }
  };
  if (data.length <= RECOVER_SYNC) {
    // Failing is monotone in the prefix (zlib fails on the first bad code it decodes): bisect for the longest prefix that inflates.
    let lo = good, hi = data.length, last: Uint8Array | undefined;
    const end = inflatePrefix(data, hi);
    if (!(end instanceof Error)) return undefined;
    let failure = end;
    while (hi - lo > 1) {
      const mid = lo + Math.floor((hi - lo) / 2);
      const r = inflatePrefix(data, mid);
      if (r instanceof RangeError) { lo = -1; break; }
      if (r instanceof Error) { hi = mid; failure = r; } else { lo = mid; last = r; }
    }
    if (lo >= 0) {
      const out = last ?? inflatePrefix(data, lo);
      if (!(out instanceof Error)) {
        yield* beyond(out, 0);
        return { at: lo, message: failure.message, inflated: out.length };
      }
    }
  }
  // The stream search: inflate again, the known part in large writes, then the failing stretch in
  // smaller and smaller steps; each pass ends at the step that fails, the next starts it over.
  let known = good, message = '', inflated = 0;
  for (const step of RECOVER_STEPS) {
    const z = zlib.createInflateRaw({ chunkSize: 64 << 10, flush: zlib.constants.Z_SYNC_FLUSH });
    const outs: Uint8Array[] = [];
    let seen = 0, failed = false;
    z.on('data', (b: Buffer) => outs.push(new Uint8Array(b.buffer, b.byteOffset, b.length)));
    z.on('error', (e: Error) => { message = e.message; });
    const drain = function* (): Generator<Piece> {
      for (const out of outs.splice(0)) {
        yield* beyond(out, seen);
        seen += out.length;
      }
    };
    try {
      for (let at = 0; at < known; at += PIECE) {
        if (!(await writeOne(z, data.subarray(at, Math.min(known, at + PIECE))))) { failed = true; break; }
        await new Promise((r) => setImmediate(r));
        yield* drain();
      }
      if (failed) return undefined; // not the same inflate as before: give up
      for (let at = known; at < data.length; at += step) {
        const ok = await writeOne(z, data.subarray(at, Math.min(data.length, at + step)));
        await new Promise((r) => setImmediate(r));
        yield* drain();
        if (!ok) { failed = true; break; }
        known = Math.min(data.length, at + step);
      }
      inflated = seen;
    } finally {
      z.close();
    }
    if (!failed) return undefined;
  }
  return { at: known, message, inflated };
}

/**
 * Takes compressed chunks (a `.gz` file or stream); yields the inflated bytes in pieces, each with
 * the offset of its gzip member, and a `damage` piece wherever the input is damaged: a member cut
 * short by the end of the input, corrupt deflate data, a CRC-32 or size mismatch, bytes that are
 * not a gzip member. After damage in the middle, inflating resumes at the next member header.
 * Small members are inflated in one native call; large ones stream, so a member inflating to
 * gigabytes holds only the pieces the consumer has not read yet.
 */
export async function* gunzipPieces(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Piece> {
  const input = new Input(chunks[Symbol.asyncIterator]());
  for (;;) {
    const member = input.offset;
    let b = await input.ensure(10);
    if (b.length === 0) return;
    if (!isGzipMagic(b)) {
      const skipped = await input.skipToMagic();
      const to = input.buffered.length > 0 ? `the next gzip member at offset ${input.offset}` : 'the end of the input';
      yield { damage: { offset: member, truncated: false, message: `not a gzip member at offset ${member}: ${skipped} bytes skipped to ${to}` } };
      continue;
    }
    let h = gzipHeaderLength(b);
    while (h < 0 && b.length < MAX_HEADER) {
      const more = await input.ensure(b.length + 1);
      if (more.length === b.length) break;
      b = await input.ensure(Math.min(MAX_HEADER, b.length * 2));
      h = gzipHeaderLength(b);
    }
    if (h < 0) {
      const truncated = b.length < MAX_HEADER;
      input.consume(b.length);
      yield { damage: { offset: member, truncated, message: truncated ? `truncated gzip member at offset ${member}: the input ends inside its header` : `corrupt gzip member at offset ${member}: header longer than ${MAX_HEADER} bytes` } };
      if (!truncated) await input.skipToMagic();
      continue;
    }
    input.consume(h);
    const start = input.offset;
    const window = await input.ensure(FAST_WINDOW);
    const fast = inflateFast(window);
    if (fast !== undefined && window.length - fast.used >= 8) {
      const trailer = trailerOf(window.subarray(fast.used, fast.used + 8));
      const crc = crc32 ? crc32(fast.data) : trailer.crc;
      if (crc !== trailer.crc || trailer.size !== fast.data.length % 2 ** 32) {
        // as a streamed member's: its bytes come out, then the damage
        if (fast.data.length > 0) yield { bytes: fast.data, member };
        yield { damage: { offset: member, truncated: false, message: `corrupt gzip member at offset ${member}: its ${crc !== trailer.crc ? 'CRC-32' : 'size'} does not match the inflated data` } };
        await input.skipToMagic();
        continue;
      }
      input.consume(fast.used + 8);
      if (fast.data.length > 0) yield { bytes: fast.data, member, end: input.offset };
      continue;
    }
    input.mark();
    const it = streamMember(input, start, member);
    let end: MemberEnd & { crc: number; size: number };
    // Each piece is handed out when the next one is inflated, so that the last can carry the member's end.
    let held: Uint8Array | undefined;
    for (;;) {
      const r = await it.next();
      if (r.done) {
        end = r.value;
        break;
      }
      if (held) yield { bytes: held, member };
      held = r.value;
    }
    if ('damage' in end) {
      if (held) yield { bytes: held, member };
      if (end.corruptFrom !== undefined) {
        // inflate again what zlib dropped with its error, down to the byte where it fails
        const data = input.keptFrom(start);
        const found = data ? yield* recoverBeforeDamage(data, end.corruptFrom - start, end.size, member) : undefined;
        if (found) end.damage.message = `corrupt gzip member at offset ${member}: bad deflate data at offset ${start + found.at} (${found.message}; ${found.inflated} bytes inflated before it)`;
      }
      yield { damage: end.damage };
      if (end.damage.truncated) return;
      // Search for the next member from just after this one's header, where the damage may begin.
      input.rewind(start);
      await input.skipToMagic();
      continue;
    }
    const t = await input.ensure(8);
    if (t.length < 8) {
      input.consume(t.length);
      if (held) yield { bytes: held, member };
      yield { damage: { offset: member, truncated: true, message: `truncated gzip member at offset ${member}: the input ends inside its 8-byte trailer` } };
      return;
    }
    const trailer = trailerOf(t);
    if ((crc32 && trailer.crc !== end.crc) || trailer.size !== end.size % 2 ** 32) {
      if (held) yield { bytes: held, member };
      yield { damage: { offset: member, truncated: false, message: `corrupt gzip member at offset ${member}: its ${trailer.crc !== end.crc ? 'CRC-32' : 'size'} does not match the inflated data` } };
      input.rewind(start);
      await input.skipToMagic();
      continue;
    }
    input.consume(8);
    if (held) yield { bytes: held, member, end: input.offset };
  }
}
