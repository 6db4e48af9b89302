// Runs the shipped templates on the DuckDB engine, statement by statement, timing each stage.
import type { DuckDBEngine, StatementProgress } from './duckdb.js';
import { dialectWriter } from './dialects.js';
import { loadTemplate } from './template-files.js';
import { renderTemplate, type ParamValue, type TemplateName } from './templates.js';

/** Takes the engine, a template and its parameters; renders it for DuckDB and runs every statement. */
export async function runTemplate(
  engine: DuckDBEngine, name: TemplateName, params: Record<string, ParamValue>,
  onProgress?: (p: StatementProgress) => void,
): Promise<void> {
  for (const sql of renderTemplate(loadTemplate(name), params, dialectWriter('duckdb'))) await engine.run(sql, onProgress);
}

/** Takes the engine, a query template (one SELECT) and its parameters; returns the first row's numbers. */
export async function queryTemplate(engine: DuckDBEngine, name: TemplateName, params: Record<string, ParamValue>): Promise<Record<string, number>> {
  const [sql] = renderTemplate(loadTemplate(name), params, dialectWriter('duckdb'));
  return engine.row(sql);
}
