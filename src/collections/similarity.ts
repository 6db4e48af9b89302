import { intOption, numberOption, optionError, enumOption, rejectUnknown } from '../errors.js';
import type { DocInput } from '../sketch/input.js';
import type { SketchOptions } from '../sketch/options.js';
import { resemblance } from '../sketch/estimate.js';
import { sketchMany } from '../sketch/sketch.js';
import type { SketchSet } from '../sketch/sketch-set.js';
import { chunkFingerprints, type ChunkColumns, type ChunkParams } from './chunks.js';
import { icebergPairs } from './iceberg.js';
import { trivialFromLabels, trivialFromPairs, type TrivialClusters } from './trivial.js';

/**
 * The page similarity test ST of Definition 4, configurable:
 * - chunks: pages are similar when they share at least `threshold` chunk fingerprints (Section 2.1;
 *   the paper used T = 15 for 4-line and T = 25 for 2-line chunks), or when their chunk sets are
 *   equal (so that two identical pages too short to reach T still count as copies);
 * - sketch: estimated resemblance of the near-duplicate engine's sketches ≥ `threshold`.
 */
export type Similarity =
  | { kind: 'chunks'; unit: 'document' | 'lines' | 'sentence'; lines: number; threshold: number; cap: number; markup: 'html' | 'text' }
  | { kind: 'sketch'; threshold: number; cap: number; sketch: SketchOptions };

/** Default ST: the paper's four-line chunks with T = 15. */
export const DEFAULT_SIMILARITY = 'chunks:4:15';
/** Default cap on pages per chunk or sketch value: a value on more pages is boilerplate and never counted. */
export const DEFAULT_CAP = 1000;

/**
 * Takes a similarity spec (`chunks:4:15`, `chunks:2:25`, `chunks:doc`, `chunks:sentence:10`,
 * `sketch:0.5`) or an object; returns it validated with defaults filled in.
 */
export function parseSimilarity(spec: string | Partial<Similarity> = DEFAULT_SIMILARITY): Similarity {
  if (typeof spec !== 'string') return checkSimilarity(spec);
  const parts = spec.trim().split(':');
  const bad = () => optionError('similarity', 'chunks:LINES:T, chunks:doc, chunks:sentence:T or sketch:R (e.g. chunks:4:15, sketch:0.5)', spec);
  const int = (s: string | undefined) => (s !== undefined && /^\d+$/.test(s) ? Number(s) : NaN);
  if (parts[0] === 'chunks') {
    if (parts[1] === 'doc' && parts.length === 2) return checkSimilarity({ kind: 'chunks', unit: 'document', threshold: 1 });
    if (parts[1] === 'sentence' && parts.length === 3) return checkSimilarity({ kind: 'chunks', unit: 'sentence', threshold: int(parts[2]) });
    if (parts.length === 3) return checkSimilarity({ kind: 'chunks', unit: 'lines', lines: int(parts[1]), threshold: int(parts[2]) });
    throw bad();
  }
  if (parts[0] === 'sketch' && parts.length === 2 && parts[1] !== '' && Number.isFinite(Number(parts[1]))) {
    return checkSimilarity({ kind: 'sketch', threshold: Number(parts[1]) });
  }
  throw bad();
}

function checkSimilarity(s: Partial<Similarity>): Similarity {
  if (s === null || typeof s !== 'object') throw optionError('similarity', 'an object or a spec string', s);
  const kind = enumOption('similarity.kind', s.kind, 'chunks', ['chunks', 'sketch'] as const);
  if (kind === 'sketch') {
    const o = s as Partial<Extract<Similarity, { kind: 'sketch' }>>;
    rejectUnknown(o, ['kind', 'threshold', 'cap', 'sketch'], 'similarity (sketch)');
    return {
      kind, threshold: numberOption('similarity.threshold', o.threshold, 0.5, Number.MIN_VALUE, 1),
      cap: intOption('similarity.cap', o.cap, DEFAULT_CAP, 2, 2 ** 31), sketch: o.sketch ?? {},
    };
  }
  const o = s as Partial<Extract<Similarity, { kind: 'chunks' }>>;
  rejectUnknown(o, ['kind', 'unit', 'lines', 'threshold', 'cap', 'markup'], 'similarity (chunks)');
  const unit = enumOption('similarity.unit', o.unit, 'lines', ['document', 'lines', 'sentence'] as const);
  return {
    kind, unit,
    lines: intOption('similarity.lines', o.lines, 4, 1, 1 << 16),
    threshold: intOption('similarity.threshold', o.threshold, unit === 'document' ? 1 : 15, 1, 1 << 20),
    cap: intOption('similarity.cap', o.cap, DEFAULT_CAP, 2, 2 ** 31),
    markup: enumOption('similarity.markup', o.markup, 'html', ['html', 'text'] as const),
  };
}

/** Trivial clusters with how they were found. */
export interface SimilarPages {
  readonly trivial: TrivialClusters;
  /** Directly similar page pairs found by the test (a < b), with their shared count (chunks or sketch values). */
  readonly a: Uint32Array;
  readonly b: Uint32Array;
  readonly shared: Uint32Array;
  /** Chunk or sketch values ignored for being on more than `cap` pages. */
  readonly ignoredValues: number;
  /** Pages with no text (never similar to anything). */
  readonly emptyPages: number;
}

/**
 * Takes the pages' contents (DocId order) and the similarity test; returns the trivial clusters
 * (transitive closure of ST by union-find). Needs `await init()` first (fingerprints and sketches
 * run in WebAssembly).
 */
export function similarPages(pages: ArrayLike<DocInput>, similarity: string | Partial<Similarity> = DEFAULT_SIMILARITY): SimilarPages {
  const sim = parseSimilarity(similarity);
  return sim.kind === 'chunks' ? byChunks(pages, sim) : bySketch(pages, sim);
}

/** Takes a chunks similarity; returns the chunk parameters it cuts pages with. */
export function chunkParamsOf(sim: Extract<Similarity, { kind: 'chunks' }>): ChunkParams {
  return { unit: sim.unit, lines: sim.lines, markup: sim.markup };
}

function byChunks(pages: ArrayLike<DocInput>, sim: Extract<Similarity, { kind: 'chunks' }>): SimilarPages {
  return similarFromChunks(chunkFingerprints(pages, chunkParamsOf(sim)), sim);
}

/** Takes the pages' chunk columns (made with `chunkParamsOf(sim)`, e.g. batch by batch while reading) and a chunks similarity; returns the trivial clusters. */
export function similarFromChunks(cols: ChunkColumns, sim: Extract<Similarity, { kind: 'chunks' }>): SimilarPages {
  const n = cols.textFp.length;
  let emptyPages = 0;
  for (let i = 0; i < n; i++) emptyPages += cols.empty[i];
  // Pages with the same text share every chunk, so one representative per text enters the
  // iceberg query; the copies of a widely mirrored page then cost one row, not cap² pairs.
  const repOf = new Map<bigint, number>();
  const label = new Uint32Array(n);
  const reps: number[] = [];
  for (let i = 0; i < n; i++) {
    if (cols.empty[i]) { label[i] = i; continue; }
    const r = repOf.get(cols.textFp[i]);
    if (r === undefined) { repOf.set(cols.textFp[i], i); reps.push(i); label[i] = i; } else label[i] = r;
  }
  if (sim.unit === 'document') {
    return { trivial: trivialFromLabels(label), a: new Uint32Array(0), b: new Uint32Array(0), shared: new Uint32Array(0), ignoredValues: 0, emptyPages };
  }
  const { values, offsets } = cols;
  const T = sim.threshold;
  const pairs = icebergPairs(values, offsets, {
    cap: sim.cap, pages: Uint32Array.from(reps),
    accept: (a, b, shared) => shared >= T || (shared === offsets[a + 1] - offsets[a] && shared === offsets[b + 1] - offsets[b]),
  });
  return closure(n, label, pairs.a, pairs.b, pairs.shared, pairs.ignoredValues, emptyPages);
}

function bySketch(pages: ArrayLike<DocInput>, sim: Extract<Similarity, { kind: 'sketch' }>): SimilarPages {
  return similarFromSketches(sketchMany(pages, sim.sketch), sim);
}

/** Takes the pages' sketches (made with `sim.sketch`, e.g. on a worker pool while reading) and a sketch similarity; returns the trivial clusters. */
export function similarFromSketches(set: SketchSet, sim: Extract<Similarity, { kind: 'sketch' }>): SimilarPages {
  const n = set.size;
  const { values, offsets } = set;
  let emptyPages = 0;
  const label = new Uint32Array(n);
  const repOf = new Map<bigint, number>();
  const reps: number[] = [];
  for (let i = 0; i < n; i++) {
    label[i] = i;
    if (offsets[i + 1] === offsets[i]) { emptyPages++; continue; }
    // Equal shingle-equivalence fingerprints mean equal shingle sets: resemblance 1, one representative.
    const r = repOf.get(set.shingleFp[i]);
    if (r === undefined) { repOf.set(set.shingleFp[i], i); reps.push(i); } else label[i] = r;
  }
  const t = sim.threshold;
  const len = (p: number) => offsets[p + 1] - offsets[p];
  // A MIN_s or MOD_m estimate of resemblance never exceeds shared / max(|sketch A|, |sketch B|)
  // (MIN_s: the union sample holds at least the larger sketch; MOD_m: the union holds both).
  // Not for adaptive sketches, which are compared after filtering to the larger modulus.
  const bounded = set.params.kind !== 'adaptive';
  const pairs = icebergPairs(values, offsets, {
    cap: sim.cap, pages: Uint32Array.from(reps),
    accept: (a, b, shared) => (!bounded || shared >= t * Math.max(len(a), len(b)) - 1e-9) && resemblance(set.get(a), set.get(b)) >= t,
  });
  return closure(n, label, pairs.a, pairs.b, pairs.shared, pairs.ignoredValues, emptyPages);
}

function closure(n: number, label: Uint32Array, a: Uint32Array, b: Uint32Array, shared: Uint32Array, ignoredValues: number, emptyPages: number): SimilarPages {
  // Copies join their representative; representatives join through the similar pairs.
  let copies = 0;
  for (let i = 0; i < n; i++) if (label[i] !== i) copies++;
  const ua = new Uint32Array(copies + a.length), ub = new Uint32Array(copies + a.length);
  let k = 0;
  for (let i = 0; i < n; i++) if (label[i] !== i) { ua[k] = label[i]; ub[k] = i; k++; }
  ua.set(a, k); ub.set(b, k);
  return { trivial: trivialFromPairs(n, ua, ub), a, b, shared, ignoredValues, emptyPages };
}
