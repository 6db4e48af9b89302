// Output linear in the pages on a crawl where one page is copied many times: 20,000 JSONL pages,
// 10,000 of them copies of one page (the rest distinct, linking within 50 hosts). `dups`,
// `signatures` and `study` run side by side, each in a fresh process, alternating, and the ratio
// of each to `dups` is printed with peak RSS. Checks before anything is timed: `signatures` prints
// one group of the 10,000 copies and no pair among them.
// Run: node --import tsx bench/copies.bench.ts [--dir DIR] [--rounds N]
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { machine } from '../src/bench/machine.js';
import { rng } from '../test/helpers/random.js';

const { values: args } = parseArgs({ options: { dir: { type: 'string' }, rounds: { type: 'string', default: '2' } } });
const dir = args.dir ?? join(tmpdir(), 'resemble-copies-bench');
mkdirSync(dir, { recursive: true });
const input = join(dir, 'copies.jsonl');
const bin = fileURLToPath(new URL('../bin/resemble.js', import.meta.url));

if (!existsSync(input)) {
  const r = rng(1);
  const vocab = Array.from({ length: 20_000 }, () => Math.floor(r() * 2 ** 40).toString(36));
  const text = () => Array.from({ length: 300 }, () => vocab[Math.floor(r() * vocab.length)]).join(' ');
  const copy = `<html><body><h1>The copied page</h1><p>${text()}</p><a href="http://site0.example/p1">one</a></body></html>`;
  const out = createWriteStream(input);
  for (let i = 0; i < 20_000; i++) {
    const s = Math.floor(r() * 50);
    const links = Array.from({ length: 5 }, () => `<a href="http://site${s}.example/p${Math.floor(r() * 10_000)}">x</a>`).join('');
    const line = i % 2 === 0 ? { url: `http://copies.example/c${i}`, html: copy } : { url: `http://site${s}.example/p${i}`, html: `<html><body><p>${text()}</p>${links}</body></html>` };
    if (!out.write(JSON.stringify(line) + '\n')) await new Promise<void>((ok) => out.once('drain', () => ok()));
  }
  out.end();
  await new Promise<void>((ok) => out.on('finish', () => ok()));
}

/** Runs one command in a fresh process; returns seconds, peak RSS (bytes) and standard output. */
function run(command: string): { seconds: number; rss: number; out: string } {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, bin, command, input, '-q'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`${command} failed: ${r.stderr}`);
  const [seconds, kb] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return { seconds, rss: kb * 1024, out: r.stdout };
}

const m = machine();
console.log(`copies: 20,000 JSONL pages, 10,000 copies of one (Node ${process.version}, ${m.cores} cores, load ${m.load[0].toFixed(1)})`);
const first = run('signatures');
const records = first.out.trim().split('\n').map((l) => JSON.parse(l));
const groups = records.filter((x) => 'group' in x), pairs = records.filter((x) => 'a' in x);
const big = groups.find((g) => g.size === 10_000);
if (!big || big.pairsListed !== false || pairs.some((p) => p.a.startsWith('http://copies.example/') && p.b.startsWith('http://copies.example/'))) {
  throw new Error('signatures: expected one group of the 10,000 copies and no pair among them');
}
const times: Record<string, number[]> = { dups: [], signatures: [], study: [] };
const rss: Record<string, number> = {};
for (let i = 0; i < Number(args.rounds); i++) {
  for (const c of Object.keys(times)) {
    const r = run(c);
    times[c].push(r.seconds);
    rss[c] = Math.max(rss[c] ?? 0, r.rss);
  }
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
for (const c of Object.keys(times)) {
  console.log(`${c.padEnd(10)} ${mean(times[c]).toFixed(1).padStart(6)} s  (${times[c].map((t) => t.toFixed(1)).join(', ')})  ${(mean(times[c]) / mean(times.dups)).toFixed(2)}× dups  peak RSS ${(rss[c] / (1 << 20)).toFixed(0)} MiB`);
}
console.log(`signatures output: ${records.length} records (${groups.length} groups, ${pairs.length} pairs), ${(first.out.length / 1e6).toFixed(1)} MB`);
