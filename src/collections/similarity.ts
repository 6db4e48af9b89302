import { intOption, numberOption, optionError, enumOption, rejectUnknown } from '../errors.js';
import type { DocInput } from '../sketch/input.js';
import type { SketchOptions } from '../sketch/options.js';
import { resemblance } from '../sketch/estimate.js';
import { sketchMany } from '../sketch/sketch.js';
import type { SketchSet } from '../sketch/sketch-set.js';
import { chunkFingerprints, type ChunkColumns, type ChunkParams } from './chunks.js';
import { icebergPairs, type IcebergOptions, type SharedPairs } from './iceberg.js';
import { trivialFromPairs, type TrivialClusters } from './trivial.js';

/**
 * The page similarity test ST of Definition 4, configurable:
 * - chunks: pages are similar when they share at least `threshold` chunk fingerprints and at least
 *   `ratio` of the larger page's chunks (Section 2.1 counts shared chunks only, ratio 0: the paper
 *   used T = 15 for 4-line and T = 25 for 2-line chunks), or when their chunk sets are equal (so that
 *   two identical pages too short to reach T still count as copies); a chunk on more than `cap`
 *   distinct pages counts neither as shared nor in a page's chunks (default cap 64 for windows,
 *   1,000 otherwise);
 * - sketch: estimated resemblance of the near-duplicate engine's sketches ≥ `threshold` (values on
 *   more than `cap` pages make no candidate pair).
 */
export type Similarity =
  | { kind: 'chunks'; unit: 'document' | 'lines' | 'windows' | 'sentence'; lines: number; threshold: number; ratio: number; cap: number; markup: 'html' | 'text' }
  | { kind: 'sketch'; threshold: number; cap: number; sketch: SketchOptions };

/**
 * Default ST: every window of 4 text lines, pages sharing at least half of the larger page's
 * windows. The paper's fixed count (T = 15 four-line chunks) misses every page shorter than 60
 * lines and joins long pages through their shared navigation; see docs/collections.md for the measurements.
 */
export const DEFAULT_SIMILARITY = 'windows:4:0.5';
/** Default cap on pages per chunk or sketch value: a value on more pages is boilerplate and never counted. */
export const DEFAULT_CAP = 1000;
/**
 * Default cap of the `windows` test (the default ST): a window of text lines on more than 64
 * distinct pages is navigation (a sidebar holding a manual's table of contents is on every page
 * of it), not the text of a page with a few copies. The capped windows are left out of both the
 * shared count and each page's count of windows (see docs/collections.md).
 */
export const WINDOWS_CAP = 64;

/**
 * Takes a similarity spec (`windows:4:0.5`, `chunks:4:15`, `chunks:2:25`, `chunks:doc`,
 * `chunks:sentence:10`, `sketch:0.5`) or an object; returns it validated with defaults filled in.
 */
export function parseSimilarity(spec: string | Partial<Similarity> = DEFAULT_SIMILARITY): Similarity {
  if (typeof spec !== 'string') return checkSimilarity(spec);
  const parts = spec.trim().split(':');
  const bad = () => optionError('similarity', 'windows:LINES:R, chunks:LINES:T, chunks:doc, chunks:sentence:T or sketch:R (e.g. windows:4:0.5, chunks:4:15, sketch:0.5)', spec);
  const int = (s: string | undefined) => (s !== undefined && /^\d+$/.test(s) ? Number(s) : NaN);
  const num = (s: string | undefined) => (s !== undefined && s !== '' && Number.isFinite(Number(s)) ? Number(s) : NaN);
  if (parts[0] === 'windows' && parts.length === 3) {
    return checkSimilarity({ kind: 'chunks', unit: 'windows', lines: int(parts[1]), threshold: 1, ratio: num(parts[2]) });
  }
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
  rejectUnknown(o, ['kind', 'unit', 'lines', 'threshold', 'ratio', 'cap', 'markup'], 'similarity (chunks)');
  const unit = enumOption('similarity.unit', o.unit, 'windows', ['document', 'lines', 'windows', 'sentence'] as const);
  return {
    kind, unit,
    lines: intOption('similarity.lines', o.lines, 4, 1, 1 << 16),
    threshold: intOption('similarity.threshold', o.threshold, unit === 'lines' || unit === 'sentence' ? 15 : 1, 1, 1 << 20),
    ratio: numberOption('similarity.ratio', o.ratio, unit === 'windows' ? 0.5 : 0, 0, 1),
    cap: intOption('similarity.cap', o.cap, unit === 'windows' ? WINDOWS_CAP : DEFAULT_CAP, 2, 2 ** 31),
    markup: enumOption('similarity.markup', o.markup, 'html', ['html', 'text'] as const),
  };
}

/** Trivial clusters with how they were found, and what later stages measure pages with. */
export interface SimilarPages {
  readonly trivial: TrivialClusters;
  /**
   * Page → the first page with the same text (itself when first or empty): copies with equal
   * text are one page for the test and are joined to their representative with score 1.
   */
  readonly label: Uint32Array;
  /** Directly similar pairs of representatives found by the test (a < b), with their shared count (chunks or sketch values). */
  readonly a: Uint32Array;
  readonly b: Uint32Array;
  readonly shared: Uint32Array;
  /** Per pair: how similar, in 0..1 (shared / the larger page's chunks; the sketch estimate). */
  readonly score: Float64Array;
  /** Per page, a fingerprint of its whole text (chunks) or canonical text (sketches): equal means identical text. */
  readonly textFp: BigUint64Array;
  /** Takes two pages; returns their resemblance: exact Jaccard of their chunk sets, or the sketch estimate. */
  readonly resemblance: (a: number, b: number) => number;
  /** Chunk or sketch values ignored for being on more than `cap` pages. */
  readonly ignoredValues: number;
  /** Pages with no text (never similar to anything). */
  readonly emptyPages: number;
  /** Page → 1 for HTML, 0 for other text, when the pages were kept to their kind (`sameKindOnly`). */
  readonly kinds?: Uint8Array;
}

/**
 * Takes the pages' contents (DocId order) and the similarity test; returns the trivial clusters
 * (transitive closure of ST by union-find). Needs `await init()` first (fingerprints and sketches
 * run in WebAssembly).
 */
export function similarPages(pages: ArrayLike<DocInput>, similarity: string | Partial<Similarity> = DEFAULT_SIMILARITY): SimilarPages {
  const sim = parseSimilarity(similarity);
  return sim.kind === 'chunks' ? similarFromChunks(chunkFingerprints(pages, chunkParamsOf(sim)), sim) : similarFromSketches(sketchMany(pages, sim.sketch), sim);
}

/** Takes a chunks similarity; returns the chunk parameters it cuts pages with. */
export function chunkParamsOf(sim: Extract<Similarity, { kind: 'chunks' }>): ChunkParams {
  return { unit: sim.unit, lines: sim.lines, markup: sim.markup };
}

/** Size of the intersection of two ascending runs of distinct values. */
function common(values: BigUint64Array, offsets: Uint32Array, a: number, b: number): number {
  let i = offsets[a], j = offsets[b], n = 0;
  const ei = offsets[a + 1], ej = offsets[b + 1];
  while (i < ei && j < ej) {
    if (values[i] === values[j]) { n++; i++; j++; } else if (values[i] < values[j]) i++; else j++;
  }
  return n;
}

/**
 * An iceberg query (Section 3.2) over (value, page) rows, as `icebergPairs` runs it: the library's
 * pair counter in memory, or the DuckDB engine's (`icebergOnEngine`) beyond it.
 */
export type Iceberg = (values: BigUint64Array, offsets: Uint32Array, options: IcebergOptions) => SharedPairs | Promise<SharedPairs>;

/** A similarity test prepared over the pages: its iceberg query (none when every pair is known without one), and the step after it. */
interface Prepared {
  query?: { values: BigUint64Array; offsets: Uint32Array; options: IcebergOptions };
  finish(pairs: SharedPairs): SimilarPages;
}

const NO_PAIRS: SharedPairs = { a: new Uint32Array(0), b: new Uint32Array(0), shared: new Uint32Array(0), ignoredValues: 0, ignoredPostings: 0 };

/**
 * Takes the pages' chunk columns (made with `chunkParamsOf(sim)`, e.g. batch by batch while
 * reading) and a chunks similarity; returns the trivial clusters and the pairs they came from.
 */
export function similarFromChunks(cols: ChunkColumns, sim: Extract<Similarity, { kind: 'chunks' }>): SimilarPages {
  const p = prepareChunks(cols, sim);
  return p.finish(p.query ? icebergPairs(p.query.values, p.query.offsets, p.query.options) : NO_PAIRS);
}

/**
 * Takes the pages' sketches (made with `sim.sketch`, e.g. on a worker pool while reading) and a
 * sketch similarity; returns the trivial clusters and the pairs they came from.
 */
export function similarFromSketches(set: SketchSet, sim: Extract<Similarity, { kind: 'sketch' }>): SimilarPages {
  const p = prepareSketches(set, sim);
  return p.finish(icebergPairs(p.query!.values, p.query!.offsets, p.query!.options));
}

/** `similarFromChunks` or `similarFromSketches` with the iceberg query run by `iceberg` (the same result when it returns what `icebergPairs` does). */
export async function similarWith(columns: ChunkColumns | SketchSet, sim: Similarity, iceberg: Iceberg): Promise<SimilarPages> {
  const p = sim.kind === 'chunks' ? prepareChunks(columns as ChunkColumns, sim) : prepareSketches(columns as SketchSet, sim);
  return p.finish(p.query ? await iceberg(p.query.values, p.query.offsets, p.query.options) : NO_PAIRS);
}

function prepareChunks(cols: ChunkColumns, sim: Extract<Similarity, { kind: 'chunks' }>): Prepared {
  const n = cols.textFp.length;
  const { values, offsets } = cols;
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
  const resemblanceOf = (a: number, b: number) => {
    if (cols.empty[a] || cols.empty[b]) return 0;
    if (cols.textFp[a] === cols.textFp[b]) return 1;
    const s = common(values, offsets, a, b);
    return s / (offsets[a + 1] - offsets[a] + offsets[b + 1] - offsets[b] - s);
  };
  const none = { a: new Uint32Array(0), b: new Uint32Array(0), shared: new Uint32Array(0), score: new Float64Array(0) };
  if (sim.unit === 'document') return { finish: () => closure(n, label, none, 0, emptyPages, cols.textFp, resemblanceOf) };
  const T = sim.threshold, R = sim.ratio;
  // A page's chunks that count: those on at most `cap` pages. A chunk on more (a navigation
  // sidebar's lines, on every page of a manual) is neither shared nor part of the page for the
  // ratio, so it can neither join two pages nor keep two copies from reaching the ratio.
  let ignored: Uint32Array | undefined;
  const len = (p: number) => offsets[p + 1] - offsets[p] - (ignored ? ignored[p] : 0);
  return {
    query: {
      values, offsets, options: {
        cap: sim.cap, pages: Uint32Array.from(reps),
        ignored: (perPage) => { ignored = perPage; },
        accept: (a, b, shared) => (shared >= T && shared >= R * Math.max(len(a), len(b))) || (shared === len(a) && shared === len(b)),
      },
    },
    finish: (pairs) => {
      const score = Float64Array.from(pairs.a, (a, i) => pairs.shared[i] / Math.max(len(a), len(pairs.b[i])));
      return closure(n, label, { ...pairs, score }, pairs.ignoredValues, emptyPages, cols.textFp, resemblanceOf);
    },
  };
}

function prepareSketches(set: SketchSet, sim: Extract<Similarity, { kind: 'sketch' }>): Prepared {
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
  const estimate = (a: number, b: number) => (len(a) === 0 || len(b) === 0 ? 0 : set.shingleFp[a] === set.shingleFp[b] ? 1 : resemblance(set.get(a), set.get(b)));
  return {
    query: {
      values, offsets, options: {
        cap: sim.cap, pages: Uint32Array.from(reps),
        accept: (a, b, shared) => (!bounded || shared >= t * Math.max(len(a), len(b)) - 1e-9) && estimate(a, b) >= t,
      },
    },
    finish: (pairs) => {
      const score = Float64Array.from(pairs.a, (a, i) => estimate(a, pairs.b[i]));
      return closure(n, label, { ...pairs, score }, pairs.ignoredValues, emptyPages, set.lexicalFp, estimate);
    },
  };
}

/**
 * Takes similar pages and a kind per page (1 for HTML, 0 for any other text: a manual's reST or
 * Markdown sources, its scripts and stylesheets); returns them with no page similar to a page of
 * the other kind. A page's source text shares most of its lines with the page (Sphinx's
 * `_sources/x.rst.txt` beside `x.html`), so the test puts both in one trivial cluster: one column
 * holding two pages of each copy, which no collection can hold (Definition 5), and growth over the
 * links then breaks the copies apart. A copy of a page is a page of its kind: HTML with HTML, text
 * with text. Pairs across kinds are dropped, copies of one text are one page per kind (`label`),
 * and the trivial clusters are made again. Unchanged when every page is of one kind.
 */
export function sameKindOnly(similar: SimilarPages, kinds: Uint8Array): SimilarPages {
  const n = similar.label.length;
  if (kinds.length !== n) throw optionError('kinds', `one kind per page (${n})`, `${kinds.length} kinds`);
  let mixed = false;
  for (let i = 1; i < n && !mixed; i++) mixed = kinds[i] !== kinds[0];
  if (!mixed) return similar;
  // each text's first page of each kind represents its copies of that kind
  const label = new Uint32Array(n);
  const firstOf = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const rep = similar.label[i];
    if (kinds[rep] === kinds[i]) { label[i] = rep; continue; }
    const key = rep * 2 + kinds[i];
    const first = firstOf.get(key);
    if (first === undefined) firstOf.set(key, i);
    label[i] = first ?? i;
  }
  const keep: number[] = [];
  for (let k = 0; k < similar.a.length; k++) if (kinds[similar.a[k]] === kinds[similar.b[k]]) keep.push(k);
  const pick = (x: Uint32Array) => Uint32Array.from(keep, (k) => x[k]);
  const resemblanceOf = (a: number, b: number) => (kinds[a] === kinds[b] ? similar.resemblance(a, b) : 0);
  const kept = closure(n, label, { a: pick(similar.a), b: pick(similar.b), shared: pick(similar.shared), score: Float64Array.from(keep, (k) => similar.score[k]) },
    similar.ignoredValues, similar.emptyPages, similar.textFp, resemblanceOf);
  return { ...kept, kinds };
}

/**
 * Takes the similar pages and a flag per page; returns them with every flagged page apart: its own
 * representative, in no pair, similar to nothing (a soft-404 or a URL variant of a web crawl is
 * no evidence of a replicated collection). The others keep their groups (a group whose
 * representative is flagged is represented by its first page not flagged).
 */
export function pagesApart(similar: SimilarPages, apart: Uint8Array): SimilarPages {
  const n = similar.label.length;
  if (apart.length !== n) throw optionError('apart', `one flag per page (${n})`, `${apart.length} flags`);
  if (!apart.some((x) => x !== 0)) return similar;
  const label = new Uint32Array(n);
  const firstOf = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const rep = similar.label[i];
    if (apart[i]) label[i] = i;
    else if (!apart[rep]) label[i] = rep;
    else {
      const first = firstOf.get(rep);
      if (first === undefined) firstOf.set(rep, i);
      label[i] = first ?? i;
    }
  }
  // a pair of representatives stands for their groups: it is kept between the groups' new representatives
  const keep: number[] = [];
  const a: number[] = [], b: number[] = [];
  for (let k = 0; k < similar.a.length; k++) {
    const x = similar.a[k], y = similar.b[k];
    const nx = apart[x] ? firstOf.get(x) : x, ny = apart[y] ? firstOf.get(y) : y;
    if (nx === undefined || ny === undefined || nx === ny) continue;
    keep.push(k);
    a.push(Math.min(nx, ny));
    b.push(Math.max(nx, ny));
  }
  const resemblanceOf = (x: number, y: number) => (apart[x] || apart[y] ? 0 : similar.resemblance(x, y));
  const kept = closure(n, label, { a: Uint32Array.from(a), b: Uint32Array.from(b), shared: Uint32Array.from(keep, (k) => similar.shared[k]), score: Float64Array.from(keep, (k) => similar.score[k]) },
    similar.ignoredValues, similar.emptyPages, similar.textFp, resemblanceOf);
  return similar.kinds ? { ...kept, kinds: similar.kinds } : kept;
}

function closure(
  n: number, label: Uint32Array, pairs: { a: Uint32Array; b: Uint32Array; shared: Uint32Array; score: Float64Array },
  ignoredValues: number, emptyPages: number, textFp: BigUint64Array, resemblanceOf: (a: number, b: number) => number,
): SimilarPages {
  const { a, b } = pairs;
  // Copies join their representative; representatives join through the similar pairs.
  let copies = 0;
  for (let i = 0; i < n; i++) if (label[i] !== i) copies++;
  const ua = new Uint32Array(copies + a.length), ub = new Uint32Array(copies + a.length);
  let k = 0;
  for (let i = 0; i < n; i++) if (label[i] !== i) { ua[k] = label[i]; ub[k] = i; k++; }
  ua.set(a, k); ub.set(b, k);
  return {
    trivial: trivialFromPairs(n, ua, ub), label, a, b, shared: pairs.shared, score: pairs.score,
    textFp, resemblance: resemblanceOf, ignoredValues, emptyPages,
  };
}
