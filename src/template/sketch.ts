// Content-mode sketches of a crawl in two passes: learn each host's template from a bounded
// sample of its pages, then sketch every page against its host's table.
import { optionError } from '../errors.js';
import type { DocInput } from '../sketch/input.js';
import { resolveSketchOptions } from '../sketch/options.js';
import { sketchMany, type SketchManyOptions } from '../sketch/sketch.js';
import type { SketchSet } from '../sketch/sketch-set.js';
import { learnTemplates, type LearnedTemplates, type TemplateOptions } from './learn.js';

/** A crawl's sketches and, with content 'main', the templates they were made against. */
export interface CrawlSketches {
  set: SketchSet;
  templates?: LearnedTemplates;
}

/**
 * Sketches documents as `sketchMany`; with content 'main', first learns each host's template
 * (`hostOf[i]` is document i's host; `sectionOf`, see learnTemplates) and sketches every page against it. With content 'page'
 * the sketches are sketchMany's, bit for bit, and `template` must not be given.
 */
export function sketchWithTemplates(docs: ArrayLike<DocInput>, hostOf: ArrayLike<string>, options: Omit<SketchManyOptions, 'templates'> = {}, template?: TemplateOptions, sectionOf?: ArrayLike<string>): CrawlSketches {
  const p = resolveSketchOptions((({ onProgress: _p, ...rest }) => rest)(options as SketchManyOptions));
  if (p.content !== 'main') {
    if (template !== undefined || sectionOf !== undefined) throw optionError('template', "no value with content 'page' (templates apply to content 'main')", 'options');
    return { set: sketchMany(docs, options) };
  }
  const templates = learnTemplates(docs, hostOf, template, sectionOf);
  return { set: sketchMany(docs, { ...options, templates: templates.tables }), templates };
}

/** The section of a URL for learnTemplates: the first directory of its path ('' for a file at the root or an unparseable URL). */
export function sectionOfUrl(url: string): string {
  let path: string;
  try { path = new URL(url).pathname; } catch { return ''; }
  return sectionOfPath(path);
}

/** The first directory of a URL path: what lies between its first and second '/' ('' without a second). */
export function sectionOfPath(path: string): string {
  const i = path.indexOf('/');
  const j = i < 0 ? -1 : path.indexOf('/', i + 1);
  return j < 0 ? '' : path.slice(i + 1, j);
}
