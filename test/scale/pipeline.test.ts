import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { init, sketchMany } from '../../src/index.js';
import { nearDuplicates } from '../../src/cluster/near-duplicates.js';
import { runPipeline, type PipelineProgress } from '../../src/scale/pipeline.js';
import { keyRows, sizeRows } from '../../src/scale/rows.js';
import { writeParquetFile } from '../../src/scale/parquet-file.js';
import { ResembleError } from '../../src/errors.js';
import { assertSamePairs, corpus, scratch } from './helpers.js';

await init();
const texts = corpus(700, 11);
const minSet = sketchMany(texts, { kind: 'min', s: 24, w: 3, markup: 'text' });
const modSet = sketchMany(texts, { kind: 'mod', m: 4, w: 3, markup: 'text' });
const folder = scratch();
const CAP = 40;

/** Obvious reference: labels by repeated relaxation over the accepted pairs until nothing changes. */
function relaxLabels(n: number, pairs: { count: number; a: ArrayLike<number>; b: ArrayLike<number>; resemblance: ArrayLike<number> }, t: number): Int32Array {
  const label = Int32Array.from({ length: n }, (_, i) => i);
  for (let changed = true; changed;) {
    changed = false;
    for (let i = 0; i < pairs.count; i++) {
      if (pairs.resemblance[i] < t) continue;
      const m = Math.min(label[pairs.a[i]], label[pairs.b[i]]);
      if (label[pairs.a[i]] !== m || label[pairs.b[i]] !== m) { label[pairs.a[i]] = m; label[pairs.b[i]] = m; changed = true; }
    }
  }
  return label;
}

test('MIN_s: the SQL pairs equal the in-memory pairs, and components equal the relaxation reference', async () => {
  const expected = nearDuplicates(minSet, { equivalence: 'none', commonCap: CAP });
  assert.ok(expected.pairs.count > 100, 'the corpus has pairs');
  assert.ok(expected.stats.ignoredShingles > 0, 'the cap drops common shingles');
  const stages: string[] = [];
  const r = await runPipeline({
    keys: keyRows(minSet), sizes: sizeRows(minSet), kind: 'min', s: 24, commonCap: CAP, memoryLimit: '256MB', tempDir: folder,
    onProgress: (p: PipelineProgress) => { if (p.state !== 'running') stages.push(`${p.stage}:${p.state}`); },
  });
  assertSamePairs(r.pairs, expected.pairs, 'min');
  assert.is(r.stats.candidatePairs, expected.stats.candidatePairs);
  assert.is(r.stats.ignoredKeys, expected.stats.ignoredShingles);
  assert.is(r.stats.ignoredRows, expected.stats.ignoredPostings);
  assert.is(r.stats.keptRows, expected.stats.postings);
  assert.ok(r.stats.boundedPairs <= r.stats.candidatePairs && r.stats.boundedPairs >= r.stats.retainedPairs);
  assert.equal(Array.from(r.labels), Array.from(relaxLabels(minSet.size, expected.pairs, 0.5)));
  assert.is(r.stats.components, 'library');
  assert.equal(stages, ['load', 'cap', 'pairs', 'estimate', 'edges', 'read', 'components'].flatMap((s) => [`${s}:start`, `${s}:done`]));
});

test('MOD_m without a sizes table (lengths counted in SQL), components in SQL, containment policy', async () => {
  const expected = nearDuplicates(modSet, { equivalence: 'none', commonCap: CAP, threshold: 0.6, containment: 0.8, pairFloor: 0.1 });
  const r = await runPipeline({ keys: keyRows(modSet), kind: 'mod', commonCap: CAP, threshold: 0.6, containment: 0.8, pairFloor: 0.1, components: 'sql', documents: modSet.size, tempDir: folder });
  assertSamePairs(r.pairs, expected.pairs, 'mod');
  assert.is(r.stats.components, 'sql');
  assert.ok(r.stats.rounds >= 1);
  // Reference: relaxation over the pairs the policy accepts.
  const accepted = { count: 0, a: [] as number[], b: [] as number[], resemblance: [] as number[] };
  for (let i = 0; i < expected.pairs.count; i++) {
    const p = expected.pairs;
    if (p.resemblance[i] >= 0.6 || p.containmentAB[i] >= 0.8 || p.containmentBA[i] >= 0.8) { accepted.a.push(p.a[i]); accepted.b.push(p.b[i]); accepted.resemblance.push(1); accepted.count++; }
  }
  assert.equal(Array.from(r.labels), Array.from(relaxLabels(modSet.size, accepted, 0.5)));
});

test('Parquet shards (docBase) read by glob, and batches, give the same pairs as rows in memory', async () => {
  const half = Math.floor(minSet.size / 2);
  const first = Uint32Array.from({ length: half }, (_, i) => i);
  const second = Uint32Array.from({ length: minSet.size - half }, (_, i) => half + i);
  // A shard numbers its documents from 0 and passes its first global DocId as docBase; here the
  // sketch set is global, so shards select their rows with `docs` and keep docBase 0.
  writeParquetFile(join(folder, 'keys-0.parquet'), 'keys', keyRows(minSet, { docs: first }));
  writeParquetFile(join(folder, 'keys-1.parquet'), 'keys', keyRows(minSet, { docs: second }));
  writeParquetFile(join(folder, 'sizes-0.parquet'), 'sizes', sizeRows(minSet));
  const expected = nearDuplicates(minSet, { equivalence: 'none', commonCap: CAP });
  const fromFiles = await runPipeline({ keys: join(folder, 'keys-*.parquet'), sizes: join(folder, 'sizes-*.parquet'), s: 24, commonCap: CAP, tempDir: folder });
  assertSamePairs(fromFiles.pairs, expected.pairs, 'parquet');
  assert.is(fromFiles.stats.keyRows, minSet.values.length);
  const batches = [first, second].map((docs) => ({ keys: keyRows(minSet, { docs }), sizes: sizeRows(minSet, { docs }) }));
  const fromBatches = await runPipeline({ batches, s: 24, commonCap: CAP, tempDir: folder });
  assertSamePairs(fromBatches.pairs, expected.pairs, 'batches');
  assert.equal(Array.from(fromBatches.labels), Array.from(fromFiles.labels));
});

test('minHits > 1 keeps exactly the in-memory pairs with at least that many hits', async () => {
  const all = nearDuplicates(minSet, { equivalence: 'none', commonCap: CAP });
  const r = await runPipeline({ keys: keyRows(minSet), sizes: sizeRows(minSet), s: 24, commonCap: CAP, minHits: 5, tempDir: folder });
  const keep: number[] = [];
  for (let i = 0; i < all.pairs.count; i++) if (all.pairs.hits[i] >= 5) keep.push(i);
  assert.ok(keep.length > 0 && keep.length < all.pairs.count);
  const pick = <T extends ArrayLike<number>>(c: T) => keep.map((i) => c[i]);
  const p = all.pairs;
  assertSamePairs(r.pairs, { count: keep.length, a: pick(p.a), b: pick(p.b), hits: pick(p.hits), shared: pick(p.shared), resemblance: pick(p.resemblance), containmentAB: pick(p.containmentAB), containmentBA: pick(p.containmentBA) }, 'minHits');
});

test('options are checked before the engine opens', async () => {
  const bad: [Record<string, unknown>, string][] = [
    [{ keys: keyRows(minSet), sizes: sizeRows(minSet), nope: 1 }, 'nope'],
    [{ keys: keyRows(minSet) }, 'sizes'],
    [{ keys: keyRows(minSet), sizes: sizeRows(minSet), memoryLimit: 'lots' }, 'memoryLimit'],
    [{ keys: keyRows(minSet), sizes: sizeRows(minSet), threshold: 0.1, pairFloor: 0.3 }, 'pairFloor'],
    [{ keys: '', kind: 'mod' }, 'keys'],
    [{ keys: keyRows(minSet), batches: [], kind: 'mod' }, 'batches'],
    [{ keys: keyRows(minSet), sizes: sizeRows(minSet), engine: 'spark' }, 'engine'],
  ];
  for (const [options, name] of bad) {
    try {
      await runPipeline(options as never);
      assert.unreachable(`accepted ${name}`);
    } catch (e) {
      assert.instance(e, ResembleError);
      assert.is((e as ResembleError).code, 'E_OPTION', name);
      assert.match((e as Error).message, name);
    }
  }
});

test('MIN_s rows longer than s are refused (keys made with another s)', async () => {
  try {
    await runPipeline({ keys: keyRows(minSet), sizes: sizeRows(minSet), s: 8, tempDir: folder });
    assert.unreachable('accepted s = 8 for rows of 24 values');
  } catch (e) {
    assert.is((e as ResembleError).code, 'E_INPUT');
    assert.match((e as Error).message, 's = 8');
  }
});

test.after(() => rmSync(folder, { recursive: true, force: true }));
test.run();
