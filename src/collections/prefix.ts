/**
 * URL path prefixes: where a collection lives on its host (`http://host/docs/3.11/`), and how many
 * crawled pages lie under a prefix. A prefix always ends with '/' and holds the scheme and host.
 */

/** Takes a URL; returns its directory: up to and including the last '/' of its path (query and fragment dropped). */
export function directoryOf(url: string): string {
  const q = url.search(/[?#]/);
  const path = q < 0 ? url : url.slice(0, q);
  const cut = path.lastIndexOf('/');
  const hostEnd = path.indexOf('/', path.indexOf('://') + 3);
  return hostEnd < 0 || cut < hostEnd ? (hostEnd < 0 ? path : path.slice(0, hostEnd)) + '/' : path.slice(0, cut + 1);
}

/** Takes URLs of one host; returns their longest common directory (at least the host's root `/`). */
export function commonDirectory(urls: readonly string[]): string {
  if (urls.length === 0) return '';
  let prefix = directoryOf(urls[0]);
  const root = prefix.indexOf('/', prefix.indexOf('://') + 3) + 1;
  for (let i = 1; i < urls.length && prefix.length > root; i++) {
    const dir = directoryOf(urls[i]);
    let k = 0;
    while (k < prefix.length && k < dir.length && prefix.charCodeAt(k) === dir.charCodeAt(k)) k++;
    prefix = prefix.slice(0, Math.max(root, prefix.lastIndexOf('/', k - 1) + 1));
  }
  return prefix;
}

/** Takes a prefix; returns its host part (`host` or `host:port`), '' when it has none. */
export function hostOfPrefix(prefix: string): string {
  const start = prefix.indexOf('://');
  if (start < 0) return '';
  const end = prefix.indexOf('/', start + 3);
  return prefix.slice(start + 3, end < 0 ? prefix.length : end);
}

/** The crawled URLs in sorted order: the pages under a prefix are one contiguous range. */
export class SortedUrls {
  /** Sorted position → DocId. */
  readonly order: Uint32Array;
  private readonly sorted: string[];

  /** Takes the URLs by DocId. */
  constructor(urls: readonly string[]) {
    this.order = Uint32Array.from(urls.keys()).sort((x, y) => (urls[x] < urls[y] ? -1 : urls[x] > urls[y] ? 1 : x - y));
    this.sorted = Array.from(this.order, (p) => urls[p]);
  }

  /** Takes a prefix; returns the range [lo, hi) of sorted positions whose URLs start with it. */
  range(prefix: string): { lo: number; hi: number } {
    const s = this.sorted;
    let l = 0, r = s.length;
    while (l < r) { const m = (l + r) >>> 1; if (s[m] < prefix) l = m + 1; else r = m; }
    const lo = l;
    r = s.length;
    while (l < r) { const m = (l + r) >>> 1; if (s[m].startsWith(prefix)) l = m + 1; else r = m; }
    return { lo, hi: l };
  }

  /** Takes a prefix; returns how many crawled URLs start with it. */
  count(prefix: string): number {
    const { lo, hi } = this.range(prefix);
    return hi - lo;
  }
}
