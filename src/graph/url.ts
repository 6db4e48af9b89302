/**
 * URL normalization shared by the readers and the web graph, so a link and the page it points to
 * meet under one spelling. WHATWG URL parsing already lowercases the scheme and host, drops the
 * default port, resolves dot segments and turns `http://h` into `http://h/`; on top of that the
 * fragment is dropped, an empty query (`?` alone) is dropped, and percent-escapes are put in the
 * RFC 3986 §6.2.2 normal form (hex digits uppercased, unreserved characters decoded). The query is
 * otherwise kept as is: two pages differing by query are two pages.
 */

const UNRESERVED = /[A-Za-z0-9\-._~]/;

function normalizeEscapes(part: string): string {
  if (!part.includes('%')) return part;
  return part.replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : '%' + hex.toUpperCase();
  });
}

/** Parses `url` (relative to `base` when given); returns the URL object or undefined when unparseable. */
export function parseUrl(url: string, base?: string | URL): URL | undefined {
  try {
    return new URL(url, base);
  } catch {
    return undefined;
  }
}

/** Normalizes a parsed URL in place and returns its string form. */
export function normalizeParsed(u: URL): string {
  // Each setter re-serializes the URL: only touch the parts that change.
  if (u.hash !== '' || u.href.endsWith('#')) u.hash = '';
  const path = normalizeEscapes(u.pathname);
  if (path !== u.pathname) u.pathname = path;
  if (u.search === '') return u.href.endsWith('?') ? u.href.slice(0, -1) : u.href;
  const search = normalizeEscapes(u.search);
  if (search !== u.search) u.search = search;
  return u.href;
}

/** Takes a URL string (relative to `base` when given); returns its normal form, or undefined when unparseable. */
export function normalizeUrl(url: string, base?: string | URL): string | undefined {
  const u = parseUrl(url.trim(), base);
  return u ? normalizeParsed(u) : undefined;
}

/** Takes a URL string; returns its host (`name` or `name:port`, lowercased, default port dropped), or '' when unparseable. */
export function hostOfUrl(url: string): string {
  const u = parseUrl(url);
  return u ? u.host : '';
}

/** True for http: and https: URLs, the only links the graph follows. */
export function isHttpUrl(u: URL): boolean {
  return u.protocol === 'http:' || u.protocol === 'https:';
}
