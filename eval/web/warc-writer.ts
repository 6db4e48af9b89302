/**
 * Writes WARC/1.1 files as a crawler writes them: a `warcinfo` record first, then per fetch a
 * `request` and its `response` (or `revisit`), each record its own gzip member, with
 * `WARC-IP-Address`, `WARC-Payload-Digest` (SHA-1 in base 32, as Heritrix and wget write it) and
 * `WARC-Concurrent-To`. Deterministic: record ids are hashes of the record's place, dates are given.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

/** One HTTP exchange to write. */
export interface Exchange {
  uri: string;
  /** The server's address as the crawler resolved it (written as is: a bad one stays bad). */
  ip: string;
  /** ISO date to the second, `YYYY-MM-DDThh:mm:ssZ`. */
  date: string;
  status: number;
  reason: string;
  /** HTTP response headers after the status line, in order (Content-Length is added). */
  headers: Array<[string, string]>;
  body: Uint8Array;
  /** Write a revisit record instead of a response: the HTTP headers only, naming the earlier record. */
  revisit?: { profile: 'identical-payload-digest' | 'server-not-modified'; uri: string; date: string; id: string; digest: string };
  /** Write a request record before the response (a crawler's WARC holds them). */
  request?: boolean;
}

const enc = new TextEncoder();

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** SHA-1 of the bytes in base 32, the digest form of WARC-Payload-Digest most crawlers write. */
export function sha1Base32(bytes: Uint8Array): string {
  const h = createHash('sha1').update(bytes).digest();
  let bits = 0, value = 0, out = '';
  for (const b of h) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) { out += BASE32[(value >>> (bits - 5)) & 31]; bits -= 5; }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return `sha1:${out}`;
}

/** A record id from a seed: a UUID-shaped hash, the same on every build. */
export function recordId(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  return `<urn:uuid:${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}>`;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

function record(fields: Array<[string, string]>, block: Uint8Array): Uint8Array {
  const head = ['WARC/1.1', ...fields.map(([k, v]) => `${k}: ${v}`), `Content-Length: ${block.length}`, '', ''].join('\r\n');
  return gzipSync(concat([enc.encode(head), block, enc.encode('\r\n\r\n')]), { level: 6 });
}

/** What was written for one exchange: the response's (or revisit's) record id and payload digest. */
export interface Written {
  id: string;
  digest: string;
}

/** Writes one WARC file, record by record. */
export class WarcWriter {
  private readonly fd: number;
  private n = 0;

  constructor(private readonly file: string, name: string, info: Record<string, string>, date: string) {
    this.fd = openSync(file, 'w');
    const fields = Object.entries(info).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    writeSync(this.fd, record([
      ['WARC-Type', 'warcinfo'], ['WARC-Date', date], ['WARC-Filename', name], ['WARC-Record-ID', recordId(`${name} warcinfo`)],
      ['Content-Type', 'application/warc-fields'],
    ], enc.encode(fields)));
  }

  /** Takes an exchange; writes its request (when asked) and response or revisit records; returns the response's id and digest. */
  write(x: Exchange): Written {
    const k = this.n++;
    const id = recordId(`${this.file} ${k} ${x.uri}`);
    const url = new URL(x.uri);
    if (x.request) {
      const req = enc.encode(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nUser-Agent: Mozilla/5.0 (compatible; archive-crawler/3.4)\r\nAccept: text/html,application/xhtml+xml,*/*;q=0.8\r\nConnection: close\r\n\r\n`);
      writeSync(this.fd, record([
        ['WARC-Type', 'request'], ['WARC-Target-URI', x.uri], ['WARC-Date', x.date], ['WARC-Record-ID', recordId(`${this.file} ${k} request`)],
        ['WARC-Concurrent-To', id], ['WARC-IP-Address', x.ip], ['Content-Type', 'application/http; msgtype=request'],
      ], req));
    }
    const status = x.revisit?.profile === 'server-not-modified' ? 'HTTP/1.1 304 Not Modified' : `HTTP/1.1 ${x.status} ${x.reason}`;
    const headers = [status, ...x.headers.map(([k2, v]) => `${k2}: ${v}`), ...(x.revisit ? [] : [`Content-Length: ${x.body.length}`]), '', ''].join('\r\n');
    const digest = x.revisit ? x.revisit.digest : sha1Base32(x.body);
    const fields: Array<[string, string]> = [
      ['WARC-Type', x.revisit ? 'revisit' : 'response'], ['WARC-Target-URI', x.uri], ['WARC-Date', x.date], ['WARC-Record-ID', id],
      ['WARC-IP-Address', x.ip], ['Content-Type', 'application/http; msgtype=response'],
    ];
    if (x.revisit) {
      fields.push(['WARC-Profile', `http://netpreserve.org/warc/1.1/revisit/${x.revisit.profile}`],
        ['WARC-Refers-To-Target-URI', x.revisit.uri], ['WARC-Refers-To-Date', x.revisit.date], ['WARC-Refers-To', x.revisit.id]);
    }
    fields.push(['WARC-Payload-Digest', digest]);
    writeSync(this.fd, record(fields, x.revisit ? enc.encode(headers) : concat([enc.encode(headers), x.body])));
    return { id, digest };
  }

  close(): void {
    closeSync(this.fd);
  }
}
