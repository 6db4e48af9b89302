// Content sketches on the worker pool: each batch gets its slice of the template tables, and the
// result is bit-identical to sketchMany whatever the split.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, serializeSketchSet, sketchMany } from '../../src/index.js';
import { learnTemplates } from '../../src/template/index.js';
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

test.run();
