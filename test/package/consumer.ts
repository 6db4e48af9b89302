// A consumer project's TypeScript, for the declaration tests: files that import the built package
// by name and whose own declarations must name the package's types, compiled with `tsc --strict
// --module nodenext --declaration`. A type the package reaches but its entry does not export
// fails that compile with TS2742 ("cannot be named without a reference to …/dist/chunks/…").
//
// The probe files are generated from the package's .d.ts: for every export of every typed entry,
// one exported const per function (its call, each of its parameters), per public class member
// (instance and static), per constructor, per interface or type property and per constant, each
// with an inferred type, so declaration emit must name every type one step from an export.
// Since every reachable type is then itself an export, that covers the whole reachable graph.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** A hand-written consumer, ESM: the README's sketch and clustering calls, the index, errors, a step from advanced. */
const USAGE_ESM = `import { init, sketch, sketchMany, resemblance, containment, findNearDuplicates, ResembleIndex, ResembleError, ERROR_CODES, type ErrorCode } from 'web-resemble';
import { nearDuplicates, serializeSketchSet } from 'web-resemble/advanced';

await init();
export const set = sketchMany(['<p>one two three four five six seven eight nine ten</p>', '<p>one two three four five six seven eight nine eleven</p>']);
export const a = sketch('<p>one two three four five six seven eight nine ten</p>');
export const similar = resemblance(a, set.get(1)) + containment(a, set.get(1));
export const clusters = nearDuplicates(set, { threshold: 0.5 });
export const index = new ResembleIndex(set.params);
export const added = index.insertMany(set, { keys: ['a', 'b'] });
export function hits() { return index.query(a, { threshold: 0.1 }); }
export function saved() { return ResembleIndex.load(index.save()); }
export const bytes = serializeSketchSet(set);
export function code(e: unknown): ErrorCode | undefined { return e instanceof ResembleError ? e.code : undefined; }
export const meaning = (c: ErrorCode) => ERROR_CODES[c];
export async function found() { return (await findNearDuplicates(['<p>a b c d e f g h</p>', '<p>a b c d e f g h</p>'], { workers: 1 })).records; }
`;

/** The same through require(), from a CommonJS file. */
const USAGE_CJS = `import resemble = require('web-resemble');
import advanced = require('web-resemble/advanced');

export async function run() {
  await resemble.init();
  const set = resemble.sketchMany(['<p>one two three</p>', '<p>one two four</p>']);
  return { set, clusters: advanced.nearDuplicates(set), index: new resemble.ResembleIndex(set.params).insertMany(set) };
}
`;

const ident = (s: string) => s.replace(/[^A-Za-z0-9_$]/g, '_');
const access = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`);
const hidden = (s: ts.Symbol) =>
  s.name.startsWith('#') || s.name.startsWith('__') ||
  (s.declarations ?? []).some((d) => ts.getCombinedModifierFlags(d as ts.Declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected));

/** True when an export reaches its declaration only through `export type` (a type, not a runtime value). */
function typeOnly(checker: ts.TypeChecker, s: ts.Symbol): boolean {
  for (let hop: ts.Symbol | undefined = s; hop && hop.flags & ts.SymbolFlags.Alias; hop = checker.getImmediateAliasedSymbol(hop)) {
    for (const d of hop.declarations ?? []) {
      if (ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly)) return true;
      if (ts.isImportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly)) return true;
    }
  }
  return false;
}

/** Takes the package folder; returns probe files (name → source), one per typed entry of its "exports". */
export function probeFiles(pkgDir: string): Record<string, string> {
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { name: string; exports: Record<string, string | { types?: string }> };
  const entries = Object.entries(pkg.exports).flatMap(([sub, t]) => (typeof t === 'object' && t.types ? [{ spec: pkg.name + sub.slice(1), file: join(pkgDir, t.types) }] : []));
  const program = ts.createProgram(entries.map((e) => e.file), { noEmit: true, strict: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: ['node'] });
  const checker = program.getTypeChecker();
  const files: Record<string, string> = {};
  for (const { spec, file } of entries) {
    const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)!)!);
    const lines: string[] = [];
    const used = new Set<string>();
    const emit = (name: string, expr: string) => {
      let id = ident(name);
      for (let i = 2; used.has(id); i++) id = `${ident(name)}_${i}`;
      used.add(id);
      lines.push(`export const ${id} = ${expr};`);
    };
    for (const e of exports) {
      const t = e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e;
      const N = e.name;
      const value = !typeOnly(checker, e);
      // A generic type is instantiated with `any`: its own parameters need no name.
      const declared = t.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias) ? checker.getDeclaredTypeOfSymbol(t) : undefined;
      const params = t.flags & ts.SymbolFlags.TypeAlias ? (t.declarations?.find(ts.isTypeAliasDeclaration)?.typeParameters?.length ?? 0) : ((declared as ts.InterfaceType | undefined)?.typeParameters?.length ?? 0);
      const T = params ? `${N}<${Array(params).fill('any').join(', ')}>` : N;
      if (t.flags & ts.SymbolFlags.Function && value) {
        const sigs = checker.getSignaturesOfType(checker.getTypeOfSymbol(t), ts.SignatureKind.Call);
        emit(`${N}_call`, `(...a: Parameters<typeof ${N}>) => ${N}(...a)`);
        const n = Math.max(0, ...sigs.map((s) => s.parameters.length));
        for (let i = 0; i < n; i++) emit(`${N}_arg${i}`, `(...a: Parameters<typeof ${N}>) => a[${i}]`);
      } else if (t.flags & ts.SymbolFlags.Class && value) {
        const decl = t.declarations?.find(ts.isClassDeclaration);
        const abstract = decl && ts.getCombinedModifierFlags(decl) & ts.ModifierFlags.Abstract;
        const ctor = decl?.members.find(ts.isConstructorDeclaration);
        const closed = ctor && ts.getCombinedModifierFlags(ctor) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected);
        if (!abstract && !closed) emit(`${N}_new`, `(...a: ConstructorParameters<typeof ${N}>) => new ${N}(...a)`);
        for (const m of checker.getPropertiesOfType(checker.getTypeOfSymbol(t))) {
          if (m.name !== 'prototype' && !hidden(m)) emit(`${N}_static_${m.name}`, `${N}${access(m.name)}`);
        }
      } else if (t.flags & (ts.SymbolFlags.Variable | ts.SymbolFlags.Enum) && value) {
        emit(`${N}_value`, N);
      }
      if (declared) {
        for (const m of checker.getPropertiesOfType(declared)) if (!hidden(m)) emit(`${N}_${m.name}`, `(v: ${T}) => v${access(m.name)}`);
        if (checker.getSignaturesOfType(declared, ts.SignatureKind.Call).length) emit(`${N}_call`, `(f: ${T}) => (...a: Parameters<${T}>) => f(...a)`);
      }
    }
    const names = exports.map((e) => e.name);
    files[`probe-${ident(spec)}.ts`] = `import { ${names.join(', ')} } from '${spec}';\n${lines.join('\n')}\n`;
  }
  return files;
}

/**
 * Writes the usage files and the probes into `dir` (a project with the package in node_modules)
 * and runs tsc there; returns tsc's diagnostics ('' when the declarations were emitted cleanly).
 */
export function emitConsumerDeclarations(dir: string, pkgDir: string, tsc: string): string {
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'src', 'usage.ts'), USAGE_ESM);
  writeFileSync(join(dir, 'src', 'usage-cjs.cts'), USAGE_CJS);
  const probes = probeFiles(pkgDir);
  for (const [name, code] of Object.entries(probes)) writeFileSync(join(dir, 'src', name), code);
  const files = ['usage.ts', 'usage-cjs.cts', ...Object.keys(probes)].map((f) => join('src', f));
  const args = [tsc, '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--lib', 'es2022,dom',
    '--types', 'node', '--declaration', '--emitDeclarationOnly', '--outDir', 'out', '--pretty', 'false', ...files];
  const r = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8' });
  if (r.error) throw r.error;
  return r.status === 0 ? '' : `${r.stdout}${r.stderr}`.trim() || `tsc exited with ${r.status}`;
}
