// URL rules of a crawl as `collections` reads it: its URLs in crawl order and its duplicate
// clusters: the trivial clusters of the similar pages (URL variants included, soft-404s left out),
// each split into the groups of pages joined by pairs at least `minResemblance` alike (a partial
// mirror of another release is similar, not a duplicate a crawler may skip).
import { numberOption } from '../../errors.js';
import type { SimilarPages } from '../similarity.js';
import { UrlRuleLearner, type UrlRuleOptions } from './learn.js';

/** Options of `ruleLearnerOf`: the learner's bar and the resemblance that makes two similar pages duplicates. */
export interface CrawlRuleOptions extends UrlRuleOptions {
  /** Two pages of a trivial cluster are duplicates when their resemblance is at least this (default 0.95). */
  minResemblance?: number;
}

/** A URL's last path segment without its parameters and query (a folder's index file read as the folder). */
function fileName(url: string): string {
  const path = url.replace(/[?#].*$/, '');
  const last = path.slice(path.lastIndexOf('/') + 1).replace(/;.*$/, '');
  return /^(index|default)\.[a-z]+$/i.test(last) ? '' : last;
}

/** Default resemblance of two duplicates (fitted on the tuning web crawl, docs/crawls.md). */
export const DEFAULT_RULE_RESEMBLANCE = 0.95;

/**
 * Takes the crawl's URLs (by DocId), its similar pages and, per DocId, 1 for a page left out (a
 * soft-404); returns the learner fed with them (call `learn()`). In a trivial cluster larger than
 * `maxCluster` only pages with identical text or the same file name are compared.
 */
export function ruleLearnerOf(urls: readonly string[], similar: SimilarPages, leftOut: ArrayLike<number> | undefined, options: CrawlRuleOptions = {}): UrlRuleLearner {
  const { minResemblance, ...bar } = options;
  const r0 = numberOption('minResemblance', minResemblance, DEFAULT_RULE_RESEMBLANCE, 0, 1);
  const learner = new UrlRuleLearner(bar);
  urls.forEach((u, d) => { if (!leftOut?.[d]) learner.addUrl(u); });
  const t = similar.trivial;
  for (let r = 0; r < t.count; r++) {
    if (t.size[r] < 2) continue;
    const members: number[] = [];
    for (let k = t.offsets[r]; k < t.offsets[r + 1]; k++) { const d = t.pages[k]; if (!leftOut?.[d]) members.push(d); }
    if (members.length < 2) continue;
    // union-find over the members: identical text, or resemblance at least r0 (small clusters)
    const parent = members.map((_, i) => i);
    const find = (x: number): number => { while (parent[x] !== x) { parent[x] = parent[parent[x]]; x = parent[x]; } return x; };
    const join = (a: number, b: number) => { const x = find(a), y = find(b); if (x !== y) parent[Math.max(x, y)] = Math.min(x, y); };
    const byText = new Map<number, number>();
    members.forEach((d, i) => { const l = similar.label[d]; const f = byText.get(l); if (f === undefined) byText.set(l, i); else join(f, i); });
    const alike = (i: number, j: number) => { if (find(i) !== find(j) && similar.resemblance(members[i], members[j]) >= r0) join(i, j); };
    if (members.length <= learner.maxCluster) {
      for (let i = 0; i < members.length; i++) for (let j = i + 1; j < members.length; j++) alike(i, j);
    } else {
      // a large cluster (pages of one template chained together): only pages with the same file name are compared
      const byFile = new Map<string, number[]>();
      members.forEach((d, i) => { const f = fileName(urls[d]); const g = byFile.get(f); if (g) g.push(i); else byFile.set(f, [i]); });
      for (const g of byFile.values()) for (let a = 0; a < g.length && a < learner.maxCluster; a++) for (let b = a + 1; b < g.length && b < learner.maxCluster; b++) alike(g[a], g[b]);
    }
    const groups = new Map<number, string[]>();
    members.forEach((d, i) => { const r = find(i); const g = groups.get(r); if (g) g.push(urls[d]); else groups.set(r, [urls[d]]); });
    for (const g of groups.values()) if (g.length >= 2) learner.addCluster(g);
    // the pages of identical text, for the page-by-page check of a prefix rule
    const same = new Map<number, string[]>();
    for (const d of members) { const l = similar.label[d]; const g = same.get(l); if (g) g.push(urls[d]); else same.set(l, [urls[d]]); }
    for (const g of same.values()) if (g.length >= 2) learner.addIdentical(g);
  }
  return learner;
}
