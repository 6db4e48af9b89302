// DuckDB embedded as the engine for corpora beyond memory. `@duckdb/node-api` is an optional peer
// dependency loaded only here, on first use. Tables live in a database file inside a temporary
// folder and spill to it, so the memory limit bounds the engine, not the corpus. Rows go in and
// out as DuckDB vectors copied to and from typed arrays: no JavaScript object per row.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { ResembleError, intOption, optionError, rejectUnknown } from '../errors.js';
import { dialectWriter } from './dialects.js';
import { CONTRACT, checkRows, type ColumnType, type TableName, type TableRows } from './contract.js';

/** Options of the DuckDB engine; all optional. */
export interface EngineOptions {
  /** DuckDB's memory_limit (default '1GB'): beyond it, joins, GROUP BY and sorts spill to `tempDir`. */
  memoryLimit?: string;
  /** Folder for the database file and spill files (default: a new folder under the OS temp dir, removed on close). */
  tempDir?: string;
  /** Worker threads (default: DuckDB's, one per core). */
  threads?: number;
  /** Keep the database file when closing (default false). */
  keepTemp?: boolean;
  /** Most disk the spill files may take, e.g. '20GB' (default DuckDB's: 90% of the free space); past it a statement fails with E_ENGINE. */
  maxTempSize?: string;
}

/** The option names of EngineOptions (for APIs that take them beside their own). */
export const ENGINE_OPTIONS = ['memoryLimit', 'tempDir', 'threads', 'keepTemp', 'maxTempSize'] as const;

const MEMORY = /^\s*\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)\s*$/i;

/** Takes a memory size such as '256MB' or '1.5GiB'; returns its bytes, or throws E_OPTION. */
export function parseMemory(name: string, value: unknown): number {
  if (typeof value !== 'string' || !MEMORY.test(value)) throw optionError(name, "a size like '256MB' or '1GB'", value);
  const m = /^\s*([\d.]+)\s*([A-Za-z]+)\s*$/.exec(value)!;
  const unit = m[2].toUpperCase();
  const pow = { B: 0, KB: 1, MB: 2, GB: 3, TB: 4, KIB: 1, MIB: 2, GIB: 3, TIB: 4 }[unit]!;
  return Number(m[1]) * (unit.endsWith('IB') ? 1024 : 1000) ** pow;
}

type DuckDBModule = typeof import('@duckdb/node-api');
let loaded: Promise<DuckDBModule> | undefined;
/** The optional peer dependency that holds the engine; installed only by those who ask for it. */
const DUCKDB_PACKAGE = '@duckdb/node-api';

/**
 * Returns the `@duckdb/node-api` module, imported on first use; throws E_ENGINE naming the package
 * when it is not installed (or is installed but does not load, e.g. no native build for this platform).
 */
export async function loadDuckDB(): Promise<DuckDBModule> {
  loaded ??= import('@duckdb/node-api').catch((cause: unknown) => {
    loaded = undefined;
    const { code, message } = (cause ?? {}) as { code?: string; message?: string };
    const missing = (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String(message).includes(`'${DUCKDB_PACKAGE}'`);
    throw new ResembleError('E_ENGINE', missing
      ? `the duckdb engine needs the optional package ${DUCKDB_PACKAGE}, which is not installed: npm install ${DUCKDB_PACKAGE}`
      : `the duckdb engine could not load ${DUCKDB_PACKAGE} (${String(message ?? cause).split('\n')[0]}): reinstall it with npm install ${DUCKDB_PACKAGE}`, { cause: String(cause) });
  });
  return loaded;
}

const SQL_TYPE: Record<ColumnType, string> = { INT64: 'BIGINT', INT32: 'INTEGER', DOUBLE: 'DOUBLE', STRING: 'VARCHAR', TIMESTAMP: 'TIMESTAMP' };

/** Columns read back from a query: BIGINT as BigInt64Array, INTEGER as Int32Array, DOUBLE as Float64Array. */
export type ResultColumns = Record<string, BigInt64Array | Int32Array | Float64Array>;

/** Columns to load: BigInt64Array → BIGINT, Int32Array → INTEGER, Float64Array → DOUBLE. */
export type NumericColumns = Record<string, BigInt64Array | Int32Array | Float64Array>;

/** SQL types of loaded columns. */
export type ColumnKind = 'BIGINT' | 'INTEGER' | 'DOUBLE';

/** Adds rows to one table (see `DuckDBEngine.appender`). */
export interface TableAppender {
  /** Appends typed-array columns, all of the same length (synchronously). */
  append(columns: NumericColumns): void;
  /** Flushes and closes; the rows are in the table. */
  close(): void;
}

/** What a running statement has done, from DuckDB's query progress. */
export interface StatementProgress {
  /** Percent done as DuckDB estimates it (-1 when unknown). */
  percentage: number;
  rowsProcessed: number;
  totalRows: number;
}

interface Vector { items?: ArrayLike<unknown> & { set?: (a: ArrayLike<unknown>, at?: number) => void }; validity?: { itemValid(i: number): boolean }; flush(): void }

/** An open DuckDB database in a temporary folder, with typed-array loading and reading. */
export class DuckDBEngine {
  private closed = false;

  private constructor(
    private readonly duck: DuckDBModule,
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
    /** The folder holding the database file and spill files. */
    readonly folder: string,
    private readonly removeOnClose: boolean,
    /** The memory limit in bytes. */
    readonly memoryLimit: number,
  ) {}

  /** Takes engine options; returns an open engine (throws E_ENGINE when DuckDB is missing, E_OPTION for bad options). */
  static async open(options: EngineOptions = {}): Promise<DuckDBEngine> {
    rejectUnknown(options, ENGINE_OPTIONS, 'DuckDB engine');
    const memoryText = options.memoryLimit ?? '1GB';
    const memoryLimit = parseMemory('memoryLimit', memoryText);
    const threads = options.threads === undefined ? undefined : intOption('threads', options.threads, 1, 1, 1024);
    if (options.tempDir !== undefined && (typeof options.tempDir !== 'string' || options.tempDir === '')) throw optionError('tempDir', 'a folder path', options.tempDir);
    if (options.keepTemp !== undefined && typeof options.keepTemp !== 'boolean') throw optionError('keepTemp', 'boolean', options.keepTemp);
    if (options.maxTempSize !== undefined) parseMemory('maxTempSize', options.maxTempSize);
    const duck = await loadDuckDB();
    let folder: string;
    if (options.tempDir) { mkdirSync(options.tempDir, { recursive: true }); folder = mkdtempSync(join(options.tempDir, 'resemble-')); }
    else folder = mkdtempSync(join(tmpdir(), 'resemble-'));
    const config: Record<string, string> = {
      memory_limit: memoryText.replace(/\s+/g, ''),
      temp_directory: join(folder, 'spill'),
      // Results are always read back with ORDER BY; not keeping input order lets large
      // CREATE TABLE AS statements stream instead of buffering.
      preserve_insertion_order: 'false',
    };
    if (threads !== undefined) config.threads = String(threads);
    if (options.maxTempSize !== undefined) config.max_temp_directory_size = options.maxTempSize.replace(/\s+/g, '');
    try {
      const instance = await duck.DuckDBInstance.create(join(folder, 'resemble.duckdb'), config);
      const connection = await instance.connect();
      return new DuckDBEngine(duck, instance, connection, folder, !options.keepTemp, memoryLimit);
    } catch (e) {
      rmSync(folder, { recursive: true, force: true });
      throw new ResembleError('E_ENGINE', `cannot open DuckDB: ${(e as Error).message}`);
    }
  }

  private check(): void {
    if (this.closed) throw new ResembleError('E_ENGINE', 'the DuckDB engine is closed');
  }

  /** Runs one statement; `onProgress` is called about twice a second while it runs. */
  async run(sql: string, onProgress?: (p: StatementProgress) => void): Promise<void> {
    this.check();
    const timer = onProgress ? setInterval(() => {
      const p = this.connection.progress;
      onProgress({ percentage: p.percentage, rowsProcessed: Number(p.rows_processed), totalRows: Number(p.total_rows_to_process) });
    }, 500) : undefined;
    try {
      await this.connection.run(sql);
    } catch (e) {
      throw new ResembleError('E_ENGINE', `DuckDB: ${(e as Error).message}`, { sql: sql.slice(0, 400) });
    } finally {
      if (timer) clearInterval(timer);
    }
  }

  /** Runs a query; returns its columns as typed arrays (BIGINT, INTEGER, DOUBLE; others as DOUBLE, nulls as NaN there; a null BIGINT or INTEGER is an E_ENGINE error). */
  async read(sql: string): Promise<ResultColumns> {
    this.check();
    let result;
    try {
      result = await this.connection.run(sql);
    } catch (e) {
      throw new ResembleError('E_ENGINE', `DuckDB: ${(e as Error).message}`, { sql: sql.slice(0, 400) });
    }
    return this.columnsOf(sql, result.columnNames(), result.columnTypes().map((t) => t.typeId), await result.fetchAllChunks());
  }

  /**
   * Runs a query and hands its result over chunk by chunk (columns as `read` gives them), so a
   * result larger than memory can be read: DuckDB produces the next chunk as the last is consumed.
   */
  async stream(sql: string, onChunk: (columns: ResultColumns) => void | Promise<void>): Promise<number> {
    this.check();
    let result;
    try {
      result = await this.connection.stream(sql);
    } catch (e) {
      throw new ResembleError('E_ENGINE', `DuckDB: ${(e as Error).message}`, { sql: sql.slice(0, 400) });
    }
    const names = result.columnNames(), types = result.columnTypes().map((t) => t.typeId);
    let rows = 0;
    for (;;) {
      let chunk;
      try {
        chunk = await result.fetchChunk();
      } catch (e) {
        throw new ResembleError('E_ENGINE', `DuckDB: ${(e as Error).message}`, { sql: sql.slice(0, 400) });
      }
      if (!chunk || chunk.rowCount === 0) break;
      rows += chunk.rowCount;
      await onChunk(this.columnsOf(sql, names, types, [chunk]));
    }
    return rows;
  }

  private columnsOf(sql: string, names: string[], types: number[], chunks: { rowCount: number; getColumnVector(i: number): unknown; getColumnValues(i: number): unknown[] }[]): ResultColumns {
    const T = this.duck.DuckDBTypeId;
    let n = 0;
    for (const c of chunks) n += c.rowCount;
    const out: ResultColumns = {};
    names.forEach((name, i) => {
      const id = types[i];
      const col = id === T.BIGINT ? new BigInt64Array(n) : id === T.INTEGER ? new Int32Array(n) : new Float64Array(n);
      let at = 0;
      for (const c of chunks) {
        const v = c.getColumnVector(i) as unknown as Vector;
        const m = c.rowCount;
        if ((id === T.BIGINT || id === T.INTEGER || id === T.DOUBLE) && v.items) {
          (col as Float64Array).set(v.items as Float64Array, at);
          const valid = v.validity;
          if (valid) for (let r = 0; r < m; r++) {
            if (valid.itemValid(r)) continue;
            if (col instanceof Float64Array) col[at + r] = NaN;
            else throw new ResembleError('E_ENGINE', `column ${name} has nulls; read it with COALESCE`, { sql: sql.slice(0, 400) });
          }
        }
        else {
          const values = c.getColumnValues(i);
          for (let r = 0; r < m; r++) {
            const x = values[r];
            if (col instanceof BigInt64Array) col[at + r] = BigInt(x as bigint);
            else col[at + r] = x === null ? NaN : Number(typeof x === 'object' ? String(x) : x);
          }
        }
        at += m;
      }
      out[name] = col;
    });
    return out;
  }

  /** Runs a query returning one row of numbers; returns them by column name. */
  async row(sql: string): Promise<Record<string, number>> {
    const cols = await this.read(sql);
    const out: Record<string, number> = {};
    for (const [k, v] of Object.entries(cols)) out[k] = v.length ? Number(v[0]) : NaN;
    return out;
  }

  /** Creates table `name` with the contract columns of `table` (replacing it, or adding to it with `append`) and appends the rows, all numeric columns. */
  async load(name: string, table: TableName, rows: TableRows, append = false): Promise<number> {
    this.check();
    checkRows(table, rows);
    const columns: NumericColumns = {};
    for (const c of CONTRACT[table]) {
      const data = rows[c.name];
      if (!ArrayBuffer.isView(data)) throw new ResembleError('E_INPUT', `${table}.${c.name}: the engine loads typed-array columns only; write the table as Parquet and read it instead`);
      columns[c.name] = data;
    }
    return this.loadColumns(name, columns, append);
  }

  /** Creates table `name` (replacing it, or adding to it with `append`) from typed-array columns (BIGINT, INTEGER, DOUBLE by array type); returns the rows added. */
  async loadColumns(name: string, columns: NumericColumns, append = false): Promise<number> {
    const names = Object.keys(columns);
    const n = names.length ? columns[names[0]].length : 0;
    for (const c of names) if (columns[c].length !== n) throw new ResembleError('E_INPUT', `${name}.${c}: ${columns[c].length} rows, expected ${n}`);
    const kinds: Record<string, ColumnKind> = {};
    for (const c of names) kinds[c] = columns[c] instanceof BigInt64Array ? 'BIGINT' : columns[c] instanceof Int32Array ? 'INTEGER' : 'DOUBLE';
    const appender = await this.appender(name, kinds, append);
    try {
      appender.append(columns);
    } finally {
      appender.close();
    }
    return n;
  }

  /**
   * Creates table `name` with these columns (replacing it, or keeping it with `append`); returns an
   * appender that adds typed-array columns to it synchronously (BIGINT from BigInt64Array, INTEGER
   * from Int32Array, DOUBLE from Float64Array), one DuckDB vector at a time. Close it to commit.
   */
  async appender(name: string, kinds: Record<string, ColumnKind>, append = false): Promise<TableAppender> {
    this.check();
    const names = Object.keys(kinds);
    const D = this.duck;
    await this.run(`CREATE ${append ? 'TABLE IF NOT EXISTS' : 'OR REPLACE TABLE'} ${name} (${names.map((c) => `${c} ${kinds[c]} NOT NULL`).join(', ')})`);
    const types = names.map((c) => (kinds[c] === 'BIGINT' ? D.BIGINT : kinds[c] === 'INTEGER' ? D.INTEGER : D.DOUBLE));
    const appender = await this.connection.createAppender(name);
    // One standard DuckDB vector (2048 rows) per chunk; the typed arrays are copied in place.
    const V = 2048;
    const chunk = D.DuckDBDataChunk.create(types, V);
    let open = true;
    return {
      append: (columns) => {
        if (!open) throw new ResembleError('E_ENGINE', `the appender of ${name} is closed`);
        const n = columns[names[0]].length;
        for (const c of names) {
          const col = columns[c];
          const expected = kinds[c] === 'BIGINT' ? BigInt64Array : kinds[c] === 'INTEGER' ? Int32Array : Float64Array;
          if (!(col instanceof expected) || col.length !== n) throw new ResembleError('E_INPUT', `${name}.${c}: expected ${n} values in a ${expected.name}`);
        }
        try {
          for (let at = 0; at < n; at += V) {
            const m = Math.min(V, n - at);
            chunk.rowCount = m;
            names.forEach((c, i) => {
              const v = chunk.getColumnVector(i) as unknown as Vector;
              (v.items as unknown as BigInt64Array).set((columns[c] as BigInt64Array).subarray(at, at + m));
              v.flush();
            });
            appender.appendDataChunk(chunk);
          }
        } catch (e) {
          throw new ResembleError('E_ENGINE', `DuckDB: cannot load ${name}: ${(e as Error).message}`);
        }
      },
      close: () => {
        if (!open) return;
        open = false;
        try {
          appender.flushSync();
        } catch (e) {
          throw new ResembleError('E_ENGINE', `DuckDB: cannot load ${name}: ${(e as Error).message}`);
        } finally {
          appender.closeSync();
        }
      },
    };
  }

  /** Takes a table name or a Parquet path/glob; returns it as a DuckDB relation. */
  relation(value: string): string {
    return dialectWriter('duckdb').relation(value);
  }

  /** Drops tables if they exist. */
  async drop(...names: string[]): Promise<void> {
    for (const name of names) await this.run(`DROP TABLE IF EXISTS ${name}`);
  }

  /** Closes the database and removes its folder (unless keepTemp). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try { this.connection.closeSync(); } finally {
      this.instance.closeSync();
      if (this.removeOnClose) rmSync(this.folder, { recursive: true, force: true });
    }
  }
}
