// Content mode cuts each page against its own site's template, and two sites learn two templates:
// a page copied byte for byte from one site onto the other would be cut differently on each and get
// two bags. Byte-identical pages share one bag (the first's), in the library (crawlBags) and in the
// streaming pipeline (readForSignatures), so their RP signatures are equal and they collide.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init } from '../../src/index.js';
import { crawlBags } from '../../src/signatures/index.js';
import type { Document } from '../../src/graph/document.js';
import { readForSignatures, signaturesStream } from '../../src/signatures/stream.js';
import { articles, site } from '../template/sites.js';

await init();
const utf8 = new TextEncoder();
const all = articles(51, 40);
const ids = Array.from({ length: 20 }, (_, i) => i);
// two sites with heavy templates of their own (60 menu items each)
const a = site(52, 'a.example', all, ids, 60, 0), b = site(53, 'b.example', all, ids.map((i) => 39 - i), 60, 0);
const docs: Document[] = [
  ...a.pages.map((p, i) => ({ url: `http://a.example/news/${i}.html`, bytes: utf8.encode(p), contentType: 'text/html' })),
  ...b.pages.map((p, i) => ({ url: `http://b.example/${i}.html`, bytes: utf8.encode(p), contentType: 'text/html' })),
  // a's first page, byte for byte, on b (after b's own pages, so b's template is learnt from its own)
  { url: 'http://b.example/copy.html', bytes: utf8.encode(a.pages[0]), contentType: 'text/html' },
];
const copy = docs.length - 1;
const row = (bags: { offsets: Uint32Array; terms: BigUint64Array; counts: Float64Array | Uint32Array }, d: number) => ({
  terms: Array.from(bags.terms.subarray(bags.offsets[d], bags.offsets[d + 1])),
  counts: Array.from(bags.counts.subarray(bags.offsets[d], bags.offsets[d + 1])),
});

test('content bags: a byte-identical copy on another site has the bag of the page it copies (library)', () => {
  const bags = crawlBags(docs, { content: 'main' });
  const first = row(bags, 0);
  assert.ok(first.terms.length > 20, `the page has content (${first.terms.length} distinct words)`);
  assert.equal(row(bags, copy), first);
  // the rest of b keeps its own content: b's pages are not a's first page
  assert.not.equal(row(bags, a.pages.length), first);
});

test('content bags and signatures: the same from the stream, and the copies collide', async () => {
  const dir = join(tmpdir(), `resemble-identical-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    const path = join(dir, 'crawl.jsonl');
    writeFileSync(path, docs.map((d) => JSON.stringify({ url: d.url, html: new TextDecoder().decode(d.bytes) })).join('\n') + '\n');
    const library = crawlBags(docs, { content: 'main' });
    for (const workers of [1, 2]) {
      const r = await readForSignatures(path, { content: 'main', workers, batchBytes: 4096, spillDir: join(dir, `spill-${workers}`) });
      assert.equal(row(r.bags, copy), row(r.bags, 0), `${workers} workers: the copy has the first page's bag`);
      assert.equal(Array.from(r.bags.terms), Array.from(library.terms), `${workers} workers: the stream's bags are the library's`);
    }
    const s = await signaturesStream(path, { k: 16 }, { content: 'main', workers: 2, batchBytes: 4096, spillDir: join(dir, 'spill-s') });
    const k = 16;
    assert.equal(Array.from(s.signatures.rp.subarray(copy * k, copy * k + k)), Array.from(s.signatures.rp.subarray(0, k)), 'equal RP signatures');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
