/**
 * The record `resemble mirrors` prints for a ranked host pair, version 2 (docs/FORMATS.md):
 * `{rank, a, b, score, algorithms, mirror, relation, extent?, evidence}`. The mirroring test's
 * verdict is said once: `relation` names it, `evidence.verdict` holds its reason and the
 * alignments compared (the deciding one by its index), and hybrid's content evidence, the same
 * comparison of the same sketches, is left out when the test ran.
 */
import type { HostSet } from './host-set.js';
import type { Ranking } from './ranking.js';
import type { AlignmentEvidence, MirroringResult, Verdict } from './verdict.js';

/** The version of the mirrors record. */
export const MIRRORS_RECORD_VERSION = 2;

/** The verdict as the record gives it: the reason, the alignments, which one decided, and the copied pages. */
export interface VerdictEvidence {
  reason: string;
  /** Index into `alignments` of the deciding alignment; absent when none was compared. */
  deciding?: number;
  alignments: AlignmentEvidence[];
  copied?: { pages: number; paths: Array<[string, string]> };
  inferred?: boolean;
}

/** One printed pair. */
export interface MirrorRecord {
  rank: number;
  a: string;
  b: string;
  score: number;
  algorithms: string[];
  /** true: a mirror (full or partial); false: not a mirror, or only copied pages; null: undetermined or not tested. */
  mirror: boolean | null;
  /** The mirroring test's verdict; null when it did not run. */
  relation: Verdict | null;
  /** For a mirror: full or partial. */
  extent?: 'full' | 'partial';
  evidence: Record<string, unknown>;
}

/** Takes a verdict; returns it as the record's evidence (each fact once). */
export function verdictEvidence(r: MirroringResult): VerdictEvidence {
  const deciding = r.alignment ? r.alignments.indexOf(r.alignment) : -1;
  return {
    reason: r.reason,
    ...(deciding >= 0 ? { deciding } : {}),
    alignments: r.alignments,
    ...(r.copied ? { copied: r.copied } : {}),
    ...(r.inferred ? { inferred: true } : {}),
  };
}

/** Takes the hosts, a ranking, a rank (0-based), its verdict when tested and whether the truth file lists the pair; returns the record. */
export function mirrorRecord(hosts: HostSet, ranking: Ranking, i: number, result: MirroringResult | undefined, truth?: boolean): MirrorRecord {
  const evidence: Record<string, unknown> = { ...ranking.evidence(i) };
  if (result) {
    delete evidence.content;
    evidence.verdict = verdictEvidence(result);
  }
  if (truth !== undefined) evidence.truth = truth;
  return {
    rank: i + 1,
    a: hosts.hosts[ranking.a[i]],
    b: hosts.hosts[ranking.b[i]],
    score: ranking.score[i],
    algorithms: ranking.algorithms(i),
    mirror: !result || result.verdict === 'undetermined' ? null : result.verdict === 'mirror',
    relation: result ? result.verdict : null,
    ...(result?.extent ? { extent: result.extent } : {}),
    evidence,
  };
}

/** A host and its `www.` alias, as the crawl showed them (io/crawl-phenomena.ts): printed after the ranked pairs, never sampled. */
export interface AliasRecord {
  rank: null;
  a: string;
  b: string;
  score: null;
  algorithms: [];
  mirror: true;
  relation: 'alias';
  extent: 'full';
  evidence: { alias: { rule: string; pages: number; sameBytes: number; ip?: string } };
}

/**
 * Takes the host aliases a crawl's phenomena found; returns one record per pair of distinct host
 * names (a `www.` alias; an https spelling of a host is the host itself here), the host first.
 */
export function aliasRecords(aliases: ReadonlyArray<{ host: string; alias: string; rule: string; pages: number; sameBytes: number; ip?: string }>): AliasRecord[] {
  const name = (origin: string) => origin.replace(/^[a-z]+:\/\//, '');
  const seen = new Set<string>();
  const out: AliasRecord[] = [];
  for (const x of aliases) {
    const a = name(x.host), b = name(x.alias);
    if (a === b || seen.has(`${a} ${b}`)) continue;
    seen.add(`${a} ${b}`);
    out.push({ rank: null, a, b, score: null, algorithms: [], mirror: true, relation: 'alias', extent: 'full', evidence: { alias: { rule: x.rule, pages: x.pages, sameBytes: x.sameBytes, ...(x.ip ? { ip: x.ip } : {}) } } });
  }
  return out;
}
