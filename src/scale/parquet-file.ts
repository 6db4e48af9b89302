// Parquet files on the local disk (Node): the same sink as parquet.ts over hyparquet-writer's
// buffered file writer, which flushes every megabyte so a shard never holds its whole file.
import { fileWriter } from 'hyparquet-writer';
import type { Writer } from 'hyparquet-writer/src/types.js';
import { ParquetSink, type ParquetOptions } from './parquet.js';
import type { TableName, TableRows } from './contract.js';

/** Takes a path, a table and options; returns a sink writing that file (call `finish()` at the end). */
export function openParquetFile(path: string, table: TableName, options?: ParquetOptions): ParquetSink {
  return new ParquetSink(table, fileWriter(path) as unknown as Writer, options);
}

/** Takes a path, a table and its rows; writes a complete Parquet file and returns the row count. */
export function writeParquetFile(path: string, table: TableName, rows: TableRows, options?: ParquetOptions): number {
  const sink = openParquetFile(path, table, options).write(rows);
  sink.finish();
  return sink.rows;
}
