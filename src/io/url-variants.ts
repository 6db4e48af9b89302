/**
 * URL variants: the spellings under which a crawler meets one page. A session id (`?sid=`,
 * `;jsessionid=`, `?PHPSESSID=`...), tracking parameters (`utm_*`, `fbclid`, `gclid`, `ref`...),
 * a printer-friendly view (`?print=1`), a folder's `index.html`, `https:` for `http:` and a `www.`
 * alias host all name the page the URL names without them. `urlVariant` takes a URL and returns
 * that page's key and the rules it took to get there, so that a crawl's records can be joined to
 * their page with the rule said.
 */
import { normalizeParsed, parseUrl } from '../graph/url.js';

/** A variant rule: what was taken off a URL to reach its page's key. */
export type VariantRule = 'session-id' | 'tracking' | 'print' | 'index-html' | 'https' | 'www';
/** Every variant rule, in the order they are applied. */
export const VARIANT_RULES: readonly VariantRule[] = ['session-id', 'tracking', 'print', 'index-html', 'https', 'www'];
/** The rules that change the host (scheme and name): an alias of a host, not a variant of a page on it. */
export const HOST_RULES: readonly VariantRule[] = ['https', 'www'];

/** Query parameters that carry a session (lowercased names). */
const SESSION_PARAMS = new Set(['sid', 'sessionid', 'session_id', 'session', 'phpsessid', 'jsessionid', 'aspsessionid', 'cfid', 'cftoken', 's', 'zenid', 'osCsid'.toLowerCase()]);
/** Query parameters that carry tracking (lowercased names; `utm_*` by prefix). */
const TRACKING_PARAMS = new Set(['fbclid', 'gclid', 'dclid', 'msclkid', 'yclid', 'mc_cid', 'mc_eid', '_ga', '_gl', 'ref', 'ref_src', 'igshid', 'spm', 'trk']);
/** Query parameters of a printer-friendly view, with the values that ask for it. */
const PRINT = /^(print|printable|printer|printview|print_view|view)$/;
const PRINT_VALUES = /^(1|true|yes|on|print|printable)?$/i;
/** Path parameters of a session (`;jsessionid=...` in the last segment). */
const PATH_SESSION = /;(jsessionid|phpsessid|sessionid|sid)=[^/?#]*/gi;
/** A folder's index file. */
const INDEX = /\/(index|default)\.(html?|php|asp|aspx|jsp|shtml)$/i;

/** The page a URL names, and the variant rules that took it there. */
export interface UrlVariant {
  /** The page's key: the URL without session ids, tracking and print parameters, with `/` for `/index.html`, over http and without `www.`. */
  key: string;
  /** The URL as the crawl holds it, normalized (the same as the key when `rules` is empty). */
  url: string;
  /** The rules applied, in VARIANT_RULES order (empty: the URL names its page as it is). */
  rules: VariantRule[];
}

/** The session style `s=` is only one with 32 hex digits or more (a common short parameter otherwise). */
function isSession(name: string, value: string): boolean {
  const n = name.toLowerCase();
  if (n === 's') return /^[0-9a-f]{26,}$/i.test(value);
  return SESSION_PARAMS.has(n) || /^aspsessionid/i.test(n);
}

/** Takes a URL; returns its page's key and the rules applied, or undefined when it does not parse. */
export function urlVariant(url: string): UrlVariant | undefined {
  const u = parseUrl(url.trim());
  if (u === undefined) return undefined;
  const normal = normalizeParsed(u);
  const rules = new Set<VariantRule>();
  // session ids in the path (;jsessionid=…): a servlet container's
  let path = u.pathname;
  if (PATH_SESSION.test(path)) {
    path = path.replace(PATH_SESSION, '');
    rules.add('session-id');
  }
  if (u.search !== '') {
    const kept: string[] = [];
    for (const part of u.search.slice(1).split('&')) {
      if (part === '') continue;
      const eq = part.indexOf('=');
      const name = decodeURIComponentSafe(eq < 0 ? part : part.slice(0, eq));
      const value = eq < 0 ? '' : part.slice(eq + 1);
      if (isSession(name, value)) rules.add('session-id');
      else if (/^utm_/i.test(name) || TRACKING_PARAMS.has(name.toLowerCase())) rules.add('tracking');
      else if (PRINT.test(name.toLowerCase()) && PRINT_VALUES.test(value) && (name.toLowerCase() !== 'view' || /^print/i.test(value))) rules.add('print');
      else kept.push(part);
    }
    u.search = kept.length ? `?${kept.join('&')}` : '';
  }
  if (INDEX.test(path)) {
    path = path.replace(INDEX, '/');
    rules.add('index-html');
  }
  if (path !== u.pathname) u.pathname = path;
  if (u.protocol === 'https:') {
    u.protocol = 'http:';
    rules.add('https');
  }
  if (u.hostname.startsWith('www.') && u.hostname.split('.').length > 2) {
    u.hostname = u.hostname.slice(4);
    rules.add('www');
  }
  const key = rules.size === 0 ? normal : normalizeParsed(u);
  return { key, url: normal, rules: VARIANT_RULES.filter((r) => rules.has(r)) };
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
