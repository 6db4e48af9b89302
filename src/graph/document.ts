/** One fetched page as the readers yield it; DocIds are positions in input order. */
export interface Document {
  /** Absolute URL (for a wget mirror, reconstructed from the path). */
  url: string;
  /** The raw bytes as fetched (HTTP body, file contents). */
  bytes: Uint8Array;
  /** MIME type without parameters, lowercased (`text/html`), when known. */
  contentType?: string;
  /** Charset from the byte-order mark, the HTTP header or a meta tag, or sniffed from an undeclared page that is not UTF-8 (`sniffCharset`); absent for UTF-8 by default. */
  charset?: string;
  /**
   * The text re-encoded as UTF-8, set by the readers only when `charset` is not UTF-8 (a
   * windows-1252 or shift_jis page); sketch `utf8Bytes(doc)` so every page is hashed as UTF-8.
   */
  utf8?: Uint8Array;
  /** HTTP status code, when the input recorded one (WARC response records). */
  status?: number;
  /** Fetch date (ISO 8601), when known. */
  date?: string;
  /** Server IP address, when known. */
  ip?: string;
  /** Absolute out-link URLs (fragments dropped), when extracted. */
  links?: string[];
  /** Where the document came from: file path, `file.warc.gz#offset`, `file.jsonl:line`. */
  source?: string;
  /** Where its record lies in a file it can be read back from alone (see RecordOrigin); absent for standard input, gzip streams and other inputs. */
  origin?: RecordOrigin;
}

/**
 * Where a document's record lies in its input, for reading that record back alone (the exact
 * checks do): a line of a plain JSONL file, a record of a plain WARC file, the gzip members holding
 * exactly one record of a `.warc.gz`, or a whole file of a folder. Offset and length are of the
 * bytes as stored (compressed for `warc-gz`).
 */
export interface RecordOrigin {
  path: string;
  kind: 'jsonl' | 'warc' | 'warc-gz' | 'file';
  offset: number;
  length: number;
}

/** A record a reader could not use: reported with its location and skipped. */
export interface ReadError {
  /** The input file or folder. */
  source: string;
  /** Where in it: a path, `offset 1234`, `line 17`. */
  location: string;
  code: string;
  message: string;
}

/** Takes a document; returns its bytes as UTF-8 (the re-encoded `utf8` view when the page was in another charset). */
export function utf8Bytes(doc: Document): Uint8Array {
  return doc.utf8 ?? doc.bytes;
}
