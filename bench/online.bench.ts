// Deduplicating while crawling: page by page, query the index for a near-duplicate and insert the
// page, against building the same index in one batch — in one run, on the same pages. Prints the
// ratio (online / batch, index only and with sketching), the per-page cost at checkpoints (the
// average over the whole run up to there: amortized, merges included, and over the last window),
// and checks first that the online index ends with the batch index's clusters and query hits.
// Run: node --import tsx bench/online.bench.ts --pages PATH [--docs N] [--copies] [--checkpoints 10000,100000]
//        [--query-cap N] [--no-sketch] [--no-check]
// PATH is a .jsonl file ({url, html|text} per line) or a folder of .html files (walked in sorted
// order; URLs from the relative paths). With --copies, pages past the end of PATH are edited copies
// (2% of words replaced, deterministic) on other hosts, in shuffled order: mirrors as a crawl meets them.
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { machine, machineLine } from '../src/bench/machine.js';
import { ResembleIndex } from '../src/cluster/resemble-index.js';
import { init, sketch, sketchMany } from '../src/index.js';

const flag = (name: string, fallback?: string) => { const i = process.argv.indexOf(name); return i >= 0 ? process.argv[i + 1] : fallback; };
const PAGES = flag('--pages', process.env.RESEMBLE_PAGES);
if (!PAGES) { console.log('online: skipped (give --pages PATH or RESEMBLE_PAGES: a .jsonl crawl or a folder of HTML pages)'); process.exit(0); }
const COPIES = process.argv.includes('--copies');
const CHECK = !process.argv.includes('--no-check');
const SKETCH = !process.argv.includes('--no-sketch');
const QUERY_CAP = flag('--query-cap') === undefined ? undefined : Number(flag('--query-cap'));
await init();

// --- pages ----------------------------------------------------------------------------------------
function loadPages(path: string): { url: string; html: string }[] {
  if (path.endsWith('.jsonl')) {
    return readFileSync(path, 'utf8').split('\n').filter((l) => l.trim()).map((l) => {
      const r = JSON.parse(l) as { url: string; html?: string; text?: string };
      return { url: r.url, html: r.html ?? r.text ?? '' };
    });
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
const N = Number(flag('--docs', String(real.length)));
let seed = 12345;
const rnd = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 2 ** 32; };
const pages = real.slice(0, N);
for (let c = 1; pages.length < N; c++) {
  if (!COPIES) break;
  for (const p of real) {
    if (pages.length >= N) break;
    const html = p.html.replace(/>([^<]+)</g, (_m, t: string) => '>' + t.replace(/[A-Za-z]{2,}/g, (w) => (rnd() < 0.02 ? `edit${c}x${Math.floor(rnd() * 26)}` : w)) + '<');
    pages.push({ url: p.url.replace('://origin.example/', `://mirror${c}.example/`).replace(/^(https?:\/\/)([^/]+)/, `$1mirror${c}.$2`), html });
  }
}
if (COPIES) {
  // A crawl meets mirrors interleaved with originals: shuffle past the first real pages.
  for (let i = pages.length - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [pages[i], pages[j]] = [pages[j], pages[i]]; }
}
const n = pages.length;
const mb = pages.reduce((a, p) => a + p.html.length, 0) / 1e6;
const checkpoints = (flag('--checkpoints') ?? '').split(',').filter(Boolean).map(Number).filter((c) => c <= n);
if (!checkpoints.includes(n)) checkpoints.push(n);
console.log(machineLine(machine()));
console.log(`${n.toLocaleString('en')} pages (${real.length.toLocaleString('en')} real${COPIES ? ', the rest edited copies' : ''}), ${mb.toFixed(0)} MB; query commonCap ${QUERY_CAP ?? 'none'}`);

const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const timed = <T>(f: () => T): { r: T; wall: number; cpu: number } => { const t = performance.now(), c = cpu(); const r = f(); return { r, wall: performance.now() - t, cpu: cpu() - c }; };
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const urls = pages.map((p) => p.url);
const queryOptions = QUERY_CAP === undefined ? { limit: 1 } : { limit: 1, commonCap: QUERY_CAP };

// --- batch: sketchMany, then build the index (clusters and postings) -------------------------------
const sk = timed(() => sketchMany(pages.map((p) => p.html)));
const set = sk.r;
const batch = timed(() => { const index = ResembleIndex.build(set, { urls }); index.compact(); return index; });
console.log(`batch: sketchMany ${s(sk.wall)} wall / ${s(sk.cpu)} CPU; build + postings ${s(batch.wall)} wall / ${s(batch.cpu)} CPU`);

// --- online, pre-sketched: query then insert, page by page ------------------------------------------
function online(withSketch: boolean) {
  const index = new ResembleIndex(set.params);
  const marks: { at: number; wall: number; cpu: number }[] = [];
  let dupes = 0;
  const t0 = performance.now(), c0 = cpu();
  const windowAt = checkpoints.map((c) => c - Math.max(1, Math.floor(c / 10)));
  for (let i = 0; i < n; i++) {
    const q = withSketch ? sketch(pages[i].html) : set.get(i);
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
if (CHECK) {
  const part = (idx: ResembleIndex) => idx.clusters().map((m) => Array.from(m).join(',')).sort();
  const a = part(batch.r), b = part(on.index);
  const same = a.length === b.length && a.every((x, i) => x === b[i]);
  let hitDiff = 0;
  for (let q = 0; q < n; q += Math.max(1, Math.floor(n / 500))) {
    const x = JSON.stringify(batch.r.queryDoc(q)), y = JSON.stringify(on.index.queryDoc(q));
    if (x !== y) hitDiff++;
  }
  console.log(`check: ${a.length.toLocaleString('en')} clusters batch, ${b.length.toLocaleString('en')} online: ${same ? 'the same' : 'DIFFERENT'}; query hits differ for ${hitDiff} of ${Math.ceil(n / Math.max(1, Math.floor(n / 500)))} sampled pages`);
  if (!same || hitDiff) process.exitCode = 1;
}
