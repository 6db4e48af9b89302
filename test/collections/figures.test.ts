// The paper's own small examples (Figures 3, 6, 7 and 10) as fixtures.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkDefinition5 } from '../../src/collections/definition5.js';
import type { GrownCluster } from '../../src/collections/grow.js';
import { reverseLinks } from '../../src/collections/page-graph.js';
import { fixture, named, run } from './fixture.js';

// Figure 6: trivial clusters a, b, c, d on three sites grow into one cluster of three collections
// of four pages; t (two pages, linked from two of the three a pages) stays a cluster of its own;
// s and g (one page each, not linked to each other) are not merged.
const fig6 = fixture(
  {
    'h1.a': 'a', 'h1.b': 'b', 'h1.c': 'c', 'h1.d': 'd', 'h1.t': 't',
    'h2.a': 'a', 'h2.b': 'b', 'h2.c': 'c', 'h2.d': 'd', 'h2.t': 't',
    'h3.a': 'a', 'h3.b': 'b', 'h3.c': 'c', 'h3.d': 'd', 'h3.s': 's', 'h3.g': 'g',
  },
  [
    ['h1.a', 'h1.b'], ['h2.a', 'h2.b'], ['h3.a', 'h3.b'],
    ['h1.b', 'h1.c'], ['h2.b', 'h2.c'], ['h3.b', 'h3.c'],
    ['h1.a', 'h1.c'],
    ['h1.c', 'h1.d'], ['h2.c', 'h2.d'], ['h3.c', 'h3.d'],
    ['h1.a', 'h1.t'], ['h2.a', 'h2.t'],
    ['h3.b', 'h3.s'], ['h3.d', 'h3.g'],
  ],
);

test('Figure 6: a, b, c, d merge into one cluster of cardinality 3 and size 4; t stays apart', () => {
  const found = run(fig6);
  assert.equal(named(fig6, found), [
    [['h1.a', 'h1.b', 'h1.c', 'h1.d'], ['h2.a', 'h2.b', 'h2.c', 'h2.d'], ['h3.a', 'h3.b', 'h3.c', 'h3.d']],
    [['h1.t'], ['h2.t']],
  ]);
  // Merge order: b grew from a, c from b, d from c (the TCG of Figure 6(b) is a path).
  assert.equal(Array.from(found.clusters[0].parent), [-1, 0, 1, 2]);
  assert.ok(found.clusters.every((c) => c.similar));
  for (const name of ['h3.s', 'h3.g']) assert.is(found.clusterOf[fig6.id(name)], -1);
  // a → c holds on one site only (s = 1), a → t on two of three (s = 2): neither is a TCG edge.
  assert.is(found.stats.mergeEdges, 3);
});

// Figure 7: a and b link to each other's clusters in both directions (a cycle in the TCG), so the
// start point decides the collections: from a, {a1, b1} and {a2, b2}; from b, {b1, a2} and {b2, a1}.
function fig7(entry: 'a' | 'b') {
  return fixture(
    { 'h1.a': 'a', 'h1.b': 'b', 'h2.a': 'a', 'h2.b': 'b', 'x.p': 'p', 'x.q': 'q' },
    [
      ['h1.a', 'h1.b'], ['h2.a', 'h2.b'], ['h1.b', 'h2.a'], ['h2.b', 'h1.a'],
      // Links from another site make `entry` the natural starting point (Section 3.1).
      ['x.p', `h1.${entry}`], ['x.q', `h2.${entry}`], ['x.p', `h2.${entry}`],
    ],
  );
}

test('Figure 7: the start point is the cluster with most links from other sites, and decides the collections', () => {
  const fromA = fig7('a');
  assert.equal(named(fromA, run(fromA)), [[['h1.a', 'h1.b'], ['h2.a', 'h2.b']]]);
  const fromB = fig7('b');
  assert.equal(named(fromB, run(fromB)), [[['h1.b', 'h2.a'], ['h2.b', 'h1.a']]]);
  // Either way both TCG edges meet the merge condition.
  assert.is(run(fromA).stats.mergeEdges, 2);
  assert.is(run(fromB).stats.mergeEdges, 2);
});

test('Figure 7: an explicit root score overrides the in-link count', () => {
  const f = fig7('a');
  const score = new Float64Array(f.names.length);
  score[f.id('h1.b')] = 5;
  assert.equal(named(f, run(f, { rootScore: score })), [[['h1.b', 'h2.a'], ['h2.b', 'h1.a']]]);
});

// Figure 10: [i] is a binary tree a → b, c; b → d, e; c → f, g. [ii] mirrors a, b, c only, and its
// b and c link to [i]'s unmirrored pages.
const fig10 = fixture(
  {
    'i.a': 'a', 'i.b': 'b', 'i.c': 'c', 'i.d': 'd', 'i.e': 'e', 'i.f': 'f', 'i.g': 'g',
    'ii.a': 'a', 'ii.b': 'b', 'ii.c': 'c',
  },
  [
    ['i.a', 'i.b'], ['i.a', 'i.c'], ['i.b', 'i.d'], ['i.b', 'i.e'], ['i.c', 'i.f'], ['i.c', 'i.g'],
    ['ii.a', 'ii.b'], ['ii.a', 'ii.c'], ['ii.b', 'i.d'], ['ii.b', 'i.e'], ['ii.c', 'i.f'], ['ii.c', 'i.g'],
  ],
);

test('Figure 10: the exact condition finds only the mirrored part {a, b, c}', () => {
  const found = run(fig10);
  assert.equal(named(fig10, found), [[['i.a', 'i.b', 'i.c'], ['ii.a', 'ii.b', 'ii.c']]]);
  assert.is(found.clusters[0].extended, false);
  for (const p of ['i.d', 'i.e', 'i.f', 'i.g']) assert.is(found.clusterOf[fig10.id(p)], -1);
});

test('Figure 10: the extended condition takes the partial mirror with the unmirrored pages shared', () => {
  const found = run(fig10, { extended: true });
  assert.equal(named(fig10, found), [[
    ['i.a', 'i.b', 'i.c', 'i.d', 'i.e', 'i.f', 'i.g'],
    ['ii.a', 'ii.b', 'ii.c', 'i.d', 'i.e', 'i.f', 'i.g'],
  ]]);
  assert.is(found.clusters[0].extended, true);
  assert.is(found.clusters[0].similar, true);
});

test('Figure 10: extended edges need the unmirrored pages on a site holding a copy', () => {
  // The same shape, but d..g live on a third site holding no copy of a, b, c (a page every copy links to).
  const f = fixture(
    { 'i.a': 'a', 'i.b': 'b', 'ii.a': 'a', 'ii.b': 'b', 'home.d': 'd' },
    [['i.a', 'i.b'], ['ii.a', 'ii.b'], ['i.b', 'home.d'], ['ii.b', 'home.d']],
  );
  assert.equal(named(f, run(f, { extended: true })), [[['i.a', 'i.b'], ['ii.a', 'ii.b']]]);
  assert.is(run(f, { extended: true }).stats.offSiteRows, 1);
});

// Figure 3(b): [ii].p points to two copies of q, [i].r to two copies of s: no one-to-one mapping.
const fig3b = fixture(
  {
    'i.p': 'p', 'i.q': 'q', 'i.r': 'r', 'i.s1': 's', 'i.s2': 's',
    'ii.p': 'p', 'ii.q1': 'q', 'ii.q2': 'q', 'ii.r': 'r', 'ii.s': 's',
  },
  [
    ['i.p', 'i.q'], ['i.q', 'i.r'], ['i.r', 'i.s1'], ['i.r', 'i.s2'],
    ['ii.p', 'ii.q1'], ['ii.p', 'ii.q2'], ['ii.q1', 'ii.r'], ['ii.q2', 'ii.r'], ['ii.r', 'ii.s'],
  ],
);

test('Figure 3(b): collections with replicas inside them are not similar', () => {
  for (const extended of [false, true]) {
    const found = run(fig3b, { extended });
    assert.ok(found.clusters.every((c) => c.size === 1), `extended ${extended}: ${JSON.stringify(named(fig3b, found))}`);
    assert.is(found.clusters.length, 4);
  }
  // The extended count condition holds for q → r (3 = 3 ≥ 2 = 2), but both q pages of [ii] are on one site.
  assert.is(run(fig3b, { extended: true }).stats.offSiteRows, 1);
});

// Figure 3(c): [i].q and [ii].t differ, so they break p → ? → r → s into {p} and {r, s}.
const fig3c = fixture(
  { 'i.p': 'p', 'i.q': 'q', 'i.r': 'r', 'i.s': 's', 'ii.p': 'p', 'ii.t': 't', 'ii.r': 'r', 'ii.s': 's' },
  [['i.p', 'i.q'], ['i.q', 'i.r'], ['i.r', 'i.s'], ['ii.p', 'ii.t'], ['ii.t', 'ii.r'], ['ii.r', 'ii.s']],
);

test('Figure 3(c): break points split the collection; q and t are reported', () => {
  const found = run(fig3c);
  assert.equal(named(fig3c, found), [[['i.r', 'i.s'], ['ii.r', 'ii.s']], [['i.p'], ['ii.p']]]);
  assert.equal(Array.from(found.breakPoints.pages, (p) => fig3c.names[p]).sort(), ['i.q', 'ii.t']);
  const q = Array.from(found.breakPoints.pages).indexOf(fig3c.id('i.q'));
  assert.is(found.breakPoints.from[q], found.clusterOf[fig3c.id('i.p')]);
  assert.is(found.breakPoints.to[q], found.clusterOf[fig3c.id('i.r')]);
});

test('noise: clusters whose collections have fewer than minSize pages are marked', () => {
  const found = run(fig6, { minSize: 4 });
  assert.equal(found.clusters.map((c) => c.noise), [false, true]);
  const defaults = run(fig6, { minSize: undefined });
  assert.equal(defaults.clusters.map((c) => c.noise), [true, true]);
});

test('single site: links across hosts are not used', () => {
  const found = run(fig10, { extended: true, singleSite: true });
  assert.equal(named(fig10, found), [[['i.a', 'i.b', 'i.c'], ['ii.a', 'ii.b', 'ii.c']]]);
});

test('Definition 5: the check catches a page whose parents do not match', () => {
  const inLinks = reverseLinks(fig6.graph);
  const id = fig6.id;
  const good: GrownCluster = {
    cardinality: 2, size: 2, trivial: new Uint32Array(2), parent: Int32Array.from([-1, 0]), extended: false,
    pages: Uint32Array.from([id('h1.a'), id('h1.b'), id('h2.a'), id('h2.b')]),
  };
  assert.equal(checkDefinition5(good, inLinks), []);
  // h2.d's only parent (h2.c) is outside its collection, while h1.b has parent h1.a.
  const broken: GrownCluster = { ...good, pages: Uint32Array.from([id('h1.a'), id('h1.b'), id('h2.a'), id('h2.d')]) };
  assert.equal(checkDefinition5(broken, inLinks), [{ column: 1, x: 0, y: 1 }]);
  // Parents in different columns: h1.c's parent in its row is h1.b (column 0); h3.c's is none.
  const parentOnlyInOne: GrownCluster = { ...good, pages: Uint32Array.from([id('h1.b'), id('h1.c'), id('h2.b'), id('h3.c')]) };
  assert.equal(checkDefinition5(parentOnlyInOne, inLinks), [{ column: 1, x: 0, y: 1 }]);
  // Three collections where no parent column is common to all, but every pair shares one: holds.
  const f = fixture(
    { 'x.p': 'p', 'x.q': 'q', 'x.r': 'r', 'y.p': 'p', 'y.q': 'q', 'y.r': 'r', 'z.p': 'p', 'z.q': 'q', 'z.r': 'r' },
    [['x.p', 'x.r'], ['x.q', 'x.r'], ['y.p', 'y.r'], ['z.q', 'z.r'], ['y.p', 'y.q'], ['z.p', 'z.q']],
  );
  const three: GrownCluster = {
    cardinality: 3, size: 3, trivial: new Uint32Array(3), parent: Int32Array.from([-1, 0, 0]), extended: false,
    pages: Uint32Array.from(['x.p', 'x.q', 'x.r', 'y.p', 'y.q', 'y.r', 'z.p', 'z.q', 'z.r'].map(f.id)),
  };
  // Column 2 (r): parents x {p, q}, y {p}, z {q}: y and z share none.
  assert.equal(checkDefinition5(three, reverseLinks(f.graph)), [{ column: 1, x: 0, y: 1 }, { column: 1, x: 0, y: 2 }, { column: 2, x: 1, y: 2 }]);
});

test.run();
