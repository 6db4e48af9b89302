// UrlColumn against a plain array of the same URLs: across block boundaries, with non-ASCII and
// empty URLs, with blocks too long to join (kept as arrays); and sketchCrawl's URLs and page count
// equal to what the readers give, on JSONL, WARC and a folder.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { UrlColumn } from '../../src/stream/url-column.js';
import { sketchCrawl } from '../../src/stream/sketch-crawl.js';
import { loadCrawl } from '../../src/io/crawl.js';
import { init } from '../../src/index.js';
import { SAMPLE, writeInputs } from './fixtures.js';
import { tempDir } from '../io/fixtures.js';

function urlsFor(n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 97 === 5) out.push('');
    else if (i % 89 === 3) out.push(`http://exämple.org/ü/${i}?q=€&x=😀`);
    else out.push(`http://host${i % 13}.example.com/docs/page-${i}.html`);
  }
  return out;
}

test('every URL comes back as it was pushed, across blocks', () => {
  for (const [n, block] of [[0, 8], [7, 8], [8, 8], [9, 8], [8193, 4096], [1000, 1]] as const) {
    const urls = urlsFor(n);
    const col = new UrlColumn(block);
    for (const u of urls) col.push(u);
    assert.is(col.length, n);
    assert.equal(col.toArray(), urls, `n=${n} block=${block}`);
    for (let i = 0; i < n; i += 3) assert.is(col.at(i), urls[i], `at ${i}`);
    assert.is(col.at(-1), undefined);
    assert.is(col.at(n), undefined);
    assert.is(col.at(0.5), undefined);
  }
});

test('a block of URLs too long to join is kept as it is', () => {
  const urls = urlsFor(50);
  urls[17] = `http://long.example/${'x'.repeat(5000)}`;
  const col = new UrlColumn(10, 1000);
  for (const u of urls) col.push(u);
  assert.equal(col.toArray(), urls);
  for (let i = 0; i < urls.length; i++) assert.is(col.at(i), urls[i]);
});

test('sketchCrawl keeps the URLs the readers give and counts the pages', async () => {
  await init();
  const { dir, cleanup } = tempDir();
  const inputs = await writeInputs(dir);
  for (const input of [inputs.jsonl, inputs.warc, inputs.folder, SAMPLE]) {
    const expected = (await loadCrawl(input, { links: false })).documents.map((d) => d.url);
    const crawl = await sketchCrawl(input, { workers: 1 });
    assert.is(crawl.pages, expected.length, input);
    assert.equal(crawl.urls, expected, input);
    assert.is(crawl.urls, crawl.urls, 'made once');
  }
  cleanup();
});

test.run();
