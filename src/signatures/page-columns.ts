// The signatures' columns of a page job (stream/page-jobs.ts): each page's bag of words, computed
// in the pass that reads the page, or later from the page's content tokens once the templates are known.
import { checkContentTables, contentTokenFingerprints, type ContentTables } from '../sketch/content.js';
import { tokenFingerprints } from '../sketch/tokens.js';
import type { PageColumn } from '../stream/page-jobs.js';
import { bagsFromTokens, type BagsOfWords } from './bags.js';

/** A batch's bags of words as posted back (BagsOfWords without its size and word view). */
export type BagRows = Pick<BagsOfWords, 'offsets' | 'terms' | 'counts' | 'norms'>;

const none = new BigUint64Array(0);

function rows(b: BagsOfWords): BagRows {
  return { offsets: b.offsets, terms: b.terms, counts: b.counts, norms: b.norms };
}

const arrays = (r: BagRows) => [r.offsets, r.terms, r.counts, r.norms];

/**
 * Each page's bag of words. 'page': every canonical token (markup dropped for HTML pages); 'text':
 * only pages read as plain text get their bag here (HTML pages get an empty one, filled later from
 * their content tokens: CONTENT_BAGS).
 */
export const BAGS: PageColumn<'page' | 'text', BagRows> = {
  name: 'bags',
  compute: (which, docs, html) => rows(bagsFromTokens(docs.map((d, i) => (which === 'page' ? tokenFingerprints(d, { markup: html[i] ? 'html' : 'text' }) : html[i] ? none : tokenFingerprints(d, { markup: 'text' }))))),
  arrays,
};

/** Bags of content tokens of every page of the batch against these template tables (docTable: the batch's own). */
export const CONTENT_BAGS: PageColumn<ContentTables, BagRows> = {
  name: 'contentBags',
  compute: (tables, docs) => {
    checkContentTables(tables, docs.length);
    return rows(bagsFromTokens(contentTokenFingerprints(docs, tables)));
  },
  arrays,
};
