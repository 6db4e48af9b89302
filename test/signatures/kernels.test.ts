import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { init } from '../../src/wasm/loader.js';
import { withArena } from '../../src/wasm/instance.js';
import { projectBags, projectionEntry, propagateHyperlinkMap } from '../../src/signatures/kernels.js';
import { rpEntryReference, rpProjectReference } from '../../src/reference/projection.js';
import { hmPropagateReference } from '../../src/reference/hyperlinkmap.js';

const u64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });

test.before(async () => { await init(); });

test('π(word, j) equals its BigInt twin bit for bit', () => {
  fc.assert(fc.property(u64, fc.nat(300), fc.nat(0xffffffff), (w, j, seed) => {
    assert.is(projectionEntry(w, j, seed), rpEntryReference(w, j, seed));
  }), { seed: 1, numRuns: 2000 });
});

test('π entries are uniform in [-1, 1): mean 0, variance 1/3, rows independent', () => {
  const n = 40000;
  let sum = 0, sq = 0, cross = 0, min = Infinity, max = -Infinity;
  for (let i = 0; i < n; i++) {
    const w = BigInt(i) * 0x100000001b3n; // structured words: the hash must still spread them
    const a = projectionEntry(w, 0, 7), b = projectionEntry(w, 1, 7);
    sum += a; sq += a * a; cross += a * b;
    min = Math.min(min, a); max = Math.max(max, a);
  }
  // Standard errors: mean 0.0029, variance 0.0015, covariance 0.0017; bounds at about 4 of them.
  assert.ok(Math.abs(sum / n) < 0.012, `mean ${sum / n}`);
  assert.ok(Math.abs(sq / n - 1 / 3) < 0.006, `variance ${sq / n}`);
  assert.ok(Math.abs(cross / n) < 0.007, `covariance ${cross / n}`);
  assert.ok(min >= -1 && min < -0.999 && max < 1 && max > 0.999);
});

const bags = fc.array(fc.array(fc.tuple(u64, fc.double({ min: -100, max: 100, noNaN: true })), { maxLength: 12 }), { maxLength: 25 });

test('rp_project equals the plain-loop projection, across batch boundaries', () => {
  fc.assert(fc.property(bags, fc.integer({ min: 1, max: 9 }), fc.nat(0xffffffff), fc.integer({ min: 1, max: 30 }), (docs, k, seed, perCall) => {
    const offsets = new Uint32Array(docs.length + 1);
    docs.forEach((d, i) => { offsets[i + 1] = offsets[i] + d.length; });
    const terms = BigUint64Array.from(docs.flat().map(([w]) => w));
    const weights = Float64Array.from(docs.flat().map(([, x]) => x));
    const got = projectBags(terms, weights, offsets, k, seed, perCall);
    assert.equal(Array.from(got), Array.from(rpProjectReference(docs, k, seed)));
  }), { seed: 2, numRuns: 300 });
});

/** A random graph: n pages, out-links as sorted distinct rows (self-links allowed: the kernel takes any CSR). */
const graph = fc.integer({ min: 1, max: 30 }).chain((n) => fc.tuple(
  fc.constant(n),
  fc.array(fc.uniqueArray(fc.nat(n - 1), { maxLength: 6 }), { minLength: n, maxLength: n }),
));

test('hm_propagate equals the plain-loop reference on random graphs', () => {
  fc.assert(fc.property(graph, fc.integer({ min: 1, max: 6 }), fc.double({ min: 0, max: 2, noNaN: true }), fc.nat(7), fc.nat(1000), ([n, rows], k, gamma, iterations, salt) => {
    const r = Float64Array.from({ length: n * k }, (_, i) => ((i * 7919 + salt * 104729) % 1000) / 999);
    const offsets = new Uint32Array(n + 1);
    rows.forEach((row, i) => { offsets[i + 1] = offsets[i] + row.length; });
    const targets = Uint32Array.from(rows.flatMap((row) => [...row].sort((a, b) => a - b)));
    const got = propagateHyperlinkMap(r, k, offsets, targets, gamma, iterations);
    const want = hmPropagateReference(r, k, rows.map((row) => [...row].sort((a, b) => a - b)), gamma, iterations);
    assert.equal(Array.from(got), Array.from(want));
    assert.ok(Math.max(...got) === 1 || Math.max(...got) === 0);
  }), { seed: 3, numRuns: 300 });
});

test('hm_propagate: hand-computed two-page chain', () => {
  // Page 0 links to page 1. x0(1) = r0 + γ x1(0) r1 = 0.5 + 0.5·0.4·0.4 = 0.58; x1(1) = 0.4.
  // x0(2) = 0.5 + 0.5·0.4·0.4 = 0.58 again (page 1 has no children). Scaled by 1/0.58.
  const got = propagateHyperlinkMap(Float64Array.of(0.5, 0.4), 1, Uint32Array.of(0, 1, 1), Uint32Array.of(1), 0.5, 2);
  assert.ok(Math.abs(got[0] - 1) < 1e-15 && Math.abs(got[1] - 0.4 / 0.58) < 1e-15, String(got));
});

test('kernels reject a target outside the pages and a short output (no TypeScript checks in between)', () => {
  withArena((mem, k) => {
    const r = mem.alloc(16), off = mem.putU32([0, 1, 1]), bad = mem.putU32([5]), out = mem.alloc(16), scratch = mem.alloc(16);
    assert.is(k.hm_propagate(r, 2, 1, off, bad, 1, 0.5, 1, out, scratch, 2), -3);
    assert.is(k.hm_propagate(r, 2, 1, off, bad, 1, 0.5, 1, out, scratch, 1), -1);
    assert.is(k.rp_project(r, r, off, 2, 3, 0, out, 5), -1);
    assert.is(k.rp_project(r, r, off, 2, 0, 0, out, 5), -3);
  });
});

test.run();
