// The Parquet contract between the map side (this library, anywhere JavaScript runs) and the
// reduce side (SQL on an engine): flat rows only, no nested lists, and every 64-bit hash stored
// as a signed INT64 holding the same bits, because Spark, BigQuery and Trino have no unsigned
// 64-bit type. DocIds are INT64 so shards can number documents past 2^32 with `docBase`.
import { ResembleError } from '../errors.js';

/** Version of the table layouts below; written into every file's key-value metadata (2: the pages table). */
export const CONTRACT_VERSION = 2;

/** Column types of the contract (Parquet physical type plus annotation). */
export type ColumnType = 'INT64' | 'INT32' | 'DOUBLE' | 'STRING' | 'TIMESTAMP';

/** One column: name, type, whether it may be null, and what it holds. */
export interface ContractColumn {
  name: string;
  type: ColumnType;
  nullable: boolean;
  description: string;
}

/** The tables of the contract. */
export type TableName = 'keys' | 'sizes' | 'documents' | 'links' | 'members' | 'pages';

/** Every table's columns, in file order. */
export const CONTRACT: Record<TableName, readonly ContractColumn[]> = {
  keys: [
    { name: 'key', type: 'INT64', nullable: false, description: 'sketch value, super-shingle or band key: the unsigned 64-bit hash as signed INT64 (same bits)' },
    { name: 'doc', type: 'INT64', nullable: false, description: 'DocId' },
  ],
  sizes: [
    { name: 'doc', type: 'INT64', nullable: false, description: 'DocId' },
    { name: 'length', type: 'INT32', nullable: false, description: 'values in the sketch row' },
    { name: 'cardinality', type: 'DOUBLE', nullable: false, description: 'distinct shingles: exact for MOD_m, KMV estimate for MIN_s' },
  ],
  documents: [
    { name: 'doc', type: 'INT64', nullable: false, description: 'DocId' },
    { name: 'url', type: 'STRING', nullable: false, description: 'absolute URL' },
    { name: 'host', type: 'STRING', nullable: true, description: 'host (name or name:port)' },
    { name: 'date', type: 'TIMESTAMP', nullable: true, description: 'fetch date, milliseconds since 1970 UTC' },
    { name: 'ip', type: 'STRING', nullable: true, description: 'server IP address' },
  ],
  links: [
    { name: 'src', type: 'INT64', nullable: false, description: 'DocId of the linking page' },
    { name: 'dst', type: 'INT64', nullable: false, description: 'DocId of the linked page' },
  ],
  members: [
    { name: 'rid', type: 'INT64', nullable: false, description: 'trivial cluster id (Cho: TRIVIAL.rid)' },
    { name: 'pid', type: 'INT64', nullable: false, description: 'DocId of a page in it (Cho: TRIVIAL.pid)' },
  ],
  pages: [
    { name: 'doc', type: 'INT64', nullable: false, description: 'DocId' },
    { name: 'tokens', type: 'INT32', nullable: false, description: 'canonical tokens of the page (its content, in content mode)' },
    { name: 'template_tokens', type: 'INT32', nullable: false, description: 'content mode: tokens left out as template (0 otherwise)' },
    { name: 'modulus_log2', type: 'INT32', nullable: false, description: 'adaptive sketches: i of the modulus 2^i (0 otherwise)' },
    { name: 'raw_fp', type: 'INT64', nullable: false, description: 'fingerprint of the bytes (identical pages), as signed INT64' },
    { name: 'lexical_fp', type: 'INT64', nullable: false, description: 'fingerprint of the canonical text (lexically equivalent pages)' },
    { name: 'shingle_fp', type: 'INT64', nullable: false, description: 'fingerprint of the shingle set (shingle-equivalent pages)' },
    { name: 'error', type: 'STRING', nullable: true, description: 'why the page could not be sketched (its row is then empty)' },
  ],
};

/** Column data as the writers take it: typed arrays for numbers, arrays for strings and nullable values. */
export type ColumnData = BigInt64Array | Int32Array | Float64Array | (string | null)[] | (number | null)[];

/** Rows of one table as columns, keyed by column name. */
export type TableRows = Record<string, ColumnData>;

/** Takes unsigned 64-bit values; returns a signed view over the same bytes (no copy): the contract's INT64. */
export function asSigned(values: BigUint64Array): BigInt64Array {
  return new BigInt64Array(values.buffer, values.byteOffset, values.length);
}

/** Takes signed INT64 values read back from an engine; returns an unsigned view over the same bytes. */
export function asUnsigned(values: BigInt64Array): BigUint64Array {
  return new BigUint64Array(values.buffer, values.byteOffset, values.length);
}

/** Takes a table and its rows; returns the row count, or throws E_INPUT when columns are missing or of unequal length. */
export function checkRows(table: TableName, rows: TableRows): number {
  const cols = CONTRACT[table];
  let n = -1;
  for (const c of cols) {
    const data = rows[c.name];
    if (!data) throw new ResembleError('E_INPUT', `${table}: missing column ${c.name}`, { table, column: c.name });
    if (n < 0) n = data.length;
    else if (data.length !== n) throw new ResembleError('E_INPUT', `${table}: column ${c.name} has ${data.length} rows, expected ${n}`, { table, column: c.name });
  }
  for (const name of Object.keys(rows)) {
    if (!cols.some((c) => c.name === name)) throw new ResembleError('E_INPUT', `${table}: unknown column ${name}; known: ${cols.map((c) => c.name).join(', ')}`, { table, column: name });
  }
  return Math.max(0, n);
}
