// The DuckDB path under a small memory limit on data several times larger: it must spill to the
// temporary folder and finish, with the answer known in closed form.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runPipeline } from '../../src/scale/pipeline.js';
import { scratch } from './helpers.js';

const MAX_TEMP = '8GB';
const DOCS = Number(process.env.RESEMBLE_SPILL_DOCS ?? 2_000_000);
const LENGTH = 16, SHARED = 5, COMMON = 2, CAP = 100;

/** A 64-bit mix of two 32-bit words (distinct inputs give distinct keys with overwhelming probability). */
function key(tag: number, x: number, y: number): bigint {
  let h1 = Math.imul(x ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(y + tag, 0xc2b2ae35);
  let h2 = Math.imul(y ^ 0x7f4a7c15, 0x27d4eb2f) ^ Math.imul(x + tag * 31, 0x165667b1);
  h1 ^= h1 >>> 15; h1 = Math.imul(h1, 0x2c1b3c6d); h1 ^= h1 >>> 12;
  h2 ^= h2 >>> 13; h2 = Math.imul(h2, 0x297a2d39); h2 ^= h2 >>> 16;
  return BigInt.asIntN(64, (BigInt(h1 >>> 0) << 32n) | BigInt((h2 ^ x) >>> 0));
}

/**
 * Documents 2i and 2i+1 share SHARED keys; every document also holds COMMON keys held by all (over
 * the cap) and the rest of its LENGTH keys alone. So each pair shares SHARED + COMMON sketch values:
 * MOD_m resemblance (S + C) / (2L − S − C), containment (S + C) / L.
 */
function keys(docs: number): { key: BigInt64Array; doc: BigInt64Array } {
  const n = docs * LENGTH;
  const k = new BigInt64Array(n), d = new BigInt64Array(n);
  let at = 0;
  for (let doc = 0; doc < docs; doc++) {
    const pair = doc >>> 1;
    for (let j = 0; j < LENGTH; j++) {
      k[at] = j < SHARED ? key(1, pair, j) : j < SHARED + COMMON ? key(2, 0, j) : key(3, doc, j);
      d[at++] = BigInt(doc);
    }
  }
  return { key: k, doc: d };
}

function folderBytes(dir: string): number {
  let total = 0;
  try {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      const st = statSync(p);
      total += st.isDirectory() ? folderBytes(p) : st.size;
    }
  } catch { /* a spill file removed while walking */ }
  return total;
}

test(`${DOCS} documents × ${LENGTH} keys (${(DOCS * LENGTH * 16 / 2 ** 20).toFixed(0)} MB of rows) under a 256MB memory limit: spills and gives the closed-form pairs`, async () => {
  const folder = scratch();
  let spill = 0;
  const watch = setInterval(() => {
    for (const name of readdirSync(folder)) spill = Math.max(spill, folderBytes(join(folder, name, 'spill')));
  }, 50);
  try {
    const running: number[] = [];
    const r = await runPipeline({ onProgress: (p) => { if (p.state === 'running') running.push(p.percentage!); }, keys: keys(DOCS), kind: 'mod', commonCap: CAP, threshold: 0.25, pairFloor: 0.2, memoryLimit: '256MB', maxTempSize: MAX_TEMP, tempDir: folder, documents: DOCS });
    const x = SHARED + COMMON, resemblance = x / (2 * LENGTH - x), containment = x / LENGTH;
    assert.is(r.stats.keyRows, DOCS * LENGTH);
    assert.is(r.stats.ignoredKeys, COMMON);
    assert.is(r.stats.ignoredRows, COMMON * DOCS);
    assert.is(r.stats.candidatePairs, DOCS / 2);
    assert.is(r.pairs.count, DOCS / 2);
    for (let i = 0; i < r.pairs.count; i += 997) {
      assert.is(r.pairs.a[i], 2 * i); assert.is(r.pairs.b[i], 2 * i + 1);
      assert.is(r.pairs.hits[i], SHARED); assert.is(r.pairs.shared[i], x);
      assert.ok(Math.abs(r.pairs.resemblance[i] - resemblance) < 1e-15 && Math.abs(r.pairs.containmentAB[i] - containment) < 1e-15);
    }
    for (let d = 0; d < DOCS; d += 1009) assert.is(r.labels[d], d & ~1);
    assert.ok(spill > 0, 'the engine wrote spill files');
    assert.ok(running.length > 0 && running.every((p) => p >= -1 && p <= 100), 'DuckDB progress is reported while statements run');
    if (process.env.RESEMBLE_SPILL_REPORT) console.log({ spillMB: spill / 2 ** 20, seconds: r.stats.seconds });
  } finally {
    clearInterval(watch);
    rmSync(folder, { recursive: true, force: true });
  }
});

test.run();
