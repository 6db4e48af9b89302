// Rows sketched in batches out of DocId order (content mode releases pages by site) put back in
// DocId order: the same set as one sketchMany call over the documents in order, every column.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, sketchMany, type SketchOptions } from '../../src/index.js';
import { serializeSketchSet } from '../../src/advanced.js';
import { resolveSketchOptions } from '../../src/sketch/options.js';
import type { SketchError } from '../../src/sketch/sketch-set.js';
import { learnTemplates } from '../../src/template/index.js';
import { scatterSketchSet } from '../../src/stream/reorder.js';
import { Rng, rng, randomWords } from '../helpers/random.js';
import { articles, site } from '../template/sites.js';

await init();
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

test('scatterSketchSet of batches in any order equals sketchMany over the documents in DocId order', () => {
  const r = rng(41), g = new Rng(42);
  const all = articles(43, 30);
  const pages = [...site(44, 's.example', all, Array.from({ length: 20 }, (_, i) => i)).pages, ...site(45, 't.example', all, Array.from({ length: 12 }, (_, i) => i + 15), 8).pages];
  // templated pages, short and empty ones, and documents that cannot be sketched (their rows empty, their errors by DocId)
  const docs: unknown[] = pages.map((p, i) => (i % 5 === 0 ? randomWords(r, 3 + Math.floor(r() * 40)).join(' ') : p));
  docs.splice(7, 0, '', 42, null);
  const hosts = docs.map((_, i) => (i < 23 ? 's.example' : 't.example'));
  const ok = docs.map((d) => (typeof d === 'string' ? d : ''));
  const { tables } = learnTemplates(ok, hosts);
  for (const options of [{ k: 0 }, { k: 8, superShingle: 2 }, { content: 'main', k: 4, templates: tables }] as (SketchOptions & { templates?: typeof tables })[]) {
    const want = sketchMany(docs as string[], options);
    assert.ok(want.errors.length === 2 && want.values.length > 0);
    for (let round = 0; round < 4; round++) {
      // DocIds shuffled (rounds 0, 1), in order but a few swapped (2), or in order (3: runs of
      // consecutive DocIds), cut into batches of random sizes sketched on their own, in random order
      const ids = Uint32Array.from(docs.keys());
      if (round < 2) g.shuffle(ids);
      else if (round === 2) for (let i = 0; i < 4; i++) { const a = g.nextU32() % ids.length, b = g.nextU32() % ids.length; [ids[a], ids[b]] = [ids[b], ids[a]]; }
      const parts: { ids: Uint32Array; columns: ReturnType<typeof sketchMany> }[] = [];
      const errors: SketchError[] = [];
      for (let at = 0; at < ids.length;) {
        const part = ids.slice(at, at += 1 + Math.floor(r() * 9));
        const o = options.templates
          ? { ...options, templates: { ...options.templates, docTable: Uint32Array.from(part, (d) => options.templates!.docTable[d]) } }
          : options;
        const set = sketchMany(Array.from(part, (d) => docs[d]) as string[], o);
        for (const e of set.errors) errors.push({ index: part[e.index], message: e.message });
        parts.push({ ids: part, columns: set });
      }
      g.shuffle(parts);
      const got = scatterSketchSet(resolveSketchOptions((({ templates: _t, ...rest }) => rest)(options)), docs.length, parts, errors);
      assert.is(hex(serializeSketchSet(got)), hex(serializeSketchSet(want)), JSON.stringify({ k: options.k, content: options.content, round }));
      assert.equal(got.errors.map((e) => e.index), want.errors.map((e) => e.index));
      if (options.content === 'main') assert.equal(Array.from(got.templateTokens!), Array.from(want.templateTokens!));
    }
  }
  assert.equal(scatterSketchSet(resolveSketchOptions({}), 0, [], []).size, 0);
});

test.run();
