// Parquet files read back in Node, one row group at a time (hyparquet, pure JavaScript): the
// results an engine wrote (Spark's part files) and the map side's shards. Memory stays at one row
// group of the columns asked for.
import { asyncBufferFromFile, parquetMetadataAsync, parquetRead } from 'hyparquet';
import { ResembleError } from '../errors.js';

/** How a column comes back: 'number' (a Float64Array, NaN for null; integers must stay below 2^53), 'bigint' (a BigInt64Array, exact) or 'string' (strings, null for null). */
export type ReadAs = 'number' | 'bigint' | 'string';

/** One row group's columns. */
export type ReadColumns = Record<string, Float64Array | BigInt64Array | (string | null)[]>;

/** A Parquet file's footer: rows, row groups and key-value metadata. */
export interface ParquetFooter {
  rows: number;
  rowGroups: number[];
  metadata: Record<string, string>;
  columns: string[];
}

type Metadata = Awaited<ReturnType<typeof parquetMetadataAsync>>;

async function open(path: string): Promise<{ file: Awaited<ReturnType<typeof asyncBufferFromFile>>; metadata: Metadata }> {
  try {
    const file = await asyncBufferFromFile(path);
    return { file, metadata: await parquetMetadataAsync(file) };
  } catch (e) {
    throw new ResembleError('E_IO', `cannot read the Parquet file ${path}: ${(e as Error).message}`, { path });
  }
}

function footerOf(metadata: Metadata): ParquetFooter {
  const kv: Record<string, string> = {};
  for (const { key, value } of metadata.key_value_metadata ?? []) kv[key] = value ?? '';
  return {
    rows: Number(metadata.num_rows), rowGroups: metadata.row_groups.map((g) => Number(g.num_rows)), metadata: kv,
    columns: metadata.schema.slice(1).map((s) => s.name),
  };
}

/** Takes a path; returns its footer (row counts, key-value metadata, column names). */
export async function readParquetFooter(path: string): Promise<ParquetFooter> {
  return footerOf((await open(path)).metadata);
}

/**
 * Takes a Parquet file and the columns to read (name → how); calls `onGroup` with each row group's
 * columns in file order, awaiting it before the next is read. Returns the rows read.
 */
export async function readParquetGroups(
  path: string, columns: Record<string, ReadAs>, onGroup: (columns: ReadColumns, rows: number) => void | Promise<void>,
): Promise<number> {
  const { file, metadata } = await open(path);
  const footer = footerOf(metadata);
  const names = Object.keys(columns);
  for (const name of names) {
    if (!footer.columns.includes(name)) throw new ResembleError('E_FORMAT', `${path}: no column ${name} (columns: ${footer.columns.join(', ')})`, { path, column: name });
  }
  let start = 0;
  for (const rows of footer.rowGroups) {
    const out: ReadColumns = {};
    for (const name of names) out[name] = columns[name] === 'bigint' ? new BigInt64Array(rows) : columns[name] === 'string' ? new Array<string | null>(rows).fill(null) : new Float64Array(rows);
    const end = start + rows;
    try {
      await parquetRead({
        file, metadata, columns: names, rowStart: start, rowEnd: end,
        onChunk: ({ columnName, columnData, rowStart }) => {
          const col = out[columnName];
          const at = rowStart - start;
          const n = Math.min(columnData.length, rows - at);
          if (col instanceof BigInt64Array) for (let i = 0; i < n; i++) col[at + i] = BigInt(columnData[i] as bigint | number);
          else if (col instanceof Float64Array) for (let i = 0; i < n; i++) { const x = columnData[i]; col[at + i] = x === null || x === undefined ? NaN : x instanceof Date ? x.getTime() : Number(x); }
          else for (let i = 0; i < n; i++) { const x = columnData[i]; col[at + i] = x === null || x === undefined ? null : String(x); }
        },
      });
    } catch (e) {
      throw new ResembleError('E_IO', `cannot read the Parquet file ${path}: ${(e as Error).message}`, { path });
    }
    await onGroup(out, rows);
    start = end;
  }
  return start;
}
