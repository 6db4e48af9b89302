/** One fetched page as the readers yield it; DocIds are positions in input order. */
export interface Document {
  /** Absolute URL (for a wget mirror, reconstructed from the path). */
  url: string;
  /** The raw bytes as fetched (HTTP body, file contents). */
  bytes: Uint8Array;
  /** MIME type without parameters, lowercased (`text/html`), when known. */
  contentType?: string;
  /** Charset from the HTTP header or a meta tag, when known. */
  charset?: string;
  /** Fetch date (ISO 8601), when known. */
  date?: string;
  /** Server IP address, when known. */
  ip?: string;
  /** Absolute out-link URLs (fragments dropped), when extracted. */
  links?: string[];
  /** Where the document came from: file path, `file.warc.gz#offset`, `file.jsonl:line`. */
  source?: string;
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
