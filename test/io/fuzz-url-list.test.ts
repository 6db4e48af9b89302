// The URL-list reader under seeded mutations of real lines (the sample's page URLs, some with an
// IP column): plain, one gzip member per line, one gzip stream. See fuzz.ts for the mutations and checks.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fuzzReader, samplePages, type Corpus } from './fuzz.js';
import { tempDir } from './fixtures.js';

const enc = new TextEncoder();
const { dir, cleanup } = tempDir('resemble-fuzz-urls-');
const urls = samplePages(60).map(([url]) => url);

const corpus: Corpus = {
  records: urls.map((url, i) => enc.encode(i % 3 === 0 ? `${url} 192.0.2.${i}\n` : `${url}\n`)),
  pages: urls.map((url) => ({ url, bytes: new Uint8Array(0) })),
  ext: '.txt',
};

test('URL-list fuzz: 900 seeded mutations (flips, truncations, splices, NUL and 0xff runs, junk); no exception, every line before the damage kept', async () => {
  const r = await fuzzReader(corpus, dir, { cases: 300, seed: 3, layouts: ['plain', 'members', 'stream'] });
  assert.is(r.cases, 900);
  assert.ok(r.promised > 10000, `records promised ${r.promised}`);
  assert.ok(r.damaged > 300, `cases reported as damaged ${r.damaged}`);
});

test.after(cleanup);
test.run();
