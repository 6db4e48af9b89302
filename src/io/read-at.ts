/** Bytes of a file at an offset, read synchronously: a record read back, a zip's directory. */
import { closeSync, openSync, readSync } from 'node:fs';

/** Reads `length` bytes at `position` of an open file (fewer at its end). */
export function readAt(fd: number, position: number, length: number): Uint8Array {
  const buf = new Uint8Array(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

/** Reads `length` bytes at `position` of the file at `path` (fewer at its end). */
export function readRange(path: string, position: number, length: number): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    return readAt(fd, position, length);
  } finally {
    closeSync(fd);
  }
}
