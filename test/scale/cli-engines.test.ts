// `dedup`, `index build|add` and `collections` with --engine duckdb print and write exactly what the
// in-memory engine does, on the bundled sample and on generated crawls (a planted crawl of
// replicated collections, a JSONL of near-duplicate families); engine flags without --engine duckdb
// and on commands that sketch nothing are refused.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.js';
import { plantedCrawl } from '../../src/collections/planted.js';
import { tempDir } from '../io/fixtures.js';
import { generatedCrawl, SAMPLE } from '../stream/fixtures.js';

const { dir, cleanup } = tempDir();
const DUCK = ['--engine', 'duckdb', '--memory-limit', '256MB', '--temp-dir', join(dir, 'engine')];

async function run(argv: string[]) {
  let out = '', err = '';
  const code = await main(argv, { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c), isTTY: false } });
  return { code, out, err };
}

const generated = join(dir, 'generated.jsonl');
generatedCrawl(generated, 30, 11);
// Replicated collections with partial and lagging copies, and unrelated pages, as HTML with links.
const planted = plantedCrawl({ collections: 3, copies: 3, pages: 14, partialMirrors: 1, laggingCopies: 1, noisePages: 80, seed: 5 });
const plantedJsonl = join(dir, 'planted.jsonl');
writeFileSync(plantedJsonl, Array.from({ length: planted.size }, (_, p) => {
  const links = Array.from(planted.linkTargets.subarray(planted.linkOffsets[p], planted.linkOffsets[p + 1]), (q) => `<a href="${planted.urls[q]}"></a>`);
  const body = planted.texts[p].split('\n').map((l) => `<p>${l.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`).join('');
  return JSON.stringify({ url: planted.urls[p], html: `<html><body>${body}<div>${links.join('')}</div></body></html>` });
}).join('\n') + '\n');

for (const [name, input] of [['sample', SAMPLE], ['generated crawl', generated]] as const) {
  test(`index build and add --engine duckdb write the in-memory index byte for byte: ${name}`, async () => {
    const files = { memory: join(dir, `${name}-memory.rsx`), duckdb: join(dir, `${name}-duckdb.rsx`) };
    const first = input === SAMPLE ? [SAMPLE] : [generated];
    const a = await run(['index', 'build', files.memory, ...first, '--quiet']);
    const b = await run(['index', 'build', files.duckdb, ...first, '--quiet', ...DUCK]);
    assert.is(a.code, 0, a.err);
    assert.is(b.code, 0, b.err);
    const record = (out: string) => ({ ...JSON.parse(out), index: undefined });
    assert.equal(record(b.out), record(a.out));
    assert.ok(JSON.parse(a.out).clusters >= 10, a.out);
    assert.ok(readFileSync(files.memory).equals(readFileSync(files.duckdb)), 'index files differ');
    // A second sweep: pairs among the new pages on the engine, then looked up in the postings.
    const more = input === SAMPLE ? plantedJsonl : SAMPLE;
    const c = await run(['index', 'add', files.memory, more, '--quiet']);
    const d = await run(['index', 'add', files.duckdb, more, '--quiet', ...DUCK]);
    assert.is(d.code, 0, d.err);
    assert.equal(record(d.out), record(c.out));
    assert.ok(JSON.parse(c.out).joins > 0, c.out);
    assert.ok(readFileSync(files.memory).equals(readFileSync(files.duckdb)), 'index files differ after add');
  });
}

test('dedup --engine duckdb writes the in-memory output and drop list (resemblances read back from the sketches on disk)', async () => {
  const out = (e: string) => ({ clean: join(dir, `clean-${e}.jsonl`), drops: join(dir, `drops-${e}.jsonl`) });
  const m = out('memory'), d = out('duckdb');
  const a = await run(['dedup', generated, '--keep', 'longest', '--out', m.clean, '--drop-list', m.drops, '--quiet']);
  const b = await run(['dedup', generated, '--keep', 'longest', '--out', d.clean, '--drop-list', d.drops, '--quiet', ...DUCK]);
  assert.is(a.code, 0, a.err);
  assert.is(b.code, 0, b.err);
  const drops = readFileSync(m.drops, 'utf8');
  assert.ok(drops.split('\n').filter((l) => l.includes('"near"')).length >= 10, drops);
  assert.is(readFileSync(d.drops, 'utf8'), drops);
  assert.is(readFileSync(d.clean, 'utf8'), readFileSync(m.clean, 'utf8'));
});

const collectionRuns: [string, string, string[]][] = [
  ['planted crawl, default similarity (windows)', plantedJsonl, ['--min-size', '5']],
  ['planted crawl, chunks:2:4, replica summary', plantedJsonl, ['--similarity', 'chunks:2:4', '--min-size', '5', '--replicas']],
  ['planted crawl, sketch:0.5, avoid-list', plantedJsonl, ['--similarity', 'sketch:0.5', '--min-size', '5', '--avoid']],
  ['sample, default similarity', SAMPLE, []],
  ['sample, chunks:doc (no pairs to count)', SAMPLE, ['--similarity', 'chunks:doc', '--min-size', '2']],
];

for (const [name, input, flags] of collectionRuns) {
  test(`collections --engine duckdb prints the in-memory output: ${name}`, async () => {
    const a = await run(['collections', input, ...flags]);
    const b = await run(['collections', input, ...flags, ...DUCK]);
    assert.is(a.code, 0, a.err);
    assert.is(b.code, 0, b.err);
    if (!name.includes('chunks:doc') && input === plantedJsonl) assert.ok(a.out.split('\n').filter(Boolean).length >= 3, a.out);
    assert.is(b.out, a.out);
    // The summary line (trivial clusters, split clusters, link groups) too.
    assert.is(b.err.split('\n').find((l) => l.startsWith('collections:')), a.err.split('\n').find((l) => l.startsWith('collections:')));
  });
}

test('engine flags need --engine duckdb; index clusters and remove take none', async () => {
  for (const argv of [
    ['collections', SAMPLE, '--memory-limit', '1GB'],
    ['index', 'build', join(dir, 'x.rsx'), SAMPLE, '--temp-dir', dir],
    ['index', 'clusters', join(dir, 'sample-memory.rsx'), '--engine', 'duckdb'],
    ['collections', SAMPLE, '--engine', 'spark'],
  ]) {
    const r = await run(argv);
    assert.is(r.code, 2, `${argv.join(' ')}: ${r.err}`);
  }
});

test.after(cleanup);
test.run();
