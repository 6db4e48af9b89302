// Loads the SQL templates shipped in the package's `sql/` folder (Node only). The folder sits two
// levels above this file in the source tree and one level above the bundled `dist/` entry.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ResembleError } from '../errors.js';
import { parseTemplate, TEMPLATE_NAMES, type SqlTemplate, type TemplateName } from './templates.js';

let folder: string | undefined;
const cache = new Map<TemplateName, SqlTemplate>();

/** Returns the path of the package's `sql/` folder, or throws E_IO when it cannot be found. */
export function templateFolder(): string {
  if (folder) return folder;
  for (const up of ['../../sql/', '../sql/']) {
    const path = fileURLToPath(new URL(up, import.meta.url));
    if (existsSync(path + 'cap.sql')) return (folder = path);
  }
  throw new ResembleError('E_IO', 'cannot find the sql/ template folder of the package');
}

/** Takes a template name; returns the parsed template (read once, then cached). */
export function loadTemplate(name: TemplateName): SqlTemplate {
  let t = cache.get(name);
  if (!t) {
    if (!(TEMPLATE_NAMES as readonly string[]).includes(name)) throw new ResembleError('E_OPTION', `unknown sql template ${JSON.stringify(name)}; known: ${TEMPLATE_NAMES.join(', ')}`);
    t = parseTemplate(name, readFileSync(templateFolder() + name + '.sql', 'utf8'));
    cache.set(name, t);
  }
  return t;
}

/** Returns every shipped template, in pipeline order. */
export function loadTemplates(): SqlTemplate[] {
  return TEMPLATE_NAMES.map(loadTemplate);
}
