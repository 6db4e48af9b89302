// Pages handed over in memory rather than as files: an array or (async) iterable of pages
// `{ url, html | text | bytes, date?, ip? }`, of strings, or of bytes. They become documents the
// way a JSONL record does (an `html` string is UTF-8 whatever its <meta> says), so a crawl read
// from a file and the same pages handed over give the same documents. A page that cannot be used
// is reported through onError with its position (`page 17`) and skipped.
import type { Document } from '../graph/document.js';
import { normalizeUrl } from '../graph/url.js';
import { idUrl } from './jsonl.js';
import { makeDocument } from './make-document.js';
import type { ResolvedReadOptions } from './options.js';

/** One page handed over in memory: its URL and one of `html`, `text` or `bytes`. */
export interface Page {
  /** Absolute URL; default `id:<position>`. */
  url?: string;
  /** The page as HTML (links extracted, template learnt per site). */
  html?: string;
  /** The page as plain text. */
  text?: string;
  /** The page as fetched: its type and charset are sniffed as for a file. */
  bytes?: Uint8Array;
  /** Fetch date (ISO 8601). */
  date?: string;
  /** Server IP address. */
  ip?: string;
  /** With `bytes`: the MIME type the server declared (`text/html`); default: sniffed from the bytes. */
  contentType?: string;
  /** The page's absolute out-link URLs, when the crawler has them; default: extracted from the HTML. */
  links?: readonly string[];
}

/** What a page source may yield: a page object, a string (plain text) or bytes. */
export type PageLike = Page | string | Uint8Array;

/** Pages in memory as an input of the readers (made by the entry points from arrays and iterables). */
export class PageSource {
  /** Takes the pages and the name errors are reported under (default `pages`). */
  constructor(readonly pages: Iterable<PageLike> | AsyncIterable<PageLike>, readonly name = 'pages') {}

  /** True when the pages can be read again (an array, not a one-shot iterator). */
  get repeatable(): boolean {
    return Array.isArray(this.pages);
  }
}

/** Input of the readers: path(s) (`-` for standard input) or pages in memory. */
export type Inputs = string | readonly string[] | PageSource;

const encoder = new TextEncoder();

/** Takes one page and its position; returns its document, undefined for a binary page, or a message saying what is wrong with it. */
function pageDocument(page: unknown, i: number, source: string, links: boolean): Document | undefined | string {
  const doc = pageOnly(page, i, source, links);
  const given = page !== null && typeof page === 'object' ? (page as Page).links : undefined;
  if (given === undefined || typeof doc !== 'object') return doc;
  if (!Array.isArray(given) || given.some((l) => typeof l !== 'string')) return 'expected "links" to be an array of URLs';
  if (links) doc.links = [...given];
  return doc;
}

function pageOnly(page: unknown, i: number, source: string, links: boolean): Document | undefined | string {
  if (typeof page === 'string') return makeDocument({ url: idUrl(String(i)), bytes: encoder.encode(page), mime: 'text/plain', utf8Text: true, source }, links);
  if (page instanceof Uint8Array) return makeDocument({ url: idUrl(String(i)), bytes: page, source }, links);
  if (page === null || typeof page !== 'object' || Array.isArray(page)) return 'expected a page { url, html | text | bytes }, a string or bytes';
  const p = page as Record<string, unknown>;
  let url = idUrl(String(i));
  if (p.url !== undefined) {
    if (typeof p.url !== 'string') return 'expected a string "url"';
    if (normalizeUrl(p.url) === undefined) return `unparseable url ${JSON.stringify(p.url)}`;
    url = p.url;
  }
  for (const key of ['date', 'ip'] as const) {
    if (p[key] !== undefined && typeof p[key] !== 'string') return `expected "${key}" to be a string`;
  }
  const date = p.date as string | undefined, ip = p.ip as string | undefined;
  if (typeof p.html === 'string') {
    return makeDocument({ url, bytes: encoder.encode(p.html), mime: 'text/html', headerCharset: 'utf-8', utf8Text: true, date, ip, source }, links);
  }
  if (typeof p.text === 'string') return makeDocument({ url, bytes: encoder.encode(p.text), mime: 'text/plain', utf8Text: true, date, ip, source }, links);
  if (p.contentType !== undefined && typeof p.contentType !== 'string') return 'expected "contentType" to be a string';
  if (p.bytes instanceof Uint8Array) return makeDocument({ url, bytes: p.bytes, ...(p.contentType ? { mime: p.contentType as string } : {}), date, ip, source }, links);
  return 'expected a string "html" or "text", or "bytes" (a Uint8Array)';
}

/** Takes pages in memory and resolved reader options; yields their documents, reporting each page that cannot be used (and skipping binary ones). */
export async function* readPages(input: PageSource, opts: ResolvedReadOptions): AsyncGenerator<Document> {
  let i = 0;
  for await (const page of input.pages as AsyncIterable<unknown>) {
    const location = `page ${i}`;
    const doc = pageDocument(page, i++, `${input.name}#${i - 1}`, opts.links);
    if (typeof doc === 'string') {
      opts.onError({ source: input.name, location, code: 'E_INPUT', message: `${doc}; skipped` });
      continue;
    }
    if (doc === undefined) {
      opts.onSkip({ reason: 'binary', source: input.name, location, message: 'binary content, not a page; skipped' });
      continue;
    }
    if (opts.maxRecordBytes < doc.bytes.length) {
      opts.onError({ source: input.name, location, code: 'E_INPUT', message: `page of more than ${opts.maxRecordBytes} bytes; skipped` });
      continue;
    }
    opts.onBytes(doc.bytes.length);
    yield doc;
  }
}
