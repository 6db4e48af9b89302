// A caller that keeps calls queued on the pool (the stream, the exact checks) never lets its queue
// empty: a task must leave the queue once handed to a worker, or every finished call's documents
// stay reachable through it (a leak the size of the crawl).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init } from '../../src/index.js';
import { createPool } from '../../src/stream/pool-node.js';

await init();

test('dispatched tasks leave the queue while later calls keep it from emptying', async () => {
  const pool = createPool({ workers: 1, batchDocs: 2 });
  // the one pool's own queue: each task holds its call, which is done once nothing of it remains
  const queue = () => (pool.workers as unknown as { queue: ({ call: { remaining: number } } | undefined)[] }).queue;
  const inflight: Promise<void>[] = [];
  let stale = 0, sawQueued = 0;
  try {
    for (let c = 0; c < 40; c++) {
      const docs = Array.from({ length: 8 }, (_, i) => `call ${c} page ${i} ` + 'some words of a page '.repeat(50));
      inflight.push(pool.sketchMany(docs).then(() => undefined));
      if (inflight.length > 4) await inflight.shift();
      const q = queue().filter((t) => t !== undefined);
      if (q.length > 0) sawQueued++;
      stale += q.filter((t) => t!.call.remaining === 0).length;
    }
    await Promise.all(inflight);
  } finally {
    await pool.close();
  }
  assert.ok(sawQueued > 10, `tasks were queued behind the worker ${sawQueued} times`);
  assert.is(stale, 0, 'tasks of finished calls still in the queue');
});

test.run();
