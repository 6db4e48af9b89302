// What content mode costs the streaming pipeline's reading thread: `resemble dups CRAWL --workers N`
// with --content main and --content page, each run in its own process, alternating (so load from
// other work falls on all), several rounds. Per run: wall time, process CPU time (worker threads
// included), the reading (main) thread's own CPU time (Linux: /proc; with 2 workers it is the
// bottleneck, so its seconds are wall seconds on an idle machine), peak RSS.
//
//   node --import tsx bench/content/stream-cost.ts CRAWL [--workers 2] [--rounds 3] [--cli FILE]...
//
// --cli is the CLI module to run (anything exporting the CLI's `main`): a built `dist/cli.js`, or a
// checkout's `src/cli/main.ts`; default this checkout's built dist/cli.js (`npm run build` first).
// Given more than once (an older checkout's build beside this one), the CLIs take turns too.
// Prints each run, then per CLI the median of each mode and content main's extra over page.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { machine, machineLine } from '../../src/bench/machine.js';

interface Run { seconds: number; cpu: number; reading: number; rssMB: number }

const here = dirname(fileURLToPath(import.meta.url));

/** This thread's CPU seconds (user + system), or NaN where /proc is not there. */
function threadCpu(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return NaN;
  }
}

if (process.argv[2] === '--child') {
  // One run in this process: the CLI's own main, output discarded.
  const [, , , cli, file, content, workers] = process.argv;
  const { main } = await import(pathToFileURL(cli).href);
  let err = '';
  const t = performance.now(), c = threadCpu();
  const code = await main(['dups', file, '--quiet', '--workers', workers, '--content', content], { stdout: { write: () => true }, stderr: { write: (s: string) => (err += s), isTTY: false } });
  const seconds = (performance.now() - t) / 1000, reading = threadCpu() - c;
  if (code !== 0) { process.stderr.write(err); process.exit(code); }
  const u = process.resourceUsage();
  process.stdout.write(JSON.stringify({ seconds, cpu: (u.userCPUTime + u.systemCPUTime) / 1e6, reading, rssMB: u.maxRSS / 1024 }) + '\n');
  process.exit(0);
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { workers: { type: 'string', default: '2' }, rounds: { type: 'string', default: '3' }, cli: { type: 'string', multiple: true } } });
if (positionals.length !== 1) {
  console.error('usage: node --import tsx bench/content/stream-cost.ts CRAWL [--workers 2] [--rounds 3] [--cli FILE]...');
  process.exit(2);
}
const crawl = resolve(positionals[0]);
const clis = (values.cli ?? [join(here, '..', '..', 'dist', 'cli.js')]).map((c) => resolve(c));
const rounds = Number(values.rounds);

function once(cli: string, content: 'main' | 'page'): Run {
  const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', cli, crawl, content, values.workers!], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`${cli} dups --content ${content} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Run;
}

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const line = (what: string, r: Run) => `${what.padEnd(10)} ${r.seconds.toFixed(2).padStart(7)} ${r.cpu.toFixed(2).padStart(7)} ${r.reading.toFixed(2).padStart(9)} ${r.rssMB.toFixed(0).padStart(7)}`;
console.log(machineLine(machine()));
console.log(`dups ${crawl} --workers ${values.workers}; ${rounds} round(s), modes${clis.length > 1 ? ' and CLIs' : ''} taking turns`);
clis.forEach((c, k) => console.log(`CLI ${k + 1}: ${c}`));
console.log(`${clis.length > 1 ? 'CLI ' : ''}content   wall s   CPU s  reading s  RSS MB`);
const configs = clis.flatMap((cli, k) => (['main', 'page'] as const).map((content) => ({ cli, k, content })));
const runs = configs.map((): Run[] => []);
for (let i = 0; i < rounds; i++) {
  // each round starts one later in the list, so no configuration always runs first
  for (let j = 0; j < configs.length; j++) {
    const at = (i + j) % configs.length, { cli, k, content } = configs[at];
    const r = once(cli, content);
    runs[at].push(r);
    console.log(line(`${clis.length > 1 ? `${k + 1}   ` : ''}${content}`, r));
  }
}
const med = (rs: Run[]): Run => ({ seconds: median(rs.map((r) => r.seconds)), cpu: median(rs.map((r) => r.cpu)), reading: median(rs.map((r) => r.reading)), rssMB: median(rs.map((r) => r.rssMB)) });
const pct = (a: number, b: number) => `${a >= b ? '+' : ''}${(100 * (a / b - 1)).toFixed(1)}%`;
console.log('medians:');
clis.forEach((_, k) => {
  const m = med(runs[2 * k]), p = med(runs[2 * k + 1]);
  const tag = clis.length > 1 ? `${k + 1}   ` : '';
  console.log(line(`${tag}main`, m));
  console.log(line(`${tag}page`, p));
  console.log(`${clis.length > 1 ? `CLI ${k + 1}: ` : ''}content main over page: wall ${pct(m.seconds, p.seconds)}, CPU ${pct(m.cpu, p.cpu)}, reading thread ${pct(m.reading, p.reading)} (${(m.reading - p.reading).toFixed(2)} s)`);
});
console.log(machineLine(machine()));
