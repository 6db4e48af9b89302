/**
 * The mirror algorithms' plain inputs from crawled documents: their URLs, the server IP of each
 * host (WARC-IP-Address, a URL list's IP column) and their out-links.
 */
import type { Document, ReadError } from '../graph/document.js';
import { splitUrl } from './host-set.js';
import { parseIp } from './ip.js';

/** Options of {@link mirrorInputFromDocuments}. */
export interface CrawlInputOptions {
  /**
   * Also count URLs seen only as link targets (default false). The paper's input was every URL
   * found on crawled pages, crawled or not; on a local crawl this adds hosts that have no content.
   */
  linkUrls?: boolean;
}

/** Takes documents; returns URLs (with locations), host → IPs, page links, and the malformed IPs as errors. */
export function mirrorInputFromDocuments(
  documents: readonly Document[],
  options: CrawlInputOptions = {},
): { urls: string[]; locations: string[]; ips: Map<string, string[]>; links: Array<[string, string]>; errors: ReadError[] } {
  const urls: string[] = [];
  const locations: string[] = [];
  const ips = new Map<string, string[]>();
  const links: Array<[string, string]> = [];
  const errors: ReadError[] = [];
  documents.forEach((d, i) => {
    urls.push(d.url);
    locations.push(d.source ?? `document ${i}`);
    for (const l of d.links ?? []) links.push([d.url, l]);
    if (d.ip === undefined || d.ip === '') return;
    const host = splitUrl(d.url)?.host;
    if (host === undefined) return;
    if (!parseIp(d.ip)) {
      errors.push({ source: d.source ?? d.url, location: d.source ?? `document ${i}`, code: 'E_INPUT', message: `malformed IP address ${JSON.stringify(d.ip)}` });
      return;
    }
    const list = ips.get(host) ?? [];
    if (!list.includes(d.ip)) list.push(d.ip);
    ips.set(host, list);
  });
  if (options.linkUrls) {
    for (const [src, dst] of links) {
      if (!splitUrl(dst)) continue;
      urls.push(dst);
      locations.push(`link from ${src}`);
    }
  }
  return { urls, locations, ips, links, errors };
}
