/**
 * URL rewrite rules (Bar-Yossef, Keidar and Schonfeld, "Do not crawl in the DUST", WWW 2007): each
 * rule rewrites a URL toward a canonical spelling, and two URLs with the same canonical spelling
 * are predicted to hold the same page before either is fetched. The rules are learnt from a
 * crawl's duplicate clusters (learn.ts); `UrlRules` applies them: `canonical(url)` for one URL,
 * `shouldSkip(url)` for a crawler (a URL whose canonical spelling is one already fetched or queued
 * under another URL is skipped), and `save()` / `UrlRules.load` for the versioned file.
 */
import { ResembleError } from '../../errors.js';
import { normalizeParsed, parseUrl } from '../../graph/url.js';

/** What a rule does to a URL. */
export type UrlRuleKind = 'param' | 'path-param' | 'index' | 'https' | 'www' | 'prefix' | 'keep';

/** A rule and its evidence on the crawl it was learnt from. */
export interface UrlRule {
  /**
   * `param`: drop the query parameter `name` (any value); `path-param`: drop the path parameter
   * `;name=…`; `index`: drop a last path segment `name` (`/dir/index.html` → `/dir/`); `https`:
   * read `https:` as `http:`; `www`: drop a leading `www.` of a host of three or more labels;
   * `prefix`: replace the URL prefix `from` by `to` (a mirror, or a copy under another folder);
   * `keep`: leave URLs under `from` as they are, an exception to a prefix rule (a folder where a
   * page differed from its counterpart under the rule's `to`), except the pages it lists in
   * `pages`, which the prefix rule still rewrites.
   */
  kind: UrlRuleKind;
  /** param, path-param, index: the parameter or the file name. */
  name?: string;
  /** prefix: the prefix rewritten (`scheme://host/dir/`, in canonical spelling) and its replacement; keep: the folder left as it is. */
  from?: string;
  to?: string;
  /**
   * keep (version 2): the pages under `from` (each as the rest of its canonical spelling after
   * `from`) that were tested alike with their counterpart; the longest prefix rule holding them
   * still rewrites them. Every other URL under `from` (a page that differed, or one never
   * tested) is left as it is.
   */
  pages?: string[];
  /**
   * prefix (version 2): the pages under `from` (each as the rest of its canonical spelling after
   * `from`) tested not identical to their counterpart under `to`: left as they are.
   */
  except?: string[];
  /** Pairs of URLs in one duplicate cluster of the crawl that the rule (with the others) explains; keep: the folder's pages that differed from their counterparts. */
  support: number;
  /** Pairs of crawled URLs spelled alike under the rules that this rule takes part in joining, and the share of them that are duplicates (keep: the folder's pages the prefix rule rewrote onto a crawled page, and the share alike). */
  tested: number;
  precision: number;
}

/** The parts of a URL the rules read: origin, path segments, path parameters and query. */
export interface UrlParts {
  scheme: string;
  host: string;
  /** Path segments without their `;name=value` parameters (`/a/b/` is `['a', 'b', '']`). */
  segments: string[];
  /** Path parameters per segment, as written (`name=value`), in order. */
  pathParams: string[][];
  /** Query parameters as written (`name=value`), in order. */
  query: string[];
}

/** Takes a URL; returns its normalized parts, or undefined when it does not parse (or is not http/https). */
export function urlParts(url: string): UrlParts | undefined {
  const u = parseUrl(url.trim());
  if (u === undefined || (u.protocol !== 'http:' && u.protocol !== 'https:')) return undefined;
  normalizeParsed(u);
  const segments: string[] = [], pathParams: string[][] = [];
  for (const seg of u.pathname.slice(1).split('/')) {
    const [bare, ...params] = seg.split(';');
    segments.push(bare);
    pathParams.push(params.filter((p) => p !== ''));
  }
  const query = u.search === '' ? [] : u.search.slice(1).split('&').filter((p) => p !== '');
  return { scheme: u.protocol.slice(0, -1), host: u.host, segments, pathParams, query };
}

/** A parameter's name (`name=value` → `name`, percent-decoded where it can be). */
export function paramName(part: string): string {
  const eq = part.indexOf('=');
  const raw = eq < 0 ? part : part.slice(0, eq);
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/** Takes parts; returns the URL they spell. */
export function spell(p: UrlParts): string {
  const path = p.segments.map((s, i) => [s, ...p.pathParams[i]].join(';')).join('/');
  return `${p.scheme}://${p.host}/${path}${p.query.length ? `?${p.query.join('&')}` : ''}`;
}

/** Takes parts; returns the directory prefix of the first `keep` segments (`scheme://host/a/b/`). */
export function prefixOf(p: UrlParts, keep: number): string {
  return `${p.scheme}://${p.host}/${p.segments.slice(0, keep).map((s) => `${s}/`).join('')}`;
}

const FORMAT = 'resemble-url-rules';
const VERSION = 2;
/** Versions `UrlRules.load` reads: 1 (keep rules without `pages`) and 2. */
const READS = [1, 2];
const KINDS: readonly UrlRuleKind[] = ['param', 'path-param', 'index', 'https', 'www', 'prefix', 'keep'];

/** What `canonicalParts` did: the rewritten parts and the rules (indices into the rule list) that fired. */
export interface Rewritten {
  parts: UrlParts;
  fired: number[];
}

/** A set of rules, indexed for rewriting. */
export class RuleIndex {
  private readonly params = new Map<string, number>();
  private readonly pathParams = new Map<string, number>();
  private readonly files = new Map<string, number>();
  private https = -1;
  private www = -1;
  /** prefix rules by their `from` */
  private readonly prefixes = new Map<string, number>();
  /** keep rules by their `from`, with the pages they let through */
  private readonly keeps = new Map<string, ReadonlySet<string>>();

  /** Takes the rules (their order is their index). */
  /** per prefix rule (by index), the pages it leaves as they are */
  private readonly excepts = new Map<number, ReadonlySet<string>>();

  constructor(readonly rules: readonly Pick<UrlRule, 'kind' | 'name' | 'from' | 'to' | 'pages' | 'except'>[]) {
    rules.forEach((r, i) => {
      if (r.kind === 'param') this.params.set(r.name!, i);
      else if (r.kind === 'path-param') this.pathParams.set(r.name!.toLowerCase(), i);
      else if (r.kind === 'index') this.files.set(r.name!, i);
      else if (r.kind === 'https') this.https = i;
      else if (r.kind === 'www') this.www = i;
      else if (r.kind === 'keep') this.keeps.set(r.from!, new Set(r.pages ?? []));
      else {
        this.prefixes.set(r.from!, i);
        if (r.except?.length) this.excepts.set(i, new Set(r.except));
      }
    });
  }

  /**
   * Takes a URL's parts; returns them rewritten by every rule that applies (in the kinds' order:
   * path parameters, query, index file, scheme, www, one prefix). The longest prefix or keep rule
   * holding the URL decides: a prefix rule rewrites it unless it is one of the rule's `except`
   * pages; a keep rule leaves it as it is, unless it lists the page, which the longest prefix rule
   * holding it then rewrites (at one `from`, a keep rule is read before a prefix rule).
   */
  rewrite(p: UrlParts): Rewritten {
    const fired: number[] = [];
    const fire = (i: number | undefined) => { if (i !== undefined && i >= 0 && !fired.includes(i)) fired.push(i); };
    let pathParams = p.pathParams;
    if (this.pathParams.size) {
      pathParams = p.pathParams.map((ps) => ps.filter((x) => {
        const i = this.pathParams.get(paramName(x).toLowerCase());
        fire(i);
        return i === undefined;
      }));
    }
    let query = p.query;
    if (this.params.size && query.length) {
      query = query.filter((x) => {
        const i = this.params.get(paramName(x));
        fire(i);
        return i === undefined;
      });
    }
    let segments = p.segments;
    const last = segments[segments.length - 1];
    const file = this.files.get(last);
    if (file !== undefined && pathParams[pathParams.length - 1].length === 0) {
      segments = [...segments.slice(0, -1), ''];
      fire(file);
    }
    let scheme = p.scheme, host = p.host;
    if (this.https >= 0 && scheme === 'https') { scheme = 'http'; fire(this.https); }
    if (this.www >= 0 && host.startsWith('www.') && host.split('.').length > 2) { host = host.slice(4); fire(this.www); }
    let parts: UrlParts = { scheme, host, segments, pathParams, query };
    if (this.prefixes.size) {
      // the longest prefix rule that applies, unless a longer keep rule holds the URL and does not list it
      let spelled: string | undefined, released = false;
      for (let keep = segments.length - 1; keep >= 0; keep--) {
        const pre = prefixOf(parts, keep);
        if (!released) {
          const pages = this.keeps.get(pre);
          if (pages !== undefined) {
            spelled ??= spell(parts);
            if (!pages.has(spelled.slice(pre.length))) break;
            released = true;
          }
        }
        const i = this.prefixes.get(pre);
        if (i === undefined) continue;
        const except = this.excepts.get(i);
        if (except !== undefined && except.has((spelled ??= spell(parts)).slice(pre.length))) break;
        const to = urlParts(this.rules[i].to!)!;
        parts = { scheme: to.scheme, host: to.host, segments: [...to.segments.slice(0, -1), ...segments.slice(keep)], pathParams: [...to.pathParams.slice(0, -1), ...pathParams.slice(keep)], query };
        fire(i);
        break;
      }
    }
    return { parts, fired };
  }
}

/**
 * Learnt URL rewrite rules, applied. `canonical(url)` is the URL's canonical spelling;
 * `shouldSkip(url)` answers a crawler (a `UrlSkipper` for `UrlFilter` and `crawlDedup({ avoid })`):
 * true when another URL already seen (fetched or queued) has the same canonical spelling. Every
 * URL it is asked about and does not skip counts as seen.
 */
export class UrlRules {
  private readonly index: RuleIndex;
  private readonly seen = new Map<string, string>();
  /** URLs `shouldSkip` answered true for. */
  skipped = 0;

  /** Takes the rules (as learnt, or loaded). */
  constructor(readonly rules: readonly UrlRule[]) {
    this.index = new RuleIndex(rules);
  }

  /** Takes a URL; returns its canonical spelling under the rules, or undefined when it does not parse as an http(s) URL. */
  canonical(url: string): string | undefined {
    const p = urlParts(url);
    return p ? spell(this.index.rewrite(p).parts) : undefined;
  }

  /** Takes a URL; returns the rules that rewrite it (none: the URL is canonical as it is). */
  rulesFor(url: string): UrlRule[] {
    const p = urlParts(url);
    return p ? this.index.rewrite(p).fired.map((i) => this.rules[i]) : [];
  }

  /** Takes a URL; returns true when another URL seen before has its canonical spelling (the URL is then not marked seen). */
  shouldSkip(url: string): boolean {
    const p = urlParts(url);
    if (p === undefined) return false;
    const key = spell(this.index.rewrite(p).parts);
    const first = this.seen.get(key);
    const self = spell(p);
    if (first === undefined) { this.seen.set(key, self); return false; }
    if (first === self) return false;
    this.skipped++;
    return true;
  }

  /** Takes a URL; marks it seen (fetched or queued elsewhere, or fetched by an earlier crawl) without asking. */
  markSeen(url: string): void {
    const p = urlParts(url);
    if (p === undefined) return;
    const key = spell(this.index.rewrite(p).parts);
    if (!this.seen.has(key)) this.seen.set(key, spell(p));
  }

  /** Returns the rules as a versioned JSON document: `{"format": "resemble-url-rules", "version": 2, "rules": [...]}`. */
  save(): string {
    return JSON.stringify({ format: FORMAT, version: VERSION, rules: this.rules }) + '\n';
  }

  /** Takes the text of `save()` (version 2, or a version 1 file); returns the rules (nothing seen yet). Throws E_FORMAT naming the field or rule that cannot be read. */
  static load(text: string): UrlRules {
    let doc: unknown;
    try { doc = JSON.parse(text); } catch { throw new ResembleError('E_FORMAT', `expected URL rules (format ${FORMAT}): not JSON`); }
    const d = doc as { format?: unknown; version?: unknown; rules?: unknown } | null;
    if (!d || typeof d !== 'object' || d.format !== FORMAT) throw new ResembleError('E_FORMAT', `expected URL rules (format ${FORMAT}), got format ${JSON.stringify(d && typeof d === 'object' ? d.format : d)}`);
    if (!READS.includes(d.version as number)) throw new ResembleError('E_FORMAT', `URL rules version ${JSON.stringify(d.version)} is not known (this version reads ${READS.join(' and ')})`);
    if (!Array.isArray(d.rules)) throw new ResembleError('E_FORMAT', 'URL rules: rules is not an array');
    return new UrlRules(d.rules.map((r, i) => checkRule(r, i, d.version as number)));
  }
}

function checkRule(r: unknown, i: number, version: number): UrlRule {
  const x = r as Partial<UrlRule> | null;
  const bad = (what: string) => new ResembleError('E_FORMAT', `URL rules: rule ${i + 1}: ${what}`, { rule: i + 1 });
  if (!x || typeof x !== 'object' || !KINDS.includes(x.kind as UrlRuleKind)) throw bad(`expected kind ${KINDS.join('|')}`);
  if ((x.kind === 'param' || x.kind === 'path-param' || x.kind === 'index') && (typeof x.name !== 'string' || x.name === '')) throw bad(`a ${x.kind} rule needs a name`);
  if (x.kind === 'prefix' || x.kind === 'keep') {
    for (const f of x.kind === 'prefix' ? ['from', 'to'] as const : ['from'] as const) {
      const p = typeof x[f] === 'string' ? urlParts(x[f] as string) : undefined;
      if (!p || !(x[f] as string).endsWith('/') || spell(p) !== x[f]) throw bad(`a prefix rule needs ${f} as a canonical http(s) prefix ending in /`);
    }
  }
  for (const [f, kind] of [['pages', 'keep'], ['except', 'prefix']] as const) {
    const v = x[f];
    if (v !== undefined && (x.kind !== kind || version < 2 || !Array.isArray(v) || !v.every((p) => typeof p === 'string'))) throw bad(x.kind === kind && version >= 2 ? `${f} is not a list of strings` : `${f} belongs to a ${kind} rule of version 2`);
  }
  for (const f of ['support', 'tested', 'precision'] as const) if (typeof x[f] !== 'number' || !Number.isFinite(x[f])) throw bad(`${f} is not a number`);
  return x as UrlRule;
}
