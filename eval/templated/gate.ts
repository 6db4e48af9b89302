// Where content mode should remove a site's template: the measurement behind the gate. Each
// crawl is sketched twice (content sketches against every learnt table, and whole pages); a gate
// then picks, per page, one of the two rows (a page sketched whole gets exactly its whole-page
// row: the kernel's WHOLE_PAGE path is sk_sketch_batch's), and the mixed set is clustered as
// `dups` clusters and scored against the crawl's own truth. Gates compared:
//   site statistics, from the sample the template was learnt from (a site is heavy when ≥ x):
//     tokens     share of the sampled pages' tokens in template blocks
//     median     median over the sampled pages of each page's template share
//     dominated  share of the sampled pages that are at least half template
//     removed    share of the sampled tokens content mode would remove (template and link-heavy blocks)
//   page: a page's own template share (its blocks against its site's table) ≥ x
// Sites whose sample shows no template block are sketched whole under every gate; sites too small
// to learn a template (NO_TABLE) keep their content sketch (link rule and title) under every gate.
// Run: npx tsx eval/templated/gate.ts [--templated DIR]... [--realistic DIR]... [--steps 0,0.05,...]
//   --templated DIR: a crawl built by news-sites.ts / mixed-templates.ts (DIR/crawl, pages.jsonl, truth.jsonl)
//   --realistic DIR: a crawl built by eval/manuals/build.ts (DIR/crawl, DIR/truth)
import { join } from 'node:path';
import { nearDuplicates } from '../../src/cluster/near-duplicates.js';
import { utf8Bytes } from '../../src/graph/document.js';
import { hostOfUrl } from '../../src/graph/url.js';
import { loadCrawl } from '../../src/io/crawl.js';
import { init, sketchMany } from '../../src/index.js';
import { SketchSet } from '../../src/sketch/sketch-set.js';
import { blockFingerprints, learnTemplates, NO_TABLE, sectionOfUrl, WHOLE_PAGE, type LearnedTemplates } from '../../src/template/index.js';
import { loadTruth as loadRealistic, scoreDups } from '../manuals/evaluate.js';
import { loadTruth as loadTemplated, score } from './score.js';

const args = process.argv.slice(2);
const crawls: Array<{ kind: 'templated' | 'realistic'; dir: string }> = [];
args.forEach((a, i) => { if (a === '--templated' || a === '--realistic') crawls.push({ kind: a.slice(2) as 'templated' | 'realistic', dir: args[i + 1] }); });
const stepsArg = args.indexOf('--steps');
const steps = stepsArg >= 0 ? args[stepsArg + 1].split(',').map(Number) : [0, 0.1, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 1.01];
if (crawls.length === 0) { console.error('usage: gate.ts [--templated DIR]... [--realistic DIR]... [--steps 0,0.1,...]'); process.exit(2); }
await init();

/** Per page, row i of `main` or (where `whole(i)`) of `page`, in one content-mode set. */
function mixed(main: SketchSet, page: SketchSet, whole: (i: number) => boolean): SketchSet {
  const n = main.size;
  const offsets = new Uint32Array(n + 1);
  const pick = (i: number) => (whole(i) ? page : main);
  for (let i = 0; i < n; i++) { const s = pick(i); offsets[i + 1] = offsets[i] + s.offsets[i + 1] - s.offsets[i]; }
  const values = new BigUint64Array(offsets[n]);
  const col = <A extends Float64Array | Uint32Array | Uint8Array | BigUint64Array>(make: new (n: number) => A, get: (s: SketchSet) => A) => {
    const out = new make(n);
    for (let i = 0; i < n; i++) (out as unknown as Array<number | bigint>)[i] = get(pick(i))[i];
    return out;
  };
  for (let i = 0; i < n; i++) { const s = pick(i); values.set(s.values.subarray(s.offsets[i], s.offsets[i + 1]), offsets[i]); }
  const templateTokens = Uint32Array.from({ length: n }, (_, i) => (whole(i) ? 0 : main.templateTokens![i]));
  return new SketchSet(main.params, {
    values, offsets, cardinality: col(Float64Array, (s) => s.cardinality), tokens: col(Uint32Array, (s) => s.tokens),
    modulusLog2: col(Uint8Array, (s) => s.modulusLog2), rawFp: col(BigUint64Array, (s) => s.rawFp),
    lexicalFp: col(BigUint64Array, (s) => s.lexicalFp), shingleFp: col(BigUint64Array, (s) => s.shingleFp), templateTokens,
  }, main.errors);
}

const median = (a: number[]) => { const s = a.slice().sort((x, y) => x - y); return s.length ? (s.length % 2 ? s[(s.length - 1) >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : 0; };

/** The site statistics the gates read, per table. */
function siteStats(t: LearnedTemplates) {
  return t.sites.map((s) => ({
    key: s.key, sampled: s.sampled, blocks: s.blocks,
    tokens: s.templateShare, median: median(s.pageShares), dominated: s.pageShares.filter((x) => x >= 0.5).length / Math.max(1, s.sampled),
    removed: s.templateShare + s.linkShare,
  }));
}

for (const { kind, dir } of crawls) {
  const docs = (await loadCrawl([join(dir, 'crawl')])).documents;
  const bytes = docs.map(utf8Bytes);
  const urls = docs.map((d) => d.url);
  // every template found is used (heavy 0); the gates below choose where
  const learnt = learnTemplates(bytes, docs.map((d) => hostOfUrl(d.url)), { heavy: 0 }, docs.map((d) => sectionOfUrl(d.url)));
  const docTable = learnt.tables.docTable;
  const main = sketchMany(bytes, { content: 'main', templates: learnt.tables });
  const page = sketchMany(bytes, { content: 'main', templates: { ...learnt.tables, docTable: new Uint32Array(docs.length).fill(WHOLE_PAGE) } });
  // each page's own template share (its blocks against its table)
  const blocks = blockFingerprints(bytes);
  const tableSets = learnt.sites.map((_, t) => new Set(learnt.tables.values.subarray(learnt.tables.offsets[t], learnt.tables.offsets[t + 1])));
  const pageShare = Float64Array.from(docs, (_, i) => {
    const t = docTable[i];
    if (t === WHOLE_PAGE || t === NO_TABLE) return 0;
    let all = 0, tpl = 0;
    for (let b = blocks.offsets[i]; b < blocks.offsets[i + 1]; b++) { all += blocks.tokens[b]; if (tableSets[t].has(blocks.values[b])) tpl += blocks.tokens[b]; }
    return all ? tpl / all : 0;
  });
  const stats = siteStats(learnt);

  const scoreOf = (() => {
    if (kind === 'realistic') {
      const truth = loadRealistic(join(dir, 'truth'));
      return (clusters: string[][]) => { const s = scoreDups(truth, clusters.map((m) => ({ members: m.map((url) => ({ url })) }))); return { f1: s.f1 ?? 0, p: s.precision ?? 0, r: s.recall ?? 0, diff: null as number | null }; };
    }
    const truth = loadTemplated(dir);
    return (clusters: string[][]) => {
      const s = score(truth, clusters.map((m) => m.map((u) => truth.index.get(u)!)));
      return { f1: s.f1, p: s.precision, r: s.recall, diff: s.clustered ? s.different / s.clustered : 0 };
    };
  })();
  const cache = new Map<string, ReturnType<typeof scoreOf>>();
  const run = (whole: (i: number) => boolean) => {
    const key = Array.from(docs, (_, i) => (whole(i) ? '1' : '0')).join('');
    const hit = cache.get(key);
    if (hit) return hit;
    const set = mixed(main, page, whole);
    const nd = nearDuplicates(set);
    const clusters: string[][] = [];
    for (let c = 0; c < nd.clusters.count; c++) clusters.push(Array.from(nd.clusters.membersOf(c), (d) => urls[d]));
    const s = scoreOf(clusters);
    cache.set(key, s);
    return s;
  };

  console.log(`\n## ${kind} ${dir}: ${docs.length} pages, ${stats.length} templates learnt`);
  console.log('| site | sampled | blocks | tokens | median | dominated | removed |\n|---|---|---|---|---|---|---|');
  for (const s of stats) console.log(`| ${s.key} | ${s.sampled} | ${s.blocks} | ${s.tokens.toFixed(3)} | ${s.median.toFixed(3)} | ${s.dominated.toFixed(3)} | ${s.removed.toFixed(3)} |`);
  const ends = { whole: run(() => true), content: run(() => false) };
  const fmt = (s: ReturnType<typeof scoreOf>) => `${s.f1.toFixed(4)}${s.diff === null ? '' : ` (${(100 * s.diff).toFixed(1)}%)`}`;
  console.log(`whole pages (content page): F1 ${fmt(ends.whole)} P ${ends.whole.p.toFixed(4)} R ${ends.whole.r.toFixed(4)}; every template removed (no gate): F1 ${fmt(ends.content)} P ${ends.content.p.toFixed(4)} R ${ends.content.r.toFixed(4)}`);
  const gates = ['tokens', 'median', 'dominated', 'removed'] as const;
  console.log(`\nF1 (and the share of clustered pairs that are different articles) by gate threshold x\n`);
  console.log(`| x | ${gates.join(' | ')} | page |\n|---|${gates.map(() => '---|').join('')}---|`);
  for (const x of steps) {
    const heavy = (g: (typeof gates)[number]) => stats.map((s) => s[g] >= x);
    const row = gates.map((g) => { const h = heavy(g); return fmt(run((i) => docTable[i] !== NO_TABLE && (docTable[i] === WHOLE_PAGE || !h[docTable[i]]))); });
    const perPage = run((i) => docTable[i] !== NO_TABLE && (docTable[i] === WHOLE_PAGE || pageShare[i] < x));
    console.log(`| ${x} | ${row.join(' | ')} | ${fmt(perPage)} |`);
  }
}
