import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.js';
import { shingleParagraphs } from '../../src/study/paragraphs.js';
import { clustersReference } from '../../src/study/reference.js';
import { tempDir } from '../io/fixtures.js';

const { dir, cleanup } = tempDir();

async function run(argv: string[]) {
  let out = '', err = '';
  const code = await main(argv, { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c) } });
  return { code, out, err };
}

const sentence = (i: number) => `Sentence ${i} says something about topic ${i % 7} and more.`;
const text = (from: number, count = 15) => Array.from({ length: count }, (_, i) => sentence(from + i)).join(' ');
const A = text(0), B = text(100), C = text(200);
const Bnear = text(100, 12) + ' ' + text(900, 3); // last of five paragraphs changed: 80% shared
const url = (i: number) => `http://site${i % 3}.example/p${i}.html`;
// [text, links]: page 0 is the seed; 4, 6, 8 are reached by no link.
const pages: Array<[string, number[]]> = [
  [text(300), [1, 2, 5]], [A, []], [text(400), [3]], [A, []], [A, []],
  [B, [9]], [Bnear, []], ['Too short to count.', []], [C, []], [C, []],
];
writeFileSync(join(dir, 'crawl.jsonl'), pages.map(([t, links], i) =>
  JSON.stringify({ url: url(i), html: `<html><body><p>${t}</p>${links.map((l) => `<a href="${url(l)}"></a>`).join('')}</body></html>` })).join('\n'));

test('study: the tables of a planted crawl equal brute force over its texts', async () => {
  const r = await run(['study', join(dir, 'crawl.jsonl'), '--seeds', url(0), '--format', 'json', '--near', '75']);
  assert.is(r.code, 0, r.err);
  const report = JSON.parse(r.out);
  const considered = pages.map((_, i) => i).filter((i) => shingleParagraphs(pages[i][0]) !== null);
  assert.equal(considered, [0, 1, 2, 3, 4, 5, 6, 8, 9]);
  const paragraphs = considered.map((i) => shingleParagraphs(pages[i][0])!);
  const clusters = clustersReference(paragraphs, 100).map((c) => c.map((p) => url(considered[p])));
  assert.equal(report.clusters.map((c: { members: string[] }) => c.members), clusters);
  assert.equal(clusters, [[url(1), url(3), url(4)], [url(8), url(9)]]);
  assert.equal(report.general, { documents: 9, clusters: 2, duplicates: 3, percent: 33.3333 });
  assert.equal(report.near, [{ percent: 75, clusters: 3, nearDuplicates: 4, percentNear: 44.4444 }]);
  // Connected: 0 → 1, 2, 5; 2 → 3; 5 → 9. Disconnected: 4, 6, 8.
  assert.equal(report.documents, { input: 10, considered: 9, leftOut: 1, connected: 6, disconnected: 3 });
  assert.equal(report.parts.connected, { documents: 6, clusters: 1, duplicates: 1, percent: 16.6667 });
  assert.equal(report.parts.disconnected, { documents: 3, clusters: 0, duplicates: 0, percent: 0 });
  assert.equal(report.clustersReached, { clusters: 2, withConnected: 2, percent: 100 });
  assert.equal(report.uniqueReached, { unique: 4, uniqueConnected: 3, percent: 75, useful: 6, usefulConnected: 5, percentUseful: 83.3333 });
  assert.equal(report.seeds, [{ docId: 0, url: url(0) }]);
});

test('study: markdown by default, plots on request, growth over m parts', async () => {
  const plots = join(dir, 'plots');
  const r = await run(['study', join(dir, 'crawl.jsonl'), '--seeds', url(0), '--parts', '3', '--plots', plots, '-q']);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, /\*\*Table 2\.\*\*/);
  assert.match(r.out, /\| 9 \| 2 \| 3 \| 33\.3% \|/);
  assert.match(r.out, /\| 3 \| 9 \| 2 \| 3 \| 100\.0% \|/); // last growth step: all 9 loaded
  for (const f of ['cluster-sizes.svg', 'growth.svg']) assert.match(readFileSync(join(plots, f), 'utf8'), /^<svg/);
});

test('study: the profile of one run estimates another (§4.2); bad flags exit 2', async () => {
  const first = await run(['study', join(dir, 'crawl.jsonl'), '--parts', '3', '--format', 'json', '-q']);
  writeFileSync(join(dir, 'profile.json'), first.out);
  const r = await run(['study', join(dir, 'crawl.jsonl'), '--parts', '3', '--profile', join(dir, 'profile.json'), '--format', 'json', '-q']);
  assert.is(r.code, 0, r.err);
  const report = JSON.parse(r.out);
  // Same collection, same profile: every estimate is the true final count (up to the JSON's 4 decimals).
  assert.ok(report.estimates.length > 0);
  for (const e of report.estimates) assert.ok(Math.abs(e.estimatedDuplicates - report.general.duplicates) < 1e-3, String(e.estimatedDuplicates));
  assert.is((await run(['study', join(dir, 'crawl.jsonl'), '--seeds', 'http://elsewhere.example/'])).code, 2);
  assert.is((await run(['study', join(dir, 'crawl.jsonl'), '--near', '120'])).code, 2);
  assert.is((await run(['study', join(dir, 'crawl.jsonl'), '--format', 'markdown'])).code, 2, 'markdown is what study prints without --format');
});

test.after(cleanup);
test.run();
