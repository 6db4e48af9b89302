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
import { withArena } from '../wasm/instance.js';
import type { Pool } from '../workers/pool.js';
import { generatedBuffer, sizeLabel, type Corpus } from './corpus.js';

/** One row of the table: a task over one input. Rows of the same section and input are compared. */
export interface BenchTask {
  section: 'rabin' | 'sketch' | 'workers';
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
  /** Throws when the result is wrong; runs before timing. */
  check(): void | Promise<void>;
  run(): unknown;
}

/** The content-defined chunking parameters of the Rabin rows, rabin-wasm's (bits 13, min 2 KiB, max 64 KiB, window 64). */
export const CHUNKING = { window: 64, averageSize: 8192, minSize: 2048, maxSize: 65536 } as const satisfies ChunkOptions;
/** Largest input the every-window rolling fingerprint row runs on: it writes 8 bytes per input byte. */
export const ROLLING_MAX = 4 << 20;
/** Checks of big inputs look at this prefix (determinism does not need the whole buffer). */
export const CHECK_BYTES = 1 << 20;

/** A failed pre-timing check. */
export function checkFailed(task: string, what: string): ResembleError {
  return new ResembleError('E_WASM', `benchmark check failed for ${task}: ${what}`);
}

function sumJs(b: Uint8Array): bigint {
  let s = 0;
  for (const x of b) s += x;
  return BigInt(s);
}

/** The ceiling: copy the bytes into WebAssembly memory (every API must) and read each byte once. */
function byteLoop(docs: Uint8Array[]): bigint {
  let acc = 0n;
  for (const d of docs) acc += withArena((mem, k) => k.bl_sum(mem.put(d), d.length));
  return acc;
}

function ceilingTask(section: BenchTask['section'], input: string, docs: Uint8Array[]): BenchTask {
  const bytes = docs.reduce((a, d) => a + d.length, 0);
  return {
    section, role: 'ceiling', name: 'byte loop (ceiling)', input, bytes, docs: docs.length,
    note: 'copies the bytes into WebAssembly memory and reads every byte once (bl_sum): what any WebAssembly API taking JavaScript bytes must at least do',
    check() {
      // bl_sum sums 16-bit lanes: exact while no lane overflows, so check it on a 1 KiB prefix
      const small = docs[0].subarray(0, 1024);
      const got = byteLoop([small]);
      if (got !== sumJs(small)) throw checkFailed(this.name, `byte sum ${got} ≠ ${sumJs(small)}`);
    },
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
    tasks.push({
      section: 'rabin', role: 'ours', name: 'resemble chunkBoundaries', input, bytes: size, docs: 1, vs: ['rabin-wasm'],
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
    });
    if (size <= ROLLING_MAX) {
      tasks.push({
        section: 'rabin', role: 'ours', name: 'resemble rollingFingerprints', input, bytes: size, docs: 1, vs: ['rabin-wasm'],
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
      });
    }
  }
  return tasks;
}

/** Takes documents; checks their MIN_s sketches: non-empty, deterministic, the smallest document's equal to the BigInt reference. */
function checkSketches(name: string, docs: Uint8Array[]): void {
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
    {
      section: 'sketch', role: 'ours', name: 'resemble sketchMany', input, bytes: corpus.bytes, docs: corpus.docs.length, note,
      check() { checkSketches(this.name, corpus.docs); },
      run: () => sketchMany(corpus.docs),
    },
  ];
  for (const size of sizes) {
    const buf = generatedBuffer(corpus, size);
    const label = `one ${sizeLabel(size)} page`;
    tasks.push(ceilingTask('sketch', label, [buf]), {
      section: 'sketch', role: 'ours', name: 'resemble sketchMany', input: label, bytes: size, docs: 1, note,
      check() { checkSketches(this.name, [buf.subarray(0, CHECK_BYTES)]); },
      run: () => sketchMany([buf]),
    });
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
