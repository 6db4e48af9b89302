// Deduplicating while crawling: page by page, query the index for a near-duplicate and insert the
// page, against building the same index in one batch — in one run, on the same pages. Prints the
// ratio (online / batch, index only and with sketching), the per-page cost at checkpoints (the
// average over the whole run up to there: amortized, merges included, and over the last window),
// and checks first that the online index ends with the batch index's clusters and query hits.
// Run: node --import tsx bench/online.bench.ts --pages PATH [--docs N] [--copies] [--checkpoints 10000,100000]
//        [--query-cap N] [--common-cap N] [--in-order] [--no-sketch] [--no-check] [--no-batch]
// PATH is a .jsonl file ({url, html|text} per line) or a folder of .html files (walked in sorted
// order; URLs from the relative paths). With --copies, pages past the end of PATH are edited copies
// (2% of words replaced, deterministic) on other hosts, in shuffled order: mirrors as a crawl meets them.
import { closeSync, lstatSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { join, relative } from 'node:path';
import { machine, machineLine } from '../src/bench/machine.js';
import { ResembleIndex } from '../src/cluster/resemble-index/resemble-index.js';
import { init, sketch, sketchMany } from '../src/index.js';
import { SketchSet } from '../src/advanced.js';
import { mulberry32 } from '../src/random.js';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string' }, docs: { type: 'string' }, copies: { type: 'boolean', default: false }, 'no-check': { type: 'boolean', default: false },
    'no-sketch': { type: 'boolean', default: false }, 'query-cap': { type: 'string' }, 'common-cap': { type: 'string' },
    'in-order': { type: 'boolean', default: false }, checkpoints: { type: 'string' }, 'no-batch': { type: 'boolean', default: false },
  },
});
const PAGES = args.pages ?? process.env.RESEMBLE_PAGES;
if (!PAGES) { console.log('online: skipped (give --pages PATH or RESEMBLE_PAGES: a .jsonl crawl or a folder of HTML pages)'); process.exit(0); }
const COPIES = args.copies;
const CHECK = !args['no-check'];
const SKETCH = !args['no-sketch'];
const QUERY_CAP = args['query-cap'] === undefined ? undefined : Number(args['query-cap']);
// The index's common-shingle cap (default 1000, the paper's): online, a list is counted when a page
// arrives, in batch over the whole crawl, so where the cap binds the two may join different pairs.
const INDEX_OPTIONS = args['common-cap'] === undefined ? {} : { commonCap: Number(args['common-cap']) };
await init();

// --- pages ----------------------------------------------------------------------------------------
function loadPages(path: string): { url: string; html: string }[] {
  if (path.endsWith('.jsonl')) {
    // Line by line in 16 MiB reads: a crawl of a few GB is longer than the longest string V8 makes.
    const out: { url: string; html: string }[] = [];
    const fd = openSync(path, 'r'), buf = Buffer.alloc(16 << 20);
    let rest = Buffer.alloc(0);
    for (let got; (got = readSync(fd, buf, 0, buf.length, null)) > 0;) {
      const chunk = Buffer.concat([rest, buf.subarray(0, got)]);
      let from = 0;
      for (let nl = chunk.indexOf(10); nl >= 0; from = nl + 1, nl = chunk.indexOf(10, from)) {
        const line = chunk.toString('utf8', from, nl);
        if (!line.trim()) continue;
        const r = JSON.parse(line) as { url: string; html?: string; text?: string };
        out.push({ url: r.url, html: r.html ?? r.text ?? '' });
      }
      rest = Buffer.from(chunk.subarray(from));
    }
    closeSync(fd);
    if (rest.toString().trim()) { const r = JSON.parse(rest.toString()) as { url: string; html?: string; text?: string }; out.push({ url: r.url, html: r.html ?? r.text ?? '' }); }
    return out;
  }
  const files: string[] = [];
  (function walk(d: string) {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = lstatSync(p, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isDirectory()) walk(p);
      else if (/\.html?$/.test(name)) files.push(p);
    }
  })(path);
  return files.map((f) => ({ url: `http://origin.example/${relative(path, f)}`, html: readFileSync(f, 'latin1') }));
}
const real = loadPages(PAGES);
const N = Number(args.docs ?? real.length);
// Page i of the run is copy c of real page p (c = 0: the page itself). Copies are made when
// needed and dropped after sketching, so memory follows the sketches, not the pages.
const refs: [number, number][] = [];
for (let c = 0; refs.length < N && (c === 0 || COPIES); c++) for (let p = 0; p < real.length && refs.length < N; p++) refs.push([c, p]);
const rnd = mulberry32(12345);
if (!args['in-order']) {
  // A crawl meets sites and mirrors interleaved (and the cost per page is compared at two sizes
  // of the same mix): a deterministic shuffle.
  for (let i = refs.length - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [refs[i], refs[j]] = [refs[j], refs[i]]; }
}
function page(i: number): string {
  const [c, p] = refs[i];
  if (c === 0) return real[p].html;
  const r = mulberry32((c * 7919 + p * 104729) >>> 0);
  return real[p].html.replace(/>([^<]+)</g, (_m, t: string) => '>' + t.replace(/[A-Za-z]{2,}/g, (w) => (r() < 0.02 ? `edit${c}x${Math.floor(r() * 26)}` : w)) + '<');
}
const urls = refs.map(([c, p]) => (c === 0 ? real[p].url : real[p].url.replace(/^(https?:\/\/)([^/]+)/, `$1mirror${c}.$2`)));
const n = refs.length;
const checkpoints = (args.checkpoints ?? '').split(',').filter(Boolean).map(Number).filter((c) => c <= n);
if (!checkpoints.includes(n)) checkpoints.push(n);
console.log(machineLine(machine()));

const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const timed = <T>(f: () => T): { r: T; wall: number; cpu: number } => { const t = performance.now(), c = cpu(); const r = f(); return { r, wall: performance.now() - t, cpu: cpu() - c }; };
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const queryOptions = QUERY_CAP === undefined ? { limit: 1 } : { limit: 1, commonCap: QUERY_CAP };

// --- batch: sketchMany (in slices of pages, made as needed), then build the index -----------------
let bytes = 0;
const sk = timed(() => {
  const parts: SketchSet[] = [];
  for (let i = 0; i < n; i += 2000) {
    const slice = Array.from({ length: Math.min(2000, n - i) }, (_, k) => page(i + k));
    for (const h of slice) bytes += h.length;
    parts.push(sketchMany(slice));
  }
  return concat(parts);
});
const set = sk.r;
console.log(`${n.toLocaleString('en')} pages (${real.length.toLocaleString('en')} real${COPIES ? ', the rest edited copies' : ''}), ${(bytes / 1e6).toFixed(0)} MB; query commonCap ${QUERY_CAP ?? 'none'}, index commonCap ${INDEX_OPTIONS.commonCap ?? 1000}`);
const NO_BATCH = args['no-batch'];
const batch = NO_BATCH ? { r: new ResembleIndex(set.params), wall: NaN, cpu: NaN } : timed(() => { const index = new ResembleIndex(set.params, INDEX_OPTIONS); index.insertMany(set, { keys: urls }); index.query(index.sketch(0), { limit: 1 }); return index; }); // the first query builds the postings
console.log(`batch: sketchMany ${s(sk.wall)} wall / ${s(sk.cpu)} CPU; build + postings ${NO_BATCH ? 'not run (--no-batch)' : `${s(batch.wall)} wall / ${s(batch.cpu)} CPU`}`);

/** One set from sets of the same parameters, rows in order. */
function concat(parts: SketchSet[]): SketchSet {
  const total = parts.reduce((a, p) => a + p.size, 0), values = new BigUint64Array(parts.reduce((a, p) => a + p.values.length, 0));
  const offsets = new Uint32Array(total + 1), cardinality = new Float64Array(total), tokens = new Uint32Array(total), modulusLog2 = new Uint8Array(total);
  const rawFp = new BigUint64Array(total), lexicalFp = new BigUint64Array(total), shingleFp = new BigUint64Array(total);
  let d = 0, v = 0;
  for (const p of parts) {
    values.set(p.values, v);
    for (let i = 0; i < p.size; i++) offsets[d + i + 1] = v + p.offsets[i + 1];
    cardinality.set(p.cardinality, d); tokens.set(p.tokens, d); modulusLog2.set(p.modulusLog2, d);
    rawFp.set(p.rawFp, d); lexicalFp.set(p.lexicalFp, d); shingleFp.set(p.shingleFp, d);
    d += p.size; v += p.values.length;
  }
  return new SketchSet(parts[0].params, { values, offsets, cardinality, tokens, modulusLog2, rawFp, lexicalFp, shingleFp });
}

// --- online, pre-sketched: query then insert, page by page ------------------------------------------
function online(withSketch: boolean) {
  const index = new ResembleIndex(set.params, INDEX_OPTIONS);
  const marks: { at: number; wall: number; cpu: number }[] = [];
  let dupes = 0;
  const t0 = performance.now(), c0 = cpu();
  const windowAt = checkpoints.map((c) => c - Math.max(1, Math.floor(c / 10)));
  for (let i = 0; i < n; i++) {
    const q = withSketch ? sketch(page(i)) : set.get(i);
    if (index.query(q, queryOptions).length > 0) dupes++;
    index.insert(urls[i], q);
    if (windowAt.includes(i + 1) || checkpoints.includes(i + 1)) marks.push({ at: i + 1, wall: performance.now() - t0, cpu: cpu() - c0 });
  }
  return { index, marks, dupes, wall: performance.now() - t0, cpu: cpu() - c0 };
}
const on = online(false);
console.log(`online (pre-sketched): query + insert ${s(on.wall)} wall / ${s(on.cpu)} CPU; ${on.dupes.toLocaleString('en')} pages had a near-duplicate already indexed`);
console.log(`  ratio online / batch build: ${(on.wall / batch.wall).toFixed(2)}× wall, ${(on.cpu / batch.cpu).toFixed(2)}× CPU`);
const at = (c: number) => on.marks.find((m) => m.at === c)!;
for (const c of checkpoints) {
  const w0 = on.marks.find((m) => m.at === c - Math.max(1, Math.floor(c / 10)));
  const m = at(c);
  const win = w0 ? (m.cpu - w0.cpu) / (c - w0.at) : NaN;
  console.log(`  at ${c.toLocaleString('en')} pages: ${((m.cpu / c) * 1000).toFixed(0)} µs CPU a page on average so far (${((m.wall / c) * 1000).toFixed(0)} µs wall); last ${Math.floor(c / 10).toLocaleString('en')} pages ${(win * 1000).toFixed(0)} µs CPU a page`);
}
if (checkpoints.length > 1) {
  const a = at(checkpoints[0]), b = at(checkpoints[checkpoints.length - 1]);
  console.log(`  per-page cost at ${checkpoints[checkpoints.length - 1].toLocaleString('en')} / at ${checkpoints[0].toLocaleString('en')}: ${((b.cpu / b.at) / (a.cpu / a.at)).toFixed(2)}× (amortized CPU)`);
}
if (SKETCH) {
  const ons = online(true);
  console.log(`online with sketch(page) each: ${s(ons.wall)} wall / ${s(ons.cpu)} CPU; batch sketchMany + build ${s(sk.wall + batch.wall)} wall / ${s(sk.cpu + batch.cpu)} CPU`);
  console.log(`  ratio: ${(ons.wall / (sk.wall + batch.wall)).toFixed(2)}× wall, ${(ons.cpu / (sk.cpu + batch.cpu)).toFixed(2)}× CPU`);
}

// --- the online index is the batch index -------------------------------------------------------------
if (CHECK && !NO_BATCH) {
  const part = (idx: ResembleIndex) => idx.clusters().map((m) => Array.from(m).join(',')).sort();
  const a = part(batch.r), b = part(on.index);
  const same = a.length === b.length && a.every((x, i) => x === b[i]);
  // Clusters are numbered by their smallest member, whatever the order of unions: hits compare as they are.
  const hits = (idx: ResembleIndex, q: number) => JSON.stringify(idx.query(idx.sketch(q), { exclude: q }));
  let hitDiff = 0;
  for (let q = 0; q < n; q += Math.max(1, Math.floor(n / 500))) if (hits(batch.r, q) !== hits(on.index, q)) hitDiff++;
  console.log(`check: ${a.length.toLocaleString('en')} clusters batch, ${b.length.toLocaleString('en')} online: ${same ? 'the same' : 'DIFFERENT'}; query hits differ for ${hitDiff} of ${Math.ceil(n / Math.max(1, Math.floor(n / 500)))} sampled pages`);
  if (!same || hitDiff) process.exitCode = 1;
}
