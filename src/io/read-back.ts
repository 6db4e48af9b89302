/**
 * Single records read back from where the readers found them (`Document.origin`): a line of a
 * plain JSONL file, a WARC record (plain, or the gzip members holding just it), a whole file of a
 * folder. Each goes through the reader's own code (jsonlDocument, the WARC framer and toDocument,
 * folderDocument), so the document read back is the one the reader yielded, byte for byte, while
 * the file is unchanged; bytes that no longer frame as the record did come back as a message.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { Document, RecordOrigin } from '../graph/document.js';
import { indexOfByte } from './byte-reader.js';
import { folderDocument } from './folder.js';
import { jsonlDocument } from './jsonl.js';
import { resolveReadOptions, type ReadOptions, type ResolvedReadOptions } from './options.js';
import { readWarcRecord } from './warc.js';

const decoder = new TextDecoder();

/** Reads `length` bytes at `position` (fewer at the end of the file). */
function readAt(fd: number, position: number, length: number): Uint8Array {
  const buf = new Uint8Array(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

/** Reads records back from their origins; files holding many records stay open until `close`. */
export class RecordReader {
  private readonly opts: ResolvedReadOptions;
  private readonly fds = new Map<string, number>();

  /** Takes the reader options of the first read (field names, statuses, schemes and the record cap decide the documents); links are not extracted. */
  constructor(options: ReadOptions = {}) {
    const { onError: _e, onSkip: _s, onBytes: _b, onWarning: _w, pageBytes: _p, ...rest } = options;
    this.opts = resolveReadOptions({ ...rest, links: false }, 'RecordReader');
  }

  private fd(path: string): number {
    let fd = this.fds.get(path);
    if (fd === undefined) this.fds.set(path, (fd = openSync(path, 'r')));
    return fd;
  }

  /** Takes a record's origin; returns its document as the reader gave it, or a message saying why it cannot be read back as it was. */
  async read(origin: RecordOrigin): Promise<Document | string> {
    const { path, kind, offset, length } = origin;
    try {
      if (kind === 'file') {
        const fd = openSync(path, 'r');
        try {
          const size = fstatSync(fd).size;
          if (size !== length) return `the file is ${size} bytes, was ${length}`;
          const bytes = readAt(fd, 0, length);
          if (bytes.length !== length) return `the file ends after ${bytes.length} of its ${length} bytes`;
          return folderDocument(path, bytes, '', false) ?? 'the file no longer reads as a page';
        } finally {
          closeSync(fd);
        }
      }
      const fd = this.fd(path);
      if (kind === 'jsonl') {
        // The line with the bytes on either side: a line end (or the file's start, or its byte-order mark) before it, a line end or the end after.
        const from = offset === 3 ? 0 : Math.max(0, offset - 1);
        const got = readAt(fd, from, offset - from + length + 2);
        const bytes = got.subarray(offset - from, offset - from + length);
        const before = offset === 0 || (offset === 3 && got[0] === 0xef && got[1] === 0xbb && got[2] === 0xbf) || got[offset - from - 1] === 10;
        const next = got[offset - from + length], after = got[offset - from + length + 1];
        const ends = next === undefined || next === 10 || (next === 13 && (after === undefined || after === 10));
        if (bytes.length !== length || !before || !ends || indexOfByte(bytes, 10) >= 0) return `no longer a line of ${length} bytes at offset ${offset}`;
        const doc = jsonlDocument({ bytes, number: 0, offset, get text() { return decoder.decode(bytes); } }, path, this.opts);
        if (doc === null || doc === undefined) return `the line at offset ${offset} no longer holds a page`;
        return doc;
      }
      const bytes = readAt(fd, offset, length);
      if (bytes.length !== length) return `the file ends inside the record at offset ${offset}`;
      const doc = await readWarcRecord(bytes, kind === 'warc-gz', path, this.opts);
      return doc === undefined ? `the record at offset ${offset} no longer holds a page` : doc;
    } catch (e) {
      return (e as Error).message;
    }
  }

  /** Closes the files kept open. */
  close(): void {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
  }
}
