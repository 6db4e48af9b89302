import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rmSync } from 'node:fs';
import { init, sketchMany, type SketchOptions } from '../../src/index.js';
import { nearDuplicates, type NearDuplicateOptions } from '../../src/cluster/near-duplicates.js';
import { clusterWithDuckDB } from '../../src/scale/cluster.js';
import { ResembleError } from '../../src/errors.js';
import { assertSamePairs, corpus, scratch } from './helpers.js';

await init();
const texts = corpus(500, 23);
const folder = scratch();

const cases: [string, SketchOptions, NearDuplicateOptions][] = [
  ['MIN_s, defaults (equivalent documents set aside)', { kind: 'min', s: 32, w: 3 }, { commonCap: 30 }],
  ['MIN_s, containment policy, representative by date', { kind: 'min', s: 16, w: 2 }, { commonCap: 25, containment: 0.7, representative: 'earliest', dates: texts.map((_, i) => (i * 7919) % 1000) }],
  ['MOD_m, identical documents only', { kind: 'mod', m: 4, w: 3 }, { commonCap: 30, equivalence: 'identical', threshold: 0.4 }],
  ['adaptive (estimated in the library)', { kind: 'adaptive', w: 3 }, { commonCap: 30 }],
  ['super-shingles, unverified', { kind: 'min', s: 32, w: 3, superShingle: 4 }, { method: 'super-shingles', commonCap: 30 }],
  ['LSH bands, verified', { kind: 'min', s: 32, w: 3, k: 32 }, { method: 'lsh', verify: true, commonCap: 30 }],
];

for (const [name, sketchOptions, options] of cases) {
  test(`clusterWithDuckDB equals nearDuplicates: ${name}`, async () => {
    const set = sketchMany(texts, { markup: 'text', ...sketchOptions });
    const expected = nearDuplicates(set, options);
    const actual = await clusterWithDuckDB(set, { ...options, memoryLimit: '256MB', tempDir: folder });
    assert.ok(expected.pairs.count > 20, 'the corpus has pairs');
    assertSamePairs(actual.pairs, expected.pairs, name);
    assert.equal({ ...actual.stats }, { ...expected.stats });
    assert.equal(Array.from(actual.clusters.clusterOf), Array.from(expected.clusters.clusterOf));
    assert.equal(Array.from(actual.clusters.representative), Array.from(expected.clusters.representative));
    assert.equal(actual.clusters.cluster(0), expected.clusters.cluster(0));
  });
}

test('clusterWithDuckDB rejects what nearDuplicates rejects, before opening the engine', async () => {
  const set = sketchMany(texts.slice(0, 20), { markup: 'text', kind: 'min', s: 8 });
  for (const options of [{ threshold: 2 }, { method: 'lsh' }, { verify: false }, { memoryLimit: '1 lot' }, { minHits: 0 }, { bogus: true }]) {
    try {
      await clusterWithDuckDB(set, options as never);
      assert.unreachable(JSON.stringify(options));
    } catch (e) {
      assert.instance(e, ResembleError);
      assert.is((e as ResembleError).code, 'E_OPTION', JSON.stringify(options));
    }
  }
});

test.after(() => rmSync(folder, { recursive: true, force: true }));
test.run();
