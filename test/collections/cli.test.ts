// `resemble collections` end to end on a generated JSONL crawl: clusters, avoid-list, roll-up, plot, errors.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.js';
import { plantedCrawl } from '../../src/collections/planted.js';

const dir = mkdtempSync(join(tmpdir(), 'resemble-collections-'));
const crawl = plantedCrawl({ collections: 3, copies: 3, pages: 12, partialMirrors: 1, laggingCopies: 1, noisePages: 60, seed: 21 });
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const lines: string[] = [];
for (let p = 0; p < crawl.size; p++) {
  const links = Array.from(crawl.linkTargets.subarray(crawl.linkOffsets[p], crawl.linkOffsets[p + 1]), (q) => `<a href="${crawl.urls[q]}"></a>`);
  const body = crawl.texts[p].split('\n').map((l) => `<p>${escape(l)}</p>`).join('');
  lines.push(JSON.stringify({ url: crawl.urls[p], html: `<html><body>${body}<div>${links.join('')}</div></body></html>` }));
}
// A record that is not JSON: reported with its line and skipped.
lines.splice(5, 0, '{broken');
const input = join(dir, 'crawl.jsonl');
writeFileSync(input, lines.join('\n') + '\n');

async function run(argv: string[]) {
  let out = '', err = '';
  const code = await main(['collections', ...argv], { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c), isTTY: false } });
  return { code, out, err, records: out.split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
}

const SIM = ['--similarity', 'chunks:2:4', '--min-size', '5'];

test('one JSON line per cluster, by cardinality then size, with hosts, roots and pages', async () => {
  const r = await run([input, ...SIM]);
  assert.is(r.code, 0, r.err);
  assert.match(r.err, /line 6/);
  // Without --extended the partial mirror only joins the half it holds: each collection shows as a
  // cluster of 4 copies × 6 pages, and the other halves (3 copies) as smaller clusters after them.
  assert.equal(r.records.slice(0, 3).map((c) => [c.cardinality, c.size]), [[4, 6], [4, 6], [4, 6]]);
  assert.ok(r.records.length > 3 && r.records.slice(3).every((c) => c.cardinality === 3 && c.size <= 6));
  for (const c of r.records) {
    assert.equal(Object.keys(c), ['cardinality', 'size', 'extended', 'noise', 'similar', 'collections']);
    assert.is(c.collections.length, c.cardinality);
    for (const col of c.collections) {
      assert.is(col.pages.length, c.size);
      assert.is(col.root, col.pages[0]);
      assert.is(new URL(col.root).host, col.host);
    }
  }
  assert.ok(r.records[0].collections.every((col: { root: string }) => col.root.endsWith('index.html')));
});

test('--extended: each collection with its partial mirror, 4 copies × 12 pages', async () => {
  const r = await run([input, ...SIM, '--extended']);
  assert.is(r.code, 0, r.err);
  assert.equal(r.records.map((c) => [c.cardinality, c.size, c.extended]), [[4, 12, true], [4, 12, true], [4, 12, true]]);
});

test('--avoid: entries that skip the mirrors, redundancy on stderr', async () => {
  const r = await run([input, ...SIM, '--extended', '--avoid']);
  assert.is(r.code, 0, r.err);
  assert.ok(r.records.length > 0);
  for (const e of r.records) {
    assert.equal(Object.keys(e), ['kind', 'value', 'pages', 'bytes', 'keep']);
    assert.ok(e.bytes > 0);
    assert.match(e.keep, /^http:\/\/www\.coll\d\.example\/docs\/index\.html$/);
  }
  // Three collections, each skipping two full mirrors (12 pages) and the partial one (6).
  assert.match(r.err, /avoid-list: \d+ entries skip 90 of \d+ pages/);
});

test('--results / --rollup: result URLs rolled up by collection', async () => {
  const results = join(dir, 'results.txt');
  const pick = (c: number, copy: number, t: number) => crawl.urls.find((_u, p) => crawl.collection[p] === c && crawl.copy[p] === copy && crawl.template[p] === t)!;
  writeFileSync(results, [pick(0, 0, 1), pick(0, 1, 1), pick(1, 0, 2), pick(0, 0, 3), 'http://[bad', ''].join('\n'));
  const r = await run([input, ...SIM, '--extended', '--results', results]);
  assert.is(r.code, 0, r.err);
  assert.equal(r.records.map((e) => e.url), [pick(0, 0, 1), pick(1, 0, 2)]);
  assert.equal(r.records[0].collection, [pick(0, 0, 3)]);
  assert.equal(r.records[0].replicas.filter((x: { results: string[] }) => x.results.length).map((x: { results: string[] }) => x.results), [[pick(0, 1, 1)]]);
  assert.match(r.err, /result 5: unparseable/);
});

test('--break-points: pages that split a collection, with the clusters on either side', async () => {
  const r = await run([input, '--similarity', 'chunks:4:15', '--break-points']);
  assert.is(r.code, 0, r.err);
  assert.ok(r.records.length > 0);
  for (const b of r.records) {
    assert.equal(Object.keys(b), ['url', 'host', 'from', 'to']);
    assert.is(b.from.cardinality, b.to.cardinality);
    assert.is(new URL(b.url).host, b.host);
  }
});

test('--plot writes Figure 12 as SVG', async () => {
  const plot = join(dir, 'figure12.svg');
  const r = await run([input, ...SIM, '--plot', plot, '--min-size', '1']);
  assert.is(r.code, 0, r.err);
  const svg = readFileSync(plot, 'utf8');
  assert.match(svg, /^<svg/);
  assert.match(svg, /cluster cardinality/);
  // --min-size 1 keeps the size-1 clusters of duplicated noise pages too.
  assert.ok(r.records.some((c) => c.size === 1));
});

test('bad arguments exit 2 with a coded message; no input exits 2', async () => {
  const bad = await run([input, '--similarity', 'chunks:four']);
  assert.is(bad.code, 2);
  assert.match(bad.err, /expected chunks:LINES:T/);
  assert.is((await run([input, '--min-size', '0'])).code, 2);
  assert.is((await run([input, '--avoid', '--rollup'])).code, 2);
  assert.is((await run([input, '--avoid', '--break-points'])).code, 2);
  assert.is((await run([])).code, 2);
  assert.is((await run([join(dir, 'missing.jsonl')])).code, 1);
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
