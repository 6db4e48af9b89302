// The shared typed-array hash table against a JavaScript Map over string keys: random keys with
// many repeats, two- and three-word keys, growth from a small start, get / set / setIfAbsent.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { WordTable } from '../src/word-table.js';
import { rng } from './helpers/random.js';

for (const words of [2, 3] as const) {
  test(`${words}-word keys: slot/find/values agree with a Map, across growth`, () => {
    const r = rng(words);
    const table = new WordTable(4, -1, words);
    const ref = new Map<string, number>();
    // Few distinct words so keys repeat and probe chains collide; words above 2^31 too.
    const word = () => (r() < 0.5 ? Math.floor(r() * 64) : Math.floor(r() * 2 ** 32));
    const keys = Array.from({ length: 3000 }, () => [word(), word(), words === 3 ? Math.floor(r() * 3) : 0] as const);
    for (let i = 0; i < 20000; i++) {
      const [a, b, c] = keys[Math.floor(r() * keys.length)];
      const k = `${a}:${b}:${c}`;
      if (r() < 0.6) {
        const s = table.slot(a, b, c);
        table.values[s] = (table.values[s] < 0 ? 0 : table.values[s]) + 1;
        ref.set(k, (ref.get(k) ?? 0) + 1);
      } else {
        const s = table.find(a, b, c);
        assert.is(s < 0 ? undefined : table.values[s], ref.get(k), k);
      }
    }
    assert.is(table.size, ref.size);
    for (const [a, b, c] of keys) {
      const s = table.find(a, b, c);
      assert.is(s < 0 ? undefined : table.values[s], ref.get(`${a}:${b}:${c}`));
    }
  });
}

test('get / set / setIfAbsent keep the first value unless replaced, -1 when absent', () => {
  const r = rng(9);
  const table = new WordTable(1, -1, 2);
  const ref = new Map<string, number>();
  for (let i = 0; i < 5000; i++) {
    const a = Math.floor(r() * 300), b = Math.floor(r() * 2) * 0xfffffff0, v = i;
    const k = `${a}:${b}`;
    if (r() < 0.7) {
      const got = table.setIfAbsent(a, b, v);
      if (!ref.has(k)) ref.set(k, v);
      assert.is(got, ref.get(k));
    } else if (r() < 0.5) {
      table.set(a, b, v);
      ref.set(k, v);
    } else assert.is(table.get(a, b), ref.get(k) ?? -1);
  }
  assert.is(table.size, ref.size);
  assert.is(table.get(301, 0), -1);
});

test.run();
