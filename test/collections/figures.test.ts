// The paper's own small examples (Figures 3, 6, 7 and 10) as fixtures.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkDefinition5, repairDefinition5 } from '../../src/collections/definition5.js';
import { HOLE, type PageMatrix } from '../../src/collections/matrix.js';
import { ResembleError } from '../../src/errors.js';
import { reverseLinks } from '../../src/collections/page-graph.js';
import { canonical, fixture, named, run } from './fixture.js';

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

test('Figure 6, paper growth: a, b, c, d merge into one cluster of cardinality 3 and size 4; t stays apart', () => {
  const found = run(fig6, { growth: 'paper' });
  assert.equal(named(fig6, found), [
    [['h1.a', 'h1.b', 'h1.c', 'h1.d'], ['h2.a', 'h2.b', 'h2.c', 'h2.d'], ['h3.a', 'h3.b', 'h3.c', 'h3.d']],
    [['h1.t'], ['h2.t']],
  ]);
  // Every column is reached along a link from its parent column (in the first copy here).
  const c0 = found.clusters[0];
  for (let col = 1; col < c0.size; col++) assert.ok(fig6.graph.linkTargets.subarray(fig6.graph.linkOffsets[c0.pages[c0.parent[col]]], fig6.graph.linkOffsets[c0.pages[c0.parent[col]] + 1]).includes(c0.pages[col]));
  assert.ok(found.clusters.every((c) => c.similar && c.complete));
  for (const name of ['h3.s', 'h3.g']) assert.is(found.clusterOf[fig6.id(name)], -1);
  // a → c holds on one site only (s = 1), a → t on two of three (s = 2): neither is a TCG edge.
  assert.is(found.stats.mergeEdges, 3);
});

test('Figure 6, mixed growth: t joins the cluster in the two copies that hold it, a hole in the third', () => {
  const found = run(fig6);
  assert.equal(named(fig6, found), [
    [['h1.a', 'h1.b', 'h1.c', 'h1.t', 'h1.d'], ['h2.a', 'h2.b', 'h2.c', 'h2.t', 'h2.d'], ['h3.a', 'h3.b', 'h3.c', null, 'h3.d']],
  ]);
  const c = found.clusters[0];
  assert.equal([c.cardinality, c.size, c.complete, Array.from(c.held)], [3, 5, false, [5, 5, 4]]);
  // s and g are on one site only; a → c on one site only is no reason to join anything either.
  for (const name of ['h3.s', 'h3.g']) assert.is(found.clusterOf[fig6.id(name)], -1);
  assert.is(found.stats.replicatedEdges, 4);
});

// Figure 7, on one host (a collection lives on one host): a and b link to each other's copies in
// both directions (a cycle in the TCG), so the start point decides the collections: from a,
// {a1, b1} and {a2, b2}; from b, {b1, a2} and {b2, a1}.
function fig7(entry: 'a' | 'b') {
  return fixture(
    { 'h.a1': 'a', 'h.b1': 'b', 'h.a2': 'a', 'h.b2': 'b', 'x.p': 'p', 'x.q': 'q' },
    [
      ['h.a1', 'h.b1'], ['h.a2', 'h.b2'], ['h.b1', 'h.a2'], ['h.b2', 'h.a1'],
      // Links from another site make `entry` the natural starting point (Section 3.1).
      ['x.p', `h.${entry}1`], ['x.q', `h.${entry}2`], ['x.p', `h.${entry}2`],
    ],
  );
}

test('Figure 7, paper growth: the start point is the cluster with most links from other sites, and decides the collections', () => {
  const fromA = fig7('a');
  assert.equal(named(fromA, run(fromA, { growth: 'paper' })), [[['h.a1', 'h.b1'], ['h.a2', 'h.b2']]]);
  const fromB = fig7('b');
  assert.equal(named(fromB, run(fromB, { growth: 'paper' })), [[['h.b2', 'h.a1'], ['h.b1', 'h.a2']]]);
  // Either way both TCG edges meet the merge condition.
  assert.is(run(fromA, { growth: 'paper' }).stats.mergeEdges, 2);
  assert.is(run(fromB, { growth: 'paper' }).stats.mergeEdges, 2);
});

test('Figure 7, mixed growth: one page per column in each collection; the entry column has most links from other sites', () => {
  for (const entry of ['a', 'b'] as const) {
    const f = fig7(entry);
    const found = run(f);
    assert.is(found.clusters.length, 1);
    const c = found.clusters[0];
    assert.equal([c.cardinality, c.size], [2, 2]);
    // The two links of the cycle that would put a second page of a column in a collection are refused.
    assert.is(found.stats.linksRefused, 2);
    assert.is(f.labels[c.roots[0]], f.labels[f.id(`h.${entry}1`)], `entry ${entry}`);
  }
  const f = fig7('a');
  const score = new Float64Array(f.names.length);
  score[f.id('h.b1')] = 5;
  const c = run(f, { rootScore: score }).clusters[0];
  assert.is(f.names[c.roots[0]].slice(2, 3), 'b', 'an explicit root score overrides the in-link count');
});

test('Figure 7, paper growth: an explicit root score overrides the in-link count', () => {
  const f = fig7('a');
  const score = new Float64Array(f.names.length);
  score[f.id('h.b1')] = 5;
  assert.equal(named(f, run(f, { growth: 'paper', rootScore: score })), [[['h.b2', 'h.a1'], ['h.b1', 'h.a2']]]);
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

test('Figure 10: the paper growth and the mixed growth find the mirrored part {a, b, c}; links to the other host are not used', () => {
  for (const growth of ['paper', 'mixed'] as const) {
    const found = run(fig10, { growth });
    assert.equal(named(fig10, found), [[['i.a', 'i.b', 'i.c'], ['ii.a', 'ii.b', 'ii.c']]], growth);
    for (const p of ['i.d', 'i.e', 'i.f', 'i.g']) assert.is(found.clusterOf[fig10.id(p)], -1);
  }
});

test('Figure 10 with a full second copy: the partial mirror joins at the pages it holds, holes elsewhere', () => {
  // [iii] is a full copy of [i], so d..g are replicated; [ii] holds a, b, c only.
  const pages: Record<string, string> = {};
  const links: Array<[string, string]> = [];
  for (const h of ['i', 'iii']) {
    for (const x of 'abcdefg') pages[`${h}.${x}`] = x;
    for (const [a, b] of [['a', 'b'], ['a', 'c'], ['b', 'd'], ['b', 'e'], ['c', 'f'], ['c', 'g']]) links.push([`${h}.${a}`, `${h}.${b}`]);
  }
  for (const x of 'abc') pages[`ii.${x}`] = x;
  links.push(['ii.a', 'ii.b'], ['ii.a', 'ii.c'], ['ii.b', 'i.d'], ['ii.b', 'i.e'], ['ii.c', 'i.f'], ['ii.c', 'i.g']);
  const f = fixture(pages, links);
  const found = run(f);
  assert.equal(canonical(f, found), [[
    ['i.a', 'i.b', 'i.c', 'i.d', 'i.e', 'i.f', 'i.g'],
    ['ii.a', 'ii.b', 'ii.c', null, null, null, null],
    ['iii.a', 'iii.b', 'iii.c', 'iii.d', 'iii.e', 'iii.f', 'iii.g'],
  ]]);
  const c = found.clusters[0];
  assert.equal([c.complete, c.similar, Array.from(c.held).sort()], [false, true, [3, 7, 7]]);
  // The entry column has most links from other hosts: [ii]'s links into [i] point at d.
  assert.is(fig10.labels.length > 0 && f.names[c.roots[0]], 'i.d');
  // The paper's exact condition stops at the pages whose trivial clusters are smaller.
  assert.equal(named(f, run(f, { growth: 'paper' })).map((k) => [k.length, k[0].length]), [[3, 3], [2, 1], [2, 1], [2, 1], [2, 1]]);
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
  const paper = run(fig3b, { growth: 'paper' });
  assert.ok(paper.clusters.every((c) => c.size === 1), JSON.stringify(named(fig3b, paper)));
  assert.is(paper.clusters.length, 4);
  // Mixed growth: a collection never holds two pages of one column, so [ii] keeps one q and [i] one s.
  const mixed = run(fig3b);
  for (const c of mixed.clusters) {
    for (let x = 0; x < c.cardinality; x++) {
      const labels = Array.from(c.pages.subarray(x * c.size, (x + 1) * c.size)).filter((p) => p !== HOLE).map((p) => fig3b.labels[p]);
      assert.is(new Set(labels).size, labels.length);
    }
  }
  assert.ok(mixed.stats.linksRefused > 0);
});

// Figure 3(c): [i].q and [ii].t differ, so they break p → ? → r → s into {p} and {r, s}.
const fig3c = fixture(
  { 'i.p': 'p', 'i.q': 'q', 'i.r': 'r', 'i.s': 's', 'ii.p': 'p', 'ii.t': 't', 'ii.r': 'r', 'ii.s': 's' },
  [['i.p', 'i.q'], ['i.q', 'i.r'], ['i.r', 'i.s'], ['ii.p', 'ii.t'], ['ii.t', 'ii.r'], ['ii.r', 'ii.s']],
);

test('Figure 3(c), paper growth: break points split the collection; q and t are reported', () => {
  const found = run(fig3c, { growth: 'paper' });
  assert.equal(named(fig3c, found), [[['i.r', 'i.s'], ['ii.r', 'ii.s']], [['i.p'], ['ii.p']]]);
  assert.equal(Array.from(found.breakPoints.pages, (p) => fig3c.names[p]).sort(), ['i.q', 'ii.t']);
  const q = Array.from(found.breakPoints.pages).indexOf(fig3c.id('i.q'));
  assert.is(found.breakPoints.from[q], found.clusterOf[fig3c.id('i.p')]);
  assert.is(found.breakPoints.to[q], found.clusterOf[fig3c.id('i.r')]);
});

test('noise: clusters whose collections have fewer than minSize pages are marked', () => {
  const found = run(fig6, { growth: 'paper', minSize: 4 });
  assert.equal(found.clusters.map((c) => c.noise), [false, true]);
  const defaults = run(fig6, { growth: 'paper', minSize: undefined });
  assert.equal(defaults.clusters.map((c) => c.noise), [true, true]);
});

test('options of earlier versions are rejected with what replaced them', () => {
  for (const o of [{ extended: true }, { singleSite: true }, { growth: 'exact' }, { minShare: 2 }, { virtualPages: 1 }]) {
    assert.throws(() => run(fig6, o as never), (e: unknown) => e instanceof ResembleError && e.code === 'E_OPTION', JSON.stringify(o));
  }
});

test('Definition 5: the check catches a page whose parents do not match', () => {
  const inLinks = reverseLinks(fig6.graph);
  const id = fig6.id;
  const good: PageMatrix = { cardinality: 2, size: 2, pages: Uint32Array.from([id('h1.a'), id('h1.b'), id('h2.a'), id('h2.b')]) };
  assert.equal(checkDefinition5(good, inLinks), []);
  // h2.d's only parent (h2.c) is outside its collection, while h1.b has parent h1.a.
  const broken: PageMatrix = { ...good, pages: Uint32Array.from([id('h1.a'), id('h1.b'), id('h2.a'), id('h2.d')]) };
  assert.equal(checkDefinition5(broken, inLinks), [{ column: 1, x: 0, y: 1 }]);
  // Parents in different columns: h1.c's parent in its row is h1.b (column 0); h3.c's is none.
  const parentOnlyInOne: PageMatrix = { ...good, pages: Uint32Array.from([id('h1.b'), id('h1.c'), id('h2.b'), id('h3.c')]) };
  assert.equal(checkDefinition5(parentOnlyInOne, inLinks), [{ column: 1, x: 0, y: 1 }]);
  // Three collections where no parent column is common to all, but every pair shares one: holds.
  const f = fixture(
    { 'x.p': 'p', 'x.q': 'q', 'x.r': 'r', 'y.p': 'p', 'y.q': 'q', 'y.r': 'r', 'z.p': 'p', 'z.q': 'q', 'z.r': 'r' },
    [['x.p', 'x.r'], ['x.q', 'x.r'], ['y.p', 'y.r'], ['z.q', 'z.r'], ['y.p', 'y.q'], ['z.p', 'z.q']],
  );
  const three: PageMatrix = { cardinality: 3, size: 3, pages: Uint32Array.from(['x.p', 'x.q', 'x.r', 'y.p', 'y.q', 'y.r', 'z.p', 'z.q', 'z.r'].map(f.id)) };
  // Column 2 (r): parents x {p, q}, y {p}, z {q}: y and z share none.
  const inF = reverseLinks(f.graph);
  assert.equal(checkDefinition5(three, inF), [{ column: 1, x: 0, y: 1 }, { column: 1, x: 0, y: 2 }, { column: 2, x: 1, y: 2 }]);
  // Repair takes pages out until it holds: the result passes the check and is a subset.
  const { pages, removed } = repairDefinition5(three, inF);
  assert.ok(removed > 0);
  assert.equal(checkDefinition5({ ...three, pages }, inF), []);
  for (let i = 0; i < pages.length; i++) assert.ok(pages[i] === HOLE || pages[i] === three.pages[i]);
});

test('Definition 5 with holes: compared on the columns both collections hold', () => {
  // x holds p → q → r; y holds q and r only (a partial copy without p): on {q, r}, q has no parent in
  // either, r has q in both: similar. z holds p and r, without q: r's parent q is not there, p is not
  // a parent of r in x: on {p, r} neither r has a parent there, so x and z are similar too.
  const f = fixture(
    { 'x.p': 'p', 'x.q': 'q', 'x.r': 'r', 'y.q': 'q', 'y.r': 'r', 'z.p': 'p', 'z.r': 'r', 'w.p': 'p', 'w.r': 'r' },
    [['x.p', 'x.q'], ['x.q', 'x.r'], ['y.q', 'y.r'], ['w.p', 'w.r']],
  );
  const m = (rows: Array<Array<string | null>>): PageMatrix => ({ cardinality: rows.length, size: 3, pages: Uint32Array.from(rows.flat(), (n) => (n === null ? HOLE : f.id(n))) });
  const inF = reverseLinks(f.graph);
  assert.equal(checkDefinition5(m([['x.p', 'x.q', 'x.r'], [null, 'y.q', 'y.r'], ['z.p', null, 'z.r']]), inF), []);
  // w's r has parent p, which x holds but not as r's parent: on {p, r}, x's r has none: violation.
  assert.equal(checkDefinition5(m([['x.p', 'x.q', 'x.r'], ['w.p', null, 'w.r']]), inF), [{ column: 2, x: 0, y: 1 }]);
});

test.run();
