/**
 * ARC files, the Internet Archive's format before WARC (1996–2009 collections; `.arc`, `.arc.gz`).
 * A file opens with a `filedesc://` record whose block names the fields of every record's header
 * line (version 1: `URL IP-address Archive-date Content-type Archive-length`; version 2 adds
 * result code, checksum, location, offset and file name); a record is that line, then
 * Archive-length bytes (an HTTP response for http URLs), then a newline. Records are framed here
 * and handed on as WARC `response` (or `resource`) records, so a page of an ARC is read exactly as
 * the same page of a WARC. A header line that does not parse is reported once with the bytes
 * skipped to the next one that does; a truncated record is reported, the records before it kept.
 */
import type { ByteReader } from './byte-reader.js';
import { formatBytes } from './lines.js';
import type { ResolvedReadOptions } from './options.js';
import type { WarcRecordBytes } from './warc-record.js';

const MAX_HEADER_LINE = 64 << 10;
const latin1 = new TextDecoder('latin1');
/** The first bytes of an ARC file. */
export const FILEDESC = new TextEncoder().encode('filedesc://');

/** `20140216050221` (ARC's Archive-date, 14 digits or fewer) as `2014-02-16T05:02:21Z`, or undefined. */
export function arcDate(d: string): string | undefined {
  if (!/^\d{8,14}$/.test(d)) return undefined;
  const p = d.padEnd(14, '0');
  return `${p.slice(0, 4)}-${p.slice(4, 6)}-${p.slice(6, 8)}T${p.slice(8, 10)}:${p.slice(10, 12)}:${p.slice(12, 14)}Z`;
}

/** A parsed header line: the URL (which may hold spaces), the other fields by name, the block length. */
interface ArcHeader {
  url: string;
  ip: string;
  date: string;
  type: string;
  length: number;
}

/**
 * Takes a header line and the number of fields the file declared; returns the header, or
 * undefined when the line is not one (too few fields, a length that is not a number). The URL is
 * everything before the last fields − 1 words: some crawlers wrote URLs with spaces unescaped.
 */
export function parseArcHeader(line: string, fields: number): ArcHeader | undefined {
  const parts = line.trim().split(/ +/);
  if (parts.length < fields || !/^\d{1,15}$/.test(parts[parts.length - 1])) return undefined;
  const rest = parts.length - (fields - 1);
  const url = parts.slice(0, rest).join(' ');
  if (!/^[a-z][a-z0-9+.-]*:/i.test(url)) return undefined;
  return { url, ip: parts[rest], date: parts[rest + 1], type: parts[rest + 2], length: Number(parts[parts.length - 1]) };
}

/**
 * Takes a reader positioned at the start of an ARC file (plain or inflated), the file, whether it
 * is gzip, and reader options; yields its records as WARC records (`response` for a block that is
 * an HTTP response, `resource` otherwise) with WARC-Target-URI, WARC-Date and WARC-IP-Address from
 * the header line. The file's own `filedesc://` record is read for its field list, not yielded.
 * `base` is added to every offset (a file stored inside another).
 */
export async function* arcRecords(reader: ByteReader, path: string, gzip: boolean, opts: ResolvedReadOptions, base = 0): AsyncGenerator<WarcRecordBytes> {
  const error = (offset: number, message: string) => opts.onError({ source: path, location: `offset ${offset}`, code: 'E_INPUT', message });
  let fields = 5;
  // bytes skipped since a header line failed to parse, and where that was
  let lost: { at: number; bytes: number; line: string } | undefined;
  const found = (end: boolean) => {
    if (lost) error(lost.at, `malformed ARC record header ${JSON.stringify(lost.line.slice(0, 80))}: ${formatBytes(lost.bytes)} skipped${end ? ' to the end' : ' to the next record'}`);
    lost = undefined;
  };
  for (;;) {
    await reader.fill(1); // the next piece pulled: its member is the record's
    const at = base + (gzip ? reader.member ?? 0 : reader.position);
    const line = await reader.readLine(MAX_HEADER_LINE);
    if (line === undefined) {
      if (reader.barrier && (await reader.crossBarrier())) continue;
      found(true);
      return;
    }
    const text = line.bytes === null ? '' : latin1.decode(line.bytes);
    const header = line.bytes === null || text.trim() === '' ? undefined : parseArcHeader(text, text.startsWith('filedesc://') ? 5 : fields);
    if (header === undefined) {
      if (lost) lost.bytes += line.length;
      else if (line.bytes === null || text.trim() !== '') lost = { at, bytes: line.length, line: line.bytes === null ? `a line of ${formatBytes(line.length)}` : text.trim() };
      continue;
    }
    found(false);
    if (header.length > opts.maxRecordBytes) {
      await reader.skip(header.length);
      error(at, `record of ${formatBytes(header.length)} is over the record cap (${formatBytes(opts.maxRecordBytes)}, --max-record); skipped`);
      continue;
    }
    const block = await reader.read(header.length);
    if (block.length < header.length) {
      if (reader.barrier) continue; // the damage was reported; the record is lost with it
      error(at, `truncated record: ${header.length - block.length} bytes missing of its Archive-length ${header.length}`);
      return;
    }
    if (header.url.startsWith('filedesc://')) {
      // "1 0 origin" then the URL-record definition: its field names
      const lines = latin1.decode(block).split('\n');
      const names = (lines[1] ?? '').trim().split(/ +/).filter(Boolean);
      if (names.length >= 5 && /archive-length/i.test(names[names.length - 1])) fields = names.length;
      continue;
    }
    const http = block.length >= 5 && block[0] === 0x48 && block[1] === 0x54 && block[2] === 0x54 && block[3] === 0x50 && block[4] === 0x2f; // "HTTP/"
    const headers = new Map<string, string>([
      ['warc-type', http ? 'response' : 'resource'],
      // spaces some crawlers left in URLs escaped, as warcio does when it reads an ARC as WARC
      ['warc-target-uri', header.url.replace(/ /g, '%20')],
      ['content-type', http ? 'application/http; msgtype=response' : header.type],
    ]);
    const date = arcDate(header.date);
    if (date) headers.set('warc-date', date);
    if (header.ip && header.ip !== '-' && header.ip !== '0.0.0.0') headers.set('warc-ip-address', header.ip);
    yield { offset: at, version: 'ARC', headers, block };
  }
}
