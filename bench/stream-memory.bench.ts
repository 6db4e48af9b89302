// Peak memory of the streaming study, signatures and mirrors: each command runs in its own process
// (worker threads included in its peak RSS) on a crawl and on the same pages made about twice as
// large; the peak must not follow page size (the large crawl's within about 10% of the small one's).
// Rounds alternate the crawls, so load from other work falls on both.
//
//   node --import tsx bench/stream-memory.bench.ts SMALL.jsonl LARGE.jsonl [--commands study,signatures,mirrors]
//        [--workers 2] [--rounds 1] [--root DIR]
//
// The crawls: `eval/manuals/scale.ts --pages 600 --grow 1 --out SMALL.jsonl` and `--grow 2 --out
// LARGE.jsonl` (see eval/manuals/README.md). mirrors runs `--algorithm hybrid --verify` (every page
// sketched); study and signatures their defaults. --root runs the CLI of another checkout (its
// src/cli/main.ts), e.g. an older commit's, for a before/after; --workers 0 passes no --workers flag.
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { machine, machineLine } from '../src/bench/machine.js';

interface Run { seconds: number; cpu: number; rssMB: number; summary: string }

const here = dirname(fileURLToPath(import.meta.url));
const ARGS: Record<string, string[]> = { study: [], signatures: [], mirrors: ['--algorithm', 'hybrid', '--verify'] };

if (process.argv[2] === '--child') {
  // One command in this process: the CLI's own main, output discarded, the last stderr line kept.
  const [, , , root, command, file, workers] = process.argv;
  const { main } = await import(pathToFileURL(join(root, 'src', 'cli', 'main.ts')).href);
  let err = '';
  const t = performance.now();
  const argv = [command, file, ...ARGS[command], '--quiet', ...(workers === '0' ? [] : ['--workers', workers])];
  const code = await main(argv, { stdout: { write: () => true }, stderr: { write: (c: string) => (err += c), isTTY: false } });
  const seconds = (performance.now() - t) / 1000;
  if (code !== 0) { process.stderr.write(err); process.exit(code); }
  const u = process.resourceUsage();
  process.stdout.write(JSON.stringify({ seconds, cpu: (u.userCPUTime + u.systemCPUTime) / 1e6, rssMB: u.maxRSS / 1024, summary: err.trim().split('\n').pop() ?? '' }) + '\n');
  process.exit(0);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { commands: { type: 'string', default: 'study,signatures,mirrors' }, workers: { type: 'string', default: '2' }, rounds: { type: 'string', default: '1' }, root: { type: 'string' } },
});
if (positionals.length !== 2) {
  console.error('usage: node --import tsx bench/stream-memory.bench.ts SMALL.jsonl LARGE.jsonl [--commands study,signatures,mirrors] [--workers 2] [--rounds 1] [--root DIR]');
  process.exit(2);
}
const [small, large] = positionals.map((p) => resolve(p));
const root = resolve(values.root ?? join(here, '..'));
const commands = values.commands!.split(',').filter((c) => c in ARGS);
const rounds = Number(values.rounds);

function once(command: string, file: string): Run {
  const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', root, command, file, values.workers!], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`${command} ${file} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Run;
}

const MiB = 1024 * 1024;
console.log(machineLine(machine()));
console.log(`root ${root}; --workers ${values.workers === '0' ? '(not given)' : values.workers}; small ${(statSync(small).size / MiB).toFixed(0)} MiB, large ${(statSync(large).size / MiB).toFixed(0)} MiB; ${rounds} round(s), the highest peak kept`);
console.log('command      crawl  peak RSS MB  CPU s  seconds  large / small');
let worst = 0;
for (const command of commands) {
  const runs: Record<'small' | 'large', Run[]> = { small: [], large: [] };
  for (let i = 0; i < rounds; i++) for (const which of i % 2 ? (['large', 'small'] as const) : (['small', 'large'] as const)) runs[which].push(once(command, which === 'small' ? small : large));
  const peak = (rs: Run[]) => Math.max(...rs.map((r) => r.rssMB));
  const ratio = peak(runs.large) / peak(runs.small);
  worst = Math.max(worst, ratio);
  for (const which of ['small', 'large'] as const) {
    const rs = runs[which];
    const cpu = rs.reduce((a, r) => a + r.cpu, 0) / rs.length, seconds = rs.reduce((a, r) => a + r.seconds, 0) / rs.length;
    console.log(`${command.padEnd(12)} ${which.padEnd(5)}  ${peak(rs).toFixed(0).padStart(11)}  ${cpu.toFixed(1).padStart(5)}  ${seconds.toFixed(1).padStart(7)}  ${which === 'large' ? `${ratio.toFixed(2)}×` : ''}`);
  }
}
console.log(machineLine(machine()));
console.log(`largest ratio ${worst.toFixed(2)}× (target: within about 10%, ≤ 1.10×)`);
