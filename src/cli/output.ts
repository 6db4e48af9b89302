/**
 * Result writers for the CLI: JSON lines (one record per line, the default), a JSON array, or CSV.
 * Keys keep the order the command built each record in (commands build them in a fixed order, so
 * output is deterministic); every non-integer number is rounded to 4 decimals by `round4`.
 */
import type { OutputFormat } from './args.js';

/** Where results go: stdout or the --out file. */
export interface Sink {
  write(chunk: string): void;
}

/** Takes a number; returns it rounded to 4 decimals (the precision every score is printed with). */
export function round4(x: number): number {
  const r = Math.round(x * 1e4) / 1e4;
  return Object.is(r, -0) ? 0 : r;
}

/**
 * Takes any value; returns a JSON-ready copy: non-integers rounded by `round4`, NaN and ±Infinity as
 * null, bigints as decimal strings, typed arrays and Sets as arrays, Maps as objects.
 */
export function plain(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? (Number.isInteger(value) ? value : round4(value)) : null;
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return value;
  if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<number | bigint>, plain);
  if (Array.isArray(value) || value instanceof Set) return Array.from(value, plain);
  if (value instanceof Map) return Object.fromEntries(Array.from(value, ([k, v]) => [String(k), plain(v)]));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = plain(v);
  return out;
}

/** Takes one field; returns it as a CSV cell (RFC 4180 quoting; nested objects and arrays as JSON strings). */
export function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Writes records one at a time in the chosen format; `end()` must be called once after the last. */
export interface RecordWriter {
  write(record: object): void;
  end(): void;
  /** Records written so far. */
  readonly count: number;
}

/**
 * Takes a sink and a format; returns a record writer. JSONL and JSON stream; CSV holds the records
 * until `end()` because its header is the union of all keys (in order of first appearance).
 */
export function createRecordWriter(sink: Sink, format: OutputFormat): RecordWriter {
  let count = 0;
  const held: Record<string, unknown>[] = [];
  return {
    get count() {
      return count;
    },
    write(record: object) {
      const p = plain(record) as Record<string, unknown>;
      if (format === 'jsonl') sink.write(JSON.stringify(p) + '\n');
      else if (format === 'json') sink.write((count === 0 ? '[\n' : ',\n') + JSON.stringify(p));
      else held.push(p);
      count++;
    },
    end() {
      if (format === 'json') sink.write(count === 0 ? '[]\n' : '\n]\n');
      if (format !== 'csv') return;
      const columns: string[] = [];
      const seen = new Set<string>();
      for (const r of held) for (const k of Object.keys(r)) if (!seen.has(k)) { seen.add(k); columns.push(k); }
      if (columns.length > 0) sink.write(columns.map(csvCell).join(',') + '\n');
      for (const r of held) sink.write(columns.map((c) => csvCell(r[c])).join(',') + '\n');
    },
  };
}

/** Takes a sink, a format and records; writes them all (for commands whose output is one small list). */
export function writeRecords(sink: Sink, format: OutputFormat, records: Iterable<object>): number {
  const w = createRecordWriter(sink, format);
  for (const r of records) w.write(r);
  w.end();
  return w.count;
}
