// The check across templates (content mode). A page that is mostly template (release notes that
// repeat one another, cut by their site's template) keeps little content; a near copy of it on a
// site without that template is sketched whole, template and all, and its resemblance to that
// content cannot reach the threshold, though the whole pages are near copies (`--content page`
// joins them). So a pair of pages cut against different tables (pages of one site share its
// table and are never compared this way) whose clusters are apart joins when both hold exactly:
// - the whole pages' resemblance reaches the threshold: the whole page proves the copy;
// - the content of a page cut by a table of template blocks is contained in the other page's
//   content at the threshold: what the two share is that page's own text, not its template.
// The second keeps out the template false positives content mode exists to avoid: a different
// page of the templated site, copied whole onto a site too small to learn a template from, shares
// the template with the page (its whole-page resemblance may reach the threshold) but not its
// content. A page is cut by a table with no blocks (or none) is sketched whole: the rule then
// needs the other page's content in it. Which pairs are checked is NearDuplicates.acrossTemplates.
import type { Inputs } from '../io/pages.js';
import type { CrawlTemplates } from '../template/crawl-templates.js';
import { NO_TABLE, WHOLE_PAGE } from '../sketch/content.js';
import { exactPairs, type ExactPairs, type ExactPairsOptions } from './exact-pairs.js';

/** Takes a crawl's templates; returns whether table `t` (a docTable entry) holds template blocks. */
export function tableHasBlocks(templates: CrawlTemplates): (t: number) => boolean {
  const o = templates.tables.offsets;
  return (t) => t !== WHOLE_PAGE && t !== NO_TABLE && t + 1 < o.length && o[t + 1] > o[t];
}

/** The pair rule across templates (file comment): the exact values it reads, and whether it joins. */
export function joinsAcrossTemplates(t: number, wholeResemblance: number, contentAB: number, contentBA: number, blocksA: boolean, blocksB: boolean): boolean {
  return wholeResemblance >= t && ((blocksA && contentAB >= t) || (blocksB && contentBA >= t));
}

/**
 * Takes the input, the pairs (DocIds a[i], b[i]), the crawl's templates, the threshold and the
 * options of exactPairs (the sketch options content 'main'); returns per pair the values written
 * over its estimates: its content's exact resemblance and containments, with the resemblance the
 * whole pages' where the pair joins by the rule across templates. Two exact checks of the same
 * pages: cut by their own tables, and whole.
 */
export async function exactAcrossTemplates(input: Inputs, a: Uint32Array, b: Uint32Array, templates: CrawlTemplates, threshold: number, options: Omit<ExactPairsOptions, 'templates'> = {}): Promise<ExactPairs & { joined: number }> {
  const content = await exactPairs(input, a, b, { ...options, templates });
  const whole = await exactPairs(input, a, b, { ...options, sketch: { ...(options.sketch ?? {}), content: 'page' } });
  const has = tableHasBlocks(templates), docTable = templates.tables.docTable;
  let joined = 0;
  for (let i = 0; i < a.length; i++) {
    if (!joinsAcrossTemplates(threshold, whole.resemblance[i], content.containmentAB[i], content.containmentBA[i], has(docTable[a[i]]), has(docTable[b[i]]))) continue;
    // over the threshold, so the pair joins; its containments stay the content's
    content.resemblance[i] = Math.max(content.resemblance[i], whole.resemblance[i]);
    joined++;
  }
  return { ...content, pages: content.pages + whole.pages, read: content.read + whole.read, changed: content.changed + whole.changed, joined };
}
