// The peers, run on the same bytes as resemble in the same run: rabin-wasm for content-defined
// chunking; datasketch (Python: found on PYTHONPATH or at $RESEMBLE_DATASKETCH, a skip row when
// absent) and the MinHash of bloom-filters and of minhash for document sketches. The MinHash
// libraries cannot read HTML, so they are given resemble's canonical tokens, computed before timing
// (their rows time only the MinHash work: every advantage goes to the peer).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalize } from '../src/sketch/tokens.js';
import { CHECK_BYTES, checkFailed, CHUNKING, corpusLabel, type BenchTask } from '../src/bench/tasks.js';
import { chooseClock } from '../src/bench/measure.js';
import { machine } from '../src/bench/machine.js';
import { generatedBuffer, sizeLabel, type Corpus } from '../src/bench/corpus.js';

const require = createRequire(import.meta.url);
// both are CommonJS without named ESM exports
const { MinHashFactory } = require('bloom-filters') as { MinHashFactory: new (n: number, max: number) => { create(): { bulkLoad(values: number[]): void } } };
const { Minhash } = require('minhash') as { Minhash: new (o: { numPerm: number; seed: number }) => { update(s: string): void; hashvalues: number[] } };

interface RabinWasm { fingerprint(buf: Uint8Array): Int32Array | Uint32Array }
type RabinCtor = new (module: unknown, bits: number, min: number, max: number, window: number) => RabinWasm;

/** Takes the corpus and buffer sizes; returns a rabin-wasm row per size (same chunking parameters as resemble's row). */
export async function rabinWasmTasks(corpus: Corpus, sizes: readonly number[]): Promise<BenchTask[]> {
  const { Rabin } = require('rabin-wasm') as { Rabin: RabinCtor };
  const loadModule = require('rabin-wasm/dist/rabin-wasm.node.js') as () => Promise<unknown>;
  const module = await loadModule();
  const bits = Math.log2(CHUNKING.averageSize);
  const fresh = () => new Rabin(module, bits, CHUNKING.minSize, CHUNKING.maxSize, CHUNKING.window);
  return sizes.map((size) => {
    const buf = generatedBuffer(corpus, size);
    const rabin = fresh();
    return {
      section: 'rabin', role: 'peer', name: 'rabin-wasm', input: sizeLabel(size), bytes: size, docs: 1,
      note: `rabin-wasm ${require('rabin-wasm/package.json').version}: Rabin(bits ${bits}, min ${CHUNKING.minSize}, max ${CHUNKING.maxSize}, window ${CHUNKING.window}).fingerprint(buffer) → chunk lengths (resemble's boundaries 'rabin-wasm' gives these same cut points)`,
      check() {
        // different polynomial: check the chunk lengths are well formed and the same on a fresh instance
        const part = buf.subarray(0, CHECK_BYTES);
        const a = [...fresh().fingerprint(part)], b = [...fresh().fingerprint(part)];
        const sum = a.reduce((x, y) => x + y, 0);
        if (a.join() !== b.join()) throw checkFailed(this.name, 'chunk lengths are not deterministic');
        if (a.some((n, i) => n > CHUNKING.maxSize || (n < CHUNKING.minSize && i < a.length - 1)) || sum > part.length || part.length - sum > CHUNKING.maxSize) {
          throw checkFailed(this.name, 'chunk lengths out of [min, max] or not covering the buffer');
        }
      },
      run: () => rabin.fingerprint(buf),
    } satisfies BenchTask;
  });
}

/** FNV-1a of a string's UTF-16 units: the 32-bit integers bloom-filters' MinHash takes. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Takes the corpus; returns the bloom-filters and minhash rows, each with 128 hash functions like resemble's MIN_128. */
export function minHashTasks(corpus: Corpus): BenchTask[] {
  const input = corpusLabel(corpus);
  const tokens = corpus.docs.map((d) => canonicalize(d).split(' ').filter((t) => t.length > 0));
  const hashed = tokens.map((ts) => ts.map(fnv1a));
  const factory = new MinHashFactory(128, 2 ** 32 - 1);
  // the checks look at the first pages only: determinism does not need them all
  const bloom = (n = hashed.length) => hashed.slice(0, n).map((h) => { const m = factory.create(); if (h.length) m.bulkLoad(h); return m; });
  const mh = (n = tokens.length) => tokens.slice(0, n).map((ts) => { const m = new Minhash({ numPerm: 128, seed: 1 }); for (const t of ts) m.update(t); return m; });
  const same = (a: number[][], b: number[][]) => a.length === b.length && a.every((x, i) => x.length === 128 && x.join() === b[i].join());
  return [
    {
      section: 'sketch', role: 'peer', name: 'bloom-filters MinHash', input, bytes: corpus.bytes, docs: corpus.docs.length,
      note: `bloom-filters ${require('bloom-filters/package.json').version}: MinHashFactory(128).create().bulkLoad(tokens) per page, the tokens resemble's canonical words hashed to 32-bit integers (FNV-1a) before timing`,
      check() {
        const sig = (ms: ReturnType<typeof bloom>) => ms.map((m) => (m as unknown as { _signature: number[] })._signature);
        if (!same(sig(bloom(24)), sig(bloom(24)))) throw checkFailed(this.name, 'signatures are not 128 values or not deterministic');
      },
      run: () => bloom(),
    },
    {
      section: 'sketch', role: 'peer', name: 'minhash', input, bytes: corpus.bytes, docs: corpus.docs.length,
      note: `minhash ${require('minhash/package.json').version}: new Minhash({ numPerm: 128 }).update(token) for each of resemble's canonical words (split before timing)`,
      check() {
        if (!same(mh(24).map((m) => m.hashvalues), mh(24).map((m) => m.hashvalues))) throw checkFailed(this.name, 'signatures are not 128 values or not deterministic');
      },
      run: () => mh(),
    },
  ];
}

/**
 * Takes the corpus; returns datasketch's row (MinHash, num_perm 128, over 8-word shingles of the
 * canonical text, timed by Python in its own process), or a skip row when datasketch cannot be
 * imported (set RESEMBLE_DATASKETCH to its source folder, or put it on PYTHONPATH).
 */
export async function datasketchTasks(corpus: Corpus, quick: boolean): Promise<BenchTask[]> {
  const input = corpusLabel(corpus);
  const env = { ...process.env, PYTHONPATH: [process.env.RESEMBLE_DATASKETCH, process.env.PYTHONPATH].filter(Boolean).join(delimiter) };
  const probe = spawnSync('python3', ['-c', 'import datasketch'], { env, encoding: 'utf8' });
  const base = { section: 'sketch', role: 'peer', name: 'datasketch MinHash', input, bytes: corpus.bytes, docs: corpus.docs.length } as const;
  if (probe.status !== 0) {
    return [{ ...base, name: 'datasketch MinHash (skipped: not found)', note: 'python3 could not import datasketch: set RESEMBLE_DATASKETCH to its source folder or put it on PYTHONPATH', check() {}, run: () => 0, measured: async () => NaN }];
  }
  const script = fileURLToPath(new URL('./datasketch-peer.py', import.meta.url));
  const texts = corpus.docs.map((d) => canonicalize(d));
  const clock = chooseClock(undefined, machine());
  const call = (docs: string[], runs: number) => {
    const dir = mkdtempSync(join(tmpdir(), 'resemble-bench-'));
    try {
      writeFileSync(join(dir, 'texts.json'), JSON.stringify(docs));
      const r = spawnSync('python3', [script, join(dir, 'texts.json'), String(runs), clock], { env, encoding: 'utf8', maxBuffer: 1 << 20 });
      if (r.status !== 0) throw checkFailed(base.name, `python3 failed: ${r.stderr.trim().split('\n').at(-1)}`);
      return JSON.parse(r.stdout) as { ms: number[]; version: string; first: number[] };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  let version = '';
  return [{
    ...base,
    get note() { return `datasketch ${version}: per page text.split(), 8-word shingles, MinHash(num_perm=128).update_batch(UTF-8) — given resemble's canonical text (markup already stripped, not timed); timed by Python (${clock === 'cpu' ? 'process_time' : 'perf_counter'}) in its own process, median of the runs`; },
    check() {
      const a = call(texts.slice(0, 4), 1), b = call(texts.slice(0, 4), 1);
      version = a.version;
      if (a.first.length !== 4 || a.first.join() !== b.first.join()) throw checkFailed(this.name, 'MinHash values missing or not deterministic');
    },
    run: () => 0,
    measured: async () => {
      const ms = call(texts, quick ? 2 : 5).ms.sort((x, y) => x - y);
      return ms[Math.floor(ms.length / 2)];
    },
  }];
}
