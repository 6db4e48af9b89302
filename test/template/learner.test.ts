// Templates learnt as pages arrive: the same sketches as the two-pass crawl sketch learning from
// the same first pages, whatever the interleaving of hosts; held pages bounded.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init } from '../../src/index.js';
import { sketchWithTemplates, sketchReady, TemplateLearner, type ReadyPage } from '../../src/template/index.js';
import type { ReleasedPage } from '../../src/template/learner.js';
import { learnFromPages } from '../../src/template/learn.js';
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
  const batch = sketchWithTemplates(arrivals.map((a) => a.p), arrivals.map((a) => a.host), { content: 'main' }, { sample: 8, trustAfter: 8 }).set;
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
  const batch = sketchWithTemplates(d.pages, d.pages.map(() => 'd.example'), { content: 'main' }, { sample: 16, trustAfter: 8 }, d.pages.map((_, i) => section(i))).set;
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

test('templates learnt elsewhere, answering late and in any order: the same releases, tables and site statistics', async () => {
  // random crawls: hosts with sections of a few pages (the host's template as fallback), copies of
  // pages, and bounds small enough that sites are settled early and samples frozen by their bytes
  let calls = 0, later = 0, waiting = 0;
  for (let seed = 1; seed <= 40; seed++) {
    const r = rng(seed * 7919);
    const more = articles(seed, 150);
    const hosts = Array.from({ length: 2 + Math.floor(r() * 5) }, (_, h) => site(seed * 100 + h, `h${h}.example`, more, Array.from({ length: 3 + Math.floor(r() * 40) }, () => Math.floor(r() * 150)), 5 + Math.floor(r() * 50), Math.floor(r() * 4)));
    const sectionPages = hosts.map(() => 2 + Math.floor(r() * 12));
    const pages = hosts.flatMap((h, k) => h.pages.map((p, i) => ({ p: r() < 0.1 ? h.pages[0] : p, host: h.host, site: `${h.host}/s${Math.floor(i / sectionPages[k])}` })));
    const order: typeof pages = [];
    const live = hosts.map((h) => pages.filter((p) => p.host === h.host));
    while (live.some((q) => q.length)) { const q = live.filter((x) => x.length); order.push(q[Math.floor(r() * q.length)].shift()!); }
    const average = order.reduce((n, a) => n + a.p.length, 0) / order.length;
    const trustAfter = 3 + Math.floor(r() * 8);
    const options = {
      trustAfter, sample: trustAfter + Math.floor(r() * 10), heavy: r() < 0.3 ? 0 : 0.18,
      maxHeldBytes: Math.floor(average * 3 * (2 + r() * 30)), maxSampleBytes: Math.floor(average * (r() < 0.5 ? 1 : 3) * (2 + r() * 40)),
    };
    const sync = new TemplateLearner<number>(options);
    const held: number[] = [];
    const want: ReadyPage<number>[][] = order.map((a, i) => { const out = sync.add(a.p, a.site, i, a.host); held.push(sync.held.bytes); return out; });
    want.push(sync.flush());
    // templates from a source that answers after a random delay, or not at all (undefined: learnt by the learner)
    const r3 = rng(seed);
    const deferred = new TemplateLearner<number>(options, (docs, how) => {
      calls++;
      if (r3() < 0.2) return undefined;
      later++;
      const learnt = learnFromPages(docs, how.key, how.share, how.heavy);
      return new Promise((resolve) => setTimeout(() => resolve(learnt), Math.floor(r3() * 3)));
    });
    const got: ReleasedPage<number>[][] = [];
    for (let i = 0; i < order.length; i++) {
      const settled = deferred.settled(order[i].site, order[i].host);
      assert.is(settled === undefined, deferred.retains(order[i].site, order[i].host), 'settled: the learner keeps nothing of the page');
      got.push(deferred.addDeferred(order[i].p, order[i].site, i, order[i].host));
      if (settled) assert.ok(got[i].length === 1 && got[i][0].item === i && got[i][0].template === settled, 'settled: the page comes straight back with that template');
      waiting += got[i].filter((p) => !p.template.done).length;
      if (r3() < 0.2) await new Promise((resolve) => setTimeout(resolve, 1));
      assert.is(deferred.held.bytes, held[i], `held bytes after page ${i}`);
    }
    got.push(deferred.flushDeferred());
    await Promise.all(got.flat().map((p) => p.template.ready));
    // the same pages released at each step, with the same tables shared the same way
    const ids = [new Map<unknown, number>(), new Map<unknown, number>()];
    const id = (m: Map<unknown, number>, k: unknown) => { if (!m.has(k)) m.set(k, m.size); return m.get(k)!; };
    const what = `seed ${seed}, ${JSON.stringify(options)}`;
    assert.equal(got.map((step) => step.map((p) => [p.item, p.host, id(ids[0], p.template.table)])), want.map((step) => step.map((p) => [p.item, p.host, id(ids[1], p.table)])), what);
    got.flat().forEach((p, k) => {
      const w = want.flat()[k];
      assert.equal(p.template.table && hex(p.template.table), w.table && hex(w.table), `${what}: page ${p.item}'s table`);
      assert.equal(hex(p.template.learnt), hex(w.learnt), `${what}: page ${p.item}'s table learnt`);
      assert.equal(deferred.site(p.host), sync.site(p.host), `${what}: site ${p.host}`);
    });
  }
  assert.ok(later > 100 && calls > later, `${calls} calls, ${later} answered later`);
  assert.ok(waiting > 100, 'pages released while their template was still being learnt');
});

test.run();
