/**
 * Runs the five capabilities on the realistic crawl through the command line, as a user would,
 * with default options, and scores each against the truth written by build.ts:
 *
 *   node --import tsx eval/manuals/evaluate.ts [--data DIR] [--input folder|jsonl|warc|arc|wacz|interleaved]
 *        [--only dups,collections,mirrors,study,signatures] [--json FILE] [--keep DIR]
 *
 * --data is the folder build.ts wrote (default $RESEMBLE_DATA/realistic); --json writes the figures
 * for comparison across commits; --keep keeps each command's raw output in DIR. --input interleaved
 * reads crawl.jsonl with its records dealt round-robin by host and first two folders (manuals
 * side by side come a page of each at a time, as a breadth-first crawler fetches them).
 * What is measured is described in README.md here.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { components } from './similarity.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CAPABILITIES = ['dups', 'collections', 'mirrors', 'study', 'signatures'] as const;
type Capability = (typeof CAPABILITIES)[number];

interface PageTruth { url: string; work: string; copy: string; page: string; text: string; correspondences: Record<string, string> }
interface CopyPairTruth { a: string; b: string; work: string; relation: string; mirror: boolean; prefixShifted: boolean; common: number }
interface HostPairTruth { a: string; b: string; mirror: boolean; relations: Array<{ relation: string }> }
interface PairTruth { a: number; b: number; j8: number }

/** The truth files of a built crawl, loaded. */
export interface Truth {
  pages: PageTruth[];
  index: Map<string, number>;
  copyPairs: CopyPairTruth[];
  hostPairs: HostPairTruth[];
  /** Exact word-8 Jaccard by pair key `a b` (a < b, page indexes); pairs absent are below 0.3. */
  j8: Map<string, number>;
  pairs: PairTruth[];
}

const key = (a: number, b: number) => (a < b ? `${a} ${b}` : `${b} ${a}`);

/** Takes the truth folder; returns its contents. */
export function loadTruth(dir: string): Truth {
  const pages: PageTruth[] = JSON.parse(readFileSync(join(dir, 'pages.json'), 'utf8')).pages;
  const copies = JSON.parse(readFileSync(join(dir, 'copies.json'), 'utf8'));
  const pairs: PairTruth[] = readFileSync(join(dir, 'pairs.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const j8 = new Map<string, number>();
  for (const p of pairs) j8.set(key(p.a, p.b), p.j8);
  return { pages, index: new Map(pages.map((p, i) => [p.url, i])), copyPairs: copies.copyPairs, hostPairs: copies.hostPairs, j8, pairs };
}

/** Runs `resemble` with arguments; returns its stdout lines parsed as JSON, and the seconds it took. */
function run(args: string[], keep: string | undefined, name: string): { records: any[]; seconds: number; stderr: string } {
  const started = Date.now();
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'resemble.js'), ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 30 });
  const seconds = (Date.now() - started) / 1000;
  if (keep) writeFileSync(join(keep, `${name}.out`), r.stdout ?? '');
  if (r.status !== 0) throw new Error(`resemble ${args.join(' ')} exited ${r.status}: ${(r.stderr ?? '').slice(-2000)}`);
  const text = (r.stdout ?? '').trim();
  const records = text === '' ? [] : text.startsWith('[') || (text.startsWith('{') && !text.includes('\n{')) ? [JSON.parse(text)].flat() : text.split('\n').map((l) => JSON.parse(l));
  return { records, seconds, stderr: r.stderr ?? '' };
}

const pairsIn = (n: number) => (n * (n - 1)) / 2;
const ratio = (a: number, b: number) => (b === 0 ? null : a / b);

/** Takes clusters as lists of page indexes; returns pairwise precision, recall and F1 against truth clusters. */
export function pairwise(predicted: number[][], truth: number[][]) {
  const truthOf = new Map<number, number>();
  truth.forEach((g, i) => g.forEach((p) => truthOf.set(p, i)));
  let tp = 0, predictedPairs = 0;
  for (const g of predicted) {
    predictedPairs += pairsIn(g.length);
    const counts = new Map<number, number>();
    for (const p of g) {
      const t = truthOf.get(p);
      if (t !== undefined) counts.set(t, (counts.get(t) ?? 0) + 1);
    }
    for (const n of counts.values()) tp += pairsIn(n);
  }
  const truthPairs = truth.reduce((s, g) => s + pairsIn(g.length), 0);
  const precision = ratio(tp, predictedPairs), recall = ratio(tp, truthPairs);
  const f1 = precision !== null && recall !== null && precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : null;
  return { predictedPairs, truthPairs, truePairs: tp, precision, recall, f1 };
}

/** Takes the truth; returns its clusters (connected components of exact Jaccard ≥ t) as page indexes. */
export function truthClusters(truth: Truth, t: number): number[][] {
  return components(truth.pages.length, truth.pairs.filter((p) => p.j8 >= t).map((p) => [p.a, p.b] as [number, number]));
}

/**
 * Takes URLs of one record; returns their truth pages, each once: a URL captured in both sweeps
 * with its text changed is one page of the truth, so the pair of its two captures (a page and its
 * later version, rightly given as near-duplicates) is neither right nor wrong here.
 */
function urlsToIndexes(truth: Truth, urls: string[], unknown: Set<string>): number[] {
  const out: number[] = [];
  for (const u of urls) {
    const i = truth.index.get(u);
    if (i === undefined) unknown.add(u);
    else if (!out.includes(i)) out.push(i);
  }
  return out;
}

/** Every pair of copies of one page of a work, as the crawl was built (page indexes, in walk order). */
export function copyPairsOf(truth: Truth): Array<[number, number]> {
  const copiesOf = new Map<string, number[]>();
  truth.pages.forEach((p, i) => { const k = `${p.work} ${p.page}`; const l = copiesOf.get(k); if (l) l.push(i); else copiesOf.set(k, [i]); });
  const out: Array<[number, number]> = [];
  for (const g of copiesOf.values()) for (let x = 0; x < g.length; x++) for (let y = x + 1; y < g.length; y++) out.push([g[x], g[y]]);
  return out;
}

/** Near-duplicate clusters (`dups`, defaults) against the components of exact Jaccard ≥ 0.5. */
export function scoreDups(truth: Truth, records: any[]) {
  const unknown = new Set<string>();
  const predicted = records.filter((r) => Array.isArray(r.members)).map((r) => urlsToIndexes(truth, r.members.map((m: any) => m.url), unknown));
  const score = pairwise(predicted, truthClusters(truth, 0.5));
  let cannotLink = 0;
  for (const g of predicted) for (let x = 0; x < g.length; x++) for (let y = x + 1; y < g.length; y++) if ((truth.j8.get(key(g[x], g[y])) ?? 0) < 0.3) cannotLink++;
  // The truth of how the crawl was built: every two copies of one page of a work belong together.
  // Whole-page Jaccard can say more (a sidebar holding a manual's table of contents makes all its
  // pages resemble), so this recall is reported beside it.
  const clusterOf = new Map<number, number>();
  predicted.forEach((g, c) => g.forEach((i) => clusterOf.set(i, c)));
  let copyPairs = 0, copyPairsTogether = 0;
  for (const [a, b] of copyPairsOf(truth)) {
    copyPairs++;
    const c = clusterOf.get(a);
    if (c !== undefined && c === clusterOf.get(b)) copyPairsTogether++;
  }
  return { clusters: predicted.length, ...score, cannotLink, copyPairs, copyPairsTogether, copyRecall: ratio(copyPairsTogether, copyPairs), unknownUrls: unknown.size };
}

/** Replicated collections (`collections`, its defaults) against the copy pairs that mirror each other. */
export function scoreCollections(truth: Truth, records: any[]) {
  const clusters = records.filter((r) => Array.isArray(r.collections));
  // Where each page is listed: cluster → page → collections listing it.
  const listed: Array<Map<number, number[]>> = clusters.map((r) => {
    const m = new Map<number, number[]>();
    r.collections.forEach((c: any, ci: number) => {
      for (const u of new Set<string>(c.pages ?? [])) {
        const i = truth.index.get(u);
        if (i === undefined) continue;
        const l = m.get(i) ?? [];
        l.push(ci);
        m.set(i, l);
      }
    });
    return m;
  });
  let inTwo = 0, mixing = 0;
  for (const m of listed) {
    for (const l of m.values()) if (l.length > 1) inTwo++;
    if (new Set([...m.keys()].map((i) => truth.pages[i].work)).size > 1) mixing++;
  }
  const byCopy = new Map<string, PageTruth[]>();
  for (const p of truth.pages) byCopy.set(p.copy, [...(byCopy.get(p.copy) ?? []), p]);
  const mirrorPairs = truth.copyPairs.filter((p) => p.mirror);
  const perPair = mirrorPairs.map((cp) => {
    const common: Array<[number, number]> = [];
    for (const p of byCopy.get(cp.a) ?? []) {
      const other = p.correspondences[cp.b];
      if (other !== undefined) common.push([truth.index.get(p.url)!, truth.index.get(other)!]);
    }
    let best = 0, bestSimilar = 0;
    listed.forEach((m, ci) => {
      let covered = 0;
      for (const [x, y] of common) {
        const lx = m.get(x), ly = m.get(y);
        if (lx && ly && lx.some((c) => ly.some((d) => d !== c))) covered++;
      }
      const share = common.length ? covered / common.length : 0;
      best = Math.max(best, share);
      if (clusters[ci].similar !== false) bestSimilar = Math.max(bestSimilar, share);
    });
    return { a: cp.a, b: cp.b, relation: cp.relation, prefixShifted: cp.prefixShifted, common: common.length, coverage: Math.round(best * 1000) / 1000, coverageVerified: Math.round(bestSimilar * 1000) / 1000 };
  });
  const recovered = perPair.filter((p) => p.coverage >= 0.9).length;
  return {
    clusters: clusters.length, mirrorCopyPairs: mirrorPairs.length, recovered, recall: ratio(recovered, mirrorPairs.length),
    recoveredVerified: perPair.filter((p) => p.coverageVerified >= 0.9).length,
    pagesInTwoCollections: inTwo, clustersMixingManuals: mixing, pairs: perPair,
  };
}

/**
 * The replica summary (`collections --replicas`) against the truth's copy pairs: each record's two
 * sides are mapped to the copies their entry pages belong to; the relation it gives is compared with the
 * truth's (exact / partial / lagging; `near` counts as lagging: pages changed), and records between
 * copies that do not mirror each other (distant releases, different manuals) are counted.
 */
export function scoreReplicas(truth: Truth, records: any[]) {
  // A record's side is the copy its entry page belongs to.
  const copyOf = (root: string) => {
    const i = truth.index.get(root);
    return i === undefined ? undefined : truth.pages[i].copy;
  };
  const pairKey = (a: string, b: string) => [a, b].sort().join(' ');
  const truthPairs = new Map(truth.copyPairs.map((p) => [pairKey(p.a, p.b), p]));
  const confusion: Record<string, number> = {};
  let agree = 0, onMirrors = 0, notMirrors = 0;
  const seen = new Set<string>();
  for (const r of records) {
    const a = copyOf(r.a.root), b = copyOf(r.b.root);
    const t = a && b ? truthPairs.get(pairKey(a, b)) : undefined;
    if (!t || !t.mirror) { notMirrors++; continue; }
    if (seen.has(pairKey(a!, b!))) continue;
    seen.add(pairKey(a!, b!));
    onMirrors++;
    const said = r.relation === 'near' ? 'lagging' : r.relation;
    confusion[`${t.relation}→${r.relation}`] = (confusion[`${t.relation}→${r.relation}`] ?? 0) + 1;
    if (said === t.relation) agree++;
  }
  return { records: records.length, mirrorPairs: truth.copyPairs.filter((p) => p.mirror).length, onMirrors, agree, notMirrors, confusion };
}

/** Mirrored hosts (`mirrors --algorithm hybrid --verify`): verdicts against host pairs that mirror a collection. */
export function scoreMirrors(truth: Truth, records: any[]) {
  const positive = new Set(truth.hostPairs.filter((p) => p.mirror).map((p) => [p.a, p.b].sort().join(' ')));
  const verdicts: Record<string, { truthMirror: number; truthNot: number }> = {};
  let tp = 0, fp = 0;
  const said = new Set<string>();
  for (const r of records) {
    if (typeof r.a !== 'string' || typeof r.b !== 'string') continue;
    const k = [r.a, r.b].sort().join(' ');
    // version 2 records name the verdict in `relation`; version 1 had it under evidence.verification
    const verdict: string = r.relation ?? r.evidence?.verification?.verdict ?? (r.mirror === true ? 'mirror' : String(r.mirror));
    const v = (verdicts[verdict] ??= { truthMirror: 0, truthNot: 0 });
    if (positive.has(k)) v.truthMirror++; else v.truthNot++;
    // Only a `mirror` verdict claims a mirror: `not mirror` and `undetermined` do not.
    const yes = r.mirror === true || verdict === 'mirror';
    if (!yes) continue;
    said.add(k);
    if (positive.has(k)) tp++; else fp++;
  }
  const missed = [...positive].filter((k) => !said.has(k));
  return { rankedPairs: records.length, truthMirrorPairs: positive.size, saidMirror: tp + fp, truePositives: tp, precision: ratio(tp, tp + fp), recall: ratio(tp, positive.size), verdicts, missed };
}

/** Duplicate and near-duplicate cluster figures of a set of clusters. */
function figures(groups: number[][]) {
  const clustered = groups.reduce((s, g) => s + g.length, 0);
  return { clusters: groups.length, clustered, duplicates: clustered - groups.length, largest: groups.reduce((m, g) => Math.max(m, g.length), 0) };
}

/** The study's figures beside the same figures from the truth (identical shingle sets; Jaccard components at 0.9, 0.7, 0.5). */
export function scoreStudy(truth: Truth, report: any) {
  const sizes = (list: any[] | undefined) => (list ?? []).map((d: any) => `${d.size}:${d.clusters}`).join(' ');
  const study = {
    documents: report.documents?.considered,
    duplicates: { clusters: report.general?.clusters, duplicates: report.general?.duplicates, sizes: sizes(report.distributions?.complete) },
    near: (report.near ?? []).map((n: any) => ({ percent: n.percent, clusters: n.clusters, duplicates: n.nearDuplicates })),
  };
  const t = {
    documents: truth.pages.length,
    duplicates: figures(truthClusters(truth, 1)),
    near: [0.9, 0.7, 0.5].map((x) => ({ jaccard: x, ...figures(truthClusters(truth, x)) })),
  };
  return { study, truth: t };
}

/** Signatures (defaults): colliding pairs against exact word-8 Jaccard. */
export function scoreSignatures(truth: Truth, records: any[]) {
  const unknown = new Set<string>();
  const pairs = new Set<string>();
  let groups = 0, largest = 0;
  for (const r of records) {
    if (typeof r.a === 'string' && typeof r.b === 'string') {
      const [a, b] = urlsToIndexes(truth, [r.a, r.b], unknown);
      if (a !== undefined && b !== undefined) pairs.add(key(a, b));
    } else if (Array.isArray(r.pairs)) {
      for (const p of r.pairs) {
        const [a, b] = urlsToIndexes(truth, [p.a, p.b], unknown);
        if (a !== undefined && b !== undefined) pairs.add(key(a, b));
      }
    } else if (Array.isArray(r.members)) {
      // A group: every two members are given as near-replicas of each other.
      groups++;
      const g = urlsToIndexes(truth, r.members.map((m: any) => m.url), unknown);
      largest = Math.max(largest, g.length);
      for (let x = 0; x < g.length; x++) for (let y = x + 1; y < g.length; y++) pairs.add(key(g[x], g[y]));
    }
  }
  let good = 0;
  for (const k of pairs) if ((truth.j8.get(k) ?? 0) >= 0.8) good++;
  const wanted = truth.pairs.filter((p) => p.j8 >= 0.9);
  const found = wanted.filter((p) => pairs.has(key(p.a, p.b))).length;
  // The truth of how the crawl was built: the pairs of copies of one page at Jaccard ≥ 0.9 (a
  // sidebar holding a manual's table of contents puts different chapters there too).
  const copies = copyPairsOf(truth).filter(([a, b]) => (truth.j8.get(key(a, b)) ?? 0) >= 0.9);
  const copiesColliding = copies.filter(([a, b]) => pairs.has(key(a, b))).length;
  return { groups, largestGroup: largest, pairs: pairs.size, precision: ratio(good, pairs.size), truthPairs09: wanted.length, recall: ratio(found, wanted.length),
    copyPairs09: copies.length, copyPairsColliding: copiesColliding, unknownUrls: unknown.size };
}

const f3 = (x: number | null | undefined) => (x === null || x === undefined ? '—' : x.toFixed(3));

async function main() {
  const { values } = parseArgs({ options: { data: { type: 'string' }, input: { type: 'string' }, only: { type: 'string' }, json: { type: 'string' }, keep: { type: 'string' } } });
  const data = values.data ?? (process.env.RESEMBLE_DATA ? join(process.env.RESEMBLE_DATA, 'realistic') : undefined);
  if (!data) {
    console.error('give --data DIR (the folder build.ts wrote) or set RESEMBLE_DATA');
    process.exit(2);
  }
  const input = { folder: join(resolve(data), 'crawl'), jsonl: join(resolve(data), 'crawl.jsonl'), warc: join(resolve(data), 'crawl.warc.gz'), arc: join(resolve(data), 'crawl.arc.gz'), wacz: join(resolve(data), 'crawl.wacz'), interleaved: join(resolve(data), 'crawl.jsonl') }[values.input ?? 'folder'];
  if (!input) {
    console.error(`--input is folder, jsonl, warc, arc, wacz or interleaved, got ${values.input}`);
    process.exit(2);
  }
  if (values.input === 'interleaved') {
    const dir = mkdtempSync(join(tmpdir(), 'resemble-interleaved-'));
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'crawl.jsonl'), interleaved(readFileSync(input, 'utf8')));
    return evaluate(values, data, join(dir, 'crawl.jsonl'));
  }
  return evaluate(values, data, input);
}

/** JSONL records dealt round-robin by host and first two folders of their URLs (each group in its order). */
export function interleaved(jsonl: string): string {
  const groups = new Map<string, string[]>();
  for (const line of jsonl.split('\n')) {
    if (!line.trim()) continue;
    const url = new URL(JSON.parse(line).url as string);
    const key = `${url.host}/${url.pathname.split('/').slice(1, -1).slice(0, 2).join('/')}`;
    const g = groups.get(key);
    if (g) g.push(line); else groups.set(key, [line]);
  }
  const lists = [...groups.values()], out: string[] = [];
  for (let round = 0; out.length < lists.reduce((n, l) => n + l.length, 0); round++) for (const l of lists) if (round < l.length) out.push(l[round]);
  return out.join('\n') + '\n';
}

async function evaluate(values: { only?: string; keep?: string; json?: string; input?: string }, data: string, input: string) {
  const only = (values.only?.split(',') ?? [...CAPABILITIES]) as Capability[];
  const bad = only.filter((c) => !CAPABILITIES.includes(c));
  if (bad.length) {
    console.error(`--only takes ${CAPABILITIES.join(',')}; got ${bad.join(',')}`);
    process.exit(2);
  }
  const keep = values.keep ? resolve(values.keep) : undefined;
  if (keep) mkdirSync(keep, { recursive: true });
  const truth = loadTruth(join(resolve(data), 'truth'));
  const results: Record<string, any> = { input: values.input ?? 'folder', pages: truth.pages.length };
  const rows: string[][] = [];
  const q = ['--quiet'];
  if (only.includes('dups')) {
    const r = run(['dups', input, ...q], keep, 'dups');
    const s = scoreDups(truth, r.records);
    results.dups = { seconds: r.seconds, ...s };
    rows.push(['dups', 'pairwise P / R / F1 vs Jaccard ≥ 0.5 components', `${f3(s.precision)} / ${f3(s.recall)} / ${f3(s.f1)}`, `${s.clusters} clusters; ${s.cannotLink} cannot-link pairs (J < 0.3); copies of one page in one cluster ${s.copyPairsTogether}/${s.copyPairs}`, r.seconds.toFixed(0)]);
  }
  if (only.includes('collections')) {
    const r = run(['collections', input, ...q], keep, 'collections');
    const s = scoreCollections(truth, r.records);
    const rep = run(['collections', input, '--replicas', ...q], keep, 'collections-replicas');
    const sr = scoreReplicas(truth, rep.records);
    results.collections = { seconds: r.seconds, ...s, replicas: sr };
    const worst = [...s.pairs].sort((x, y) => x.coverage - y.coverage)[0];
    rows.push(['collections', 'mirror copy pairs in one cluster ≥ 90% of common pages', `${s.recovered}/${s.mirrorCopyPairs} = ${f3(s.recall)}`,
      `${s.clusters} clusters; ${s.pagesInTwoCollections} pages in two collections of a cluster; ${s.clustersMixingManuals} clusters mixing manuals; `
      + `lowest coverage ${worst ? `${worst.coverage} (${worst.a} / ${worst.b})` : '—'}; replica relations agreeing ${sr.agree}/${sr.onMirrors} (${Object.entries(sr.confusion).map(([k, v]) => `${k} ${v}`).join(', ')}), ${sr.notMirrors} records between copies that do not mirror`, r.seconds.toFixed(0)]);
  }
  if (only.includes('mirrors')) {
    const r = run(['mirrors', input, '--algorithm', 'hybrid', '--verify', ...q], keep, 'mirrors');
    const s = scoreMirrors(truth, r.records);
    results.mirrors = { seconds: r.seconds, ...s };
    const verdicts = Object.entries(s.verdicts).map(([v, c]) => `${v} ${c.truthMirror}+${c.truthNot}`).join(', ');
    rows.push(['mirrors', 'verdict P / R over mirror host pairs', `${f3(s.precision)} / ${f3(s.recall)}`, `${s.rankedPairs} ranked, ${s.truthMirrorPairs} true; verdicts (true+false pairs): ${verdicts}`, r.seconds.toFixed(0)]);
  }
  if (only.includes('study')) {
    const r = run(['study', input, '--format', 'json', ...q], keep, 'study');
    const s = scoreStudy(truth, r.records[0] ?? {});
    results.study = { seconds: r.seconds, ...s };
    const near = s.study.near.map((n: any) => `${n.percent}%: ${n.clusters}/${n.duplicates}`).join(', ');
    const tnear = s.truth.near.map((n) => `J≥${n.jaccard}: ${n.clusters}/${n.duplicates}`).join(', ');
    rows.push(['study', 'duplicate clusters/duplicates: study; truth', `${s.study.duplicates.clusters}/${s.study.duplicates.duplicates}; ${s.truth.duplicates.clusters}/${s.truth.duplicates.duplicates}`, `near: study ${near}; truth ${tnear}`, r.seconds.toFixed(0)]);
  }
  if (only.includes('signatures')) {
    const r = run(['signatures', input, ...q], keep, 'signatures');
    const s = scoreSignatures(truth, r.records);
    results.signatures = { seconds: r.seconds, ...s };
    rows.push(['signatures', 'pair P (J ≥ 0.8) / R (J ≥ 0.9)', `${f3(s.precision)} / ${f3(s.recall)}`, `${s.pairs} pairs${s.groups ? ` from ${s.groups} groups, largest ${s.largestGroup}` : ''}; ${s.truthPairs09} pairs with J ≥ 0.9; copies of one page colliding ${s.copyPairsColliding}/${s.copyPairs09}`, r.seconds.toFixed(0)]);
  }
  const head = ['capability', 'measure', 'figure', 'detail', 's'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => Math.min(r[i].length, i === 3 ? 200 : 80))));
  const line = (r: string[]) => '| ' + r.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |';
  console.log(line(head));
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const r of rows) console.log(line(r));
  if (values.json) writeFileSync(values.json, JSON.stringify(results, null, 1) + '\n');
}

if (process.argv[1]?.endsWith('evaluate.ts')) await main();
