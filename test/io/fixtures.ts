/** Builders for small crawl inputs written by hand in the tests: WARC records, gzip members, temp dirs. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

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
