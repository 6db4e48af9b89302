/**
 * Single records read back from where the readers found them (`Document.origin`): a line of a
 * plain JSONL file, a WARC record (plain, or the gzip members holding just it), a whole file of a
 * folder. Each goes through the reader's own code (jsonlDocument, the WARC framer and toDocument,
 * folderDocument), so the document read back is the one the reader yielded, byte for byte, while
 * the file is unchanged; bytes that no longer frame as the record did come back as a message.
 */
import { closeSync, fstatSync, openSync } from 'node:fs';
import { readAt } from './read-at.js';
import { utf8Bytes, type Document, type RecordOrigin } from '../graph/document.js';
import { indexOfByte } from './byte-reader.js';
import { FileBlocks } from './file-blocks.js';
import { folderDocument } from './folder.js';
import { jsonlDocument } from './jsonl.js';
import { resolveReadOptions, type ReadOptions, type ResolvedReadOptions } from './options.js';
import { readWarcRecord } from './warc.js';

const decoder = new TextDecoder();

/**
 * Reads records back from their origins; files holding many records stay open until `close`, and
 * records near each other in a file are read through shared blocks (FileBlocks).
 */
export class RecordReader {
  private readonly opts: ResolvedReadOptions;
  private readonly fds = new Map<string, number>();
  private readonly blocks = new FileBlocks();
  /** Where a JSONL page's bytes go (default: a new buffer each); the caller may hand out views of one larger buffer. */
  pageBytes: (n: number) => Uint8Array = (n) => new Uint8Array(n);

  /** Takes the reader options of the first read (field names, statuses, schemes and the record cap decide the documents); links are not extracted. */
  constructor(options: ReadOptions = {}) {
    this.opts = { ...resolveReadOptions(plainReadOptions(options), 'RecordReader'), pageBytes: (n) => this.pageBytes(n) };
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
      if (kind === 'jsonl') {
        const line = this.line(origin);
        return typeof line === 'string' ? line : lineDocument(line, offset, path, this.opts);
      }
      const fd = this.fd(path);
      // a copy: the record is read while other records may be read through the blocks
      const bytes = this.blocks.read(fd, offset, length).slice();
      if (bytes.length !== length) return `the file ends inside the record at offset ${offset}`;
      const doc = await readWarcRecord(bytes, kind === 'warc-gz', path, this.opts);
      return doc === undefined ? `the record at offset ${offset} no longer holds a page` : doc;
    } catch (e) {
      return (e as Error).message;
    }
  }

  /**
   * Takes a JSONL record's origin; returns its line (a view into a block, valid until the next
   * read), or a message saying why it is no longer the line it was: the bytes on either side must
   * still be a line end (or the file's start, or its byte-order mark) before it, a line end or the
   * end after, and none inside. `lineDocument` makes the line its document.
   */
  line(origin: RecordOrigin): Uint8Array | string {
    const { path, offset, length } = origin;
    try {
      const from = offset === 3 ? 0 : Math.max(0, offset - 1);
      const got = this.blocks.read(this.fd(path), from, offset - from + length + 2);
      const bytes = got.subarray(offset - from, offset - from + length);
      const before = offset === 0 || (offset === 3 && got[0] === 0xef && got[1] === 0xbb && got[2] === 0xbf) || got[offset - from - 1] === 10;
      const next = got[offset - from + length], after = got[offset - from + length + 1];
      const ends = next === undefined || next === 10 || (next === 13 && (after === undefined || after === 10));
      if (bytes.length !== length || !before || !ends || indexOfByte(bytes, 10) >= 0) return `no longer a line of ${length} bytes at offset ${offset}`;
      return bytes;
    } catch (e) {
      return (e as Error).message;
    }
  }

  /** Closes the files kept open. */
  close(): void {
    this.blocks.clear();
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
  }
}

/**
 * Takes a JSONL line read back (`RecordReader.line`), its offset and file, and resolved reader
 * options; returns its document through the reader's own code (jsonlDocument: the page written to
 * `opts.pageBytes`), or a message saying why the line no longer holds a page.
 */
export function lineDocument(bytes: Uint8Array, offset: number, path: string, opts: ResolvedReadOptions): Document | string {
  try {
    const doc = jsonlDocument({ bytes, number: 0, offset, get text() { return decoder.decode(bytes); } }, path, opts);
    if (doc === null || doc === undefined) return `the line at offset ${offset} no longer holds a page`;
    return doc;
  } catch (e) {
    return (e as Error).message;
  }
}

/** Reader options a worker can take (those that decide the documents; no callbacks, no links). */
export function plainReadOptions(options: ReadOptions = {}): ReadOptions {
  const { onError: _e, onSkip: _s, onBytes: _b, onWarning: _w, pageBytes: _p, ...rest } = options;
  return { ...rest, links: false };
}

/**
 * JSONL lines read back for the exact checks, made into their pages where they are sketched (a
 * worker; the parse is most of the reading thread's work in that step): per document, the line's
 * offset in its file (NaN: the document is already a page) and the size its page had when first read.
 */
export interface LineJob {
  /** The reader options of the first read (`plainReadOptions`). */
  read: ReadOptions;
  offsets: Float64Array;
  sizes: Float64Array;
}

/**
 * Takes documents (lines where `job.offsets` is a number), the job and a scratch buffer to reuse
 * (its pages are views into it until the next call); returns the documents with each line replaced
 * by its page's UTF-8 bytes (all written to one buffer), and a message for each line that no longer
 * holds its page or holds one of another size (null in its place).
 */
export function pagesOfLines(docs: readonly (Uint8Array | null)[], job: LineJob, scratch?: { bytes: Uint8Array }): { docs: (Uint8Array | null)[]; errors: { index: number; message: string }[] } {
  let total = 0;
  for (let i = 0; i < docs.length; i++) if (docs[i] && !Number.isNaN(job.offsets[i])) total += docs[i]!.length;
  // A page is at most its line's bytes (a JSON string only shrinks when unescaped). A worker hands
  // the same scratch buffer to every batch (its pages are sketched before the next batch): a buffer
  // per batch left workers tens of MB of dead buffers between collections.
  if (scratch && scratch.bytes.length < total) scratch.bytes = new Uint8Array(total + (total >> 2));
  const slab = scratch ? scratch.bytes : new Uint8Array(total);
  let used = 0;
  const opts = { ...resolveReadOptions(job.read, 'exact checks'), pageBytes: (n: number) => (used + n <= slab.length ? slab.subarray(used, (used += n)) : new Uint8Array(n)) };
  const out = docs.slice();
  const errors: { index: number; message: string }[] = [];
  for (let i = 0; i < docs.length; i++) {
    const line = docs[i];
    if (!line || Number.isNaN(job.offsets[i])) continue;
    const doc = lineDocument(line, job.offsets[i], '', opts);
    if (typeof doc === 'string') errors.push({ index: i, message: doc });
    else if (doc.bytes.length !== job.sizes[i]) errors.push({ index: i, message: `a page of ${doc.bytes.length} bytes, was ${job.sizes[i]}` });
    else { out[i] = utf8Bytes(doc); continue; }
    out[i] = null;
  }
  return { docs: out, errors };
}
