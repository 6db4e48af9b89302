/**
 * A pull reader over the pieces of an input (plain chunks or inflated gzip pieces) for the record
 * framers: lines with a length cap, exact reads, skips, and position bookkeeping (offset in the
 * inflated stream, offset of the gzip member). Damage in a gzip stream is a barrier: reads stop
 * there as at the end of the input, `barrier` says so, and `crossBarrier()` goes on after it.
 * Memory is what a caller asks for (a line up to its cap, a record), never the input's size.
 */
import { concatBytes } from './concat-bytes.js';
import type { Damage, Piece } from './gunzip.js';

const EMPTY = new Uint8Array(0);

/**
 * Index of the first `byte` in b at or after `from`, or -1: through Buffer's indexOf (a vectorized
 * search, about 40× Uint8Array's element loop on a long line).
 */
export function indexOfByte(b: Uint8Array, byte: number, from = 0): number {
  return Buffer.from(b.buffer, b.byteOffset, b.length).indexOf(byte, from);
}

/** A line as read: its bytes without the line end, or null when it was longer than the cap (then skipped). */
export interface RawLine {
  bytes: Uint8Array | null;
  /** Length in bytes including the line end. */
  length: number;
}

/** Pulls bytes from pieces; see the module comment. */
export class ByteReader {
  private buf: Uint8Array = EMPTY;
  /** Offset in the inflated stream of buf[0]. */
  private pos = 0;
  /** (inflated offset, member offset) of each piece that starts at or after pos, oldest first. */
  private members: Array<[number, number]> = [];
  /** (inflated offset, offset in the input) of the end of each member read whose end is at or after pos, oldest first. */
  private ends: Array<[number, number]> = [];
  private eof = false;
  /** The damage the reader stopped at, until `crossBarrier()`. */
  barrier: Damage | undefined;

  /**
   * `transient`: a piece's buffer may be reused once the reader has moved a few pieces past it, so
   * the parts of a line spanning pieces are copied as they are read (see openInput's `transient`).
   */
  constructor(private readonly pieces: AsyncIterator<Piece>, private readonly onDamage: (d: Damage) => void = () => {}, private readonly transient = false) {}

  /** Offset in the (inflated) stream of the next byte. */
  get position(): number {
    return this.pos;
  }

  /** Offset of the gzip member holding the next byte (call after `fill(1)`), or undefined for plain input. */
  get member(): number | undefined {
    while (this.members.length > 1 && this.members[1][0] <= this.pos) this.members.shift();
    return this.members[0]?.[1];
  }

  /** True when the next byte is the first of a gzip member (call after `fill(1)`). */
  get atMemberStart(): boolean {
    return this.member !== undefined && this.members[0][0] === this.pos;
  }

  /**
   * Takes an offset in the inflated stream; returns the offset in the input just after the gzip
   * member whose inflated bytes end exactly there, when the reader has pulled that member's end.
   */
  memberEndAt(position: number): number | undefined {
    for (const [at, end] of this.ends) if (at === position) return end;
    return undefined;
  }

  /** True when nothing more can be read before the end or a barrier. */
  get atEnd(): boolean {
    return this.buf.length === 0 && (this.eof || this.barrier !== undefined);
  }

  /** True once the whole input is read (no barrier left to cross). */
  get finished(): boolean {
    return this.buf.length === 0 && this.eof && this.barrier === undefined;
  }

  private async pull(): Promise<boolean> {
    if (this.eof || this.barrier) return false;
    for (;;) {
      const next = await this.pieces.next();
      if (next.done) {
        this.eof = true;
        return false;
      }
      const p = next.value;
      if ('damage' in p) {
        this.onDamage(p.damage);
        this.barrier = p.damage;
        return false;
      }
      const at = this.pos + this.buf.length;
      if (p.end !== undefined) {
        while (this.ends.length > 0 && this.ends[0][0] < this.pos) this.ends.shift();
        this.ends.push([at + p.bytes.length, p.end]);
      }
      if (p.bytes.length === 0) continue;
      const last = this.members[this.members.length - 1];
      if (p.member !== undefined && (!last || last[1] !== p.member)) this.members.push([at, p.member]);
      this.buf = this.buf.length === 0 ? p.bytes : concatBytes([this.buf, p.bytes]);
      return true;
    }
  }

  /** Buffers at least n bytes unless the input ends (or a barrier comes) first; returns the buffered bytes. */
  async fill(n: number): Promise<Uint8Array> {
    while (this.buf.length < n && (await this.pull()));
    return this.buf;
  }

  /** The bytes buffered now (at least what the last `fill` returned). */
  get buffered(): Uint8Array {
    return this.buf;
  }

  /** Drops n buffered bytes. */
  consume(n: number): void {
    this.buf = this.buf.subarray(n);
    this.pos += n;
  }

  /** Reads n bytes that are buffered (n at most `buffered.length`): `read` without waiting. */
  readBuffered(n: number): Uint8Array {
    const out = this.buf.subarray(0, n);
    this.consume(out.length);
    return out;
  }

  /** Reads n bytes (fewer at the end or a barrier). */
  async read(n: number): Promise<Uint8Array> {
    if (this.buf.length >= n) {
      const out = this.buf.subarray(0, n);
      this.consume(n);
      return out;
    }
    const parts: Uint8Array[] = [];
    let got = 0;
    while (got < n) {
      if (this.buf.length === 0 && !(await this.pull())) break;
      const take = this.buf.subarray(0, n - got);
      parts.push(take);
      got += take.length;
      this.consume(take.length);
    }
    return concatBytes(parts, got);
  }

  /** Skips n bytes (fewer at the end or a barrier); returns how many were skipped. */
  async skip(n: number): Promise<number> {
    let done = 0;
    while (done < n) {
      if (this.buf.length === 0 && !(await this.pull())) break;
      const k = Math.min(n - done, this.buf.length);
      this.consume(k);
      done += k;
    }
    return done;
  }

  /**
   * Reads one line (through '\n', or to the end); returns its bytes without '\n' (and a '\r' before
   * it), or bytes null when it is longer than `max` bytes: such a line is skipped without being held.
   * Returns undefined at the end (or a barrier) with nothing read.
   */
  async readLine(max: number): Promise<RawLine | undefined> {
    const parts: Uint8Array[] = [];
    let length = 0, kept = 0;
    let tooLong = false;
    for (;;) {
      if (this.buf.length === 0 && !(await this.pull())) break;
      const nl = indexOfByte(this.buf, 10);
      const take = nl < 0 ? this.buf.length : nl + 1;
      if (!tooLong) {
        if (length + take - (nl < 0 ? 0 : 1) > max) {
          tooLong = true;
          parts.length = 0;
          kept = 0;
        } else if (this.transient && (nl < 0 || kept > 0)) {
          // a line spanning pieces: its parts copied into the reader's line buffer as they come (the
          // pieces are reused), which the next line reuses: no allocation per line
          this.keepLinePart(this.buf.subarray(0, take), kept);
          kept += take;
        } else parts.push(this.buf.subarray(0, take));
      }
      length += take;
      this.consume(take);
      if (nl >= 0) break;
    }
    if (length === 0) return undefined;
    if (tooLong) return { bytes: null, length };
    let bytes = kept > 0 ? this.line.subarray(0, kept) : concatBytes(parts);
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === 10) end--;
    if (end > 0 && bytes[end - 1] === 13) end--;
    bytes = bytes.subarray(0, end);
    return { bytes, length };
  }

  /**
   * Skips a run of blank bytes (space, tab, CR, LF, vertical tab, form feed, NUL) from here: blank
   * and whitespace-only lines and runs of NUL go in one scan of the buffered bytes, with no work
   * per line, and so do the blanks that start the next line. Returns the line ends (LF) and NUL
   * bytes skipped and the bytes skipped in all. Stops at the end or a barrier.
   */
  async skipBlank(): Promise<{ newlines: number; nuls: number; bytes: number }> {
    let newlines = 0, nuls = 0, bytes = 0;
    for (;;) {
      const b = this.buf.length > 0 ? this.buf : await this.fill(1);
      const n = b.length;
      if (n === 0) break;
      let i = 0;
      for (; i < n; i++) {
        const c = b[i];
        if (c === 10) newlines++;
        else if (c === 0) nuls++;
        else if (c !== 32 && (c < 9 || c > 13)) break;
      }
      bytes += i;
      this.consume(i);
      if (i < n) break;
    }
    return { newlines, nuls, bytes };
  }

  /** The line buffer of a transient reader: a line spanning pieces is gathered here (valid until the next read). */
  private line: Uint8Array = EMPTY;

  /** Copies part of a line into the line buffer at `at`, growing it (doubling) when needed. */
  private keepLinePart(part: Uint8Array, at: number): void {
    if (at + part.length > this.line.length) {
      const grown = new Uint8Array(Math.max(at + part.length, 2 * this.line.length, 1 << 16));
      grown.set(this.line.subarray(0, at));
      this.line = grown;
    }
    this.line.set(part, at);
  }

  /**
   * Skips to the next occurrence of `needle` at the start of a line: after '\n', after a NUL byte
   * (a run of NULs, a hole in a sparse file, ends like a line), or here when `here` is true;
   * returns the bytes skipped. Stops at the end or a barrier (needle not found).
   */
  async skipToLineStart(needle: Uint8Array, here: boolean): Promise<{ skipped: number; found: boolean }> {
    let skipped = 0;
    let prev = here ? 10 : -1; // the byte before buf[0]
    for (;;) {
      const b = await this.fill(needle.length);
      if (b.length < needle.length) {
        skipped += b.length;
        this.consume(b.length);
        return { skipped, found: false };
      }
      let keep = b.length;
      for (let w = indexOfByte(b, needle[0]); w >= 0; w = indexOfByte(b, needle[0], w + 1)) {
        const before = w === 0 ? prev : b[w - 1];
        if (before !== 10 && before !== 0) continue;
        if (w + needle.length > b.length) {
          keep = w; // may start here: read more before deciding
          break;
        }
        if (startsWith(b.subarray(w), needle)) {
          skipped += w;
          this.consume(w);
          return { skipped, found: true };
        }
      }
      prev = b[keep - 1];
      skipped += keep;
      this.consume(keep);
    }
  }

  /** Puts bytes back in front of the buffer (bytes just read from it). */
  unread(bytes: Uint8Array): void {
    this.buf = this.buf.length === 0 ? bytes : concatBytes([bytes, this.buf]);
    this.pos -= bytes.length;
  }

  /** Goes on past the barrier (the damage was reported); returns false when there is nothing after it. */
  async crossBarrier(): Promise<boolean> {
    this.consume(this.buf.length);
    this.barrier = undefined;
    return (await this.fill(1)).length > 0;
  }
}

/** True when `b` starts with `needle`. */
export function startsWith(b: Uint8Array, needle: Uint8Array): boolean {
  if (b.length < needle.length) return false;
  for (let i = 0; i < needle.length; i++) if (b[i] !== needle[i]) return false;
  return true;
}
