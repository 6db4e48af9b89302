// MIN_s pair estimates on the worker pool against the single-threaded ones: estimateMinChunk (the
// rows a chunk names, compacted) and Pool.estimateMinPairs (1, 2 and 3 workers, rows shared or
// not) equal the inline kernel (MinPairBatch) and the TypeScript estimateMin (SetEstimator) to the
// bit, and nearDuplicatesOnPool makes the same pair table and clusters as nearDuplicates for
// several chunk sizes; then the error paths.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MinPairBatch, SetEstimator } from '../../src/sketch/row-estimates.js';
import { estimateMinChunk, type MinChunkEstimates } from '../../src/sketch/pair-estimates.js';
import { nearDuplicates, nearDuplicatesOnPool, type NearDuplicates } from '../../src/cluster/near-duplicates.js';
import type { ClusterColumns } from '../../src/sketch/columns.js';
import { init } from '../../src/index.js';
import { createPool, type Pool } from '../../src/stream/pool-node.js';
import { Rng, columnsFromSets, randomSet, variant } from './helpers.js';
import { buildPostings } from '../../src/cluster/postings.js';
import { walkColumns } from '../../src/cluster/walk.js';

const sharedU32 = (v: Uint32Array) => { const c = new Uint32Array(new SharedArrayBuffer(v.byteLength)); c.set(v); return c; };
import { rejects } from '../helpers/rejects.js';

await init();

/** Families of sets: a base, variants at random resemblance, prefixes, supersets; an empty set first. */
function families(seed: number, groups: number, size = 600): bigint[][] {
  const rng = new Rng(seed);
  const sets: bigint[][] = [[]];
  for (let g = 0; g < groups; g++) {
    const base = randomSet(rng, 1 + rng.int(g % 5 === 0 ? 40 : size));
    sets.push(base, variant(rng, base, rng.next()), base.slice(0, 1 + rng.int(base.length)), base.concat(randomSet(rng, rng.int(300))));
    if (g % 4 === 0) sets.push(variant(rng, base, 0.9), base.slice());
  }
  return sets;
}

/** Random pairs of documents of `set` (any order, repeats and a document with itself included). */
function randomPairs(set: ClusterColumns, n: number, seed: number): { a: Uint32Array; b: Uint32Array } {
  const rng = new Rng(seed);
  const a = new Uint32Array(n), b = new Uint32Array(n);
  for (let i = 0; i < n; i++) { a[i] = rng.int(set.size); b[i] = rng.next() < 0.05 ? a[i] : rng.int(set.size); }
  return { a, b };
}

/** What the single-threaded paths give for the pairs kept at `floor`: [pair index, shared, r, cab, cba] rows. */
function expected(set: ClusterColumns, a: Uint32Array, b: Uint32Array, floor: number): { ts: number[][]; kernel: number[][] } {
  const est = new SetEstimator(set);
  const ts: number[][] = [];
  for (let i = 0; i < a.length; i++) {
    const r = est.pair(a[i], b[i]);
    if (Math.max(r, est.out[1], est.out[2]) >= floor) ts.push([i, est.out[3], r, est.out[1], est.out[2]]);
  }
  const kernel: number[][] = [];
  MinPairBatch.run(set, (_x, _y, i, shared, r, cab, cba) => { if (Math.max(r, cab, cba) >= floor) kernel.push([i, shared, r, cab, cba]); }, (batch) => {
    for (let i = 0; i < a.length; i++) batch.push(a[i], b[i], i);
  });
  return { ts, kernel };
}

function rowsOf(e: MinChunkEstimates, first = 0): number[][] {
  return Array.from(e.index, (i, k) => [first + i, e.shared[k], e.resemblance[k], e.containmentAB[k], e.containmentBA[k]]);
}

/** The same numbers to the bit (Object.is tells -0 from 0 and compares NaN). */
function sameRows(got: number[][], want: number[][], what: string): void {
  assert.is(got.length, want.length, `${what}: rows`);
  for (let i = 0; i < want.length; i++) {
    if (!got[i].every((x, j) => Object.is(x, want[i][j]))) assert.equal(got[i], want[i], `${what}: row ${i}`);
  }
}

/** Rows on SharedArrayBuffers, as the pipeline makes them. */
function sharedCopy(set: ClusterColumns): ClusterColumns {
  const values = new BigUint64Array(new SharedArrayBuffer(set.values.byteLength));
  values.set(set.values);
  const offsets = new Uint32Array(new SharedArrayBuffer(set.offsets.byteLength));
  offsets.set(set.offsets);
  return { ...set, values, offsets };
}

test('estimateMinChunk (compacted rows) equals the inline kernel and estimateMin, every pair and at a floor', () => {
  const sets = families(31, 40);
  for (const s of [1, 16, 128]) {
    const set = columnsFromSets(sets, { kind: 'min', s });
    const { a, b } = randomPairs(set, 6000, s);
    for (const floor of [0, 0.2, 0.5]) {
      const want = expected(set, a, b, floor);
      sameRows(want.kernel, want.ts, `s=${s} floor ${floor}: kernel vs TypeScript`);
      if (floor > 0) assert.ok(want.ts.length < a.length && want.ts.length > 0, 'the floor keeps some pairs and drops others');
      // in chunks of several sizes, each compacting only its own rows
      for (const chunk of [1, 7, 1000, a.length]) {
        const got: number[][] = [];
        for (let at = 0; at < a.length; at += chunk) got.push(...rowsOf(estimateMinChunk(set, a.subarray(at, at + chunk), b.subarray(at, at + chunk), s, floor), at));
        sameRows(got, want.ts, `s=${s} floor ${floor} chunks of ${chunk}`);
      }
    }
  }
});

const pools: Pool[] = [createPool({ workers: 1 }), createPool({ workers: 2 }), createPool({ workers: 3 })];

test('Pool.estimateMinPairs with 1, 2 and 3 workers equals the inline kernel and estimateMin, rows shared or copied', async () => {
  const sets = families(32, 60);
  for (const s of [16, 128]) {
    const plain = columnsFromSets(sets, { kind: 'min', s });
    const { a, b } = randomPairs(plain, 20000, 100 + s);
    for (const floor of [0, 0.3]) {
      const want = expected(plain, a, b, floor).ts;
      for (const pool of pools) {
        for (const [rows, how] of [[plain, 'plain rows'], [sharedCopy(plain), 'shared rows']] as const) {
          for (const chunk of [997, 8192, a.length]) {
            // every chunk in flight at once, taken in order
            const calls: Promise<MinChunkEstimates>[] = [];
            for (let at = 0; at < a.length; at += chunk) calls.push(pool.estimateMinPairs(rows, a.subarray(at, at + chunk), b.subarray(at, at + chunk), { s, floor }));
            const got: number[][] = [];
            (await Promise.all(calls)).forEach((e, k) => got.push(...rowsOf(e, k * chunk)));
            sameRows(got, want, `s=${s} floor ${floor}, ${pool.size} workers, ${how}, chunks of ${chunk}`);
          }
        }
      }
    }
  }
  // the caller's pair columns are copied, not transferred
  const set = columnsFromSets(sets, { kind: 'min', s: 16 });
  const a = Uint32Array.of(1, 2, 3), b = Uint32Array.of(2, 3, 4);
  await pools[1].estimateMinPairs(set, a, b, { s: 16 });
  assert.equal([...a, ...b], [1, 2, 3, 2, 3, 4]);
  const none = await pools[1].estimateMinPairs(set, new Uint32Array(0), new Uint32Array(0), { s: 16 });
  assert.is(none.index.length, 0);
});

function sameClustering(got: NearDuplicates, want: NearDuplicates, what: string): void {
  const p = got.pairs, q = want.pairs;
  assert.is(p.count, q.count, `${what}: pairs`);
  for (const c of ['a', 'b', 'hits', 'shared', 'resemblance', 'containmentAB', 'containmentBA'] as const) {
    for (let i = 0; i < q.count; i++) if (!Object.is(p[c][i], q[c][i])) assert.is(p[c][i], q[c][i], `${what}: ${c}[${i}]`);
  }
  assert.equal(got.stats, want.stats, `${what}: stats`);
  assert.equal(JSON.parse(JSON.stringify(got.clusters)), JSON.parse(JSON.stringify(want.clusters)), `${what}: clusters`);
}

test('nearDuplicatesOnPool equals nearDuplicates (pairs, stats, clusters) for 1, 2 and 3 workers and several chunk sizes', async () => {
  const sets = families(33, 150, 300);
  const options = [{}, { prefix: 0 }, { threshold: 0.3 }, { containment: 0.6 }, { commonCap: 3 }];
  for (const s of [8, 128]) {
    const plain = columnsFromSets(sets, { kind: 'min', s });
    for (const set of [plain, sharedCopy(plain)]) {
      for (const o of options) {
        const want = nearDuplicates(set, o);
        assert.ok(want.stats.candidatePairs > 200, 'enough candidates for several chunks');
        for (const pool of pools) {
          for (const chunkPairs of [1, 61, 4096]) {
            sameClustering(await nearDuplicatesOnPool(set, pool, { ...o, chunkPairs }), want, `s=${s} ${JSON.stringify(o)} ${pool.size} workers, chunks of ${chunkPairs}`);
          }
        }
      }
    }
  }
  // other kinds are clustered on this thread, as nearDuplicates does
  const mod = columnsFromSets(sets, { kind: 'mod', mLog2: 2 });
  sameClustering(await nearDuplicatesOnPool(mod, pools[1]), nearDuplicates(mod), 'MOD_m');
});


const failing = createPool({ workers: 2, workerUrl: new URL('../workers/failing-worker.ts', import.meta.url) });

test('estimateMinPairs: bad input and options are rejected; a failing or crashed worker rejects the chunk with its pair range', async () => {
  const set = columnsFromSets(families(34, 10), { kind: 'min', s: 16 });
  const pool = pools[1];
  const a = Uint32Array.of(0, 1, 2, 3), b = Uint32Array.of(1, 2, 3, set.size);
  const e = await rejects(pool.estimateMinPairs(set, a, b, { s: 16 }), 'E_INPUT', /worker pool estimateMinPairs: pairs 0\.\.3: estimate: pair 3 names document \d+, beyond the \d+ rows/);
  assert.equal(e.detail, { first: 0, last: 3 });
  await rejects(pool.estimateMinPairs(set, a, b.subarray(1), { s: 16 }), 'E_INPUT', /two Uint32Arrays of the same length/);
  await rejects(pool.estimateMinPairs(set, a, b, { s: 0 }), 'E_OPTION', /s/);
  await rejects(pool.estimateMinPairs(set, a, b, { s: 16, floor: 2 }), 'E_OPTION', /floor/);
  await rejects(pool.estimateMinPairs(set, a, b, { s: 16, bad: 1 } as never), 'E_OPTION', /bad/);
  await rejects(pool.estimateMinPairs({ values: [] } as never, a, b, { s: 16 }), 'E_INPUT', /rows/);
  assert.throws(() => estimateMinChunk(set, a, b, 16, 0), /beyond the/);
  // the pool goes on
  const ok = b.slice(); ok[3] = 0;
  sameRows(rowsOf(await pool.estimateMinPairs(set, a, ok, { s: 16 })), expected(set, a, ok, 0).ts, 'after an error');
  // a worker that dies while estimating: the chunk is rejected, a new worker takes the next one
  await rejects(failing.estimateMinPairs(set, a, ok, { s: 777 }), 'E_WASM', /pairs 0\.\.3: the worker stopped: planted crash/);
  sameRows(rowsOf(await failing.estimateMinPairs(set, a, ok, { s: 16 })), expected(set, a, ok, 0).ts, 'after a crash');
  // nearDuplicatesOnPool passes a failing chunk's error on
  const big = columnsFromSets(families(35, 80), { kind: 'min', s: 777 });
  await rejects(nearDuplicatesOnPool(big, failing, { chunkPairs: 50 }), 'E_WASM', /worker pool walkMinPairs: documents 0\.\.\d+: the worker stopped/);
  // a walk job's columns must be shared, its range within them
  const post = buildPostings(set.values, set.offsets, { cap: 100, keepSingletons: false, keepKeys: false });
  const tests = { keyOffsets: set.offsets, minHits: 1, shortUnion: 0, rowOffsets: set.offsets, s: 16, floor: 0 };
  await rejects(pool.walkMinPairs(set, { columns: walkColumns(post, set.size), tests, from: 0, to: set.size }, { s: 16 }), 'E_INPUT', /SharedArrayBuffers/);
  const sharedTests = { ...tests, keyOffsets: sharedU32(set.offsets), rowOffsets: sharedU32(set.offsets) };
  await rejects(pool.walkMinPairs(set, { columns: walkColumns(post, set.size, true), tests: sharedTests, from: 2, to: set.size + 1 }, { s: 16 }), 'E_INPUT', /range of documents/);
  const walked = await pool.walkMinPairs(set, { columns: walkColumns(post, set.size, true), tests: sharedTests, from: 0, to: set.size }, { s: 16 });
  assert.ok(walked.walked.a.length > 0 && walked.walked.candidates >= walked.walked.a.length);
  await rejects(nearDuplicatesOnPool(set, {} as never), 'E_OPTION', /pool/);
  await rejects(nearDuplicatesOnPool(set, pool, { chunkPairs: 0 }), 'E_OPTION', /chunkPairs/);
  await rejects(nearDuplicatesOnPool(set, pool, { nope: 1 } as never), 'E_OPTION', /nope/);
  const closed = createPool({ workers: 1 });
  await closed.close();
  await rejects(closed.estimateMinPairs(set, a, ok, { s: 16 }), 'E_NOT_INITIALIZED', /pool is closed/);
});

test.after(async () => {
  await Promise.all([...pools, failing].map((p) => p.close()));
});

test.run();
