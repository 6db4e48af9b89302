// `resemble dups --engine duckdb` on a generated crawl of N pages: wall time, peak RSS (the CLI's
// process, worker threads and DuckDB included) and the most temporary disk used (DuckDB's folder,
// the sketch file and the page spill file, sampled every second), the load average of the machine
// during the run, and the in-memory engine beside it when asked, with a check that both printed
// the same clusters (their outputs compared byte for byte). The CPU time is the process's (user and
// system, every thread): on a shared machine it is the figure to compare across sizes.
//
//   npm run build && node --import tsx bench/pipeline-scale.ts --docs 1000000 --data DIR [--memory-limit 2GB] [--workers 2] [--memory] [--keep-output]
//
// The CLI runs from dist/ (the built package, as users run it), so build first.
// The crawl is written once to DIR/generated-N.jsonl (families of about four near-duplicate pages
// of 150–450 words from a Zipf-like vocabulary, a shared footer; the same bytes every time), and
// the temporary files go under DIR/tmp-N; each engine's output goes to DIR/out-ENGINE-N.jsonl
// (removed at the end unless --keep-output).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machine, machineLine } from '../src/bench/machine.js';

const argv = process.argv.slice(2);
const flag = (name: string, fallback?: string) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : fallback; };
const docs = Number(flag('--docs', '1000000'));
const data = flag('--data');
const memoryLimit = flag('--memory-limit', '2GB')!;
const workers = flag('--workers', '2')!;
if (!data || !Number.isInteger(docs) || docs < 10) {
  console.error('usage: node --import tsx bench/pipeline-scale.ts --docs N --data DIR [--memory-limit 2GB] [--workers 2] [--memory] [--keep-output]');
  process.exit(2);
}
if (!existsSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli.js'))) {
  console.error('dist/cli.js is missing: run `npm run build` first');
  process.exit(2);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35);
  h ^= h >>> 15; h = Math.imul(h, 0x2c1b3c6d); h ^= h >>> 12; h = Math.imul(h, 0x297a2d39); h ^= h >>> 15;
  return h >>> 0;
}
const VOCAB = Array.from({ length: 50_000 }, (_, i) => 'w' + i.toString(36));
const FOOTER = ' home about contact privacy policy terms of use copyright all rights reserved';

/** Page i: families of about four pages (a base text, then variants with a few percent of words replaced). */
function page(i: number): string {
  const family = Math.floor(i / 4) * 4 + (mix(i, 7) % 3 === 0 ? i % 4 : 0);
  const len = 150 + (mix(family, 1) % 300);
  const words = new Array<string>(len);
  for (let k = 0; k < len; k++) words[k] = VOCAB[Math.floor((mix(family, k + 11) / 2 ** 32) * (mix(family, k + 90_001) / 2 ** 32) * VOCAB.length)];
  if (i !== family) {
    const edits = 1 + (mix(i, 3) % Math.ceil(len / 15));
    for (let e = 0; e < edits; e++) words[mix(i, 100 + e) % len] = VOCAB[mix(i, 200 + e) % VOCAB.length];
  }
  return words.join(' ') + FOOTER;
}

async function generate(path: string): Promise<void> {
  if (existsSync(path)) return;
  const out = createWriteStream(path + '.part');
  for (let i = 0; i < docs; i++) {
    const line = JSON.stringify({ url: `http://site${i % 997}.example.org/p/${i}.html`, text: page(i) }) + '\n';
    if (!out.write(line)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r) => out.end(r));
  const { renameSync } = await import('node:fs');
  renameSync(path + '.part', path);
}

function folderSize(dir: string): number {
  let total = 0;
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    const p = join(dir, name);
    try {
      const s = statSync(p);
      total += s.isDirectory() ? folderSize(p) : s.blocks * 512;
    } catch { /* removed while walking */ }
  }
  return total;
}

interface Run { seconds: number; cpu: number; rssMB: number; diskGB: number; summary: string; load: { mean: number; max: number }; output: string }

async function run(engine: 'duckdb' | 'memory', crawl: string, tmp: string): Promise<Run> {
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const output = join(data!, `out-${engine}-${docs}.jsonl`);
  // the built package, as users run it (bin/resemble.js in a checkout runs the sources through tsx)
  const args = [join(root, 'bench', 'dist-cli.mjs'), 'dups', crawl, '--out', output, '--workers', workers];
  if (engine === 'duckdb') args.push('--engine', 'duckdb', '--memory-limit', memoryLimit, '--temp-dir', tmp);
  const started = performance.now();
  let peakDisk = 0, loadSum = 0, loadMax = 0, loadN = 0;
  const timer = setInterval(() => {
    peakDisk = Math.max(peakDisk, folderSize(tmp));
    const l = loadavg()[0];
    loadSum += l; loadMax = Math.max(loadMax, l); loadN++;
  }, 1000);
  // /usr/bin/time reports the peak RSS of the whole process (worker threads share it).
  const child = spawn('/usr/bin/time', ['-f', 'maxrss %M cpu %U %S', process.execPath, ...args], { env: { ...process.env, TMPDIR: tmp }, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  const code = await new Promise<number>((r) => child.on('close', (c) => r(c ?? 1)));
  clearInterval(timer);
  if (code !== 0) throw new Error(`${engine} run failed: ${err.slice(-2000)}`);
  const rss = Number(/maxrss (\d+)/.exec(err)?.[1] ?? NaN) / 1024;
  const times = /cpu ([\d.]+) ([\d.]+)/.exec(err);
  const cpu = times ? Number(times[1]) + Number(times[2]) : NaN;
  const summary = err.split('\n').find((l) => l.startsWith('dups:')) ?? '';
  return { seconds: (performance.now() - started) / 1000, cpu, rssMB: rss, diskGB: peakDisk / 1e9, summary, load: { mean: loadN ? loadSum / loadN : NaN, max: loadMax }, output };
}

/** Takes a file; returns its SHA-256 (hex), read as a stream. */
async function digest(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

mkdirSync(data, { recursive: true });
const crawl = join(data, `generated-${docs}.jsonl`);
let t = performance.now();
await generate(crawl);
console.log(`crawl: ${crawl}, ${docs} pages, ${(statSync(crawl).size / 2 ** 30).toFixed(2)} GiB (${((performance.now() - t) / 1000).toFixed(0)} s to make or find)`);
console.log(`before: ${machineLine(machine())}`);
const engines: ('duckdb' | 'memory')[] = argv.includes('--memory') ? ['duckdb', 'memory'] : ['duckdb'];
const digests: string[] = [];
for (const engine of engines) {
  t = performance.now();
  const r = await run(engine, crawl, join(data, `tmp-${docs}`));
  console.log(`${engine}${engine === 'duckdb' ? ` (memory limit ${memoryLimit})` : ''}: ${r.seconds.toFixed(0)} s, ${(docs / r.seconds).toFixed(0)} pages/s, CPU ${r.cpu.toFixed(0)} s (${(1e6 * r.cpu / docs).toFixed(0)} µs a page), peak RSS ${r.rssMB.toFixed(0)} MB, temp disk ${r.diskGB.toFixed(2)} GB; load average ${r.load.mean.toFixed(1)} (at most ${r.load.max.toFixed(1)}) on ${machine().cores} cores`);
  console.log(`  ${r.summary}`);
  digests.push(await digest(r.output));
  if (!argv.includes('--keep-output')) rmSync(r.output, { force: true });
}
if (digests.length === 2) console.log(digests[0] === digests[1] ? `same output from both engines (sha256 ${digests[0].slice(0, 16)}…)` : 'THE ENGINES PRINTED DIFFERENT OUTPUTS');
console.log(`after:  ${machineLine(machine())}`);
rmSync(join(data, `tmp-${docs}`), { recursive: true, force: true });
