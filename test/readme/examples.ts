// The library examples of the README and of the manual (docs/*.md) as the tests see them: each
// ```ts block after a `<!-- readme-example: NAME -->` (or `<!-- example: NAME -->`) line is
// written to a temporary .mts file with 'web-resemble' (and 'web-resemble/advanced') pointing at the sources, then run from the
// repository root (the examples read `sample/`) or type-checked with the TypeScript compiler
// against the sources. An example shown in two places (the README's short one, again on its
// capability's page) must be the same code in both.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const readme = readFileSync(join(root, 'README.md'), 'utf8');
const entry = join(root, 'src/node.ts');
const advanced = join(root, 'src/advanced.ts');

/** The manual's pages (docs/*.md, the generated docs/api/ left out), as paths relative to the root, sorted. */
export const docPages: string[] = readdirSync(join(root, 'docs')).filter((n) => n.endsWith('.md')).sort().map((n) => `docs/${n}`);

/** Takes markdown text; returns its marked examples, name → code, in order (a name used twice throws). */
export function readmeExamples(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/<!-- (?:readme-)?example: ([\w-]+) -->\n```ts\n([\s\S]*?)```/g)) {
    if (out.has(m[1])) throw new Error(`example ${m[1]} is marked twice in one file`);
    out.set(m[1], m[2]);
  }
  return out;
}

/** Where each example is shown: name → the files (README.md, docs/…) that hold it. */
export const shownIn = new Map<string, string[]>();

/** Examples shown in two files with different code, one line each (a test asserts there are none). */
export const conflicts: string[] = [];

/** Every marked example of the README and of docs/*.md, name → code (the first file's, when two differ). */
export const examples = new Map<string, string>();
for (const file of ['README.md', ...docPages]) {
  for (const [name, code] of readmeExamples(readFileSync(join(root, file), 'utf8'))) {
    const seen = examples.get(name);
    if (seen !== undefined && seen !== code) conflicts.push(`example ${name} differs between ${shownIn.get(name)!.join(', ')} and ${file}`);
    if (seen === undefined) examples.set(name, code);
    shownIn.set(name, [...(shownIn.get(name) ?? []), file]);
  }
}

let dir: string | undefined;
/** The temporary folder the examples are written to (removed by `cleanUp`). */
function workDir(): string {
  dir ??= mkdtempSync(join(tmpdir(), 'resemble-readme-'));
  return dir;
}

/** Takes an example's name; returns the path of its code with the package import pointing at the sources. */
function exampleFile(name: string, importAs: string, advancedAs: string): string {
  const code = examples.get(name);
  if (code === undefined) throw new Error(`no example ${name} (<!-- readme-example: ${name} --> before a ts block, in README.md or docs/*.md)`);
  const file = join(workDir(), `${name}.mts`);
  writeFileSync(file, code.replace(/from 'web-resemble'/g, `from '${importAs}'`).replace(/from 'web-resemble\/advanced'/g, `from '${advancedAs}'`));
  return file;
}

/** What an example printed. */
export interface ExampleRun {
  stdout: string;
  /** stdout split into lines, the last empty one dropped. */
  lines: string[];
}

/** Takes an example's name; runs it with tsx from the repository root and returns what it printed (a non-zero exit throws with its stderr). */
export function runExample(name: string): ExampleRun {
  const file = exampleFile(name, pathToFileURL(entry).href, pathToFileURL(advanced).href);
  const r = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`example ${name} exited with ${r.status}:\n${r.stderr}`);
  const lines = r.stdout.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return { stdout: r.stdout, lines };
}

/** Type-checks the named examples (default: all) in one strict program against the sources; returns the diagnostics as text, one per error. */
export function typecheckExamples(names: readonly string[] = [...examples.keys()]): string[] {
  const files = names.map((n) => exampleFile(n, 'web-resemble', 'web-resemble/advanced'));
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: ['node'], typeRoots: [join(root, 'node_modules/@types')],
    strict: true, skipLibCheck: true, noEmit: true, paths: { 'web-resemble': [entry], 'web-resemble/advanced': [advanced] },
  };
  const program = ts.createProgram(files, options);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${d.file.fileName.slice(workDir().length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1} ` : '';
    return where + ts.flattenDiagnosticMessageText(d.messageText, '\n');
  });
}

/** Removes the temporary folder. */
export function cleanUp(): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
}
