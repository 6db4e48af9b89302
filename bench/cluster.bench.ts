// Near-duplicate clustering at scale: 1,000,000 synthetic documents generated directly as sketch
// columns (deterministic seed), with planted near-duplicate groups, exact copies and boilerplate
// shingles shared by more documents than the common-shingle cap. Prints sketch → clusters time
// (wall and CPU), each phase, peak memory and bytes per document; the result is checked first.
// Run: node --import tsx bench/cluster.bench.ts [--docs N] [--kind mod|min] [--sort wasm|ts] [--only clusters|index] [--seed S]
// (peak memory is per process: run --only clusters and --only index apart for each stage's own figure)
// (--sort ts leaves the WebAssembly kernels unloaded, so the radix sort runs in TypeScript).
import { machine, machineLine } from '../src/bench/machine.js';
import type { ClusterColumns } from '../src/sketch/columns.js';
import { finalPhase } from '../src/cluster/clusters.js';
import { setAside } from '../src/cluster/equivalence.js';
import { saveIndex } from '../src/cluster/resemble-index/resemble-index.js';
import { candidatePairs, nearDuplicates, nonEmpty, priorities } from '../src/cluster/near-duplicates.js';
import { ResembleIndex } from '../src/cluster/resemble-index/resemble-index.js';
import { SetEstimator } from '../src/sketch/row-estimates.js';
import { init } from '../src/index.js';
import { Random } from '../src/random.js';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    docs: { type: 'string', default: '1000000' }, kind: { type: 'string', default: 'mod' }, seed: { type: 'string', default: '1' },
    only: { type: 'string', default: 'all' }, 'no-index': { type: 'boolean', default: false }, sort: { type: 'string', default: 'wasm' },
  },
});
const N = Number(args.docs);
const KIND = args.kind as 'mod' | 'min';
const SEED = Number(args.seed);
const ONLY = args.only as 'all' | 'clusters' | 'index';
const WITH_INDEX = !args['no-index'] && ONLY !== 'clusters';
const WITH_CLUSTERS = ONLY !== 'index';
const SORT = args.sort;
if (SORT === 'wasm') await init();
const S = 128; // MIN_s size for --kind min
const GROUPED = 0.3, COPIES = 0.1; // fractions of documents in planted groups / exact copies
const BOILERPLATE_DOCS = 1500; // documents holding each boilerplate value: more than the cap (1000)
const PLANTED = [0.95, 0.8, 0.65];
const BOILERPLATE = Math.max(1, Math.round((40 * N) / 1e6)); // 40 values at 1M documents

// The library's seeded generator: 32-bit draws, fast and deterministic.
const random = new Random(SEED);
const rnd = () => random.nextU32();
const below = (n: number) => random.int(n);

const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const rss = () => process.memoryUsage().rss;
const peak = () => process.resourceUsage().maxRSS * 1024;

console.log(machineLine(machine()));
console.log(`radix sort in ${SORT === 'wasm' ? 'WebAssembly' : 'TypeScript'}`);
let t0 = performance.now();

// --- generate: row lengths, planted groups, copies ---------------------------------------------
const len = new Uint32Array(N);
const group = new Int32Array(N).fill(-1);
const baseOf = new Int32Array(N).fill(-1); // near-duplicate variants: their base document
const target = new Float64Array(N); // planted resemblance to the base
const copyOf = new Int32Array(N).fill(-1);
let groups = 0;
for (let d = 0; d < N;) {
  const r = rnd() / 4294967296;
  if (r < GROUPED) {
    const size = Math.min(N - d, 2 + below(7));
    const L = KIND === 'min' ? S : 40 + below(80);
    for (let k = 0; k < size; k++) {
      len[d + k] = L; group[d + k] = groups;
      if (k > 0) { baseOf[d + k] = d; target[d + k] = PLANTED[(k - 1) % PLANTED.length]; }
    }
    groups++; d += size;
  } else if (r < GROUPED + COPIES && d > 0) {
    const src = below(d);
    copyOf[d] = src; len[d] = len[src]; group[d] = group[src]; d++;
  } else { len[d] = KIND === 'min' ? S : 20 + below(100); d++; }
}
const offsets = new Uint32Array(N + 1);
for (let d = 0; d < N; d++) offsets[d + 1] = offsets[d] + len[d];
const values = new BigUint64Array(offsets[N]);
const vw = new Uint32Array(values.buffer);
// Boilerplate: the same few values in BOILERPLATE_DOCS random unique documents each (replacing one value).
const boiler: [number, number][] = Array.from({ length: BOILERPLATE }, () => [rnd(), rnd()]);
const boilerAt = new Map<number, number>();
for (let b = 0; b < BOILERPLATE; b++) for (let k = 0; k < BOILERPLATE_DOCS;) {
  const d = below(N);
  if (group[d] < 0 && copyOf[d] < 0 && !boilerAt.has(d)) { boilerAt.set(d, b); k++; }
}
for (let d = 0; d < N; d++) {
  const o = offsets[d], L = len[d];
  if (copyOf[d] >= 0) { values.copyWithin(o, offsets[copyOf[d]], offsets[copyOf[d]] + L); continue; }
  let k = 0;
  if (baseOf[d] >= 0) {
    // Same size L, x = 2Lr/(1+r) values kept from the base: resemblance r (before sketch noise).
    const keep = Math.round((2 * L * target[d]) / (1 + target[d]));
    const bo = offsets[baseOf[d]];
    const start = below(L);
    for (; k < keep; k++) { const j = bo + ((start + k) % L); vw[2 * (o + k)] = vw[2 * j]; vw[2 * (o + k) + 1] = vw[2 * j + 1]; }
  }
  for (; k < L; k++) { vw[2 * (o + k)] = rnd(); vw[2 * (o + k) + 1] = rnd(); }
  const b = boilerAt.get(d);
  if (b !== undefined) { vw[2 * o] = boiler[b][1]; vw[2 * o + 1] = boiler[b][0]; }
  values.subarray(o, o + L).sort();
}
const fp = () => { const a = new BigUint64Array(N); const aw = new Uint32Array(a.buffer); for (let i = 0; i < 2 * N; i++) aw[i] = rnd(); return a; };
const rawFp = fp(), shingleFp = fp();
for (let d = 0; d < N; d++) if (copyOf[d] >= 0) { rawFp[d] = rawFp[copyOf[d]]; shingleFp[d] = shingleFp[copyOf[d]]; }
const cardinality = new Float64Array(N);
for (let d = 0; d < N; d++) cardinality[d] = KIND === 'min' ? 1000 : len[d] * 25;
const params = { w: 8, unit: 'word', markup: 'html', kind: KIND, s: KIND === 'min' ? S : 0, m: KIND === 'mod' ? 25 : 0, k: 0, superShingle: 0, seed: 0n } as const;
const set: ClusterColumns = { size: N, params, values, offsets, cardinality, rawFp, lexicalFp: rawFp, shingleFp, modulusLog2: new Uint8Array(N) };
const sketchBytes = values.byteLength + offsets.byteLength + cardinality.byteLength + rawFp.byteLength * 3 + N;
console.log(`generated ${N.toLocaleString('en')} ${KIND} sketches (${(values.length / N).toFixed(1)} values a document, ${groups.toLocaleString('en')} planted groups, `
  + `${copyOf.filter((c) => c >= 0).length.toLocaleString('en')} exact copies, ${BOILERPLATE} boilerplate values in ~${BOILERPLATE_DOCS} documents each) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
console.log(`sketch columns: ${mib(sketchBytes)} = ${(sketchBytes / N).toFixed(0)} bytes a document`);

if (WITH_CLUSTERS) {
  // --- sketch → clusters, end to end ---------------------------------------------------------------
  global.gc?.();
  const rss0 = rss();
  t0 = performance.now();
  let c0 = cpu();
  const nd = nearDuplicates(set);
  const wall = performance.now() - t0, cpuMs = cpu() - c0;
  const peak1 = peak();
  const c = nd.clusters;
  const s = nd.stats;

  // --- check: planted groups recovered, no cluster mixes two groups, boilerplate ignored ------------
  let pairs = 0, found = 0, mixed = 0, stray = 0;
  for (let d = 0; d < N; d++) {
    if (baseOf[d] < 0) continue;
    pairs++;
    if (c.clusterOf[d] >= 0 && c.clusterOf[d] === c.clusterOf[baseOf[d]]) found++;
  }
  let copies = 0, copiesFound = 0;
  for (let d = 0; d < N; d++) {
    if (copyOf[d] < 0) continue;
    copies++;
    if (c.clusterOf[d] >= 0 && c.clusterOf[d] === c.clusterOf[copyOf[d]]) copiesFound++;
  }
  for (let i = 0; i < c.count; i++) {
    const m = c.membersOf(i);
    const g = group[m[0]];
    if (g < 0) { if (!m.every((d) => copyOf[d] >= 0 || m.some((e) => copyOf[e] === d))) stray++; continue; }
    for (const d of m) if (group[d] !== g) { mixed++; break; }
  }
  const recall = found / pairs;
  console.log(`check: planted pairs in one cluster ${found}/${pairs} (${(100 * recall).toFixed(2)}%), exact copies ${copiesFound}/${copies}, `
    + `clusters mixing groups ${mixed}, ignored boilerplate values ${s.ignoredShingles}/${BOILERPLATE}`);
  if (recall < 0.99 || copiesFound !== copies || mixed > 0 || s.ignoredShingles !== BOILERPLATE) { console.error('CHECK FAILED'); process.exitCode = 1; }

  console.log(`sketch → clusters: ${(wall / 1000).toFixed(1)} s wall, ${(cpuMs / 1000).toFixed(1)} s CPU; ${c.count.toLocaleString('en')} clusters holding ${c.stats.clusteredDocuments.toLocaleString('en')} documents; `
    + `${s.identical.toLocaleString('en')} identical set aside; ${s.postings.toLocaleString('en')} postings; ${s.candidatePairs.toLocaleString('en')} candidate pairs, ${s.retainedPairs.toLocaleString('en')} kept, ${c.stats.acceptedPairs.toLocaleString('en')} joined`);
  console.log(`memory: RSS ${mib(rss0)} with the sketch columns; peak ${mib(peak1)} while clustering: ${mib(peak1 - rss0)} over the columns = ${((peak1 - rss0) / N).toFixed(0)} bytes a document`
    + ` (${((peak1) / N).toFixed(0)} bytes a document in all)`);
  const pairBytes = nd.pairs.count * 36, clusterBytes = N * 65;
  console.log(`kept after clustering: candidate pairs ${mib(pairBytes)} (36 bytes a pair), clusters + evidence ${mib(clusterBytes)} (65 bytes a document)`);

  // --- phases (the same work, timed one by one) -------------------------------------------------------
  const phase = (name: string, f: () => unknown) => { const t = performance.now(), u = cpu(); const r = f(); console.log(`  ${name.padEnd(34)} ${((performance.now() - t) / 1000).toFixed(2)} s wall, ${((cpu() - u) / 1000).toFixed(2)} s CPU`); return r; };
  console.log('phases:');
  const prio = priorities(N, 'first');
  const eq = phase('set aside identical documents', () => setAside(set, 'shingle', prio)) as ReturnType<typeof setAside>;
  const kept = nonEmpty(set, eq.kept);
  const cp = phase('postings + pair counting + estimates', () => candidatePairs(set, set, kept, 1000, 0.2)) as ReturnType<typeof candidatePairs>;
  phase('final phase (union-find, evidence)', () => finalPhase(N, eq, cp.pairs, { threshold: 0.5, verify: false }, true, prio, new SetEstimator(set)));
  phase('re-run final phase at 0.7', () => nd.recluster({ threshold: 0.7 }));
}

// --- the index: postings over every document ---------------------------------------------------------
if (WITH_INDEX) {
  t0 = performance.now(); const c0 = cpu();
  const index = new ResembleIndex(params);
  index.insertMany(set);
  index.query(index.sketch(0), { limit: 1 }); // the first query builds the postings
  const buildMs = performance.now() - t0, buildCpu = cpu() - c0;
  t0 = performance.now();
  const indexPeak = peak();
  const bytes = saveIndex(index);
  const saveMs = performance.now() - t0;
  t0 = performance.now();
  let hits = 0;
  for (let q = 0; q < 1000; q++) { const d = below(N); hits += index.query(index.sketch(d), { exclude: d }).length; }
  const queryMs = (performance.now() - t0) / 1000;
  console.log(`index: built and merged in ${(buildMs / 1000).toFixed(1)} s wall (${(buildCpu / 1000).toFixed(1)} s CPU), saved ${mib(bytes.length)} = ${(bytes.length / N).toFixed(0)} bytes a document in ${(saveMs / 1000).toFixed(1)} s; `
    + `query ${queryMs.toFixed(2)} ms (${(hits / 1000).toFixed(1)} hits); process peak ${mib(indexPeak)} built, ${mib(peak())} saved`);
}
