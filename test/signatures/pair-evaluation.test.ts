import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init } from '../../src/index.js';
import { shingleSet } from '../../src/advanced.js';
import { loadCrawl } from '../../src/io/index.js';
import { crawlShingleSets } from '../../src/signatures/crawl-signatures.js';
import { exactJaccard, pairsAtLeast, scorePairs, shingleSetsOf } from '../../src/signatures/pair-evaluation.js';
import { rng } from '../helpers/random.js';

await init();

const rnd = rng(13);
/** Documents in families: a base text and copies with a few words changed, plus short and empty ones. */
function documents(n: number): string[] {
  const out: string[] = ['', 'one two', 'one two'];
  while (out.length < n) {
    const base = Array.from({ length: 20 + Math.floor(rnd() * 80) }, () => `w${Math.floor(rnd() * 300)}`);
    out.push(base.join(' '));
    for (let c = Math.floor(rnd() * 4); c > 0 && out.length < n; c--) {
      out.push(base.map((w) => (rnd() < 0.02 + rnd() * 0.05 ? `x${Math.floor(rnd() * 300)}` : w)).join(' '));
    }
  }
  return out;
}

/** Brute force: Jaccard of every pair from the core's full shingle sets (BigInt values). */
function bruteForce(docs: string[]): number[][] {
  const sets = docs.map((d) => shingleSet(d, { markup: 'text' }));
  const j: number[][] = docs.map(() => []);
  for (let a = 0; a < docs.length; a++) {
    for (let b = a + 1; b < docs.length; b++) {
      const x = sets[a], y = sets[b];
      let i = 0, k = 0, shared = 0;
      while (i < x.length && k < y.length) {
        if (x[i] === y[k]) { shared++; i++; k++; } else if (x[i] < y[k]) i++; else k++;
      }
      j[a][b] = shared / (x.length + y.length - shared);
    }
  }
  return j;
}

test('exact Jaccard and every pair over a level, against brute force over all pairs', () => {
  const docs = documents(160);
  const sets = shingleSetsOf(docs, { markup: 'text' });
  const brute = bruteForce(docs);
  for (let a = 0; a < docs.length; a++) for (let b = a + 1; b < docs.length; b++) assert.ok(Math.abs(exactJaccard(sets, a, b) - brute[a][b]) < 1e-12, `${a} ${b}`);
  for (const t of [0.5, 0.8, 0.9, 1]) {
    const got = pairsAtLeast(sets, t);
    const want: Array<[number, number]> = [];
    for (let a = 0; a < docs.length; a++) for (let b = a + 1; b < docs.length; b++) if (brute[a][b] >= t - 1e-12) want.push([a, b]);
    assert.equal([...got.a].map((a, i) => [a, got.b[i]]), want, `t = ${t}`);
    assert.ok(want.length > 10, `t = ${t}: ${want.length} pairs`);
    got.jaccard.forEach((x, i) => assert.ok(Math.abs(x - brute[got.a[i]][got.b[i]]) < 1e-12));
  }
});

test('pair precision and recall of a set of colliding pairs, against their definitions', () => {
  const docs = documents(120);
  const sets = shingleSetsOf(docs, { markup: 'text' });
  const brute = bruteForce(docs);
  const wanted = pairsAtLeast(sets, 0.9);
  // Some wanted pairs, some others, a repeat and a reversed pair.
  const a: number[] = [], b: number[] = [];
  for (let i = 0; i < wanted.a.length; i += 2) { a.push(wanted.a[i]); b.push(wanted.b[i]); }
  for (let i = 0; i < 40; i++) { const x = Math.floor(rnd() * 120), y = Math.floor(rnd() * 120); if (x !== y) { a.push(x); b.push(y); } }
  a.push(b[0]); b.push(a[0]);
  const keys = new Set(a.map((x, i) => `${Math.min(x, b[i])} ${Math.max(x, b[i])}`));
  const correct = [...keys].filter((k) => { const [x, y] = k.split(' ').map(Number); return brute[x][y] >= 0.8; }).length;
  const found = [...wanted.a].filter((x, i) => keys.has(`${x} ${wanted.b[i]}`)).length;
  const s = scorePairs(sets, { a, b }, wanted, 0.8);
  assert.equal(s, { pairs: keys.size, correct, pairPrecision: correct / keys.size, wanted: wanted.a.length, found, pairRecall: found / wanted.a.length });
  assert.equal(scorePairs(sets, { a: [], b: [] }, wanted), { pairs: 0, correct: 0, pairPrecision: 1, wanted: wanted.a.length, found: 0, pairRecall: 0 });
  assert.throws(() => pairsAtLeast(sets, 0), /t/);
});

test('on the realistic slice: the pairs with Jaccard ≥ 0.9 are those of the truth (reference tokenizer)', async () => {
  const slice = fileURLToPath(new URL('../fixtures/realistic-slice/', import.meta.url));
  const crawl = await loadCrawl(join(slice, 'crawl'));
  const truthPages: Array<{ url: string }> = JSON.parse(readFileSync(join(slice, 'truth', 'pages.json'), 'utf8')).pages;
  const truth = readFileSync(join(slice, 'truth', 'pairs.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { a: number; b: number; j8: number });
  const doc = new Map(crawl.graph.urls.map((u, i) => [u, i]));
  const key = (x: number, y: number) => (x < y ? `${x} ${y}` : `${y} ${x}`);
  const want = new Set(truth.filter((p) => p.j8 >= 0.9).map((p) => key(doc.get(truthPages[p.a].url)!, doc.get(truthPages[p.b].url)!)));
  const got = pairsAtLeast(crawlShingleSets(crawl.documents), 0.9);
  const gotKeys = new Set([...got.a].map((a, i) => key(a, got.b[i])));
  assert.ok(want.size > 20, `${want.size} pairs`);
  const missed = [...want].filter((k) => !gotKeys.has(k)), extra = [...gotKeys].filter((k) => !want.has(k));
  assert.equal([missed, extra], [[], []]);
});

test.run();
