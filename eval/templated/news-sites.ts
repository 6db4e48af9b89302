// Builds the templated crawl: real article text (The Debian Administrator's Handbook) on six
// invented sites, each page inside its site's template (crawl.ts lays it out; see README.md).
// Deterministic: same source, same seed, same bytes.
// Run: npx tsx eval/templated/news-sites.ts --source HANDBOOK_EN_US_DIR --out OUT [--seed 1]
// (HANDBOOK_EN_US_DIR is usr/share/doc/debian-handbook/html/en-US of the extracted package;
// see eval/templated/README.md).
import { readArticles } from './articles.js';
import { buildCrawl } from './crawl.js';
import { SITES, random } from './sites.js';
import { parseArgs } from 'node:util';

const { values: flags } = parseArgs({ options: { source: { type: 'string' }, out: { type: 'string' }, seed: { type: 'string', default: '1' } } });
const SOURCE = flags.source;
const OUT = flags.out;
const SEED = Number(flags.seed);
if (!SOURCE || !OUT) { console.error('usage: news-sites.ts --source HANDBOOK_EN_US_DIR --out OUT [--seed 1]'); process.exit(2); }

const rnd = random(SEED);
const articles = readArticles(SOURCE, rnd);
console.log(buildCrawl(SITES, articles, rnd, SEED, OUT).replace(' articles;', ' handbook articles;'));
