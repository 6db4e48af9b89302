// Pages sketched the way an index sketched its own: with its parameters and, in content mode,
// against the template its site had in the index (a site the index does not know: no template).
import type { Document } from '../../graph/document.js';
import { utf8Bytes } from '../../graph/document.js';
import { WHOLE_PAGE } from '../../sketch/content-tables.js';
import { sketchMany, type SketchManyOptions } from '../../sketch/sketch.js';
import type { Pool } from '../../stream/pool.js';
import type { SketchSet } from '../../sketch/sketch-set.js';
import { packTables } from '../../template/crawl-templates.js';
import { deepestKnownSite } from '../../template/sites.js';
import { sketchOptionsFor } from '../records.js';
import type { ResembleIndex } from './resemble-index.js';

/**
 * Takes documents, an index and the URL each was fetched from (default the document's own);
 * returns their sketches with the index's parameters, each page of a site the index knows
 * sketched against that site's template (content mode). Pages that cannot be sketched are in the
 * set's `errors`.
 */
export function sketchForIndex(docs: readonly Document[], index: ResembleIndex, urls: readonly (string | undefined)[] = []): SketchSet {
  return sketchMany(docs.map(utf8Bytes), indexSketchOptions(docs, index, urls));
}

/** sketchForIndex on a worker pool: the same sketches. */
export function sketchForIndexOn(pool: Pool, docs: readonly Document[], index: ResembleIndex, urls: readonly (string | undefined)[] = []): Promise<SketchSet> {
  return pool.sketchMany(docs.map(utf8Bytes), indexSketchOptions(docs, index, urls));
}

function indexSketchOptions(docs: readonly Document[], index: ResembleIndex, urls: readonly (string | undefined)[]): SketchManyOptions {
  const options: SketchManyOptions = sketchOptionsFor(index.params);
  if (index.params.content === 'main') {
    const tables: BigUint64Array[] = [];
    const docTable = Uint32Array.from(docs, (d, i) => {
      const site = deepestKnownSite(index.templates, urls[i] ?? d.url);
      const t = site === undefined ? undefined : index.templates.get(site);
      if (!t) return WHOLE_PAGE;
      tables.push(t);
      return tables.length - 1;
    });
    Object.assign(options, { templates: packTables(tables, docTable) });
  }
  return options;
}
