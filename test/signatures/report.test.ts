import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { cliqueGroups, findCollisions } from '../../src/signatures/collisions.js';
import { collisionsReference } from '../../src/reference/collisions.js';
import { signatureReport } from '../../src/signatures/report.js';
import { rng } from '../helpers/random.js';

/** Random signatures with exact copies (equal signatures) and jittered near neighbours. */
const points = fc.record({
  k: fc.integer({ min: 1, max: 4 }),
  n: fc.integer({ min: 0, max: 150 }),
  C: fc.oneof(fc.double({ min: 0.005, max: 0.6, noNaN: true }), fc.constant(2)),
  D: fc.oneof(fc.double({ min: 0.005, max: 0.6, noNaN: true }), fc.constant(2)),
  seed: fc.nat(),
  limit: fc.integer({ min: 0, max: 12 }),
}).map(({ k, n, C, D, seed, limit }) => {
  const rnd = rng(seed);
  const rp = new Float64Array(n * k), hm = new Float64Array(n * k);
  for (let p = 0; p < n; p++) {
    const r = rnd();
    const of = p > 0 ? Math.floor(rnd() * Math.min(p, 6)) : -1; // copies pile onto the first few pages
    for (let j = 0; j < k; j++) {
      if (of >= 0 && r < 0.5) { rp[p * k + j] = rp[of * k + j]; hm[p * k + j] = r < 0.35 ? hm[of * k + j] : rnd(); }
      else if (of >= 0 && r < 0.7) { rp[p * k + j] = Math.min(1, rp[of * k + j] + rnd() * 0.02); hm[p * k + j] = hm[of * k + j]; }
      else { rp[p * k + j] = rnd(); hm[p * k + j] = rnd(); }
    }
  }
  return { k, n, C, D, rp, hm, limit };
});

test('the report covers exactly the colliding pairs of an O(n²) scan, each once: listed, or implied by a group or a pair of signatures', () => {
  fc.assert(fc.property(points, ({ k, n, C, D, rp, hm, limit }) => {
    const want = new Set(collisionsReference(rp, hm, k, C, D).map(([a, b]) => a * n + b));
    const report = signatureReport(rp, hm, k, { C, D, listPairsUpTo: limit });
    const got = new Map<number, string>();
    const add = (a: number, b: number, how: string) => {
      const key = Math.min(a, b) * n + Math.max(a, b);
      assert.ok(!got.has(key), `pair ${a} ${b} ${how}, already ${got.get(key)}`);
      got.set(key, how);
    };
    const inGroup = new Int32Array(n).fill(-1);
    report.groups.forEach((g, i) => {
      const docs = g.members.map((m) => m.doc);
      assert.equal(docs, [...docs].sort((x, y) => x - y), 'members in DocId order');
      for (const d of docs) { assert.is(inGroup[d], -1, `page ${d} in one group`); inGroup[d] = i; }
      assert.is(g.pairsListed, docs.length <= limit);
      for (const m of g.members) if (m.copyOf >= 0) assert.ok(docs.includes(m.copyOf) && m.copyOf < m.doc);
      if (!g.pairsListed) for (let x = 0; x < docs.length; x++) for (let y = x + 1; y < docs.length; y++) add(docs[x], docs[y], 'implied by a group');
    });
    // the pages of a pair that stands for several: its signature's pages (the members that copy it, in a group)
    const pagesOf = (doc: number) => [doc, ...report.groups.flatMap((g) => g.members.filter((m) => m.copyOf === doc).map((m) => m.doc))];
    for (let i = 0; i < report.pairs.a.length; i++) {
      const a = report.pairs.a[i], b = report.pairs.b[i];
      assert.ok(a < b && (i === 0 || report.pairs.a[i - 1] * n + report.pairs.b[i - 1] < a * n + b), 'sorted by (a, b)');
      if (report.pairs.aPages[i] === 1 && report.pairs.bPages[i] === 1) { add(a, b, 'listed'); continue; }
      const pa = pagesOf(a), pb = pagesOf(b);
      assert.equal([pa.length, pb.length], [report.pairs.aPages[i], report.pairs.bPages[i]]);
      assert.ok(pa.length * pb.length > limit);
      for (const x of pa) for (const y of pb) add(x, y, 'implied by a pair of signatures');
    }
    assert.equal([...got.keys()].sort((x, y) => x - y), [...want].sort((x, y) => x - y));
    assert.is(report.collidingPairs, want.size);
    // bounded output: pairs listed in groups and per colliding pair of signatures, members once
    assert.ok(report.groups.reduce((t, g) => t + g.members.length, 0) <= n);
  }), { seed: 9, numRuns: 250 });
});

test('without equal signatures the report is findCollisions and cliqueGroups (small groups list their pairs)', () => {
  const rnd = rng(3);
  const k = 2, n = 300;
  const rp = Float64Array.from({ length: n * k }, () => Math.round(rnd() * 20) / 20 + rnd() * 1e-3);
  const hm = Float64Array.from({ length: n * k }, () => rnd());
  const pairs = findCollisions(rp, hm, k, { C: 2, D: 0.03 });
  const groups = cliqueGroups(n, pairs, rp, hm, k);
  const report = signatureReport(rp, hm, k, { C: 2, D: 0.03, listPairsUpTo: 1000 });
  assert.ok(pairs.a.length > 20);
  assert.equal([...report.pairs.a], [...pairs.a]);
  assert.equal([...report.pairs.b], [...pairs.b]);
  assert.equal([...report.pairs.rpDistance], [...pairs.rpDistance]);
  assert.equal(report.groups.map((g) => g.members.map((m) => [m.doc, m.rpDistance, m.hmDistance])), groups.map((g) => g.members.map((m) => [m.doc, m.rpDistance, m.hmDistance])));
});

test('one signature held by 20,000 pages: one group of 20,000 members, no pairs listed, 199,990,000 pairs counted', () => {
  const k = 8, n = 20_000;
  const rp = new Float64Array(n * k).fill(0.5), hm = new Float64Array(n * k).fill(0.25);
  const report = signatureReport(rp, hm, k, { C: 0.1, D: 0.03 });
  assert.is(report.distinct, 1);
  assert.is(report.pairs.a.length, 0);
  assert.is(report.groups.length, 1);
  assert.is(report.groups[0].members.length, n);
  assert.is(report.groups[0].pairsListed, false);
  assert.is(report.groups[0].members[5].copyOf, 0);
  assert.is(report.collidingPairs, (n * (n - 1)) / 2);
});

test.run();
