// The candidate step of `dups` on one thread and on a worker pool, side by side in one process:
// the crawl is sketched once (as `dups` sketches it), then nearDuplicates and nearDuplicatesOnPool
// run over the same sketches in alternating rounds. Each result is checked against the other's
// (the same pair table to the bit) before any time counts. Printed per task, medians of the rounds:
// wall time, the calling thread's CPU time (Linux: /proc/thread-self; elsewhere not shown) and the
// whole process's (worker threads included).
//
// With --keys it compares the candidate keys instead, on this thread: every sketch value (the
// paper's), the prefix a pair must share one key of, and the prefix it must share two of (the
// default). Their clusters must be the same before any time counts; printed with the candidate
// pairs per page.
//
//   node --import tsx bench/candidates.bench.ts CRAWL.jsonl [--workers 2] [--rounds 7] [--chunks 32768,65536] [--keys]
//
// On a machine shared with other work, wall time follows what the others leave free: CPU time is
// what a loaded run measures (the pool's gain in wall time is the calling thread's CPU it frees).
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { init } from '../src/index.js';
import { findOptionsOf } from '../src/cli/commands/dups.js';
import { resolveNearDuplicateRun } from '../src/cluster/find.js';
import { nearDuplicates, nearDuplicatesOnPool, type NearDuplicates } from '../src/cluster/near-duplicates.js';
import { sketchCrawl } from '../src/stream/sketch-crawl.js';
import { createPool } from '../src/stream/pool-node.js';
import { machine, machineLine } from '../src/bench/machine.js';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : fallback; };
const crawl = argv.find((a, i) => !a.startsWith('--') && (i === 0 || !argv[i - 1].startsWith('--')));
if (!crawl) { console.error('usage: node --import tsx bench/candidates.bench.ts CRAWL.jsonl [--workers 2] [--rounds 7] [--chunks 32768,65536]'); process.exit(2); }
const workers = Number(flag('--workers', String(Math.max(2, availableParallelism()))));
const rounds = Number(flag('--rounds', '7'));
const chunks = flag('--chunks', '32768').split(',').map(Number);
const keys = argv.includes('--keys');

await init();
// sketched as `dups` sketches (content mode, default options), rows shared with the pool's workers
const { sketch, cluster } = resolveNearDuplicateRun(findOptionsOf({}, 'first').options, 'bench');
const pool = createPool({ workers });
const { set } = await sketchCrawl(crawl, { sketch, pool, sharedRows: true });

const threadCpu = existsSync('/proc/thread-self/stat')
  ? () => { const f = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; }
  : undefined;
const processCpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };

function same(x: NearDuplicates, y: NearDuplicates): boolean {
  const p = x.pairs, q = y.pairs;
  if (p.count !== q.count) return false;
  for (const c of ['a', 'b', 'hits', 'shared', 'resemblance', 'containmentAB', 'containmentBA'] as const) {
    for (let i = 0; i < p.count; i++) if (!Object.is(p[c][i], q[c][i])) return false;
  }
  return true;
}

const sameClusters = (x: NearDuplicates, y: NearDuplicates) => x.clusters.clusterOf.every((c, d) => c === y.clusters.clusterOf[d]);
const tasks: { name: string; run: () => Promise<NearDuplicates> }[] = keys ? [
  { name: 'prefix, 2 shared keys (default)', run: async () => nearDuplicates(set, cluster) },
  { name: 'prefix, 1 shared key', run: async () => nearDuplicates(set, { ...cluster, prefixHits: 1 }) },
  { name: 'every value keyed', run: async () => nearDuplicates(set, { ...cluster, prefix: 0 }) },
] : [
  { name: 'nearDuplicates (this thread)', run: async () => nearDuplicates(set, cluster) },
  ...chunks.map((chunkPairs) => ({ name: `nearDuplicatesOnPool, ${workers} workers, chunks of ${chunkPairs}`, run: () => nearDuplicatesOnPool(set, pool, { ...cluster, chunkPairs }) })),
];
const reference = await tasks[0].run();
const described = new Map<string, string>();
for (const t of tasks) {
  const got = t === tasks[0] ? reference : await t.run();
  if (keys ? !sameClusters(got, reference) : !same(got, reference)) throw new Error(`${t.name}: not the ${keys ? 'clusters' : 'pairs'} of nearDuplicates`);
  described.set(t.name, `prefix ${got.stats.prefix}, ${got.stats.candidatePairs} pairs (${(got.stats.candidatePairs / set.size).toFixed(1)} a page)`);
}

const before = machine();
const times = new Map(tasks.map((t) => [t.name, [] as { wall: number; thread?: number; cpu: number }[]]));
for (let r = 0; r < rounds; r++) {
  for (const t of r % 2 ? [...tasks].reverse() : tasks) {
    const w = performance.now(), th = threadCpu?.(), c = processCpu();
    await t.run();
    times.get(t.name)!.push({ wall: performance.now() - w, thread: th === undefined ? undefined : threadCpu!() - th, cpu: processCpu() - c });
  }
}
await pool.close();

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
console.log(`candidates: ${crawl}, ${set.size} pages, ${reference.stats.candidatePairs} candidate pairs; ${rounds} rounds, median ms`);
console.log(`before: ${machineLine(before)}`);
console.log(`after:  ${machineLine(machine())}`);
console.log('task                                                   wall  this thread CPU  process CPU');
for (const [name, runs] of times) {
  const thread = runs[0].thread === undefined ? '–' : median(runs.map((r) => r.thread!)).toFixed(0);
  console.log(`${name.padEnd(52)} ${median(runs.map((r) => r.wall)).toFixed(0).padStart(6)}  ${thread.padStart(15)}  ${median(runs.map((r) => r.cpu)).toFixed(0).padStart(11)}${keys ? `  ${described.get(name)}` : ''}`);
}
