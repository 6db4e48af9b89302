import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, sketch, resemblance, containment } from '../../src/index.js';
import { exactResemblance, exactContainment, intersectionSize, shingleSet } from '../../src/advanced.js';
import { rng } from '../helpers/random.js';

await init();

/** A base document and a copy with a fraction of its words replaced and some cut: exact measures span [0, 1]. */
function pairs(seed: number, count: number): Array<[string, string]> {
  const r = rng(seed);
  const out: Array<[string, string]> = [];
  for (let i = 0; i < count; i++) {
    const n = 400 + Math.floor(r() * 2000);
    const a = Array.from({ length: n }, () => `t${Math.floor(r() * 5000)}`);
    const change = (i / count) ** 2 * 0.35;    // up to 35% of words changed: resemblance from 1 to ~0
    const b = a.map((t) => (r() < change ? `u${Math.floor(r() * 5000)}` : t));
    const cut = r() < 0.3 ? Math.floor(n * r() * 0.6) : 0;   // some copies keep only a part: containment ≠ resemblance
    out.push([a.join(' '), b.slice(cut).join(' ')]);
  }
  return out;
}

test('exact measures are plain set arithmetic over the full shingle sets', () => {
  const [a, b] = pairs(9, 3)[1];
  const x = shingleSet(a), y = shingleSet(b);
  const shared = intersectionSize(x, y);
  assert.is(exactResemblance(a, b), shared / (x.length + y.length - shared));
  assert.is(exactContainment(b, a), shared / y.length);
  assert.is(exactResemblance(a, a), 1);
});

test('MIN_s resemblance within 4σ of exact for every pair, mean error within bounds (s = 128)', () => {
  let sumErr = 0, sumSigma = 0, lo = 1, hi = 0;
  for (const [a, b] of pairs(1, 60)) {
    const exact = exactResemblance(a, b);
    const est = resemblance(sketch(a), sketch(b));
    const sigma = Math.sqrt((exact * (1 - exact)) / 128);
    assert.ok(Math.abs(est - exact) <= 4 * sigma + 0.01, `exact ${exact.toFixed(3)} estimated ${est.toFixed(3)}`);
    sumErr += Math.abs(est - exact); sumSigma += sigma;
    lo = Math.min(lo, exact); hi = Math.max(hi, exact);
  }
  assert.ok(lo < 0.1 && hi > 0.9, `pairs span the range: ${lo}..${hi}`);
  assert.ok(sumErr <= sumSigma * 1.2 + 0.01, `mean |error| ${sumErr / 60} vs mean σ ${sumSigma / 60}`);
});

test('MIN_s containment within bounds of exact (both directions)', () => {
  for (const [a, b] of pairs(2, 40)) {
    const sa = sketch(a), sb = sketch(b);
    for (const [x, y, sx, sy] of [[a, b, sa, sb], [b, a, sb, sa]] as const) {
      const exact = exactContainment(x, y);
      const est = containment(sx, sy);
      // the estimate uses the values of x below both thresholds: at least ~s/2 of them
      const sigma = Math.sqrt((exact * (1 - exact)) / 48);
      assert.ok(Math.abs(est - exact) <= 4 * sigma + 0.02, `exact ${exact.toFixed(3)} estimated ${est.toFixed(3)}`);
    }
  }
});

test('MOD_m resemblance and containment within bounds (m = 25, the paper\'s value)', () => {
  for (const [a, b] of pairs(3, 40)) {
    const sa = sketch(a, { kind: 'mod' }), sb = sketch(b, { kind: 'mod' });
    const r = exactResemblance(a, b), c = exactContainment(b, a);
    const union = (sa.cardinality + sb.cardinality) / (1 + r) / 25;
    const sr = Math.sqrt((r * (1 - r)) / Math.max(1, union));
    const sc = Math.sqrt((c * (1 - c)) / Math.max(1, sb.values.length));
    assert.ok(Math.abs(resemblance(sa, sb) - r) <= 4 * sr + 0.02, `r exact ${r} est ${resemblance(sa, sb)}`);
    assert.ok(Math.abs(containment(sb, sa) - c) <= 4 * sc + 0.03, `c exact ${c} est ${containment(sb, sa)}`);
  }
});

test('adaptive sketches compare at the larger modulus', () => {
  for (const [a, b] of pairs(4, 30)) {
    const sa = sketch(a, { kind: 'adaptive' }), sb = sketch(b, { kind: 'adaptive' });
    const expected = sa.cardinality / 2 ** sa.modulusLog2;
    assert.ok(sa.cardinality < 100 || (expected >= 50 && expected < 100), `expected size ${expected}`);
    assert.ok(sa.values.length >= 20 && sa.values.length < 160, `adaptive size ${sa.values.length}`);
    const r = exactResemblance(a, b);
    const sigma = Math.sqrt((r * (1 - r)) / 50);
    assert.ok(Math.abs(resemblance(sa, sb) - r) <= 4 * sigma + 0.02, `exact ${r} est ${resemblance(sa, sb)}`);
  }
});

test('identical documents estimate 1; disjoint ones 0', () => {
  const a = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu';
  assert.is(resemblance(sketch(a), sketch(a)), 1);
  assert.is(containment(sketch(a), sketch(a)), 1);
  assert.is(resemblance(sketch(a), sketch('one two three four five six seven eight nine ten')), 0);
});

test('sketches with different parameters are not compared', () => {
  assert.throws(() => resemblance(sketch('a b c'), sketch('a b c', { w: 3 })), /different parameters: w 8 ≠ 3/);
});

test.run();
