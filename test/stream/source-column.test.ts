// SourceColumn against a plain array of the same sources: JSONL lines and WARC offsets (kept as a
// prefix and a number), folder paths, numbers it must keep as written (leading zeros, too many
// digits, a port), separators with nothing before or after; and sketchCrawl's sources equal to the
// sources the reader gives, on JSONL, WARC and a folder.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SourceColumn } from '../../src/stream/source-column.js';
import { sketchCrawl } from '../../src/stream/sketch-crawl.js';
import { loadCrawl } from '../../src/io/crawl.js';
import { init } from '../../src/index.js';
import { SAMPLE, writeInputs } from './fixtures.js';
import { tempDir } from '../io/fixtures.js';

test('every source comes back as it was pushed', () => {
  const sources: string[] = [];
  for (let i = 0; i < 3000; i++) sources.push(`crawl/a.jsonl:${i + 1}`);
  for (let i = 0; i < 50; i++) sources.push(`b.warc.gz#${i * 4099}`, `crawl/a.jsonl:${5000 + i}`);
  sources.push('site/docs.example.com/index.html', 'x:007', 'x:0', 'y#0', `z:${'9'.repeat(16)}`, `z:${'9'.repeat(15)}`,
    'http://host.example:8080', ':5', 'a:', '#', '', '5', 'crawl/a.jsonl:12', 'c.jsonl:1', 'crawl/a.jsonl:13', 'naïve/ünï:42');
  const col = new SourceColumn();
  for (const s of sources) col.push(s);
  assert.is(col.length, sources.length);
  assert.equal(col.toArray(), sources);
  for (let i = 0; i < sources.length; i += 7) assert.is(col.at(i), sources[i]);
  assert.is(col.at(-1), undefined);
  assert.is(col.at(sources.length), undefined);
  assert.is(col.at(0.5), undefined);
});

test('sketchCrawl keeps the sources the readers give, as strings when read', async () => {
  await init();
  const { dir, cleanup } = tempDir();
  const inputs = await writeInputs(dir);
  for (const input of [inputs.jsonl, inputs.warc, inputs.folder, SAMPLE]) {
    const expected = (await loadCrawl(input, { links: false })).documents.map((d) => d.source ?? d.url);
    const crawl = await sketchCrawl(input, { workers: 1, records: true });
    assert.equal(crawl.sources, expected, input);
    assert.is(crawl.sources, crawl.sources, 'made once');
  }
  cleanup();
});

test.run();
