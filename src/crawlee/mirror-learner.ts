// Mirrored prefixes learned while crawling (Cho et al.'s replicated collections and Bharat et
// al.'s mirrored hosts, seen from inside a running crawl): when a page at X/A/s matches, as a
// near-duplicate, an earlier page at Y/B/s with the same path suffix s, that is one piece of
// evidence that the prefix X/A mirrors Y/B. Once enough pages under X/A did (`minEvidence`) and
// they are most of the pages fetched there (`minShare`), every URL under X/A can be skipped: the
// crawl already holds its content under Y/B. A page matching one with another name (a repost, a
// patch release's notes) is no evidence at all.
import { normalizeUrl } from '../graph/url.js';
import { intOption, numberOption, rejectUnknown } from '../errors.js';

/** What a URL filter answers: `true` when a crawler can skip the URL. `AvoidList` is one. */
export interface UrlSkipper {
  /** Takes a URL; returns true when the crawler can skip it. */
  shouldSkip(url: string): boolean;
}

/** Options of `MirrorLearner`. */
export interface MirrorLearnerOptions {
  /** Pages under a prefix that must match pages under other prefixes with the same path suffix (default 3). */
  minEvidence?: number;
  /** …and the share of the pages fetched under the prefix they must be (default 0.8). */
  minShare?: number;
}

/** A prefix recognized as a mirror, with its evidence. */
export interface MirrorRule {
  /** The mirrored prefix: `http://host/dir/` (a whole host when the path is `/`). */
  prefix: string;
  /** The prefix its pages matched most often (where the content was crawled first). */
  of: string;
  /** Pages under `prefix` that matched a page with the same path suffix, and pages fetched under it. */
  evidence: number;
  seen: number;
  /** Pages fetched (observations) when it was recognized. */
  recognizedAt: number;
}

/** A prefix pair seen so far: how many duplicates it explains, and the prefixes they pointed at. */
interface Candidate {
  evidence: number;
  targets: Map<string, number>;
}

/** Splits a normalized URL into `scheme://host` and its path segments (a trailing `/` names `index.html`). */
function split(url: string): { origin: string; segments: string[] } | undefined {
  const norm = normalizeUrl(url);
  if (norm === undefined || !/^https?:\/\//.test(norm)) return undefined;
  const at = norm.indexOf('/', norm.indexOf('://') + 3);
  const q = norm.search(/[?#]/);
  const path = norm.slice(at, q < 0 ? norm.length : q);
  const segments = path.split('/').slice(1);
  if (segments[segments.length - 1] === '') segments[segments.length - 1] = 'index.html';
  return { origin: norm.slice(0, at), segments };
}

/** Learns mirrored prefixes from what a duplicate guard saw; `shouldSkip(url)` for URLs under one. */
export class MirrorLearner implements UrlSkipper {
  readonly minEvidence: number;
  readonly minShare: number;
  private readonly seenUnder = new Map<string, number>();
  private readonly candidates = new Map<string, Candidate>();
  private readonly recognized = new Map<string, MirrorRule>();
  private observations = 0;

  constructor(options: MirrorLearnerOptions = {}) {
    rejectUnknown(options, ['minEvidence', 'minShare'], 'MirrorLearner');
    this.minEvidence = intOption('minEvidence', options.minEvidence, 3, 1, 0x7fffffff);
    this.minShare = numberOption('minShare', options.minShare, 0.8, 0, 1);
  }

  /** Records a fetched page and the earlier page it duplicates (null when it was new). */
  observe(url: string, duplicateOf: string | null): void {
    const a = split(url);
    if (!a) return;
    this.observations++;
    // Every directory prefix of the URL counts one more page fetched under it.
    let prefix = a.origin + '/';
    const touched = [prefix];
    for (let i = 0; i + 1 < a.segments.length; i++) { prefix += a.segments[i] + '/'; touched.push(prefix); }
    for (const p of touched) this.seenUnder.set(p, (this.seenUnder.get(p) ?? 0) + 1);
    if (duplicateOf !== null) {
      const b = split(duplicateOf);
      if (b) {
        // The longest common suffix of path segments (at least the file name).
        let k = 0;
        while (k < a.segments.length && k < b.segments.length && a.segments[a.segments.length - 1 - k] === b.segments[b.segments.length - 1 - k]) k++;
        if (k > 0) {
          const pa = a.origin + '/' + a.segments.slice(0, a.segments.length - k).map((s) => s + '/').join('');
          const pb = b.origin + '/' + b.segments.slice(0, b.segments.length - k).map((s) => s + '/').join('');
          if (pa !== pb) {
            let c = this.candidates.get(pa);
            if (!c) this.candidates.set(pa, (c = { evidence: 0, targets: new Map() }));
            c.evidence++;
            c.targets.set(pb, (c.targets.get(pb) ?? 0) + 1);
          }
        }
      }
    }
    // A page under a candidate prefix changes its share either way: re-check those.
    for (const p of touched) this.check(p);
  }

  private check(prefix: string): void {
    const c = this.candidates.get(prefix);
    if (!c || this.recognized.has(prefix)) return;
    const seen = this.seenUnder.get(prefix) ?? 0;
    if (c.evidence < this.minEvidence || c.evidence < this.minShare * seen) return;
    let of = '', best = 0;
    for (const [t, n] of c.targets) if (n > best || (n === best && t < of)) { of = t; best = n; }
    // A prefix that mirrors one of its own subfolders (or the reverse) is a loop, not a mirror.
    if (of.startsWith(prefix) || prefix.startsWith(of)) return;
    this.recognized.set(prefix, { prefix, of, evidence: c.evidence, seen, recognizedAt: this.observations });
  }

  /** True when the URL is under a prefix recognized as a mirror. */
  shouldSkip(url: string): boolean {
    return this.ruleFor(url) !== undefined;
  }

  /** The rule that makes a URL skippable, if any. */
  ruleFor(url: string): MirrorRule | undefined {
    if (this.recognized.size === 0) return undefined;
    const a = split(url);
    if (!a) return undefined;
    let prefix = a.origin + '/';
    let rule = this.recognized.get(prefix);
    for (let i = 0; !rule && i + 1 < a.segments.length; i++) { prefix += a.segments[i] + '/'; rule = this.recognized.get(prefix); }
    return rule;
  }

  /** The prefixes recognized so far, in the order they were. */
  rules(): MirrorRule[] {
    return [...this.recognized.values()];
  }
}
