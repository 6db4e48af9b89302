// The WARC reader takes a record's header lines in one search and one decode when they are buffered
// whole and ASCII (headerLines in src/io/warc.ts), and line by line otherwise. The two must read
// alike: the same WARC, read from a file (its headers buffered whole: the one-search path) and from
// standard input cut into 7-byte chunks (no header buffered whole: the line-by-line path), gives the
// same pages, errors, skips and offsets, on records with every header shape the line reader knows:
// UTF-8 and Latin-1 values, a BOM at a line's start, folded lines, LF line ends, CR CR LF, bare
// CRs, repeated fields, a line over the cap, one line more than the cap (1,001 with the version
// line) and a few fewer, a missing Content-Length.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Document, ReadError } from '../../src/graph/document.js';
import type { SkipEvent } from '../../src/io/options.js';
import { setStdin } from '../../src/io/source.js';
import { readWarc } from '../../src/io/warc.js';
import { concat, httpResponse, tempDir, warcRecord } from './fixtures.js';
import { samplePages } from './fuzz.js';
import { rng } from '../helpers/random.js';

const enc = new TextEncoder();
const { dir, cleanup } = tempDir('resemble-warc-headers-');

/** A response record whose WARC header is written out by hand: `head` lines (after the version line), joined by `eol`. */
function handRecord(head: string[], body: Uint8Array, eol = '\r\n', version = 'WARC/1.1'): Uint8Array {
  const text = [version, ...head, `Content-Length: ${body.length}`].join(eol) + eol + eol;
  return concat([enc.encode(text), body, enc.encode('\r\n\r\n')]);
}

const http = (html: string, extra = '') => enc.encode(`HTTP/1.1 200 OK\r\nContent-Type: text/html${extra}\r\n\r\n${html}`);

function records(): Uint8Array[] {
  const pages = samplePages(6);
  const r = rng(4);
  const out: Uint8Array[] = [
    // the first 64 KiB of standard input come as one chunk: a record larger than that goes first
    warcRecord('warcinfo', { 'WARC-Record-ID': '<urn:uuid:0>' }, 'x'.repeat(80 << 10)),
  ];
  const base = ['WARC-Type: response', 'Content-Type: application/http; msgtype=response', 'WARC-Date: 2020-01-02T03:04:05Z'];
  for (const [i, [url, html]] of pages.entries()) {
    const body = http(html);
    const uri = `WARC-Target-URI: ${url}`;
    out.push(
      httpResponse(url, html),
      handRecord([...base, uri], body, '\n'),
      handRecord([...base, `WARC-Target-URI: http://a.org/caf\u00e9/${i}`], body),
      handRecord([...base, '\ufeffWARC-Target-URI: http://a.org/bom/' + i], body),
      handRecord([...base, `WARC-Target-URI: http://a.org/fold/${i}`, 'WARC-Warcinfo-ID: <urn:uuid:1>', '  folded on', '\tand on'], body),
      handRecord([...base, `WARC-Target-URI: http://a.org/crcr/${i}\r`, 'X-Bare: a\rb'], body),
      handRecord([...base, `WARC-Target-URI: http://a.org/rep/${i}`, 'WARC-IP-Address: 192.0.2.1', 'WARC-IP-Address: 192.0.2.2'], body),
      handRecord([...base, uri, `X-Long: ${'y'.repeat(70 << 10)}`], body),
      handRecord([...base, uri, ...Array.from({ length: 995 }, (_, k) => `X-Many-${k}: v`)], body),
      handRecord([...base, `WARC-Target-URI: http://a.org/thousand/${i}`, ...Array.from({ length: 990 }, (_, k) => `X-${k}: v`)], body),
      handRecord([...base, uri, 'no colon here'], body),
      handRecord([...base, `WARC-Target-URI: http://a.org/latin1/${i}`], body, '\r\n', 'WARC/1.0'),
      handRecord([...base, uri], body, '\r\n', 'WARC/one'),
      concat([enc.encode(`WARC/1.1\r\nWARC-Type: response\r\n${uri}\r\n\r\n`), body, enc.encode('\r\n\r\n')]),
      enc.encode('\r\n\r\n'),
      warcRecord('request', { 'WARC-Target-URI': url }, 'GET / HTTP/1.1\r\n\r\n'),
    );
    // Latin-1 bytes in a header value (invalid as UTF-8)
    const latin = handRecord([...base, `WARC-Target-URI: http://a.org/l${i}`, 'X-Latin: caf_'], body);
    latin[latin.indexOf(0x5f)] = 0xe9;
    out.push(latin);
    if (r() < 0.5) out.push(handRecord([...base, `WARC-Target-URI: http://a.org/late/${i}`], body, '\r\n'));
  }
  return out;
}

interface Run { docs: Document[]; errors: ReadError[]; skips: SkipEvent[] }

async function read(path: string): Promise<Run> {
  const run: Run = { docs: [], errors: [], skips: [] };
  for await (const d of readWarc(path, { onError: (e) => run.errors.push(e), onSkip: (s) => run.skips.push(s) })) run.docs.push(d);
  return run;
}

/** The run with the input's name left out (a file's path against `-`), and no place to read a page back from (standard input has none). */
function comparable(run: Run, name: string) {
  const strip = (s: string) => (s === name ? 'INPUT' : s.startsWith(`${name}#`) ? `INPUT${s.slice(name.length)}` : s);
  return {
    docs: run.docs.map((d) => JSON.stringify({ ...d, bytes: Buffer.from(d.bytes as Uint8Array).toString('base64'), source: strip(d.source ?? ''), origin: undefined })),
    errors: run.errors.map((e) => JSON.stringify({ ...e, source: strip(e.source) })),
    skips: run.skips.map((s) => JSON.stringify({ ...s, source: strip(s.source) })),
  };
}

test('WARC headers: read in one search (a file) and line by line (standard input in 7-byte chunks) alike', async () => {
  const bytes = concat(records());
  const path = join(dir, 'headers.warc');
  writeFileSync(path, bytes);
  const file = await read(path);
  const chunks: Uint8Array[] = [bytes.subarray(0, 64 << 10)];
  for (let at = 64 << 10; at < bytes.length; at += 7) chunks.push(bytes.slice(at, Math.min(bytes.length, at + 7)));
  setStdin(Readable.from(chunks));
  const stdin = await read('-');
  assert.ok(file.docs.length >= 40, `pages read: ${file.docs.length}`);
  assert.ok(file.errors.length >= 20, `errors reported: ${file.errors.length}`);
  assert.ok(file.docs.some((d) => d.url.includes('caf\u00e9')), 'a UTF-8 target URI kept as UTF-8');
  assert.ok(file.errors.some((e) => /more than 1000 lines/.test(e.message)), 'the line cap reported');
  assert.ok(file.errors.some((e) => /a header line of/.test(e.message)), 'the line length cap reported');
  assert.ok(file.docs.some((d) => d.url.includes('/thousand/')), '996 lines (version line and all) are within the cap');
  const a = comparable(stdin, '-'), b = comparable(file, path);
  for (const k of ['docs', 'errors', 'skips'] as const) {
    assert.is(a[k].length, b[k].length, `as many ${k}`);
    for (let i = 0; i < a[k].length; i++) assert.is(a[k][i].slice(0, 2000), b[k][i].slice(0, 2000), `${k} ${i}`);
    assert.equal(a[k], b[k]);
  }
});

test.after(cleanup);
test.run();
