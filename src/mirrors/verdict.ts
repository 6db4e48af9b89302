/**
 * The mirroring rule shared by the mirroring test (pages from a content source) and hybrid (page
 * sketches): for each prefix alignment of two hosts (alignment.ts), compare aligned pages sampled
 * at equal intervals and count the highly similar ones. Unlike §4.1.1 it needs no root page and
 * does not stop at the first differing page: a lagging copy has a few changed pages, and a crawl
 * slice rarely holds the roots. An alignment is a mirrored collection when
 * - the sample supports it: at least `agreement` of the compared pages are highly similar, and at
 *   `confidence` most of the aligned pages are (the lower end of the Wilson interval of the share,
 *   finite-population corrected: comparing every aligned page leaves no doubt); and
 * - it is a substantial part of at least one host: `minShare` of its pages, and of its bytes where
 *   page sizes are known, and `minPages` pages at least.
 * Aligned pages that are copies but fall short of either are `copied pages` (a handful of pages
 * copied from a manual is not a mirror of its host). A host pair is a mirror when one of its
 * alignments is; `full` when the alignment holds nearly all of both hosts. docs/mirrors.md states
 * the rule with its curves.
 */
import { intOption, numberOption, rejectUnknown } from '../errors.js';
import { alignedPairs, alignParams, alignPaths, ALIGN_DEFAULTS, spreadOrder, type AlignOptions, type PathAlignment } from './alignment.js';

/** The verdict on a host pair (or on one alignment of it). */
export type Verdict = 'mirror' | 'copied pages' | 'not mirror' | 'undetermined';

/** Options of the mirroring rule. */
export interface MirrorRuleOptions extends AlignOptions {
  /** Aligned page pairs compared per alignment, spread over its sorted paths (default 20; §4.1.1 sampled 15 per host). */
  samplePaths?: number;
  /** Resemblance at or above which two pages are highly similar (default 0.7, the middle of the range that was right on two realistic crawls; docs/mirrors.md). */
  threshold?: number;
  /** Share of the compared pages that must be highly similar for a mirror (default 0.75, the paper's m for conn). */
  agreement?: number;
  /** Compared pages needed for any verdict on an alignment; fewer gives `undetermined` (default 3). */
  minPaths?: number;
  /** Confidence at which most aligned pages must be highly similar, given the sample (default 0.95; two-sided Wilson interval). */
  confidence?: number;
  /** Share of at least one host's pages (and bytes, where known) the aligned pages must hold for a mirror (default 0.1; docs/mirrors.md). */
  minShare?: number;
  /** Aligned pages below which an alignment of copies is `copied pages`, whatever share of a host they are (default 5: a handful; docs/mirrors.md). */
  minPages?: number;
}

/** Validated rule options. */
export interface MirrorRule {
  samplePaths: number;
  threshold: number;
  agreement: number;
  minPaths: number;
  confidence: number;
  minShare: number;
  minPages: number;
  maxAlignments: number;
  maxPrefixes: number;
}

/** The defaults of {@link MirrorRuleOptions}. */
export const RULE_DEFAULTS: MirrorRule = { samplePaths: 20, threshold: 0.7, agreement: 0.75, minPaths: 3, confidence: 0.95, minShare: 0.1, minPages: 5, ...ALIGN_DEFAULTS };

/** The option names of {@link MirrorRuleOptions}. */
export const RULE_KEYS = ['samplePaths', 'threshold', 'agreement', 'minPaths', 'confidence', 'minShare', 'minPages', 'maxAlignments', 'maxPrefixes'] as const;

/** Takes rule options (unknown keys are the caller's to reject); returns them validated with defaults. */
export function ruleParams(options: MirrorRuleOptions = {}): MirrorRule {
  return {
    samplePaths: intOption('samplePaths', options.samplePaths, RULE_DEFAULTS.samplePaths, 1, 100000),
    threshold: numberOption('threshold', options.threshold, RULE_DEFAULTS.threshold, 0, 1),
    agreement: numberOption('agreement', options.agreement, RULE_DEFAULTS.agreement, 0.01, 1),
    minPaths: intOption('minPaths', options.minPaths, RULE_DEFAULTS.minPaths, 1, 100000),
    confidence: numberOption('confidence', options.confidence, RULE_DEFAULTS.confidence, 0.5, 0.9999),
    minShare: numberOption('minShare', options.minShare, RULE_DEFAULTS.minShare, 0, 1),
    minPages: intOption('minPages', options.minPages, RULE_DEFAULTS.minPages, 1, 2 ** 31),
    ...alignParams(options),
  };
}

/** What the comparison of one alignment found. */
export interface AlignmentEvidence {
  /** The two prefixes, as URL paths ('/' for the whole host). */
  prefixA: string;
  prefixB: string;
  /** Aligned path pairs, and paths under each prefix (how much of each side the alignment covers). */
  common: number;
  pathsA: number;
  pathsB: number;
  /** Aligned pairs whose pages were compared, and of those highly similar. */
  compared: number;
  similar: number;
  /** Mean resemblance of the compared pages, to 4 decimals (0 when none). */
  meanResemblance: number;
  /** Pairs not compared: a page unknown to the source, failing on one side, or too short to shingle. */
  unknown: number;
  failed: number;
  short: number;
  /** Share of each host's pages the aligned pages are (`common` over the host's paths), to 4 decimals. */
  shareA: number;
  shareB: number;
  /** Share of each host's bytes the aligned pages hold, to 4 decimals; absent when page sizes are unknown. */
  bytesShareA?: number;
  bytesShareB?: number;
  /** Lower end of the confidence interval of the share of aligned pages highly similar, to 4 decimals. */
  lowerShare: number;
  verdict: Verdict;
}

/** Page sizes of the two hosts, parallel to their sorted paths (bytes; 0 or absent where unknown). */
export interface PageSizes {
  a: ArrayLike<number>;
  b: ArrayLike<number>;
}

/** The verdict on a host pair with the evidence behind it. */
export interface MirroringResult {
  verdict: Verdict;
  /** Why, in words. */
  reason: string;
  /** Pages compared and highly similar under the deciding alignment. */
  tested: number;
  similar: number;
  /** The deciding alignment (the first mirroring one, else the first decided one, else the first), when there is one. */
  alignment?: AlignmentEvidence;
  /** Every alignment compared, most aligned pairs first. */
  alignments: AlignmentEvidence[];
  /** For a mirror: `full` when the deciding alignment holds nearly all (0.9) of both hosts' pages, else `partial`. */
  extent?: 'full' | 'partial';
  /** For copied pages: how many aligned pages, and their paths on each host (at most 100 listed). */
  copied?: { pages: number; paths: Array<[string, string]> };
  /** True when the verdict followed from pooled verdicts without a comparison. */
  inferred?: boolean;
}

/** One alignment to compare: its aligned pairs (indexes into the two path lists) in comparison order. */
export interface ComparisonPlan {
  alignment: PathAlignment;
  pairs: Array<[number, number]>;
}

/** Takes two hosts' sorted paths and the rule; returns the alignments to compare with their pairs in comparison order. */
export function planComparisons(pathsA: readonly string[], pathsB: readonly string[], rule: MirrorRule): ComparisonPlan[] {
  return alignPaths(pathsA, pathsB, { maxAlignments: rule.maxAlignments, maxPrefixes: rule.maxPrefixes }).map((alignment) => {
    const all = alignedPairs(pathsA, pathsB, alignment);
    return { alignment, pairs: spreadOrder(all.length, rule.samplePaths).map((i) => all[i]) };
  });
}

/** What one compared pair gave: a resemblance (NaN: too short), or why it was not compared. */
export type PairOutcome = number | 'unknown' | 'failed';

/** The normal quantile of a two-sided confidence (Acklam's rational approximation, |error| < 1.2e-9). */
export function normalQuantile(confidence: number): number {
  const p = 1 - (1 - confidence) / 2;
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  if (p > 0.97575) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  const q = p - 0.5, r = q * q;
  return ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/**
 * Takes s highly similar of n compared pages out of N aligned ones and a confidence; returns the
 * lower end of the Wilson score interval of the share of aligned pages highly similar, with the
 * finite-population correction (the effective sample n(N-1)/(N-n) grows without bound as n
 * reaches N: every aligned page compared, the share is known). 0 when nothing was compared.
 */
export function wilsonLower(s: number, n: number, N: number, confidence: number): number {
  if (n <= 0) return 0;
  const p = s / n;
  if (n >= N) return p;
  const m = N > 1 ? (n * (N - 1)) / (N - n) : n;
  const z = normalQuantile(confidence), z2 = z * z;
  return Math.max(0, (p + z2 / (2 * m) - z * Math.sqrt((p * (1 - p)) / m + z2 / (4 * m * m))) / (1 + z2 / m));
}

/** What an alignment's verdict is decided on. */
export type AlignmentCounts = Pick<AlignmentEvidence, 'compared' | 'similar' | 'common' | 'shareA' | 'shareB' | 'bytesShareA' | 'bytesShareB' | 'lowerShare'>;

/**
 * Takes an alignment's counts and the rule; returns its verdict: `mirror` when the sample supports
 * it (agreement, and most aligned pages highly similar at the rule's confidence) and it holds
 * `minShare` of one host's pages and bytes and at least `minPages` pages; `copied pages` when its pages are copies but it is
 * smaller than that, or a handful compared in full; `not mirror` when too few compared pages are
 * highly similar; `undetermined` otherwise.
 */
export function alignmentVerdict(e: AlignmentCounts, rule: Pick<MirrorRule, 'agreement' | 'minPaths' | 'minShare' | 'minPages'>): Verdict {
  const agrees = e.compared > 0 && e.similar >= rule.agreement * e.compared - 1e-9;
  const side = (pages: number, bytes: number | undefined) => pages >= rule.minShare && (bytes === undefined || bytes >= rule.minShare);
  const large = e.common >= rule.minPages && (side(e.shareA, e.bytesShareA) || side(e.shareB, e.bytesShareB));
  // Fewer compared than minPaths: copied pages when they were every aligned page (a handful), else nothing to say.
  if (e.compared < rule.minPaths) return agrees && e.compared >= e.common ? 'copied pages' : 'undetermined';
  if (!agrees) return 'not mirror';
  if (!large) return 'copied pages';
  return e.lowerShare > 0.5 ? 'mirror' : 'undetermined';
}

/** Counts the outcomes of one alignment's pairs until `samplePaths` were compared. */
export class AlignmentTally {
  compared = 0;
  similar = 0;
  unknown = 0;
  failed = 0;
  short = 0;
  private sum = 0;

  constructor(readonly alignment: PathAlignment, private readonly rule: MirrorRule) {}

  /** True when enough pages were compared, or four times as many pairs tried (a source that knows few of them). */
  get done(): boolean {
    return this.compared >= this.rule.samplePaths || this.compared + this.unknown + this.failed + this.short >= 4 * this.rule.samplePaths;
  }

  /** Takes one pair's outcome; counts it. */
  add(outcome: PairOutcome): void {
    if (outcome === 'unknown') this.unknown++;
    else if (outcome === 'failed') this.failed++;
    else if (Number.isNaN(outcome)) this.short++;
    else {
      this.compared++;
      this.sum += outcome;
      if (outcome >= this.rule.threshold) this.similar++;
    }
  }

  /**
   * Takes the two hosts' path counts and the byte shares of the aligned pages (undefined: sizes
   * unknown); returns the alignment's evidence and verdict.
   */
  evidence(hostPaths: { a: number; b: number }, bytesShare?: { a: number; b: number }): AlignmentEvidence {
    const { compared, similar } = this;
    const rule = this.rule;
    const common = this.alignment.common;
    const shareA = hostPaths.a ? common / hostPaths.a : 0, shareB = hostPaths.b ? common / hostPaths.b : 0;
    const lowerShare = wilsonLower(similar, compared, common, rule.confidence);
    const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
    const verdict = alignmentVerdict({ compared, similar, common, shareA, shareB, bytesShareA: bytesShare?.a, bytesShareB: bytesShare?.b, lowerShare }, rule);
    return {
      prefixA: '/' + this.alignment.prefixA,
      prefixB: '/' + this.alignment.prefixB,
      common: this.alignment.common,
      pathsA: this.alignment.pathsA,
      pathsB: this.alignment.pathsB,
      compared,
      similar,
      meanResemblance: compared ? Math.round((this.sum / compared) * 1e4) / 1e4 : 0,
      unknown: this.unknown,
      failed: this.failed,
      short: this.short,
      shareA: r4(shareA),
      shareB: r4(shareB),
      ...(bytesShare ? { bytesShareA: r4(bytesShare.a), bytesShareB: r4(bytesShare.b) } : {}),
      lowerShare: r4(lowerShare),
      verdict,
    };
  }
}

const describe = (e: AlignmentEvidence) => `${e.prefixA} ↔ ${e.prefixB}`;

/** Copied pages listed in a verdict, at most. */
const COPIED_LISTED = 100;

/** What pairVerdict needs of the two hosts: their path counts, and their sorted paths to list copied pages. */
export interface PairHosts {
  a: number;
  b: number;
  pathsA?: readonly string[];
  pathsB?: readonly string[];
}

/** Takes the evidence of every alignment compared, the two hosts and the rule; returns the host pair's verdict and reason. */
export function pairVerdict(alignments: AlignmentEvidence[], sizes: PairHosts, rule: MirrorRule): MirroringResult {
  const mirror = alignments.find((e) => e.verdict === 'mirror');
  const copied = alignments.filter((e) => e.verdict === 'copied pages');
  const decided = alignments.find((e) => e.verdict === 'not mirror');
  const deciding = mirror ?? copied[0] ?? decided ?? alignments[0];
  const counts = deciding ? { tested: deciding.compared, similar: deciding.similar, alignment: deciding } : { tested: 0, similar: 0 };
  const share = (e: AlignmentEvidence) => `${pct(e.shareA)} and ${pct(e.shareB)} of the hosts' pages${e.bytesShareA === undefined ? '' : `, ${pct(e.bytesShareA)} and ${pct(e.bytesShareB!)} of their bytes`}`;
  if (mirror) {
    const full = mirror.shareA >= 0.9 && mirror.shareB >= 0.9;
    return { verdict: 'mirror', reason: `${mirror.similar} of ${mirror.compared} compared pages highly similar under ${describe(mirror)}, ${share(mirror)}`, ...counts, extent: full ? 'full' : 'partial', alignments };
  }
  if (copied.length) {
    const pages = copied.reduce((n, e) => n + e.common, 0);
    const paths: Array<[string, string]> = [];
    if (sizes.pathsA && sizes.pathsB) {
      for (const e of copied) {
        for (const [i, j] of alignedPairs(sizes.pathsA, sizes.pathsB, { prefixA: e.prefixA.slice(1), prefixB: e.prefixB.slice(1) })) {
          if (paths.length < COPIED_LISTED) paths.push(['/' + sizes.pathsA[i], '/' + sizes.pathsB[j]]);
        }
      }
    }
    const first = copied[0];
    return {
      verdict: 'copied pages',
      reason: `copied pages: ${pages} (${first.similar} of ${first.compared} compared highly similar under ${describe(first)}, ${share(first)}: ` +
        `${first.common < rule.minPages ? `fewer than ${rule.minPages} pages` : first.shareA < rule.minShare && first.shareB < rule.minShare ? `under ${pct(rule.minShare)} of either host` : `under ${pct(rule.minShare)} of either host's bytes`})`,
      ...counts,
      copied: { pages, paths },
      alignments,
    };
  }
  if (decided) {
    return {
      verdict: 'not mirror',
      reason: `${decided.similar} of ${decided.compared} compared pages highly similar under ${describe(decided)} (${Math.ceil(rule.agreement * decided.compared - 1e-9)} needed)` +
        (alignments.length > 1 ? `; no other of ${alignments.length} alignments mirrors` : ''),
      ...counts,
      alignments,
    };
  }
  if (!deciding) {
    // Two hosts large enough to judge whose paths have nothing in common, even under another prefix, are not mirrors (§1).
    const small = Math.min(sizes.a, sizes.b);
    if (small >= rule.minPaths) return { verdict: 'not mirror', reason: `no common or aligned paths (${sizes.a} and ${sizes.b} paths)`, ...counts, alignments };
    return { verdict: 'undetermined', reason: `no common or aligned paths; ${sizes.a < sizes.b ? 'first' : 'second'} host has ${small} path${small === 1 ? '' : 's'} (${rule.minPaths} needed)`, ...counts, alignments };
  }
  const most = alignments.reduce((m, e) => Math.max(m, e.compared), 0);
  const lost = deciding.unknown + deciding.failed + deciding.short;
  const unsure = alignments.find((e) => e.compared >= rule.minPaths);
  return {
    verdict: 'undetermined',
    reason: (unsure ? `${unsure.similar} of ${unsure.compared} compared pages highly similar under ${describe(unsure)}: too few to say at ${pct(rule.confidence)} confidence that most of its ${unsure.common} aligned pages are`
      : `at most ${most} aligned pages could be compared (${rule.minPaths} needed)`) +
      (lost ? `; under ${describe(deciding)}: ${deciding.unknown} unknown, ${deciding.failed} failing on one host, ${deciding.short} too short` : ''),
    ...counts,
    alignments,
  };
}

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;

/** Takes page sizes parallel to sorted paths and an alignment; returns the share of all the bytes the aligned pages on each side hold (undefined when no size is known). */
export function bytesShares(pathsA: readonly string[], pathsB: readonly string[], sizes: PageSizes | undefined, alignment: Pick<PathAlignment, 'prefixA' | 'prefixB'>): { a: number; b: number } | undefined {
  if (!sizes) return undefined;
  let totalA = 0, totalB = 0, inA = 0, inB = 0;
  for (let i = 0; i < pathsA.length; i++) totalA += sizes.a[i] ?? 0;
  for (let j = 0; j < pathsB.length; j++) totalB += sizes.b[j] ?? 0;
  if (totalA === 0 || totalB === 0) return undefined;
  for (const [i, j] of alignedPairs(pathsA, pathsB, alignment)) { inA += sizes.a[i] ?? 0; inB += sizes.b[j] ?? 0; }
  return { a: inA / totalA, b: inB / totalB };
}

/** Takes two hosts' sorted paths, a synchronous comparison of pair (i, j), rule options and the pages' sizes (when known); returns the verdict (hybrid's evidence). */
export function compareHosts(pathsA: readonly string[], pathsB: readonly string[], compare: (i: number, j: number) => PairOutcome, options: MirrorRuleOptions = {}, sizes?: PageSizes): MirroringResult {
  rejectUnknown(options, RULE_KEYS, 'compareHosts');
  const rule = ruleParams(options);
  const out: AlignmentEvidence[] = [];
  for (const plan of planComparisons(pathsA, pathsB, rule)) {
    const tally = new AlignmentTally(plan.alignment, rule);
    for (const [i, j] of plan.pairs) {
      if (tally.done) break;
      tally.add(compare(i, j));
    }
    out.push(tally.evidence({ a: pathsA.length, b: pathsB.length }, bytesShares(pathsA, pathsB, sizes, plan.alignment)));
  }
  return pairVerdict(out, { a: pathsA.length, b: pathsB.length, pathsA, pathsB }, rule);
}
