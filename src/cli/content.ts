/** The content-mode flags of the commands that sketch crawls (dups, dedup, index, query): parsing and help text. */
import { writeFileSync } from 'node:fs';
import { optionError } from '../errors.js';
import { DEFAULT_MIN_CONTENT, type SketchOptions } from '../sketch/options.js';
import type { SketchDocuments } from '../sketch/sketch-set.js';
import { tooLittleContent } from '../template/evidence.js';
import type { CrawlTemplates } from '../template/crawl-templates.js';
import type { LearnerOptions } from '../template/learner.js';
import { DEFAULT_HEAVY } from '../template/learn.js';
import { enumFlag, intFlag, numberFlag, stringOf } from './args.js';
import type { CommandContext } from './command.js';
import type { NearDuplicateSummary, ThinPage } from '../cluster/find.js';

/** Flags of content mode. */
export const CONTENT_FLAGS = {
  content: { type: 'string' },
  'link-density': { type: 'string' },
  'min-content': { type: 'string' },
  'template-held': { type: 'string' },
  'trust-after': { type: 'string' },
  'template-share': { type: 'string' },
  'template-heavy': { type: 'string' },
  'thin-out': { type: 'string' },
} as const;

/** Help text for CONTENT_FLAGS. */
export const CONTENT_USAGE = `Content flags:
  --content main|page   main (default): sketch each page's own content, its host's template and link-heavy
                        blocks left out; page: the whole page, Broder's definition (sketches of the two
                        modes are never compared)
  --link-density X      main: leave out blocks whose link text is more than X of their words, 0..1 (default 0.5)
  --min-content N       main: a page with fewer content words (its links counted when it is a page of
                        links) has "too little content": reported, joined only to copies of its whole
                        text, or of its title and content, word for word (default 30)
  --trust-after N       main: a site's template is learnt from its first N distinct pages and trusted from
                        then on; until then its pages wait, unsketched (default 8). A site is a manual root:
                        the host and first directory, split where the first N pages lie under one folder and
                        others beside it, or spread over its folders. A site with fewer pages at the end takes
                        the template of the site it is a folder of, else its host's (learnt from the host's
                        first 16 distinct pages), or none when the host has fewer than N pages too
  --template-held MB    main: pages held while their sites learn, at most MB MiB; past it the site waiting
                        longest is settled early: its host's template, else its own with 3 distinct pages
                        (default 64)
  --template-share X    main: a block on at least this share of the sampled pages (and 3) is template (default 0.5)
  --template-heavy X    main: a site's template is removed only when it holds at least X of its sampled pages'
                        words, 0..1; a site with a lighter one has its pages sketched whole, as --content page
                        (default ${DEFAULT_HEAVY}; 0 removes every template found; no extra cost)
  --thin-out FILE       main: write the pages with too little content to FILE, one JSON line each`;

/** The content options a command's flags set. */
export interface ContentFlags {
  sketch: Pick<SketchOptions, 'content' | 'linkDensity' | 'minContent'>;
  template?: LearnerOptions;
  thinOut?: string;
}

/** Takes parsed values; returns the content options they set (content 'main' unless --content page). */
export function contentOptionsOf(values: CommandContext['values']): ContentFlags {
  const content = enumFlag(values, 'content', 'main', ['main', 'page'] as const);
  if (content === 'page') {
    for (const f of ['link-density', 'min-content', 'template-held', 'trust-after', 'template-share', 'template-heavy', 'thin-out']) {
      if (values[f] !== undefined) throw optionError(`--${f}`, 'no value with --content page (it applies to --content main)', values[f]);
    }
    return { sketch: { content: 'page' } };
  }
  const sketch: ContentFlags['sketch'] = { content: 'main' };
  if (values['link-density'] !== undefined) sketch.linkDensity = numberFlag(values, 'link-density', 0.5, 0, 1);
  if (values['min-content'] !== undefined) sketch.minContent = intFlag(values, 'min-content', DEFAULT_MIN_CONTENT, 0, 0x7fffffff);
  const template: LearnerOptions = {};
  if (values['template-held'] !== undefined) template.maxHeldBytes = intFlag(values, 'template-held', 64, 1, 1 << 20) * (1 << 20);
  if (values['trust-after'] !== undefined) template.trustAfter = intFlag(values, 'trust-after', 8, 3, 1 << 20);
  if (values['template-share'] !== undefined) template.share = numberFlag(values, 'template-share', 0.5, 0, 1);
  if (values['template-heavy'] !== undefined) template.heavy = numberFlag(values, 'template-heavy', DEFAULT_HEAVY, 0, 1);
  return { sketch, template, thinOut: stringOf(values, 'thin-out') };
}

/**
 * Reports what content mode did: the summary on stderr (unless quiet) and, with --thin-out, the
 * pages with too little content as JSON lines {url, contentWords, template}.
 */
export function reportContent(ctx: CommandContext, flags: ContentFlags, set: SketchDocuments, urls: readonly string[], templates?: CrawlTemplates): void {
  if (set.params.content !== 'main') return;
  const thin = tooLittleContent(set);
  const t = templates?.stats;
  printContent(ctx, flags, {
    templates: t?.trusted ?? 0, sites: t?.sites ?? 0, templateBlocks: t?.templateBlocks ?? 0, heldPages: t?.heldPages ?? 0,
    thinPages: thin.length, minContent: set.params.minContent ?? 0,
  }, thin.map((d) => ({ url: urls[d], contentWords: set.tokens[d], template: Math.round(set.templateShare(d) * 1e4) / 1e4 })), t !== undefined);
}

/** The content counts the summary line shows: a run's, or an index build's (which checks no pairs across templates). */
export type ContentCounts = Omit<NonNullable<NearDuplicateSummary['content']>, 'acrossChecked' | 'acrossJoined'>;

/** Takes the content counts of a run's summary, the --thin-out file and whether templates were learnt; returns the content summary line, in plain words. */
export function contentSummary(content: ContentCounts, thinOut?: string, learnt = true): string {
  const t = content;
  const n = (k: number, what: string) => `${k} ${what}${k === 1 ? '' : 's'}`;
  const layouts = learnt
    ? `${t.templates} of ${n(t.sites, 'site')} ${t.templates === 1 ? 'repeats' : 'repeat'} a layout on their pages (${n(t.templateBlocks, 'block')} of menus, headers and footers in all), `
      + `left out when pages are compared; ${t.heldPages} ${t.heldPages === 1 ? 'page was' : 'pages were'} held back until their site's layout was learnt; `
    : '';
  return `content: ${layouts}${t.thinPages} ${t.thinPages === 1 ? 'page has' : 'pages have'} fewer than ${t.minContent} words of ${t.thinPages === 1 ? 'its' : 'their'} own `
    + `and ${t.thinPages === 1 ? 'is' : 'are'} matched only to copies with the same words${thinOut ? ` (listed in ${thinOut})` : ' (--thin-out FILE lists them)'}`;
}

/** Takes the content counts of a run's summary and its thin pages; prints them as reportContent does (nothing for whole-page sketches). */
export function printContent(ctx: CommandContext, flags: ContentFlags, content: ContentCounts | undefined, thin: readonly ThinPage[], learnt = true): void {
  if (!content) return;
  if (flags.thinOut) writeFileSync(flags.thinOut, thin.map((p) => JSON.stringify(p) + '\n').join(''));
  if (ctx.quiet) return;
  ctx.err.write(contentSummary(content, flags.thinOut, learnt) + '\n');
}
