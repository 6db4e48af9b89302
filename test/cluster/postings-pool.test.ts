// The candidate step's postings built in ranges (postingsOnPool: count and scatter over ranges of
// documents, lists read off ranges of partitions) against buildPostings: the same lists, partition
// bounds and cap counts, bit for bit, with the steps run here in 1..1000 ranges and on a pool; and
// the walk's columns built from them in ranges (walkColumnsOnPool) against walkColumns.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildPostings, type PostingLists } from '../../src/cluster/postings.js';
import { listsRunner, postingsOnPool, runListsStep, type ListsStep } from '../../src/cluster/postings-pool.js';
import { prefixRunner, runPrefixStep, type PrefixRunner } from '../../src/cluster/prefix.js';
import { init } from '../../src/index.js';
import { createPool } from '../../src/stream/pool-node.js';
import { walkColumns, type WalkColumns } from '../../src/cluster/walk.js';
import { runWalkColumnsStep, walkColumnsOnPool, walkColumnsRunner, type WalkColumnsRunner } from '../../src/cluster/walk-pool.js';
import { Rng, randomSet } from './helpers.js';

await init();

/** Rows of distinct ascending values (keys as prefixKeys leaves them), on SharedArrayBuffers. */
function sharedRows(rows: bigint[][]): { values: BigUint64Array; offsets: Uint32Array } {
  const offsets = new Uint32Array(new SharedArrayBuffer(4 * (rows.length + 1)));
  rows.forEach((r, d) => { offsets[d + 1] = offsets[d] + r.length; });
  const values = new BigUint64Array(new SharedArrayBuffer(8 * Math.max(1, offsets[rows.length])), 0, offsets[rows.length]);
  rows.forEach((r, d) => values.set([...new Set(r)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).slice(0, r.length), offsets[d]));
  return { values, offsets };
}

/** Asserts two arrays equal, naming the first place they differ (uvu's diff of a million entries is slow). */
function sameArray(got: ArrayLike<number>, want: ArrayLike<number>, what: string): void {
  assert.is(got.length, want.length, `${what}: length`);
  let i = 0;
  while (i < want.length && got[i] === want[i]) i++;
  assert.ok(i === want.length, `${what}: first difference at ${i} (${got[i]} instead of ${want[i]})`);
}

function same(got: PostingLists, want: PostingLists, what: string): void {
  assert.is(got.lists, want.lists, `${what}: lists`);
  assert.is(got.partitionBits, want.partitionBits, `${what}: partition bits`);
  sameArray(got.docs, want.docs, `${what}: docs`);
  sameArray(got.listStart, want.listStart, `${what}: list starts`);
  sameArray(got.partStart, want.partStart, `${what}: partition starts`);
  assert.equal([got.ignoredShingles, got.ignoredPostings], [want.ignoredShingles, want.ignoredPostings], `${what}: cap counts`);
}

/** n rows of `len` keys drawn from a vocabulary of `vocab` values (lists of many lengths), two of them on a half and a third of the rows. */
function rowsOf(rng: Rng, n: number, len: number, vocab: number): bigint[][] {
  const words = randomSet(rng, vocab);
  return Array.from({ length: n }, (_, d) => [...new Set([...(d % 2 ? [words[0]] : []), ...(d % 3 ? [] : [words[1]]), ...Array.from({ length: len }, () => words[Math.floor(rng.next() * rng.next() * vocab)])])]);
}

function sameColumns(got: WalkColumns, want: WalkColumns, what: string): void {
  for (const k of ['docs', 'start', 'pos', 'posStart'] as const) sameArray(got[k], want[k], `${what}: ${k}`);
  for (const k of ['docs', 'start', 'pos', 'posStart'] as const) assert.ok(got[k].buffer instanceof SharedArrayBuffer, `${what}: ${k} shared`);
}

test('postingsOnPool: the lists buildPostings makes, in any number of ranges', async () => {
  const rng = new Rng(3838);
  const keys = sharedRows(rowsOf(rng, 400, 30, 3000));
  const docs = Uint32Array.from({ length: 400 }, (_, d) => d).filter((d) => d % 6 !== 1);
  const here: PrefixRunner = async (jobs) => jobs.map(runPrefixStep);
  const lists = async (jobs: ListsStep[]) => jobs.map(runListsStep);
  for (const cap of [3, 40, 1000]) {
    const want = buildPostings(keys.values, keys.offsets, { cap, keepSingletons: false, keepKeys: false, docs });
    assert.ok(want.lists > 100 && (cap > 100 || want.ignoredShingles > 0), `cap ${cap}: ${want.lists} lists, ${want.ignoredShingles} dropped`);
    const columns = walkColumns(want, 400, true);
    const walkHere: WalkColumnsRunner = async (jobs) => jobs.map(runWalkColumnsStep);
    for (const ranges of [1, 2, 5, 64, 1000]) {
      const got = await postingsOnPool(keys, docs, cap, here, lists, ranges);
      same(got, want, `cap ${cap}, ${ranges} ranges`);
      sameColumns(await walkColumnsOnPool(got, 400, walkHere, ranges), columns, `walk columns, cap ${cap}, ${ranges} ranges`);
    }
  }
});

test('postingsOnPool on 2 and 3 workers, past one partition (more than 2^20 entries)', async () => {
  const rng = new Rng(38380);
  const keys = sharedRows(rowsOf(rng, 30_000, 44, 400_000));
  assert.ok(keys.values.length > 1 << 20, `${keys.values.length} entries`);
  const docs = Uint32Array.from({ length: 30_000 }, (_, d) => d).filter((d) => d % 11 !== 3);
  const want = buildPostings(keys.values, keys.offsets, { cap: 500, keepSingletons: false, keepKeys: false, docs });
  assert.ok(want.partitionBits > 0 && want.ignoredShingles > 0, `${want.partitionBits} bits, ${want.ignoredShingles} dropped`);
  for (const workers of [2, 3]) {
    const pool = createPool({ workers });
    try {
      const got = await postingsOnPool(keys, docs, 500, prefixRunner(pool), listsRunner(pool), 2 * workers);
      same(got, want, `${workers} workers`);
      sameColumns(await walkColumnsOnPool(got, 30_000, walkColumnsRunner(pool), 2 * workers), walkColumns(want, 30_000, true), `walk columns, ${workers} workers`);
    } finally {
      await pool.close();
    }
  }
});

test.run();
