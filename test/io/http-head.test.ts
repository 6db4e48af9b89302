// parseHttpHead (src/io/http-head.ts) against the parser it replaces: warcio's
// StatusAndHeadersParser reading the block through an AsyncIterReader, as the WARC reader used to.
// Same status, same header fields (names, values, order, the Latin-1 re-encoding of values Headers
// refuses as they are) and the same payload offset, on well-formed responses and on seeded
// adversarial blocks: LF-only line ends, no blank line, folded and empty fields, bad names, NUL
// and non-ASCII bytes, CRs near the end, truncations.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AsyncIterReader, StatusAndHeadersParser } from 'warcio';
import { parseHttpHead } from '../../src/io/http-head.js';
import { rng } from '../helpers/random.js';

const enc = new TextEncoder();

async function reference(block: Uint8Array) {
  const reader = new AsyncIterReader([block], null);
  const parsed = await new StatusAndHeadersParser().parse(reader, { headersClass: Headers });
  if (!parsed) return undefined;
  return { status: Number(parsed.statusCode), fields: [...(parsed.headers as Headers)], payloadAt: Math.min(block.length, reader.getReadOffset()) };
}

function ours(block: Uint8Array) {
  const h = parseHttpHead(block);
  if (!h) return undefined;
  return { status: h.status, fields: [...h.headers], payloadAt: block.length - h.payload.length };
}

async function same(block: Uint8Array, what: string): Promise<void> {
  const want = await reference(block);
  const got = ours(block);
  assert.equal(got, want, `${what}: ${JSON.stringify(new TextDecoder().decode(block.subarray(0, 200)))}`);
}

const FIELD_PARTS = [
  'Content-Type: text/html; charset=utf-8', 'content-type: text/plain', 'Content-Length: 12', 'Location: /x',
  'Location: http://example.com/caf\u00e9', 'Set-Cookie: a=1', 'Set-Cookie: b=2', 'X-Empty:', 'X-Empty2:   ',
  '  folded continuation', '\tfolded by tab', 'Bad Name: v', 'NoColon', ': no name', 'X-Nul: a\u0000b',
  'X-Utf8: \u65e5\u672c', 'Transfer-Encoding: chunked', 'Content-Encoding: gzip', 'X-Colon: a:b:c', ' Lead: space',
  'X-Trail: v   ', 'X-\u00e9: v', 'Server: Apache/2.4.57 (Debian)',
];
const STATUS = ['HTTP/1.1 200 OK', 'HTTP/1.0 404 Not Found', 'HTTP/1.1 301', 'HTTP/1.1', 'HTTP/2 abc', '', '   ', 'HTTP/1.1  200 OK', '\u00ef\u00bb\u00bfHTTP/1.1 200 OK'];

test('parseHttpHead: the status, fields and payload warcio gives on crawler-written responses', async () => {
  for (const status of [200, 301, 404, 500]) {
    const head = `HTTP/1.1 ${status} Whatever\r\nDate: Mon, 04 Mar 2024 09:00:00 GMT\r\nContent-Type: text/html\r\nLocation: http://a.org/b\r\nContent-Length: 5\r\n\r\n`;
    await same(enc.encode(`${head}hello`), `status ${status}`);
    await same(enc.encode(head), `status ${status}, no body`);
    const got = parseHttpHead(enc.encode(`${head}hello`))!;
    assert.is(got.status, status);
    assert.is(new TextDecoder().decode(got.payload), 'hello');
  }
  await same(new Uint8Array(0), 'empty block');
  await same(enc.encode('HTTP/1.1 200 OK'), 'status line only, no line end');
  await same(enc.encode('HTTP/1.1 200 OK\r\n'), 'status line only');
  await same(enc.encode('HTTP/1.1 200 OK\r\n\r\nbody'), 'no fields');
  await same(enc.encode('HTTP/1.1 200 OK\r\n\r\nbody\r\n\r\nmore'), 'no fields, a blank line in the body');
  await same(enc.encode('HTTP/1.1 200 OK\nContent-Type: text/html\n\nbody'), 'LF line ends');
  await same(enc.encode('HTTP/1.1 200 OK\r\nA: b\r\n\r'), 'a CR in the last bytes');
  await same(enc.encode('\r\nHTTP/1.1 200 OK\r\n\r\n'), 'a blank first line');
  // the blank line at the very end of the block, after a run of CRs
  await same(enc.encode('HTTP/1.1 200 OK\r\n\r\n\r\n'), 'four bytes after the status line');
  await same(enc.encode('HTTP/1.1 200 OK\r\n\r\r\r\r\n\r\n'), 'a run of CRs');
});

test('parseHttpHead: 3,000 seeded adversarial blocks parse as warcio parses them', async () => {
  const r = rng(39);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  for (let n = 0; n < 3000; n++) {
    const eol = r() < 0.8 ? '\r\n' : pick(['\n', '\r', '\r\r\n']);
    const lines = [pick(STATUS)];
    const k = Math.floor(r() * 8);
    for (let i = 0; i < k; i++) lines.push(pick(FIELD_PARTS));
    let text = lines.join(eol) + (r() < 0.85 ? eol + eol : r() < 0.5 ? eol : '');
    text += pick(['', 'body', '<p>x</p>\r\n\r\nmore', '\r', '\r\n', '\r\n\r', 'caf\u00e9']);
    let block = enc.encode(text);
    if (r() < 0.2) block = block.subarray(0, Math.floor(r() * block.length));
    if (r() < 0.2) {
      // a few bytes flipped to anything, CRs and LFs among them
      block = block.slice();
      for (let j = 0; j < 3 && block.length > 0; j++) block[Math.floor(r() * block.length)] = pick([13, 10, 0, 0x80, 0xff, 32, 58, Math.floor(r() * 256)]);
    }
    await same(block, `case ${n}`);
  }
});

test.run();
