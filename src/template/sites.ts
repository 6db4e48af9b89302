// Which site's template a page is cut against: a site per manual root. A site starts as a host and
// the first directory of the path (`docs.example.com/python`), as one host often serves several
// manuals side by side. Its scope is the deepest folder holding all of its first `trustAfter`
// distinct pages. When that folder is deeper than the site's own (the pages came a manual at a
// time, as a folder walk gives them), a page under a folder beside the scope starts a site of its
// own, keyed by the folder where its path leaves the scope; pages in or under the scope stay. When
// the first pages are spread over the site's folders (a crawler's breadth-first order, or a manual
// with pages at its root), each folder of the site is a site of its own, and the first pages that
// lie in one move there (a TemplateLearner asks `route` again for its held pages when a site
// settles; routeSites does the same in one pass). Either way sites nest, and
// manuals side by side under one folder (`/manuals/rust-book/`, `/manuals/octave/`) get a template
// each, as each gets alone on a mirror; a site too small to learn from takes the template of the
// site it is a folder of (enclosingSites). Pages come in crawl order; the same order gives the same
// sites, on any number of workers.
import { parseUrl } from '../graph/url.js';

/** A site of the router's tree: its key, depth and scope, the pages seen, and the sites under it. */
interface SiteNode {
  key: string;
  /** The folders of the key's path. */
  depth: number;
  /** The folders every page of the site so far lies under (fixed once settled). */
  scope: string[] | undefined;
  /** Distinct pages seen (by fingerprint) until `trustAfter`; undefined once settled. */
  seen: Set<bigint> | undefined;
  children: Map<string, SiteNode> | undefined;
}

/** The host and folders of a URL's path (`/a/b/c.html` → a, b); undefined when unparseable. */
export function foldersOfUrl(url: string): { host: string; folders: string[] } | undefined {
  const u = parseUrl(url);
  if (!u) return undefined;
  const parts = u.pathname.split('/');
  return { host: u.host, folders: parts.slice(1, -1) };
}

/** The key of the site a page's URL starts in: host and first folder (`host/` for a page at the root). */
function rootKey(host: string, folders: readonly string[]): string {
  return `${host}/${folders[0] ?? ''}`;
}

/**
 * Routes pages to their sites (see the file comment). `route` takes pages in crawl order, each once;
 * `identity` (the page's fingerprint, or undefined for a page that does not count among a site's
 * first pages: a redirect stub) is asked for only while the page's site is still counting them.
 */
export class SiteRouter {
  private readonly roots = new Map<string, SiteNode>();

  constructor(private readonly trustAfter: number) {}

  /** The site of the page at `url` (identity: its bytes' fingerprint, undefined when it does not count), and its host. */
  route(url: string, identity: () => bigint | undefined): { site: string; host: string } {
    const p = foldersOfUrl(url);
    if (!p) return { site: '/', host: '' };
    const { host, folders } = p;
    const first = rootKey(host, folders);
    let node = this.roots.get(first);
    if (!node) this.roots.set(first, node = newNode(first, Math.min(1, folders.length)));
    for (;;) {
      if (node.seen) {
        const id = identity();
        if (id !== undefined) {
          node.scope = node.scope ? commonPrefix(node.scope, folders) : folders.slice();
          node.seen.add(id);
          if (node.seen.size >= this.trustAfter) node.seen = undefined;
        }
        return { site: node.key, host };
      }
      const scope = node.scope ?? [];
      let k = node.depth;
      while (k < scope.length && k < folders.length && scope[k] === folders[k]) k++;
      // in the scope's folder or above it: this site; under the scope: this site, unless its first
      // pages were spread over the folders of its own (then each folder is a site)
      if (k >= folders.length || (k >= scope.length && scope.length > node.depth)) return { site: node.key, host };
      node.children ??= new Map();
      let child = node.children.get(folders[k]);
      if (!child) node.children.set(folders[k], child = newNode(`${host}/${folders.slice(0, k + 1).join('/')}`, k + 1));
      node = child;
    }
  }
}

function newNode(key: string, depth: number): SiteNode {
  return { key, depth, scope: undefined, seen: new Set(), children: undefined };
}

function commonPrefix(a: string[], b: readonly string[]): string[] {
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  return k === a.length ? a : a.slice(0, k);
}

/**
 * The sites of pages in crawl order (`urls[i]`, `fingerprints[i]` the identity of its bytes; `stub(i)`
 * true for a page that does not count, a redirect stub), as the streaming pipeline gives them: a
 * SiteRouter routes each page, and a TemplateLearner with the router as its reroute holds each
 * site's pages until its first `trustAfter` distinct ones have come, then moves the held pages that
 * now belong to a folder's site there (byte bounds aside). Each page's site key and host.
 */
export function routeSites(urls: readonly string[], fingerprints: ArrayLike<bigint>, trustAfter: number, stub?: (i: number) => boolean): { sites: string[]; hosts: string[] } {
  const router = new SiteRouter(trustAfter);
  const identity = (i: number) => () => (stub?.(i) ? undefined : fingerprints[i]);
  const sites: string[] = new Array(urls.length), hosts: string[] = new Array(urls.length);
  // the learner's held pages per site still learning (null once settled)
  const held = new Map<string, { ids: number[]; seen: Set<bigint> } | null>();
  const add = (i: number, site: string) => {
    sites[i] = site;
    let h = held.get(site);
    if (h === null) return;
    if (!h) held.set(site, h = { ids: [], seen: new Set() });
    h.ids.push(i);
    if (!stub?.(i)) h.seen.add(fingerprints[i]);
    if (h.seen.size < trustAfter) return;
    const stay: number[] = [], moved: Array<[number, string]> = [];
    for (const j of h.ids) {
      const to = router.route(urls[j], identity(j)).site;
      if (to === site) stay.push(j); else moved.push([j, to]);
    }
    h.ids = stay;
    h.seen = new Set(stay.filter((j) => !stub?.(j)).map((j) => fingerprints[j]));
    for (const [j, to] of moved) add(j, to);
    if (held.get(site) !== null && h.seen.size >= trustAfter) held.set(site, null);
  };
  urls.forEach((url, i) => { const r = router.route(url, identity(i)); hosts[i] = r.host; add(i, r.site); });
  return { sites, hosts };
}

/**
 * The deepest site of `known` (keys as a SiteRouter makes them) a page at `url` lies in: the site
 * whose folders are the longest prefix of the page's. Undefined when none is known.
 */
export function deepestKnownSite<V>(known: ReadonlyMap<string, V>, url: string): string | undefined {
  const p = foldersOfUrl(url);
  if (!p) return known.has('/') ? '/' : undefined;
  const { host, folders } = p;
  for (let k = folders.length; k >= 2; k--) {
    const key = `${host}/${folders.slice(0, k).join('/')}`;
    if (known.has(key)) return key;
  }
  const first = rootKey(host, folders);
  return known.has(first) ? first : undefined;
}

/**
 * The hosts and sections of pages in crawl order as `learnTemplates` takes them: each page's site
 * (routeSites) split into its host and the folders after it.
 */
export function sectionsOf(urls: readonly string[], fingerprints: ArrayLike<bigint>, trustAfter: number, stub?: (i: number) => boolean): { hosts: string[]; sections: string[] } {
  const { sites, hosts } = routeSites(urls, fingerprints, trustAfter, stub);
  return { hosts, sections: sites.map((s, i) => s.slice(hosts[i].length + 1)) };
}

/**
 * The sites a SiteRouter key lies under, nearest first (`h/a/b/c` → `h/a/b`, `h/a`): where a site
 * with too few pages to learn from takes its template (the manual it is a folder of), before its host's.
 */
export function enclosingSites(key: string): string[] {
  const first = key.indexOf('/');
  const second = first < 0 ? -1 : key.indexOf('/', first + 1);
  const out: string[] = [];
  if (second < 0) return out;
  for (let at = key.lastIndexOf('/'); at >= second; at = key.lastIndexOf('/', at - 1)) out.push(key.slice(0, at));
  return out;
}
