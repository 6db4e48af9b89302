import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Document, ReadError } from '../../src/graph/document.js';
import { readJsonl } from '../../src/io/jsonl.js';
import { readUrlList } from '../../src/io/url-list.js';
import { tempDir } from './fixtures.js';

const { dir, cleanup } = tempDir();

async function collect(gen: (path: string, o: object) => AsyncGenerator<Document>, name: string, content: string | Uint8Array) {
  const path = join(dir, name);
  writeFileSync(path, content);
  const errors: ReadError[] = [];
  const docs: Document[] = [];
  for await (const d of gen(path, { onError: (e: ReadError) => errors.push(e) })) docs.push(d);
  return { docs, errors };
}

const jsonl = [
  JSON.stringify({ url: 'http://a.org/', html: '<a href="b">b</a>', date: '2004-01-01', ip: '10.0.0.1' }),
  '{"url": "http://a.org/b", "text": "plain é"}',
  '{"url": "http://a.org/c", "html": ',
  '',
  '[1, 2]',
  '{"html": "<p>no url</p>"}',
  '{"url": "http://a.org/d"}',
  '{"url": "http://a.org/e", "text": "five", "ip": 5}',
  '{"url": "http://a.org/f", "text": "last"}',
].join('\n');

function checkJsonl(docs: Document[], errors: ReadError[]) {
  assert.equal(docs.map((d) => d.url), ['http://a.org/', 'http://a.org/b', 'http://a.org/f']);
  assert.is(docs[0].contentType, 'text/html');
  assert.equal(docs[0].links, ['http://a.org/b']);
  assert.is(docs[0].date, '2004-01-01');
  assert.is(docs[0].ip, '10.0.0.1');
  assert.is(docs[1].contentType, 'text/plain');
  assert.is(new TextDecoder().decode(docs[1].bytes), 'plain é');
  assert.equal(errors.map((e) => e.location), ['line 3', 'line 5', 'line 6', 'line 7', 'line 8']);
  assert.match(errors[0].message, 'not JSON');
  assert.match(errors[3].message, '"html" or "text"');
  assert.match(errors[4].message, '"ip"');
}

test('JSONL: objects become documents; each bad line reported with its number', async () => {
  const { docs, errors } = await collect(readJsonl, 'c.jsonl', jsonl);
  checkJsonl(docs, errors);
  assert.match(docs[2].source!, /c\.jsonl:9$/);
});

test('JSONL.gz reads the same; a truncated gzip stream is reported after the good lines', async () => {
  const { docs, errors } = await collect(readJsonl, 'c.jsonl.gz', gzipSync(jsonl));
  checkJsonl(docs, errors);
  const many = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ url: `http://a.org/${i}`, text: `doc ${i} ${'x'.repeat(i % 50)}` })).join('\n');
  const gz = gzipSync(many);
  const cut = await collect(readJsonl, 'cut.jsonl.gz', gz.subarray(0, gz.length >> 1));
  assert.ok(cut.docs.length > 100 && cut.docs.length < 3000);
  cut.docs.forEach((d, i) => assert.is(d.url, `http://a.org/${i}`));
  assert.is(cut.errors.length, 1);
  // The damage is located at its gzip member (the whole file is one member) and names the line it cut.
  assert.is(cut.errors[0].code, 'E_INPUT');
  assert.is(cut.errors[0].location, 'offset 0');
  assert.match(cut.errors[0].message, /^truncated gzip member at offset 0: the input ends at offset \d+/);
  assert.match(cut.errors[0].message, `line ${cut.docs.length + 1}`);
});

test('JSONL: an html string is text already, so a legacy charset in its meta tag does not re-decode it', async () => {
  const html = '<html><head><meta charset="EUC-JP"></head><body><p>日本語の文書です。</p><a href="x.html">x</a></body></html>';
  const { docs, errors } = await collect(readJsonl, 'eucjp.jsonl', JSON.stringify({ url: 'http://a.org/j/', html }) + '\n');
  assert.is(errors.length, 0);
  assert.is(docs[0].charset, 'utf-8');
  assert.is(docs[0].utf8, undefined);
  assert.is(new TextDecoder().decode(docs[0].bytes), html);
  assert.equal(docs[0].links, ['http://a.org/j/x.html']);
});

test('URL list: optional IP column, comments, blank lines; bad URLs reported by line', async () => {
  const text = '# crawl list\nhttp://a.org/ 192.0.2.7\n\nhttps://b.org/x?y=1\nnot-a-url\nhttp://c.org/ 1.2.3.4 extra\n  http://d.org/p  \n';
  const { docs, errors } = await collect(readUrlList, 'list.txt', text);
  assert.equal(docs.map((d) => [d.url, d.ip ?? null, d.bytes.length]), [
    ['http://a.org/', '192.0.2.7', 0],
    ['https://b.org/x?y=1', null, 0],
    ['http://d.org/p', null, 0],
  ]);
  assert.equal(errors.map((e) => e.location), ['line 5', 'line 6']);
});

test.after(cleanup);
test.run();
