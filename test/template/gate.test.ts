// The heavy-template gate: a site's template is removed only when it holds at least `heavy` of its
// sampled pages' words. A light site's pages get the whole-page sketch bit for bit, a heavy site's
// the content sketch of the slow reference; the statistics behind the gate equal the reference's
// count; the option and the CLI flag are checked; the streaming learner gates the same way.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.js';
import { init, sketchMany, ResembleError, type SketchSet } from '../../src/index.js';
import {
  DEFAULT_HEAVY, learnTemplates, resolveTemplateOptions, sketchWithTemplates, sketchReady, TemplateLearner, WHOLE_PAGE, type ReadyPage,
} from '../../src/template/index.js';
import { blockFingerprintRef, blocksRef, contentTokensRef } from '../../src/reference/template.js';
import { shingleValuesRef } from '../../src/reference/shingles.js';
import { minSRef } from '../../src/reference/sketch.js';
import { articles, site, type Article } from './sites.js';
import { join } from 'node:path';

await init();
const hex = (a: ArrayLike<bigint>) => Array.from(a, (v) => v.toString(16));
const code = (f: () => unknown) => { try { f(); } catch (e) { return e instanceof ResembleError ? `${e.code}: ${e.message}` : String(e); } return 'no error'; };

/** A site with a light template: a one-line header and footer around long articles, and two short index pages. */
function lightSite(host: string, all: Article[], show: number[]): { host: string; pages: string[] } {
  const frame = (title: string, main: string) => `<!DOCTYPE html><html><head><title>${title} | ${host}</title></head><body>`
    + `<header><a href="/">${host}</a><nav>home about</nav></header><main>${main}</main><footer><p>copyright ${host} all rights reserved</p></footer></body></html>`;
  const pages = show.map((id) => frame(all[id].title, `<h1>${all[id].title}</h1>${all[id].paragraphs.map((p) => `<p>${p}</p>`).join('\n')}`));
  pages.push(frame('index', `<ul><li><a href="/1">${all[show[0]].title}</a></li></ul>`), frame('about', '<p>about us</p>'));
  return { host, pages };
}

const all = articles(41, 80);
const heavySite = site(42, 'heavy.example', all, Array.from({ length: 14 }, (_, i) => i), 40);
const light = lightSite('light.example', all, Array.from({ length: 14 }, (_, i) => i + 20));
const docs = [...heavySite.pages, ...light.pages];
const hosts = docs.map((_, i) => (i < heavySite.pages.length ? heavySite.host : light.host));
const isLight = (i: number) => i >= heavySite.pages.length;

/** Row i of two sets, every column, as one comparable record. */
const row = (s: SketchSet, i: number) => ({
  values: hex(s.get(i).values), rawFp: s.rawFp[i], lexicalFp: s.lexicalFp[i], shingleFp: s.shingleFp[i], tokens: s.tokens[i],
  cardinality: s.cardinality[i], modulusLog2: s.modulusLog2[i], signature: hex(s.signatureOf(i)),
});

test('the gate statistics equal the reference count: share of the sampled words in template blocks', () => {
  const learnt = learnTemplates(docs, hosts, { sample: 64, heavy: 0 });
  assert.equal(learnt.hosts, [heavySite.host, light.host]);
  learnt.sites.forEach((s, t) => {
    const table = new Set(learnt.tables.values.subarray(learnt.tables.offsets[t], learnt.tables.offsets[t + 1]));
    assert.is(s.blocks, table.size);
    const pages = docs.filter((_, i) => hosts[i] === s.key);
    assert.is(s.sampled, pages.length);
    let all = 0, tpl = 0;
    pages.forEach((p, k) => {
      const blocks = blocksRef(p);
      const n = blocks.reduce((a, b) => a + b.tokens.length, 0);
      const m = blocks.filter((b) => table.has(blockFingerprintRef(b))).reduce((a, b) => a + b.tokens.length, 0);
      all += n; tpl += m;
      assert.ok(Math.abs(s.pageShares[k] - m / n) < 1e-12, `${s.key} page ${k}: ${s.pageShares[k]} ≠ ${m / n}`);
    });
    assert.ok(Math.abs(s.templateShare - tpl / all) < 1e-12, `${s.key}: ${s.templateShare} ≠ ${tpl / all}`);
    assert.ok(s.heavy, 'with heavy 0 every table found is used');
  });
  // the two sites are on either side of the default
  assert.ok(learnt.sites[0].templateShare > 0.3 && learnt.sites[1].templateShare < 0.1, JSON.stringify(learnt.sites.map((s) => s.templateShare)));
  assert.ok(learnt.sites[1].blocks >= 3, 'the light site has a template, it is only light');
});

test('a light-template site is sketched whole, bit-identical to page mode; a heavy one gets content sketches', () => {
  for (const o of [{ k: 8, s: 32, w: 4 }, { kind: 'mod' as const, m: 4, w: 4 }, { kind: 'adaptive' as const }]) {
    const { set, templates } = sketchWithTemplates(docs, hosts, { ...o, content: 'main' }, { sample: 64 });
    const page = sketchMany(docs, o);
    assert.is(templates!.stats.trusted, 2);
    assert.is(templates!.stats.heavy, 1);
    assert.equal(templates!.sites.map((s) => s.heavy), [true, false]);
    assert.is(templates!.tables.offsets[2] - templates!.tables.offsets[1], 0, 'the light table is empty');
    const table = new Set(templates!.tables.values.subarray(templates!.tables.offsets[0], templates!.tables.offsets[1]));
    assert.is(table.size, templates!.stats.templateBlocks);
    for (let i = 0; i < docs.length; i++) {
      if (isLight(i)) {
        assert.is(templates!.tables.docTable[i], WHOLE_PAGE);
        assert.equal(row(set, i), row(page, i), `light page ${i} ${JSON.stringify(o)}`);
        assert.is(set.templateTokens![i], 0);
        assert.is(set.templateShare(i), 0);
        assert.not.ok(set.tooLittleContent(i), 'a page sketched whole is never thin, however short');
      } else {
        assert.is(templates!.tables.docTable[i], 0);
        const tokens = contentTokensRef(docs[i], table, 500, 30);
        assert.is(set.tokens[i], tokens.length, `heavy page ${i}: content tokens`);
        if (tokens.length < 30) { assert.ok(set.tooLittleContent(i)); continue; }
        if (o.kind === undefined) assert.equal(hex(set.get(i).values), hex(minSRef(shingleValuesRef(tokens.join(' '), { w: 4, markup: 'text' }), 32)), `heavy page ${i}`);
        assert.ok(set.templateTokens![i] > 0);
        assert.not.equal(hex(set.get(i).values), hex(page.get(i).values), `heavy page ${i} is not sketched whole`);
      }
    }
  }
});

test('heavy 0 removes every template found; heavy 1 sketches every page whole', () => {
  const zero = sketchWithTemplates(docs, hosts, { content: 'main' }, { sample: 64, heavy: 0 });
  assert.is(zero.templates!.stats.heavy, 2);
  for (let i = 0; i < docs.length; i++) assert.is(zero.templates!.tables.docTable[i], isLight(i) ? 1 : 0);
  assert.ok(docs.some((_, i) => isLight(i) && zero.set.templateTokens![i] > 0), 'the light template is removed at heavy 0');
  const one = sketchWithTemplates(docs, hosts, { content: 'main', k: 4 }, { sample: 64, heavy: 1 });
  const page = sketchMany(docs, { k: 4 });
  assert.is(one.templates!.stats.heavy, 0);
  assert.is(one.templates!.stats.templateBlocks, 0);
  assert.ok(one.templates!.tables.docTable.every((t) => t === WHOLE_PAGE));
  assert.equal(hex(one.set.values), hex(page.values));
  assert.equal(Array.from(one.set.offsets), Array.from(page.offsets));
  for (let i = 0; i < docs.length; i++) assert.equal(row(one.set, i), row(page, i));
  // the default sits between the two sites
  const def = learnTemplates(docs, hosts, { sample: 64 });
  assert.is(resolveTemplateOptions().heavy, DEFAULT_HEAVY);
  assert.equal(def.sites.map((s) => s.heavy), [true, false]);
});

test('heavy is validated before any work', () => {
  for (const bad of [-0.01, 1.5, Number.NaN, Infinity, '0.3', null]) {
    assert.match(code(() => learnTemplates(docs, hosts, { heavy: bad as never })), /^E_OPTION: .*heavy/, String(bad));
    assert.match(code(() => new TemplateLearner({ heavy: bad as never })), /^E_OPTION: .*heavy/, String(bad));
  }
  assert.is(resolveTemplateOptions({ heavy: 0 }).heavy, 0);
  assert.is(resolveTemplateOptions({ heavy: 1 }).heavy, 1);
});

test('the streaming learner gates the same way: a light host has no table, its pages the whole-page sketch', () => {
  const learner = new TemplateLearner<number>({ trustAfter: 8 });
  const ready: ReadyPage<number>[] = [];
  // interleaved arrivals, each host's pages in order
  const order = docs.map((_, i) => i).sort((a, b) => ((a * 7919) % 31) - ((b * 7919) % 31) || a - b);
  const arrivals = [...order.filter((i) => !isLight(i)), ...order.filter(isLight)].sort((a, b) => (a % 5) - (b % 5) || a - b);
  for (const i of arrivals) ready.push(...learner.add(docs[i], hosts[i], i));
  ready.push(...learner.flush());
  assert.is(ready.length, docs.length);
  assert.ok(learner.table(heavySite.host));
  assert.is(learner.table(light.host), undefined);
  assert.is(learner.site(light.host)!.heavy, false);
  assert.ok(learner.site(light.host)!.templateShare < DEFAULT_HEAVY);
  assert.ok(learner.site(heavySite.host)!.heavy);
  const streamed = sketchReady(ready);
  const page = sketchMany(docs);
  ready.forEach((p, k) => {
    if (isLight(p.item)) assert.equal(row(streamed, k), row(page, p.item), `light page ${p.item}`);
    else assert.not.equal(hex(streamed.get(k).values), hex(page.get(p.item).values));
  });
});

async function run(argv: string[]) {
  let out = '', err = '';
  const code = await main(argv, { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c) } });
  return { code, out, err, clusters: code === 0 && out.trim() ? out.trim().split('\n').map((l) => JSON.parse(l).members.map((m: { url: string }) => m.url).sort().join(' ')).sort() : [] };
}

test('dups --template-heavy: 1 clusters as --content page; bad values exit 2; the summary counts the templates removed', async () => {
  const sample = join(process.cwd(), 'sample');
  const whole = await run(['dups', sample, '--template-heavy', '1']);
  const page = await run(['dups', sample, '--content', 'page', '--quiet']);
  assert.is(whole.code, 0, whole.err);
  assert.ok(page.clusters.length > 10);
  assert.equal(whole.clusters, page.clusters);
  assert.match(whole.err, /content: 0 of \d+ sites repeat a layout on their pages \(0 blocks/);
  const zero = await run(['dups', sample, '--template-heavy', '0']);
  assert.is(zero.code, 0, zero.err);
  const learnt = (err: string) => Number(/content: (\d+) of \d+ sites? repeats? a layout/.exec(err)![1]);
  const byDefault = await run(['dups', sample]);
  // every template found is removed at 0; at the default only the heavy ones, fewer
  assert.ok(learnt(zero.err) > learnt(byDefault.err) && learnt(byDefault.err) > 0, `${zero.err}\n${byDefault.err}`);
  for (const argv of [['--template-heavy', '1.2'], ['--template-heavy', '-1'], ['--template-heavy', 'x'], ['--content', 'page', '--template-heavy', '0.3']]) {
    const r = await run(['dups', sample, ...argv]);
    assert.is(r.code, 2, `${argv.join(' ')} → ${r.code}: ${r.err}`);
    assert.match(r.err, /template-heavy/);
  }
});

test.run();
