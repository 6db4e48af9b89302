// Parquet files of the contract written with hyparquet-writer, a maintained pure-JavaScript
// writer that runs in Node, browsers and workers alike. Key columns are random 64-bit hashes, so
// they are written PLAIN and uncompressed (compression would cost time and save nothing); DocId
// columns ascend and are written DELTA_BINARY_PACKED, which shrinks them to a few bits per row.
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import type { Writer } from 'hyparquet-writer/src/types.js';
import { ResembleError, intOption } from '../errors.js';
import { CONTRACT, CONTRACT_VERSION, checkRows, type ColumnType, type ContractColumn, type TableName, type TableRows } from './contract.js';

/** Options of the Parquet writers. */
export interface ParquetOptions {
  /** Rows per row group (default 1,048,576: about 16 MB of (key, doc) rows, a unit engines split work by). */
  rowGroupSize?: number;
  /** Extra key-value metadata (e.g. the sketch parameters), written beside the table name and contract version. */
  metadata?: Record<string, string>;
}

type SchemaElement = { name: string; type?: 'INT64' | 'INT32' | 'DOUBLE' | 'BYTE_ARRAY'; converted_type?: 'UTF8' | 'TIMESTAMP_MILLIS'; repetition_type?: 'REQUIRED' | 'OPTIONAL'; num_children?: number };

const PHYSICAL: Record<ColumnType, Pick<SchemaElement, 'type' | 'converted_type'>> = {
  INT64: { type: 'INT64' },
  INT32: { type: 'INT32' },
  DOUBLE: { type: 'DOUBLE' },
  STRING: { type: 'BYTE_ARRAY', converted_type: 'UTF8' },
  TIMESTAMP: { type: 'INT64', converted_type: 'TIMESTAMP_MILLIS' },
};

/** Takes a table name; returns its Parquet schema (flat, no nested lists). */
export function parquetSchema(table: TableName): SchemaElement[] {
  const cols = CONTRACT[table];
  return [
    { name: 'root', num_children: cols.length },
    ...cols.map((c) => ({ name: c.name, ...PHYSICAL[c.type], repetition_type: c.nullable ? 'OPTIONAL' as const : 'REQUIRED' as const })),
  ];
}

function encodingOf(table: TableName, c: ContractColumn): { encoding?: 'PLAIN' | 'DELTA_BINARY_PACKED'; codec?: 'UNCOMPRESSED' | 'SNAPPY'; statistics?: boolean } {
  // Min/max of random hashes prune nothing.
  if (table === 'keys' && c.name === 'key') return { encoding: 'PLAIN', codec: 'UNCOMPRESSED', statistics: false };
  if (c.type === 'INT64' || c.type === 'INT32') return { encoding: 'DELTA_BINARY_PACKED', codec: 'UNCOMPRESSED' };
  if (c.type === 'DOUBLE') return { encoding: 'PLAIN', codec: 'SNAPPY' };
  return { codec: 'SNAPPY' };
}

/**
 * Streams one table into a Parquet file: each `write(rows)` adds row groups, `finish()` writes the
 * footer. A map-side shard writes its batches as they are sketched, so memory stays at one batch.
 */
export class ParquetSink {
  private readonly writer: ParquetWriter;
  private readonly rowGroupSize: number;
  private finished = false;
  /** Rows written so far. */
  rows = 0;

  /** Takes the table, a hyparquet-writer Writer (a ByteWriter, or a file writer in Node) and options. */
  constructor(readonly table: TableName, private readonly out: Writer, options: ParquetOptions = {}) {
    if (!(table in CONTRACT)) throw new ResembleError('E_OPTION', `unknown table ${JSON.stringify(table)}; known: ${Object.keys(CONTRACT).join(', ')}`);
    this.rowGroupSize = intOption('rowGroupSize', options.rowGroupSize, 1 << 20, 1, 1 << 30);
    const kv = [
      { key: 'resemble.table', value: table },
      { key: 'resemble.contract', value: String(CONTRACT_VERSION) },
      ...Object.entries(options.metadata ?? {}).map(([key, value]) => ({ key, value })),
    ];
    this.writer = new ParquetWriter({ writer: out, schema: parquetSchema(table) as never, statistics: true, kvMetadata: kv, createdBy: 'resemble' });
  }

  /** Appends rows (columns keyed by name, see CONTRACT); returns the sink. */
  write(rows: TableRows): this {
    if (this.finished) throw new ResembleError('E_IO', `${this.table}: write after finish`);
    const n = checkRows(this.table, rows);
    if (n === 0) return this;
    const columnData = CONTRACT[this.table].map((c) => ({ name: c.name, data: rows[c.name] as never, ...encodingOf(this.table, c) }));
    const done = this.writer.write({ columnData, rowGroupSize: this.rowGroupSize });
    if (done) throw new ResembleError('E_IO', `${this.table}: asynchronous writers are not supported`);
    this.rows += n;
    return this;
  }

  /** Writes the footer; the file is complete after this. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    const done = this.writer.finish();
    if (done) throw new ResembleError('E_IO', `${this.table}: asynchronous writers are not supported`);
  }
}

/** Takes a table and its rows; returns a complete Parquet file as bytes (Node and browsers). */
export function parquetBytes(table: TableName, rows: TableRows, options?: ParquetOptions): Uint8Array {
  const out = new ByteWriter();
  new ParquetSink(table, out as unknown as Writer, options).write(rows).finish();
  return out.getBytes();
}
