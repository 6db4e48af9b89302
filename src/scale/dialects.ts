// Thin dialect adapters: the templates are written once in the SQL that DuckDB, Spark SQL, Trino
// and BigQuery share (joins, GROUP BY, CASE, LEAST/GREATEST, ROW_NUMBER windows, UNION DISTINCT);
// an adapter only names the 64-bit types, says how a table is (re)created, and how an input
// relation is written. Engines with no unsigned 64-bit type are why keys are signed INT64.
import { ResembleError, enumOption } from '../errors.js';
import type { DialectWriter } from './templates.js';

/** SQL dialects `resemble plan` can render. */
export type Dialect = 'duckdb' | 'spark' | 'trino' | 'bigquery';
/** Every dialect, in the order `resemble plan --help` lists them. */
export const DIALECTS: readonly Dialect[] = ['duckdb', 'spark', 'trino', 'bigquery'];

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*){0,2}$/;

/** Takes a relation value; returns true when it is a table name rather than a file location. */
export function isTableName(value: string): boolean {
  return TABLE_NAME.test(value);
}

function quoted(value: string, quote: string): string {
  return quote + value.split(quote).join(quote + quote) + quote;
}

function replaceCreate(prefix: string) {
  return (_name: string, statement: string): string[] => [statement.replace(/^CREATE TABLE /, prefix)];
}

function dropThenCreate(name: string, statement: string): string[] {
  return [`DROP TABLE IF EXISTS ${name}`, statement];
}

function external(dialect: string) {
  return (value: string): string => {
    if (isTableName(value)) return value;
    throw new ResembleError('E_OPTION', `${dialect} reads Parquet through a catalog table: create an external table over ${value} and pass its name`, { option: 'relation', got: value });
  };
}

const WRITERS: Record<Dialect, DialectWriter> = {
  duckdb: {
    name: 'duckdb', int64: 'BIGINT', float64: 'DOUBLE',
    createTable: replaceCreate('CREATE OR REPLACE TABLE '),
    relation: (value) => (isTableName(value) ? value : `read_parquet(${quoted(value, "'")})`),
  },
  spark: {
    name: 'spark', int64: 'BIGINT', float64: 'DOUBLE',
    createTable: dropThenCreate,
    relation: (value) => (isTableName(value) ? value : `parquet.${quoted(value, '`')}`),
  },
  trino: {
    name: 'trino', int64: 'BIGINT', float64: 'DOUBLE',
    createTable: dropThenCreate,
    relation: external('trino'),
  },
  bigquery: {
    name: 'bigquery', int64: 'INT64', float64: 'FLOAT64',
    createTable: replaceCreate('CREATE OR REPLACE TABLE '),
    relation: external('bigquery'),
  },
};

/** Takes a dialect name; returns its adapter, or throws E_OPTION. */
export function dialectWriter(dialect: string): DialectWriter {
  return WRITERS[enumOption('dialect', dialect, 'duckdb', DIALECTS)];
}
