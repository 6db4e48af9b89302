// Content evidence for cluster members: how much of the page was template, and how many
// shingles its content had.
import type { SketchDocuments } from '../sketch/sketch-set.js';

/** What content mode adds to a member's evidence. */
export interface MemberContentEvidence {
  /** Share of the page's tokens (title aside) left out as template, 0..1, 4 decimals. */
  template: number;
  /** Shingles of the page's content: max(1, content tokens − w + 1). */
  contentShingles: number;
}

/** The content evidence of document d (undefined for whole-page sketches). */
export function contentEvidence(set: SketchDocuments, d: number): MemberContentEvidence | undefined {
  if (set.params.content !== 'main') return undefined;
  return { template: Math.round(set.templateShare(d) * 1e4) / 1e4, contentShingles: Math.max(1, set.tokens[d] - set.params.w + 1) };
}

/** Adds content evidence to each member of a cluster record (members in the order of `docs`). */
export function withContentEvidence<R extends { members: object[] }>(record: R, docs: ArrayLike<number>, set: SketchDocuments): R {
  if (set.params.content !== 'main') return record;
  record.members = record.members.map((m, k) => ({ ...m, ...contentEvidence(set, docs[k]) }));
  return record;
}

/** The documents with too little content after the template (content 'main'), ascending. */
export function tooLittleContent(set: SketchDocuments): number[] {
  const out: number[] = [];
  if (set.params.content !== 'main') return out;
  for (let d = 0; d < set.size; d++) if (set.tooLittleContent(d)) out.push(d);
  return out;
}
