import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { AsyncIterReader } from 'warcio';
import type { Document } from '../graph/document.js';
import { gzipMembers, MAX_WINDOW } from './gzip-members.js';
import { resolveReadOptions, type ReadOptions, type ResolvedReadOptions } from './options.js';
import { findNextRecord } from './resync.js';
import { BrokenRecord, headerProblem, ReportingParser, toDocument } from './warc-record.js';

const CHUNK = 1 << 20;

async function* counted(stream: AsyncIterable<Buffer>, onBytes: (n: number) => void): AsyncGenerator<Uint8Array> {
  for await (const chunk of stream) {
    onBytes(chunk.length);
    yield chunk;
  }
}

/** The records of one inflated gzip member (normally one record); all located at the member's offset. */
async function* memberRecords(path: string, offset: number, data: Uint8Array, opts: ResolvedReadOptions): AsyncGenerator<Document> {
  const report = (message: string) => opts.onError({ source: path, location: `offset ${offset}`, code: 'E_INPUT', message });
  const parser = new ReportingParser(new AsyncIterReader([data], null), (_at, message) => report(message));
  try {
    for await (const record of parser) {
      const problem = headerProblem(record);
      if (problem) throw new BrokenRecord(offset, problem);
      const doc = await toDocument(record, offset, path, opts);
      if (doc) yield doc;
    }
  } catch (e) {
    report((e as Error).message);
  }
}

/**
 * Streams records from `start` with warcio reading the file (and inflating with its own inflater
 * when `gzip`): used for uncompressed WARCs, and for gzip members too large to inflate whole.
 * A broken record is reported and reading restarts at the next record start after it.
 */
async function* streamRecords(path: string, start: number, size: number, gzip: boolean, opts: ResolvedReadOptions): AsyncGenerator<Document> {
  while (start < size) {
    const stream = createReadStream(path, { start, highWaterMark: CHUNK });
    const reader = new AsyncIterReader(counted(stream, opts.onBytes), gzip ? 'gzip' : null);
    const parser = new ReportingParser(reader, (offset, message) =>
      opts.onError({ source: path, location: `offset ${start + offset}`, code: 'E_INPUT', message }));
    let brokenAt = -1;
    let lastGood = -1;
    // warcio falls back to reading raw bytes when inflating fails: the member being read was corrupt.
    const inflateFailed = () => gzip && reader.compressed === null;
    try {
      for await (const record of parser) {
        if (inflateFailed()) break;
        const offset = start + parser.offset;
        const problem = headerProblem(record);
        if (problem) throw new BrokenRecord(offset, problem);
        const doc = await toDocument(record, offset, path, opts);
        if (inflateFailed()) throw new BrokenRecord(offset, 'corrupt gzip member');
        lastGood = offset;
        if (doc) yield doc;
      }
      if (inflateFailed()) {
        // The failure came while looking for the next record: the broken member follows the last good record.
        const at = lastGood < 0 ? start : await findNextRecord(path, lastGood + 1, true);
        throw new BrokenRecord(at < 0 ? lastGood + 1 : at, 'corrupt gzip member');
      }
      if (gzip && reader.inflator && !reader.inflator.ended) {
        throw new BrokenRecord(start + reader.getRawOffset(), 'truncated gzip member at the end of the file');
      }
    } catch (e) {
      const offset = e instanceof BrokenRecord ? e.offset : start + parser.offset;
      opts.onError({ source: path, location: `offset ${offset}`, code: 'E_INPUT', message: (e as Error).message });
      brokenAt = offset;
    } finally {
      stream.destroy();
    }
    if (brokenAt < 0) break;
    start = await findNextRecord(path, brokenAt + 1, gzip);
    if (start < 0) break;
  }
}

/**
 * Takes a `.warc` or `.warc.gz` file; yields its `response` and `resource` records as documents
 * (URL from WARC-Target-URI, date, IP, HTTP status, content type and charset; content- and
 * transfer-encodings undone), parsed by warcio; gzip members are inflated by node:zlib. Non-2xx
 * responses, revisits and binaries are reported through `onSkip`. A malformed record header, a
 * truncated record or a corrupt gzip member is reported through `onError` with the file and
 * offset (a document's `source` is `file#offset`; in a .warc.gz, the offset of its gzip member);
 * everything before it is kept and reading resumes at the next record start (gzip member or
 * `WARC/` line) after it.
 */
export async function* readWarc(path: string, options: ReadOptions = {}): AsyncGenerator<Document> {
  yield* readWarcWith(path, resolveReadOptions(options, 'readWarc'), MAX_WINDOW);
}

/**
 * Takes a `.warc` or `.warc.gz` file; yields what `readWarc` does, with warcio streaming and
 * inflating the whole file itself (less memory for a WARC gzipped as a single stream; slower,
 * and a corrupt member's offset is found by scanning for the next gzip header).
 */
export async function* readWarcStreaming(path: string, options: ReadOptions = {}): AsyncGenerator<Document> {
  yield* readWarcWith(path, resolveReadOptions(options, 'readWarcStreaming'), 0);
}

async function* readWarcWith(path: string, opts: ResolvedReadOptions, maxWindow: number): AsyncGenerator<Document> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (e) {
    opts.onError({ source: path, location: path, code: 'E_IO', message: (e as Error).message });
    return;
  }
  if (!/\.gz$/i.test(path)) {
    yield* streamRecords(path, 0, size, false, opts);
    return;
  }
  if (maxWindow === 0) {
    yield* streamRecords(path, 0, size, true, opts);
    return;
  }
  for await (const member of gzipMembers(path, opts.onBytes, maxWindow)) {
    if ('tooLarge' in member) yield* streamRecords(path, member.offset, size, true, opts);
    else if ('error' in member) opts.onError({ source: path, location: `offset ${member.offset}`, code: 'E_INPUT', message: member.error });
    else yield* memberRecords(path, member.offset, member.data, opts);
  }
}
