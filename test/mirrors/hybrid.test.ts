import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { evaluateRankings, precisionAtRecall, truthJudge } from '../../src/mirrors/evaluate.js';
import { rankAll } from '../../src/mirrors/find.js';
import { HostSet } from '../../src/mirrors/host-set.js';
import { bestAlignment, contentCandidates, hybridPrior, hybridScore, rankHybrid, sketchEvidence } from '../../src/mirrors/hybrid.js';
import type { AlignmentEvidence, MirroringResult } from '../../src/mirrors/verdict.js';

/** Evidence of a pair with one alignment per (compared, similar) given. */
function e(...counts: Array<[number, number]>): MirroringResult {
  const alignments: AlignmentEvidence[] = counts.map(([compared, similar], i) => ({ prefixA: `/a${i}/`, prefixB: '/', common: compared, pathsA: compared, pathsB: compared, compared, similar, meanResemblance: 0, unknown: 0, failed: 0, short: 0, shareA: 1, shareB: 1, lowerShare: 0, verdict: 'undetermined' }));
  return { verdict: 'undetermined', reason: '', tested: 0, similar: 0, alignments };
}
import { LinkTable } from '../../src/mirrors/links.js';
import { makeWorld, worldContent } from './world.js';

test('the hybrid score by hand: prior odds times 1.9 per similar page and 0.1 per dissimilar one, over the best alignment', () => {
  assert.is(hybridPrior(5, 5), 5.5 / 6);
  assert.is(hybridPrior(0, 5), 0.5 / 6);
  assert.is(hybridPrior(7, 5), 5.5 / 6);
  assert.is(hybridScore(0.3, undefined), 0.3);
  assert.is(hybridScore(0.3, e()), 0.3);
  assert.is(hybridScore(0.3, e([0, 0])), 0.3);
  const logit = Math.log(0.5 / 0.5) + 2 * Math.log(0.95 / 0.5) + 1 * Math.log(0.05 / 0.5);
  assert.ok(Math.abs(hybridScore(0.5, e([3, 2])) - 1 / (1 + Math.exp(-logit))) < 1e-12);
  assert.ok(Math.abs(hybridScore(0.5, e([3, 2])) - 0.265246) < 1e-6);
  // One dissimilar page outweighs three similar ones; ten similar pages outweigh a low prior.
  assert.ok(hybridScore(0.5, e([4, 3])) < 0.5);
  assert.ok(hybridScore(0.1, e([10, 10])) > 0.98); // logit −2.197 + 10 · 0.642 = 4.22
  assert.ok(Math.abs(hybridScore(0.5, e([2, 1]), { pMirror: 0.8, pOther: 0.4 }) - 1 / (1 + Math.exp(-(Math.log(2) + Math.log(0.2 / 0.6))))) < 1e-12);
  // Two collections side by side: the alignment that raises the odds most counts, whatever its position.
  const two = e([20, 2], [10, 10]);
  assert.is(bestAlignment(two)!.prefixA, '/a1/');
  assert.is(hybridScore(0.5, two), hybridScore(0.5, e([10, 10])));
});

/** Combined and hybrid over one generated web, judged by its truth. */
function compare(seed: number, options: { combinedDepth?: number } = {}) {
  const w = makeWorld({ seed });
  const hosts = HostSet.fromUrls(w.urls, { ips: w.ips });
  const r = rankAll(hosts, LinkTable.fromPairs(hosts, w.links), worldContent(w), options, ['combined', 'hybrid']);
  const { judge } = truthJudge(hosts, w.truth);
  const { curves } = evaluateRankings([r.combined!, r.hybrid!], judge, { total: w.truth.length });
  return { w, hosts, r, judge, combined: curves[0], hybrid: curves[1] };
}

test('hybrid ≥ combined in precision at every recall combined reaches, on several generated webs', () => {
  let gain = 0;
  for (const seed of [7, 8, 9]) {
    const { w, combined, hybrid } = compare(seed);
    const n = w.truth.length;
    let reached = 0;
    for (let k = 1; k <= n; k++) {
      const pc = precisionAtRecall(combined, k / n);
      if (pc === undefined) break;
      reached = k;
      const ph = precisionAtRecall(hybrid, k / n);
      assert.ok(ph !== undefined && ph >= pc, `seed ${seed}, recall ${k}/${n}: hybrid ${ph} < combined ${pc}`);
      gain += ph - pc;
    }
    assert.ok(reached >= n - 1, `combined reaches recall ${reached}/${n}`);
    assert.is(precisionAtRecall(hybrid, 1), 1, `seed ${seed}: hybrid ranks every mirror above every non-mirror`);
  }
  assert.ok(gain > 0.5, `hybrid beats combined (total precision gain ${gain})`);
});

test('content-only candidates find the mirrors a shallow combined misses', () => {
  const { w, combined, hybrid, r } = compare(7, { combinedDepth: 3 });
  assert.ok(combined.recall[combined.recall.length - 1] < 0.6);
  assert.is(hybrid.recall[hybrid.recall.length - 1], 1);
  const onlyContent = Array.from({ length: r.hybrid!.length }, (_, i) => r.hybrid!.algorithms(i)).filter((a) => a.length === 1 && a[0] === 'content');
  assert.ok(onlyContent.length >= w.truth.length / 2);
});

test('content evidence: the mirroring rule on sketches, across a prefix alignment, sampled at equal intervals', () => {
  const pages = new Map([
    ['a.org', { paths: ['p1', 'p2', 'p3', 'p4'], sketches: [1, 2, 3, 4] }],
    ['b.org', { paths: ['p2', 'p3', 'p4', 'p9'], sketches: [2, 30, 4, 9] }],
    ['s.org', { paths: ['copy/p1', 'copy/p2', 'copy/p3', 'copy/p4', 'other'], sketches: [1, 2, 3, 4, 5] }],
  ]);
  const content = { pages: (h: string) => pages.get(h), resemblance: (x: number, y: number) => (x === y ? 1 : 0) };
  const ev = sketchEvidence(content);
  const ab = ev('a.org', 'b.org')!;
  assert.is(ab.verdict, 'not mirror');
  assert.equal([ab.tested, ab.similar, ab.alignment!.common, ab.alignment!.meanResemblance], [3, 2, 3, 0.6667]);
  // four copied pages are a handful (minPages 5): copied pages; from five on, a mirror
  const as = ev('a.org', 's.org')!;
  assert.is(as.verdict, 'copied pages');
  assert.is(as.copied!.pages, 4);
  assert.is(sketchEvidence(content, { minPages: 4 })('a.org', 's.org')!.verdict, 'mirror');
  assert.equal([as.alignment!.prefixA, as.alignment!.prefixB, as.tested, as.similar, as.alignment!.pathsB], ['/', '/copy/', 4, 4, 4]);
  assert.is(ev('a.org', 'none.org'), undefined);
  assert.equal(sketchEvidence(content, { samplePaths: 2 })('a.org', 'b.org')!.tested, 2);
  assert.throws(() => sketchEvidence(content, { agreement: 0 }), /agreement/);
});

test('content candidates: hosts sharing (file name, key) pages in any folder, boilerplate keys ignored', () => {
  const hosts = HostSet.fromUrls(['a', 'b', 'c', 'd'].map((h) => `http://${h}.org/`), { minUrls: 1 });
  const keys = (...k: number[]) => BigUint64Array.from(k, BigInt);
  const pages = new Map([
    ['a.org', { paths: ['x', 'y', 'z'], sketches: [0, 0, 0], keys: keys(1, 2, 9) }],
    ['b.org', { paths: ['x', 'y', 'z'], sketches: [0, 0, 0], keys: keys(1, 2, 9) }],
    ['c.org', { paths: ['x', 'y', 'z'], sketches: [0, 0, 0], keys: keys(1, 5, 9) }],
    ['d.org', { paths: ['q', 'moved/y', 'sub/dir/z'], sketches: [0, 0, 0], keys: keys(1, 2, 9) }],
  ]);
  const content = { pages: (h: string) => pages.get(h), resemblance: () => 1 };
  // a–b share x, y, z; a–c and b–c share x, z; a–d, b–d share y, z; c–d shares z only.
  assert.equal(contentCandidates(hosts, content), [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3]]);
  assert.equal(contentCandidates(hosts, content, { minShared: 3 }), [[0, 1]]);
  // z is on all four hosts: with maxKeyDf 3 it proposes nothing.
  assert.equal(contentCandidates(hosts, content, { maxKeyDf: 3 }), [[0, 1]]);
});

test('hybrid takes a ready evidence function, and needs some content', () => {
  const w = makeWorld({ seed: 8 });
  const hosts = HostSet.fromUrls(w.urls, { ips: w.ips });
  const links = LinkTable.fromPairs(hosts, w.links);
  const { combined } = rankAll(hosts, links, undefined, {}, ['combined']);
  const site = (h: string) => w.siteOf.get(h);
  // An oracle: every compared page similar exactly when the two hosts serve the same site.
  const oracle = (a: string, b: string): MirroringResult => e([5, site(a) === site(b) ? 5 : 0]);
  const r = rankHybrid(hosts, combined!, oracle);
  assert.is(r.length, combined!.length);
  const { judge } = truthJudge(hosts, w.truth);
  const hits = Array.from({ length: r.length }, (_, i) => judge(r.a[i], r.b[i]));
  const first = hits.indexOf(0);
  assert.ok(hits.slice(first).every((h) => h === 0), 'every same-site pair ranks first');
  assert.throws(() => rankAll(hosts, links, undefined, {}, ['hybrid']), /hybrid needs page content/);
  assert.throws(() => rankHybrid(hosts, combined!, oracle, { pMirror: 2 }), /expected number 0\.001\.\.0\.999 for pMirror, got 2/);
});

test.run();
