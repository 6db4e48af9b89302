// The peers table: resemble beside rensa, datasketch and datatrove on the same pages in the same
// run, every row in a process of its own (so each has its own peak RSS), their runs interleaved
// round by round (so a change in the machine's load falls on all of them alike). resemble's rows
// run ./contender.ts; the Python peers run bench/peers.py in the virtual environment of
// ./python.ts. The peers take text: every one is given resemble's canonical text of each page
// (computed before timing), and each is timed from that text in to its signatures out.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { shingleValuesRef } from '../reference/shingles.js';
import { minSRef } from '../reference/sketch.js';
import { serializeSketchSet } from '../sketch/serialize.js';
import { sketchMany } from '../sketch/sketch.js';
import { canonicalize } from '../sketch/tokens.js';
import type { Corpus } from './corpus.js';
import type { Clock } from './measure.js';
import { median } from './measure.js';
import { benchPython } from './python.js';
import type { BenchResult } from './report.js';
import { checkFailed, checkSketches, corpusLabel, type BenchTask } from './tasks.js';

/** Options of the peers table. */
export interface ContenderOptions {
  /** Interleaved rounds; each row's median is reported. Default 3. */
  rounds?: number;
  clock: Clock;
  /** The Python peers' virtual environment (created when missing). */
  venv: string;
  /** Progress lines (creating the environment, each round). */
  log?: (line: string) => void;
}

interface Row {
  task: BenchTask;
  /** The process: resemble's contender kind, or a bench/peers.py peer. */
  ours?: string;
  peer?: string;
  /** Hash values per signature the peer must return. */
  length?: number;
}

const W = 8;

/** The Python peers, in table order: what each does to a page's text is in bench/peers.py. */
const PEERS: Array<{ peer: string; name: string; length: number; note: string }> = [
  { peer: 'rensa-r', name: 'rensa RMinHash', length: 128, note: 'rensa VERSION, RMinHash.digest_matrix_from_token_sets(…, num_perm=128), its batch path: each page\'s text split into words and joined into 8-word shingles in Python, then one call for all pages (RAYON_NUM_THREADS=1)' },
  { peer: 'rensa-c', name: 'rensa CMinHash', length: 128, note: 'rensa VERSION, CMinHash.digests_from_token_sets(…, num_perm=128), its batch path, on the same shingles built the same way' },
  { peer: 'rensa-r-given', name: 'rensa RMinHash (shingles given)', length: 128, note: 'rensa VERSION, the same call with the shingle lists built before timing: rensa\'s kernel alone' },
  { peer: 'rensa-c-given', name: 'rensa CMinHash (shingles given)', length: 128, note: 'rensa VERSION, the same call with the shingle lists built before timing' },
  { peer: 'rensa-rho-given', name: 'rensa RMinHash rho (shingles given)', length: 128, note: 'rensa VERSION, RMinHash.digest_matrix_from_token_sets_rho, the shingle lists built before timing: rensa\'s sampled pipeline, which reads only some token positions (not a MinHash of the whole set)' },
  { peer: 'datasketch', name: 'datasketch', length: 128, note: 'datasketch VERSION, MinHash.bulk(…, num_perm=128) over each page\'s 8-word shingles (str.split, " ".join, UTF-8)' },
  { peer: 'datatrove', name: 'datatrove MinHash stage', length: 112, note: 'datatrove VERSION, MinhashDedupSignature.get_shingles(text) and .get_signature(…) per page (its defaults: its text normalization, spaCy word tokenizer, 5-gram shingles, xxhash64, 14 buckets × 8 hashes); the signature files the stage would write are not written' },
];

/** A contender process answering one JSON line per command. */
class Contender {
  private lines: Interface;
  private waiting: Array<(line: string | undefined) => void> = [];
  private stderr = '';
  constructor(private proc: ChildProcess) {
    this.lines = createInterface({ input: proc.stdout! });
    this.lines.on('line', (line) => this.waiting.shift()?.(line));
    this.lines.on('close', () => { for (const w of this.waiting.splice(0)) w(undefined); });
    proc.stderr!.on('data', (d: Buffer) => { this.stderr = (this.stderr + d.toString()).slice(-4000); });
    proc.on('error', (e) => { this.stderr += e.message; });
  }

  /** Sends a command; returns its reply, or throws with the process's last error line. */
  ask<T>(command: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push((line) => {
        if (line === undefined) { reject(new Error(this.stderr.trim().split('\n').at(-1) || 'the process ended')); return; }
        const reply = JSON.parse(line) as T & { error?: string };
        if (reply.error) reject(new Error(reply.error)); else resolve(reply);
      });
      this.proc.stdin!.write(command + '\n');
    });
  }

  close(): void { this.proc.stdin!.end(); }
}

/** resemble's contender script: contender.js beside this module in the built package, the .ts sibling (through tsx) from sources. */
function contenderArgs(): string[] {
  const js = new URL('./contender.js', import.meta.url);
  if (existsSync(fileURLToPath(js))) return [fileURLToPath(js)];
  return ['--import', import.meta.resolve('tsx'), fileURLToPath(new URL('./contender.ts', import.meta.url))];
}

/** Takes the pages' texts; checks the smallest one's text sketch against the BigInt reference. */
function checkTextSketch(name: string, texts: string[]): void {
  let small = 0;
  for (let i = 1; i < texts.length; i++) if (texts[i].length < texts[small].length) small = i;
  const want = minSRef(shingleValuesRef(texts[small], { markup: 'text' }), 128);
  const got = [...sketchMany([texts[small]], { markup: 'text' }).get(0).values];
  if (got.join() !== want.join()) throw checkFailed(name, `page ${small}: text sketch differs from the BigInt reference`);
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/**
 * Takes the corpus; returns the peers table's results: resemble (page text → sketch, raw HTML →
 * sketch on both builds), the byte-loop ceiling over the HTML, and the Python peers (skip rows
 * saying why when they cannot run), each checked, then timed in interleaved rounds.
 */
export async function contenderResults(corpus: Corpus, options: ContenderOptions): Promise<BenchResult[]> {
  const rounds = options.rounds ?? 3;
  const log = options.log ?? (() => {});
  const texts = corpus.docs.map((d) => canonicalize(d));
  const textBytes = texts.reduce((a, t) => a + Buffer.byteLength(t), 0);
  const input = `${corpusLabel(corpus)} (${(textBytes / 2 ** 20).toFixed(1)} MiB of text)`;
  const base = { section: 'peers', input, docs: corpus.docs.length, check() {}, run: () => 0 } as const;
  const rows: Row[] = [
    { ours: 'text', task: { ...base, role: 'ours', name: 'resemble sketchMany, page text', bytes: textBytes, vsPeers: true, note: `sketchMany(texts, { markup: 'text' }): the same canonical texts the peers get, as JavaScript strings (UTF-8 encoding timed), → ${W}-token shingles → MIN_128 sketch and fingerprints` } },
    { ours: 'html-simd', task: { ...base, role: 'ours', name: 'resemble sketchMany, raw HTML (SIMD)', bytes: corpus.bytes, vsPeers: true, note: 'sketchMany(pages) on the raw HTML bytes: markup dropped, references decoded, case folded, then as above (the peers are given the text this yields, untimed)' } },
    { ours: 'html-scalar', task: { ...base, role: 'ours', name: 'resemble sketchMany, raw HTML (scalar)', bytes: corpus.bytes, vsPeers: true } },
    { ours: 'byte-loop', task: { ...base, role: 'ceiling', name: 'byte loop, bytes in place (ceiling)', bytes: corpus.bytes, note: 'the pages copied into WebAssembly memory once before timing, then every byte of each page read once, one load and one add a byte (bl_bytes, one call a page): the plain scalar loop a byte-at-a-time kernel is bounded by; sketchMany\'s rows also copy each page in' } },
    ...PEERS.map((p) => ({ peer: p.peer, length: p.length, task: { ...base, role: 'peer', name: p.name, bytes: textBytes, note: p.note } as BenchTask })),
  ];
  // What resemble's processes must return: the sketches made here, checked against the reference.
  checkSketches('resemble sketchMany', corpus.docs);
  checkTextSketch('resemble sketchMany, page text', texts);
  const want: Record<string, string> = {
    text: sha256(serializeSketchSet(sketchMany(texts, { markup: 'text' }))),
    'html-simd': sha256(serializeSketchSet(sketchMany(corpus.docs))),
  };
  want['html-scalar'] = want['html-simd'];

  const dir = mkdtempSync(join(tmpdir(), 'resemble-peers-'));
  const procs = new Map<Row, Contender>();
  const skipped = new Map<Row, string>();
  try {
    writeFileSync(join(dir, 'texts.json'), JSON.stringify(texts));
    const offsets = [0];
    for (const d of corpus.docs) offsets.push(offsets[offsets.length - 1] + d.length);
    writeFileSync(join(dir, 'html.bin'), Buffer.concat(corpus.docs));
    writeFileSync(join(dir, 'html.json'), JSON.stringify(offsets));
    const py = benchPython(options.venv, log);
    const env = { ...process.env, RAYON_NUM_THREADS: '1', OMP_NUM_THREADS: '1', MKL_NUM_THREADS: '1' };
    for (const row of rows) {
      if (row.peer && 'skip' in py) { skipped.set(row, py.skip); continue; }
      const proc = row.ours
        ? spawn(process.execPath, [...contenderArgs(), row.ours, dir, options.clock], { stdio: ['pipe', 'pipe', 'pipe'] })
        : spawn((py as { python: string }).python, [(py as { script: string }).script, row.peer!, join(dir, 'texts.json'), options.clock], { stdio: ['pipe', 'pipe', 'pipe'], env });
      procs.set(row, new Contender(proc));
    }
    // check (and warm up) each, in its own process
    for (const [row, c] of procs) {
      log(`checking ${row.task.name}`);
      try {
        const r = await c.ask<{ sha256?: string; sum?: number; want?: number; signatures?: number; length?: number; first?: number[]; version?: string }>('check');
        if (row.ours === 'byte-loop') {
          if (r.sum !== r.want) throw checkFailed(row.task.name, `byte sum ${r.sum} ≠ ${r.want} (the pages copied for each call)`);
          continue;
        }
        if (row.ours) {
          if (r.sha256 !== want[row.ours]) throw checkFailed(row.task.name, 'its sketches differ from sketchMany\'s in this process');
          continue;
        }
        if (r.signatures !== corpus.docs.length || r.length !== row.length || !r.first?.length) throw checkFailed(row.task.name, `expected ${corpus.docs.length} signatures of ${row.length} values, got ${r.signatures} of ${r.length}`);
        row.task = { ...row.task, note: row.task.note?.replace('VERSION', r.version ?? '?') };
      } catch (e) {
        if (row.ours) throw e;
        skipped.set(row, (e as Error).message);
        c.close();
        procs.delete(row);
      }
    }
    const times = new Map<Row, number[]>();
    const live = [...procs.keys()];
    for (let r = 0; r < rounds; r++) {
      log(`round ${r + 1} of ${rounds}`);
      // each round starts one row later, so no row always runs first
      for (let i = 0; i < live.length; i++) {
        const row = live[(i + r) % live.length];
        const { ms } = await procs.get(row)!.ask<{ ms: number }>('run');
        times.set(row, [...(times.get(row) ?? []), ms]);
      }
    }
    const results: BenchResult[] = [];
    for (const row of rows) {
      const c = procs.get(row);
      if (!c) {
        results.push({ task: { ...row.task, name: `${row.task.name} (skipped: ${skipped.get(row)})`, note: undefined }, ms: NaN, runs: 0 });
        continue;
      }
      const { maxrss } = await c.ask<{ maxrss: number }>('rss');
      results.push({ task: row.task, ms: median(times.get(row)!), runs: rounds, peakRss: maxrss * 1024 });
    }
    return results;
  } finally {
    for (const c of procs.values()) c.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
