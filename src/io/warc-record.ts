/**
 * One framed WARC record → one document: header fields (decoded as UTF-8, so IRIs survive), the
 * HTTP status line and headers of a response (parsed as warcio parses them: http-head.ts),
 * transfer- and content-encodings undone within the record cap, the target URI checked (http(s)
 * only unless `anyScheme`).
 */
import { isIP } from 'node:net';
import * as zlib from 'node:zlib';
import type { Document } from '../graph/document.js';
import { concatBytes } from './concat-bytes.js';
import { isHttpUrl, normalizeUrl, parseUrl } from '../graph/url.js';
import { charsetFromContentType, mimeOf } from './charset.js';
import { capAdvice } from './lines.js';
import { parseHttpHead } from './http-head.js';
import { makeDocument } from './make-document.js';
import type { ResolvedReadOptions, SkipEvent } from './options.js';
import { isBinaryType } from './sniff.js';

/** WARC header fields by lowercased name, values decoded as UTF-8 (repeated fields joined by ', '). */
export type WarcHeaders = Map<string, string>;

/** A framed record: where it starts, its version line, header fields and block bytes. */
export interface WarcRecordBytes {
  /** The record's location: its byte offset (plain WARC) or its gzip member's offset (`.warc.gz`). */
  offset: number;
  version: string;
  headers: WarcHeaders;
  block: Uint8Array;
  /** Where the record can be read back alone (a cleanly framed record of a regular file; in `.warc.gz`, gzip members holding just it). */
  origin?: { kind: 'warc' | 'warc-gz'; offset: number; length: number };
}

const utf8 = new TextDecoder();
const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Takes the header lines after the version line; returns the fields (continuation lines folded), or a message. */
export function parseWarcHeaders(lines: readonly Uint8Array[]): WarcHeaders | string {
  return parseWarcHeaderText(lines.map((raw) => utf8.decode(raw)));
}

/** parseWarcHeaders on the lines already decoded (each as UTF-8 on its own, without its line end). */
export function parseWarcHeaderText(lines: readonly string[]): WarcHeaders | string {
  const headers: WarcHeaders = new Map();
  let last: string | undefined;
  for (const line of lines) {
    if ((line[0] === ' ' || line[0] === '\t') && last !== undefined) {
      headers.set(last, `${headers.get(last)} ${line.trim()}`);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) return `malformed record header: expected "Name: value", got ${JSON.stringify(line.slice(0, 60))}`;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const before = headers.get(name);
    headers.set(name, before !== undefined ? `${before}, ${value}` : value);
    last = name;
  }
  return headers;
}

/** Takes a header value decoded byte-per-character (Latin-1); returns it as UTF-8 when its bytes are valid UTF-8. */
function latin1AsUtf8(value: string): string {
  if (!/[\x80-\xff]/.test(value) || /[^\x00-\xff]/.test(value)) return value;
  try {
    return fatalUtf8.decode(Uint8Array.from(value, (c) => c.charCodeAt(0)));
  } catch {
    return value;
  }
}

/** Undoes `Transfer-Encoding: chunked`; returns undefined when the chunks are malformed (the raw bytes are kept then). */
export function dechunk(b: Uint8Array): Uint8Array | undefined {
  const parts: Uint8Array[] = [];
  let at = 0;
  let total = 0;
  for (;;) {
    const nl = b.indexOf(10, at);
    if (nl < 0) return undefined;
    const size = parseInt(utf8.decode(b.subarray(at, nl)).split(';')[0].trim(), 16);
    if (!Number.isFinite(size) || size < 0) return undefined;
    at = nl + 1;
    if (size === 0) break;
    if (at + size > b.length) return undefined;
    parts.push(b.subarray(at, at + size));
    total += size;
    at += size;
    if (b[at] === 13) at++;
    if (b[at] === 10) at++;
  }
  return concatBytes(parts, total);
}

/** Undoes a Content-Encoding within `cap` bytes; returns the bytes, 'too-large', or undefined when it does not decode (raw kept). */
function decodeContent(encoding: string, b: Uint8Array, cap: number): Uint8Array | 'too-large' | undefined {
  const opts = { maxOutputLength: cap } as zlib.ZlibOptions;
  try {
    let out: Buffer;
    if (encoding === 'gzip' || encoding === 'x-gzip') out = zlib.gunzipSync(b, { ...opts, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    else if (encoding === 'deflate') {
      try {
        out = zlib.inflateSync(b, opts);
      } catch (e) {
        if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw e;
        out = zlib.inflateRawSync(b, opts); // servers often send raw deflate under this name
      }
    } else if (encoding === 'br') out = zlib.brotliDecompressSync(b, opts as zlib.BrotliOptions);
    else return undefined;
    return new Uint8Array(out.buffer, out.byteOffset, out.length);
  } catch (e) {
    return (e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError ? 'too-large' : undefined;
  }
}

/** Text types a web crawl fetches that are not pages: stylesheets, scripts, JSON, source maps, web manifests. */
const NOT_PAGE = /^(text\/css|text\/javascript|application\/(x-)?javascript|text\/ecmascript|application\/ecmascript|application\/(ld\+|manifest\+)?json|text\/json)$/;

/** Takes a record's MIME type and URL path; returns true when it is a web crawl's text that is not a page (see `allText`). */
export function isNotPage(mime: string | undefined, path: string): boolean {
  if (mime !== undefined && NOT_PAGE.test(mime)) return true;
  if (/\.(css|m?js|map)$/i.test(path) && (mime === undefined || mime === 'text/plain')) return true;
  return /^\/robots\.txt$/i.test(path) && (mime === undefined || mime === 'text/plain');
}

/** Record types whose block is a page: `response` (HTTP), `resource` (the bytes as they are), `conversion` (extracted text, WET). */
const DOCUMENT_TYPES = new Set(['response', 'resource', 'conversion']);

/** Takes a framed record; returns its document, or undefined when it is skipped (reported) or not a page. */
export function toDocument(record: WarcRecordBytes, path: string, opts: ResolvedReadOptions): Document | undefined {
  const type = record.headers.get('warc-type') ?? '';
  const location = `offset ${record.offset}`;
  const skip = (reason: 'binary' | 'status' | 'redirect' | 'not-page' | 'url' | 'metadata' | 'revisit' | 'other', message?: string, more: Partial<SkipEvent> = {}) => {
    opts.onSkip(message === undefined ? { reason, source: path, location, ...more } : { reason, source: path, location, message, ...more });
    return undefined;
  };
  const error = (message: string) => {
    opts.onError({ source: path, location, code: 'E_INPUT', message });
    return undefined;
  };
  if (type === 'revisit') return skip('revisit'); // resolved by the reader, which knows the records before it (warc.ts)
  if (type === 'metadata') return skip('metadata');
  if (!DOCUMENT_TYPES.has(type)) return undefined;
  const rawUri = record.headers.get('warc-target-uri');
  if (!rawUri) return error(`${type} record without WARC-Target-URI`);
  const uri = rawUri.startsWith('<') && rawUri.endsWith('>') ? rawUri.slice(1, -1) : rawUri;
  const parsed = parseUrl(uri);
  if (!opts.anyScheme && (!parsed || !isHttpUrl(parsed))) {
    // routine records, counted but not said one by one: the dns: lookup per host of Heritrix and ARC
    // files, Browsertrix's urn:pageinfo: and urn:text: records beside each page
    if (/^(dns|urn):/i.test(uri)) return skip('url');
    return skip('url', `WARC-Target-URI ${JSON.stringify(uri.slice(0, 200))} is not an http(s) URL; skipped (anyScheme, --any-scheme keeps it)`);
  }
  let contentType = record.headers.get('content-type');
  let payload = record.block;
  let status: number | undefined;
  if (type === 'response' && /^application\/http/i.test(contentType ?? 'application/http')) {
    const http = parseHttpHead(record.block);
    if (http === undefined) return error('response record without an HTTP status line');
    status = Number.isFinite(http.status) ? http.status : undefined;
    contentType = http.headers.get('content-type') ?? undefined;
    if (contentType) contentType = latin1AsUtf8(contentType);
    payload = http.payload;
    const mime = mimeOf(contentType);
    if (mime && isBinaryType(mime)) return skip('binary');
    if (status !== undefined && !opts.allStatuses && status >= 300 && status < 400 && http.headers.has('location')) {
      // a redirect: an edge of the link graph (from this URL to its Location), not a page
      const raw = latin1AsUtf8(http.headers.get('location')!.trim());
      const to = raw === '' ? undefined : normalizeUrl(raw, uri);
      if (to === undefined || !/^https?:/i.test(to)) return error(`redirect ${status} of ${JSON.stringify(uri.slice(0, 200))}: its Location ${JSON.stringify(raw.slice(0, 200))} is not a URL; skipped`);
      return skip('redirect', undefined, { redirect: { from: normalizeUrl(uri) ?? uri, to, status, relative: !/^[a-z][a-z0-9+.-]*:/i.test(raw) } });
    }
    if (status !== undefined && !opts.allStatuses && !(status >= 200 && status < 300)) return skip('status');
    const transfer = http.headers.get('transfer-encoding')?.toLowerCase();
    if (transfer?.includes('chunked')) payload = dechunk(payload) ?? payload;
    const encoding = http.headers.get('content-encoding')?.toLowerCase().trim();
    if (encoding && encoding !== 'identity') {
      const decoded = decodeContent(encoding, payload, opts.maxRecordBytes);
      if (decoded === 'too-large') return error(`body (Content-Encoding ${encoding}) inflates to more than the record cap: ${capAdvice(opts.maxRecordBytes)}; skipped`);
      if (decoded !== undefined) payload = decoded;
    }
  } else if (type === 'conversion' && contentType === undefined) contentType = 'text/plain';
  const mime = mimeOf(contentType);
  if (mime && isBinaryType(mime)) return skip('binary');
  if (!opts.allText && type !== 'conversion' && isNotPage(mime, parsed?.pathname ?? '')) return skip('not-page', undefined, { contentType: mime ?? 'text/plain' });
  let ip = record.headers.get('warc-ip-address')?.trim();
  if (ip && isIP(ip.replace(/^\[|\]$/g, '')) === 0) {
    error(`WARC-IP-Address ${JSON.stringify(ip.slice(0, 100))} of ${JSON.stringify(uri.slice(0, 200))} is not an IP address; the page is kept without an address`);
    ip = undefined;
  }
  const date = record.headers.get('warc-date');
  // a view would pin the record's buffer (a batch of records, inflated): the page gets its own bytes, from pageBytes
  let bytes = payload;
  if (!(payload.byteOffset === 0 && payload.length === payload.buffer.byteLength)) {
    bytes = opts.pageBytes(payload.length);
    bytes.set(payload);
  }
  const doc = makeDocument({
    url: uri,
    bytes,
    mime,
    headerCharset: charsetFromContentType(contentType),
    date: date || undefined,
    ip: ip || undefined,
    status,
    source: `${path}#${record.offset}`,
  }, opts.links);
  if (!doc) return skip('binary');
  if (record.origin) doc.origin = { path, ...record.origin };
  return doc;
}
