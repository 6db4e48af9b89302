import type { Document } from '../graph/document.js';
import { detectCharset } from './charset.js';
import { decodeText } from './decode-text.js';
import { extractLinks } from './links.js';
import { classifyContent } from './sniff.js';

/** What a reader knows about one record before it becomes a document. */
export interface RecordFacts {
  url: string;
  bytes: Uint8Array;
  /** MIME type declared by the input (HTTP header, WARC header, file extension), if any. */
  mime?: string;
  /** Charset from the HTTP header, if any. */
  headerCharset?: string;
  /** The bytes are UTF-8 by construction (a JSON string's): not checked against a UTF-8 declaration. */
  utf8Text?: boolean;
  date?: string;
  ip?: string;
  status?: number;
  source: string;
}

const encoder = new TextEncoder();

/**
 * Takes what a reader found; returns the document, or undefined when it is binary and must be skipped.
 * The charset of HTML (and of text with a header charset) is found by BOM, header, meta, else UTF-8
 * when the bytes are UTF-8, else sniffed from them;
 * the page is decoded at most once, to extract links and, when not UTF-8, to fill `utf8` with the
 * text re-encoded, so sketches hash every page as UTF-8.
 */
export function makeDocument(facts: RecordFacts, links: boolean): Document | undefined {
  const contentType = classifyContent(facts.mime, facts.bytes);
  if (contentType === undefined) return undefined;
  const doc: Document = { url: facts.url, bytes: facts.bytes, contentType, source: facts.source };
  if (facts.date !== undefined) doc.date = facts.date;
  if (facts.ip !== undefined) doc.ip = facts.ip;
  if (facts.status !== undefined) doc.status = facts.status;
  const html = contentType === 'text/html';
  if (!html && facts.headerCharset === undefined) return doc;
  const { charset, from } = detectCharset(facts.bytes, facts.headerCharset, !facts.utf8Text);
  if (from !== 'default') doc.charset = charset;
  const wantLinks = html && links;
  // UTF-8 pages are only decoded when their links are wanted: sketches read their bytes directly.
  if (charset === 'utf-8' && !wantLinks) return doc;
  const text = decodeText(facts.bytes, charset);
  if (charset !== 'utf-8') doc.utf8 = encoder.encode(text);
  if (wantLinks) doc.links = extractLinks(text, facts.url);
  return doc;
}
