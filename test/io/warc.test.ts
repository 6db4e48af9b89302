import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Document, ReadError } from '../../src/graph/document.js';
import { utf8Bytes } from '../../src/graph/document.js';
import type { SkipEvent } from '../../src/io/options.js';
import { readWarc, readWarcStreaming } from '../../src/io/warc.js';
import { gunzipPieces, gzipHeaderLength } from '../../src/io/gunzip.js';
import { concat, gzipMembers, httpResponse, tempDir, warcRecord } from './fixtures.js';
import { rng } from '../helpers/random.js';

const { dir, cleanup } = tempDir();
const enc = new TextEncoder();
const dec = new TextDecoder();

// Every case runs through both readers: node:zlib per member (readWarc) and warcio streaming.
const READERS = { readWarc, readWarcStreaming };

// warcio's streaming offsets are member offsets only while each member holds one record.
async function read(name: string, bytes: Uint8Array, options = {}, sameSources = true) {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  const runs = [];
  for (const [reader, fn] of Object.entries(READERS)) {
    const errors: ReadError[] = [];
    const skips: SkipEvent[] = [];
    const docs: Document[] = [];
    for await (const d of fn(path, { onError: (e) => errors.push(e), onSkip: (s) => skips.push(s), ...options })) docs.push(d);
    runs.push({ reader, docs, errors, skips, path });
  }
  const [a, b] = runs;
  const strip = (docs: Document[]) => docs.map((d) => ({ ...d, source: sameSources ? d.source : '' }));
  assert.equal(strip(b.docs), strip(a.docs), `${name}: readWarcStreaming yields what readWarc does`);
  const where = (skips: SkipEvent[]) => skips.map((k) => (sameSources ? k : { ...k, location: '' }));
  assert.equal(where(b.skips), where(a.skips));
  assert.equal(b.errors.map((e) => e.location), a.errors.map((e) => e.location), `${name}: same error locations`);
  return a;
}

// "café" in windows-1252: é is the single byte 0xE9, invalid as UTF-8.
const cafe1252 = concat([enc.encode('<html><body><p>caf'), Uint8Array.of(0xe9), enc.encode('</p><a href="/menu#top">m</a></body></html>')]);

const records = [
  warcRecord('warcinfo', { 'WARC-Record-ID': '<urn:uuid:1>' }, 'software: hand\r\n'),
  warcRecord('request', { 'WARC-Target-URI': 'http://a.org/' }, 'GET / HTTP/1.1\r\nHost: a.org\r\n\r\n'),
  httpResponse('http://a.org/', '<a href="/x">x</a><a href="http://b.org/#f">b</a>', { ip: '192.0.2.1', date: '2003-04-05T06:07:08Z' }),
  httpResponse('http://a.org/cafe', cafe1252, { contentType: 'text/html; charset=windows-1252' }),
  httpResponse('http://a.org/missing', 'not found', { status: 404 }),
  httpResponse('http://a.org/logo.png', Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0, 0, 0), { contentType: 'image/png' }),
  httpResponse('http://a.org/z', gzipSync('<p>zipped body</p>'), { extraHttp: ['Content-Encoding: gzip'] }),
  httpResponse('http://a.org/c', '5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n', { contentType: 'text/plain', extraHttp: ['Transfer-Encoding: chunked'] }),
  warcRecord('resource', { 'WARC-Target-URI': 'http://a.org/r.txt', 'Content-Type': 'text/plain' }, 'a resource'),
  warcRecord('revisit', { 'WARC-Target-URI': 'http://a.org/' }, ''),
];

function checkGood(docs: Document[]) {
  assert.equal(docs.map((d) => d.url), ['http://a.org/', 'http://a.org/cafe', 'http://a.org/z', 'http://a.org/c', 'http://a.org/r.txt']);
  const [root, cafe, z, c, r] = docs;
  assert.is(root.ip, '192.0.2.1');
  assert.is(root.date, '2003-04-05T06:07:08Z');
  assert.is(root.status, 200);
  assert.is(root.contentType, 'text/html');
  assert.equal(root.links, ['http://a.org/x', 'http://b.org/']);
  // The header charset wins: raw bytes kept, a UTF-8 view for sketching.
  assert.is(cafe.charset, 'windows-1252');
  assert.equal(cafe.bytes, cafe1252);
  assert.match(dec.decode(utf8Bytes(cafe)), '<p>café</p>');
  assert.equal(cafe.links, ['http://a.org/menu']);
  assert.is(dec.decode(z.bytes), '<p>zipped body</p>');
  assert.is(dec.decode(c.bytes), 'hello world');
  assert.is(c.contentType, 'text/plain');
  assert.is(r.contentType, 'text/plain');
  assert.is(dec.decode(r.bytes), 'a resource');
  assert.is(r.status, undefined);
}

test('WARC: response and resource records become documents with URL, date, IP, status, charset', async () => {
  const { docs, errors, skips, path } = await read('good.warc', concat(records));
  assert.equal(errors, []);
  checkGood(docs);
  assert.equal(skips.map((s) => s.reason), ['status', 'binary', 'revisit']);
  assert.match(docs[1].source!, `${path}#`);
});

test('WARC.gz (one gzip member per record) reads the same', async () => {
  const { docs, errors } = await read('good.warc.gz', concat(gzipMembers(records)));
  assert.equal(errors, []);
  checkGood(docs);
  const offsets = docs.map((d) => Number(d.source!.split('#')[1]));
  const members = gzipMembers(records);
  const starts = members.map((_, i) => members.slice(0, i).reduce((n, m) => n + m.length, 0));
  assert.equal(offsets, [starts[2], starts[3], starts[6], starts[7], starts[8]]);
});

test('a WARC gzipped as one stream: every record located at member offset 0', async () => {
  const { docs, errors } = await read('one-stream.warc.gz', new Uint8Array(gzipSync(concat(records))), {}, false);
  assert.equal(errors, []);
  checkGood(docs);
  assert.ok(docs.every((d) => d.source!.endsWith('#0')));
});

test('allStatuses keeps the 404', async () => {
  const { docs } = await read('all.warc', concat(records), { allStatuses: true });
  assert.ok(docs.some((d) => d.url === 'http://a.org/missing' && d.status === 404));
});

const three = [httpResponse('http://a.org/1', 'one'), httpResponse('http://a.org/2', 'two'), httpResponse('http://a.org/3', 'three')];
const members = gzipMembers(three);

test('a truncated gzip member mid-file is reported with its offset; records around it are kept', async () => {
  const { docs, errors } = await read('cut.warc.gz', concat([members[0], members[1].subarray(0, 25), members[2]]));
  assert.equal(docs.map((d) => d.url), ['http://a.org/1', 'http://a.org/3']);
  assert.is(errors.length, 1);
  assert.is(errors[0].location, `offset ${members[0].length}`);
  assert.match(errors[0].message, /gzip/);
});

test('a gzip member cut at the end of the file is reported; earlier records kept', async () => {
  const { docs, errors } = await read('tail.warc.gz', concat([members[0], members[1], members[2].subarray(0, members[2].length - 12)]));
  assert.equal(docs.map((d) => d.url), ['http://a.org/1', 'http://a.org/2']);
  assert.is(errors.length, 1);
  assert.is(errors[0].location, `offset ${members[0].length + members[1].length}`);
});

test('a malformed record header is reported with its offset; reading resumes at the next record', async () => {
  const bad = enc.encode('WARC/1.0\r\nWARC-Type: response\r\nContent-Length: twelve\r\n\r\nHTTP/1.1 200 OK\r\n\r\nbody\r\n\r\n');
  const garbage = enc.encode('this is not a WARC record at all\r\n\r\n');
  const { docs, errors } = await read('bad.warc', concat([three[0], bad, three[1], garbage, three[2]]));
  assert.equal(docs.map((d) => d.url), ['http://a.org/1', 'http://a.org/2', 'http://a.org/3']);
  assert.equal(errors.map((e) => e.location), [`offset ${three[0].length}`, `offset ${three[0].length + bad.length + three[1].length}`]);
  assert.match(errors[0].message, 'Content-Length');
  assert.match(errors[1].message, `36 bytes that are not a WARC record skipped to the next record at offset ${three[0].length + bad.length + three[1].length + garbage.length}`);
});

test('an uncompressed record cut short at the end is reported as truncated', async () => {
  const whole = concat(three);
  const { docs, errors } = await read('short.warc', whole.subarray(0, whole.length - 10));
  assert.equal(docs.map((d) => d.url), ['http://a.org/1', 'http://a.org/2']);
  assert.is(errors.length, 1);
  assert.match(errors[0].message, 'truncated');
  assert.is(errors[0].location, `offset ${three[0].length + three[1].length}`);
});

test('a Content-Length too small is reported at its record; the next record is still read', async () => {
  const short = warcRecord('resource', { 'WARC-Target-URI': 'http://a.org/s', 'Content-Type': 'text/plain' }, 'two two two two', 8);
  const { docs, errors } = await read('small.warc', concat([three[0], short, three[2]]));
  assert.equal(docs.map((d) => [d.url, dec.decode(d.bytes)]), [['http://a.org/1', 'one'], ['http://a.org/s', 'two two '], ['http://a.org/3', 'three']]);
  assert.equal(errors.map((e) => e.location), [`offset ${three[0].length}`]);
  assert.match(errors[0].message, 'Content-Length too small: 11 bytes after the record');
});

test('gzip members: header fields skipped, garbage between members reported, members located', async () => {
  const named = Uint8Array.from(gzipSync('x'));
  named[3] = 8 | 16; // FNAME and FCOMMENT, each a NUL-terminated string after the 10-byte header
  const withNames = concat([named.subarray(0, 10), enc.encode('name\0comment\0'), named.subarray(10)]);
  assert.is(gzipHeaderLength(withNames), 10 + 5 + 8);
  assert.is(gzipHeaderLength(withNames.subarray(0, 12)), -1);
  const r = rng(1);
  const noisy = Array.from({ length: 5000 }, () => String.fromCharCode(97 + Math.floor(r() * 26))).join('');
  assert.ok(gzipSync(noisy).length > 1000);
  const file = concat([withNames, enc.encode('junk'), gzipSync(noisy)]);
  // Any split of the input into chunks gives the same pieces.
  for (const size of [1, 7, 100, file.length]) {
    const chunks = Array.from({ length: Math.ceil(file.length / size) }, (_, i) => file.subarray(i * size, (i + 1) * size));
    const got: unknown[] = [];
    let text = '';
    for await (const p of gunzipPieces((async function* () { yield* chunks; })())) {
      if ('damage' in p) got.push(['damage', p.damage.offset, p.damage.truncated]);
      else {
        if (got.length === 0 || (got[got.length - 1] as unknown[])[1] !== p.member) got.push(['data', p.member]);
        text += dec.decode(p.bytes);
      }
    }
    assert.equal(got, [['data', 0], ['damage', withNames.length, false], ['data', withNames.length + 4]], `chunks of ${size}`);
    assert.is(text, 'x' + noisy);
  }
});

test('a missing file is one E_IO error', async () => {
  const errors: ReadError[] = [];
  for await (const _ of readWarc(join(dir, 'none.warc'), { onError: (e) => errors.push(e) })) assert.unreachable();
  assert.equal(errors.map((e) => e.code), ['E_IO']);
});

test.after(cleanup);
test.run();
