// The measures of eval/manuals/evaluate.ts and the word replacement of the scale crawl, on
// hand-made outputs over the realistic slice's truth: each must count what its README says.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadTruth, pairwise, scoreCollections, scoreDups, scoreMirrors, scoreSignatures, truthClusters } from '../../eval/manuals/evaluate.js';
import { replaceWords } from '../../eval/manuals/scale.js';
import { mulberry32 } from '../../src/random.js';
import { tokensRef } from '../../src/reference/tokens.js';

const DIR = join('test', 'fixtures', 'realistic-slice');
const truth = loadTruth(join(DIR, 'truth'));
const urlsOf = (copy: string) => truth.pages.filter((p) => p.copy === copy).map((p) => p.url);

test('pairwise precision and recall count co-clustered pairs', () => {
  const s = pairwise([[0, 1, 2]], [[0, 1], [2, 3]]);
  assert.equal([s.predictedPairs, s.truthPairs, s.truePairs], [3, 2, 1]);
  assert.is(s.precision, 1 / 3);
  assert.is(s.recall, 1 / 2);
  assert.equal(pairwise([], [[0, 1]]).precision, null);
});

test('dups: the truth clusters score 1; merging two of them costs precision and adds cannot-link pairs', () => {
  const clusters = truthClusters(truth, 0.5);
  const records = clusters.map((g) => ({ members: g.map((i) => ({ url: truth.pages[i].url })) }));
  const perfect = scoreDups(truth, records);
  assert.equal([perfect.precision, perfect.recall, perfect.cannotLink], [1, 1, 0]);
  const paper = clusters.findIndex((g) => truth.pages[g[0]].work === 'paper');
  const django = clusters.findIndex((g) => truth.pages[g[0]].work === 'django-3.2');
  const merged = records.filter((_, i) => i !== paper && i !== django);
  merged.push({ members: [...records[paper].members, ...records[django].members] });
  const worse = scoreDups(truth, merged);
  assert.ok(worse.precision! < 1 && worse.recall === 1);
  assert.is(worse.cannotLink, records[paper].members.length * records[django].members.length);
});

test('dups: copies of one page in one cluster, counted over the pairs of copies as the crawl was built', () => {
  // a cluster per page of a work, holding all its copies: every pair of copies together
  const byPage = new Map<string, string[]>();
  for (const p of truth.pages) byPage.set(`${p.work} ${p.page}`, [...(byPage.get(`${p.work} ${p.page}`) ?? []), p.url]);
  const pairsOf = (n: number) => (n * (n - 1)) / 2;
  const all = [...byPage.values()].reduce((t, g) => t + pairsOf(g.length), 0);
  assert.ok(all > 10, `${all} pairs of copies`);
  const whole = scoreDups(truth, [...byPage.values()].map((g) => ({ members: g.map((url) => ({ url })) })));
  assert.equal([whole.copyPairs, whole.copyPairsTogether, whole.copyRecall], [all, all, 1]);
  // one copy left out of its cluster loses its pairs with the others
  const biggest = [...byPage.values()].sort((x, y) => y.length - x.length)[0];
  const less = scoreDups(truth, [...byPage.values()].map((g) => ({ members: (g === biggest ? g.slice(1) : g).map((url) => ({ url })) })));
  assert.is(less.copyPairsTogether, all - (biggest.length - 1));
});

test('collections: a pair is recovered when one cluster lists ≥ 90% of its common pages in two collections', () => {
  const cluster = { similar: true, collections: [{ pages: urlsOf('django-origin') }, { pages: urlsOf('django-mirror') }] };
  const s = scoreCollections(truth, [cluster]);
  const exact = s.pairs.find((p) => p.a === 'django-origin' && p.b === 'django-mirror')!;
  assert.is(exact.coverage, 1);
  assert.is(s.recovered, 1);
  assert.is(s.pagesInTwoCollections, 0);
  assert.is(s.clustersMixingManuals, 0);
  // The same pages twice in one cluster, and a cluster across two manuals.
  const bad = scoreCollections(truth, [
    { collections: [{ pages: urlsOf('django-origin') }, { pages: urlsOf('django-origin') }] },
    { collections: [{ pages: urlsOf('paper-origin') }, { pages: urlsOf('handbook-ja-origin') }] },
  ]);
  assert.is(bad.recovered, 0);
  assert.is(bad.pagesInTwoCollections, urlsOf('django-origin').length);
  assert.is(bad.clustersMixingManuals, 1);
  // 9 of 10 common pages is 90%: recovered; 8 of 10 is not.
  const nine = scoreCollections(truth, [{ collections: [{ pages: urlsOf('django-origin').slice(0, 9) }, { pages: urlsOf('django-mirror') }] }]);
  const eight = scoreCollections(truth, [{ collections: [{ pages: urlsOf('django-origin').slice(0, 8) }, { pages: urlsOf('django-mirror') }] }]);
  assert.is(nine.pairs.find((p) => p.a === 'django-origin' && p.b === 'django-mirror')!.coverage, 0.9);
  assert.is(nine.recovered, 1);
  assert.is(eight.recovered, 0);
});

test('mirrors: only mirror verdicts are calls; precision and recall over the true host pairs', () => {
  const positives = truth.hostPairs.filter((p) => p.mirror);
  const negative = truth.hostPairs.find((p) => !p.mirror)!;
  const records = [
    { a: positives[0].b, b: positives[0].a, mirror: true, evidence: { verification: { verdict: 'mirror' } } },
    { a: positives[1].a, b: positives[1].b, mirror: false, evidence: { verification: { verdict: 'not mirror' } } },
    { a: positives[2].a, b: positives[2].b, mirror: null, evidence: { verification: { verdict: 'undetermined' } } },
    { a: negative.a, b: negative.b, mirror: true, evidence: { verification: { verdict: 'mirror' } } },
  ];
  const s = scoreMirrors(truth, records);
  assert.is(s.truePositives, 1);
  assert.is(s.precision, 1 / 2);
  assert.is(s.recall, 1 / positives.length);
  assert.equal(s.verdicts.undetermined, { truthMirror: 1, truthNot: 0 });
  assert.equal(s.verdicts['not mirror'], { truthMirror: 1, truthNot: 0 });
  assert.equal(s.missed.length, positives.length - 1);
});

test('signatures: group members are pairs; precision at Jaccard 0.8, recall at 0.9', () => {
  const near = truth.pairs.filter((p) => p.j8 >= 0.9);
  const pairRecords = near.map((p) => ({ a: truth.pages[p.a].url, b: truth.pages[p.b].url }));
  const s = scoreSignatures(truth, pairRecords);
  assert.equal([s.precision, s.recall], [1, 1]);
  const all = scoreSignatures(truth, [{ members: truth.pages.map((p) => ({ url: p.url })) }]);
  assert.is(all.pairs, (truth.pages.length * (truth.pages.length - 1)) / 2);
  assert.is(all.recall, 1);
  assert.is(all.precision, truth.pairs.filter((p) => p.j8 >= 0.8).length / all.pairs);
  assert.is(all.copyPairsColliding, all.copyPairs09);
  assert.ok(s.copyPairs09 > 0 && s.copyPairsColliding === s.copyPairs09, 'every pair of copies at J ≥ 0.9 is among the near pairs');
  // the pairs of copies alone: one left out is one fewer
  const k = (a: number, b: number) => (a < b ? `${a} ${b}` : `${b} ${a}`);
  const copies = near.filter((p) => truth.pages[p.a].work === truth.pages[p.b].work && truth.pages[p.a].page === truth.pages[p.b].page);
  const less = scoreSignatures(truth, copies.slice(1).map((p) => ({ a: truth.pages[p.a].url, b: truth.pages[p.b].url })));
  assert.equal([less.copyPairs09, less.copyPairsColliding], [s.copyPairs09, s.copyPairs09 - 1]);
  assert.ok(truth.j8.has(k(copies[0].a, copies[0].b)));
});

test('scale: replacing words keeps the markup, replaces about the fraction asked, and depends only on the seed', () => {
  const page = truth.pages.find((p) => p.copy === 'django-origin')!;
  const html = readFileSync(join(DIR, 'crawl', (page as unknown as { file: string }).file), 'utf8');
  const a = replaceWords(html, 0.1, mulberry32(7)), b = replaceWords(html, 0.1, mulberry32(7)), c = replaceWords(html, 0.1, mulberry32(8));
  assert.is(a.html, b.html);
  assert.is.not(a.html, c.html);
  const tags = (s: string) => s.match(/<[^>]*>|&#?[A-Za-z0-9]+;/g);
  assert.equal(tags(a.html), tags(html));
  assert.ok(a.replaced > 0.05 * a.words && a.replaced < 0.15 * a.words, `${a.replaced} of ${a.words}`);
  assert.is(tokensRef(a.html).length, tokensRef(html).length);
  assert.is(replaceWords(html, 0, mulberry32(1)).html, html);
});

test.run();
