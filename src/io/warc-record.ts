/** One WARC record → one document: header checks, block reading, decoding (warcio does the parsing). */
import { AsyncIterReader, LimitReader, WARCParser, type WARCRecord } from 'warcio';
import type { Document } from '../graph/document.js';
import { charsetFromContentType, mimeOf } from './charset.js';
import { makeDocument } from './make-document.js';
import type { ResolvedReadOptions } from './options.js';
import { isBinaryType } from './sniff.js';

// WARC/1.0 and 1.1 (ISO 28500), and the WARC/0.17-0.18 drafts early Heritrix crawls wrote.
const WARC_VERSION = /^WARC\/\d+\.\d+$/;

/** A record that breaks the reading of its file from `offset` on: reported, then reading resyncs. */
export class BrokenRecord extends Error {
  constructor(readonly offset: number, message: string) {
    super(message);
  }
}

/** Takes a parsed record; returns what is wrong with its WARC header, or undefined. */
export function headerProblem(record: WARCRecord): string | undefined {
  const line = record.warcHeaders.statusline ?? '';
  if (!WARC_VERSION.test(line)) return `malformed record header: expected a WARC/1.0 version line, got ${JSON.stringify(line.slice(0, 40))}`;
  const len = record.warcHeaders.headers.get('Content-Length');
  if (len == null || !/^\s*\d+\s*$/.test(len)) return `malformed record header: Content-Length ${JSON.stringify(len)}`;
  if (!record.warcType) return 'malformed record header: no WARC-Type';
  return undefined;
}

/** Reads (or, with `keep` false, drains) the record block; throws BrokenRecord when it is cut short. */
async function readBlock(record: WARCRecord, offset: number, keep: boolean): Promise<Uint8Array> {
  const limited = record._reader;
  let bytes: Uint8Array = new Uint8Array(0);
  if (keep) bytes = await record.readFully(false);
  else for await (const _ of limited) void _;
  if (limited instanceof LimitReader) {
    if (limited.limit > 0) throw new BrokenRecord(offset, `truncated record: ${limited.limit} bytes missing of its Content-Length`);
    if (limited.limit < 0) throw new BrokenRecord(offset, 'malformed record: HTTP headers run past the Content-Length');
  }
  return bytes;
}

/**
 * warcio's parser, with its one console warning (a record not followed by its blank line: the
 * Content-Length was too small) turned into a reported error at the record's offset. Other
 * warnings pass through to the console untouched.
 */
export class ReportingParser extends WARCParser {
  constructor(source: AsyncIterReader, private readonly report: (offset: number, message: string) => void) {
    super(source);
  }

  override async readToNextRecord(): Promise<Uint8Array | null> {
    const warn = console.warn;
    const offset = this.offset;
    console.warn = (...args: unknown[]) => {
      const m = /^Content-Length Too Small.*Remainder Length: (\d+)/s.exec(String(args[0]));
      if (m) this.report(offset, `Content-Length too small: ${m[1]} stray bytes after the record`);
      else warn(...args);
    };
    try {
      return await super.readToNextRecord();
    } finally {
      console.warn = warn;
    }
  }
}

async function decodedPayload(record: WARCRecord, raw: Uint8Array): Promise<Uint8Array> {
  const h = record.httpHeaders?.headers;
  if (!h || (!h.get('Content-Encoding') && !h.get('Transfer-Encoding'))) return raw;
  return await record.readFully(true);
}

/** Takes a record at `offset`; reads it whole and returns its document, or undefined (skipped or not a document). Throws BrokenRecord when cut short. */
export async function toDocument(record: WARCRecord, offset: number, path: string, opts: ResolvedReadOptions): Promise<Document | undefined> {
  const type = record.warcType;
  const source = `${path}#${offset}`;
  const isDoc = type === 'response' || type === 'resource';
  const contentType = type === 'response' ? record.httpHeaders?.headers.get('Content-Type') : record.warcContentType;
  const mime = mimeOf(contentType);
  const status = type === 'response' ? Number(record.httpHeaders?.statusCode) : undefined;
  const wanted = isDoc && !(mime && isBinaryType(mime)) && (status === undefined || opts.allStatuses || (status >= 200 && status < 300));
  const raw = await readBlock(record, offset, wanted);
  if (type === 'revisit') opts.onSkip({ reason: 'other', source: path, location: `offset ${offset}` });
  if (!isDoc) return undefined;
  if (!wanted) {
    opts.onSkip({ reason: mime && isBinaryType(mime) ? 'binary' : 'status', source: path, location: `offset ${offset}` });
    return undefined;
  }
  const url = record.warcTargetURI;
  if (!url) {
    opts.onError({ source: path, location: `offset ${offset}`, code: 'E_INPUT', message: `${type} record without WARC-Target-URI` });
    return undefined;
  }
  const payload = await decodedPayload(record, raw);
  const doc = makeDocument({
    url,
    bytes: new Uint8Array(payload), // a copy: a view would pin the whole read chunk in memory
    mime,
    headerCharset: charsetFromContentType(contentType),
    date: record.warcDate ?? undefined,
    ip: record.warcHeader('WARC-IP-Address') ?? undefined,
    status: status !== undefined && Number.isFinite(status) ? status : undefined,
    source,
  }, opts.links);
  if (!doc) opts.onSkip({ reason: 'binary', source: path, location: `offset ${offset}` });
  return doc;
}
