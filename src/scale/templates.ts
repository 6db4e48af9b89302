// The reduce side of the pipeline is SQL shipped as template files in the package's `sql/`
// folder. Each file starts with a comment header (name, version, summary, one line per parameter
// with its kind) and holds one or more statements separated by `;` at the end of a line. A
// parameter is written `{{name}}`; `{{int64}}` and `{{float64}}` are the dialect's type names and
// are filled by the dialect adapter. Rendering checks every parameter before any SQL is produced.
import { ResembleError, optionError } from '../errors.js';

/** What a parameter holds, which decides how its value is checked and written. */
export type ParamKind = 'relation' | 'table' | 'integer' | 'number';

/** One parameter of a template, as its header declares it. */
export interface TemplateParam {
  name: string;
  kind: ParamKind;
  description: string;
}

/** A parsed template: its header and its statements (still with placeholders). */
export interface SqlTemplate {
  name: string;
  version: number;
  summary: string;
  params: TemplateParam[];
  statements: string[];
}

/** Every template the package ships, in pipeline order. */
export const TEMPLATE_NAMES = [
  'cap', 'pairs', 'pairs-short', 'sizes', 'estimate-min', 'estimate-mod', 'edges',
  'components-init', 'components-round', 'components-changed',
  'site-links', 'link-summary', 'link-merge',
] as const;
/** The name of a shipped template (its file is `sql/<name>.sql`). */
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

/** Placeholders a dialect fills, not the caller. */
export const DIALECT_TOKENS = ['int64', 'float64'] as const;

const KINDS: readonly ParamKind[] = ['relation', 'table', 'integer', 'number'];

/** Takes a template's file name (without .sql) and text; returns it parsed, or throws E_FORMAT. */
export function parseTemplate(file: string, text: string): SqlTemplate {
  const bad = (msg: string): never => { throw new ResembleError('E_FORMAT', `sql template ${file}: ${msg}`, { template: file }); };
  const lines = text.split(/\r?\n/);
  let i = 0;
  if (lines[0]?.trim() !== '-- resemble sql template') bad('expected the first line "-- resemble sql template"');
  const header: Record<string, string> = {};
  const params: TemplateParam[] = [];
  for (i = 1; i < lines.length && lines[i].startsWith('--'); i++) {
    const line = lines[i].slice(2).trim();
    const p = /^param\s+([a-z_][a-z0-9_]*)\s*:\s*([a-z]+)\s*--\s*(.*)$/.exec(line);
    if (p) {
      if (!KINDS.includes(p[2] as ParamKind)) bad(`parameter ${p[1]}: expected kind ${KINDS.join('|')}, got ${p[2]}`);
      if (params.some((q) => q.name === p[1])) bad(`parameter ${p[1]} declared twice`);
      params.push({ name: p[1], kind: p[2] as ParamKind, description: p[3] });
      continue;
    }
    const h = /^([a-z]+)\s*:\s*(.*)$/.exec(line);
    if (!h) bad(`cannot read header line ${JSON.stringify(lines[i])}`);
    header[h![1]] = h![2];
  }
  if (header.name !== file) bad(`expected name ${file}, got ${header.name}`);
  const version = Number(header.version);
  if (!Number.isInteger(version) || version < 1) bad(`expected an integer version ≥ 1, got ${header.version}`);
  const body = lines.slice(i).join('\n');
  const statements = body.split(/;[ \t]*(?:\r?\n|$)/).map((s) => s.trim()).filter((s) => s.length > 0);
  if (statements.length === 0) bad('no statement');
  const used = new Set<string>();
  for (const m of body.matchAll(/\{\{([a-z_][a-z0-9_]*)\}\}/g)) used.add(m[1]);
  for (const name of used) {
    if (!params.some((p) => p.name === name) && !(DIALECT_TOKENS as readonly string[]).includes(name)) bad(`placeholder {{${name}}} is not declared`);
  }
  for (const p of params) if (!used.has(p.name)) bad(`parameter ${p.name} is declared but not used`);
  return { name: file, version, summary: header.summary ?? '', params, statements };
}

/** A value for a parameter: identifiers and relation expressions as strings, numbers as numbers. */
export type ParamValue = string | number;

/** How a dialect writes what templates leave open; see `dialects.ts`. */
export interface DialectWriter {
  readonly name: string;
  /** The type names behind `{{int64}}` and `{{float64}}`. */
  readonly int64: string;
  readonly float64: string;
  /** Rewrites one `CREATE TABLE name AS …` statement into the dialect's form (may become several statements). */
  createTable(name: string, statement: string): string[];
  /** Writes an input relation: a table name as it is, a Parquet location as the dialect reads files. */
  relation(value: string): string;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*){0,2}$/;

/** Takes a number; returns a literal every dialect reads as a double (exponent form round-trips exactly). */
export function numberLiteral(x: number): string {
  return x.toExponential();
}

function renderValue(t: SqlTemplate, p: TemplateParam, value: ParamValue | undefined, dialect: DialectWriter): string {
  const where = `${t.name}.${p.name}`;
  if (value === undefined) throw optionError(where, `a value (${p.kind}: ${p.description})`, value);
  switch (p.kind) {
    case 'integer':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw optionError(where, 'a safe integer', value);
      return String(value);
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw optionError(where, 'a finite number', value);
      return numberLiteral(value);
    case 'table':
      if (typeof value !== 'string' || !IDENT.test(value)) throw optionError(where, 'a table name (letters, digits, _, up to two dots)', value);
      return value;
    case 'relation':
      if (typeof value !== 'string' || value.trim() === '') throw optionError(where, 'a table name or a Parquet location', value);
      return dialect.relation(value);
  }
}

/**
 * Takes a template, its parameter values and a dialect; returns the statements to run, in order.
 * Throws E_OPTION for an unknown, missing or ill-typed parameter.
 */
export function renderTemplate(t: SqlTemplate, values: Record<string, ParamValue>, dialect: DialectWriter): string[] {
  for (const key of Object.keys(values)) {
    if (!t.params.some((p) => p.name === key)) {
      throw new ResembleError('E_OPTION', `unknown parameter ${JSON.stringify(key)} for sql template ${t.name}; known: ${t.params.map((p) => p.name).join(', ')}`, { option: key });
    }
  }
  const text = new Map<string, string>();
  for (const p of t.params) text.set(p.name, renderValue(t, p, values[p.name], dialect));
  text.set('int64', dialect.int64);
  text.set('float64', dialect.float64);
  const out: string[] = [];
  for (const statement of t.statements) {
    const sql = statement.replace(/\{\{([a-z_][a-z0-9_]*)\}\}/g, (_, name: string) => text.get(name)!);
    const create = /^CREATE TABLE ([A-Za-z0-9_.]+) AS\b/.exec(sql);
    if (create) out.push(...dialect.createTable(create[1], sql));
    else out.push(sql);
  }
  return out;
}
