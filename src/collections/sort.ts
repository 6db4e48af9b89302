/**
 * Stable counting sort of a permutation by a small integer key: the relational sorts and joins of
 * the cluster growing algorithm (Figure 8) as linear passes over typed arrays. Sorting by several
 * keys is done least significant key first, each pass stable.
 */

/** Takes an order (indices), a key per index and the key range; returns the order stably sorted by key. */
export function sortByKey(order: Uint32Array, key: ArrayLike<number>, range: number): Uint32Array {
  const count = new Uint32Array(range + 1);
  for (let i = 0; i < order.length; i++) count[key[order[i]] + 1]++;
  for (let k = 0; k < range; k++) count[k + 1] += count[k];
  const out = new Uint32Array(order.length);
  for (let i = 0; i < order.length; i++) out[count[key[order[i]]]++] = order[i];
  return out;
}

/** Takes a length; returns the identity order 0..length-1. */
export function identity(length: number): Uint32Array {
  const order = new Uint32Array(length);
  for (let i = 0; i < length; i++) order[i] = i;
  return order;
}

/** Takes a column and an order; returns the column's values in that order. */
export function permute(column: Uint32Array, order: Uint32Array): Uint32Array {
  const out = new Uint32Array(order.length);
  for (let i = 0; i < order.length; i++) out[i] = column[order[i]];
  return out;
}

/** Takes group labels (0..groups-1) per item; returns the CSR of items per group, ascending within each group. */
export function groupBy(label: ArrayLike<number>, groups: number): { offsets: Uint32Array; items: Uint32Array } {
  const offsets = new Uint32Array(groups + 1);
  for (let i = 0; i < label.length; i++) offsets[label[i] + 1]++;
  for (let g = 0; g < groups; g++) offsets[g + 1] += offsets[g];
  const fill = offsets.slice(0, groups);
  const items = new Uint32Array(label.length);
  for (let i = 0; i < label.length; i++) items[fill[label[i]]++] = i;
  return { offsets, items };
}
