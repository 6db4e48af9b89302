// Redirect stubs: the small pages a documentation build leaves where a page moved (`<meta
// http-equiv="refresh" content="0;URL='./arc-mutex/arc-base.html'">`, mdBook, Sphinx, Javadoc). They
// hold none of the site's template, so a site's first pages counted without them: five stubs among
// a manual's first eight left too few real pages to learn its template from, and the manual was
// sketched whole on one host and cut on its mirror.
import type { DocInput } from '../sketch/input.js';
import { fingerprint } from '../sketch/rabin.js';

/** Pages at least this long are never taken for redirect stubs. */
export const STUB_MAX_BYTES = 4096;

const REFRESH = /<meta\b[^>]*http-equiv\s*=\s*["']?refresh/i;

/** True when a page is a redirect stub: under STUB_MAX_BYTES and redirecting by a meta refresh. */
export function isRedirectStub(doc: DocInput): boolean {
  if (doc.length >= STUB_MAX_BYTES) return false;
  if (typeof doc === 'string') return REFRESH.test(doc);
  // REFRESH needs an ASCII `<meta`: bytes without one are no stub, and most pages are not (making
  // every small page a string first took the reading thread 2 s of 14 on 100,000 short pages)
  return hasMeta(doc) && REFRESH.test(latin1(doc));
}

/** True when bytes hold `<meta` in any case. */
function hasMeta(b: Uint8Array): boolean {
  for (let i = b.indexOf(0x3c); i >= 0 && i + 4 < b.length; i = b.indexOf(0x3c, i + 1)) {
    if ((b[i + 1] | 0x20) === 0x6d && (b[i + 2] | 0x20) === 0x65 && (b[i + 3] | 0x20) === 0x74 && (b[i + 4] | 0x20) === 0x61) return true;
  }
  return false;
}

function latin1(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 1024) s += String.fromCharCode(...bytes.subarray(i, i + 1024));
  return s;
}

/** A page's identity among a site's first pages (sites.ts): its fingerprint, or undefined for a redirect stub, which does not count. */
export function pageIdentity(doc: DocInput): bigint | undefined {
  return isRedirectStub(doc) ? undefined : fingerprint(doc);
}
