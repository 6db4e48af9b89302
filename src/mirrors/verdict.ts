/**
 * The mirroring rule shared by the mirroring test (pages from a content source) and hybrid (page
 * sketches): for each prefix alignment of two hosts (alignment.ts), compare aligned pages sampled
 * at equal intervals and count the highly similar ones; an alignment whose compared pages are
 * mostly highly similar is a mirrored collection. Unlike §4.1.1 it needs no root page and does not
 * stop at the first differing page: a lagging copy has a few changed pages, and a crawl slice
 * rarely holds the roots. A host pair is a mirror when one of its alignments is.
 */
import { intOption, numberOption, rejectUnknown } from '../errors.js';
import { alignedPairs, alignParams, alignPaths, ALIGN_DEFAULTS, spreadOrder, type AlignOptions, type PathAlignment } from './alignment.js';

/** The verdict on a host pair (or on one alignment of it). */
export type Verdict = 'mirror' | 'not mirror' | 'undetermined';

/** Options of the mirroring rule. */
export interface MirrorRuleOptions extends AlignOptions {
  /** Aligned page pairs compared per alignment, spread over its sorted paths (default 20; §4.1.1 sampled 15 per host). */
  samplePaths?: number;
  /** Resemblance at or above which two pages are highly similar (default 0.7, the middle of the range that was right on two realistic crawls; README, "Mirrored hosts"). */
  threshold?: number;
  /** Share of the compared pages that must be highly similar for a mirror (default 0.75, the paper's m for conn). */
  agreement?: number;
  /** Compared pages needed for any verdict on an alignment; fewer gives `undetermined` (default 3). */
  minPaths?: number;
}

/** Validated rule options. */
export interface MirrorRule {
  samplePaths: number;
  threshold: number;
  agreement: number;
  minPaths: number;
  maxAlignments: number;
  maxPrefixes: number;
}

/** The defaults of {@link MirrorRuleOptions}. */
export const RULE_DEFAULTS: MirrorRule = { samplePaths: 20, threshold: 0.7, agreement: 0.75, minPaths: 3, ...ALIGN_DEFAULTS };

/** The option names of {@link MirrorRuleOptions}. */
export const RULE_KEYS = ['samplePaths', 'threshold', 'agreement', 'minPaths', 'maxAlignments', 'maxPrefixes'] as const;

/** Takes rule options (unknown keys are the caller's to reject); returns them validated with defaults. */
export function ruleParams(options: MirrorRuleOptions = {}): MirrorRule {
  return {
    samplePaths: intOption('samplePaths', options.samplePaths, RULE_DEFAULTS.samplePaths, 1, 100000),
    threshold: numberOption('threshold', options.threshold, RULE_DEFAULTS.threshold, 0, 1),
    agreement: numberOption('agreement', options.agreement, RULE_DEFAULTS.agreement, 0.01, 1),
    minPaths: intOption('minPaths', options.minPaths, RULE_DEFAULTS.minPaths, 1, 100000),
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
  verdict: Verdict;
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

  /** Returns the alignment's evidence and verdict. */
  evidence(): AlignmentEvidence {
    const { compared, similar } = this;
    const verdict: Verdict = compared < this.rule.minPaths ? 'undetermined' : similar >= this.rule.agreement * compared - 1e-9 ? 'mirror' : 'not mirror';
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
      verdict,
    };
  }
}

const describe = (e: AlignmentEvidence) => `${e.prefixA} ↔ ${e.prefixB}`;

/** Takes the evidence of every alignment compared, the two hosts' path counts and the rule; returns the host pair's verdict and reason. */
export function pairVerdict(alignments: AlignmentEvidence[], sizes: { a: number; b: number }, rule: MirrorRule): MirroringResult {
  const mirror = alignments.find((e) => e.verdict === 'mirror');
  const decided = alignments.find((e) => e.verdict === 'not mirror');
  const deciding = mirror ?? decided ?? alignments[0];
  const counts = deciding ? { tested: deciding.compared, similar: deciding.similar, alignment: deciding } : { tested: 0, similar: 0 };
  if (mirror) {
    return { verdict: 'mirror', reason: `${mirror.similar} of ${mirror.compared} compared pages highly similar under ${describe(mirror)}`, ...counts, alignments };
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
  return {
    verdict: 'undetermined',
    reason: `at most ${most} aligned pages could be compared (${rule.minPaths} needed)` + (lost ? `; under ${describe(deciding)}: ${deciding.unknown} unknown, ${deciding.failed} failing on one host, ${deciding.short} too short` : ''),
    ...counts,
    alignments,
  };
}

/** Takes two hosts' sorted paths, a synchronous comparison of pair (i, j) and rule options; returns the verdict (hybrid's evidence). */
export function compareHosts(pathsA: readonly string[], pathsB: readonly string[], compare: (i: number, j: number) => PairOutcome, options: MirrorRuleOptions = {}): MirroringResult {
  rejectUnknown(options, RULE_KEYS, 'compareHosts');
  const rule = ruleParams(options);
  const out: AlignmentEvidence[] = [];
  for (const plan of planComparisons(pathsA, pathsB, rule)) {
    const tally = new AlignmentTally(plan.alignment, rule);
    for (const [i, j] of plan.pairs) {
      if (tally.done) break;
      tally.add(compare(i, j));
    }
    out.push(tally.evidence());
  }
  return pairVerdict(out, { a: pathsA.length, b: pathsB.length }, rule);
}
