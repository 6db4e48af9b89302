// The measured tasks, shared by `npm run bench` (timed with tinybench, beside the npm peers) and
// `resemble bench` (timed by ./measure.ts). Every task checks its result against a slow obvious
// reference before it is timed, so a fast wrong kernel never shows up as a good figure.
import { ResembleError } from '../errors.js';
import { chunkEndsRef, rabinRef } from '../reference/rabin.js';
import { shingleValuesRef } from '../reference/shingles.js';
import { minSRef } from '../reference/sketch.js';
import { chunkBoundaries, rollingFingerprints, type ChunkOptions } from '../sketch/rabin.js';
import { serializeSketchSet } from '../sketch/serialize.js';
import { sketchMany } from '../sketch/sketch.js';
import { resolveSketchOptions, configureKernels } from '../sketch/options.js';
import { checked } from '../wasm/kernels.js';
import { getKernels, withArena } from '../wasm/instance.js';
import { useBuild } from '../wasm/loader.js';
import type { Pool } from '../stream/pool.js';
import { generatedBuffer, sizeLabel, type Corpus } from './corpus.js';

/** One row of the table: a task over one input. Rows of the same section and input are compared. */
export interface BenchTask {
  section: 'rabin' | 'sketch' | 'stages' | 'workers' | 'peers';
  /** Who runs: resemble, the byte-loop ceiling, or an npm peer. */
  role: 'ours' | 'ceiling' | 'peer';
  name: string;
  input: string;
  bytes: number;
  docs: number;
  /** What the task does to its input, printed under the table. */
  note?: string;
  /** Names of rows (same section and input) to print this row's speed-up against. */
  vs?: string[];
  /** Print this row's speed-up over every peer of its section and input, not only the fastest. */
  vsPeers?: boolean;
  /** The kernels' build this row runs on (the runner switches before checking and timing); default SIMD. */
  build?: 'simd' | 'scalar';
  /** For a peer timed in its own process: its median milliseconds per run, instead of timing run(). */
  measured?: () => Promise<number>;
  /** Throws when the result is wrong; runs before timing. */
  check(): void | Promise<void>;
  run(): unknown;
}

/** The content-defined chunking parameters of the Rabin rows, rabin-wasm's defaults (window 64, bits 12, min 8 KiB, max 32 KiB). */
export const CHUNKING = { window: 64, averageSize: 4096, minSize: 8192, maxSize: 32768 } as const satisfies ChunkOptions;

/** Takes a task; returns it twice, on the SIMD build and on the scalar build (names marked). */
export function bothBuilds(task: BenchTask): BenchTask[] {
  return [
    { ...task, build: 'simd', name: `${task.name} (SIMD)` },
    { ...task, build: 'scalar', name: `${task.name} (scalar)`, note: undefined, vs: [`${task.name} (SIMD)`] },
  ];
}
/** Largest input the every-window rolling fingerprint row runs on: it writes 8 bytes per input byte. */
export const ROLLING_MAX = 4 << 20;
/** Checks of big inputs look at this prefix (determinism does not need the whole buffer). */
export const CHECK_BYTES = 1 << 20;

/** Takes a task; makes its build of the kernels the current instance (a fresh one), before it is checked and timed. */
export function prepare(task: BenchTask): void {
  useBuild(task.build ?? 'simd');
}

/** A failed pre-timing check. */
export function checkFailed(task: string, what: string): ResembleError {
  return new ResembleError('E_WASM', `benchmark check failed for ${task}: ${what}`);
}

function sumJs(b: Uint8Array): number {
  let s = 0;
  for (const x of b) s = (s + x) >>> 0;
  return s;
}

/** The ceiling: copy the bytes into WebAssembly memory (every API must) and read each byte once, one load and one add a byte. */
export function byteLoop(docs: readonly Uint8Array[]): number {
  let acc = 0;
  for (const d of docs) acc = (acc + withArena((mem, k) => k.bl_bytes(mem.put(d), d.length))) >>> 0;
  return acc;
}

/** Takes documents; throws when the byte loop's sum of the first is not the JavaScript sum (mod 2^32). */
export function checkByteLoop(name: string, docs: readonly Uint8Array[]): void {
  const got = byteLoop([docs[0]]) >>> 0;
  if (got !== sumJs(docs[0])) throw checkFailed(name, `byte sum ${got} ≠ ${sumJs(docs[0])}`);
}

/** What the ceiling rows do, for the notes. */
export const CEILING_NOTE = 'copies the bytes into WebAssembly memory and reads every byte once, one load and one add a byte (bl_bytes): the plain scalar loop a byte-at-a-time kernel is bounded by';

function ceilingTask(section: BenchTask['section'], input: string, docs: Uint8Array[]): BenchTask {
  const bytes = docs.reduce((a, d) => a + d.length, 0);
  return {
    section, role: 'ceiling', name: 'byte loop (ceiling)', input, bytes, docs: docs.length,
    note: CEILING_NOTE,
    check() { checkByteLoop(this.name, docs); },
    run: () => byteLoop(docs),
  };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Takes the corpus and buffer sizes; returns the Rabin rows (ceiling, chunking, rolling) for each size. */
export function rabinTasks(corpus: Corpus, sizes: readonly number[]): BenchTask[] {
  const tasks: BenchTask[] = [];
  for (const size of sizes) {
    const buf = generatedBuffer(corpus, size);
    const input = sizeLabel(size);
    tasks.push(ceilingTask('rabin', input, [buf]));
    tasks.push(...bothBuilds({
      section: 'rabin', role: 'ours', name: 'resemble chunkBoundaries', input, bytes: size, docs: 1,
      note: `Rabin rolling fingerprint of every ${CHUNKING.window}-byte window, cut where fp & (avg − 1) = 0 (average ${CHUNKING.averageSize / 1024} KiB, min ${CHUNKING.minSize / 1024} KiB, max ${CHUNKING.maxSize / 1024} KiB): rabin-wasm's task`,
      check() {
        const small = buf.subarray(0, 3000);
        const o = { window: 16, averageSize: 64, minSize: 16, maxSize: 256 };
        const want = chunkEndsRef(small, o.window, BigInt(o.averageSize - 1), o.minSize, o.maxSize);
        const got = [...chunkBoundaries(small, o)];
        if (got.join() !== want.join()) throw checkFailed(this.name, 'chunk ends differ from the BigInt reference');
        const part = buf.subarray(0, CHECK_BYTES);
        const a = chunkBoundaries(part, CHUNKING);
        if (a[a.length - 1] !== part.length || !sameBytes(new Uint8Array(a.buffer), new Uint8Array(chunkBoundaries(part, CHUNKING).buffer))) throw checkFailed(this.name, 'chunking is not deterministic or does not end at the input end');
      },
      run: () => chunkBoundaries(buf, CHUNKING),
    }));
    if (size <= ROLLING_MAX) {
      tasks.push(...bothBuilds({
        section: 'rabin', role: 'ours', name: 'resemble rollingFingerprints', input, bytes: size, docs: 1,
        note: `every ${CHUNKING.window}-byte window's 64-bit Rabin fingerprint written out (8 output bytes per input byte, so only up to ${sizeLabel(ROLLING_MAX)})`,
        check() {
          const small = buf.subarray(0, 200);
          const fps = rollingFingerprints(small, CHUNKING.window);
          for (let i = 0; i < fps.length; i += 17) {
            if (fps[i] !== rabinRef(small.subarray(i, i + CHUNKING.window))) throw checkFailed(this.name, `window ${i}: fingerprint differs from the BigInt reference`);
          }
          if (fps.length !== small.length - CHUNKING.window + 1) throw checkFailed(this.name, 'wrong number of windows');
        },
        run: () => rollingFingerprints(buf, CHUNKING.window),
      }));
    }
  }
  return tasks;
}

/** Takes documents; checks their MIN_s sketches: non-empty, deterministic, the smallest document's equal to the BigInt reference. */
export function checkSketches(name: string, docs: Uint8Array[]): void {
  const a = sketchMany(docs);
  for (let i = 0; i < a.size; i++) if (a.offsets[i + 1] === a.offsets[i]) throw checkFailed(name, `document ${i} has an empty sketch`);
  if (!sameBytes(serializeSketchSet(a), serializeSketchSet(sketchMany(docs)))) throw checkFailed(name, 'sketches are not deterministic');
  let small = 0;
  for (let i = 1; i < docs.length; i++) if (docs[i].length < docs[small].length) small = i;
  if (docs[small].length <= 64 << 10) {
    const want = minSRef(shingleValuesRef(docs[small]), 128);
    const got = [...a.get(small).values];
    if (got.join() !== want.join()) throw checkFailed(name, `document ${small}: sketch differs from the BigInt reference`);
  }
}

/** Takes the corpus and single-document sizes; returns the HTML → MIN_s sketch rows (corpus, then one big document per size). */
export function sketchTasks(corpus: Corpus, sizes: readonly number[]): BenchTask[] {
  const input = corpusLabel(corpus);
  const note = 'raw HTML → canonical tokens (markup dropped, entities decoded, case folded) → 8-token shingles → MIN_128 sketch and whole-document fingerprints';
  const tasks: BenchTask[] = [
    ceilingTask('sketch', input, corpus.docs),
    ...bothBuilds({
      section: 'sketch', role: 'ours', name: 'resemble sketchMany', input, bytes: corpus.bytes, docs: corpus.docs.length, note,
      check() { checkSketches(this.name, corpus.docs); },
      run: () => sketchMany(corpus.docs),
    }),
  ];
  for (const size of sizes) {
    const buf = generatedBuffer(corpus, size);
    const label = `one ${sizeLabel(size)} page`;
    tasks.push(ceilingTask('sketch', label, [buf]), ...bothBuilds({
      section: 'sketch', role: 'ours', name: 'resemble sketchMany', input: label, bytes: size, docs: 1, note,
      check() { checkSketches(this.name, [buf.subarray(0, CHECK_BYTES)]); },
      run: () => sketchMany([buf]),
    }));
  }
  return tasks;
}

/** The pipeline's stages as the per-stage rows run them: each row runs the stages before it too. */
export const STAGES = [
  { name: 'canonicalize + token fingerprints', note: 'markup dropped, references decoded, UTF-8 decoded, case folded, one Rabin fingerprint per token (sk_stage 0)' },
  { name: '+ shingle rolling', note: '8-token shingle fingerprints rolled, dropped (sk_stage 1)' },
  { name: '+ π and MIN_128 selection', note: 'each shingle permuted and offered to the selection (sk_stage 2)' },
  { name: '+ raw-bytes fingerprint and finish', note: 'the whole sketch: the above, the raw-bytes Rabin fingerprint, sorted sketch and document fingerprints out (sk_sketch_batch)' },
  { name: 'raw-bytes fingerprint alone', note: 'Rabin over every byte of each page, 32 bytes a step (rb_fingerprint_batch)' },
] as const;

/** Takes documents and a stage index of STAGES; copies them into WebAssembly memory in 4 MiB batches and runs the kernels up to that stage. */
function stageRun(docs: Uint8Array[], stage: number): number {
  configureKernels(resolveSketchOptions({}), getKernels().sk_configure);
  let tokens = 0;
  for (let i = 0; i < docs.length;) {
    let j = i, bytes = 0;
    while (j < docs.length && (j === i || bytes + docs[j].length <= 4 << 20)) bytes += docs[j++].length;
    tokens += withArena((mem, k) => {
      const n = j - i;
      const inPtr = mem.alloc(bytes), off = mem.alloc((n + 1) * 4);
      let at = 0;
      for (let d = 0; d < n; d++) { mem.u32[(off >>> 2) + d] = at; mem.u8.set(docs[i + d], inPtr + at); at += docs[i + d].length; }
      mem.u32[(off >>> 2) + n] = at;
      if (stage < 3) return checked('sk_stage', k.sk_stage(inPtr, off, n, stage));
      if (stage === 4) return checked('rb_fingerprint_batch', k.rb_fingerprint_batch(inPtr, off, n, mem.alloc(n * 8)));
      const values = mem.alloc(n * 128 * 8), outOff = mem.alloc((n + 1) * 4), info = mem.alloc(n * 48);
      return checked('sk_sketch_batch', k.sk_sketch_batch(inPtr, off, n, values, n * 128, outOff, info, 0, 0, 0));
    });
    i = j;
  }
  return tokens;
}

/**
 * Takes the corpus; returns the per-stage rows on both builds beside the byte-loop ceiling: each
 * row runs the pipeline up to its stage over the corpus, so a stage's cost is its row's time less
 * the row before (the table in docs/benchmarks.md is made of these differences).
 */
export function stageTasks(corpus: Corpus): BenchTask[] {
  const input = corpusLabel(corpus);
  const tasks: BenchTask[] = [ceilingTask('stages', input, corpus.docs)];
  for (const build of ['simd', 'scalar'] as const) {
    STAGES.forEach((stage, index) => tasks.push({
      section: 'stages', role: 'ours', name: `${stage.name} (${build === 'simd' ? 'SIMD' : 'scalar'})`, input, bytes: corpus.bytes, docs: corpus.docs.length, build,
      note: build === 'simd' ? stage.note : undefined,
      check() {
        const tokens = stageRun(corpus.docs.slice(0, 8), Math.min(index, 2));
        const want = corpus.docs.slice(0, 8).reduce((a, d) => a + sketchMany([d]).tokens[0], 0);
        if (index < 3 && tokens !== want) throw checkFailed(this.name, `saw ${tokens} tokens, sketchMany ${want}`);
      },
      run: () => stageRun(corpus.docs, index),
    }));
  }
  return tasks;
}

/** Takes the corpus and two started pools (1 and N workers); returns the 1 vs N worker rows. */
export function workerTasks(corpus: Corpus, one: Pool, many: Pool): BenchTask[] {
  const input = corpusLabel(corpus);
  const base = `resemble pool, 1 worker`;
  const check = async (name: string, pool: Pool) => {
    const want = serializeSketchSet(sketchMany(corpus.docs));
    if (!sameBytes(serializeSketchSet(await pool.sketchMany(corpus.docs)), want)) throw checkFailed(name, 'pool output differs from sketchMany');
  };
  return [
    {
      section: 'workers', role: 'ours', name: base, input, bytes: corpus.bytes, docs: corpus.docs.length,
      note: 'pool.sketchMany: batches packed into transferred buffers, sketched in worker threads, reassembled in input order (bit-identical to sketchMany)',
      check() { return check(this.name, one); },
      run: () => one.sketchMany(corpus.docs),
    },
    {
      section: 'workers', role: 'ours', name: `resemble pool, ${many.size} workers`, input, bytes: corpus.bytes, docs: corpus.docs.length, vs: [base],
      check() { return check(this.name, many); },
      run: () => many.sketchMany(corpus.docs),
    },
  ];
}

/** Takes a corpus; returns its label for the table ("sample crawl, 384 pages, 2.5 MiB"). */
export function corpusLabel(corpus: Corpus): string {
  return `${corpus.name}, ${corpus.docs.length} ${corpus.docs.length === 1 ? 'page' : 'pages'}, ${sizeLabel(corpus.bytes)}`;
}
