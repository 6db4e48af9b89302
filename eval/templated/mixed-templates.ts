// Builds the crossed check: a templated crawl of another shape than news-sites.ts's, to test where
// content mode removes a template and where it leaves the page whole. Other article text (the
// Securing Debian Manual) and other template sizes: a documentation site whose template (the
// manual's whole table of contents on every page, a header, a footer) is heavy, and a mirror of
// it under a light template; a news site with a light template, long articles, a tracking URL
// and short briefs (12–56 words, some posted again updated); a medium, a heavy and an
// aggregator site syndicating each other's articles. Truth from the article text (truth.ts),
// scored by evaluate.ts and gate.ts like the templated crawl.
// Run: npx tsx eval/templated/mixed-templates.ts --source HARDEN_DOC_EN_US_DIR --out OUT [--seed 2]
// (HARDEN_DOC_EN_US_DIR is usr/share/doc/harden-doc/html/en-US of the extracted harden-doc
// package; see eval/templated/README.md).
import { readArticles } from './articles.js';
import { buildCrawl } from './crawl.js';
import { random, type SiteStyle } from './sites.js';

const flag = (name: string, fallback?: string) => { const i = process.argv.indexOf(name); return i >= 0 ? process.argv[i + 1] : fallback; };
const SOURCE = flag('--source');
const OUT = flag('--out');
const SEED = Number(flag('--seed', '2'));
if (!SOURCE || !OUT) { console.error('usage: mixed-templates.ts --source HARDEN_DOC_EN_US_DIR --out OUT [--seed 2]'); process.exit(2); }

const none = { related: 0, popular: 0, byline: false, tags: false, newsletter: false, share: false, breadcrumb: false, print: 0, tracking: 0, authors: [] };
/** The crossed check's sites, from the heaviest template to the lightest. */
export const CROSSED_SITES: SiteStyle[] = [
  { ...none, host: 'docs.hardening.example.org', name: 'Hardening Manual', seed: 71, headerWords: 90, footerWords: 50, layout: 'docs', originals: 50, syndicates: false },
  { ...none, host: 'mirror.example.net', name: 'Mirror', seed: 73, headerWords: 12, footerWords: 10, layout: 'div', originals: 0, syndicates: false, mirrorOf: 'docs.hardening.example.org', mirrorShare: 0.7 },
  { host: 'cyberportal.example.com', name: 'Cyber Portal', seed: 89, headerWords: 420, footerWords: 180, related: 10, popular: 8, byline: true, tags: true, newsletter: true, share: true, breadcrumb: true, layout: 'table', originals: 30, print: 0, tracking: 0, authors: [] },
  { host: 'infosec-roundup.example.net', name: 'Infosec Roundup', seed: 97, headerWords: 150, footerWords: 70, related: 6, popular: 4, byline: true, tags: false, newsletter: true, share: true, breadcrumb: true, layout: 'div', originals: 15, print: 0, tracking: 0, authors: [], aggregator: true },
  { ...none, host: 'patchnotes.example.org', name: 'Patch Notes', seed: 83, headerWords: 100, footerWords: 40, related: 4, byline: true, tags: true, breadcrumb: true, layout: 'div', originals: 40, print: 0.3 },
  { ...none, host: 'www.securitynews.example.com', name: 'Security News', seed: 79, headerWords: 30, footerWords: 25, related: 2, byline: true, layout: 'div', originals: 45, tracking: 0.2, briefs: 24, briefUpdates: 0.4 },
];

const rnd = random(SEED);
const articles = readArticles(SOURCE, rnd, /\.html$/);
console.log(buildCrawl(CROSSED_SITES, articles, rnd, SEED, OUT).replace(' articles;', ' articles of the Securing Debian Manual;'));
