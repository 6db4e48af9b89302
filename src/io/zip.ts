/**
 * The central directory of a zip file (ZIP64 included): the entries' names and where their bytes
 * lie. Enough to read the WARC files of a WACZ, which stores them uncompressed (method 0) so that
 * a record can be read at an offset; nothing here inflates.
 */
import { closeSync, fstatSync, openSync } from 'node:fs';
import { readAt } from './read-at.js';

/** One entry: its name, compression method (0 stored, 8 deflated), and the offset and size of its bytes as stored. */
export interface ZipEntry {
  name: string;
  method: number;
  offset: number;
  size: number;
}

const u16 = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const u32 = (b: Uint8Array, at: number) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
const u64 = (b: Uint8Array, at: number) => u32(b, at) + u32(b, at + 4) * 2 ** 32;
const sig = (b: Uint8Array, at: number, s: number) => at >= 0 && at + 4 <= b.length && u32(b, at) === s;

/** Takes a zip file's path; returns its entries in directory order, or throws an Error saying what is wrong. */
export function zipEntries(path: string): ZipEntry[] {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    // the end of central directory record: 22 bytes and a comment of up to 64 KiB, at the end
    const tailFrom = Math.max(0, size - (22 + 65535 + 20));
    const tail = readAt(fd, tailFrom, size - tailFrom);
    let eocd = -1;
    for (let i = tail.length - 22; i >= 0; i--) if (sig(tail, i, 0x06054b50)) { eocd = i; break; }
    if (eocd < 0) throw new Error('not a zip file: no end of central directory record');
    let count = u16(tail, eocd + 10);
    let dirSize = u32(tail, eocd + 12);
    let dirOffset = u32(tail, eocd + 16);
    // ZIP64: the locator just before points at the 64-bit record
    if (sig(tail, eocd - 20, 0x07064b50)) {
      const at = u64(tail, eocd - 20 + 8);
      const rec = readAt(fd, at, 56);
      if (!sig(rec, 0, 0x06064b50)) throw new Error('broken zip: the ZIP64 end of central directory record is not where its locator says');
      count = u64(rec, 32);
      dirSize = u64(rec, 40);
      dirOffset = u64(rec, 48);
    }
    if (dirOffset + dirSize > size) throw new Error(`broken zip: its central directory (${dirSize} bytes at ${dirOffset}) lies past the end of the file (${size} bytes)`);
    const dir = readAt(fd, dirOffset, dirSize);
    const entries: ZipEntry[] = [];
    let at = 0;
    for (let k = 0; k < count; k++) {
      if (!sig(dir, at, 0x02014b50)) throw new Error(`broken zip: central directory entry ${k} not found`);
      const method = u16(dir, at + 10);
      let csize = u32(dir, at + 20);
      const usize = u32(dir, at + 24);
      const nameLen = u16(dir, at + 28), extraLen = u16(dir, at + 30), commentLen = u16(dir, at + 32);
      let local = u32(dir, at + 42);
      const name = new TextDecoder().decode(dir.subarray(at + 46, at + 46 + nameLen));
      // ZIP64 extra field: the 64-bit values of those that read 0xffffffff, in order
      for (let e = at + 46 + nameLen; e + 4 <= at + 46 + nameLen + extraLen;) {
        const id = u16(dir, e), len = u16(dir, e + 2);
        if (id === 0x0001) {
          let f = e + 4;
          if (usize === 0xffffffff) f += 8;
          if (csize === 0xffffffff) { csize = u64(dir, f); f += 8; }
          if (local === 0xffffffff) local = u64(dir, f);
        }
        e += 4 + len;
      }
      const head = readAt(fd, local, 30);
      if (!sig(head, 0, 0x04034b50)) throw new Error(`broken zip: the local header of ${name} is not at offset ${local}`);
      entries.push({ name, method, offset: local + 30 + u16(head, 26) + u16(head, 28), size: csize });
      at += 46 + nameLen + extraLen + commentLen;
    }
    return entries;
  } finally {
    closeSync(fd);
  }
}
