/**
 * Writes pages out as a crawl: the wget-mirror folder, a JSONL file (`{url, html}` per line, the
 * HTML decoded to a string) and a gzipped WARC of response records. All three are deterministic:
 * no timestamps, records in folder-walk order, gzip members with a zero mtime.
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { crc32, gzipSync } from 'node:zlib';
import { decode, type Page } from './layout.js';

/** Takes a folder and pages; replaces the folder with the pages laid out as `host/path/file`. */
export function writeFolder(dir: string, pages: Page[]): void {
  rmSync(dir, { recursive: true, force: true });
  for (const p of pages) {
    const path = join(dir, p.file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, p.bytes);
  }
}

/** Takes a file and pages; writes one `{"url", "html"}` line per page, the HTML decoded in its charset. */
export function writeJsonl(file: string, pages: Iterable<{ url: string; html: string }>): void {
  const fd = openSync(file, 'w');
  try {
    for (const p of pages) writeSync(fd, JSON.stringify({ url: p.url, html: p.html }) + '\n');
  } finally {
    closeSync(fd);
  }
}

/** The pages of a crawl as JSONL records. */
export function* jsonlRecords(pages: Page[]): Generator<{ url: string; html: string }> {
  for (const p of pages) yield { url: p.url, html: decode(p) };
}

/** A date for every record: the crawl is synthetic, and a fixed date keeps it byte for byte the same. */
const FIXED_DATE = '2024-01-01T00:00:00Z';

function uuid(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Takes a file and pages; writes a WARC/1.1 file of `response` records, one gzip member each. With
 * `dedup`, as a deduplicating archiver writes it: a page whose bytes were written before (the same
 * WARC-Payload-Digest) is a `revisit` record (identical-payload-digest profile, HTTP headers only)
 * naming the first page with those bytes. `from` writes only the pages from that index on, the
 * ones before it remembered as written to an earlier file.
 */
export function writeWarc(file: string, pages: Iterable<Pick<Page, 'url' | 'bytes'>>, options: { dedup?: boolean; from?: number } = {}): void {
  const fd = openSync(file, 'w');
  const enc = new TextEncoder();
  const stored = new Map<string, string>();
  let k = 0;
  try {
    for (const p of pages) {
      const digest = `sha256:${createHash('sha256').update(p.bytes).digest('hex')}`;
      const first = options.dedup ? stored.get(digest) : undefined;
      if (first === undefined) stored.set(digest, p.url);
      // `from`: the pages before it were written to an earlier file (they are only remembered)
      if (k++ < (options.from ?? 0)) continue;
      const http = enc.encode(`HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${p.bytes.length}\r\n\r\n`);
      const body = first === undefined ? p.bytes : new Uint8Array(0);
      const payload = new Uint8Array(http.length + body.length);
      payload.set(http);
      payload.set(body, http.length);
      const head = enc.encode([
        'WARC/1.1', `WARC-Type: ${first === undefined ? 'response' : 'revisit'}`, `WARC-Target-URI: ${p.url}`, `WARC-Date: ${FIXED_DATE}`,
        `WARC-Record-ID: <urn:uuid:${uuid(p.url)}>`, 'Content-Type: application/http; msgtype=response',
        ...(first === undefined ? [] : [
          'WARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest',
          `WARC-Refers-To-Target-URI: ${first}`, `WARC-Refers-To-Date: ${FIXED_DATE}`,
        ]),
        `WARC-Payload-Digest: ${digest}`,
        `Content-Length: ${payload.length}`, '', '',
      ].join('\r\n'));
      const record = new Uint8Array(head.length + payload.length + 4);
      record.set(head);
      record.set(payload, head.length);
      record.set(enc.encode('\r\n\r\n'), head.length + payload.length);
      writeSync(fd, gzipSync(record, { level: 6 }));
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Takes a file and pages; writes an ARC file (version 1, the Internet Archive's format before
 * WARC) of the same responses, one gzip member per record: the `filedesc://` record, then per page
 * `URL IP-address Archive-date Content-type Archive-length` and the HTTP response. The IP is
 * 0.0.0.0 (unknown), as the WARC records carry none.
 */
export function writeArc(file: string, pages: Iterable<Pick<Page, 'url' | 'bytes'>>): void {
  const fd = openSync(file, 'w');
  const enc = new TextEncoder();
  const date = FIXED_DATE.replace(/\D/g, '');
  const record = (head: string, block: Uint8Array) => {
    const h = enc.encode(`${head} ${block.length}\n`);
    const out = new Uint8Array(h.length + block.length + 1);
    out.set(h);
    out.set(block, h.length);
    out[out.length - 1] = 10;
    writeSync(fd, gzipSync(out, { level: 6 }));
  };
  try {
    record(`filedesc://${file.split('/').pop()} 0.0.0.0 ${date} text/plain`, enc.encode('1 0 resemble\nURL IP-address Archive-date Content-type Archive-length\n'));
    for (const p of pages) {
      const http = enc.encode(`HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${p.bytes.length}\r\n\r\n`);
      const block = new Uint8Array(http.length + p.bytes.length);
      block.set(http);
      block.set(p.bytes, http.length);
      record(`${p.url} 0.0.0.0 ${date} text/html`, block);
    }
  } finally {
    closeSync(fd);
  }
}

/** Takes a file and named entries; writes a zip of them stored (method 0, as a WACZ stores its WARC files; under 4 GiB). */
export function writeZipStored(file: string, entries: { name: string; bytes: Uint8Array }[]): void {
  const fd = openSync(file, 'w');
  const enc = new TextEncoder();
  const dir: Uint8Array[] = [];
  let at = 0;
  const put = (b: Uint8Array) => { writeSync(fd, b); at += b.length; };
  try {
    for (const e of entries) {
      const name = enc.encode(e.name);
      const crc = crc32(e.bytes);
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0); local.writeUInt16LE(20, 4); local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(e.bytes.length, 18); local.writeUInt32LE(e.bytes.length, 22); local.writeUInt16LE(name.length, 26);
      const offset = at;
      put(local); put(name); put(e.bytes);
      const central = Buffer.alloc(46);
      central.writeUInt32LE(0x02014b50, 0); central.writeUInt16LE(20, 4); central.writeUInt16LE(20, 6); central.writeUInt32LE(crc, 16);
      central.writeUInt32LE(e.bytes.length, 20); central.writeUInt32LE(e.bytes.length, 24); central.writeUInt16LE(name.length, 28);
      central.writeUInt32LE(offset, 42);
      dir.push(central, name);
    }
    const dirOffset = at;
    for (const d of dir) put(d);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(entries.length, 8); end.writeUInt16LE(entries.length, 10);
    end.writeUInt32LE(at - dirOffset, 12); end.writeUInt32LE(dirOffset, 16);
    put(end);
  } finally {
    closeSync(fd);
  }
}
