/**
 * Revisit records (ISO 28500 §6.7). A crawler that deduplicates stores a payload once: for a
 * response whose payload it already holds it writes a `revisit` record with the HTTP headers only,
 * naming the stored payload by its digest (`WARC-Payload-Digest`, with `WARC-Refers-To-Target-URI`
 * and `-Date`, or `WARC-Refers-To`). A revisit of another URI is that page's copy at this URI,
 * which is what duplicate detection is for: it is read as a document with the revisit's URI, date
 * and IP and the earlier record's page, read back from its place in the input. A revisit of the
 * same URI is a re-capture of a page already read and is skipped, as is one whose earlier record
 * was not read before it (another file not given, or later in the input).
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { Document, RecordOrigin } from '../graph/document.js';

/** The revisit profile of a re-capture answered 304 Not Modified: the same URI by definition. */
const NOT_MODIFIED = /server-not-modified/i;

/** What a revisit needs of an earlier record: where it lies and its URI. */
interface Stored {
  origin: RecordOrigin;
  uri: string;
}

/** A digest as written (`sha1:BASE32`), compared without case or surrounding space. */
function digestKey(digest: string): string {
  return digest.trim().toLowerCase();
}

/** The URI of a WARC header field, without the angle brackets WARC 1.0 writers put around it. */
export function headerUri(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const t = raw.trim();
  return t.startsWith('<') && t.endsWith('>') ? t.slice(1, -1) : t;
}

/**
 * The pages read so far by payload digest, for the revisit records after them: one per input read
 * (`readCrawl` shares one across its files, so a revisit may name a record of an earlier file).
 * It holds a digest, a URI and a place per page that can be read back, nothing of the page.
 */
export class WarcPayloads {
  private readonly byDigest = new Map<string, Stored>();

  /** Takes a page read from a record with these header fields; remembers it when it can be read back. */
  remember(digest: string | undefined, doc: Document): void {
    if (digest === undefined || doc.origin === undefined) return;
    const key = digestKey(digest);
    if (!this.byDigest.has(key)) this.byDigest.set(key, { origin: doc.origin, uri: doc.url });
  }

  /** Number of pages remembered. */
  get size(): number {
    return this.byDigest.size;
  }

  /**
   * Takes a revisit record's header fields; returns the earlier record to read (with its URI), 'same'
   * for a re-capture of the same URI, or a reason it cannot be resolved (undefined: nothing to say).
   */
  resolve(headers: Map<string, string>): { found: Stored } | { same: true } | { missing: string | undefined } {
    const uri = headerUri(headers.get('warc-target-uri'));
    const refers = headerUri(headers.get('warc-refers-to-target-uri'));
    if (NOT_MODIFIED.test(headers.get('warc-profile') ?? '') || (refers !== undefined && refers === uri)) return { same: true };
    const digest = headers.get('warc-payload-digest');
    const found = digest === undefined ? undefined : this.byDigest.get(digestKey(digest));
    if (found === undefined) {
      // said only of a copy of another URI (a re-capture of this one with its record elsewhere is routine)
      return {
        missing: refers === undefined ? undefined
          : `revisit of ${JSON.stringify(refers.slice(0, 200))}, whose record was not read before it (give its WARC file first, as a plain .warc or a .warc.gz of one gzip member per record); skipped`,
      };
    }
    return found.uri === uri ? { same: true } : { found };
  }
}

/** Reads the stored bytes of a record's origin (a plain WARC record, or the gzip members holding just it). */
export function originBytes(origin: RecordOrigin): Uint8Array {
  const fd = openSync(origin.path, 'r');
  try {
    const buf = new Uint8Array(origin.length);
    let got = 0;
    while (got < origin.length) {
      const n = readSync(fd, buf, got, origin.length - got, origin.offset + got);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}
