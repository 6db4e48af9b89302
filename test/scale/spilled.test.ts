// Sketches kept on disk: the store gives back every row as written (whatever order the batches
// came in), its estimator equals SetEstimator one pair at a time and many pairs at a time (rows
// gathered in sets, read in file order), the count-min filter never clears a common value, and
// clustering the spilled sketches on DuckDB gives exactly what nearDuplicates gives in memory,
// with the candidate pairs estimated in chunks of any size, here or on a worker pool.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { init, sketchMany, type SketchOptions } from '../../src/index.js';
import { words } from '../../src/sketch/columns.js';
import { SetEstimator, estimatePairs } from '../../src/sketch/row-estimates.js';
import { nearDuplicates, type NearDuplicateOptions } from '../../src/cluster/near-duplicates.js';
import { SketchStore, type SpilledSketches } from '../../src/stream/sketch-store.js';
import { CommonFilter, ValueCounts } from '../../src/scale/common.js';
import { clusterSpilled } from '../../src/scale/spilled.js';
import { clusterWithDuckDB } from '../../src/scale/cluster.js';
import type { SketchSet } from '../../src/sketch/sketch-set.js';
import { createPool } from '../../src/stream/pool-node.js';
import { rng } from '../helpers/random.js';
import { assertSamePairs, corpus, scratch } from './helpers.js';

await init();
const texts = corpus(700, 41);
const folder = scratch();

/** Takes a set and its options; writes it to a store in batches of shuffled DocIds (as content mode releases pages; those of `skip` never, so their rows are empty); returns the spilled sketches. */
async function spill(set: SketchSet, options: SketchOptions, seed = 5, skip: number[] = [], docs: readonly string[] = texts): Promise<SpilledSketches> {
  const store = new SketchStore(folder, set.params);
  const r = rng(seed);
  const order = Uint32Array.from(Array.from({ length: set.size }, (_, i) => i).filter((d) => !skip.includes(d)));
  for (let i = order.length - 1; i > 0; i--) { const j = Math.floor(r() * (i + 1)); [order[i], order[j]] = [order[j], order[i]]; }
  for (let at = 0; at < order.length; at += 61) {
    const ids = order.subarray(at, Math.min(order.length, at + 61));
    const rows = sketchMany(Array.from(ids, (d) => docs[d]), options);
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

/** Takes spilled sketches; returns their DocIds in file order (from `scan`). */
function fileOrder(spilled: SpilledSketches): number[] {
  const order: number[] = [];
  spilled.scan((d) => { order.push(d); });
  return order;
}

test('RowGather reads exactly the rows added, neighbours in one read, at the file\'s ends and rows left empty too', async () => {
  const options: SketchOptions = { markup: 'text', s: 64, w: 3 };
  const set = sketchMany(texts, options);
  const empty = [3, 50, 51, 400, set.size - 1];
  const spilled = await spill(set, options, 5, empty);
  try {
    const order = fileOrder(spilled), n = set.size, w = words(set.values);
    assert.is(order.length, n - empty.length);
    const bytesOf = (d: number) => (spilled.offsets[d + 1] - spilled.offsets[d]) * 8;
    const check = (rows: { values: BigUint64Array; offsets: Uint32Array }, gather: ReturnType<SpilledSketches['gather']>, docs: number[], what: string) => {
      const x = words(rows.values);
      const at = new Uint32Array(docs.length);
      gather.rows(Uint32Array.from(docs), at);
      docs.forEach((d, i) => {
        const r = at[i], len = rows.offsets[r + 1] - rows.offsets[r];
        assert.is(len, empty.includes(d) ? 0 : set.offsets[d + 1] - set.offsets[d], `${what}: row of ${d} length`);
        for (let k = 0; k < 2 * len; k++) if (x[2 * rows.offsets[r] + k] !== w[2 * set.offsets[d] + k]) assert.unreachable(`${what}: row of ${d} word ${k}`);
      });
    };
    // every row, in file order: one read of the whole file
    let g = spilled.gather(1 << 30);
    for (let i = 0; i + 1 < n; i += 2) assert.ok(g.addPair(i, i + 1));
    check(g.read(), g, Array.from({ length: n }, (_, d) => d), 'all');
    assert.is(g.calls, 1, 'one read');
    assert.is(g.bytesRead, spilled.offsets[n] * 8, 'the file once');
    // the first and last rows of the file, rows far apart, rows left empty: only their bytes, one read each
    const far = [order[0], order[order.length - 1], order[Math.floor(order.length / 2)], empty[0], empty[2]];
    g = spilled.gather(1 << 30);
    g.addPair(far[0], far[1]); g.addPair(far[2], far[3]); g.addPair(far[4], far[0]);
    check(g.read(), g, far, 'far');
    assert.is(g.bytesRead, far.reduce((t, d) => t + bytesOf(d), 0), 'only the rows\' bytes');
    assert.is(g.calls, 3, 'one read a row');
    // two rows with one short row between them: one read, the gap a row of its own
    const k = order.findIndex((d, i) => i > 0 && i + 1 < order.length && bytesOf(d) > 0 && bytesOf(d) < 4096 && bytesOf(order[i - 1]) > 0 && bytesOf(order[i + 1]) > 0);
    g = spilled.gather(1 << 30);
    g.addPair(order[k - 1], order[k + 1]);
    const rows = g.read();
    check(rows, g, [order[k - 1], order[k + 1]], 'gap');
    assert.is(g.calls, 1, 'one read over the gap');
    assert.is(rows.offsets.length, 4, 'three rows: the gap between');
    // the set is bounded: a pair past the capacity is refused, the first pair always taken
    g = spilled.gather(100);
    assert.ok(g.addPair(order[5], order[9]), 'the first pair, larger than the capacity');
    assert.not.ok(g.addPair(order[6], order[7]), 'no more');
    assert.ok(g.addPair(order[9], order[5]), 'rows already in take no room');
    check(g.read(), g, [order[5], order[9]], 'bounded');
    g.clear();
    assert.ok(g.addPair(order[6], order[7]), 'after clear');
    check(g.read(), g, [order[6], order[7]], 'again');
  } finally {
    spilled.close();
  }
});

test('many pairs at a time equal SetEstimator: random pairs in random order, sets of any size, the file\'s ends', async () => {
  for (const [name, options] of [['min', { markup: 'text', s: 48, w: 3 }], ['mod', { markup: 'text', kind: 'mod', m: 4, w: 3 }],
    ['adaptive', { markup: 'text', kind: 'adaptive', w: 3 }]] as [string, SketchOptions][]) {
    const set = sketchMany(texts, options);
    const spilled = await spill(set, options, 11);
    try {
      const order = fileOrder(spilled), n = set.size, r = rng(17);
      const ends = [order[0], order[1], order[order.length - 1], order[order.length - 2], 0, n - 1];
      const m = 4000, a = new Uint32Array(m), b = new Uint32Array(m);
      for (let i = 0; i < m; i++) {
        a[i] = i % 7 === 0 ? ends[i % ends.length] : Math.floor(r() * n);
        b[i] = i % 11 === 0 ? ends[(i >> 1) % ends.length] : i % 13 === 0 ? a[i] : Math.floor(r() * n);
      }
      const theirs = estimatePairs(new SetEstimator(set), a, b);
      // sets of one pair (a capacity below one row), of a few hundred rows, and of every row
      for (const bytes of [64, 40_000, 1 << 30]) {
        const mine = estimatePairs(spilled.estimator(bytes), a, b);
        for (const c of ['resemblance', 'containmentAB', 'containmentBA', 'shared'] as const) {
          for (let i = 0; i < m; i++) if (!Object.is(mine[c][i], theirs[c][i])) assert.unreachable(`${name}, sets of ${bytes} bytes: pair ${i} (${a[i]}, ${b[i]}) ${c} ${mine[c][i]} ≠ ${theirs[c][i]}`);
        }
      }
    } finally {
      spilled.close();
    }
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
  test(`clusterSpilled equals nearDuplicates: ${name}`, async () => {
    const set = sketchMany(texts, { markup: 'text', ...sketchOptions });
    const expected = nearDuplicates(set, options);
    const spilled = await spill(set, { markup: 'text', ...sketchOptions });
    try {
      const actual = await clusterSpilled(spilled, { cluster: options, engine: { memoryLimit: '256MB', tempDir: folder } });
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

test('clusterSpilled estimates in chunks of any size, here and on a pool, and equals nearDuplicates', async () => {
  const sketchOptions: SketchOptions = { markup: 'text', s: 128, w: 2 };
  const set = sketchMany(texts, sketchOptions);
  const options: NearDuplicateOptions = { commonCap: 30, prefix: 0, threshold: 0.4 };
  const expected = nearDuplicates(set, options);
  const spilled = await spill(set, sketchOptions, 23);
  const pool = createPool({ workers: 2 });
  try {
    assert.ok(expected.pairs.count > 1000, `${expected.pairs.count} pairs`);
    // 1 KiB: less than one pair's rows (each chunk one pair); pairs cut short of the bytes; the defaults
    const runs: [string, Parameters<typeof clusterSpilled>[1]][] = [
      ['one pair a chunk', { chunkBytes: 1024 }], ['chunks of 100 pairs', { chunkPairs: 100 }], ['chunks of 96 KiB', { chunkBytes: 96 << 10 }],
      ['one pair a chunk, on the pool', { chunkBytes: 1024, pool }], ['chunks of 333 pairs, on the pool', { chunkPairs: 333, pool }],
      ['chunks of 48 KiB, on the pool', { chunkBytes: 48 << 10, pool }], ['defaults, on the pool', { pool }],
    ];
    for (const [what, o] of runs) {
      const actual = await clusterSpilled(spilled, { cluster: options, engine: { memoryLimit: '256MB', tempDir: folder }, ...o });
      assertSamePairs(actual.pairs, expected.pairs, what);
      for (const c of ['clusterOf', 'via', 'toRepresentative', 'memberChained'] as const) {
        assert.equal(Array.from(actual.clusters[c]), Array.from(expected.clusters[c]), `${what}: ${c}`);
      }
    }
  } finally {
    await pool.close();
    spilled.close();
  }
});

test('clusterSpilled takes method pairs only', async () => {
  const set = sketchMany(texts.slice(0, 60), { markup: 'text', s: 16, superShingle: 2 });
  const spilled = await spill(set, { markup: 'text', s: 16, superShingle: 2 });
  try {
    await clusterSpilled(spilled, { cluster: { method: 'super-shingles' }, engine: { tempDir: folder } });
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
import { SketchStore } from ${src('stream/sketch-store.ts')};
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
test('pages of a few shingles: pairs sharing one prefix key are candidates on DuckDB as in memory (pairs-short)', async () => {
  // "t0 t1 t2" and "t0 t1 t2 t3": one shingle of a union of two (resemblance 0.5), among ordinary pages
  const tiny: string[] = [];
  for (let f = 0; f < 12; f++) {
    const w = Array.from({ length: 5 }, (_, i) => `tiny${f}x${i}`);
    tiny.push(w.slice(0, 3).join(' '), w.slice(0, 4).join(' '), w.join(' '));
  }
  const docs = [...corpus(120, 13), ...tiny];
  const options: SketchOptions = { markup: 'text', s: 128, w: 3 };
  const set = sketchMany(docs, options);
  const expected = nearDuplicates(set);
  assert.is(expected.stats.minHits, 2);
  assert.ok(expected.stats.prefix > 0 && expected.stats.prefix < 128);
  const first = 120;
  let short = 0;
  for (let i = 0; i < expected.pairs.count; i++) if (expected.pairs.a[i] >= first && expected.pairs.hits[i] < 2) short++;
  assert.ok(short >= 12, `${short} pairs of short rows sharing one key`);
  assert.is(expected.clusters.clusterOf[first], expected.clusters.clusterOf[first + 1], 'the first two tiny pages join at 0.5');
  const engine = { memoryLimit: '256MB', tempDir: folder };
  const inMemory = await clusterWithDuckDB(set, { ...engine });
  assertSamePairs(inMemory.pairs, expected.pairs, 'clusterWithDuckDB');
  assert.equal({ ...inMemory.stats }, { ...expected.stats });
  const spilled = await spill(set, options, 5, [], docs);
  try {
    const actual = await clusterSpilled(spilled, { engine });
    assertSamePairs(actual.pairs, expected.pairs, 'clusterSpilled');
    assert.equal({ ...actual.stats }, { ...expected.stats });
    assert.equal(Array.from(actual.clusters.clusterOf), Array.from(expected.clusters.clusterOf));
  } finally {
    spilled.close();
  }
});

test.run();
