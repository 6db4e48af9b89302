import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { detectKind, inputSize, loadCrawl, readCrawl } from '../../src/io/crawl.js';
import { concat, gzipMembers, httpResponse, tempDir } from './fixtures.js';

const { dir, cleanup } = tempDir();
mkdirSync(join(dir, 'mirror', 'a.org'), { recursive: true });
writeFileSync(join(dir, 'mirror', 'a.org', 'index.html'), '<a href="http://b.org/">b</a><a href="http://c.org/x">c</a>');
writeFileSync(join(dir, 'mirror', 'a.org', 'pic.gif'), 'GIF89a');
const warc = concat(gzipMembers([httpResponse('http://b.org/', '<a href="http://a.org/">a</a><a href="/">self</a>')]));
writeFileSync(join(dir, 'crawl.warc.gz'), warc);
writeFileSync(join(dir, 'more.jsonl'), '{"url":"http://c.org/x","html":"<a href=\\"http://b.org/\\">b</a>"}\nnot json\n');
writeFileSync(join(dir, 'urls.txt'), 'http://d.org/\n');
writeFileSync(join(dir, 'page.html'), '<p>one page</p>');

test('detectKind from what the path is and its name', async () => {
  assert.is(await detectKind(join(dir, 'mirror')), 'folder');
  assert.is(await detectKind(join(dir, 'crawl.warc.gz')), 'warc');
  assert.is(await detectKind(join(dir, 'more.jsonl')), 'jsonl');
  assert.is(await detectKind(join(dir, 'urls.txt')), 'urls');
  assert.is(await detectKind(join(dir, 'page.html')), 'file');
  assert.is(await detectKind(join(dir, 'missing.warc')), undefined);
});

test('detectKind sniffs a gzip file with no telling name even when its head inflates past 64 KiB', async () => {
  // Pages that compress well: the first 64 KiB of the file inflate to megabytes.
  const big = '<p>' + 'the same words again and again '.repeat(40_000) + '</p>';
  writeFileSync(join(dir, 'capture'), concat(gzipMembers([httpResponse('http://e.org/', big), httpResponse('http://e.org/2', big)])));
  assert.is(await detectKind(join(dir, 'capture')), 'warc');
  const { gzipSync } = await import('node:zlib');
  writeFileSync(join(dir, 'records'), gzipSync(JSON.stringify({ url: 'http://e.org/', html: big }) + '\n'));
  assert.is(await detectKind(join(dir, 'records')), 'jsonl');
});

test('detectKind: a .json[.gz] file of one object a line (as Dolma shards are) is JSON Lines; one JSON document is a file', async () => {
  const { gzipSync } = await import('node:zlib');
  const lines = '{"id": "a", "text": "one", "metadata": {"url": "http://f.org/1"}}\n{"id": "b", "text": "two"}\n';
  writeFileSync(join(dir, 'shard.json.gz'), gzipSync(lines));
  writeFileSync(join(dir, 'shard.json'), lines);
  writeFileSync(join(dir, 'pretty.json'), '{\n  "a": {\n    "b": 1\n  },\n  "c": [\n    {"d": 2},\n    {"e": 3}\n  ]\n}\n');
  writeFileSync(join(dir, 'array.json'), '[\n{"a": 1},\n{"a": 2}\n]\n');
  writeFileSync(join(dir, 'one-line.json'), '{"a": 1}\n');
  assert.is(await detectKind(join(dir, 'shard.json.gz')), 'jsonl');
  assert.is(await detectKind(join(dir, 'shard.json')), 'jsonl');
  assert.is(await detectKind(join(dir, 'pretty.json')), 'file');
  assert.is(await detectKind(join(dir, 'array.json')), 'file');
  assert.is(await detectKind(join(dir, 'one-line.json')), 'file');
  const docs = [];
  for await (const d of readCrawl([join(dir, 'shard.json.gz')], { idField: 'id' })) docs.push(d.url);
  assert.equal(docs, ['id:a', 'id:b']);
});

test('loadCrawl over several inputs: documents in input order, graph across them, errors and skips', async () => {
  const inputs = ['mirror', 'crawl.warc.gz', 'more.jsonl', 'urls.txt', 'missing.warc', 'page.html'].map((p) => join(dir, p));
  const seen: string[] = [];
  const crawl = await loadCrawl(inputs, { onDocument: (d, id) => seen.push(`${id} ${d.url}`) });
  const urls = crawl.documents.map((d) => d.url);
  assert.equal(urls.slice(0, 4), ['http://a.org/', 'http://b.org/', 'http://c.org/x', 'http://d.org/']);
  assert.match(urls[4], /^file:\/\/.*page\.html$/);
  assert.equal(seen, urls.map((u, i) => `${i} ${u}`));
  assert.equal(crawl.errors.map((e) => [e.code, e.location]), [['E_INPUT', 'line 2'], ['E_IO', join(dir, 'missing.warc')]]);
  assert.equal(crawl.skipped, { binary: 1, status: 0, redirect: 0, 'not-page': 0, url: 0, link: 0, metadata: 0, revisit: 0, other: 0 });
  const g = crawl.graph;
  assert.equal(Array.from(g.outLinks(0)), [1, 2]);
  assert.equal(Array.from(g.outLinks(1)), [0]);
  assert.equal(Array.from(g.outLinks(2)), [1]);
  assert.equal(g.hosts, ['a.org', 'b.org', 'c.org', 'd.org', '']);
  assert.is(crawl.bytes, await inputSize(inputs));
});

async function failure(options: object): Promise<string> {
  try {
    for await (const _ of readCrawl(dir, options as never)) void _;
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
}

test('readCrawl takes one path as well and validates options', async () => {
  const urls: string[] = [];
  for await (const d of readCrawl(join(dir, 'urls.txt'))) urls.push(d.url);
  assert.equal(urls, ['http://d.org/']);
  const forced: string[] = [];
  for await (const d of readCrawl(join(dir, 'page.html'), { kind: 'urls', onError: () => {} })) forced.push(d.url);
  assert.equal(forced, []);
  assert.match(await failure({ scheme: 'ftp' }), 'expected one of http|https for scheme, got "ftp"');
  assert.match(await failure({ nope: 1 }), 'unknown option "nope"');
  assert.match(await failure({ onError: 3 }), 'expected a function for onError');
});

test.after(cleanup);
test.run();
