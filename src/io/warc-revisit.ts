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
import { readRange } from './read-at.js';
import type { Document, RecordOrigin } from '../graph/document.js';

/** The revisit profile of a re-capture answered 304 Not Modified: the same URI by definition. */
const NOT_MODIFIED = /server-not-modified/i;

/** What a revisit needs of an earlier record: where it lies, and its URI (or its hash, as stored). */
interface Stored {
  origin: RecordOrigin;
  /** The URI the revisit names (WARC-Refers-To-Target-URI), when it names one. */
  uri: string | undefined;
}

/** 32-bit FNV-1a of a string's UTF-16 code units, from a seed. */
function fnv(s: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** A digest as written (`sha1:BASE32`, `sha256:hex`), compared without case or surrounding space, as a 53-bit number. */
function digestKey(digest: string): number {
  const d = digest.trim().toLowerCase();
  return fnv(d, 0x811c9dc5) * 2 ** 21 + (fnv(d, 0x9747b28c) & 0x1fffff);
}

/** The URI of a WARC header field, without the angle brackets WARC 1.0 writers put around it. */
export function headerUri(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const t = raw.trim();
  return t.startsWith('<') && t.endsWith('>') ? t.slice(1, -1) : t;
}

const KINDS: readonly RecordOrigin['kind'][] = ['warc', 'warc-gz', 'jsonl', 'file'];

/**
 * The pages read so far by payload digest, for the revisit records after them: one per input read
 * (`readCrawl` shares one across its files, so a revisit may name a record of an earlier file).
 * Nothing of a page is held: per page, a 53-bit hash of its digest, its record's place and a
 * 32-bit hash of its URI in typed columns (about 40 bytes a page; a collision of both digest
 * hashes, about one in 2^53 a pair, would read the wrong record).
 */
export class WarcPayloads {
  private readonly byDigest = new Map<number, number>();
  private readonly paths: string[] = [];
  private readonly pathIds = new Map<string, number>();
  private offsets = new Float64Array(1024);
  private lengths = new Float64Array(1024);
  private files = new Uint32Array(1024);
  private kinds = new Uint8Array(1024);
  private uris = new Uint32Array(1024);
  /** 32-bit hashes of the URIs of every page read, for re-captures of them. */
  private readonly seen = new Set<number>();

  /** Takes the payload digest of a record read as a page, and that page; remembers it when it can be read back. */
  remember(digest: string | undefined, doc: Document): void {
    this.seen.add(fnv(doc.url, 0x811c9dc5));
    if (digest === undefined || doc.origin === undefined) return;
    const key = digestKey(digest);
    if (this.byDigest.has(key)) return;
    const i = this.byDigest.size;
    if (i === this.offsets.length) this.grow();
    const { path, kind, offset, length } = doc.origin;
    let file = this.pathIds.get(path);
    if (file === undefined) {
      this.pathIds.set(path, (file = this.paths.length));
      this.paths.push(path);
    }
    this.offsets[i] = offset;
    this.lengths[i] = length;
    this.files[i] = file;
    this.kinds[i] = KINDS.indexOf(kind);
    this.uris[i] = fnv(doc.url, 0x811c9dc5);
    this.byDigest.set(key, i);
  }

  private grow(): void {
    const n = this.offsets.length * 2;
    const more = <T extends Float64Array | Uint32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(n);
      b.set(a);
      return b;
    };
    this.offsets = more(this.offsets, (k) => new Float64Array(k));
    this.lengths = more(this.lengths, (k) => new Float64Array(k));
    this.files = more(this.files, (k) => new Uint32Array(k));
    this.kinds = more(this.kinds, (k) => new Uint8Array(k));
    this.uris = more(this.uris, (k) => new Uint32Array(k));
  }

  /** Number of pages remembered. */
  get size(): number {
    return this.byDigest.size;
  }

  /**
   * Takes a revisit record's header fields; returns the earlier record to read (`uri`: the URI it
   * names, else the revisit's own), 'same' for a re-capture of the same URI, or why it cannot be
   * resolved (a message only for a copy of another URI whose record was not read).
   */
  resolve(headers: Map<string, string>): { found: Stored } | { same: true } | { missing: string | undefined } {
    const uri = headerUri(headers.get('warc-target-uri'));
    const refers = headerUri(headers.get('warc-refers-to-target-uri'));
    if (NOT_MODIFIED.test(headers.get('warc-profile') ?? '') || (refers !== undefined && refers === uri)) {
      // a re-capture joins the page of its URI read before it (an earlier sweep's file): said when there is none
      if (uri === undefined || this.seen.has(fnv(uri, 0x811c9dc5))) return { same: true };
      const id = headerUri(headers.get('warc-refers-to'));
      return { missing: `revisit of ${JSON.stringify(uri.slice(0, 200))}: the record it refers to${id ? ` (${id.slice(0, 80)})` : ''} was not read before it (give the earlier sweep's WARC file first); skipped` };
    }
    const digest = headers.get('warc-payload-digest');
    const i = digest === undefined ? undefined : this.byDigest.get(digestKey(digest));
    if (i === undefined) {
      // said only of a copy of another URI (a re-capture of this one with its record elsewhere is routine)
      return {
        missing: refers === undefined ? undefined
          : `revisit of ${JSON.stringify(refers.slice(0, 200))}, whose record was not read before it (give its WARC file first, as a plain .warc or a .warc.gz of one gzip member per record); skipped`,
      };
    }
    if (uri !== undefined && fnv(uri, 0x811c9dc5) === this.uris[i]) return { same: true };
    const origin: RecordOrigin = { path: this.paths[this.files[i]], kind: KINDS[this.kinds[i]], offset: this.offsets[i], length: this.lengths[i] };
    return { found: { origin, uri: refers } };
  }
}

/** Reads the stored bytes of a record's origin (a plain WARC record, or the gzip members holding just it). */
export function originBytes(origin: RecordOrigin): Uint8Array {
  return readRange(origin.path, origin.offset, origin.length);
}
