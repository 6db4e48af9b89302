// The study's column of a page job (stream/page-jobs.ts): each page's visible text cut into
// shingle paragraphs and fingerprinted, computed in the pass that reads the page.
import { fingerprintMany } from '../sketch/rabin.js';
import type { PageColumn } from '../stream/page-jobs.js';
import { paragraphColumns, type ParagraphColumns } from './columns.js';
import { htmlText } from './page-text.js';
import type { ParagraphParams } from './paragraphs.js';

const utf8 = new TextDecoder();

/** Each page's paragraphs (study/columns), from its visible text (HTML) or its text as it is. */
export const PARAGRAPHS: PageColumn<ParagraphParams, Pick<ParagraphColumns, 'docIds' | 'offsets' | 'fps'>> = {
  name: 'paragraphs',
  compute: (params, docs, html) => {
    // As pageText: the visible text of HTML, other text types as they are; each page's text made
    // when paragraphColumns comes to it, so only one page's text is held at a time.
    const n = docs.length;
    const texts = new Proxy({ length: n } as ArrayLike<string>, {
      get: (target, key) => (typeof key === 'string' && /^\d+$/.test(key) ? (html[+key] ? htmlText(utf8.decode(docs[+key])) : utf8.decode(docs[+key])) : Reflect.get(target, key)),
    });
    const c = paragraphColumns(texts, params, fingerprintMany);
    return { docIds: c.docIds, offsets: c.offsets, fps: c.fps };
  },
  arrays: (r) => [r.docIds, r.offsets, r.fps],
};
