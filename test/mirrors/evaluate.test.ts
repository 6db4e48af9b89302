import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { evaluateRankings, parseTruthFile, poolJudge, precisionAtRecall, truthJudge } from '../../src/mirrors/evaluate.js';
import { mirrorFigures, plotRanks } from '../../src/mirrors/figures.js';
import { HostSet } from '../../src/mirrors/host-set.js';
import type { MirroringResult } from '../../src/mirrors/verdict.js';
import { MirrorPool } from '../../src/mirrors/pool.js';
import { Ranking } from '../../src/mirrors/ranking.js';

const hosts = HostSet.fromUrls(['a', 'b', 'c', 'd', 'e'].map((h) => `http://${h}.org/`), { minUrls: 1 });
const pair = (s: string) => [s.charCodeAt(0) - 97, s.charCodeAt(1) - 97];
const ranking = (alg: 'paths' | 'prefix', pairs: string[]) =>
  new Ranking(alg, hosts, Uint32Array.from(pairs, (p) => pair(p)[0]), Uint32Array.from(pairs, (p) => pair(p)[1]), Float64Array.from(pairs, (_, i) => 1 / (i + 1)));
const X = ranking('paths', ['ab', 'ad', 'ac', 'de']);
const Y = ranking('prefix', ['de', 'ab', 'ce', 'bc']);
const close = (got: ArrayLike<number>, want: number[]) => {
  assert.is(got.length, want.length);
  for (let i = 0; i < want.length; i++) assert.ok(Math.abs(got[i] - want[i]) < 1e-12, `[${i}] ${got[i]} ≠ ${want[i]}`);
};

test('truth files: pairs of hosts or URLs, JSON lines, comments; bad lines reported', () => {
  const t = parseTruthFile('# truth\na.org b.org\nhttp://B.org/x, http://c.org/\n{"a":"d.org","b":"e.org"}\n{"a":"a.org","b":"e.org","mirror":false}\nlonely.org\n{"a":1}\n', 't.txt');
  assert.equal(t.pairs, [['a.org', 'b.org'], ['b.org', 'c.org'], ['d.org', 'e.org']]);
  assert.equal(t.errors.map((e) => e.location), ['line 6', 'line 7']);
  const { judge, unknownHosts } = truthJudge(hosts, [...t.pairs, ['a.org', 'zzz.org']]);
  assert.is(judge(0, 2), 1, 'a–c by transitivity');
  assert.is(judge(0, 3), 0);
  assert.equal(unknownHosts, ['zzz.org']);
});

test('precision, relative recall and recall at rank, by hand', () => {
  const { judge } = truthJudge(hosts, [['a.org', 'b.org'], ['b.org', 'c.org'], ['d.org', 'e.org']]);
  const { curves, total } = evaluateRankings([X, Y], judge);
  assert.is(total, 4); // ab, ac, de, bc found by the union
  const [x, y] = curves;
  assert.equal([...x.found], [1, 1, 2, 3]);
  close(x.precision, [1, 1 / 2, 2 / 3, 3 / 4]);
  close(y.precision, [1, 1, 2 / 3, 3 / 4]);
  // Union of the top k: {ab, de}, {ab, de}, {ab, de, ac}, {ab, de, ac, bc}.
  close(x.relativeRecall, [1 / 2, 1 / 2, 2 / 3, 3 / 4]);
  close(y.relativeRecall, [1 / 2, 1, 2 / 3, 3 / 4]);
  close(x.recall, [1 / 4, 1 / 4, 2 / 4, 3 / 4]);
  assert.is(precisionAtRecall(x, 0.5), 2 / 3);
  assert.is(precisionAtRecall(y, 0.5), 1);
  assert.is(precisionAtRecall(x, 1), undefined);
  const deep = evaluateRankings([X, Y], judge, { maxRank: 2, total: 10 });
  assert.equal(deep.curves.map((c) => c.precision.length), [2, 2]);
  close(deep.curves[1].recall, [0.1, 0.2]);
});

test('pooled verdicts as judge: undetermined pairs leave the ranking, untested pairs count as mismatches', () => {
  const pool = new MirrorPool(hosts.size);
  pool.addMirror(0, 1);
  pool.addMirror(1, 2);
  const fail: MirroringResult = { verdict: 'undetermined', reason: 'at most 0 aligned pages could be compared (3 needed)', tested: 0, similar: 0, alignments: [] };
  const ok: MirroringResult = { verdict: 'mirror', reason: '', tested: 10, similar: 10, alignments: [] };
  const judge = poolJudge(pool, [{ ranking: Y, results: [ok, ok, fail, ok] }]);
  assert.is(judge(2, 4), -1);
  assert.is(judge(3, 4), 0, 'de was never verified as a mirror');
  const { curves } = evaluateRankings([Y], judge);
  // ce removed: de, ab, bc.
  close(curves[0].precision, [0, 1 / 2, 2 / 3]);
});

test('figure data: one series per algorithm on sampled ranks, recall on the x axis of Figure 4', () => {
  assert.equal(plotRanks(4), [1, 2, 3, 4]);
  assert.equal(plotRanks(1000, 4), [250, 500, 750, 1000]);
  const { judge } = truthJudge(hosts, [['a.org', 'b.org'], ['b.org', 'c.org'], ['d.org', 'e.org']]);
  const figs = mirrorFigures(evaluateRankings([X, Y], judge).curves);
  assert.equal(figs.map((f) => f.file), ['figure1-precision-at-rank.svg', 'figure3-relative-recall-at-rank.svg', 'figure4-precision-recall.svg']);
  assert.equal(figs[0].series.map((s) => s.name), ['paths', 'prefix']);
  assert.equal(figs[0].series[0].points[3], { x: 4, y: 3 / 4 });
  assert.equal(figs[2].series[0].points.map((p) => p.x), [1 / 4, 1 / 4, 2 / 4, 3 / 4]);
});

test.run();
