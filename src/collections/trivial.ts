import { optionError } from '../errors.js';
import { components, UnionFind } from '../cluster/index.js';
import { groupBy } from './sort.js';

/**
 * The trivial clusters (the paper's table TRIVIAL(rid, pid)): pages grouped by transitive
 * similarity (Definition 4). Rids are dense, numbered by each cluster's smallest DocId.
 */
export interface TrivialClusters {
  /** Number of trivial clusters. */
  readonly count: number;
  /** DocId → rid. */
  readonly rid: Uint32Array;
  /** rid → number of pages |R|. */
  readonly size: Uint32Array;
  /** Pages of rid r: `pages[offsets[r] .. offsets[r + 1])`, ascending DocIds. */
  readonly offsets: Uint32Array;
  readonly pages: Uint32Array;
}

function fromDenseLabels(rid: Uint32Array, count: number): TrivialClusters {
  const { offsets, items } = groupBy(rid, count);
  const size = new Uint32Array(count);
  for (let r = 0; r < count; r++) size[r] = offsets[r + 1] - offsets[r];
  return { count, rid, size, offsets, pages: items };
}

/** Takes a page count and similar page pairs (a[i], b[i]) (the ST test); returns their transitive closure as trivial clusters. */
export function trivialFromPairs(pageCount: number, a: ArrayLike<number>, b: ArrayLike<number>): TrivialClusters {
  if (a.length !== b.length) throw optionError('pairs', 'columns a and b of equal length', `${a.length} and ${b.length}`);
  const uf = new UnionFind(pageCount);
  for (let i = 0; i < a.length; i++) {
    if (a[i] >= pageCount || b[i] >= pageCount) throw optionError('pair DocId', `integer 0..${pageCount - 1}`, Math.max(a[i], b[i]));
    uf.union(a[i], b[i]);
  }
  const c = components(uf.roots());
  const rid = new Uint32Array(c.label.buffer, c.label.byteOffset, c.label.length);
  const size = new Uint32Array(c.count);
  for (let r = 0; r < c.count; r++) size[r] = c.offsets[r + 1] - c.offsets[r];
  return { count: c.count, rid, size, offsets: c.offsets, pages: c.members };
}

/** Takes any label per page (equal labels = similar pages); returns the trivial clusters with dense rids. */
export function trivialFromLabels(labels: ArrayLike<number>): TrivialClusters {
  const dense = new Map<number, number>();
  const rid = new Uint32Array(labels.length);
  for (let i = 0; i < labels.length; i++) {
    let r = dense.get(labels[i]);
    if (r === undefined) { r = dense.size; dense.set(labels[i], r); }
    rid[i] = r;
  }
  return fromDenseLabels(rid, dense.size);
}
