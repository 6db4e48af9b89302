/** RP and HM signatures of a loaded crawl: bags of words from the core's canonical tokens, links from its web graph. */
import { utf8Bytes, type Document } from '../graph/document.js';
import type { WebGraph } from '../graph/web-graph.js';
import { tokenFingerprints } from '../sketch/tokens.js';
import { DEFAULT_W } from '../sketch/options.js';
import { bagsFromTokens, type BagsOfWords } from './bags.js';
import { shingleSetsOf, type ShingleSets } from './pair-evaluation.js';
import { signatureParams, type SignatureOptions } from './options.js';
import { computeSignatures, type Signatures } from './signatures.js';

/** How a document's bytes are read: markup dropped unless its type is plain text. */
function markupOf(d: Document): 'html' | 'text' {
  return d.contentType === undefined || d.contentType === 'text/html' || d.contentType === 'application/xhtml+xml' ? 'html' : 'text';
}

/** Takes documents; returns their bags of words (canonical tokens; markup dropped unless the type is plain text). */
export function crawlBags(documents: readonly Document[]): BagsOfWords {
  return bagsFromTokens(documents.map((d) => tokenFingerprints(utf8Bytes(d), { markup: markupOf(d) })));
}

/** Takes documents and the shingle width; returns their exact word-shingle sets, read as {@link crawlBags} reads them (after `await init()`). */
export function crawlShingleSets(documents: readonly Document[], w = DEFAULT_W): ShingleSets {
  return shingleSetsOf(documents.map(utf8Bytes), { w, markup: documents.map(markupOf) });
}

/** Takes a crawl's documents and web graph (same DocIds) and options; returns the bags and both signatures (after `await init()`). */
export function signaturesOfCrawl(documents: readonly Document[], graph: WebGraph, options: SignatureOptions = {}): { bags: BagsOfWords; signatures: Signatures } {
  signatureParams(options);
  const bags = crawlBags(documents);
  return { bags, signatures: computeSignatures(bags, { offsets: graph.linkOffsets, targets: graph.linkTargets }, options) };
}
