import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MinPairBatch, SetEstimator } from '../../src/sketch/row-estimates.js';
import { containment, init, resemblance, type Sketch } from '../../src/index.js';
import { kernelBuild } from '../../src/advanced.js';
import { useBuild } from '../../src/wasm/loader.js';
import type { ClusterColumns } from '../../src/sketch/columns.js';
import { Rng, columnsFromSets, randomSet, variant, type ColumnSpec } from './helpers.js';

function sketchOf(set: ClusterColumns, d: number): Sketch {
  return {
    params: set.params, values: set.values.subarray(set.offsets[d], set.offsets[d + 1]), cardinality: set.cardinality[d],
    modulusLog2: set.modulusLog2?.[d] ?? 0, tokens: 0,
  };
}

test('row estimators equal the core estimators (resemblance, containment both ways, shared)', () => {
  const rng = new Rng(11);
  const specs: ColumnSpec[] = [{ kind: 'min', s: 64 }, { kind: 'min', s: 1000 }, { kind: 'mod', mLog2: 3 }, { kind: 'adaptive' }];
  for (const spec of specs) {
    const sets: bigint[][] = [];
    for (let g = 0; g < 7; g++) {
      const base = randomSet(rng, 50 + rng.int(1500));
      sets.push(base, variant(rng, base, rng.next()), base.slice(0, 1 + rng.int(base.length)), base.concat(randomSet(rng, rng.int(4000))));
    }
    const set = columnsFromSets(sets, spec);
    const est = new SetEstimator(set);
    let compared = 0;
    for (let a = 0; a < set.size; a++) for (let b = 0; b < set.size; b++) {
      const r = est.pair(a, b);
      const [cab, cba, shared] = [est.out[1], est.out[2], est.out[3]];
      const sa = sketchOf(set, a), sb = sketchOf(set, b);
      // The core calls empty (reduced) rows vacuously equal / contained; here that is 0: no evidence.
      const mask = spec.kind === 'adaptive' ? (1n << BigInt(Math.max(sa.modulusLog2, sb.modulusLog2))) - 1n : 0n;
      const emptyA = !sa.values.some((v) => (v & mask) === 0n), emptyB = !sb.values.some((v) => (v & mask) === 0n);
      if (!(emptyA && emptyB)) assert.ok(Math.abs(r - resemblance(sa, sb)) < 1e-12, `${spec.kind} r(${a},${b})`);
      else assert.is(r, 0);
      if (!emptyA) assert.ok(Math.abs(cab - containment(sa, sb)) < 1e-12, `${spec.kind} c(${a},${b}) ${cab} vs ${containment(sa, sb)}`);
      if (!emptyB) assert.ok(Math.abs(cba - containment(sb, sa)) < 1e-12, `${spec.kind} c(${b},${a})`);
      const inB = new Set(sb.values);
      assert.is(shared, spec.kind === 'adaptive' ? sa.values.filter((v) => inB.has(v) && (v & mask) === 0n).length : sa.values.filter((v) => inB.has(v)).length);
      compared++;
    }
    assert.ok(compared > 700);
  }
});

test('MIN_s pairs estimated in batches on the kernel equal the row estimator, in both builds', async () => {
  const rng = new Rng(12);
  const sets: bigint[][] = [[]];
  for (let g = 0; g < 40; g++) {
    const base = randomSet(rng, 1 + rng.int(g % 5 === 0 ? 40 : 600));
    sets.push(base, variant(rng, base, rng.next()), base.slice(0, 1 + rng.int(base.length)), base.concat(randomSet(rng, rng.int(300))));
  }
  assert.is(MinPairBatch.run(columnsFromSets(sets, { kind: 'min', s: 16 }), () => undefined, () => 1), undefined, 'no kernel before init');
  await init();
  for (const s of [1, 16, 128]) {
    const set = columnsFromSets(sets, { kind: 'min', s });
    const est = new SetEstimator(set);
    // every ordered pair, about 26,000: more than one kernel batch
    const a: number[] = [], b: number[] = [];
    for (let x = 0; x < set.size; x++) for (let y = 0; y < set.size; y++) if (rng.next() < 0.8) { a.push(x); b.push(y); }
    const expected = a.map((x, i) => { const r = est.pair(x, b[i]); return [x, b[i], i % 7, est.out[3], r, est.out[1], est.out[2]]; });
    for (const build of ['simd', 'scalar'] as const) {
      useBuild(build);
      assert.is(kernelBuild(), build);
      const got: number[][] = [];
      const n = MinPairBatch.run(set, (...row) => { got.push(row); }, (batch) => { a.forEach((x, i) => batch.push(x, b[i], i % 7)); return a.length; });
      assert.is(n, a.length);
      assert.equal(got, expected, `s=${s}, ${build}`);
    }
    useBuild('simd');
  }
  // a set of another kind is left to the row estimator
  assert.is(MinPairBatch.run(columnsFromSets(sets, { kind: 'mod', mLog2: 2 }), () => undefined, () => 1), undefined);
});

test.run();
