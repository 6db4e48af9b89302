/**
 * The growth profile and the extrapolation of Pereira et al. §4.2: the share of the final clusters
 * and duplicates found after each fraction of the steps is much the same across collections, so the
 * final number of duplicates of a collection run for only a few steps is estimated as
 *   found so far / (share a reference collection had found at the same fraction of its steps).
 */
import { ResembleError } from '../errors.js';
import type { GrowthPoint } from './duplicates.js';

/** Share of the final clusters and duplicates found after `fraction` of the steps. */
export interface ProfilePoint {
  fraction: number;
  clusters: number;
  duplicates: number;
}

/** An estimate of the final duplicates from the first `iteration` steps. */
export interface DuplicateEstimate {
  iteration: number;
  /** iteration / m. */
  fraction: number;
  /** The reference's share of its final duplicates at that fraction. */
  referenceShare: number;
  estimatedDuplicates: number;
  estimatedClusters: number;
  /** estimatedDuplicates / documents, in percent. */
  estimatedPercent: number;
}

/** Takes the growth of a complete run of m steps; returns its profile (fractions of the final values). */
export function growthProfile(growth: readonly GrowthPoint[], parts: number): ProfilePoint[] {
  if (growth.length !== parts || parts === 0) {
    throw new ResembleError('E_INPUT', `a growth profile needs a complete run: expected ${parts} steps, got ${growth.length}`, { parts, steps: growth.length });
  }
  const last = growth[growth.length - 1];
  const share = (v: number, final: number) => (final === 0 ? 1 : v / final);
  return growth.map((g) => ({ fraction: g.iteration / parts, clusters: share(g.clusters, last.clusters), duplicates: share(g.duplicates, last.duplicates) }));
}

/** Takes a profile and a fraction of steps in [0, 1]; returns the shares there, linear between points (0 at fraction 0). */
export function shareAt(profile: readonly ProfilePoint[], fraction: number): { clusters: number; duplicates: number } {
  let prev: ProfilePoint = { fraction: 0, clusters: 0, duplicates: 0 };
  for (const p of profile) {
    if (fraction <= p.fraction) {
      const t = p.fraction === prev.fraction ? 1 : (fraction - prev.fraction) / (p.fraction - prev.fraction);
      return { clusters: prev.clusters + t * (p.clusters - prev.clusters), duplicates: prev.duplicates + t * (p.duplicates - prev.duplicates) };
    }
    prev = p;
  }
  return { clusters: prev.clusters, duplicates: prev.duplicates };
}

/**
 * Takes the growth of a (possibly partial) run of m steps over `documents` documents and a
 * reference profile; returns one estimate per step run. A step where the reference had found
 * nothing yet gives no estimate.
 */
export function extrapolate(growth: readonly GrowthPoint[], parts: number, documents: number, reference: readonly ProfilePoint[]): DuplicateEstimate[] {
  const out: DuplicateEstimate[] = [];
  for (const g of growth) {
    const fraction = g.iteration / parts;
    const share = shareAt(reference, fraction);
    if (!(share.duplicates > 0)) continue;
    const estimatedDuplicates = g.duplicates / share.duplicates;
    out.push({
      iteration: g.iteration,
      fraction,
      referenceShare: share.duplicates,
      estimatedDuplicates,
      estimatedClusters: share.clusters > 0 ? g.clusters / share.clusters : 0,
      estimatedPercent: documents === 0 ? 0 : (100 * estimatedDuplicates) / documents,
    });
  }
  return out;
}
