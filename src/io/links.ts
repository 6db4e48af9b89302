import { scanHtml } from '../graph/html-scan.js';
import { isHttpUrl, normalizeParsed, parseUrl } from '../graph/url.js';

// The elements whose attribute names another page (HTML §4.6, §4.8.5, §4.8.14, and the frames of
// HTML 4.01 that old crawls are full of).
const LINK_ATTRIBUTE: Record<string, string> = { a: 'href', area: 'href', frame: 'src', iframe: 'src' };

/** Takes raw attribute values of `<a href>`, `<area href>`, `<frame src>`, `<iframe src>` and `<base href>` in one linear pass. */
export function scanLinkAttributes(html: string): { hrefs: string[]; base: string | undefined } {
  const hrefs: string[] = [];
  let base: string | undefined;
  scanHtml(html, {
    onopentag(name, attribs) {
      if (name === 'base') {
        // Only the first <base> with an href sets the document base URL (HTML §4.2.3).
        if (base === undefined && attribs.href !== undefined) base = attribs.href;
        return;
      }
      const attr = LINK_ATTRIBUTE[name];
      if (attr !== undefined && attribs[attr] !== undefined) hrefs.push(attribs[attr]);
    },
  });
  return { hrefs, base };
}

/**
 * Takes HTML text and the page's URL; returns the absolute http(s) out-links, normalized
 * (fragments dropped), deduplicated in order of first appearance. `<base href>` is honoured;
 * links that do not parse, and other schemes (mailto:, javascript:), are left out.
 */
export function extractLinks(html: string, pageUrl: string): string[] {
  const { hrefs, base } = scanLinkAttributes(html);
  const page = parseUrl(pageUrl);
  const baseUrl = (base !== undefined ? parseUrl(base, page) : undefined) ?? page;
  const seen = new Set<string>();
  const out: string[] = [];
  for (const href of hrefs) {
    const u = parseUrl(href, baseUrl);
    if (!u || !isHttpUrl(u)) continue;
    const norm = normalizeParsed(u);
    if (!seen.has(norm)) {
      seen.add(norm);
      out.push(norm);
    }
  }
  return out;
}
