/**
 * Result writers for the CLI: JSON lines (one record per line, the default), a JSON array, or CSV.
 * Keys keep the order the command built each record in (commands build them in a fixed order, so
 * output is deterministic); every non-integer number is rounded to 4 decimals by `round4`.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, realpathSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { ResembleError } from '../errors.js';
import type { OutputFormat } from './args.js';

/** Where results go: stdout or the --out file. */
export interface Sink {
  write(chunk: string): void;
}

export { plain, round4 } from '../report/plain.js';
import { plain } from '../report/plain.js';
import { csvColumns, csvField, csvLine, csvRows, DEFAULT_MEMBERS, type CsvRow, type MemberPath } from '../report/csv.js';

/** Takes one field; returns it as a CSV cell (RFC 4180 quoting; lists of plain values joined by spaces, as in `csvRows`). */
export function csvCell(value: unknown): string {
  const row = csvRows({ value }, 0, []);
  return csvField(row[0].get('value') ?? '');
}

/** Writes records one at a time in the chosen format; `end()` must be called once after the last. */
export interface RecordWriter {
  write(record: object): void;
  /** Writes a record that is JSON-ready already (what `plain` returns: the entry points' records), without copying it again. */
  writePlain(record: object): void;
  end(): void;
  /** Records written so far. */
  readonly count: number;
}

/** How a command's records become CSV rows: where each record's members are (default `members`). */
export interface CsvOptions {
  members?: MemberPath;
}

/**
 * Takes a sink and a format; returns a record writer. JSONL and JSON stream; CSV holds the rows
 * until `end()` because its header is the union of all columns (in order of first appearance).
 * CSV follows one convention for every command (`csvRows`): one row per member, the record's
 * position in the column `record`, nested fields as dotted columns, never JSON in a cell.
 */
export function createRecordWriter(sink: Sink, format: OutputFormat, csv: CsvOptions = {}): RecordWriter {
  let count = 0;
  const held: CsvRow[] = [];
  const writePlain = (record: object) => {
    const p = record as Record<string, unknown>;
    if (format === 'jsonl') sink.write(JSON.stringify(p) + '\n');
    else if (format === 'json') sink.write((count === 0 ? '[\n' : ',\n') + JSON.stringify(p));
    else for (const row of csvRows(p, count, csv.members ?? DEFAULT_MEMBERS)) held.push(row);
    count++;
  };
  return {
    get count() {
      return count;
    },
    write: (record: object) => writePlain(plain(record) as object),
    writePlain,
    end() {
      if (format === 'json') sink.write(count === 0 ? '[]\n' : '\n]\n');
      if (format !== 'csv') return;
      const columns = csvColumns(held);
      if (columns.length > 0) sink.write(columns.map(csvField).join(',') + '\n');
      for (const r of held) sink.write(csvLine(columns, r));
    },
  };
}

/** Takes a sink, a format and records; writes them all (for commands whose output is one small list). */
export function writeRecords(sink: Sink, format: OutputFormat, records: Iterable<object>, csv: CsvOptions = {}): number {
  const w = createRecordWriter(sink, format, csv);
  for (const r of records) w.write(r);
  w.end();
  return w.count;
}

/** Takes a path; returns its device and inode (following links), or undefined when it does not exist. */
function identity(path: string): { dev: number; ino: number; dir: boolean; special: boolean } | undefined {
  try {
    const s = statSync(path);
    return { dev: s.dev, ino: s.ino, dir: s.isDirectory(), special: !s.isFile() && !s.isDirectory() };
  } catch {
    return undefined;
  }
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    // Not there yet: resolve its folder (which may be a link) and keep the name.
    try {
      return join(realpathSync(dirname(resolve(path))), basename(path));
    } catch {
      return resolve(path);
    }
  }
}

/**
 * Takes an output path, the paths the run reads and the flag naming the output; throws E_OPTION
 * when the output is one of the inputs (the same file through any path, link or hard link) or lies
 * inside an input folder, so that no run can overwrite what it reads.
 */
export function checkOutput(path: string, inputs: readonly string[], flag: string): void {
  if (path === '-' || path === '') return;
  const out = identity(path);
  if (out?.special) return; // /dev/null, /dev/stdout, a FIFO: nothing there to destroy
  const outReal = realOrResolved(path);
  for (const input of inputs) {
    if (input === '-' || input === '') continue;
    const id = identity(input);
    if (id === undefined) continue;
    if (out && !id.dir && out.dev === id.dev && out.ino === id.ino) {
      throw new ResembleError('E_OPTION', `${flag} ${path} is the input ${input}: refusing to overwrite what is being read`, { option: flag });
    }
    if (id.dir) {
      const rel = relative(realOrResolved(input), outReal);
      if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) {
        throw new ResembleError('E_OPTION', `${flag} ${path} is inside the input folder ${input}: it would be read as part of the crawl; write it elsewhere`, { option: flag });
      }
    }
  }
}

/** UTF-16 units of records an AtomicFile gathers before it writes them (1 Mi: a few MiB at most). */
const FLUSH_CHARS = 1 << 20;

/** A sink whose chunks are gathered and handed on joined: see `gatheredSink`. */
export interface GatheredSink extends Sink {
  /** Hands on what is gathered now. */
  flush(): void;
}

/**
 * Takes a writer (standard output's); returns a sink that gathers the chunks written in one turn
 * of the event loop (a batch of records is written in one) and hands them on as one string, at
 * the next turn or once about FLUSH_CHARS are gathered: one write of a few records' worth instead
 * of a write per record. `flush()` hands on the rest (before the command returns).
 */
export function gatheredSink(write: (chunk: string) => void): GatheredSink {
  let pending: string[] = [], pendingChars = 0, scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pendingChars === 0) return;
    const chunk = pending.length === 1 ? pending[0] : pending.join('');
    pending = []; pendingChars = 0;
    write(chunk);
  };
  return {
    write(chunk: string) {
      pending.push(chunk);
      pendingChars += chunk.length;
      if (pendingChars >= FLUSH_CHARS) flush();
      else if (!scheduled) { scheduled = true; setImmediate(flush); }
    },
    flush,
  };
}

/** A file being written under a temporary name beside it; `commit()` renames it into place, `abort()` removes it. */
export interface AtomicFile extends Sink {
  readonly path: string;
  writeBytes(bytes: Uint8Array): void;
  commit(): void;
  abort(): void;
}

/**
 * Takes an output path; returns a sink writing to a temporary file in the same folder, renamed over
 * the path by `commit()` (atomic on one file system), so a failed or interrupted run leaves the old
 * file (or none) rather than half a new one. Special files (/dev/null, a FIFO) are written directly.
 */
export function openAtomic(path: string): AtomicFile {
  const special = identity(path)?.special === true;
  const tmp = special ? path : join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  const fail = (e: unknown): never => {
    const err = e as NodeJS.ErrnoException;
    throw new ResembleError('E_IO', `cannot write ${path}: ${err.code === 'ENOENT' ? 'its folder does not exist' : err.code === 'EACCES' ? 'permission denied' : err.message}`, { path, code: err.code });
  };
  let fd: number | undefined;
  try {
    fd = openSync(tmp, special ? 'w' : 'wx');
  } catch (e) {
    fail(e);
  }
  // Records are small (a cluster line is a few hundred bytes): they are gathered into chunks of
  // about FLUSH_CHARS and written a chunk at a time, not a system call each (on 10 million pages,
  // 2 million calls on the thread that formats the records).
  let pending: string[] = [], pendingChars = 0;
  const flush = () => {
    if (pendingChars === 0) return;
    const chunk = pending.length === 1 ? pending[0] : pending.join('');
    pending = []; pendingChars = 0;
    try {
      if (fd !== undefined) writeSync(fd, chunk);
    } catch (e) {
      fail(e);
    }
  };
  const close = () => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
  };
  return {
    path,
    write(chunk: string) {
      pending.push(chunk);
      pendingChars += chunk.length;
      if (pendingChars >= FLUSH_CHARS) flush();
    },
    writeBytes(bytes: Uint8Array) {
      flush();
      try {
        for (let at = 0; fd !== undefined && at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
      } catch (e) {
        fail(e);
      }
    },
    commit() {
      try {
        flush();
        close();
        if (!special) renameSync(tmp, path);
      } catch (e) {
        this.abort();
        fail(e);
      }
    },
    abort() {
      try {
        close();
      } catch {
        // closing a broken file: its removal below is what matters
      }
      if (!special) rmSync(tmp, { force: true });
    },
  };
}

/** Takes a path and its bytes (or text); writes them through `openAtomic` (the old file stays until the new one is whole). */
export function writeFileAtomic(path: string, data: Uint8Array | string): void {
  const f = openAtomic(path);
  try {
    if (typeof data === 'string') f.write(data);
    else f.writeBytes(data);
  } catch (e) {
    f.abort();
    throw e;
  }
  f.commit();
}
