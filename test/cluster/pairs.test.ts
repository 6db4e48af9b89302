// The candidate step's pair counting against brute force: every pair of documents sharing a list,
// with the number of lists shared, a ascending then b ascending; and the walk in steps of any
// budget visits the same pairs in the same order as one call.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CandidateWalk, forEachCandidate } from '../../src/cluster/pairs.js';
import { buildPostings } from '../../src/cluster/postings.js';
import { Rng, columnsFromSets, randomSet, variant } from './helpers.js';

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

test.run();
