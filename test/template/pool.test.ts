// Content sketches on the worker pool: each batch gets its slice of the template tables, and the
// result is bit-identical to sketchMany whatever the split. A template learnt on the pool (a
// site's sample) equals the one learnt on the calling thread.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, sketchMany } from '../../src/index.js';
import { serializeSketchSet } from '../../src/advanced.js';
import { learnTemplates } from '../../src/template/index.js';
import { learnFromPages } from '../../src/template/learn.js';
import { rng, randomWords } from '../helpers/random.js';
import { createPool } from '../../src/stream/pool-node.js';
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

test('pool learnTemplate equals learnFromPages on the calling thread, on templated and random pages, ahead of sketches waiting', async () => {
  const r = rng(34);
  const all = articles(35, 40);
  const tags = ['p', 'div', 'li', 'h2', 'td', 'section', 'span', 'a', 'br', 'pre'];
  // random markup: blocks of random words from a small vocabulary (so some recur), links and tags, some pages without tags
  const random: (string | Uint8Array)[] = [];
  for (let i = 0; i < 40; i++) {
    const parts: string[] = [];
    const n = Math.floor(r() * 60);
    for (let b = 0; b < n; b++) {
      const t = tags[Math.floor(r() * tags.length)];
      const words = randomWords(r, Math.floor(r() * 4), 12).join(' ');
      parts.push(r() < 0.3 ? `<${t}><a href="/x${b}">${words}</a></${t}>` : `<${t}>${words}${r() < 0.5 ? `</${t}>` : ''}`);
    }
    const page = i % 7 === 0 ? randomWords(r, 50, 300).join(' ') : `<html><head><title>t${i}</title></head><body>${parts.join(r() < 0.5 ? '\n' : '')}</body></html>`;
    random.push(i % 3 === 0 ? new TextEncoder().encode(page) : page);
  }
  const samples: { docs: (string | Uint8Array)[]; key: string; share: number; heavy: number }[] = [
    { docs: site(36, 'r.example', all, Array.from({ length: 12 }, (_, i) => i)).pages.slice(0, 8), key: 'r.example', share: 0.5, heavy: 0.18 },
    { docs: site(37, 's.example', all, Array.from({ length: 20 }, (_, i) => i + 10), 6).pages, key: 's.example/x', share: 0.3, heavy: 0.6 },
    { docs: random.slice(0, 16), key: 'random', share: 0.2, heavy: 0 },
    { docs: random.slice(16), key: 'random/2', share: 0.5, heavy: 1 },
    { docs: ['', new Uint8Array(0), '<p>a b c</p>'], key: 'e', share: 0.5, heavy: 0.18 },
  ];
  const wanted = samples.map((x) => learnFromPages(x.docs, x.key, x.share, x.heavy));
  assert.ok(wanted[0].site.heavy && wanted[0].table.length > 0 && wanted[2].table.length > 0 && !wanted[1].site.heavy, 'heavy, light and random templates');
  const same = (got: typeof wanted[0], want: typeof wanted[0], what: string) => {
    assert.equal(Array.from(got.table, String), Array.from(want.table, String), what);
    assert.equal(got.site, want.site, what);
  };
  for (const options of [{ workers: 1 }, { workers: 2, batchDocs: 5 }, { workers: 3, batchBytes: 2048 }]) {
    const pool = createPool(options);
    try {
      // sketch batches queued first: the templates are learnt all the same, each from all its pages
      const sketching = pool.sketchMany([...random, ...samples[1].docs], { k: 16 });
      const got = await Promise.all(samples.map((x) => pool.learnTemplate(x.docs, x)));
      got.forEach((g, k) => same(g, wanted[k], `${JSON.stringify(options)}: ${samples[k].key}`));
      same(await pool.learnTemplate([], samples[0]), learnFromPages([], 'r.example', 0.5, 0.18), 'no pages');
      await sketching;
      let error = '';
      try { await pool.learnTemplate([random[0], 7 as never], samples[0]); } catch (e) { error = String(e); }
      assert.match(error, /learnTemplate: document 1/);
    } finally {
      await pool.close();
    }
  }
});

test.run();
