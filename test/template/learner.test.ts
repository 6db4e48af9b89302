// Templates learnt as pages arrive: the same sketches as the two-pass crawl sketch learning from
// the same first pages, whatever the interleaving of hosts; held pages bounded.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init } from '../../src/index.js';
import { sketchCrawl, sketchReady, TemplateLearner, type ReadyPage } from '../../src/template/index.js';
import { rng } from '../helpers/random.js';
import { articles, site } from './sites.js';

await init();
const hex = (a: ArrayLike<bigint>) => Array.from(a, (v) => v.toString(16));

const all = articles(21, 100);
const sites = [
  site(22, 'a.example', all, Array.from({ length: 30 }, (_, i) => i)),
  site(23, 'b.example', all, Array.from({ length: 25 }, (_, i) => i + 30), 10),
  site(24, 'c.example', all, [90, 91, 92], 5, 1), // too few pages to be trusted
];
// pages arrive interleaved across hosts, each host's pages in their order
const r = rng(25);
const queue = sites.map((s) => s.pages.map((p) => ({ p, host: s.host })));
const arrivals: Array<{ p: string; host: string }> = [];
while (queue.some((q) => q.length)) {
  const live = queue.filter((q) => q.length);
  arrivals.push(live[Math.floor(r() * live.length)].shift()!);
}

test('streaming templates give the sketches of the two-pass crawl sketch learning from the same first pages', () => {
  const learner = new TemplateLearner<number>({ trustAfter: 8 });
  const ready: ReadyPage<number>[] = [];
  let maxHeld = 0;
  arrivals.forEach((a, i) => {
    ready.push(...learner.add(a.p, a.host, i));
    maxHeld = Math.max(maxHeld, learner.held.pages);
  });
  assert.ok(learner.table('a.example') && learner.table('b.example'));
  assert.is(learner.table('c.example'), undefined, 'still learning');
  ready.push(...learner.flush());
  assert.is(learner.held.pages, 0);
  assert.is(ready.length, arrivals.length);
  assert.ok(maxHeld <= 8 + 8 + 4, `held at most trustAfter pages per learning host: ${maxHeld}`);
  const streamed = sketchReady(ready);
  const batch = sketchCrawl(arrivals.map((a) => a.p), arrivals.map((a) => a.host), { content: 'main' }, { sample: 8, trustAfter: 8 }).set;
  ready.forEach((p, k) => {
    assert.equal(hex(streamed.get(k).values), hex(batch.get(p.item).values), `page ${p.item} of ${p.host}`);
    assert.is(streamed.templateTokens![k], batch.templateTokens![p.item]);
  });
});

test('sites too small to learn from take their host\'s template, learnt from the host\'s first pages as the two-pass sketch learns it', () => {
  // one host, its articles in sections of 4 pages (/s0/ … /s5/): no section reaches trustAfter
  const d = site(26, 'd.example', all, Array.from({ length: 24 }, (_, i) => i + 60), 40, 0);
  const section = (i: number) => `s${Math.floor(i / 4)}`;
  const learner = new TemplateLearner<number>({ trustAfter: 8 });
  const ready: ReadyPage<number>[] = [];
  d.pages.forEach((p, i) => ready.push(...learner.add(p, `d.example/${section(i)}`, i, 'd.example')));
  assert.is(ready.length, 0, 'every section still learning');
  assert.ok(learner.provisional('d.example/s5')?.table, 'the host has a template to answer with meanwhile');
  ready.push(...learner.flush());
  assert.is(ready.length, d.pages.length);
  const table = learner.table('d.example/s0');
  assert.ok(table && table.length > 0, 'a heavy host template');
  for (let k = 0; k < 6; k++) assert.is(learner.table(`d.example/s${k}`), table, `section ${k} takes the host's table`);
  assert.equal(hex(learner.provisional('d.example/s5')!.table!), hex(table!));
  const streamed = sketchReady(ready);
  const batch = sketchCrawl(d.pages, d.pages.map(() => 'd.example'), { content: 'main' }, { sample: 16, trustAfter: 8 }, d.pages.map((_, i) => section(i))).set;
  ready.forEach((p, k) => assert.equal(hex(streamed.get(k).values), hex(batch.get(p.item).values), `page ${p.item}`));
  // without the host, each section alone learns nothing: its pages keep their template
  const alone = new TemplateLearner<number>({ trustAfter: 8 });
  d.pages.forEach((p, i) => alone.add(p, `d.example/${section(i)}`, i));
  alone.flush();
  assert.is(alone.table('d.example/s0')!.length, 0);
});

test('held pages are bounded: past the bound the longest-held host is settled early', () => {
  const bytes = arrivals.slice(0, 6).reduce((n, a) => n + a.p.length * 3, 0);
  const learner = new TemplateLearner<number>({ trustAfter: 8, maxHeldBytes: bytes });
  let released = 0;
  arrivals.forEach((a, i) => {
    released += learner.add(a.p, a.host, i).length;
    assert.ok(learner.held.bytes <= bytes, `held ${learner.held.bytes} > ${bytes}`);
  });
  released += learner.flush().length;
  assert.is(released, arrivals.length);
  assert.throws(() => new TemplateLearner({ sample: 5 } as never), /sample/);
});

test.run();
