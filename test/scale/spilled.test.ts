// Sketches kept on disk: the store gives back every row as written (whatever order the batches
// came in), its estimator equals SetEstimator, the count-min filter never clears a common value,
// and clustering the spilled sketches on DuckDB gives exactly what nearDuplicates gives in memory.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { init, sketchMany, type SketchOptions } from '../../src/index.js';
import { words } from '../../src/cluster/columns.js';
import { SetEstimator } from '../../src/cluster/estimate.js';
import { nearDuplicates, type NearDuplicateOptions } from '../../src/cluster/near-duplicates.js';
import { SketchStore, type SpilledSketches } from '../../src/pipeline/sketch-store.js';
import { CommonFilter, ValueCounts } from '../../src/scale/common.js';
import { clusterSpilledWithDuckDB } from '../../src/scale/spilled.js';
import type { SketchSet } from '../../src/sketch/sketch-set.js';
import { rng } from '../helpers/random.js';
import { assertSamePairs, corpus, scratch } from './helpers.js';

await init();
const texts = corpus(700, 41);
const folder = scratch();

/** Takes a set and its options; writes it to a store in batches of shuffled DocIds (as content mode releases pages); returns the spilled sketches. */
async function spill(set: SketchSet, options: SketchOptions, seed = 5): Promise<SpilledSketches> {
  const store = new SketchStore(folder, set.params);
  const r = rng(seed);
  const order = Uint32Array.from({ length: set.size }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) { const j = Math.floor(r() * (i + 1)); [order[i], order[j]] = [order[j], order[i]]; }
  for (let at = 0; at < order.length; at += 61) {
    const ids = order.subarray(at, Math.min(order.length, at + 61));
    const rows = sketchMany(Array.from(ids, (d) => texts[d]), options);
    await store.add(rows, ids);
  }
  return store.finish(set.size, []);
}

test('the store gives back every row, and its estimator equals SetEstimator', async () => {
  const options: SketchOptions = { markup: 'text', s: 24, w: 3 };
  const set = sketchMany(texts, options);
  const spilled = await spill(set, options);
  try {
    assert.equal(Array.from(spilled.offsets), Array.from(set.offsets));
    for (const c of ['cardinality', 'tokens', 'rawFp', 'lexicalFp', 'shingleFp'] as const) assert.equal(Array.from(spilled[c] as ArrayLike<unknown>), Array.from(set[c] as ArrayLike<unknown>), c);
    const seen = new Uint8Array(set.size);
    const w = words(set.values);
    spilled.scan((d, x, start, end) => {
      seen[d]++;
      assert.is(end - start, set.offsets[d + 1] - set.offsets[d]);
      for (let i = 0; i < end - start; i++) {
        if (x[2 * (start + i)] !== w[2 * (set.offsets[d] + i)] || x[2 * (start + i) + 1] !== w[2 * (set.offsets[d] + i) + 1]) assert.unreachable(`row ${d} value ${i}`);
      }
    });
    assert.ok(seen.every((k) => k === 1), 'each row once');
    const mine = spilled.estimator(), theirs = new SetEstimator(set);
    const r = rng(3);
    for (let k = 0; k < 3000; k++) {
      const a = Math.floor(r() * set.size), b = k % 5 === 0 ? a + 1 : Math.floor(r() * set.size);
      if (b >= set.size) continue;
      assert.is(mine.pair(a, b), theirs.pair(a, b));
      assert.equal(Array.from(mine.out), Array.from(theirs.out), `${a}, ${b}`);
    }
  } finally {
    spilled.close();
  }
});

test('the count-min filter never clears a value counted more than cap times, and clears nearly all others; ValueCounts counts exactly', () => {
  const r = rng(9);
  for (const cap of [3, 20, 1000]) {
    // 40 values 3 × cap times, 40 values cap ± 1 times, the rest random (rare), shuffled.
    const n = 400_000;
    const filter = new CommonFilter(cap, n);
    const counts = new Map<string, number>(), exact = new ValueCounts();
    const all = new Uint32Array(2 * n);
    let i = 0;
    const put = (hi: number, lo: number) => { all[2 * i + 1] = hi; all[2 * i] = lo; i++; };
    for (let v = 0; v < 40; v++) for (let k = 0; k < 3 * cap; k++) put(7, v);
    for (let v = 0; v < 40; v++) for (let k = 0; k < cap + (v % 2 ? 1 : 0); k++) put(8, v);
    while (i < n) put(Math.floor(r() * 2 ** 32), Math.floor(r() * 2 ** 32));
    for (let k = n - 1; k > 0; k--) {
      const j = Math.floor(r() * (k + 1));
      for (const o of [0, 1]) { const t = all[2 * k + o]; all[2 * k + o] = all[2 * j + o]; all[2 * j + o] = t; }
    }
    for (let k = 0; k < n; k++) {
      const key = `${all[2 * k + 1]}:${all[2 * k]}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      exact.add(all[2 * k + 1], all[2 * k]);
    }
    for (let at = 0; at < n; at += 1000) filter.addRow(all, at, Math.min(n, at + 1000));
    let cleared = 0, over = 0, rare = 0;
    for (const [key, c] of counts) {
      const [hi, lo] = key.split(':').map(Number);
      assert.is(exact.get(hi, lo), c);
      if (c > cap) { over++; assert.ok(filter.mayExceed(hi, lo), `cap ${cap}: ${key} counted ${c} was cleared`); }
      else if (c <= cap / 2) { rare++; if (!filter.mayExceed(hi, lo)) cleared++; }
    }
    assert.is(over, 60, 'values over the cap');
    assert.ok(cleared > 0.99 * rare, `cap ${cap}: ${cleared} of ${rare} rare values cleared`);
  }
});

const cases: [string, SketchOptions, NearDuplicateOptions][] = [
  ['MIN_s, prefix keys, footer values common', { s: 64, w: 3 }, { commonCap: 12 }],
  ['MIN_s, prefix 4, no value over the cap', { s: 32, w: 3 }, { prefix: 4 }],
  ['MIN_s, every value keyed (containment policy), representative by date', { s: 16, w: 2 }, { commonCap: 25, containment: 0.7, representative: 'earliest', dates: texts.map((_, i) => (i * 7919) % 1000) }],
  ['MOD_m, identical documents only', { kind: 'mod', m: 4, w: 3 }, { commonCap: 30, equivalence: 'identical', threshold: 0.4 }],
  ['adaptive', { kind: 'adaptive', w: 3 }, { commonCap: 30 }],
];

for (const [name, sketchOptions, options] of cases) {
  test(`clusterSpilledWithDuckDB equals nearDuplicates: ${name}`, async () => {
    const set = sketchMany(texts, { markup: 'text', ...sketchOptions });
    const expected = nearDuplicates(set, options);
    const spilled = await spill(set, { markup: 'text', ...sketchOptions });
    try {
      const actual = await clusterSpilledWithDuckDB(spilled, { cluster: options, engine: { memoryLimit: '256MB', tempDir: folder } });
      assert.ok(expected.pairs.count > 20, `${expected.pairs.count} pairs`);
      if (name.includes('common')) assert.ok(expected.stats.ignoredShingles > 0 && expected.stats.prefix > 0, 'prefix keys, some values common');
      assertSamePairs(actual.pairs, expected.pairs, name);
      assert.equal({ ...actual.stats }, { ...expected.stats });
      for (const c of ['clusterOf', 'representative', 'via', 'kind', 'toRepresentative', 'memberChained'] as const) {
        assert.equal(Array.from(actual.clusters[c]), Array.from(expected.clusters[c]), c);
      }
      const again = actual.recluster({ threshold: 0.7 }), there = expected.recluster({ threshold: 0.7 });
      assert.equal(Array.from(again.clusterOf), Array.from(there.clusterOf), 'reclustered');
    } finally {
      spilled.close();
    }
  });
}

test('clusterSpilledWithDuckDB takes method pairs only', async () => {
  const set = sketchMany(texts.slice(0, 60), { markup: 'text', s: 16, superShingle: 2 });
  const spilled = await spill(set, { markup: 'text', s: 16, superShingle: 2 });
  try {
    await clusterSpilledWithDuckDB(spilled, { cluster: { method: 'super-shingles' }, engine: { tempDir: folder } });
    assert.unreachable('super-shingles');
  } catch (e) {
    assert.is((e as { code?: string }).code, 'E_OPTION');
  } finally {
    spilled.close();
  }
});

test('spilled sketches never closed are removed when the process exits', () => {
  const dir = join(folder, 'exit');
  const script = join(folder, 'forget.mts');
  const src = (m: string) => JSON.stringify(pathToFileURL(join(process.cwd(), 'src', m)).href);
  writeFileSync(script, `import { init, sketchMany } from ${src('index.ts')};
import { SketchStore } from ${src('pipeline/sketch-store.ts')};
await init();
const set = sketchMany(['a b c d e f g h i j k', 'l m n o p q r s t']);
const store = new SketchStore(${JSON.stringify(dir)}, set.params);
await store.add(set, Uint32Array.of(0, 1));
const spilled = await store.finish(2, []);
console.log(readdirSync(${JSON.stringify(dir)}).length, spilled.estimator().pair(0, 1) >= 0);
`.replace('import { init', "import { readdirSync } from 'node:fs';\nimport { init"));
  const r = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  assert.is(r.stdout.trim(), '1 true', 'the folder was there while the process ran');
  assert.equal(readdirSync(dir), [], 'and is gone after it exited');
});

test.after(() => rmSync(folder, { recursive: true, force: true }));
test.run();
