// Content mode cuts each page against its own site's template, and a mirror's site may have learnt
// another one (a host holding several manuals under one folder samples them differently), so
// byte-identical copies could be cut differently, get different bags and not collide: on a crawl
// of the Rust documentation, 24 of the 731 pairs of copies of one page were lost that way. So
// byte-identical pages get one bag, the first copy's, in the library (crawlBags) and in the
// stream (readForSignatures), and only the first copy is cut.

/**
 * Takes pages' DocIds and every page's raw fingerprint (by DocId); returns the positions in `ids`
 * of the first copy of each distinct page, and the DocId of the first copy of each page.
 */
export function firstCopies(ids: ArrayLike<number>, fps: ArrayLike<bigint>): { positions: number[]; firstOf: (d: number) => number } {
  const first = new Map<bigint, number>(), positions: number[] = [];
  for (let k = 0; k < ids.length; k++) if (!first.has(fps[ids[k]])) { first.set(fps[ids[k]], ids[k]); positions.push(k); }
  return { positions, firstOf: (d) => first.get(fps[d])! };
}
