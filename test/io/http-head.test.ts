// parseHttpHead (src/io/http-head.ts) against the parser it replaces: warcio's
// StatusAndHeadersParser reading the block through an AsyncIterReader into Headers, as the WARC
// reader used to; and HttpFields against Headers itself, field by field.
// Same status, same header fields (names, values, order, the Latin-1 re-encoding of values Headers
// refuses as they are) and the same payload offset, on well-formed responses and on seeded
// adversarial blocks: LF-only line ends, no blank line, folded and empty fields, bad names, NUL
// and non-ASCII bytes, CRs near the end, truncations.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AsyncIterReader, StatusAndHeadersParser } from 'warcio';
import { HttpFields, parseHttpHead } from '../../src/io/http-head.js';
import { rng } from '../helpers/random.js';

const enc = new TextEncoder();

async function reference(block: Uint8Array) {
  const reader = new AsyncIterReader([block], null);
  const parsed = await new StatusAndHeadersParser().parse(reader, { headersClass: Headers });
  if (!parsed) return undefined;
  const headers = parsed.headers as Headers;
  const names = [...new Set([...headers.keys()])].sort();
  return { status: Number(parsed.statusCode), fields: names.map((n) => [n, headers.get(n)]), payloadAt: Math.min(block.length, reader.getReadOffset()) };
}

function ours(block: Uint8Array) {
  const h = parseHttpHead(block);
  if (!h) return undefined;
  const names = h.headers.entries().map(([n]) => n).sort();
  for (const n of names) assert.is(h.headers.has(n.toUpperCase()), true, 'has() takes any case');
  return { status: h.status, fields: names.map((n) => [n, h.headers.get(n)]), payloadAt: block.length - h.payload.length };
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

test('HttpFields: what Headers keeps and refuses, on seeded names and values', () => {
  const r = rng(391);
  const chars = ['a', 'B', '-', '_', '.', '!', '~', '`', '|', '(', '@', ':', ' ', '\t', '\r', '\n', '\0', '\x0b', '\x7f', '\u00e9', '\u00ff', '\u0100', '\u65e5', '\u00a0', '"', ';', ',', '9'];
  const word = (max: number) => Array.from({ length: Math.floor(r() * max) }, () => chars[Math.floor(r() * chars.length)]).join('');
  const names = ['Cookie', 'cookie', 'Set-Cookie', 'Content-Type', 'content-TYPE', 'X'];
  for (let n = 0; n < 2000; n++) {
    const ours = new HttpFields(), theirs = new Headers();
    const used = new Set<string>();
    for (let k = 0; k < 1 + Math.floor(r() * 5); k++) {
      const name = r() < 0.5 ? names[Math.floor(r() * names.length)] : word(6);
      const value = word(10);
      let threw = false;
      try { theirs.append(name, value); } catch { threw = true; }
      assert.is(ours.append(name, value), !threw, `append(${JSON.stringify(name)}, ${JSON.stringify(value)})`);
      used.add(name);
    }
    for (const name of used) {
      let want: string | null = null, has = false;
      try { want = theirs.get(name); has = theirs.has(name); } catch { /* a name Headers refuses is in neither */ }
      assert.is(ours.get(name), want, `get(${JSON.stringify(name)})`);
      assert.is(ours.has(name), has);
    }
  }
});

test.run();
