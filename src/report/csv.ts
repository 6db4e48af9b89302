// Records as CSV rows, one convention for every command (docs/FORMATS.md, "CSV output"):
// - one row per member: a record holding a list of members (a cluster's pages, a similar cluster's
//   copies) is written as one row per member, the record's own fields repeated on each row; a
//   record without members, or with an empty list, is one row;
// - the first column, `record`, is the record's position in the JSON output, from 0;
// - nested fields are columns named by their path (`evidence.prior`, `members.url`); the i-th
//   element of a list of objects that is not the member list is `path.i.field`;
// - a list of plain values is one cell, its values separated by single spaces, a null one as `-`;
// - null is an empty cell. No cell holds JSON.

/** Where a record's members are: a path of field names, each naming a list (`['clusters', 'members']`: a row per member of each cluster). */
export type MemberPath = readonly string[];

/** One CSV row: column name → cell text, in column order. */
export type CsvRow = Map<string, string>;

/** The member list of records that name none: `members`, when the record has one. */
export const DEFAULT_MEMBERS: MemberPath = ['members'];

const isScalar = (v: unknown): boolean => v === null || v === undefined || typeof v !== 'object';

function scalarText(v: unknown): string {
  if (v === null || v === undefined) return '';
  return String(v);
}

/** Takes a value and its column path; adds its cells to the row (flattening objects and lists as the convention says). */
function flatten(value: unknown, path: string, row: CsvRow): void {
  if (isScalar(value)) {
    row.set(path, scalarText(value));
    return;
  }
  if (Array.isArray(value)) {
    if (value.every(isScalar)) {
      row.set(path, value.map((v) => (v === null || v === undefined ? '-' : String(v))).join(' '));
      return;
    }
    value.forEach((v, i) => flatten(v, `${path}.${i}`, row));
    return;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (v !== undefined) flatten(v, path === '' ? k : `${path}.${k}`, row);
  }
}

/** Takes an object, its column prefix and the field left for the member rows; adds its other fields to the row. */
function fieldsOf(value: Record<string, unknown>, prefix: string, skip: string | undefined, row: CsvRow): void {
  for (const [k, v] of Object.entries(value)) {
    if (k === skip || v === undefined) continue;
    flatten(v, prefix === '' ? k : `${prefix}.${k}`, row);
  }
}

function expand(value: unknown, prefix: string, rest: MemberPath, row: CsvRow, rows: CsvRow[]): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    flatten(value, prefix, row);
    rows.push(row);
    return;
  }
  const obj = value as Record<string, unknown>;
  const key = rest[0];
  const list = key === undefined ? undefined : obj[key];
  fieldsOf(obj, prefix, Array.isArray(list) ? key : undefined, row);
  if (!Array.isArray(list) || list.length === 0) {
    rows.push(row);
    return;
  }
  const path = prefix === '' ? key! : `${prefix}.${key}`;
  for (const member of list) expand(member, path, rest.slice(1), new Map(row), rows);
}

/**
 * Takes a JSON-ready record (as `plain` returns it), its position in the output and where its
 * members are; returns its CSV rows: one per member (the record's fields on each), or one.
 */
export function csvRows(record: object, index: number, members: MemberPath = DEFAULT_MEMBERS): CsvRow[] {
  const rows: CsvRow[] = [];
  expand(record, '', members, new Map([['record', String(index)]]), rows);
  return rows;
}

/** Takes one cell's text; returns it as a CSV field (RFC 4180: quoted when it holds a comma, quote or line break). */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Takes rows; returns every column in order of first appearance (the header). */
export function csvColumns(rows: readonly CsvRow[]): string[] {
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const r of rows) for (const k of r.keys()) if (!seen.has(k)) { seen.add(k); columns.push(k); }
  return columns;
}

/** Takes the columns and one row; returns its CSV line (a missing cell is empty), with its line break. */
export function csvLine(columns: readonly string[], row: CsvRow): string {
  return columns.map((c) => csvField(row.get(c) ?? '')).join(',') + '\n';
}

/** Takes rows; returns the CSV text: the header, then one line per row (nothing when there are no rows). */
export function csvText(rows: readonly CsvRow[]): string {
  const columns = csvColumns(rows);
  if (columns.length === 0) return '';
  return [columns.map(csvField).join(',') + '\n', ...rows.map((r) => csvLine(columns, r))].join('');
}
