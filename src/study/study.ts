/**
 * The duplicate study of Pereira, Baeza-Yates and Ziviani (2006): duplicates and near-duplicates of
 * the whole collection (Tables 2, 3), of the parts connected and disconnected from seed pages by
 * links (Tables 4–6), cluster-size distributions (Figures 2–4) and growth per step (Figure 5).
 */
import { intOption, optionError, rejectUnknown } from '../errors.js';
import type { ParagraphColumns } from './columns.js';
import type { Csr } from '../graph/csr.js';
import { coreSeed, reachableFrom } from './crawl.js';
import { findDuplicates, nearThresholds, type Clustering, type DuplicateResult, type GrowthPoint } from './duplicates.js';
import { extrapolate, growthProfile, type DuplicateEstimate, type ProfilePoint } from './estimate.js';

/** Options of `duplicateStudy` (paragraph options are applied when the columns are built). */
export interface StudyOptions {
  /** m, subcollections of the memory-bounded algorithm (§3). Default 1. */
  parts?: number;
  /** Near-duplicate thresholds in percent (Table 3). Default [90, 70, 50]. */
  near?: number[];
  /** Seed DocIds of the crawl simulator. Default: the lowest DocId of the largest strongly connected component. */
  seeds?: number[];
  /** A growth profile of another collection, to estimate the final duplicates from the first steps (§4.2). */
  profile?: ProfilePoint[];
}

export const STUDY_OPTION_KEYS = ['parts', 'near', 'seeds', 'profile'] as const;

/** Duplicates of one part of the collection (Table 4). */
export interface PartDuplicates {
  documents: number;
  clusters: number;
  duplicates: number;
  /** duplicates / documents, in percent. */
  percent: number;
}

/** Number of clusters of each size (Figures 2–4). */
export type SizeDistribution = Array<{ size: number; clusters: number }>;

/** What `duplicateStudy` returns: the paper's tables as numbers. */
export interface StudyReport {
  documents: { input: number; considered: number; leftOut: number; connected?: number; disconnected?: number };
  /** Seed DocIds used (empty without links). */
  seeds: number[];
  /** Table 2. */
  general: PartDuplicates;
  /** Table 3: percentage of near-duplicates per threshold, beside the percentage of duplicates. */
  near: Array<{ percent: number; clusters: number; nearDuplicates: number; percentNear: number }>;
  /** Table 4 (with links only). */
  parts?: { complete: PartDuplicates; connected: PartDuplicates; disconnected: PartDuplicates };
  /** Table 5 (with links only): clusters of the whole with at least one document in the connected part. */
  clustersReached?: { clusters: number; withConnected: number; percent: number };
  /** Table 6 and the useful documents (unique + one per cluster) found by following links. */
  uniqueReached?: { unique: number; uniqueConnected: number; percent: number; useful: number; usefulConnected: number; percentUseful: number };
  distributions: { complete: SizeDistribution; connected?: SizeDistribution; disconnected?: SizeDistribution };
  growth: { parts: number; points: GrowthPoint[]; profile: ProfilePoint[] };
  /** Estimates of the final duplicates after each step, from `options.profile` (§4.2). */
  estimates?: DuplicateEstimate[];
  /** Clusters of the whole collection as DocIds, ascending, in order of first member. */
  clusters: number[][];
}

/**
 * Takes paragraph columns, optional out-link CSR over the same DocIds and options; returns the study.
 * Without links, the connected/disconnected tables are left out.
 */
export function duplicateStudy(cols: ParagraphColumns, links: Csr | undefined, options: StudyOptions = {}): StudyReport {
  rejectUnknown(options, STUDY_OPTION_KEYS, 'duplicateStudy');
  const near = nearThresholds(options.near);
  const considered = cols.docIds.length;
  const parts = intOption('parts', options.parts, 1, 1, Math.max(1, considered));
  if (links && links.offsets.length !== cols.docCount + 1) {
    throw optionError('links', `CSR offsets over ${cols.docCount} documents (length ${cols.docCount + 1})`, links.offsets.length);
  }
  const seeds = options.seeds === undefined ? undefined : [...options.seeds];
  for (const s of seeds ?? []) if (!Number.isInteger(s) || s < 0 || s >= cols.docCount) throw optionError('seeds', `DocIds 0..${cols.docCount - 1}`, s);
  const profile = options.profile;
  if (profile !== undefined && (!Array.isArray(profile) || profile.some((p) => !(p.fraction > 0 && p.fraction <= 1) || !(p.duplicates >= 0)))) {
    throw optionError('profile', 'array of { fraction in (0, 1], clusters, duplicates }', profile);
  }

  const complete = findDuplicates(cols, undefined, { parts, near });
  const report: StudyReport = {
    documents: { input: cols.docCount, considered, leftOut: cols.docCount - considered },
    seeds: [],
    general: partOf(complete.exact, considered),
    near: complete.near.map((c) => ({ percent: c.percent, clusters: c.clusters, nearDuplicates: c.duplicates, percentNear: pct(c.duplicates, considered) })),
    distributions: { complete: distribution(complete.exact) },
    growth: { parts, points: complete.growth, profile: growthProfile(complete.growth, parts) },
    clusters: clusterMembers(cols, complete),
  };
  if (profile) report.estimates = extrapolate(complete.growth, parts, considered, profile);
  if (!links) return report;

  const seedList = seeds ?? (cols.docCount > 0 ? [coreSeed(links)] : []);
  report.seeds = seedList;
  const reached = reachableFrom(links, seedList);
  const con: number[] = [], dis: number[] = [];
  for (let p = 0; p < considered; p++) (reached[cols.docIds[p]] ? con : dis).push(p);
  const connected = findDuplicates(cols, Uint32Array.from(con), { near: [] });
  const disconnected = findDuplicates(cols, Uint32Array.from(dis), { near: [] });
  report.documents.connected = con.length;
  report.documents.disconnected = dis.length;
  report.parts = { complete: report.general, connected: partOf(connected.exact, con.length), disconnected: partOf(disconnected.exact, dis.length) };
  report.distributions.connected = distribution(connected.exact);
  report.distributions.disconnected = distribution(disconnected.exact);

  const label = complete.exact.label;
  const hit = new Uint8Array(complete.exact.clusters);
  let uniqueConnected = 0;
  for (let p = 0; p < considered; p++) {
    if (!reached[cols.docIds[p]]) continue;
    if (label[p] < 0) uniqueConnected++;
    else hit[label[p]] = 1;
  }
  const withConnected = hit.reduce((a, b) => a + b, 0);
  const clusters = complete.exact.clusters;
  const unique = considered - complete.exact.clustered;
  report.clustersReached = { clusters, withConnected, percent: pct(withConnected, clusters) };
  report.uniqueReached = {
    unique,
    uniqueConnected,
    percent: pct(uniqueConnected, unique),
    useful: unique + clusters,
    usefulConnected: uniqueConnected + withConnected,
    percentUseful: pct(uniqueConnected + withConnected, unique + clusters),
  };
  return report;
}

function pct(a: number, b: number): number {
  return b === 0 ? 0 : (100 * a) / b;
}

function partOf(c: Clustering, documents: number): PartDuplicates {
  return { documents, clusters: c.clusters, duplicates: c.duplicates, percent: pct(c.duplicates, documents) };
}

function distribution(c: Clustering): SizeDistribution {
  const bySize = new Map<number, number>();
  for (const s of c.sizes) bySize.set(s, (bySize.get(s) ?? 0) + 1);
  return [...bySize].sort((a, b) => a[0] - b[0]).map(([size, clusters]) => ({ size, clusters }));
}

function clusterMembers(cols: ParagraphColumns, r: DuplicateResult): number[][] {
  const out: number[][] = Array.from({ length: r.exact.clusters }, () => []);
  r.exact.label.forEach((c, p) => { if (c >= 0) out[c].push(cols.docIds[r.members[p]]); });
  return out;
}
