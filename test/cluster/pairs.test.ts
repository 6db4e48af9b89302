// The candidate step's pair counting against brute force: every pair of documents sharing a list,
// with the number of lists shared, a ascending then b ascending; and the walk in steps of any
// budget visits the same pairs in the same order as one call; so do ranges of documents walked
// apart (walkPairs, as the pool's workers walk them) over bounds of any number of parts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CandidateWalk, forEachCandidate } from '../../src/cluster/pairs.js';
import { buildPostings } from '../../src/cluster/postings.js';
import { Rng, columnsFromSets, randomSet, variant } from './helpers.js';
import { pairTests, walkBounds, walkColumns, walkPairs } from '../../src/cluster/walk.js';

function corpus(seed: number): { values: BigUint64Array; offsets: Uint32Array; size: number; sets: bigint[][] } {
  const rng = new Rng(seed);
  const shared = randomSet(rng, 30);
  const sets: bigint[][] = [[]];
  for (let g = 0; g < 30; g++) {
    const base = randomSet(rng, 1 + rng.int(60)).concat(shared.slice(0, rng.int(shared.length)));
    sets.push(base, variant(rng, base, rng.next()), base.slice(0, 1 + rng.int(base.length)));
  }
  const set = columnsFromSets(sets, { kind: 'mod', mLog2: 0 });
  return { values: set.values, offsets: set.offsets, size: set.size, sets };
}

/** Pairs a < b sharing values held by 2..cap documents, with how many they share: "a,b,hits" in order. */
function bruteForce(sets: bigint[][], cap: number): string[] {
  const holders = new Map<bigint, Set<number>>();
  sets.forEach((s, d) => { for (const v of new Set(s)) { let h = holders.get(v); if (!h) holders.set(v, (h = new Set())); h.add(d); } });
  const hits = new Map<string, number>();
  for (const h of holders.values()) {
    if (h.size < 2 || h.size > cap) continue;
    const list = [...h].sort((x, y) => x - y);
    for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) { const k = `${list[i]},${list[j]}`; hits.set(k, (hits.get(k) ?? 0) + 1); }
  }
  return [...hits].map(([k, n]) => `${k},${n}`).sort((x, y) => {
    const [a1, b1] = x.split(',').map(Number), [a2, b2] = y.split(',').map(Number);
    return a1 - a2 || b1 - b2;
  });
}

test('forEachCandidate and the walk in steps of any budget visit the brute-force pairs, in order', () => {
  for (const seed of [1, 2, 3]) {
    const c = corpus(seed);
    for (const cap of [3, 1000]) {
      const docs = Uint32Array.from({ length: c.size }, (_, i) => i);
      const post = buildPostings(c.values, c.offsets, { cap, keepSingletons: false, keepKeys: false, docs, countIgnored: true });
      const want = bruteForce(c.sets, cap);
      assert.ok(want.length > 50, `${want.length} pairs`);
      const once: string[] = [];
      assert.is(forEachCandidate(post, c.size, (a, b, h) => once.push(`${a},${b},${h}`)), want.length);
      assert.equal(once, want, `seed ${seed} cap ${cap}: one call`);
      for (const budget of [1, 7, 250]) {
        const walk = new CandidateWalk(post, c.size);
        const stepped: string[] = [];
        let steps = 0;
        while (walk.next((a, b, h) => stepped.push(`${a},${b},${h}`), budget)) steps++;
        assert.equal(stepped, want, `seed ${seed} cap ${cap}: steps of ${budget}`);
        assert.is(walk.pairs, want.length);
        assert.ok(steps > 1 || budget > want.length, 'several steps');
        assert.not.ok(walk.next(() => assert.unreachable('no pair after the end'), budget));
      }
    }
  }
});

test('ranges walked apart (walkPairs over walkBounds) give the pairs of one walk, in order, with the pair tests applied', () => {
  for (const seed of [4, 5]) {
    const c = corpus(seed);
    const docs = Uint32Array.from({ length: c.size }, (_, i) => i);
    const post = buildPostings(c.values, c.offsets, { cap: 3, keepSingletons: false, keepKeys: false, docs, countIgnored: true });
    const columns = walkColumns(post, c.size, seed === 5);
    assert.is(columns.docs.buffer instanceof SharedArrayBuffer, seed === 5, 'columns in shared memory when asked');
    // rows shorter than s, so the worth test bounds them: shared values plus common ones against the smaller row
    const tests = { keyOffsets: c.offsets, minHits: 2, shortUnion: 8, rowOffsets: c.offsets, s: 1000, floor: 0.5, ignored: post.ignoredPerDoc };
    const { candidate, worth } = pairTests(tests);
    const want: string[] = [];
    let candidates = 0;
    forEachCandidate(post, c.size, (a, b, h) => { if (!candidate(a, b, h)) return; candidates++; if (worth(a, b, h)) want.push(`${a},${b},${h}`); });
    assert.ok(want.length > 20 && candidates > want.length, `${want.length} of ${candidates} candidates kept`);
    for (const [minParts, partSteps] of [[1, Infinity], [3, Infinity], [2, 40], [1000, Infinity]]) {
      const bounds = walkBounds(columns, c.size, minParts, partSteps);
      assert.is(bounds[0], 0);
      assert.is(bounds[bounds.length - 1], c.size);
      for (let i = 1; i < bounds.length; i++) assert.ok(bounds[i] > bounds[i - 1], 'ascending, no empty range');
      // as many parts as asked (a document with no pairs after it may end a part or not)
      assert.ok(bounds.length - 1 >= Math.min(minParts, c.size / 2), `${bounds.length - 1} parts for ${minParts}`);
      if (partSteps < Infinity) assert.ok(bounds.length - 1 > 3, `${bounds.length - 1} parts of at most ${partSteps} steps`);
      const got: string[] = [];
      let counted = 0;
      for (let r = 0; r + 1 < bounds.length; r++) {
        const w = walkPairs({ columns, tests, from: bounds[r], to: bounds[r + 1] });
        counted += w.candidates;
        for (let k = 0; k < w.a.length; k++) got.push(`${w.a[k]},${w.b[k]},${w.hits[k]}`);
      }
      assert.equal(got, want, `seed ${seed}: ${bounds.length - 1} ranges`);
      assert.is(counted, candidates);
    }
  }
});

test.run();
