// The serial part of a `dups` run from its CPU profiles, a measure that holds on a busy machine
// (bench/scaling.mjs's serial time counts moments when the reading thread ran and no worker did,
// which a loaded machine fills with workers waiting for a core). Profile a run with
//
//   mkdir prof && cd prof && node --cpu-prof --cpu-prof-interval 1000 ../bench/dist-cli.mjs dups CRAWL --workers 2 --quiet --out /dev/null
//   node ../bench/serial-profile.mjs .
//
// (one .cpuprofile per thread: the reading thread's is *.0.001.cpuprofile). Prints the reading
// thread's busy time before sketching starts (start-up) and, after it, in the stages that run on
// it alone (putting the rows in DocId order after sketching, setting copies aside, the main-thread
// parts of prefix keys, postings and the walk's columns, the final phase, the output), and their
// sum as a share of every profiled thread's busy time. The profiler samples by the clock: on a
// loaded machine every thread's time stretches about alike, so compare shares, not seconds.
// As a check on the named stages it also prints the reading thread's busy time while no worker
// was busy (from the samples' timestamps, in 1 ms steps): that counts every stage, named or not.
import { readFileSync, readdirSync } from 'node:fs';
const dir = process.argv[2];
const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort();
const mainFile = files.find((f) => /\.0\.001\.cpuprofile$/.test(f));
const load = (f) => JSON.parse(readFileSync(`${dir}/${f}`, 'utf8'));
const busy = (p) => { const byId = new Map(p.nodes.map((n) => [n.id, n])); let t = 0; for (let i = 0; i < p.samples.length; i++) if (byId.get(p.samples[i]).callFrame.functionName !== '(idle)') t += (p.timeDeltas[i + 1] ?? 0) / 1e6; return t; };
const cats = { 'rows in order': ['scatterSketchSet'], 'set aside': ['setAside', 'kept', 'nonEmpty'], 'prefix keys': ['prefixKeys', 'prefixKeysOnPool'], postings: ['postingsOf', 'postingsOnPool', 'buildPostings'], 'walk columns': ['walkColumns', 'walkColumnsOnPool', 'walkBounds'], 'final phase': ['finalPhase'], output: ['clusterRecord', 'plainClusterRecord', 'withContentEvidence', 'write', 'end', 'reportContent'] };
const p = load(mainFile);
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map(); for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const sums = Object.fromEntries(Object.keys(cats).map((k) => [k, 0]));
let sketchStarted = false, startup = 0, t = 0;
for (let i = 0; i < p.samples.length; i++) {
  const dt = (p.timeDeltas[i + 1] ?? 0) / 1e6;
  let id = p.samples[i]; const leaf = byId.get(id).callFrame.functionName;
  const stack = []; while (id !== undefined) { stack.push(byId.get(id).callFrame.functionName); id = parent.get(id); }
  if (stack.includes('sketchCrawl')) sketchStarted = true;
  if (!sketchStarted && leaf !== '(idle)') { startup += dt; continue; }
  if (leaf === '(idle)') continue;
  // output: the command's loop after the pipeline (write under createRecordWriter), not writes during reading
  for (const [k, names] of Object.entries(cats)) {
    if (k === 'output' ? stack.includes('clusterRecord') || stack.includes('plainClusterRecord') || stack.includes('withContentEvidence') || (stack.includes('write') && stack.includes('run') && !stack.includes('findNearDuplicates') && !stack.includes('sketchCrawl')) : names.some((n) => stack.includes(n))) { sums[k] += dt; break; }
  }
}
const total = files.reduce((a, f) => a + busy(load(f)), 0);
const serial = startup + Object.values(sums).reduce((a, b) => a + b, 0);
console.log(`${dir}: busy (all profiled threads) ${total.toFixed(2)} s; start-up ${startup.toFixed(2)} s; ` + Object.entries(sums).map(([k, v]) => `${k} ${v.toFixed(2)} s`).join(', '));
console.log(`  serial ${serial.toFixed(2)} s = ${(100 * serial / total).toFixed(1)}% of the profiled threads' busy time`);

// the reading thread busy while no other profiled thread (the workers) was, in 1 ms steps, from
// the last sample of the crawl's reading on (sketchCrawl): every stage after it, named or not
const STEP = 1000;
let sketchEnd = p.startTime;
{ let t = p.startTime; for (let i = 0; i < p.samples.length; i++) { t += p.timeDeltas[i]; let id = p.samples[i];
  while (id !== undefined) { if (byId.get(id).callFrame.functionName === 'sketchCrawl') { sketchEnd = t; break; } id = parent.get(id); } } }
const busyMs = (q) => { const ids = new Map(q.nodes.map((n) => [n.id, n])); const on = new Set(); let t = q.startTime;
  for (let i = 0; i < q.samples.length; i++) { t += q.timeDeltas[i]; const dt = q.timeDeltas[i + 1] ?? 0;
    if (ids.get(q.samples[i]).callFrame.functionName === '(idle)') continue;
    for (let x = Math.floor(t / STEP); x < Math.floor((t + dt) / STEP); x++) on.add(x); }
  return on; };
const mainOn = busyMs(p), others = files.filter((f) => f !== mainFile).map((f) => busyMs(load(f)));
let alone = 0;
for (const x of mainOn) if (x * STEP >= sketchEnd && !others.some((o) => o.has(x))) alone++;
console.log(`  check: after the reading, the reading thread busy while no worker was ${(alone * STEP / 1e6).toFixed(2)} s (the named stages after it: ${(serial - startup - sums['rows in order']).toFixed(2)} s)`);
