/** RP and HM signatures of a loaded crawl: bags of words from the core's canonical tokens, links from its web graph. */
import { utf8Bytes, type Document } from '../graph/document.js';
import type { WebGraph } from '../graph/web-graph.js';
import { tokenFingerprints } from '../sketch/tokens.js';
import { fingerprintMany } from '../sketch/rabin.js';
import { firstCopies } from './first-copies.js';
import { contentTokenFingerprints } from '../sketch/content.js';
import { optionError } from '../errors.js';
import { learnTemplates, resolveTemplateOptions, type TemplateOptions } from '../template/learn.js';
import { sectionsOf } from '../template/sites.js';
import { isRedirectStub } from '../template/stub.js';
import { DEFAULT_W } from '../sketch/options.js';
import { bagsFromTokens, type BagsOfWords } from './bags.js';
import { shingleSetsOf, type ShingleSets } from './pair-evaluation.js';
import { signatureParams, type SignatureOptions } from './options.js';
import { computeSignatures, type Signatures } from './signatures.js';

/** How a document's bytes are read: markup dropped unless its type is plain text. */
function markupOf(d: Document): 'html' | 'text' {
  return d.contentType === undefined || d.contentType === 'text/html' || d.contentType === 'application/xhtml+xml' ? 'html' : 'text';
}

/** How a crawl's bags of words are read. */
export interface BagOptions {
  /** 'page' (default): every canonical token of the page. 'main': each HTML page's content only, its
   *  site's template left out where it is heavy, as `dups` sketches pages (learnt here in one pass,
   *  `learnTemplates`, sites as template/sites.ts routes them). Cost: one more pass over each site's sample. */
  content?: 'page' | 'main';
  /** content 'main': how templates are learnt. */
  templates?: TemplateOptions;
}

/** Takes documents; returns their bags of words (canonical tokens; markup dropped unless the type is plain text; with content 'main', HTML pages' content tokens). */
export function crawlBags(documents: readonly Document[], options: BagOptions = {}): BagsOfWords {
  const content = options.content ?? 'page';
  if (content !== 'page' && content !== 'main') throw optionError('content', "'page' | 'main'", content);
  if (content === 'page') {
    if (options.templates !== undefined) throw optionError('templates', "no value with content 'page' (templates apply to content 'main')", 'options');
    return bagsFromTokens(documents.map((d) => tokenFingerprints(utf8Bytes(d), { markup: markupOf(d) })));
  }
  const html = documents.flatMap((d, i) => (markupOf(d) === 'html' ? [i] : []));
  const bytes = html.map((i) => utf8Bytes(documents[i]));
  const urls = html.map((i) => documents[i].url);
  const pageFps = fingerprintMany(bytes);
  const { hosts, sections } = sectionsOf(urls, pageFps, resolveTemplateOptions(options.templates).trustAfter, (i) => isRedirectStub(bytes[i]));
  const learnt = learnTemplates(bytes, hosts, options.templates, sections);
  const tokens: BigUint64Array[] = new Array(documents.length);
  // byte-identical copies are cut once, the first, and share its content tokens (first-copies.ts)
  const fps = new BigUint64Array(documents.length);
  pageFps.forEach((fp, k) => { fps[html[k]] = fp; });
  const copies = firstCopies(html, fps), t = learnt.tables;
  const firstTables = { values: t.values, offsets: t.offsets, docTable: Uint32Array.from(copies.positions, (k) => t.docTable[k]) };
  contentTokenFingerprints(copies.positions.map((k) => bytes[k]), firstTables).forEach((tk, i) => { tokens[html[copies.positions[i]]] = tk; });
  for (const d of html) tokens[d] = tokens[copies.firstOf(d)];
  documents.forEach((d, i) => { if (!tokens[i]) tokens[i] = tokenFingerprints(utf8Bytes(d), { markup: 'text' }); });
  return bagsFromTokens(tokens);
}

/** Takes documents and the shingle width; returns their exact word-shingle sets, read as {@link crawlBags} reads them (after `await init()`). */
export function crawlShingleSets(documents: readonly Document[], w = DEFAULT_W): ShingleSets {
  return shingleSetsOf(documents.map(utf8Bytes), { w, markup: documents.map(markupOf) });
}

/** Takes a crawl's documents and web graph (same DocIds), signature options and how bags are read; returns the bags and both signatures (after `await init()`). */
export function signaturesOfCrawl(documents: readonly Document[], graph: WebGraph, options: SignatureOptions = {}, bagOptions: BagOptions = {}): { bags: BagsOfWords; signatures: Signatures } {
  signatureParams(options);
  const bags = crawlBags(documents, bagOptions);
  return { bags, signatures: computeSignatures(bags, { offsets: graph.linkOffsets, targets: graph.linkTargets }, options) };
}
