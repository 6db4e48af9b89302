// Where the readers say each record lies (Document.origin), and reading one record back from there:
// every document of a plain JSONL file, a plain WARC, a .warc.gz of one gzip member per record and a
// folder carries its origin, and RecordReader gives back the same document (the same bytes, the
// same UTF-8 after charset re-encoding and JSON unescaping); standard input, gzip streams and gzip
// members that do not hold exactly one record carry none; a record that changed comes back as a message.
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { utf8Bytes, type Document } from '../../src/graph/document.js';
import { readCrawl } from '../../src/io/crawl.js';
import { gunzipPieces } from '../../src/io/gunzip.js';
import { RecordReader } from '../../src/io/read-back.js';
import { setStdin } from '../../src/io/source.js';
import { concat, gzipMembers, httpResponse, tempDir, warcRecord } from './fixtures.js';

const { dir, cleanup } = tempDir();
const enc = new TextEncoder();
const win1252 = (s: string) => Uint8Array.from(s, (c) => (c === '€' ? 0x80 : c.charCodeAt(0)));

// JSONL with a byte-order mark, CRLF and LF line ends, blank and broken lines, escapes (\" \\ \n \t
// \u00e9, a surrogate pair) and raw non-ASCII text, html and text fields.
const escaped = (s: string) => JSON.stringify(s).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const page = (i: number) => `<html><body><h1>Seite ${i}</h1><p>Grüße aus Köln — 日本語のページ 😀 "quoted" back\\slash\ttab\nline ${'wort '.repeat(i * 13)}</p></body></html>`;
const jsonlLines = [
  '\ufeff' + JSON.stringify({ url: 'http://a.example/0', html: page(0) }),
  `{"url":"http://a.example/1","html":${escaped(page(1))},"date":"2024-01-02T03:04:05Z"}`,
  '',
  '{"url": 3}',
  JSON.stringify({ url: 'http://a.example/2', text: page(2), ip: '10.0.0.1' }),
  `{ "html" : ${escaped(page(3))} , "url" : "http://a.example/3" }`,
  JSON.stringify({ url: 'http://a.example/4', html: page(4) }),
];
const jsonl = join(dir, 'pages.jsonl');
writeFileSync(jsonl, jsonlLines.map((l, i) => l + (i % 2 ? '\r\n' : '\n')).join(''));

// WARC records: UTF-8, windows-1252 by its HTTP header, a 404 and a metadata record (not pages), a conversion record.
const records = [
  httpResponse('http://w.example/a', page(5), { contentType: 'text/html; charset=utf-8' }),
  httpResponse('http://w.example/b', win1252('<p>Caf\xe9 na\xefve \x80 10 ' + 'mot '.repeat(40) + '</p>'), { contentType: 'text/html; charset=windows-1252' }),
  httpResponse('http://w.example/missing', 'gone', { status: 404 }),
  warcRecord('metadata', { 'WARC-Target-URI': 'http://w.example/a' }, 'via: x'),
  warcRecord('conversion', { 'WARC-Target-URI': 'http://w.example/c', 'Content-Type': 'text/plain' }, 'plain text ' + 'wort '.repeat(30)),
  httpResponse('http://w.example/d', page(6)),
];
const warc = join(dir, 'pages.warc'), warcGz = join(dir, 'pages.warc.gz'), oneStream = join(dir, 'stream.warc.gz');
writeFileSync(warc, concat(records));
writeFileSync(warcGz, concat(gzipMembers(records)));
writeFileSync(oneStream, gzipSync(concat(records)));
const jsonlGz = join(dir, 'pages.jsonl.gz');
writeFileSync(jsonlGz, gzipSync(readFileSync(jsonl)));

// A folder with a windows-1252 page declared by its meta tag.
const folder = join(dir, 'mirror');
mkdirSync(join(folder, 'f.example', 'docs'), { recursive: true });
writeFileSync(join(folder, 'f.example', 'index.html'), page(7));
writeFileSync(join(folder, 'f.example', 'docs', 'latin.html'), win1252('<html><head><meta charset="windows-1252"></head><body>Gr\xfc\xdfe \x80 ' + 'Wort '.repeat(50) + '</body></html>'));

async function read(path: string | string[]): Promise<Document[]> {
  const docs: Document[] = [];
  for await (const d of readCrawl(path, { links: false })) docs.push(d);
  return docs;
}

/** Reads every document's record back; asserts it is the same document. */
async function readsBack(docs: Document[]): Promise<void> {
  const reader = new RecordReader({});
  try {
    for (const d of docs) {
      const back = await reader.read(d.origin!);
      if (typeof back === 'string') throw new Error(`${d.source}: ${back}`);
      assert.equal(back.bytes, d.bytes, `${d.source}: bytes`);
      assert.equal(utf8Bytes(back), utf8Bytes(d), `${d.source}: UTF-8`);
      assert.is(back.contentType, d.contentType);
      assert.is(back.charset, d.charset);
      if (d.origin!.kind !== 'file') assert.is(back.url, d.url);
    }
  } finally {
    reader.close();
  }
}

test('plain JSONL: every document carries its line; each reads back the same (BOM, CRLF, escapes, non-ASCII)', async () => {
  const docs = await read(jsonl);
  assert.is(docs.length, 5);
  const file = readFileSync(jsonl);
  for (const d of docs) {
    assert.is(d.origin!.kind, 'jsonl');
    assert.is(d.origin!.path, jsonl);
    const line = file.subarray(d.origin!.offset, d.origin!.offset + d.origin!.length).toString();
    assert.ok(line.startsWith('{') && line.endsWith('}'), line.slice(0, 40));
  }
  assert.is(docs[0].origin!.offset, 3, 'after the byte-order mark');
  assert.ok(new TextDecoder().decode(docs[1].bytes).includes('Grüße aus Köln — 日本語のページ 😀'));
  await readsBack(docs);
});

test('plain WARC and a .warc.gz of one member per record: every page carries its record, reads back the same (charset re-encoded)', async () => {
  for (const path of [warc, warcGz]) {
    const docs = await read(path);
    assert.equal(docs.map((d) => d.url), ['http://w.example/a', 'http://w.example/b', 'http://w.example/c', 'http://w.example/d']);
    assert.ok(docs[1].utf8 && docs[1].charset === 'windows-1252', 'the windows-1252 page is re-encoded');
    assert.ok(docs.every((d) => d.origin?.kind === (path === warc ? 'warc' : 'warc-gz')));
    await readsBack(docs);
  }
  // in the .warc.gz, a record's origin is its gzip member
  const gz = gzipMembers(records);
  const docs = await read(warcGz);
  assert.equal(docs[0].origin, { path: warcGz, kind: 'warc-gz', offset: 0, length: gz[0].length });
  const third = gz.slice(0, 5).reduce((n, m) => n + m.length, 0);
  assert.equal(docs[3].origin, { path: warcGz, kind: 'warc-gz', offset: third, length: gz[5].length });
});

test('a folder: every page carries its file; a windows-1252 page reads back re-encoded the same', async () => {
  const docs = await read(folder);
  assert.is(docs.length, 2);
  assert.ok(docs.some((d) => d.charset === 'windows-1252' && d.utf8));
  for (const d of docs) assert.equal(d.origin, { path: d.source, kind: 'file', offset: 0, length: d.bytes.length });
  await readsBack(docs);
});

test('no origin: standard input, a .jsonl.gz, a WARC gzipped as one stream', async () => {
  for (const path of [jsonlGz, oneStream]) {
    const docs = await read(path);
    assert.ok(docs.length >= 4, `${path}: ${docs.length}`);
    assert.ok(docs.every((d) => d.origin === undefined), path);
  }
  for (const path of [jsonl, warc]) {
    setStdin(Readable.from([readFileSync(path)]));
    const docs = await read('-');
    assert.ok(docs.length >= 4, `${path} on stdin: ${docs.length}`);
    assert.ok(docs.every((d) => d.origin === undefined), `${path} on stdin`);
  }
});

test('.warc.gz: two records in one member carry no origin; a record in two members of its own is read back through both', async () => {
  const [a, b, , , c, d] = records;
  const gz = [gzipSync(a), gzipSync(b.subarray(0, 100)), gzipSync(b.subarray(100)), gzipSync(concat([c, d]))];
  const path = join(dir, 'mixed.warc.gz');
  writeFileSync(path, concat(gz));
  const docs = await read(path);
  assert.equal(docs.map((x) => x.url), ['http://w.example/a', 'http://w.example/b', 'http://w.example/c', 'http://w.example/d']);
  assert.equal(docs.map((x) => x.origin !== undefined), [true, true, false, false]);
  assert.equal(docs[1].origin, { path, kind: 'warc-gz', offset: gz[0].length, length: gz[1].length + gz[2].length });
  await readsBack(docs.slice(0, 2));
});

test('a WARC record framed with an error (Content-Length too large) carries no origin', async () => {
  const bad = warcRecord('resource', { 'WARC-Target-URI': 'http://w.example/r', 'Content-Type': 'text/plain' }, 'short text here', 400);
  const path = join(dir, 'bad.warc');
  writeFileSync(path, concat([bad, records[0]]));
  const errors: string[] = [];
  const docs: Document[] = [];
  for await (const d of readCrawl(path, { links: false, onError: (e) => errors.push(e.message) })) docs.push(d);
  assert.equal(docs.map((x) => x.url), ['http://w.example/r', 'http://w.example/a']);
  assert.match(errors[0], 'Content-Length too large');
  assert.equal(docs.map((x) => x.origin !== undefined), [false, true]);
});

test('gzip pieces carry the end of their member, at any split of the input into chunks', async () => {
  const gz = gzipMembers(records);
  const file = concat(gz);
  const ends = gz.map((_, i) => gz.slice(0, i + 1).reduce((n, m) => n + m.length, 0));
  // and a member too large to inflate in one call (streamed in pieces: the last carries the end)
  const big = gzipSync(enc.encode('x'.repeat(6 << 20)));
  for (const size of [7, 1000, file.length]) {
    const chunks = Array.from({ length: Math.ceil(file.length / size) }, (_, i) => file.subarray(i * size, (i + 1) * size));
    const got: number[] = [];
    for await (const p of gunzipPieces((async function* () { yield* chunks; yield big; })())) if ('bytes' in p && p.end !== undefined) got.push(p.end);
    assert.equal(got, [...ends, file.length + big.length], `chunks of ${size}`);
  }
});

test('a record that changed reads back as a message, not as another page', async () => {
  const path = join(dir, 'changing.jsonl');
  writeFileSync(path, jsonlLines.slice(4).join('\n') + '\n');
  const docs = await read(path);
  const reader = new RecordReader({});
  try {
    const origin = docs[1].origin!;
    // the line grows: it no longer ends where it did
    writeFileSync(path, jsonlLines.slice(4).join('\n').replace('http://a.example/3"', 'http://a.example/33"') + '\n');
    assert.type(await reader.read(origin), 'string');
    // the file is cut
    writeFileSync(path, jsonlLines[4] + '\n');
    assert.match(await reader.read(origin) as string, 'no longer a line');
    // appended to: the old lines read back the same
    writeFileSync(path, jsonlLines.slice(4).join('\n') + '\n');
    appendFileSync(path, jsonlLines[1] + '\n');
    reader.close();
    await readsBack(docs);
    // a folder's file of another size, and one gone
    const [f] = await read(folder);
    writeFileSync(join(dir, 'copy.html'), 'x');
    assert.match(await reader.read({ ...f.origin!, path: join(dir, 'copy.html') }) as string, 'the file is 1 bytes');
    assert.type(await reader.read({ ...f.origin!, path: join(dir, 'none.html') }), 'string');
  } finally {
    reader.close();
  }
});

test.after(cleanup);
test.run();
