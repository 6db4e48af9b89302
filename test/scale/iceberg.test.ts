// The collections' iceberg query on DuckDB (icebergOnEngine) equals the in-memory one
// (icebergPairs): the same pairs with the same shared counts, and the same count per page of the
// values left out by the cap, handed over before the first pair (the window test's page sizes).
import { rmSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { icebergPairs } from '../../src/collections/iceberg.js';
import { icebergOnEngine } from '../../src/scale/candidates.js';
import { rng } from '../helpers/random.js';
import { scratch } from './helpers.js';

const folder = scratch();

test('icebergOnEngine equals icebergPairs: pairs, shared counts and values capped per page, on all pages and on some', async () => {
  const r = rng(23);
  let capped = 0;
  for (let round = 0; round < 6; round++) {
    const n = 20 + Math.floor(r() * 40), vocab = 8 + Math.floor(r() * 40);
    const sets: bigint[][] = [];
    for (let i = 0; i < n; i++) {
      const s = new Set<bigint>();
      for (let j = Math.floor(r() * 10); j > 0; j--) s.add((BigInt(Math.floor(r() * vocab)) * 0x9e3779b97f4a7c15n) % (1n << 64n));
      sets.push([...s].sort((x, y) => (x < y ? -1 : 1)));
    }
    const offsets = new Uint32Array(n + 1);
    for (let i = 0; i < n; i++) offsets[i + 1] = offsets[i] + sets[i].length;
    const values = BigUint64Array.from(sets.flat());
    const cap = 2 + Math.floor(r() * 6), T = 1 + Math.floor(r() * 2);
    for (const pages of [undefined, Uint32Array.from({ length: n }, (_, i) => i).filter((i) => i % 4 !== 2)]) {
      let mem: Uint32Array | undefined, db: Uint32Array | undefined;
      const want = icebergPairs(values, offsets, { cap, pages, accept: (_a, _b, s) => s >= T, ignored: (p) => { mem = p; } });
      const got = await icebergOnEngine(values, offsets, { cap, pages, accept: (_a, _b, s) => s >= T, ignored: (p) => { db = p; } }, { memoryLimit: '256MB', tempDir: folder });
      const where = `round ${round}${pages ? ', some pages' : ''}`;
      assert.equal(Array.from(got.a), Array.from(want.a), where);
      assert.equal(Array.from(got.b), Array.from(want.b), where);
      assert.equal(Array.from(got.shared), Array.from(want.shared), where);
      assert.is(got.ignoredValues, want.ignoredValues, where);
      assert.equal(Array.from(db!), Array.from(mem!), `${where}: values capped per page`);
      capped += mem!.reduce((s, x) => s + x, 0);
    }
  }
  assert.ok(capped > 50, `values capped in all: ${capped}`);
});

test.after(() => rmSync(folder, { recursive: true, force: true }));

test.run();
