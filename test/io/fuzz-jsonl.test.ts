// The JSONL reader under seeded mutations of real records (the sample's pages as {url, html}
// lines): plain, one gzip member per line, one gzip stream. See fuzz.ts for the mutations and checks.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fuzzReader, samplePages, type Corpus } from './fuzz.js';
import { tempDir } from './fixtures.js';

const enc = new TextEncoder();
const { dir, cleanup } = tempDir('resemble-fuzz-jsonl-');
const pages = samplePages(8);

const corpus: Corpus = {
  records: pages.map(([url, html]) => enc.encode(JSON.stringify({ url, html }) + '\n')),
  pages: pages.map(([url, html]) => ({ url, bytes: enc.encode(html) })),
  ext: '.jsonl',
  // a duplicated key: the "url" field written twice
  headerAt: (rec) => {
    const end = new TextDecoder().decode(rec.subarray(0, 2048)).indexOf('","html":');
    return end < 0 ? undefined : { line: [1, end + 2] };
  },
};

test('JSONL fuzz: 750 seeded mutations (flips, truncations, splices, duplicated keys, NUL and 0xff runs); no exception, every line before the damage kept', async () => {
  const r = await fuzzReader(corpus, dir, { cases: 250, seed: 2, layouts: ['plain', 'members', 'stream'], maxRecordBytes: 64 << 10 });
  assert.is(r.cases, 750);
  assert.ok(r.promised > 1500, `records promised ${r.promised}`);
  assert.ok(r.damaged > 350, `cases reported as damaged ${r.damaged}`);
});

test.after(cleanup);
test.run();
