/**
 * A generated web for the mirror tests: independent sites of a few topics that share generic
 * paths and link to the same topic hubs (same-topic non-mirrors), full mirror groups crawled
 * incompletely, aliases sharing an IP, partial mirrors, and one IP hosting many unrelated sites
 * (virtual hosting). Everything is a pure function of the seed.
 */
import { Random } from '../../src/random.js';

export interface Site {
  /** Path → page text. */
  pages: Map<string, string>;
  /** Path → absolute out-links of that page (same-site links written with `HOST`). */
  links: Map<string, string[]>;
  topic: number;
}

export interface World {
  urls: string[];
  ips: Map<string, string[]>;
  links: Array<[string, string]>;
  /** URL → page text (only crawled URLs have content). */
  content: Map<string, string>;
  /** Mirror pairs (full mirrors and aliases), by host. */
  truth: Array<[string, string]>;
  /** Host → what it is. */
  kind: Map<string, 'site' | 'mirror' | 'alias' | 'partial' | 'vhost'>;
  /** Host → topic (same-topic non-mirrors share it). */
  topic: Map<string, number>;
  /** Host → the site it serves (mirrors and aliases share the id of their original). */
  siteOf: Map<string, number>;
  /** Partial mirror host → the site it copies directories of. */
  partialOf: Map<string, number>;
  /** Mirror groups (host names), aliases included. */
  groups: string[][];
  /** The shared IP of the virtual-hosting cluster. */
  vhostIp: string;
}

export interface WorldOptions {
  seed?: number;
  topics?: number;
  sitesPerTopic?: number;
  mirrorGroups?: number;
  aliasGroups?: number;
  partialMirrors?: number;
  vhosts?: number;
  /** Fraction of a host's pages that appear in the crawl. */
  crawled?: number;
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'zi', 'pe', 'sa', 'do', 'fu', 'gi', 'ha', 'ju', 'be', 'co', 'xe', 'wy', 'qu'];

function word(rng: Random, n = 3): string {
  let w = '';
  for (let i = 0; i < n; i++) w += SYLLABLES[rng.int(SYLLABLES.length)];
  return w;
}

const GENERIC = ['index.html', 'about.html', 'contact.html', 'links.html', 'news/index.html', 'images/logo.gif'];

/** Paths of three web applications: sites running the same one share these paths, not their pages. */
const SOFTWARE = [
  ['forum/index.php', 'forum/search.php', 'forum/login.php', 'forum/register.php', 'forum/faq.php', 'forum/memberlist.php', 'forum/viewforum.php?f=1', 'forum/viewforum.php?f=2', 'forum/viewtopic.php?t=1', 'forum/viewtopic.php?t=2'],
  ['gallery/index.php', 'gallery/album01.php', 'gallery/album02.php', 'gallery/album03.php', 'gallery/upload.php', 'gallery/slideshow.php', 'gallery/search.php', 'gallery/help.php'],
  ['wiki/Main_Page', 'wiki/Help:Contents', 'wiki/Special:Search', 'wiki/Special:RecentChanges', 'wiki/Special:Random', 'wiki/Community_portal', 'wiki/Current_events', 'wiki/About'],
];

/** Makes a site: generic pages plus a directory tree of topic and site words. */
function makeSite(rng: Random, topicWords: string[], hubs: string[], topic: number): Site {
  const own = Array.from({ length: 30 }, () => word(rng));
  const pages = new Map<string, string>();
  const dirs = Array.from({ length: 3 + rng.int(3) }, () => (rng.int(2) ? topicWords[rng.int(topicWords.length)] : own[rng.int(own.length)]) + '/');
  const paths = ['', ...GENERIC];
  if (rng.int(5) < 3) paths.push(...SOFTWARE[rng.int(SOFTWARE.length)]);
  const n = paths.length + 8 + rng.int(20);
  while (paths.length < n) {
    const d = dirs[rng.int(dirs.length)];
    const sub = rng.int(3) === 0 ? `${own[rng.int(own.length)]}${rng.int(100)}/` : '';
    const p = `${d}${sub}${own[rng.int(own.length)]}${rng.int(3) === 0 ? rng.int(1000) : ''}.html`;
    if (!paths.includes(p)) paths.push(p);
  }
  for (const p of paths) {
    const words: string[] = [];
    const len = 80 + rng.int(120);
    for (let i = 0; i < len; i++) words.push(rng.int(3) === 0 ? topicWords[rng.int(topicWords.length)] : own[rng.int(own.length)]);
    pages.set(p, words.join(' '));
  }
  const links = new Map<string, string[]>();
  const siteExternal = Array.from({ length: 4 }, () => `www.${word(rng)}.net`);
  for (const p of paths) {
    const out = new Set<string>();
    const k = 3 + rng.int(6);
    for (let i = 0; i < k; i++) out.add(`http://HOST/${paths[rng.int(paths.length)]}`);
    for (let i = 0; i < 1 + rng.int(3); i++) out.add(`http://${hubs[rng.int(hubs.length)]}/`);
    if (rng.int(2)) out.add(`http://${siteExternal[rng.int(siteExternal.length)]}/${word(rng)}.html`);
    links.set(p, [...out]);
  }
  return { pages, links, topic };
}

/** Generates the world. */
export function makeWorld(options: WorldOptions = {}): World {
  const rng = Random.stream(options.seed ?? 7, 'world');
  const topics = options.topics ?? 3;
  const sitesPerTopic = options.sitesPerTopic ?? 12;
  const crawled = options.crawled ?? 0.7;
  const topicWords = Array.from({ length: topics }, () => Array.from({ length: 25 }, () => word(rng, 2)));
  const hubs = Array.from({ length: topics }, (_, t) => Array.from({ length: 6 }, (_, i) => `hub${i}.topic${t}.org`));
  const w: World = { urls: [], ips: new Map(), links: [], content: new Map(), truth: [], kind: new Map(), topic: new Map(), siteOf: new Map(), partialOf: new Map(), groups: [], vhostIp: '' };
  let ipCounter = 0;
  const freshIp = () => {
    ipCounter++;
    return `10.${(ipCounter >> 8) & 255}.${ipCounter & 255}.${1 + rng.int(250)}`;
  };
  const sites: Site[] = [];
  /** Publishes a site on a host: a crawled sample of its pages, with per-host variation. */
  const publish = (host: string, site: Site, siteId: number, kind: World['kind'] extends Map<string, infer K> ? K : never, ip: string, rate = crawled) => {
    w.kind.set(host, kind);
    w.topic.set(host, site.topic);
    w.siteOf.set(host, siteId);
    w.ips.set(host, [ip]);
    const banner = `served by ${host.replace(/\./g, ' ')} updated ${rng.int(1000)}`;
    for (const p of site.pages.keys()) {
      if (p !== '' && rng.nextU32() / 2 ** 32 > rate) continue;
      const url = `http://${host}/${p}`;
      w.urls.push(url);
      w.content.set(url, `${banner} ${site.pages.get(p)!}`);
      for (const l of site.links.get(p) ?? []) w.links.push([url, l.replace('HOST', host)]);
    }
  };
  // Independent sites, a few per topic.
  for (let t = 0; t < topics; t++) {
    for (let s = 0; s < sitesPerTopic; s++) {
      const site = makeSite(rng, topicWords[t], hubs[t], t);
      sites.push(site);
      const host = `www.${word(rng)}-${word(rng, 2)}.com`;
      publish(host, site, sites.length - 1, 'site', freshIp());
    }
  }
  // Full mirror groups: an original and one or two mirrors, some on the original's subnet.
  for (let g = 0; g < (options.mirrorGroups ?? 6); g++) {
    const t = g % topics;
    const site = makeSite(rng, topicWords[t], hubs[t], t);
    sites.push(site);
    const name = word(rng);
    const ip = freshIp();
    const group = [`www.${name}.org`];
    publish(group[0], site, sites.length - 1, 'site', ip);
    const copies = 1 + (g % 2);
    for (let c = 0; c < copies; c++) {
      const host = c === 0 && g % 3 === 0 ? `ftp.${name}.org` : `${name}.mirror${c}.${word(rng, 2)}.edu`;
      const mip = g % 2 === 0 ? ip.replace(/\.\d+$/, `.${1 + rng.int(250)}`) : freshIp();
      // Half the mirrors are barely crawled: few common paths, the hard case for paths (§4.2.1).
      publish(host, site, sites.length - 1, 'mirror', mip, g % 4 < 2 ? crawled : 0.3);
      group.push(host);
    }
    w.groups.push(group);
  }
  // Aliases: two names, one server.
  for (let g = 0; g < (options.aliasGroups ?? 4); g++) {
    const t = g % topics;
    const site = makeSite(rng, topicWords[t], hubs[t], t);
    sites.push(site);
    const name = `${word(rng)}${word(rng, 1)}`;
    const ip = freshIp();
    const group = [`www.${name}.com`, `${name}.com`];
    for (const h of group) publish(h, site, sites.length - 1, 'alias', ip);
    w.groups.push(group);
  }
  // Partial mirrors: copy a few of an independent site's directories, plus pages of their own.
  for (let g = 0; g < (options.partialMirrors ?? 4); g++) {
    const orig = sites[g * 3];
    const own = makeSite(rng, topicWords[orig.topic], hubs[orig.topic], orig.topic);
    const dirs = [...new Set([...orig.pages.keys()].filter((p) => p.includes('/')).map((p) => p.slice(0, p.indexOf('/') + 1)))];
    const copied = new Set(dirs.filter((_, i) => i % 3 !== 2));
    const merged: Site = { pages: new Map(own.pages), links: new Map(own.links), topic: orig.topic };
    for (const [p, text] of orig.pages) {
      if (copied.has(p.slice(0, p.indexOf('/') + 1))) {
        merged.pages.set(p, text);
        merged.links.set(p, orig.links.get(p)!);
      }
    }
    sites.push(merged);
    const name = `partial${g}.${word(rng)}.net`;
    publish(name, merged, sites.length - 1, 'partial', freshIp());
    w.partialOf.set(name, g * 3);
  }
  // Virtual hosting: many unrelated sites on one address.
  w.vhostIp = '192.0.2.80';
  for (let v = 0; v < (options.vhosts ?? 20); v++) {
    const t = v % topics;
    const site = makeSite(rng, topicWords[t], hubs[t], t);
    sites.push(site);
    publish(`www.${word(rng)}shop.com`, site, sites.length - 1, 'vhost', w.vhostIp);
  }
  for (const g of w.groups) for (let i = 0; i < g.length; i++) for (let j = i + 1; j < g.length; j++) w.truth.push([g[i], g[j]]);
  return w;
}

/** Word 4-shingles of a text, each as a 52-bit number (collisions negligible at test sizes): the test's stand-in for sketches. */
export function shingleSet(text: string, w = 4): Set<number> {
  const t = text.split(/\s+/).filter(Boolean).map((x) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < x.length; i++) h = Math.imul(h ^ x.charCodeAt(i), 0x01000193);
    return h >>> 0;
  });
  const out = new Set<number>();
  for (let i = 0; i + w <= Math.max(t.length, w); i++) {
    let h = 0, g = 7;
    for (let j = i; j < i + w && j < t.length; j++) {
      h = Math.imul(h ^ t[j], 0x9e3779b1) >>> 0;
      g = (g * 31 + t[j]) % 1048573;
    }
    out.add(h * 1048576 + g);
  }
  return out;
}

/** Exact resemblance |A ∩ B| / |A ∪ B|. */
export function jaccard(a: Set<number>, b: Set<number>): number {
  let both = 0;
  for (const x of a) if (b.has(x)) both++;
  const union = a.size + b.size - both;
  return union === 0 ? 1 : both / union;
}

/** Per-host page "sketches" of a world for hybrid: exact shingle sets, keyed by path, with a min-hash key per page. */
export function worldContent(w: World): { pages(host: string): { paths: string[]; sketches: Set<number>[]; keys: BigUint64Array } | undefined; resemblance(a: Set<number>, b: Set<number>): number } {
  const byHost = new Map<string, Array<[string, string]>>();
  for (const [url, text] of w.content) {
    const u = new URL(url);
    const list = byHost.get(u.host) ?? [];
    list.push([u.pathname.slice(1) + u.search, text]);
    byHost.set(u.host, list);
  }
  const cache = new Map<string, { paths: string[]; sketches: Set<number>[]; keys: BigUint64Array }>();
  return {
    pages(host) {
      const have = cache.get(host);
      if (have) return have;
      const list = byHost.get(host);
      if (!list) return undefined;
      list.sort((x, y) => (x[0] < y[0] ? -1 : 1));
      const sketches = list.map(([, t]) => shingleSet(t));
      const keys = BigUint64Array.from(sketches, (set) => {
        let m = Infinity;
        for (const x of set) m = Math.min(m, x);
        return BigInt(m);
      });
      const r = { paths: list.map(([p]) => p), sketches, keys };
      cache.set(host, r);
      return r;
    },
    resemblance: jaccard,
  };
}

/** The world as JSONL crawl lines `{url, html, ip}`: each page's text with its links as anchors. */
export function worldJsonl(w: World): string {
  const out = new Map<string, string[]>();
  for (const [src, dst] of w.links) {
    const list = out.get(src) ?? [];
    list.push(dst);
    out.set(src, list);
  }
  const lines: string[] = [];
  for (const url of w.urls) {
    const host = new URL(url).host;
    const anchors = (out.get(url) ?? []).map((l) => `<a href="${l}">link</a>`).join(' ');
    lines.push(JSON.stringify({ url, html: `<html><body><p>${w.content.get(url)}</p>${anchors}</body></html>`, ip: w.ips.get(host)![0] }));
  }
  return lines.join('\n') + '\n';
}

/** The world's truth as a truth file: one `hostA hostB` line per mirror pair. */
export function worldTruth(w: World): string {
  return w.truth.map(([a, b]) => `${a} ${b}`).join('\n') + '\n';
}
