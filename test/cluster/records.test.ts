// The records `dups` prints, made in one pass (plainClusterRecord), against the composition they
// replace: plain(withContentEvidence(clusterRecord(...))), field for field and byte for byte.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, sketchMany, type SketchOptions } from '../../src/index.js';
import { nearDuplicates } from '../../src/cluster/near-duplicates.js';
import { clusterRecord, plainClusterRecord } from '../../src/cluster/records.js';
import { withContentEvidence } from '../../src/template/evidence.js';
import { plain } from '../../src/report/plain.js';
import { Rng } from './helpers.js';

await init();
const rng = new Rng(38);
const vocab = Array.from({ length: 3000 }, (_, i) => `w${(i * 7919) % 100003}`);
const text = (n: number) => Array.from({ length: n }, () => vocab[rng.int(vocab.length)]);
const edit = (words: string[], fraction: number) => words.map((x) => (rng.next() < fraction ? vocab[rng.int(vocab.length)] : x));
const footer = 'home about contact privacy policy terms of use copyright all rights reserved '.repeat(3);
const docs: string[] = [];
for (let g = 0; g < 40; g++) {
  const base = text(80 + rng.int(400));
  docs.push(`<html><body><nav>${footer}</nav><p>${base.join(' ')}</p></body></html>`);
  for (const f of [0.01, 0.05, 0.15, 0.3]) docs.push(`<html><body><nav>${footer}</nav><p>${edit(base, f).join(' ')}</p></body></html>`);
  docs.push(`<html><body><p>${base.join(' ')}</p></body></html>`);
  docs.push(base.slice(0, 60).join(' '));
}
docs.push(docs[0], docs[7]);

const cases: [string, SketchOptions][] = [['page', { kind: 'min', s: 128, w: 5 }], ['main', { kind: 'min', s: 128, w: 5, content: 'main', minContent: 5 }], ['mod', { kind: 'mod', m: 8, w: 4 }]];
for (const [name, options] of cases) {
  test(`${name}: plainClusterRecord gives the composed record, key order and all`, () => {
    const set = sketchMany(docs, options);
    assert.is(set.params.content === 'main', name === 'main');
    for (const policy of [{}, { containment: 0.8 }, { threshold: 0.3 }]) {
      const c = nearDuplicates(set, policy).clusters;
      assert.ok(c.count > 10, `${c.count} clusters`);
      const urls = docs.map((_, i) => `http://example.org/${i}?q="${i}"`);
      let near = 0;
      for (let i = 0; i < c.count; i++) {
        const composed = plain(withContentEvidence(clusterRecord(c, i, urls), c.membersOf(i), set));
        const direct = plainClusterRecord(c, i, urls, set);
        assert.is(JSON.stringify(direct), JSON.stringify(composed), `cluster ${i}`);
        assert.equal(direct, composed);
        near += direct.members.filter((m) => m.kind === 'near').length;
        if (name === 'main') assert.ok(direct.members.every((m) => 'template' in m && 'contentShingles' in m));
      }
      assert.ok(near > 0, 'near members');
    }
  });
}

test.run();
