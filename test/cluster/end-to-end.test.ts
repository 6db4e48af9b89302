// From real text: documents with planted edits, sketched by the core, clustered, and checked
// against brute-force exact resemblance over the full shingle sets.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, sketchMany, type SketchOptions } from '../../src/index.js';
import { intersectionSize, shingleSet } from '../../src/advanced.js';
import { nearDuplicates } from '../../src/cluster/near-duplicates.js';
import { ResembleIndex } from '../../src/cluster/resemble-index/resemble-index.js';
import { UnionFind } from '../../src/cluster/union-find.js';
import { Rng, indexed } from './helpers.js';

await init();
const rng = new Rng(2024);
const vocab = Array.from({ length: 5000 }, (_, i) => `w${(i * 7919) % 100003}`);
const text = (n: number) => Array.from({ length: n }, () => vocab[rng.int(vocab.length)]);
/** Replaces a fraction of the words (each edit breaks up to w shingles). */
const edit = (words: string[], fraction: number) => words.map((x) => (rng.next() < fraction ? vocab[rng.int(vocab.length)] : x));

const docs: string[] = [];
for (let g = 0; g < 14; g++) {
  const base = text(500 + rng.int(500));
  docs.push(base.join(' '));
  for (const f of [0.01, 0.03, 0.2]) docs.push(edit(base, f).join(' '));
  docs.push(`<html><body><p>${base.join(' ')}</p></body></html>`); // lexically equivalent (markup dropped)
  docs.push(base.slice(0, 200).join(' ')); // contained in the base
}
for (let i = 0; i < 10; i++) docs.push(text(600).join(' '));
docs.push(docs[0]); // identical bytes

for (const options of [{ kind: 'min', s: 128, w: 5 }, { kind: 'mod', m: 8, w: 5 }, { kind: 'adaptive', w: 5 }] as SketchOptions[]) {
  test(`${options.kind}: clusters of sketched text against exact resemblance`, () => {
    const set = sketchMany(docs, options);
    const n = docs.length;
    const sets = docs.map((d) => shingleSet(d, options));
    const exact = (a: number, b: number) => { const x = intersectionSize(sets[a], sets[b]); return x / (sets[a].length + sets[b].length - x); };
    const nd = nearDuplicates(set);
    const c = nd.clusters;
    assert.ok(nd.stats.identical >= 1 && nd.stats.lexical >= 14, `set aside ${nd.stats.identical}/${nd.stats.lexical}`);
    let high = 0;
    const truth = new UnionFind(n);
    for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) {
      const j = exact(a, b);
      if (j >= 0.5) truth.union(a, b);
      if (j >= 0.6) { high++; assert.ok(c.clusterOf[a] >= 0 && c.clusterOf[a] === c.clusterOf[b], `pair ${a},${b} at exact ${j.toFixed(3)} joined`); }
    }
    assert.ok(high >= 14 * 5);
    for (let d = 0; d < n; d++) {
      const e = c.evidence(d);
      if (e.via === null) continue;
      assert.ok(exact(d, e.via) >= 0.35, `link ${d}–${e.via} at exact ${exact(d, e.via).toFixed(3)}`);
      if (e.kind === 'lexical' || e.kind === 'identical') assert.is(exact(d, e.via), 1);
    }
    // Clusters equal the connected components of exact resemblance ≥ 0.5 (nothing planted near 0.5).
    for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) {
      const same = c.clusterOf[a] >= 0 && c.clusterOf[a] === c.clusterOf[b];
      assert.is(same, truth.find(a) === truth.find(b), `${a},${b}`);
    }
    // The contained prefix joins only under a containment policy.
    const prefix = 5;
    assert.is(c.clusterOf[prefix], -1);
    // MIN_s candidates keyed by prefix cover the threshold only: a containment recluster needs every value keyed.
    if (options.kind === 'min') {
      assert.ok(nd.stats.prefix > 0 && nd.stats.prefix < 128, `prefix ${nd.stats.prefix}`);
      assert.throws(() => nd.recluster({ containment: 0.8 }), (e: unknown) => e instanceof Error && /prefix/.test(e.message));
    }
    const withContainment = (options.kind === 'min' ? nearDuplicates(set, { prefix: 0 }) : nd).recluster({ containment: 0.8 });
    assert.is(withContainment.clusterOf[prefix], withContainment.clusterOf[0]);
  });
}

test('index over sketched text: a query text finds its near-duplicates', () => {
  const options: SketchOptions = { kind: 'min', s: 128, w: 5 };
  const set = sketchMany(docs, options);
  const index = indexed(set, { keys: docs.map((_, i) => `http://example.com/${i}`) });
  const qtext = edit(docs[7].split(' '), 0.02).join(' ');
  const hits = index.query(sketchMany([qtext], options).get(0));
  const sets = docs.map((d) => shingleSet(d, options));
  const q = shingleSet(qtext, options);
  assert.ok(hits.length >= 4);
  for (const h of hits) {
    const x = intersectionSize(q, sets[h.doc]);
    assert.ok(x / (q.length + sets[h.doc].length - x) > 0.35, `hit ${h.doc}`);
  }
  assert.ok(hits.some((h) => h.doc === 7));
});

test.run();
