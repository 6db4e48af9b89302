/**
 * Scores URL rewrite rules (DUST, issue 41 item 4) on a web crawl of phenomena.ts held out from the
 * learning: the rules are learnt from one crawl's duplicate clusters (as `findCollections({ rules })`
 * learns them) and a crawler that skips a URL when `UrlRules.shouldSkip` says so walks another
 * crawl's first sweep in its fetch order. The truth is how the crawl was built (truth/records.jsonl,
 * truth/pages.json): a page's identity is its text, a variant's the text of the page it is a
 * variant of, so a mirror copy with the same text is a duplicate and one with other text is not.
 *
 * - duplicate fetches avoided: of the page and variant records whose identity was fetched before
 *   (in the fetch order, rules or not), the share skipped;
 * - unique pages wrongly skipped: of the others (the first fetch of each identity), the share skipped.
 *
 * Two hold-outs:
 * - `--learn DIR --apply DIR`: learnt on one crawl's first sweep, applied to another crawl (only
 *   rules that do not name a host can carry over: parameters, index files, https, www);
 * - `--apply DIR --split S`: learnt on the first S of the crawl's first sweep (its records in fetch
 *   order, read into `findCollections` as pages) and applied to the rest; the URLs of the first
 *   part count as fetched.
 * `--fit` (on the tuning crawl only) prints the figures over a grid of bars; `--show-wrong` (on a
 * tuning crawl) lists the unique pages wrongly skipped, with the rules that spelled them.
 *
 *   npx tsx eval/web/dust.ts --apply DIR --split 0.5 [--min-support N] [--min-precision R] [--min-resemblance R] [--json FILE]
 *   npx tsx eval/web/dust.ts --learn DIR --apply DIR [--json FILE] [--show-wrong]
 *   npx tsx eval/web/dust.ts --apply DIR --split 0.5 --fit
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readCrawl } from '../../src/io/crawl.js';
import { urlVariant } from '../../src/io/url-variants.js';
import { normalizeUrl } from '../../src/graph/url.js';
import { findCollections } from '../../src/collections/entry.js';
import { readForCollections } from '../../src/collections/stream.js';
import { parseSimilarity, DEFAULT_SIMILARITY } from '../../src/collections/similarity.js';
import { ROLE_SOFT_404 } from '../../src/io/crawl-phenomena.js';
import { ruleLearnerOf } from '../../src/collections/url-rules/of-crawl.js';
import { UrlRules } from '../../src/collections/url-rules/rules.js';
import type { CrawlRuleOptions } from '../../src/collections/url-rules/of-crawl.js';
import { init } from '../../src/wasm/loader.js';
import { PageSource } from '../../src/io/pages.js';
import type { RecordTruth } from './phenomena.js';

const norm = (u: string) => normalizeUrl(u) ?? u;

/** The first sweep's records in fetch order, and each page or variant record's identity (its page's text). */
export function sweepTruth(data: string): { records: RecordTruth[]; identity: Map<string, string> } {
  const records = readFileSync(join(data, 'truth', 'records.jsonl'), 'utf8').split('\n').filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as RecordTruth).filter((r) => r.file === 'sweep-1.warc.gz').sort((a, b) => a.n - b.n);
  const pages = (JSON.parse(readFileSync(join(data, 'truth', 'pages.json'), 'utf8')) as { pages: Array<{ url: string; text: string }> }).pages;
  const textOf = new Map(pages.map((p) => [norm(p.url), p.text]));
  const identity = new Map<string, string>();
  for (const r of records) {
    if (r.kind !== 'page' && r.kind !== 'variant') continue;
    const t = textOf.get(norm(r.canonical ?? r.uri));
    if (t !== undefined) identity.set(r.uri, t);
  }
  return { records, identity };
}

/** What a crawler skipping by a URL predicate did on the records from `from` on. */
export interface DustScore {
  duplicates: number;
  avoided: number;
  unique: number;
  wronglySkipped: number;
  /** avoided / duplicates and wronglySkipped / unique. */
  avoidedShare: number;
  wrongShare: number;
  /** Duplicates avoided per truth rule (variant rule, or `copy` for a mirror copy). */
  byRule: Record<string, { duplicates: number; avoided: number }>;
  /** The unique pages wrongly skipped (their URLs, in fetch order). */
  wrong: string[];
}

/** Takes the records, identities, a skip predicate (stateful, called once per record in order) and the first record scored; returns the figures. */
export function scoreSkips(records: readonly RecordTruth[], identity: ReadonlyMap<string, string>, shouldSkip: (url: string) => boolean, from: number): DustScore {
  const fetched = new Set<string>();
  const s: DustScore = { duplicates: 0, avoided: 0, unique: 0, wronglySkipped: 0, avoidedShare: 0, wrongShare: 0, byRule: {}, wrong: [] };
  records.forEach((r, i) => {
    const skip = shouldSkip(r.uri);
    const id = identity.get(r.uri);
    if (id === undefined) return;
    const dup = fetched.has(id);
    fetched.add(id);
    if (i < from) return;
    if (dup) {
      const rule = r.kind === 'variant' ? r.rule ?? 'variant' : 'copy';
      const b = (s.byRule[rule] ??= { duplicates: 0, avoided: 0 });
      s.duplicates++; b.duplicates++;
      if (skip) { s.avoided++; b.avoided++; }
    } else {
      s.unique++;
      if (skip) { s.wronglySkipped++; s.wrong.push(r.uri); }
    }
  });
  s.avoidedShare = s.duplicates ? s.avoided / s.duplicates : 0;
  s.wrongShare = s.unique ? s.wronglySkipped / s.unique : 0;
  return s;
}

/** A skip predicate by canonical spelling (the fixed normalizer of io/url-variants.ts, for comparison). */
function byKey(key: (u: string) => string): (url: string) => boolean {
  const seen = new Map<string, string>();
  return (url) => {
    const k = key(url), first = seen.get(k);
    if (first === undefined) { seen.set(k, url); return false; }
    return first !== url;
  };
}

/** The first `share` of a crawl's first sweep (by fetch order), read as pages for `findCollections`. */
async function firstPart(data: string, records: readonly RecordTruth[], cut: number) {
  const early = new Set(records.slice(0, cut).map((r) => norm(r.uri)));
  const pages: Array<{ url: string; bytes: Uint8Array; contentType?: string }> = [];
  for await (const d of readCrawl([join(data, 'sweep-1.warc.gz')], { links: true })) if (early.has(norm(d.url))) pages.push({ url: d.url, bytes: d.bytes, ...(d.contentType ? { contentType: d.contentType } : {}) });
  return pages;
}

const pct = (x: number) => `${(100 * x).toFixed(2)}%`;
const line = (name: string, s: DustScore) => `${name}: ${s.avoided} of ${s.duplicates} duplicate fetches avoided (${pct(s.avoidedShare)}), ${s.wronglySkipped} of ${s.unique} unique pages skipped (${pct(s.wrongShare)}); by rule: ${Object.entries(s.byRule).sort().map(([k, v]) => `${k} ${v.avoided}/${v.duplicates}`).join(', ')}`;

async function main() {
  const { values } = parseArgs({ options: {
    learn: { type: 'string' }, apply: { type: 'string' }, split: { type: 'string' }, fit: { type: 'boolean' },
    'min-support': { type: 'string' }, 'min-precision': { type: 'string' }, 'min-resemblance': { type: 'string' }, json: { type: 'string' }, rules: { type: 'string' }, 'show-wrong': { type: 'boolean' },
  } });
  if (!values.apply || (values.learn === undefined) === (values.split === undefined)) throw new Error('usage: --apply DIR and one of --learn DIR, --split S');
  await init();
  const bar: CrawlRuleOptions = {
    ...(values['min-resemblance'] ? { minResemblance: Number(values['min-resemblance']) } : {}),
    ...(values['min-support'] ? { minSupport: Number(values['min-support']) } : {}),
    ...(values['min-precision'] ? { minPrecision: Number(values['min-precision']) } : {}),
  };
  const { records, identity } = sweepTruth(values.apply);
  const cut = values.split !== undefined ? Math.round(Number(values.split) * records.length) : 0;
  const input = values.learn !== undefined ? join(values.learn, 'sweep-1.warc.gz') : await firstPart(values.apply, records, cut);
  const out: Record<string, unknown> = { apply: values.apply, learn: values.learn ?? `first ${values.split} of ${values.apply}`, records: records.length, from: cut };
  const fixed = scoreSkips(records, identity, byKey((u) => urlVariant(u)?.key ?? u), cut);
  console.log(line('fixed normalizer (io/url-variants.ts, no learning)', fixed));
  out.fixed = fixed;
  if (values.fit) {
    // one read, the learner run per bar (what findCollections({ rules }) does after reading)
    const read = await readForCollections(typeof input === 'string' ? [input] : new PageSource(input), parseSimilarity(DEFAULT_SIMILARITY), { workers: 1 });
    const soft = read.phenomena ? Uint8Array.from(read.phenomena.roles, (r) => (r === ROLE_SOFT_404 ? 1 : 0)) : undefined;
    const grid: unknown[] = [];
    for (const minResemblance of [0.5, 0.8, 0.9, 0.95]) {
      for (const minSupport of [1, 2, 3, 5, 8]) {
        for (const minPrecision of [0.8, 0.9, 0.95, 1]) {
          const rules = ruleLearnerOf(read.crawl.urls, read.similarAll, soft, { minSupport, minPrecision, minResemblance }).learn();
          const s = scoreSkips(records, identity, (u) => rules.shouldSkip(u), cut);
          grid.push({ minResemblance, minSupport, minPrecision, rules: rules.rules.length, ...s });
          console.log(`minResemblance ${minResemblance} minSupport ${minSupport} minPrecision ${minPrecision}: ${rules.rules.length} rules; ${line('', s)}`);
        }
      }
    }
    out.grid = grid;
  } else {
    const found = await findCollections(input, { rules: bar, workers: 1 });
    const rules = found.urlRules!;
    if (values.rules) writeFileSync(values.rules, rules.save());
    for (const r of rules.rules) console.log(`  rule ${JSON.stringify(r)}`);
    const learnt = scoreSkips(records, identity, (u) => rules.shouldSkip(u), cut);
    console.log(line(`learnt rules (${rules.rules.length})`, learnt));
    if (values['show-wrong']) for (const u of learnt.wrong) console.log(`  wrongly skipped ${u} (spelled ${rules.canonical(u)}; rules ${rules.rulesFor(u).map((r) => `${r.kind} ${r.name ?? r.from ?? ''}`).join(', ')})`);
    out.rules = rules.rules;
    out.learnt = learnt;
  }
  if (values.json) writeFileSync(values.json, JSON.stringify(out, null, 1) + '\n');
}

if (process.argv[1]?.endsWith('dust.ts')) await main();
