// Content sketches on the worker pool: each batch gets its slice of the template tables, and the
// result is bit-identical to sketchMany whatever the split. Block fingerprints (what template
// learning counts) on the pool equal blockFingerprints on the calling thread.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, serializeSketchSet, sketchMany } from '../../src/index.js';
import { learnTemplates } from '../../src/template/index.js';
import { blockFingerprints } from '../../src/sketch/content.js';
import { rng, randomWords } from '../helpers/random.js';
import { createPool } from '../../src/workers/node.js';
import { articles, site } from './sites.js';

await init();

test('pool sketchMany with content main and templates equals sketchMany', async () => {
  const all = articles(31, 60);
  const sites = [site(32, 'p.example', all, Array.from({ length: 25 }, (_, i) => i)), site(33, 'q.example', all, Array.from({ length: 25 }, (_, i) => i + 20), 12)];
  const docs = sites.flatMap((s) => s.pages);
  const hosts = sites.flatMap((s) => s.pages.map(() => s.host));
  const { tables } = learnTemplates(docs, hosts);
  const want = serializeSketchSet(sketchMany(docs, { content: 'main', templates: tables, k: 16 }));
  const pool = createPool({ workers: 2, batchDocs: 7 });
  try {
    const got = serializeSketchSet(await pool.sketchMany(docs, { content: 'main', templates: tables, k: 16 }));
    assert.equal(Buffer.from(got).toString('hex'), Buffer.from(want).toString('hex'));
    let error = '';
    try { await pool.sketchMany(docs, { templates: tables }); } catch (e) { error = String(e); }
    assert.match(error, /templates apply to content 'main'/);
  } finally {
    await pool.close();
  }
});

test('pool blockFingerprints equals blockFingerprints on random pages, whatever the split, ahead of sketches waiting', async () => {
  const r = rng(34);
  const all = articles(35, 40);
  const tags = ['p', 'div', 'li', 'h2', 'td', 'section', 'span', 'a', 'br', 'pre'];
  // templated pages, and random markup: blocks of random words, links and tags, some pages empty or without tags
  const docs: (string | Uint8Array)[] = [...site(36, 'r.example', all, Array.from({ length: 12 }, (_, i) => i)).pages];
  for (let i = 0; i < 40; i++) {
    const parts: string[] = [];
    const n = Math.floor(r() * 60);
    for (let b = 0; b < n; b++) {
      const t = tags[Math.floor(r() * tags.length)];
      const words = randomWords(r, Math.floor(r() * 12), 300).join(' ');
      parts.push(r() < 0.3 ? `<${t}><a href="/x${b}">${words}</a></${t}>` : `<${t}>${words}${r() < 0.5 ? `</${t}>` : ''}`);
    }
    const page = i % 7 === 0 ? randomWords(r, 50, 300).join(' ') : `<html><head><title>t${i}</title></head><body>${parts.join(r() < 0.5 ? '\n' : '')}</body></html>`;
    docs.push(i % 3 === 0 ? new TextEncoder().encode(page) : page);
  }
  docs.push('', new Uint8Array(0));
  const want = blockFingerprints(docs);
  assert.ok(want.values.length > 1000, `${want.values.length} blocks`);
  const hex = (b: typeof want) => [Array.from(b.values, (v) => v.toString(16)), Array.from(b.offsets), Array.from(b.tokens), Array.from(b.links)];
  for (const options of [{ workers: 1 }, { workers: 2, batchDocs: 5 }, { workers: 3, batchBytes: 2048 }]) {
    const pool = createPool(options);
    try {
      // sketch batches queued first: the block fingerprints are answered all the same
      const sketching = pool.sketchMany(docs, { k: 16 });
      assert.equal(hex(await pool.blockFingerprints(docs)), hex(want), JSON.stringify(options));
      assert.equal(hex(await pool.blockFingerprints(docs.slice(3, 9))), hex(blockFingerprints(docs.slice(3, 9))));
      assert.equal(hex(await pool.blockFingerprints([])), hex(blockFingerprints([])));
      await sketching;
      let error = '';
      try { await pool.blockFingerprints([docs[0], 7 as never]); } catch (e) { error = String(e); }
      assert.match(error, /blockFingerprints: document 1/);
    } finally {
      await pool.close();
    }
  }
});

test.run();
