// The check across templates (content mode). A page that is mostly template (release notes that
// repeat one another, cut by their site's template) keeps little content; a near copy of it on a
// site without that template is sketched whole, template and all, and its resemblance to that
// content cannot reach the threshold (with a template share of 1 − threshold or more, not even a
// byte copy's can), though the whole pages are near copies (`--content page` joins them). So a
// pair of pages cut against different tables (pages of one site share its table and are never
// compared this way) whose clusters are apart joins when, exactly:
// - the whole pages' resemblance reaches the threshold: the whole page proves the copy; and
// - one page is mostly template (a template share of 1 − threshold or more, content mode's
//   blind spot) and its content is contained in the other page's content at the threshold: what
//   the two share is that page's own text, not its template.
// The containment keeps out the template false positives content mode exists to avoid: a
// different page of the templated site, copied whole onto a site too small to learn a template
// from, shares the template with the page (its whole-page resemblance may reach the threshold)
// but not its content. Which pairs are checked is NearDuplicates.acrossTemplates.
import type { Inputs } from '../io/pages.js';
import type { CrawlTemplates } from '../template/crawl-templates.js';
import type { SketchDocuments } from '../sketch/sketch-set.js';
import { NO_TABLE, WHOLE_PAGE } from '../sketch/content.js';
import { exactPairs, type ExactPairs, type ExactPairsOptions } from './exact-pairs.js';

/** Takes a crawl's templates; returns whether table `t` (a docTable entry) holds template blocks. */
export function tableHasBlocks(templates: CrawlTemplates): (t: number) => boolean {
  const o = templates.tables.offsets;
  return (t) => t !== WHOLE_PAGE && t !== NO_TABLE && t + 1 < o.length && o[t + 1] > o[t];
}

/**
 * Takes the threshold, a crawl's sketches and templates; returns whether page d is mostly template:
 * cut by a table of template blocks, with a template share of 1 − threshold or more.
 */
export function mostlyTemplate(threshold: number, set: Pick<SketchDocuments, 'templateShare'>, templates: CrawlTemplates): (d: number) => boolean {
  const has = tableHasBlocks(templates), docTable = templates.tables.docTable;
  return (d) => has(docTable[d]) && set.templateShare(d) >= 1 - threshold;
}

/** The pair rule across templates (file comment), on the exact values it reads and whether each page is mostly template. */
export function joinsAcrossTemplates(t: number, wholeResemblance: number, contentAB: number, contentBA: number, mostlyA: boolean, mostlyB: boolean): boolean {
  return wholeResemblance >= t && ((mostlyA && contentAB >= t) || (mostlyB && contentBA >= t));
}

/**
 * Takes the input, the pairs (DocIds a[i], b[i]), the crawl's templates, the threshold, which
 * pages are mostly template (`mostlyTemplate`) and the options of exactPairs (the sketch options
 * content 'main'); returns per pair the values written over its estimates: its content's exact resemblance and containments, with the resemblance the
 * whole pages' where the pair joins by the rule across templates. Two exact checks of the same
 * pages: cut by their own tables, and whole.
 */
export async function exactAcrossTemplates(input: Inputs, a: Uint32Array, b: Uint32Array, templates: CrawlTemplates, threshold: number, mostly: (d: number) => boolean, options: Omit<ExactPairsOptions, 'templates'> = {}): Promise<ExactPairs & { joined: number }> {
  const content = await exactPairs(input, a, b, { ...options, templates });
  // the whole pages' shingles: those of the options that make them (content mode's own options do not apply)
  const { w, unit, markup, seed } = options.sketch ?? {};
  const whole = await exactPairs(input, a, b, { ...options, sketch: { w, unit, markup, seed, content: 'page' } });
  let joined = 0;
  for (let i = 0; i < a.length; i++) {
    if (!joinsAcrossTemplates(threshold, whole.resemblance[i], content.containmentAB[i], content.containmentBA[i], mostly(a[i]), mostly(b[i]))) continue;
    // over the threshold, so the pair joins; its containments stay the content's
    content.resemblance[i] = Math.max(content.resemblance[i], whole.resemblance[i]);
    joined++;
  }
  return { ...content, pages: content.pages + whole.pages, read: content.read + whole.read, changed: content.changed + whole.changed, joined };
}
