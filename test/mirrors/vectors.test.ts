import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as fc from 'fast-check';
import { HostSet } from '../../src/mirrors/host-set.js';
import { rankHosts, rankPaths } from '../../src/mirrors/url-rank.js';
import { buildTermVectors, cosinePairs } from '../../src/mirrors/vectors.js';

/** Dense reference: every host pair, cosine over full weight vectors built straight from the term lists. */
function bruteCosine(lists: string[][], weight: (df: number, t: string) => number): Map<string, number> {
  const df = new Map<string, number>();
  for (const l of lists) for (const t of new Set(l)) df.set(t, (df.get(t) ?? 0) + 1);
  const vocab = [...df.keys()];
  const dense = lists.map((l) => {
    const s = new Set(l);
    return vocab.map((t) => (s.has(t) ? weight(df.get(t)!, t) : 0));
  });
  const out = new Map<string, number>();
  for (let i = 0; i < lists.length; i++) {
    for (let j = i + 1; j < lists.length; j++) {
      let dot = 0, ni = 0, nj = 0;
      for (let k = 0; k < vocab.length; k++) {
        dot += dense[i][k] * dense[j][k];
        ni += dense[i][k] ** 2;
        nj += dense[j][k] ** 2;
      }
      if (dot > 0) out.set(`${i},${j}`, dot / Math.sqrt(ni * nj));
    }
  }
  return out;
}

const termLists = fc.array(fc.array(fc.integer({ min: 0, max: 30 }).map((t) => `t${t}`), { maxLength: 12 }), { minLength: 2, maxLength: 25 });
// A weight that depends on df and the term text, so both paths through the code are exercised.
const weight = (df: number, t: string) => (1 + (t.charCodeAt(1) % 5)) / df;

test('cosine through inverted lists equals the dense all-pairs reference (random hosts)', () => {
  fc.assert(
    fc.property(termLists, (lists) => {
      const v = buildTermVectors(lists.length, (h) => lists[h], weight, undefined, 'test');
      const p = cosinePairs(v);
      const expect = bruteCosine(lists, weight);
      assert.is(p.a.length, expect.size);
      for (let i = 0; i < p.a.length; i++) {
        assert.ok(p.a[i] < p.b[i]);
        const e = expect.get(`${p.a[i]},${p.b[i]}`);
        assert.ok(e !== undefined && Math.abs(e - p.cosine[i]) < 1e-9, `pair ${p.a[i]},${p.b[i]}: ${p.cosine[i]} vs ${e}`);
      }
    }),
    { numRuns: 150, seed: 42 },
  );
});

test('sampled candidate generation keeps exact scores for the pairs it proposes', () => {
  fc.assert(
    fc.property(termLists, (lists) => {
      const v = buildTermVectors(lists.length, (h) => lists[h], weight, undefined, 'test');
      const p = cosinePairs(v, { candidateCap: () => 2, seed: 1, label: 'x' });
      const expect = bruteCosine(lists, weight);
      for (let i = 0; i < p.a.length; i++) {
        assert.ok(Math.abs(expect.get(`${p.a[i]},${p.b[i]}`)! - p.cosine[i]) < 1e-9);
      }
    }),
    { numRuns: 80, seed: 7 },
  );
});

test('df limits: rejected above maxDf, kept in exactly restrictDf random vectors above that, seeded', () => {
  // Term "common" on all 40 hosts, "mid" on 12, "pair" on 2, "own<h>" on one each.
  const lists = Array.from({ length: 40 }, (_, h) => ['common', ...(h < 12 ? ['mid'] : []), ...(h < 2 ? ['pair'] : []), `own${h}`]);
  const limits = { maxDf: 30, restrictDf: 5, seed: 9 };
  const v = buildTermVectors(40, (h) => lists[h], () => 1, limits, 'paths');
  const holders = (term: string) => {
    const t = v.terms.indexOf(term);
    const out: number[] = [];
    for (let h = 0; h < 40; h++) for (let i = v.offsets[h]; i < v.offsets[h + 1]; i++) if (v.termIds[i] === t) out.push(h);
    return out;
  };
  assert.equal(holders('common'), []);
  const mid = holders('mid');
  assert.is(mid.length, 5);
  assert.ok(mid.every((h) => h < 12));
  assert.equal(holders('pair'), [0, 1]);
  assert.equal(v.stats, { sharedTerms: 3, rejected: 1, restricted: 1 });
  assert.is(v.maxdf, 12);
  assert.equal(v.df[v.terms.indexOf('mid')], 12);
  // Same seed, same subset; other seeds choose other subsets.
  const again = buildTermVectors(40, (h) => lists[h], () => 1, limits, 'paths');
  assert.equal([...again.termIds], [...v.termIds]);
  const subsets = new Set<string>();
  for (let seed = 0; seed < 8; seed++) {
    const w = buildTermVectors(40, (h) => lists[h], () => 1, { ...limits, seed }, 'paths');
    const t = w.terms.indexOf('mid');
    subsets.add(Array.from({ length: 40 }, (_, h) => (w.termIds.subarray(w.offsets[h], w.offsets[h + 1]).includes(t) ? 1 : 0)).join(''));
  }
  assert.ok(subsets.size > 1);
});

test('term selection keeps the most frequent terms, ties by term text', () => {
  const v = buildTermVectors(1, () => ['b', 'a', 'c', 'c', 'b', 'd'], () => 1, undefined, 'x', () => 3);
  assert.equal([...v.termIds].map((t) => v.terms[t]).sort(), ['a', 'b', 'c']);
});

test('hosts algorithm on a hand-computed case', () => {
  const hosts = HostSet.fromUrls(['http://www.foo.com/', 'http://foo.com/', 'http://bar.com/'], { minUrls: 1 });
  const r = rankHosts(hosts);
  // Shared weighted terms of foo.com and www.foo.com: only "foo.com" (len 2, df 2).
  const wFooCom = Math.log10(2) / (1 + Math.log10(2));
  const norm = Math.sqrt(Math.log10(2) ** 2 + wFooCom ** 2 + Math.log10(3) ** 2); // www.foo, foo.com, www.foo.com
  assert.is(r.length, 1);
  assert.equal([hosts.hosts[r.a[0]], hosts.hosts[r.b[0]]], ['foo.com', 'www.foo.com']);
  assert.ok(Math.abs(r.score[0] - wFooCom / norm) < 1e-12, `${r.score[0]}`);
  assert.equal(r.evidence(0).topTerms, ['foo.com']);
});

test('paths algorithm on a hand-computed case', () => {
  // a: x y z, b: x y, c: x w. df: x 3, y 2, z 1, w 1; maxdf 3.
  const urls = ['x', 'y', 'z'].map((p) => `http://a.org/${p}`).concat(['x', 'y'].map((p) => `http://b.org/${p}`), ['x', 'w'].map((p) => `http://c.org/${p}`));
  const r = rankPaths(HostSet.fromUrls(urls, { minUrls: 1 }));
  const w = (df: number) => 1 + Math.log10(3 / df);
  const ab = (w(3) ** 2 + w(2) ** 2) / Math.sqrt((w(3) ** 2 + w(2) ** 2 + w(1) ** 2) * (w(3) ** 2 + w(2) ** 2));
  const ac = w(3) ** 2 / Math.sqrt((w(3) ** 2 + w(2) ** 2 + w(1) ** 2) * (w(3) ** 2 + w(1) ** 2));
  const bc = w(3) ** 2 / Math.sqrt((w(3) ** 2 + w(2) ** 2) * (w(3) ** 2 + w(1) ** 2));
  const got = new Map(Array.from({ length: r.length }, (_, i) => [`${r.a[i]}${r.b[i]}`, r.score[i]]));
  assert.ok(Math.abs(got.get('01')! - ab) < 1e-12);
  assert.ok(Math.abs(got.get('02')! - ac) < 1e-12);
  assert.ok(Math.abs(got.get('12')! - bc) < 1e-12);
  // Ranked by score: ab > bc > ac.
  assert.equal(Array.from({ length: 3 }, (_, i) => `${r.a[i]}${r.b[i]}`), ['01', '12', '02']);
});

test.run();
