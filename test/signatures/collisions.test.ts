import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { cliqueGroups, collisionGroups, findCollisions, rowDistance } from '../../src/signatures/collisions.js';
import { collisionsReference } from '../../src/reference/collisions.js';
import { rng } from '../helpers/random.js';

/** Random signatures with planted near neighbours: each point is fresh or a jittered copy of an earlier one. */
const points = fc.record({
  k: fc.integer({ min: 1, max: 5 }),
  n: fc.integer({ min: 0, max: 120 }),
  C: fc.double({ min: 0.005, max: 0.6, noNaN: true }),
  D: fc.double({ min: 0.005, max: 0.6, noNaN: true }),
  seed: fc.nat(),
  jitter: fc.double({ min: 0, max: 0.2, noNaN: true }),
}).map(({ k, n, C, D, seed, jitter }) => {
  const rnd = rng(seed);
  const rp = new Float64Array(n * k), hm = new Float64Array(n * k);
  for (let p = 0; p < n; p++) {
    const copy = p > 0 && rnd() < 0.5 ? Math.floor(rnd() * p) : -1;
    for (let j = 0; j < k; j++) {
      rp[p * k + j] = copy < 0 ? rnd() : Math.min(1, Math.max(0, rp[copy * k + j] + (rnd() - 0.5) * jitter));
      hm[p * k + j] = copy < 0 ? rnd() : Math.min(1, Math.max(0, hm[copy * k + j] + (rnd() - 0.5) * jitter));
    }
  }
  return { k, n, C, D, rp, hm };
});

test('the grid finds exactly the pairs of an O(n²) scan, with their distances', () => {
  fc.assert(fc.property(points, ({ k, n, C, D, rp, hm }) => {
    const got = findCollisions(rp, hm, k, { C, D });
    const want = collisionsReference(rp, hm, k, C, D);
    assert.equal([...got.a].map((a, i) => [a, got.b[i]]), want);
    for (let i = 0; i < want.length; i++) {
      assert.is(got.rpDistance[i], rowDistance(rp, k, got.a[i], got.b[i]));
      assert.ok(got.rpDistance[i] < D && got.hmDistance[i] < C);
    }
    void n;
  }), { seed: 5, numRuns: 400 });
});

test('a larger collection (2000 pages, K = 5, planted near copies) equals the scan', () => {
  const rnd = rng(99);
  const k = 5, n = 2000;
  const rp = new Float64Array(n * k), hm = new Float64Array(n * k);
  for (let p = 0; p < n; p++) {
    const copy = p > 0 && rnd() < 0.3 ? Math.floor(rnd() * p) : -1;
    for (let j = 0; j < k; j++) {
      rp[p * k + j] = copy < 0 ? rnd() : rp[copy * k + j] + (rnd() - 0.5) * 0.08;
      hm[p * k + j] = copy < 0 ? rnd() : hm[copy * k + j] + (rnd() - 0.5) * 0.08;
    }
  }
  for (const [C, D] of [[0.05, 0.05], [0.02, 0.1], [2, 0.03]]) {
    const got = findCollisions(rp, hm, k, { C, D });
    assert.equal([...got.a].map((a, i) => [a, got.b[i]]), collisionsReference(rp, hm, k, C, D));
    assert.ok(got.a.length > 10, `${got.a.length} pairs`);
  }
});

test('tolerances are strict and hold on lattice points exactly one tolerance apart', () => {
  // Points on a 0.1 lattice: neighbours at exactly 0.1 do not collide with C = D = 0.1, they do with 0.1000001.
  const k = 2, n = 25;
  const rp = new Float64Array(n * k), hm = new Float64Array(n * k);
  for (let p = 0; p < n; p++) { rp[p * k] = (p % 5) / 10; rp[p * k + 1] = Math.floor(p / 5) / 10; }
  assert.is(findCollisions(rp, hm, k, { C: 0.1, D: 0.1 }).a.length, collisionsReference(rp, hm, k, 0.1, 0.1).length);
  const loose = findCollisions(rp, hm, k, { C: 0.1, D: 0.1000001 });
  assert.equal([...loose.a].map((a, i) => [a, loose.b[i]]), collisionsReference(rp, hm, k, 0.1, 0.1000001));
  assert.ok(loose.a.length >= 40); // at least the 40 lattice edges
});

test('groups are the components of the pairs, each member joined through a real collision', () => {
  fc.assert(fc.property(points, ({ k, n, C, D, rp, hm }) => {
    const pairs = findCollisions(rp, hm, k, { C, D });
    const groups = collisionGroups(n, pairs);
    const inPairs = new Set<string>([...pairs.a].map((a, i) => `${a},${pairs.b[i]}`));
    const seen = new Set<number>();
    for (const g of groups) {
      assert.ok(g.members.length >= 2);
      assert.is(g.members[0].through, -1);
      assert.is(g.members[0].doc, Math.min(...g.members.map((m) => m.doc)));
      const before = new Set<number>([g.members[0].doc]);
      for (const m of g.members.slice(1)) {
        assert.ok(before.has(m.through));
        assert.ok(inPairs.has(`${Math.min(m.doc, m.through)},${Math.max(m.doc, m.through)}`));
        assert.is(m.rpDistance, rowDistance(rp, k, m.doc, m.through));
        before.add(m.doc);
      }
      for (const m of g.members) { assert.not.ok(seen.has(m.doc)); seen.add(m.doc); }
    }
    // Every page in a pair is in a group, and the groups are closed under the pairs.
    for (let i = 0; i < pairs.a.length; i++) {
      const ga = groups.findIndex((g) => g.members.some((m) => m.doc === pairs.a[i]));
      assert.ok(ga >= 0 && groups[ga].members.some((m) => m.doc === pairs.b[i]));
    }
  }), { seed: 6, numRuns: 150 });
});

test('options are validated; too many pairs stops with a coded error', () => {
  const rp = new Float64Array(10), hm = new Float64Array(10);
  assert.throws(() => findCollisions(rp, hm, 1, { C: 0 }), /expected number > 0 for C, got 0/);
  assert.throws(() => findCollisions(rp, hm, 1, { D: -1 }), /for D/);
  assert.throws(() => findCollisions(rp, hm, 1, { E: 1 } as never), /unknown option "E"/);
  assert.throws(() => findCollisions(rp, hm, 1, { maxPairs: 44 }), (e: Error & { code?: string }) => e.code === 'E_OPTION' && /more than 44/.test(e.message));
  assert.is(findCollisions(rp, hm, 1, { maxPairs: 45 }).a.length, 45);
});

/** The greedy clique rule written plainly over a full collision matrix. */
function cliqueReference(n: number, pairs: Array<[number, number]>): number[][] {
  const m = Array.from({ length: n }, () => new Uint8Array(n));
  for (const [a, b] of pairs) m[a][b] = m[b][a] = 1;
  const groups: number[][] = [];
  for (let p = 0; p < n; p++) {
    if (!m[p].some(Boolean)) continue;
    const g = groups.find((members) => members.some((q) => m[p][q]) && members.every((q) => m[p][q]));
    if (g) g.push(p);
    else groups.push([p]);
  }
  return groups.filter((g) => g.length > 1);
}

test('groups that do not chain: every two members collide, the same groups as the plain greedy rule', () => {
  fc.assert(fc.property(points, ({ k, n, C, D, rp, hm }) => {
    const pairs = findCollisions(rp, hm, k, { C, D });
    const groups = cliqueGroups(n, pairs, rp, hm, k);
    const want = cliqueReference(n, collisionsReference(rp, hm, k, C, D));
    assert.equal(groups.map((g) => g.members.map((m) => m.doc)), want);
    for (const g of groups) {
      for (const m of g.members) {
        assert.is(m.rpDistance, rowDistance(rp, k, g.members[0].doc, m.doc));
        assert.is(m.hmDistance, rowDistance(hm, k, g.members[0].doc, m.doc));
        for (const o of g.members) if (o !== m) assert.ok(rowDistance(rp, k, m.doc, o.doc) < D && rowDistance(hm, k, m.doc, o.doc) < C);
      }
    }
  }), { seed: 6, numRuns: 300 });
});

test('a chain a–b–c (a and c apart) is one component but two groups', () => {
  const rp = Float64Array.of(0, 0.08, 0.16), hm = new Float64Array(3);
  const pairs = findCollisions(rp, hm, 1, { C: 1, D: 0.1 });
  assert.equal([...pairs.a].map((a, i) => [a, pairs.b[i]]), [[0, 1], [1, 2]]);
  assert.is(collisionGroups(3, pairs).length, 1);
  assert.equal(cliqueGroups(3, pairs).map((g) => g.members.map((m) => m.doc)), [[0, 1]]);
});

test.run();
