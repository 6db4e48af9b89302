// In-memory vs DuckDB on the same generated corpus: documents per second end to end (sketching
// included) and peak resident memory, each mode in its own process so peaks do not mix.
//
//   node --import tsx bench/scale.bench.ts [--docs N] [--mode both|memory|duckdb] [--memory-limit 1GB] [--batch N]
//
// The in-memory mode keeps every sketch (SketchSet) and runs nearDuplicates; the DuckDB mode sketches
// in batches, appends each batch's (key, doc) and (doc, length, cardinality) rows to the engine and
// drops them, then runs the SQL pipeline under the memory limit. Both cluster with equivalence off,
// so their pairs must agree; the parent checks that before printing figures.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { init, sketchMany, type SketchManyOptions } from '../src/index.js';
import { nearDuplicates } from '../src/cluster/near-duplicates.js';
import { runPipeline, type PipelineBatch } from '../src/scale/pipeline.js';
import { keyRows, sizeRows } from '../src/scale/rows.js';
import { parseArgs } from 'node:util';

interface Args { docs: number; mode: string; memoryLimit: string; batch: number; child: boolean }

function parse(argv: string[]): Args {
  const { values: v } = parseArgs({
    args: argv,
    options: {
      docs: { type: 'string', default: '100000' }, mode: { type: 'string', default: 'both' },
      'memory-limit': { type: 'string', default: '1GB' }, batch: { type: 'string', default: '50000' }, child: { type: 'boolean', default: false },
    },
  });
  const a: Args = { docs: Number(v.docs), mode: v.mode, memoryLimit: v['memory-limit'], batch: Number(v.batch), child: v.child };
  if (!Number.isInteger(a.docs) || a.docs < 10) throw new Error(`--docs: expected an integer ≥ 10, got ${a.docs}`);
  if (!['both', 'memory', 'duckdb'].includes(a.mode)) throw new Error(`--mode: expected both|memory|duckdb, got ${a.mode}`);
  return a;
}

const SKETCH: SketchManyOptions = { kind: 'min', s: 128, w: 8, markup: 'text' };
const FOOTER = ' home about contact privacy policy terms of use copyright all rights reserved';

/** A 32-bit hash of two integers (for the corpus generator; fixed, so the corpus is the same every run). */
function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35);
  h ^= h >>> 15; h = Math.imul(h, 0x2c1b3c6d); h ^= h >>> 12; h = Math.imul(h, 0x297a2d39); h ^= h >>> 15;
  return h >>> 0;
}

const VOCAB = Array.from({ length: 50_000 }, (_, i) => 'w' + i.toString(36));

/**
 * Document i, generated on demand: families of about four pages (a base text of 150–450 words
 * drawn from a Zipf-like vocabulary, then variants with a few percent of the words replaced), and a
 * shared footer whose shingles are common.
 */
function documentText(i: number): string {
  const family = Math.floor(i / 4) * 4 + (mix(i, 7) % 3 === 0 ? i % 4 : 0);
  const len = 150 + (mix(family, 1) % 300);
  const words = new Array<string>(len);
  for (let k = 0; k < len; k++) {
    const u = mix(family, k + 11) / 2 ** 32, v = mix(family, k + 90_001) / 2 ** 32;
    words[k] = VOCAB[Math.floor(u * v * VOCAB.length)];
  }
  if (i !== family) {
    const edits = 1 + (mix(i, 3) % Math.ceil(len / 15));
    for (let e = 0; e < edits; e++) words[mix(i, 100 + e) % len] = VOCAB[mix(i, 200 + e) % VOCAB.length];
  }
  return words.join(' ') + FOOTER;
}

/** Documents first..first+count-1 as a lazy array (nothing kept after it is sketched). */
function documents(first: number, count: number): ArrayLike<string> {
  return new Proxy({ length: count } as ArrayLike<string>, {
    get(target, key) {
      if (typeof key === 'string' && /^\d+$/.test(key)) return documentText(first + Number(key));
      return Reflect.get(target, key);
    },
  });
}

interface Result { mode: string; docs: number; seconds: number; sketchSeconds: number; clusterSeconds: number; peakRssMB: number; baseRssMB: number; pairs: number; pairHash: number; clustered: number; stages?: Record<string, number> }

function pairHash(count: number, a: ArrayLike<number>, b: ArrayLike<number>): number {
  let h = 0;
  for (let i = 0; i < count; i++) h = (Math.imul(h, 31) + mix(a[i], b[i])) >>> 0;
  return h;
}

async function inMemory(n: number): Promise<Result> {
  const t0 = performance.now();
  const set = sketchMany(documents(0, n), SKETCH);
  const t1 = performance.now();
  const nd = nearDuplicates(set, { equivalence: 'none' });
  const t2 = performance.now();
  return {
    mode: 'memory', docs: n, seconds: (t2 - t0) / 1000, sketchSeconds: (t1 - t0) / 1000, clusterSeconds: (t2 - t1) / 1000,
    peakRssMB: process.resourceUsage().maxRSS / 1024, baseRssMB, pairs: nd.pairs.count, pairHash: pairHash(nd.pairs.count, nd.pairs.a, nd.pairs.b),
    clustered: nd.clusters.stats.clusteredDocuments,
  };
}

async function withDuckDB(n: number, memoryLimit: string, batch: number): Promise<Result> {
  const t0 = performance.now();
  let sketchMs = 0;
  function* batches(): Generator<PipelineBatch> {
    for (let first = 0; first < n; first += batch) {
      const t = performance.now();
      const set = sketchMany(documents(first, Math.min(batch, n - first)), SKETCH);
      sketchMs += performance.now() - t;
      yield { keys: keyRows(set, { docBase: first }), sizes: sizeRows(set, { docBase: first }) };
    }
  }
  // The spill cap keeps a runaway plan from filling the disk of a shared machine.
  const r = await runPipeline({ batches: batches(), s: SKETCH.s, memoryLimit, maxTempSize: '30GB', documents: n });
  const t1 = performance.now();
  let clustered = 0;
  const size = new Uint32Array(n);
  for (let d = 0; d < n; d++) size[r.labels[d]]++;
  for (let d = 0; d < n; d++) if (size[r.labels[d]] > 1) clustered++;
  return {
    mode: 'duckdb', docs: n, seconds: (t1 - t0) / 1000, sketchSeconds: sketchMs / 1000, clusterSeconds: (t1 - t0 - sketchMs) / 1000,
    peakRssMB: process.resourceUsage().maxRSS / 1024, baseRssMB, pairs: r.pairs.count, pairHash: pairHash(r.pairs.count, r.pairs.a, r.pairs.b), clustered,
    stages: r.stats.seconds as Record<string, number>,
  };
}

const args = parse(process.argv.slice(2));
let baseRssMB = 0;
if (args.child) {
  await init();
  // What the process holds before any document: Node, the WebAssembly module (and later DuckDB's library).
  baseRssMB = process.memoryUsage().rss / 2 ** 20;
  const result = args.mode === 'memory' ? await inMemory(args.docs) : await withDuckDB(args.docs, args.memoryLimit, args.batch);
  process.stdout.write(JSON.stringify(result) + '\n');
} else {
  const modes = args.mode === 'both' ? ['memory', 'duckdb'] : [args.mode];
  const results: Result[] = [];
  for (const mode of modes) {
    const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', '--mode', mode, '--docs', String(args.docs),
      '--memory-limit', args.memoryLimit, '--batch', String(args.batch)], { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (child.status !== 0) { process.stderr.write(child.stderr); throw new Error(`${mode} run failed (exit ${child.status})`); }
    results.push(JSON.parse(child.stdout.trim().split('\n').pop()!) as Result);
  }
  if (results.length === 2) {
    const [m, d] = results;
    if (m.pairs !== d.pairs || m.pairHash !== d.pairHash || m.clustered !== d.clustered) {
      throw new Error(`modes disagree: memory ${m.pairs} pairs / ${m.clustered} clustered, duckdb ${d.pairs} / ${d.clustered}`);
    }
  }
  console.log(`scale: ${args.docs} generated documents (MIN_128, w = 8), DuckDB memory limit ${args.memoryLimit}`);
  console.log('mode    docs/s   total s  sketch s  cluster s  peak RSS MB  pairs     clustered docs');
  for (const r of results) {
    console.log(`${r.mode.padEnd(7)} ${(r.docs / r.seconds).toFixed(0).padStart(7)}  ${r.seconds.toFixed(1).padStart(7)}  ${r.sketchSeconds.toFixed(1).padStart(8)}  ${r.clusterSeconds.toFixed(1).padStart(9)}  ${r.peakRssMB.toFixed(0).padStart(11)}  ${String(r.pairs).padEnd(9)} ${r.clustered}`);
  }
  for (const r of results) if (r.stages) console.log(`${r.mode} stages (s): ${Object.entries(r.stages).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}`);
  const mem = results.find((r) => r.mode === 'memory');
  if (mem) {
    const perDoc = ((mem.peakRssMB - mem.baseRssMB) * 2 ** 20) / mem.docs;
    console.log(`in-memory: ${perDoc.toFixed(0)} bytes of peak RSS per document above a ${mem.baseRssMB.toFixed(0)} MB base; a 24 GB machine holds about ${(24 * 2 ** 30 / perDoc / 1e6).toFixed(1)}M documents this way`);
  }
  for (const r of results) console.log(`${r.mode}: 30M documents at this rate ≈ ${(30e6 / (r.docs / r.seconds) / 3600).toFixed(1)} h on one machine (linear projection)`);
}
