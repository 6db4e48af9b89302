// `findSignatureCollisions`: near-replicas by content and hyperlink signatures (Di Iorio et al.),
// as `resemble signatures` prints them: colliding pairs with their RP and HM distances, then the
// groups that do not chain; with `evaluate`, the precision–recall points instead.
import { optionError, ResembleError, intOption, numberOption, enumOption } from '../errors.js';
import type { WebGraph } from '../graph/web-graph.js';
import { checkEntry, readEntry, type CrawlInput, type EntryOptions, type EntryResult, type ReadSummary } from '../stream/entry.js';
import type { StreamProgress } from '../stream/sketch-crawl.js';
import { plain, round4 } from '../report/plain.js';
import { signatureReport } from './report.js';
import { precisionRecall, sampleReference, type PrPoint } from './evaluate.js';
import { collisionParams, SIGNATURE_DEFAULTS, signatureParams, VERIFIED_DEFAULTS, type SignatureOptions } from './options.js';
import { exactJaccard, pairsAtLeast } from './pair-evaluation.js';
import { computeSignatures } from './signatures.js';
import { readForSignatures } from './stream.js';

/** Defaults of `findSignatureCollisions` (and of the flags of `resemble signatures`). */
export const SIGNATURE_RUN_DEFAULTS = {
  ...SIGNATURE_DEFAULTS, ...VERIFIED_DEFAULTS, unverifiedD: SIGNATURE_DEFAULTS.D, records: ['pairs', 'groups'], threshold: 0.9, sample: 100, pairPrecisionAt: 0.8, pairRecallAt: 0.9,
} as const;

/** Options of `findSignatureCollisions`: the flags of `resemble signatures`, each with its default. */
export interface SignatureCollisionOptions extends EntryOptions, SignatureOptions {
  /** HM tolerance: pages collide when their HM signatures differ by less than C in every component (default 2). */
  C?: number;
  /** RP tolerance: the candidates' (default 0.1), or with `verifyAt` 0 the collisions' (default 0.03). */
  D?: number;
  /**
   * Candidates within the tolerances collide when the exact resemblance of their word-8-shingle
   * sets (whole pages, markup dropped) is at least this (default 0.85); 0: every candidate
   * collides, the paper's rule (no shingle sets are kept). Not with `evaluate`.
   */
  verifyAt?: number;
  /** 'page' (default: every word of the page, what the verification compares) or 'main' (each page's content words, its site's template left out). */
  content?: 'main' | 'page';
  /** Which records: pairs, groups, or both (default both, pairs first). */
  records?: ReadonlyArray<'pairs' | 'groups'>;
  /** Return the precision–recall points against a reference set instead of the collisions. */
  evaluate?: boolean;
  /** evaluate: the reference pages' URLs (default: `sample` pages drawn with a neighbour of cosine ≥ threshold). */
  reference?: readonly string[];
  sample?: number;
  threshold?: number;
  /** evaluate: the tolerances swept (default the paper's), and D of the RP-only baseline. */
  sweepC?: number[];
  sweepD?: number[];
  rpOnlyD?: number[];
  /** evaluate: pairs with exact 8-shingle Jaccard ≥ pairRecallAt are the ones recall counts (default 0.9); precision counts colliding pairs with Jaccard ≥ pairPrecisionAt (default 0.8). */
  pairPrecisionAt?: number;
  pairRecallAt?: number;
  /** Called as pages are read. */
  onProgress?: (p: StreamProgress) => void;
  /** Called when a later stage starts (the content pages read back), with its name and what it does. */
  onStage?: (name: string, text: string | (() => string)) => void;
}

/** A colliding pair, as `resemble signatures` prints it. */
export interface CollisionRecord {
  a: string;
  b: string;
  rpDistance: number;
  hmDistance: number;
  /** When a or b stands for several pages with the same signatures: how many each stands for. */
  aPages?: number;
  bPages?: number;
}

/** A group of pages that do not chain: every two collide. */
export interface CollisionGroupRecord {
  group: number;
  size: number;
  /** Whether the group's pairs are listed among the pair records (small groups) or implied. */
  pairsListed: boolean;
  members: { url: string; rpDistance: number; hmDistance: number; copyOf?: string }[];
}

/** The counts of `resemble signatures`'s summary lines. */
export interface SignatureSummary extends ReadSummary {
  /** Colliding pairs in all (listed or implied by a group), pairs listed, and distinct signatures. */
  pairs: number;
  listedPairs: number;
  distinct: number;
  groups: number;
  groupedPages: number;
  C: number;
  D: number;
  k: number;
  /** The verification: the resemblance candidates need (0: none), the candidate pairs of distinct signatures, and those it dropped. */
  verifyAt: number;
  candidates: number;
  rejected: number;
  /** evaluate: the reference set's size and where it came from, and the pairs pair recall counts. */
  reference?: { pages: number; sampled: boolean; threshold: number };
  wantedPairs?: number;
}

/** What `findSignatureCollisions` resolves to: the records `resemble signatures` prints and its summary; with `evaluate`, also the points unrounded (what `precisionRecallPlot` draws). */
export interface FoundSignatureCollisions extends EntryResult<CollisionRecord | CollisionGroupRecord | PrPoint, SignatureSummary> {
  points?: PrPoint[];
}

const KNOWN = ['workers', 'read', 'onError', 'onWarning', 'signal', 'k', 'gamma', 'iterations', 'seed', 'weighting', 'C', 'D', 'verifyAt', 'content', 'records', 'evaluate',
  'reference', 'sample', 'threshold', 'sweepC', 'sweepD', 'rpOnlyD', 'pairPrecisionAt', 'pairRecallAt', 'onProgress', 'onStage'];

/** Takes the reference URLs and the graph; returns their DocIds, or throws E_INPUT for a URL not in the crawl. */
function referenceIds(urls: readonly string[], graph: WebGraph): Uint32Array {
  const ids: number[] = [];
  urls.forEach((url, i) => {
    const id = graph.docId(url);
    if (id === undefined) throw new ResembleError('E_INPUT', `reference ${i + 1}: ${url} is not a page of the crawl`, { reference: i + 1 });
    ids.push(id);
  });
  return Uint32Array.from(new Set(ids)).sort();
}

/** Finds the near-replicas of a crawl by content and hyperlink signatures: the records `resemble signatures` prints. */
export async function findSignatureCollisions(input: CrawlInput, options: SignatureCollisionOptions = {}): Promise<FoundSignatureCollisions> {
  options = checkEntry(input, options, KNOWN, 'findSignatureCollisions');
  const d = SIGNATURE_RUN_DEFAULTS;
  const signatureOptions: SignatureOptions = {};
  for (const key of ['k', 'gamma', 'iterations', 'seed', 'weighting'] as const) if (options[key] !== undefined) (signatureOptions as Record<string, unknown>)[key] = options[key];
  signatureParams(signatureOptions);
  if (options.evaluate !== undefined && typeof options.evaluate !== 'boolean') throw optionError('evaluate', 'boolean', options.evaluate);
  const evaluate = options.evaluate ?? false;
  if (options.verifyAt !== undefined && evaluate) throw optionError('verifyAt', 'no value with evaluate', options.verifyAt);
  const verifyAt = evaluate ? 0 : numberOption('verifyAt', options.verifyAt, d.verifyAt, 0, 1);
  const C = numberOption('C', options.C, d.C, 0, 1e6), D = numberOption('D', options.D, verifyAt > 0 ? d.D : d.unverifiedD, 0, 1e6);
  collisionParams({ C, D });
  const content = enumOption('content', options.content, d.content, ['main', 'page'] as const);
  const wanted = options.records ?? d.records;
  if (!Array.isArray(wanted) || wanted.length === 0 || wanted.some((x) => x !== 'pairs' && x !== 'groups')) throw optionError('records', "['pairs'], ['groups'] or both", options.records);
  if (options.records !== undefined && evaluate) throw optionError('records', 'no value with evaluate', options.records);
  for (const key of ['reference', 'sample', 'threshold', 'sweepC', 'sweepD', 'rpOnlyD', 'pairPrecisionAt', 'pairRecallAt'] as const) {
    if (options[key] !== undefined && !evaluate) throw optionError(key, 'no value unless evaluate', options[key]);
  }
  const threshold = numberOption('threshold', options.threshold, d.threshold, 0, 1);
  const sampleSize = intOption('sample', options.sample, d.sample, 1, 2 ** 31);
  const pairPrecisionAt = numberOption('pairPrecisionAt', options.pairPrecisionAt, d.pairPrecisionAt, 0, 1);
  const pairRecallAt = numberOption('pairRecallAt', options.pairRecallAt, d.pairRecallAt, 0.001, 1);
  for (const key of ['sweepC', 'sweepD', 'rpOnlyD'] as const) {
    const list = options[key];
    if (list !== undefined && (!Array.isArray(list) || list.length === 0 || list.some((x) => typeof x !== 'number' || !(x > 0) || !Number.isFinite(x)))) throw optionError(key, 'an array of numbers > 0', list);
  }
  if (options.reference !== undefined && (!Array.isArray(options.reference) || options.reference.some((u) => typeof u !== 'string'))) throw optionError('reference', 'an array of URLs', options.reference);
  if (options.onStage !== undefined && typeof options.onStage !== 'function') throw optionError('onStage', 'a function', options.onStage);
  const started = performance.now();
  const { read, errors } = await readEntry(input, options, (r) => readForSignatures(r.inputs, {
    content, shingleSets: evaluate || verifyAt > 0, ...r.workers, read: r.read, onProgress: r.onProgress,
    ...(options.onStage ? { onStage: options.onStage } : {}),
  }));
  const { stream, graph, bags } = read;
  const signatures = computeSignatures(bags, { offsets: graph.linkOffsets, targets: graph.linkTargets }, signatureOptions);
  const urls = graph.urls;
  const k = signatures.params.k;
  const summary: SignatureSummary = {
    pages: stream.urls.length, bytes: stream.bytes, errors, skipped: { ...stream.skipped }, workers: stream.workers, seconds: 0,
    pairs: 0, listedPairs: 0, distinct: 0, groups: 0, groupedPages: 0, C, D, k, verifyAt, candidates: 0, rejected: 0,
  };
  const records: (CollisionRecord | CollisionGroupRecord | PrPoint)[] = [];
  let points: PrPoint[] | undefined;
  if (!evaluate) {
    const sets = read.sets;
    const verify = verifyAt > 0 && sets ? (a: number, b: number) => exactJaccard(sets, a, b) >= verifyAt - 1e-12 : undefined;
    const report = signatureReport(signatures.rp, signatures.hm, k, { C, D, ...(verify ? { verify } : {}) });
    const { pairs, groups } = report;
    if (wanted.includes('pairs')) {
      for (let i = 0; i < pairs.a.length; i++) {
        const r: CollisionRecord = { a: urls[pairs.a[i]], b: urls[pairs.b[i]], rpDistance: round4(pairs.rpDistance[i]), hmDistance: round4(pairs.hmDistance[i]) };
        // a page standing for copies with the same signatures says how many pages it stands for
        if (pairs.aPages[i] > 1 || pairs.bPages[i] > 1) { r.aPages = pairs.aPages[i]; r.bPages = pairs.bPages[i]; }
        records.push(r);
      }
    }
    if (wanted.includes('groups')) {
      groups.forEach((g, i) => records.push({
        group: i, size: g.members.length, pairsListed: g.pairsListed,
        members: g.members.map((m) => (m.copyOf >= 0
          ? { url: urls[m.doc], rpDistance: round4(m.rpDistance), hmDistance: round4(m.hmDistance), copyOf: urls[m.copyOf] }
          : { url: urls[m.doc], rpDistance: round4(m.rpDistance), hmDistance: round4(m.hmDistance) })),
      }));
    }
    Object.assign(summary, { candidates: report.candidates, rejected: report.rejected, pairs: report.collidingPairs, listedPairs: pairs.a.length, distinct: report.distinct, groups: groups.length, groupedPages: groups.reduce((t, g) => t + g.members.length, 0) });
  } else {
    const reference = options.reference !== undefined ? referenceIds(options.reference, graph) : sampleReference(bags, { size: sampleSize, threshold });
    summary.reference = { pages: reference.length, sampled: options.reference === undefined, threshold };
    const sets = read.sets!;
    const pairsWanted = pairsAtLeast(sets, pairRecallAt);
    summary.wantedPairs = pairsWanted.a.length;
    const sweep = { C: options.sweepC, D: options.sweepD, rpOnlyD: options.rpOnlyD };
    points = precisionRecall(bags, signatures, reference, { ...sweep, threshold, exact: { sets, wanted: pairsWanted, precisionAt: pairPrecisionAt } });
    for (const p of points) records.push(p);
  }
  summary.seconds = (performance.now() - started) / 1000;
  return { records: records.map((r) => plain(r) as typeof r), summary, ...(points ? { points } : {}) };
}
