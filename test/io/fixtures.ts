/** Builders for small crawl inputs written by hand in the tests: WARC records, gzip members, temp dirs. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateRawSync, gzipSync } from 'node:zlib';

const enc = new TextEncoder();

/** Concatenates byte arrays. */
export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function bytesOf(x: string | Uint8Array): Uint8Array {
  return typeof x === 'string' ? enc.encode(x) : x;
}

/** One WARC record: header lines, the block, and the two CRLFs that end it (WARC 1.0 §4). */
export function warcRecord(type: string, headers: Record<string, string>, block: string | Uint8Array, contentLength?: number): Uint8Array {
  const body = bytesOf(block);
  const lines = [`WARC/1.0`, `WARC-Type: ${type}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), `Content-Length: ${contentLength ?? body.length}`];
  return concat([enc.encode(lines.join('\r\n') + '\r\n\r\n'), body, enc.encode('\r\n\r\n')]);
}

/** A `response` record with an HTTP/1.1 block. */
export function httpResponse(url: string, body: string | Uint8Array, opts: { status?: number; contentType?: string; ip?: string; date?: string; extraHttp?: string[] } = {}): Uint8Array {
  const http = concat([
    enc.encode(
      [`HTTP/1.1 ${opts.status ?? 200} OK`, `Content-Type: ${opts.contentType ?? 'text/html'}`, ...(opts.extraHttp ?? [])].join('\r\n') + '\r\n\r\n',
    ),
    bytesOf(body),
  ]);
  const headers: Record<string, string> = { 'WARC-Target-URI': url, 'WARC-Date': opts.date ?? '2001-02-03T04:05:06Z', 'Content-Type': 'application/http; msgtype=response' };
  if (opts.ip) headers['WARC-IP-Address'] = opts.ip;
  return warcRecord('response', headers, http);
}

/** One gzip member per record, as WARC.gz files are written. */
export function gzipMembers(records: Uint8Array[]): Uint8Array[] {
  return records.map((r) => new Uint8Array(gzipSync(r)));
}

/** A fresh temp dir under the OS temp folder, and its removal. */
export function tempDir(prefix = 'resemble-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A zip of the entries, stored (method 0) unless `deflate` names an entry; with `zip64`, sizes and
 * offsets go in ZIP64 extra fields and a ZIP64 end record (as zips past 4 GiB must have them).
 */
export function zipStored(entries: { name: string; bytes: Uint8Array }[], options: { zip64?: boolean; deflate?: string } = {}): Uint8Array {
  const parts: Uint8Array[] = [];
  const dir: Uint8Array[] = [];
  let at = 0;
  const put = (b: Uint8Array) => { parts.push(b); at += b.length; };
  for (const e of entries) {
    const name = enc.encode(e.name);
    const data = options.deflate === e.name ? new Uint8Array(deflateRawSync(e.bytes)) : e.bytes;
    const method = options.deflate === e.name ? 8 : 0;
    const crc = crc32(e.bytes);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0); local.writeUInt16LE(method, 8); local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18); local.writeUInt32LE(e.bytes.length, 22); local.writeUInt16LE(name.length, 26);
    const offset = at;
    put(local); put(name); put(data);
    const extra = Buffer.alloc(options.zip64 ? 28 : 0);
    if (options.zip64) {
      extra.writeUInt16LE(1, 0); extra.writeUInt16LE(24, 2);
      extra.writeBigUInt64LE(BigInt(e.bytes.length), 4); extra.writeBigUInt64LE(BigInt(data.length), 12); extra.writeBigUInt64LE(BigInt(offset), 20);
    }
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0); central.writeUInt16LE(45, 4); central.writeUInt16LE(45, 6); central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(options.zip64 ? 0xffffffff : data.length, 20); central.writeUInt32LE(options.zip64 ? 0xffffffff : e.bytes.length, 24);
    central.writeUInt16LE(name.length, 28); central.writeUInt16LE(extra.length, 30); central.writeUInt32LE(options.zip64 ? 0xffffffff : offset, 42);
    dir.push(central, name, extra);
  }
  const dirOffset = at;
  for (const d of dir) put(d);
  const dirSize = at - dirOffset;
  if (options.zip64) {
    const end64 = Buffer.alloc(56);
    end64.writeUInt32LE(0x06064b50, 0); end64.writeBigUInt64LE(44n, 4); end64.writeUInt16LE(45, 12); end64.writeUInt16LE(45, 14);
    end64.writeBigUInt64LE(BigInt(entries.length), 24); end64.writeBigUInt64LE(BigInt(entries.length), 32);
    end64.writeBigUInt64LE(BigInt(dirSize), 40); end64.writeBigUInt64LE(BigInt(dirOffset), 48);
    const end64At = at;
    put(end64);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0); locator.writeBigUInt64LE(BigInt(end64At), 8); locator.writeUInt32LE(1, 16);
    put(locator);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(options.zip64 ? 0xffff : entries.length, 8); end.writeUInt16LE(options.zip64 ? 0xffff : entries.length, 10);
  end.writeUInt32LE(options.zip64 ? 0xffffffff : dirSize, 12); end.writeUInt32LE(options.zip64 ? 0xffffffff : dirOffset, 16);
  put(end);
  return concat(parts);
}
