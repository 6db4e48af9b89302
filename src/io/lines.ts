/**
 * Lines of a text input (JSONL, URL lists; gzip inflated as a stream) with a cap on a line's
 * length: a longer line is reported and skipped without ever being held, so one 600 MB line (a
 * gzip bomb, a sparse file) costs no more memory than the cap. A UTF-8 byte-order mark before the
 * first line is dropped. Damage in a gzip stream loses the line it cuts and is reported once.
 * Blank and whitespace-only lines and runs of NUL bytes are skipped in bulk (ByteReader.skipBlank),
 * at the cost of a byte scan, not of a line each: a run with NULs in it (a hole in a sparse file,
 * padding) is reported once, the lines after it kept.
 */
import type { ReadError } from '../graph/document.js';
import type { ResolvedReadOptions } from './options.js';
import { openInput } from './source.js';

/**
 * One line of a text input (its bytes, and its text decoded when asked for) and its 1-based number.
 * The bytes (and the text's source) are valid until the next line is asked for: copy what you keep.
 */
export interface Line {
  bytes: Uint8Array;
  readonly text: string;
  number: number;
  /** Byte offset of `bytes` in the file, when the input is a plain regular file (not gzip, not standard input). */
  offset?: number;
}

const decoder = new TextDecoder();

/** Takes a byte count; returns it for a message: `612.0 MiB`, `31 KiB`, `17 bytes`. */
export function formatBytes(n: number): string {
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(1)} MiB`;
  if (n >= 1 << 10) return `${Math.round(n / 1024)} KiB`;
  return `${n} byte${n === 1 ? '' : 's'}`;
}

/** Takes the cap; returns the words saying what to do about a record over it. */
export function capAdvice(cap: number): string {
  return `longer than the record cap of ${formatBytes(cap)} (maxRecordBytes, --max-record)`;
}

/** Takes an error from reading a file; returns the ReadError reporting it at `location`. */
export function ioError(path: string, location: string, e: unknown): ReadError {
  return { source: path, location, code: 'E_IO', message: (e as Error).message };
}

/**
 * Takes a text input (path or `-`) and resolved reader options; yields its lines with their numbers.
 * Lines over `opts.maxRecordBytes`, damage and read errors are reported through `opts.onError` with
 * the file and line (or offset); every other line comes out.
 */
export async function* readLines(path: string, opts: ResolvedReadOptions): AsyncGenerator<Line> {
  let number = 0;
  try {
    const damageAt = (offset: number, message: string) => opts.onError({ source: path, location: `offset ${offset}`, code: 'E_INPUT', message: `${message}; the line in progress (line ${number + 1}) is lost` });
    // a line's bytes are used before the next is read (the readers copy what they keep): chunks reused
    const { reader, gzip, regular } = await openInput(path, opts.onBytes, (d) => damageAt(d.offset, d.message), { transient: true });
    const seekable = regular && !gzip;
    for (;;) {
      const blank = await reader.skipBlank();
      if (blank.nuls > 0) {
        opts.onError({ source: path, location: `line ${number + 1}`, code: 'E_INPUT', message: `${formatBytes(blank.nuls)} of NUL bytes (a hole or padding, not text) skipped with the blank lines around them (${formatBytes(blank.bytes)}); the next line is line ${number + blank.newlines + 1}` });
      }
      number += blank.newlines;
      const at = reader.position;
      const line = await reader.readLine(opts.maxRecordBytes);
      if (line === undefined) {
        if (reader.barrier && (await reader.crossBarrier())) continue;
        return;
      }
      number++;
      // A line cut by damage is incomplete: it was reported with the damage.
      if (reader.barrier && line.bytes !== null) continue;
      if (line.bytes === null) {
        opts.onError({ source: path, location: `line ${number}`, code: 'E_INPUT', message: `line of ${formatBytes(line.length)} is ${capAdvice(opts.maxRecordBytes)}; skipped` });
        continue;
      }
      let bytes = line.bytes, offset = at;
      if (number === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) { bytes = bytes.subarray(3); offset += 3; }
      const b = bytes;
      yield { bytes: b, number, get text() { return decoder.decode(b); }, offset: seekable ? offset : undefined };
    }
  } catch (e) {
    opts.onError(ioError(path, `line ${number + 1}`, e));
  }
}
