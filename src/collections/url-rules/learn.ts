/**
 * Learning URL rewrite rules from a crawl's duplicate clusters (DUST: different URLs, similar
 * text). The learner is fed the crawl's URLs (`addUrl`, in crawl order) and its duplicate
 * clusters (`addCluster`, one at a time, as `dups` or `collections` find them); `learn()` returns
 * the rules that pass the bar:
 *
 * 1. Every pair of URLs in a cluster (clusters of at most `maxCluster` URLs) is explained, where it
 *    can be, by the differences between the two: query parameters present on one side only or
 *    with another value (`param`), path parameters likewise (`path-param`), a last segment on one
 *    side only (`index`), `https` against `http`, and a `www.` on one host only. Each rule's
 *    support is the number of pairs it takes part in explaining.
 * 2. Candidates with `minSupport` pairs or more are applied to every URL of the crawl; URLs that
 *    come out with the same spelling are joined. Each pair of them tests the rules that rewrote
 *    one of the two and not the other: right when the two are in one cluster. The rule furthest
 *    under `minPrecision` (or never tested) is dropped and the rest tested again, until every
 *    rule left passes.
 * 3. With those rules applied, the pairs still spelled apart but ending in the same path segments
 *    (`X/A/s` and `Y/B/s`) are evidence that prefix `X/A/` mirrors `Y/B/`. Each prefix pair with
 *    `minSupport` pairs or more is read from the prefix with fewer URLs to the one with more, and
 *    tested alone: of the URLs under `X/A/` it rewrites onto a crawled URL, the share that are
 *    duplicates of it must reach `minPrecision` (the pages of its sub-folders where a page
 *    differed left out of the count). Each prefix keeps the passing target it shares most pairs
 *    with (a target's own rule followed once). Every folder where a tested page differed from its
 *    counterpart is checked page by page. A folder with fewer than `minPrecision` of its tested
 *    pages identical (the prefix's own included) gets a `keep` rule listing the pages tested
 *    identical: only those are rewritten there, so the pages never tested beside its changed
 *    ones are fetched. Elsewhere the pages tested not identical are the prefix rule's `except`
 *    list: a lagging mirror's changed pages are fetched. When fewer than `minPrecision` of the
 *    pages it was passed on are identical, the prefix's own folder is the one kept: the rule
 *    rewrites the pages tested identical and no other. The prefix rules are tested with the
 *    others as in step 2.
 *
 * Memory: the parts of each distinct URL and one integer per URL; time: the pairs of the clusters
 * plus a pass over the URLs per round of testing.
 */
import { intOption, numberOption, rejectUnknown } from '../../errors.js';
import { paramName, prefixOf, RuleIndex, spell, urlParts, UrlRules, type UrlParts, type UrlRule, type UrlRuleKind } from './rules.js';

/** Options of `UrlRuleLearner` (and of `findCollections({ rules })`). */
export interface UrlRuleOptions {
  /** Pairs of duplicate URLs a rule must explain (default 2). */
  minSupport?: number;
  /** Share of the URLs it rewrites onto another crawled URL that must be duplicates of it (default 0.95). */
  minPrecision?: number;
  /** Clusters with more URLs are not paired (a soft-404 body, a boilerplate stub); default 64. */
  maxCluster?: number;
}

/** Defaults of the bar, fitted on the tuning web crawl (docs/crawls.md). */
export const URL_RULE_DEFAULTS = { minSupport: 2, minPrecision: 0.95, maxCluster: 64 } as const;

/** A URL the learner could not read: reported and left out. */
export interface UrlRuleError {
  url: string;
  code: 'E_INPUT';
  message: string;
}

const KIND_ORDER: readonly UrlRuleKind[] = ['path-param', 'param', 'index', 'https', 'www', 'prefix', 'keep'];

/** A rule being learnt: its kind and what it rewrites, its support, and once tested its figures. */
type Candidate = Pick<UrlRule, 'kind' | 'name' | 'from' | 'to' | 'pages' | 'except'> & { support: number; tested?: number; precision?: number };

const keyOf = (r: Pick<UrlRule, 'kind' | 'name' | 'from' | 'to'>) => `${r.kind}\t${r.name ?? ''}\t${r.from ?? ''}\t${r.to ?? ''}`;
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The multiset difference of two lists of `name=value` parts: the names on one side only, or with other values. */
function differing(a: readonly string[], b: readonly string[], name: (s: string) => string): Set<string> {
  const count = new Map<string, number>();
  for (const x of a) count.set(x, (count.get(x) ?? 0) + 1);
  for (const x of b) count.set(x, (count.get(x) ?? 0) - 1);
  const out = new Set<string>();
  for (const [x, n] of count) if (n !== 0) out.add(name(x));
  return out;
}

/** Takes two URLs' parts; returns the rules that explain them as one page without a prefix change, or undefined when none do. */
function explain(a: UrlParts, b: UrlParts): Candidate[] | undefined {
  const sa = a.segments, sb = b.segments;
  if (sa.length !== sb.length) return undefined;
  for (let i = 0; i + 1 < sa.length; i++) if (sa[i] !== sb[i]) return undefined;
  const out: Candidate[] = [];
  // `/dir/` is ['dir', ''], `/dir/index.html` ['dir', 'index.html']
  const x = sa[sa.length - 1], y = sb[sb.length - 1];
  if (x !== y) {
    if (x !== '' && y !== '') return undefined;
    out.push({ kind: 'index', name: x || y, support: 0 });
  }
  for (const n of differing(a.pathParams.flat(), b.pathParams.flat(), (s) => paramName(s).toLowerCase())) out.push({ kind: 'path-param', name: n, support: 0 });
  for (const n of differing(a.query, b.query, paramName)) out.push({ kind: 'param', name: n, support: 0 });
  if (a.scheme !== b.scheme) out.push({ kind: 'https', support: 0 });
  if (a.host !== b.host) {
    const bare = (h: string) => (h.startsWith('www.') && h.split('.').length > 2 ? h.slice(4) : h);
    if (bare(a.host) !== bare(b.host)) return undefined;
    out.push({ kind: 'www', support: 0 });
  }
  return out;
}

/**
 * Learns URL rewrite rules from duplicate clusters; see the module comment. Feed it with `addUrl`
 * (every URL of the crawl, in crawl order) and `addCluster` (each duplicate cluster), then `learn()`.
 */
export class UrlRuleLearner {
  readonly minSupport: number;
  readonly minPrecision: number;
  readonly maxCluster: number;
  /** URLs that did not parse as http(s) URLs: reported here and left out. */
  readonly errors: UrlRuleError[] = [];
  private readonly parts: UrlParts[] = [];
  private readonly ids = new Map<string, number>();
  private parent: number[] = [];
  /** identical text: a finer partition than the clusters (`addIdentical`) */
  private same: number[] = [];
  private identicalGiven = false;

  /** Takes the bar (see `UrlRuleOptions`; defaults `URL_RULE_DEFAULTS`). */
  constructor(options: UrlRuleOptions = {}) {
    rejectUnknown(options, ['minSupport', 'minPrecision', 'maxCluster'], 'UrlRuleLearner');
    const d = URL_RULE_DEFAULTS;
    this.minSupport = intOption('minSupport', options.minSupport, d.minSupport, 1, 2 ** 31);
    this.minPrecision = numberOption('minPrecision', options.minPrecision, d.minPrecision, 0, 1);
    this.maxCluster = intOption('maxCluster', options.maxCluster, d.maxCluster, 2, 2 ** 31);
  }

  /** Distinct URLs read. */
  get size(): number {
    return this.parts.length;
  }

  /** Takes a URL of the crawl; returns its id (the same for every spelling that normalizes alike), or undefined when it does not parse (reported in `errors`). */
  addUrl(url: string): number | undefined {
    const p = typeof url === 'string' ? urlParts(url) : undefined;
    if (p === undefined) {
      this.errors.push({ url: String(url), code: 'E_INPUT', message: `URL rules: ${JSON.stringify(String(url).slice(0, 200))} is not an http(s) URL; left out` });
      return undefined;
    }
    const s = spell(p);
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.parts.length;
      this.ids.set(s, id);
      this.parts.push(p);
      this.parent.push(id);
      this.same.push(id);
    }
    return id;
  }

  /** Takes the URLs of one duplicate cluster (pages with the same or nearly the same text); URLs not added before are added. */
  addCluster(urls: readonly string[]): void {
    let first: number | undefined;
    for (const u of urls) {
      const id = this.addUrl(u);
      if (id === undefined) continue;
      if (first === undefined) first = id;
      else this.union(first, id);
    }
  }

  /**
   * Takes URLs of pages with identical text (within one duplicate cluster); joins them as a cluster
   * too. A prefix rule rewrites a page of a folder where a tested page differed only when the page
   * was tested identical to its counterpart; when no identical groups are given at all, pages of
   * one cluster count as identical.
   */
  addIdentical(urls: readonly string[]): void {
    this.identicalGiven = true;
    let first: number | undefined;
    for (const u of urls) {
      const id = this.addUrl(u);
      if (id === undefined) continue;
      if (first === undefined) first = id;
      else { this.union(first, id); this.union(first, id, this.same); }
    }
  }

  private find(x: number, p: number[] = this.parent): number {
    while (p[x] !== x) { p[x] = p[p[x]]; x = p[x]; }
    return x;
  }

  private union(a: number, b: number, p: number[] = this.parent): void {
    const x = this.find(a, p), y = this.find(b, p);
    if (x !== y) p[Math.max(x, y)] = Math.min(x, y);
  }

  /** A URL's text, as a representative id: pages with the same one are identical (one cluster when no identical groups were given). */
  private textOf(a: number): number {
    return this.identicalGiven ? this.find(a, this.same) : this.find(a);
  }

  /** The clusters of two URLs or more, small enough to pair, as lists of ids in crawl order. */
  private groups(): number[][] {
    const by = new Map<number, number[]>();
    for (let i = 0; i < this.parts.length; i++) {
      const r = this.find(i);
      const g = by.get(r);
      if (g) g.push(i); else by.set(r, [i]);
    }
    return [...by.values()].filter((g) => g.length >= 2 && g.length <= this.maxCluster);
  }

  /** Returns the rules that pass the bar, with their support and precision on the crawl. */
  learn(): UrlRules {
    const groups = this.groups();
    // step 1: pairs explained without a prefix change
    const cand = new Map<string, Candidate>();
    const bump = (c: Candidate) => {
      const k = keyOf(c);
      const had = cand.get(k);
      if (had) had.support++; else cand.set(k, { ...c, support: 1 });
    };
    for (const g of groups) {
      for (let i = 0; i < g.length; i++) {
        for (let j = i + 1; j < g.length; j++) {
          const keys = explain(this.parts[g[i]], this.parts[g[j]]);
          if (keys !== undefined) for (const k of keys) bump(k);
        }
      }
    }
    let rules = this.sorted([...cand.values()].filter((c) => c.support >= this.minSupport));
    rules = this.test(rules);
    // step 3: prefixes, with the rules so far applied
    const index = new RuleIndex(rules);
    const rewritten = this.parts.map((p) => index.rewrite(p));
    const canon = rewritten.map((r) => r.parts);
    const spelled = canon.map(spell);
    // URLs whose text is their page's: no query or path parameter dropped (a print view's text is not its page's)
    const plain = rewritten.map((r) => r.fired.every((f) => rules[f].kind !== 'param' && rules[f].kind !== 'path-param'));
    const pairs = new Map<string, { a: string; b: string; support: number }>();
    for (const g of groups) {
      for (let i = 0; i < g.length; i++) {
        for (let j = i + 1; j < g.length; j++) {
          if (spelled[g[i]] === spelled[g[j]]) continue;
          const a = canon[g[i]], b = canon[g[j]];
          if (a.query.join('&') !== b.query.join('&')) continue;
          let k = 0;
          while (k < a.segments.length && k < b.segments.length && a.segments[a.segments.length - 1 - k] === b.segments[b.segments.length - 1 - k]) k++;
          if (k === 0) continue;
          const pa = prefixOf(a, a.segments.length - k), pb = prefixOf(b, b.segments.length - k);
          if (pa === pb || pa.startsWith(pb) || pb.startsWith(pa)) continue;
          const [x, y] = pa < pb ? [pa, pb] : [pb, pa];
          const key = `${x} ${y}`;
          const had = pairs.get(key);
          if (had) had.support++; else pairs.set(key, { a: x, b: y, support: 1 });
        }
      }
    }
    const joined = [...pairs.values()].filter((p) => p.support >= this.minSupport).sort((p, q) => cmp(p.a, q.a) || cmp(p.b, q.b));
    if (joined.length === 0) return this.finish(rules);
    // URLs under each prefix (canonical spelling)
    const under = new Map<string, number>();
    const wanted = new Set(joined.flatMap((p) => [p.a, p.b]));
    for (const p of canon) for (let keep = 0; keep < p.segments.length; keep++) { const pre = prefixOf(p, keep); if (wanted.has(pre)) under.set(pre, (under.get(pre) ?? 0) + 1); }
    // each pair read from the prefix with fewer URLs to the one with more (then the smaller spelling)
    const bigger = (x: string, y: string) => (under.get(x) ?? 0) > (under.get(y) ?? 0) || ((under.get(x) ?? 0) === (under.get(y) ?? 0) && x < y);
    const directed = joined.map((p) => (bigger(p.a, p.b) ? { from: p.b, to: p.a, support: p.support } : { from: p.a, to: p.b, support: p.support }));
    // each candidate tested alone: the URLs under `from` it rewrites onto a crawled URL, and those duplicates of it
    const alone = this.testPrefixes(directed, canon, spelled, plain);
    // per prefix, the passing target it shares most pairs with (two manuals sharing a few pages do
    // not pass; the sub-folders where a page was not a duplicate of its counterpart do not count
    // against it). Then every folder where a tested page was not identical to its counterpart is
    // checked page by page: a `keep` rule leaves it as it is but for the pages tested identical,
    // so that a lagging mirror's changed pages, and those never tested beside them, are fetched
    const best = new Map<string, { to: string; support: number; except: string[]; keep: Candidate[] }>();
    const folder = (u: number) => prefixOf(canon[u], canon[u].segments.length - 1);
    directed.forEach((d, i) => {
      const apart = [...new Set(alone[i].filter((t) => !t.right).map((t) => folder(t.url)))].filter((k) => k !== d.from);
      const left = alone[i].filter((t) => !apart.some((k) => spelled[t.url].startsWith(k)));
      const right = left.filter((t) => t.right).length;
      if (left.length === 0 || right < this.minPrecision * left.length) return;
      const had = best.get(d.from);
      if (had && !(d.support > had.support || (d.support === had.support && d.to < had.to))) return;
      // page by page: when fewer than minPrecision of the pages the rule was passed on are
      // identical to their counterparts, the rule's own folder is kept, and the rule rewrites the
      // pages tested identical and no other. Else each folder with fewer than minPrecision of its
      // tested pages identical is kept likewise (`keep`, listing its pages tested identical), and
      // elsewhere the pages tested not identical are the rule's exceptions (`except`)
      const identical = left.filter((t) => t.same).length;
      let kept: string[];
      if (identical < this.minPrecision * left.length) kept = [d.from];
      else {
        const byFolder = new Map<string, { n: number; same: number }>();
        for (const t of alone[i]) {
          const f = folder(t.url);
          const c = byFolder.get(f) ?? { n: 0, same: 0 };
          c.n++; if (t.same) c.same++;
          byFolder.set(f, c);
        }
        kept = [...byFolder].filter(([, c]) => c.same < this.minPrecision * c.n).map(([f]) => f).sort(cmp);
      }
      // each tested page to the longest folder kept that holds it
      const inKeep = new Map<string, Array<{ url: number; same: boolean }>>(kept.map((k) => [k, []]));
      const except = new Set<string>();
      for (const t of alone[i]) {
        let k: string | undefined;
        for (const m of kept) if (spelled[t.url].startsWith(m) && (k === undefined || m.length > k.length)) k = m;
        if (k !== undefined) inKeep.get(k)!.push(t);
        else if (!t.same) except.add(spelled[t.url].slice(d.from.length));
      }
      // each folder kept with its evidence: the pages tested under it, the share identical, and the identical ones by name
      best.set(d.from, { to: d.to, support: d.support, except: [...except].sort(cmp), keep: kept.map((k) => {
        const inK = inKeep.get(k)!;
        const same = inK.filter((t) => t.same);
        const pages = [...new Set(same.map((t) => spelled[t.url].slice(k.length)))].sort(cmp);
        return { kind: 'keep', from: k, pages, support: inK.length - same.length, tested: inK.length, precision: Math.round((same.length / inK.length) * 1e4) / 1e4 };
      }) });
    });
    // a target with a rule of its own: its target is followed once (X → Y → Z reads X as Z)
    const prefixRules: Candidate[] = [];
    for (const [from, { to, support, except, keep }] of [...best].sort((x, y) => cmp(x[0], y[0]))) {
      const next = best.get(to)?.to;
      const target = next !== undefined && next !== from && !next.startsWith(from) && !from.startsWith(next) ? next : to;
      prefixRules.push({ kind: 'prefix', from, to: target, except, support });
      prefixRules.push(...keep);
    }
    return this.finish(this.test(this.sorted([...rules, ...prefixRules])));
  }

  private sorted<T extends Candidate>(rules: T[]): T[] {
    return rules.sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || cmp(a.name ?? '', b.name ?? '') || cmp(a.from ?? '', b.from ?? ''));
  }

  /**
   * Step 2: tests the rules on every URL of the crawl and drops the one furthest under the bar
   * (a rule joining unrelated pages also fails the rules tested in its groups: it goes first),
   * until every rule left passes; returns them with their figures.
   */
  private test(rules: Candidate[]): Array<Candidate & { tested: number; precision: number }> {
    for (;;) {
      const { tested, correct } = this.precision(rules);
      let worst = -1, worstShare = Infinity;
      rules.forEach((r, i) => {
        if (r.kind === 'keep' || (tested[i] > 0 && correct[i] >= this.minPrecision * tested[i])) return;
        const share = tested[i] === 0 ? -1 : correct[i] / tested[i];
        if (share < worstShare || (share === worstShare && tested[i] > tested[worst])) { worst = i; worstShare = share; }
      });
      if (worst < 0) return rules.map((r, i) => (r.kind === 'keep' ? { ...r, tested: r.tested ?? 0, precision: r.precision ?? 0 } : { ...r, tested: tested[i], precision: tested[i] === 0 ? 0 : Math.round((correct[i] / tested[i]) * 1e4) / 1e4 }));
      const gone = rules[worst];
      // a prefix rule's exceptions go with it
      rules = rules.filter((r, i) => i !== worst && !(gone.kind === 'prefix' && r.kind === 'keep' && r.from!.startsWith(gone.from!) && !rules.some((o, j) => j !== worst && o.kind === 'prefix' && r.from!.startsWith(o.from!))));
    }
  }

  /** Each prefix candidate alone: the crawled URLs under its `from` that it rewrites onto a crawled URL (canonical spellings), each with whether the two are in one cluster and whether their texts are identical. */
  private testPrefixes(cands: ReadonlyArray<{ from: string; to: string }>, canon: readonly UrlParts[], spelled: readonly string[], plain: readonly boolean[]): Array<Array<{ url: number; right: boolean; same: boolean }>> {
    const tests: Array<Array<{ url: number; right: boolean; same: boolean }>> = cands.map(() => []);
    const byFrom = new Map<string, number[]>();
    cands.forEach((c, i) => { const l = byFrom.get(c.from); if (l) l.push(i); else byFrom.set(c.from, [i]); });
    const at = new Map<string, number>();
    spelled.forEach((s, i) => { if (!at.has(s)) at.set(s, i); });
    // per canonical spelling, the texts of its plain URLs: a page is identical to its counterpart
    // when one of its texts is one of the counterpart's; with no plain URL on one side (only a
    // print view, a session's URL), as its cluster says
    const texts = new Map<string, Set<number>>();
    spelled.forEach((s, i) => { if (!plain[i]) return; const r = this.textOf(i); const t = texts.get(s); if (t) t.add(r); else texts.set(s, new Set([r])); });
    const same = (a: string, b: string, right: boolean) => {
      const x = texts.get(a), y = texts.get(b);
      if (x === undefined || y === undefined) return right;
      for (const r of x) if (y.has(r)) return true;
      return false;
    };
    canon.forEach((p, u) => {
      for (let keep = 0; keep < p.segments.length; keep++) {
        const list = byFrom.get(prefixOf(p, keep));
        if (!list) continue;
        const rest = spelled[u].slice(prefixOf(p, keep).length);
        for (const i of list) {
          const v = at.get(cands[i].to + rest);
          if (v === undefined) continue;
          const right = this.find(u) === this.find(v);
          tests[i].push({ url: u, right, same: same(spelled[u], spelled[v], right) });
        }
      }
    });
    return tests;
  }

  /**
   * Per rule: pairs of crawled URLs the rules spell alike that it takes part in joining (it
   * rewrote one of the two and not the other), and those of them in one cluster. A group larger
   * than `maxCluster` is tested against its base only (the member the fewest rules rewrote, then
   * the first crawled).
   */
  private precision(rules: readonly Candidate[]): { tested: Uint32Array; correct: Uint32Array } {
    const index = new RuleIndex(rules);
    const tested = new Uint32Array(rules.length), correct = new Uint32Array(rules.length);
    const groups = new Map<string, number[]>();
    const fired: number[][] = [];
    this.parts.forEach((p, i) => {
      const r = index.rewrite(p);
      fired.push(r.fired);
      const k = spell(r.parts);
      const g = groups.get(k);
      if (g) g.push(i); else groups.set(k, [i]);
    });
    const pair = (i: number, j: number) => {
      const right = this.find(i) === this.find(j) ? 1 : 0;
      for (const f of fired[i]) if (!fired[j].includes(f)) { tested[f]++; correct[f] += right; }
      for (const f of fired[j]) if (!fired[i].includes(f)) { tested[f]++; correct[f] += right; }
    };
    for (const g of groups.values()) {
      if (g.length < 2) continue;
      if (g.length <= this.maxCluster) {
        for (let a = 0; a < g.length; a++) for (let b = a + 1; b < g.length; b++) pair(g[a], g[b]);
        continue;
      }
      let base = g[0];
      for (const i of g) if (fired[i].length < fired[base].length) base = i;
      for (const i of g) if (i !== base) pair(base, i);
    }
    return { tested, correct };
  }

  private finish(rules: Array<Candidate & { tested?: number; precision?: number }>): UrlRules {
    return new UrlRules(rules.map((r) => ({
      kind: r.kind, ...(r.name !== undefined ? { name: r.name } : {}), ...(r.from !== undefined ? { from: r.from } : {}), ...(r.to !== undefined ? { to: r.to } : {}),
      ...(r.kind === 'prefix' ? { except: r.except ?? [] } : {}), ...(r.kind === 'keep' ? { pages: r.pages ?? [] } : {}),
      support: r.support, tested: r.tested ?? 0, precision: r.precision ?? 0,
    })));
  }
}
