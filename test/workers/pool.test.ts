// The worker pool against the single-threaded functions: the same bytes out (serialized
// SketchSets compared byte for byte) for 1, 2 and 3 workers and several batch splits, on random
// documents that include rejected entries, invalid UTF-8, views into larger buffers and big pages;
// then failures inside workers, progress, and close.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, ResembleError, sketchMany, type SketchOptions } from '../../src/index.js';
import { fingerprintMany, serializeSketchSet } from '../../src/advanced.js';
import { createPool, type Pool } from '../../src/stream/pool-node.js';
import { poolOf, type DocumentBatch } from '../../src/stream/pool.js';
import { jobKinds } from '../../src/jobs.js';
import { poolWith, type Spawn } from '../../src/workers/pool.js';
import type { ToWorker } from '../../src/workers/protocol.js';
import { serve } from '../../src/workers/serve.js';
import { rng } from '../helpers/random.js';
import { rejects } from '../helpers/rejects.js';

await init();

const VOCAB = ['the', 'mirror', 'page', 'Résumé', 'ЖУРНАЛ', 'ΑΘΗΝΑ', '中文', '検索', 'shingle', 'sketch', 'web', 'copy',
  'near', 'duplicate', 'host', 'link', '&amp;', '&#233;', 'crawl', 'index', 'data', 'x', 'y', 'z'];
const encoder = new TextEncoder();

/** Random documents of every kind the pool must carry; the same list for a given seed. */
function randomDocs(seed: number, n: number): unknown[] {
  const r = rng(seed);
  const big = new Uint8Array(1 << 16);
  for (let i = 0; i < big.length; i++) big[i] = 32 + Math.floor(r() * 90);
  const docs: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const pick = r();
    const words = Array.from({ length: Math.floor(r() ** 3 * 2000) }, () => VOCAB[Math.floor(r() * VOCAB.length)]);
    const html = `<html><head><style>p{}</style><title>${words.slice(0, 3).join(' ')}</title></head><body><p>${words.join(' ')}</p><!-- c --></body></html>`;
    if (pick < 0.35) docs.push(html);
    else if (pick < 0.65) docs.push(encoder.encode(html));
    else if (pick < 0.72) { const a = Math.floor(r() * 1000); docs.push(big.subarray(a, a + Math.floor(r() * 5000))); }
    else if (pick < 0.78) docs.push(Uint8Array.from({ length: Math.floor(r() * 300) }, () => Math.floor(r() * 256)));
    else if (pick < 0.82) docs.push(r() < 0.5 ? '' : '   \n\t ');
    else if (pick < 0.85) docs.push([null, 42, undefined, { html }][Math.floor(r() * 4)]);
    else if (pick < 0.88) docs.push('\ud800 lone surrogate ' + words.slice(0, 20).join(' '));
    else docs.push(words.join(' '));
  }
  docs.push(encoder.encode('<p>' + 'big page words '.repeat(20000) + '</p>')); // ~300 KB: a batch of its own
  return docs;
}

const DOCS = randomDocs(7, 160);
const OPTIONS: SketchOptions[] = [
  {},
  { kind: 'mod', m: 4 },
  { kind: 'adaptive', k: 16, superShingle: 2 },
  { unit: 'char', w: 5, markup: 'text', s: 32, seed: 123n },
];

const pools: Record<string, Pool> = {
  '1 worker': createPool({ workers: 1 }),
  '2 workers, 3 documents a batch': createPool({ workers: 2, batchDocs: 3 }),
  '3 workers, 4 KiB batches': createPool({ workers: 3, batchBytes: 4096 }),
};

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

for (const [name, pool] of Object.entries(pools)) {
  test(`sketchMany with ${name} is bit-identical to sketchMany`, async () => {
    for (const options of OPTIONS) {
      const want = sketchMany(DOCS as never, options);
      const got = await pool.sketchMany(DOCS as never, options);
      assert.ok(want.values.length > 0);
      assert.ok(equalBytes(serializeSketchSet(got), serializeSketchSet(want)), `options ${JSON.stringify(options, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`);
      assert.equal(got.errors, want.errors);
      assert.ok(want.errors.length > 0, 'the random documents include rejected entries');
    }
  });

  test(`fingerprintMany with ${name} equals fingerprintMany`, async () => {
    const docs = DOCS.filter((d) => typeof d === 'string' || d instanceof Uint8Array) as (string | Uint8Array)[];
    assert.equal([...await pool.fingerprintMany(docs)], [...fingerprintMany(docs)]);
  });
}

test('input documents are left intact (bytes are copied before the transfer)', async () => {
  const bytes = encoder.encode('<p>kept after the call</p>');
  const view = bytes.subarray(3, 10);
  await pools['2 workers, 3 documents a batch'].sketchMany([bytes, view, 'text']);
  assert.is(bytes.length, 26);
  assert.is(view.length, 7);
  assert.is(new TextDecoder().decode(view), 'kept af');
});

test('progress: one call per batch, monotonic, ending at the document count', async () => {
  const seen: [number, number][] = [];
  const docs = DOCS.slice(0, 40) as never[];
  await pools['2 workers, 3 documents a batch'].sketchMany(docs, { onProgress: (done, total) => seen.push([done, total]) });
  assert.is(seen.length, Math.ceil(40 / 3));
  for (let i = 0; i < seen.length; i++) {
    assert.is(seen[i][1], 40);
    if (i > 0) assert.ok(seen[i][0] > seen[i - 1][0]);
  }
  assert.equal(seen[seen.length - 1], [40, 40]);
});

test("sketchMany's batchBytes: one call cut by its own size, the same bits; bad sizes refused", async () => {
  const pool = pools['3 workers, 4 KiB batches'];
  const docs = DOCS.filter((d) => typeof d === 'string' || d instanceof Uint8Array).slice(0, 60) as never[];
  const want = serializeSketchSet(sketchMany(docs));
  let batches = 0;
  // a size above the whole call: one batch (the pool's own 4 KiB would make many)
  const whole = await pool.sketchMany(docs, { batchBytes: 256 << 20, onProgress: () => batches++ });
  assert.is(batches, 1);
  assert.ok(equalBytes(serializeSketchSet(whole), want));
  let small = 0;
  const cut = await pool.sketchMany(docs, { batchBytes: 1024, onProgress: () => small++ });
  assert.ok(small > 10, `1 KiB batches: ${small}`);
  assert.ok(equalBytes(serializeSketchSet(cut), want));
  for (const bad of [0, 100, 1.5, -1, 'big', 1 << 30]) {
    await rejects(pool.sketchMany(docs, { batchBytes: bad as never }), 'E_OPTION', /batchBytes/);
  }
});

test('concurrent calls on one pool each get their own result', async () => {
  const a = DOCS.slice(0, 60) as never[], b = DOCS.slice(60) as never[];
  const pool = pools['3 workers, 4 KiB batches'];
  const [ra, rb, rc] = await Promise.all([pool.sketchMany(a), pool.sketchMany(b, { kind: 'mod' }), pool.fingerprintMany(['x', 'y'])]);
  assert.ok(equalBytes(serializeSketchSet(ra), serializeSketchSet(sketchMany(a))));
  assert.ok(equalBytes(serializeSketchSet(rb), serializeSketchSet(sketchMany(b, { kind: 'mod' }))));
  assert.equal([...rc], [...fingerprintMany(['x', 'y'])]);
});

test('empty input, bad options and bad documents are rejected or answered like the single-threaded calls', async () => {
  const pool = pools['1 worker'];
  assert.is((await pool.sketchMany([])).size, 0);
  assert.is((await pool.fingerprintMany([])).length, 0);
  await rejects(pool.sketchMany(['a'], { w: 0 }), 'E_OPTION', /w/);
  await rejects(pool.sketchMany(['a'], { bogus: 1 } as never), 'E_OPTION', /bogus/);
  await rejects(pool.fingerprintMany(['a', 7 as never]), 'E_INPUT', /document 1/);
  assert.throws(() => createPool({ workers: 0 }), (e: ResembleError) => e.code === 'E_OPTION');
  assert.throws(() => createPool({ batchDocs: 1.5 }), (e: ResembleError) => e.code === 'E_OPTION');
  assert.throws(() => createPool({ threads: 2 } as never), (e: ResembleError) => e.code === 'E_OPTION');
});


const failing = createPool({ workers: 2, batchDocs: 4, workerUrl: new URL('./failing-worker.ts', import.meta.url) });
const plain = Array.from({ length: 20 }, (_, i) => `<p>document number ${i} of twenty</p>`);

test('an error reported by a worker rejects the call with the batch\'s document indices', async () => {
  const docs = plain.slice();
  docs[9] = 'REFUSE';
  const e = await rejects(failing.sketchMany(docs), 'E_INPUT', /documents 8\.\.11: planted refusal/);
  assert.equal(e.detail, { first: 8, last: 11 });
});

test('a crashed worker rejects the call with the batch\'s indices, and the pool goes on with a new worker', async () => {
  const docs = plain.slice();
  docs[5] = 'CRASH';
  const e = await rejects(failing.fingerprintMany(docs), 'E_WASM', /documents 4\.\.7: the worker stopped: planted crash/);
  assert.equal(e.detail, { first: 4, last: 7 });
  assert.equal([...await failing.fingerprintMany(plain)], [...fingerprintMany(plain)]);
  assert.ok(equalBytes(serializeSketchSet(await failing.sketchMany(plain)), serializeSketchSet(sketchMany(plain))));
});

// An in-process worker whose failure overtakes the replies to batches it finished before it (as a
// real worker's error event may): replies are delivered a tick later, a crash at once.
/** Workers started by `overtaking` so far: a batch holding "FIRST-ONLY" stops the first of them only (a passing failure). */
let started = 0;
const kinds = jobKinds();
const overtaking: Spawn = (events) => {
  let dead = false;
  const first = started++ === 0;
  const words = new TextDecoder();
  return {
    post(msg: ToWorker) {
      if (dead) return;
      if (msg.type === 'job' && msg.kind !== 'estimate') {
        const batch = msg.job as DocumentBatch;
        let from = 0;
        for (const end of batch.ends) {
          const word = words.decode(batch.bytes.subarray(from, end));
          if (word === 'CRASH' || (word === 'FIRST-ONLY' && first)) { dead = true; events.failure(new Error('planted crash')); return; }
          from = end;
        }
      }
      const out = serve(msg, kinds);
      if (out) setTimeout(() => { if (!dead) events.message(out.reply); }, 5);
    },
    busy() {},
    terminate: async () => { dead = true; },
  };
};

test('a worker that stops once while holding several batches: they are run again alone and the call is answered as on one thread', async () => {
  started = 0;
  const pool = poolOf(poolWith(overtaking, 1, { workers: 1, batchDocs: 4 }));
  const docs = plain.slice();
  docs[6] = 'FIRST-ONLY';
  assert.equal([...await pool.fingerprintMany(docs)], [...fingerprintMany(docs)]);
  assert.is(started, 2, 'one worker replaced');
  await pool.close();
});

test('a worker that stops while holding several batches: the one that stops it is found by running them again alone', async () => {
  const pool = poolOf(poolWith(overtaking, 1, { workers: 1, batchDocs: 4 }));
  const docs = plain.slice();
  docs[5] = 'CRASH';
  // one worker holds documents 0..3 and 4..7 when 4..7 stops it, before 0..3's reply arrives
  const e = await rejects(pool.fingerprintMany(docs), 'E_WASM', /documents 4\.\.7: the worker stopped: planted crash/);
  assert.equal(e.detail, { first: 4, last: 7 });
  // batches caught beside a crash but sound are run again and answered
  const d2 = plain.slice();
  assert.equal([...await pool.fingerprintMany(d2)], [...fingerprintMany(d2)]);
  await pool.close();
});

test('close rejects the calls still running and every later call', async () => {
  const pool = createPool({ workers: 1 });
  const running = rejects(pool.sketchMany(plain), 'E_NOT_INITIALIZED', /closed while this call ran/);
  await pool.close();
  await running;
  await rejects(pool.sketchMany(plain), 'E_NOT_INITIALIZED', /pool is closed/);
  await rejects(pool.fingerprintMany(plain), 'E_NOT_INITIALIZED', /pool is closed/);
});

test.after(async () => {
  await Promise.all([...Object.values(pools), failing].map((p) => p.close()));
});

test.run();
