import { open, type FileHandle } from 'node:fs/promises';
import * as zlib from 'node:zlib';

/** One gzip member of a file: its offset and inflated bytes, or what was wrong with it. */
export type GzipMember =
  | { offset: number; data: Uint8Array }
  | { offset: number; error: string }
  /** The member is larger than the largest window: the caller streams the rest of the file. */
  | { offset: number; tooLarge: true };

// A WARC.gz holds one member per record (WARC 1.1 annex D), typically KB to a few MB; members
// are inflated whole from a window of the file. A member beyond MAX_WINDOW compressed bytes (a
// whole WARC gzipped as one stream) is left to a streaming reader.
const WINDOW = 8 << 20;
/** The largest gzip member inflated whole (compressed bytes); larger ones are streamed. */
export const MAX_WINDOW = 64 << 20;
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

const isMagic = (b: Uint8Array, i: number) => b[i] === 0x1f && b[i + 1] === 0x8b && b[i + 2] === 0x08;

/** Reads file bytes [from, from + n) (fewer at the end of the file). */
async function readAt(fh: FileHandle, from: number, n: number, size: number): Promise<Uint8Array> {
  const buf = new Uint8Array(Math.max(0, Math.min(n, size - from)));
  let got = 0;
  while (got < buf.length) {
    const { bytesRead } = await fh.read(buf, got, buf.length - got, from + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return buf.subarray(0, got);
}

/**
 * Takes a gzip file; yields its members in order, each inflated with node:zlib (native, several
 * times faster than a JS inflater) and checked against its CRC-32 where node:zlib offers crc32.
 * A corrupt or truncated member is yielded as an error at its offset and the next member is
 * looked for after it, so one bad member loses only itself.
 */
export async function* gzipMembers(path: string, onBytes: (n: number) => void = () => {}, maxWindow = MAX_WINDOW): AsyncGenerator<GzipMember> {
  const fh = await open(path, 'r');
  try {
    const size = (await fh.stat()).size;
    let bufStart = 0;
    let buf: Uint8Array = new Uint8Array(0);
    const view = async (from: number, n: number) => {
      if (from < bufStart || Math.min(from + n, size) > bufStart + buf.length) {
        bufStart = from;
        buf = await readAt(fh, from, Math.max(n, WINDOW), size);
      }
      return buf.subarray(from - bufStart);
    };
    const nextMagic = async (from: number): Promise<number> => {
      for (let at = from; at < size; at += WINDOW - 2) {
        const b = await view(at, WINDOW);
        for (let i = 0; i + 2 < b.length; i++) if (isMagic(b, i)) return at + i;
        if (b.length < 3) break;
      }
      return size;
    };
    let p = 0;
    let reported = 0;
    while (p < size) {
      let b = await view(p, Math.min(WINDOW, maxWindow));
      const bad = async (error: string) => {
        const next = await nextMagic(p + 1);
        return { member: { offset: p, error } as GzipMember, next };
      };
      let outcome: { member: GzipMember; next: number };
      const h = isMagic(b, 0) ? gzipHeaderLength(b) : -2;
      if (h === -2) outcome = await bad('not a gzip member header');
      else if (h === -1) outcome = await bad('truncated gzip member header');
      else {
        let window = Math.min(WINDOW, maxWindow);
        let inflated: { buffer: Buffer; engine: zlib.InflateRaw } | undefined;
        let error: string | undefined;
        for (;;) {
          try {
            inflated = zlib.inflateRawSync(b.subarray(h, window), { info: true }) as unknown as { buffer: Buffer; engine: zlib.InflateRaw };
            break;
          } catch (e) {
            const ended = p + Math.min(b.length, window) >= size;
            if ((e as { code?: string }).code !== 'Z_BUF_ERROR' || ended) {
              error = ended ? 'truncated gzip member at the end of the file' : `corrupt gzip member: ${(e as Error).message}`;
              break;
            }
            if (window >= maxWindow) {
              yield { offset: p, tooLarge: true };
              return;
            }
            window *= 2;
            b = await view(p, window);
          }
        }
        if (inflated === undefined) outcome = await bad(error!);
        else {
          const end = p + h + inflated.engine.bytesWritten + 8;
          const data = new Uint8Array(inflated.buffer.buffer, inflated.buffer.byteOffset, inflated.buffer.length);
          if (end > size) outcome = await bad('truncated gzip member: trailer missing');
          else {
            const t = end - 8 - p;
            const crc = (b[t] | (b[t + 1] << 8) | (b[t + 2] << 16) | (b[t + 3] << 24)) >>> 0;
            const crc32 = (zlib as { crc32?: (d: Uint8Array) => number }).crc32;
            outcome = crc32 && crc32(data) !== crc
              ? { member: { offset: p, error: 'gzip member CRC-32 mismatch' }, next: end }
              : { member: { offset: p, data }, next: end };
          }
        }
      }
      yield outcome.member;
      onBytes(outcome.next - reported);
      reported = outcome.next;
      p = outcome.next;
    }
  } finally {
    await fh.close();
  }
}
