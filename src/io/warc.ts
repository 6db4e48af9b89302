/**
 * WARC reading as a stream (ISO 28500: a record is a `WARC/1.x` version line, header fields, a
 * blank line, Content-Length bytes of block, and CRLF CRLF). Records are framed here, so that a
 * wrong Content-Length, garbage between records, a run of NUL bytes or a record larger than the
 * cap is reported and skipped with bounded memory; the HTTP part of a record is parsed
 * as warcio parses it (http-head.ts).
 */
import type { Document } from '../graph/document.js';
import { ByteReader, startsWith } from './byte-reader.js';
import { gunzipPieces, type Piece } from './gunzip.js';
import { capAdvice, formatBytes, ioError } from './lines.js';
import { resolveReadOptions, type ReadOptions, type ResolvedReadOptions } from './options.js';
import { openInput } from './source.js';
import { parseWarcHeaderText, parseWarcHeaders, toDocument, type WarcRecordBytes } from './warc-record.js';
import { originBytes, WarcPayloads } from './warc-revisit.js';
import { arcRecords, FILEDESC } from './arc.js';
import { zipEntries, type ZipEntry } from './zip.js';
import { readRange } from './read-at.js';
import { statSync } from 'node:fs';

const enc = new TextEncoder();
const WARC = enc.encode('WARC/');
// WARC/1.0 and 1.1 (ISO 28500), and the WARC/0.17-0.18 drafts early Heritrix crawls wrote.
const VERSION = /^WARC\/\d+\.\d+$/;
const MAX_HEADER_LINE = 64 << 10;
const MAX_HEADER_LINES = 1000;

/** The start of the next record inside `block` (a `WARC/x.y` line after a blank line), or -1. */
function nextRecordInside(block: Uint8Array): number {
  for (let i = block.indexOf(87); i >= 0; i = block.indexOf(87, i + 1)) {
    if (i < 2 || block[i - 1] !== 10 || !startsWith(block.subarray(i), WARC)) continue;
    // a version line: WARC/<digit>
    const d = block[i + 5];
    if (d === undefined || d < 48 || d > 57) continue;
    if (block[i - 2] === 10 || (block[i - 2] === 13 && block[i - 3] === 10)) return i;
  }
  return -1;
}

/** Drops the blank line (CRLF CRLF, or LF LF) that ends a record at the end of `b`. */
function withoutRecordEnd(b: Uint8Array): Uint8Array {
  let end = b.length;
  for (let k = 0; k < 4 && end > 0 && (b[end - 1] === 10 || b[end - 1] === 13); k++) end--;
  return b.subarray(0, end);
}

type Framed = { record: WarcRecordBytes } | { skipped: true } | { end: true };

// plain bytes (Buffer's indexOf takes them), so the module loads where Buffer does not exist (the browser build)
const LF_LF = Uint8Array.of(10, 10), LF_CRLF = Uint8Array.of(10, 13, 10);
const NOT_ASCII = /[^\x00-\x7f]/;

/**
 * The header lines of the record at the reader (its version line first, line ends dropped) when
 * they are buffered whole, are ASCII and within the caps: one search for the blank line that ends
 * them and one decode, where reading them line by line costs a search, a copy and a decode each.
 * They are consumed, blank line and all. Undefined (nothing consumed) otherwise: the line-by-line
 * reading then reads them, and reports what is wrong; on the lines taken here it gives the same.
 */
function headerLines(reader: ByteReader): string[] | undefined {
  const b = reader.buffered;
  const buf = Buffer.from(b.buffer, b.byteOffset, Math.min(b.length, MAX_HEADER_LINE));
  // the first empty line (LF LF or LF CR LF): the header ends before its line end
  const crlf = buf.indexOf(LF_CRLF);
  const lf = buf.indexOf(LF_LF);
  const at = lf >= 0 && (crlf < 0 || lf < crlf) ? lf : crlf;
  if (at < 0) return undefined;
  const text = buf.toString('latin1', 0, at);
  // the line reader decodes each line as UTF-8 on its own (a BOM dropped at each line's start): the same only for ASCII
  if (NOT_ASCII.test(text)) return undefined;
  const lines = text.split('\n');
  if (lines.length > MAX_HEADER_LINES) return undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.charCodeAt(line.length - 1) === 13) lines[i] = line.slice(0, -1);
  }
  reader.consume(at + (at === lf ? 2 : 3));
  return lines;
}

/**
 * Frames the next record of a WARC; reports what is wrong on the way (see readWarc). With
 * `regular` (the input is a regular file), a record framed cleanly gets its origin: its bytes in
 * a plain file, or in a `.warc.gz` the gzip members holding exactly it.
 */
async function nextRecord(reader: ByteReader, path: string, gzip: boolean, opts: ResolvedReadOptions, regular = false, base = 0): Promise<Framed> {
  const error = (offset: number, message: string) => opts.onError({ source: path, location: `offset ${offset}`, code: 'E_INPUT', message });
  for (;;) {
    // the next record is buffered (a member of its own, inflated whole) but at the input's end: no wait
    const head = reader.buffered.length >= WARC.length ? reader.buffered : await reader.fill(WARC.length);
    if (head.length === 0) {
      if (reader.barrier && (await reader.crossBarrier())) continue;
      return { end: true };
    }
    const at = base + (gzip ? reader.member ?? 0 : reader.position);
    const start = base + reader.position, memberStart = gzip && reader.atMemberStart;
    if (!startsWith(head, WARC)) {
      // Blank lines between records are tolerated; anything else is skipped to the next record.
      const { skipped, found } = await reader.skipToLineStart(WARC, true);
      if (!onlyLineEnds(skipped, head)) {
        error(at, `${formatBytes(skipped)} that are not a WARC record skipped${found ? ` to the next record at offset ${base + reader.position}` : ' to the end'}`);
      }
      continue;
    }
    const fast = headerLines(reader);
    const lines: Uint8Array[] = [];
    let problem: string | undefined;
    for (; fast === undefined;) {
      const line = await reader.readLine(MAX_HEADER_LINE);
      if (line === undefined) {
        problem = reader.barrier ? 'lost' : 'truncated record: the input ends inside its header';
        break;
      }
      if (line.bytes === null) {
        problem = `malformed record header: a header line of ${formatBytes(line.length)}`;
        break;
      }
      if (line.bytes.length === 0) break;
      lines.push(line.bytes);
      if (lines.length > MAX_HEADER_LINES) {
        problem = `malformed record header: more than ${MAX_HEADER_LINES} lines`;
        break;
      }
    }
    const version = fast ? fast[0].trim() : lines.length > 0 ? new TextDecoder().decode(lines[0]).trim() : '';
    if (problem === undefined && !VERSION.test(version)) problem = `malformed record header: expected a WARC/1.0 version line, got ${JSON.stringify(version.slice(0, 40))}`;
    const headers = problem !== undefined ? undefined : fast ? parseWarcHeaderText(fast.slice(1)) : parseWarcHeaders(lines.slice(1));
    if (typeof headers === 'string') problem = headers;
    const lengthText = headers instanceof Map ? headers.get('content-length') : undefined;
    if (problem === undefined && (lengthText === undefined || !/^\d{1,15}$/.test(lengthText))) problem = `malformed record header: Content-Length ${JSON.stringify(lengthText ?? null)}`;
    if (problem === undefined && !(headers as Map<string, string>).get('warc-type')) problem = 'malformed record header: no WARC-Type';
    if (problem !== undefined) {
      if (problem !== 'lost') error(at, problem);
      if (reader.barrier) continue; // damage: the gzip reader reported it; go on after it
      await reader.skipToLineStart(WARC, false);
      continue;
    }
    const length = Number(lengthText);
    if (length > opts.maxRecordBytes) {
      const skipped = await reader.skip(length);
      if (!reader.barrier) error(at, `record of ${formatBytes(length)} is ${capAdvice(opts.maxRecordBytes)}; skipped`);
      if (skipped === length) await skipRecordEnd(reader, at, error, false);
      return { skipped: true };
    }
    const block = reader.buffered.length >= length ? reader.readBuffered(length) : await reader.read(length);
    if (block.length < length) {
      if (reader.barrier) continue; // the damage was reported; the record is lost with it
      const inside = nextRecordInside(block);
      if (inside >= 0) {
        reader.unread(block.subarray(inside));
        error(at, `Content-Length too large: ${length} bytes, but the next record starts after ${inside}; the record is kept up to there`);
        return { record: { offset: at, version, headers: headers as Map<string, string>, block: withoutRecordEnd(block.subarray(0, inside)) } };
      }
      error(at, `truncated record: ${length - block.length} bytes missing of its Content-Length ${length}`);
      return { skipped: true };
    }
    let kept = block;
    const endOk = recordEndBuffered(reader) || await skipRecordEnd(reader, at, error, true);
    // framed cleanly: the record can be read back alone, from its bytes or the gzip members holding just it
    const inputEnd = endOk && regular && (!gzip || memberStart) ? (gzip ? reader.memberEndAt(reader.position) : reader.position) : undefined;
    const end = inputEnd === undefined ? undefined : base + inputEnd;
    const origin = end === undefined ? undefined : { kind: gzip ? 'warc-gz' as const : 'warc' as const, offset: gzip ? at : start, length: end - (gzip ? at : start) };
    if (!endOk) {
      const inside = nextRecordInside(block);
      if (inside >= 0) {
        reader.unread(block.subarray(inside));
        kept = withoutRecordEnd(block.subarray(0, inside));
        error(at, `Content-Length too large: ${length} bytes, but the next record starts after ${inside}; the record is kept up to there`);
      } else {
        const { skipped, found } = await reader.skipToLineStart(WARC, false);
        error(at, `Content-Length too small: ${formatBytes(skipped)} after the record are not a record; skipped${found ? '' : ' to the end'}, the record kept as its Content-Length says`);
      }
    }
    return { record: { offset: at, version, headers: headers as Map<string, string>, block: kept, ...(origin ? { origin } : {}) } };
  }
}

function onlyLineEnds(skipped: number, head: Uint8Array): boolean {
  if (skipped > 4) return false;
  for (let i = 0; i < Math.min(skipped, head.length); i++) if (head[i] !== 10 && head[i] !== 13) return false;
  return true;
}

/**
 * The common case of skipRecordEnd without waiting: the blank line after a block is buffered (at
 * least two of its line ends); consumes it and returns true, else false (consuming nothing).
 */
function recordEndBuffered(reader: ByteReader): boolean {
  const b = reader.buffered;
  if (b.length < 4) return false;
  let n = 0;
  while (n < 4 && (b[n] === 13 || b[n] === 10)) n++;
  if (n < 2) return false;
  reader.consume(n);
  return true;
}

/**
 * Consumes the blank line after a block; returns true when it is there (or the input ends, or the
 * next record starts right away). With `probe` false, a missing one is skipped silently to the next record.
 */
async function skipRecordEnd(reader: ByteReader, at: number, error: (o: number, m: string) => void, probe: boolean): Promise<boolean> {
  // the next record's first bytes are looked at only when the blank line is not there: a look
  // past a record's last byte joins the next gzip member to it (a copy of all of it)
  let b = await reader.fill(4);
  let n = 0;
  while (n < 4 && n < b.length && (b[n] === 13 || b[n] === 10)) n++;
  if (n < 2) b = await reader.fill(4 + WARC.length);
  const rest = b.subarray(n);
  // The block ends with its blank line: whatever follows is the next record's business (garbage is reported there).
  const ok = rest.length === 0 || startsWith(rest, WARC) || n >= 2;
  if (ok) {
    reader.consume(n);
    return true;
  }
  if (!probe) {
    const { skipped } = await reader.skipToLineStart(WARC, false);
    error(at, `${formatBytes(skipped)} of stray bytes after the record skipped`);
  }
  return false;
}

/**
 * Takes a `.warc` / `.warc.gz` (also `.wet`, `.wat`, or `-` for standard input); yields its
 * `response`, `resource` and `conversion` records as documents (URL from WARC-Target-URI, date,
 * IP, HTTP status, content type and charset; content- and transfer-encodings undone), and each
 * `revisit` of another URI as the page of the earlier record it names (warc-revisit.ts). Non-2xx
 * responses, other revisits, metadata, binaries and non-http(s) target URIs are reported through
 * `onSkip`. Everything is read as a stream with memory bounded by `maxRecordBytes`; a malformed
 * header, a wrong Content-Length (too large or too small), garbage or NUL runs between records, a
 * record over the cap and damage in a gzip stream (truncated at the end, corrupt in the middle)
 * are reported through `onError` with the file and offset, and reading resumes at the next record.
 * A document's `source` is `file#offset` (in a `.warc.gz`, the offset of its gzip member); one
 * read from a regular file carries its record's place (`origin`) when the record can be read
 * back alone: framed cleanly, and in a `.warc.gz` held by gzip members of its own.
 */
export async function* readWarc(path: string, options: ReadOptions = {}): AsyncGenerator<Document> {
  yield* readWarcAfter(path, options, new WarcPayloads());
}

/** `readWarc` with the pages of earlier WARC files of the same input, for revisit records naming them (readCrawl shares one WarcPayloads across its inputs). */
export async function* readWarcAfter(path: string, options: ReadOptions, payloads: WarcPayloads): AsyncGenerator<Document> {
  const opts = resolveReadOptions(options, 'readWarc');
  if (/\.wacz$/i.test(path) || startsZip(path)) yield* readWacz(path, opts, payloads);
  else yield* readWarcWith(path, opts, payloads);
}

/** True when a regular file starts as a zip does (a local file header): a WACZ under another name. */
function startsZip(path: string): boolean {
  if (path === '-') return false;
  try {
    // a pipe (a process substitution) would lose the bytes read here
    if (!statSync(path).isFile()) return false;
    const head = readRange(path, 0, 4);
    return head.length === 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 3 && head[3] === 4;
  } catch {
    return false; // not a regular file (a pipe): read as a stream
  }
}

/**
 * A WACZ (Webrecorder's web archive package, as Browsertrix and ArchiveWeb.page write it): a zip
 * whose WARC files lie under `archive/`, stored uncompressed. They are read in name order as one
 * input, each straight from its place in the zip (records keep their offsets in the .wacz, so
 * pages are read back from there, and revisits may name records of an earlier WARC of the package).
 */
async function* readWacz(path: string, opts: ResolvedReadOptions, payloads: WarcPayloads): AsyncGenerator<Document> {
  const problem = (location: string, message: string) => opts.onError({ source: path, location, code: 'E_INPUT', message });
  let entries: ZipEntry[];
  try {
    entries = zipEntries(path);
  } catch (e) {
    problem(path, `${(e as Error).message}: a .wacz is a zip file holding WARC files under archive/`);
    return;
  }
  const warcs = entries.filter((e) => /^archive\/.+\.(warc|arc)(\.gz)?$/i.test(e.name)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (warcs.length === 0) problem(path, 'no WARC file under archive/ in this WACZ');
  for (const e of warcs) {
    if (e.method !== 0) {
      problem(e.name, `${e.name} is compressed inside the zip (method ${e.method}), where a WACZ stores its WARC files as they are; unzip the package and read its WARC files; skipped`);
      continue;
    }
    yield* readWarcWith(path, opts, payloads, { start: e.offset, end: e.offset + e.size });
  }
}

/** The same as `readWarc` (kept for compatibility: every reader streams now). */
export async function* readWarcStreaming(path: string, options: ReadOptions = {}): AsyncGenerator<Document> {
  yield* readWarcAfter(path, options, new WarcPayloads());
}

/**
 * Takes one record's bytes as stored (gzip members when `gzip`), the file they came from and
 * resolved reader options; frames and reads them as readWarc does; returns the document, undefined
 * when the record is not a page, or a message when the bytes are not exactly one record (damage,
 * framing errors and skips are reported as messages too, not through the callbacks). `fields`
 * replace header fields of the record (lowercased names) before it is read as a document.
 */
export async function readWarcRecord(bytes: Uint8Array, gzip: boolean, path: string, options: ResolvedReadOptions, fields?: ReadonlyMap<string, string>): Promise<Document | string | undefined> {
  let problem: string | undefined;
  const note = (message: string) => { problem ??= message; };
  const opts: ResolvedReadOptions = { ...options, onError: (e) => note(e.message), onSkip: (s) => note(`skipped (${s.reason})`), onWarning: () => {}, onBytes: () => {} };
  async function* one(): AsyncGenerator<Uint8Array> { yield bytes; }
  const pieces: AsyncIterator<Piece> = gzip ? gunzipPieces(one()) : (async function* () { yield { bytes }; })();
  const reader = new ByteReader(pieces, (d) => note(d.message));
  const framed = await nextRecord(reader, path, gzip, opts);
  if (problem !== undefined) return problem;
  if (!('record' in framed)) return 'no WARC record there';
  if ((await reader.fill(1)).length > 0 || !reader.finished) return 'more than one record there';
  if (fields) for (const [k, v] of fields) framed.record.headers.set(k, v);
  const doc = toDocument(framed.record, path, opts);
  return problem ?? doc;
}

/**
 * Takes a revisit record, the file it is in, reader options and the pages read so far; returns the
 * page it names at the revisit's URI (see warc-revisit.ts), or undefined when it is skipped (reported).
 */
async function revisitDocument(record: WarcRecordBytes, path: string, opts: ResolvedReadOptions, payloads: WarcPayloads): Promise<Document | undefined> {
  const location = `offset ${record.offset}`;
  const r = payloads.resolve(record.headers);
  if ('same' in r) {
    opts.onSkip({ reason: 'revisit', source: path, location });
    return undefined;
  }
  if ('missing' in r) {
    opts.onSkip(r.missing === undefined ? { reason: 'revisit', source: path, location } : { reason: 'revisit', source: path, location, message: r.missing });
    return undefined;
  }
  const { origin, uri: earlier } = r.found;
  const fields = new Map<string, string>();
  for (const name of ['warc-target-uri', 'warc-date', 'warc-ip-address']) {
    const v = record.headers.get(name);
    if (v !== undefined) fields.set(name, v);
  }
  const problem = (why: string) => {
    opts.onError({ source: path, location, code: 'E_INPUT', message: `revisit of ${earlier === undefined ? 'an earlier page' : JSON.stringify(earlier.slice(0, 200))}: its record at offset ${origin.offset} of ${origin.path} ${why}; skipped` });
    return undefined;
  };
  let bytes: Uint8Array;
  try {
    bytes = originBytes(origin);
  } catch (e) {
    return problem(`cannot be read again (${(e as Error).message})`);
  }
  const doc = await readWarcRecord(bytes, origin.kind === 'warc-gz', origin.path, opts, fields);
  if (typeof doc === 'string') return problem(`no longer reads as it did (${doc})`);
  if (doc === undefined) return problem('no longer holds a page');
  doc.source = `${path}#${record.offset}`;
  doc.origin = origin; // the page's bytes are there
  return doc;
}

/** A file stored inside another (a WACZ's WARC): the bytes [start, end) of the path read. */
interface Inside {
  start: number;
  end: number;
}

async function* readWarcWith(path: string, opts: ResolvedReadOptions, payloads = new WarcPayloads(), inside?: Inside): AsyncGenerator<Document> {
  const base = inside?.start ?? 0;
  let documents = 0;
  let metadata = 0;
  let last = 0;
  const counting: ResolvedReadOptions = { ...opts, onSkip: (s) => { if (s.reason === 'metadata') metadata++; opts.onSkip(s); } };
  try {
    const { reader, gzip, regular } = await openInput(path, opts.onBytes, (d) => opts.onError({ source: path, location: `offset ${base + d.offset}`, code: 'E_INPUT', message: d.message }), inside ? { range: inside } : {});
    if (startsWith(await reader.fill(FILEDESC.length), FILEDESC)) {
      // an ARC file: its records framed as such, then read as WARC records are
      for await (const record of arcRecords(reader, path, gzip, counting, base)) {
        last = record.offset;
        const doc = toDocument(record, path, counting);
        if (doc) {
          documents++;
          yield doc;
        }
      }
      return;
    }
    for (;;) {
      last = base + (gzip ? reader.member ?? 0 : reader.position);
      const framed = await nextRecord(reader, path, gzip, opts, regular, base);
      if ('end' in framed) break;
      if ('skipped' in framed) continue;
      const revisit = framed.record.headers.get('warc-type') === 'revisit';
      const doc = revisit ? await revisitDocument(framed.record, path, counting, payloads) : toDocument(framed.record, path, counting);
      if (doc && !revisit) payloads.remember(framed.record.headers.get('warc-payload-digest'), doc);
      if (doc) {
        documents++;
        yield doc;
      }
    }
  } catch (e) {
    opts.onError(ioError(path, `offset ${last}`, e));
  }
  if (documents === 0 && metadata > 0 && !inside) {
    opts.onWarning({ source: path, location: path, code: 'W_METADATA', message: `${metadata} metadata records and no pages: a WAT file describes pages (headers, links) and holds none of their text; read the .warc or .wet instead` });
  }
}
