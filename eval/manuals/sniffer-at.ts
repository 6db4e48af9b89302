// The charset sniffer as committed at a revision, for the charset checks' before-and-after columns:
// `git show REV:src/io/charset-sniff.ts` (and its character lists, src/io/charset-lists.ts, where
// REV has that file), its other relative imports pointed at the working tree's src/io.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** A sniffer: bytes of an undeclared page → the charset to decode them with. */
export type Sniff = (bytes: Uint8Array) => string;

/** Files of src/io taken from the revision, not the working tree, when the revision has them. */
const AT_REV = ['charset-lists.ts'];

/** Takes a git revision; returns sniffCharset as it was committed there. */
export async function snifferAt(rev: string): Promise<Sniff> {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const show = (path: string) => {
    try {
      return execFileSync('git', ['show', `${rev}:${path}`], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      return undefined;
    }
  };
  const source = show('src/io/charset-sniff.ts');
  if (source === undefined) throw new Error(`no src/io/charset-sniff.ts at ${rev}`);
  const dir = mkdtempSync(join(tmpdir(), 'charset-sniff-'));
  const local = new Set<string>();
  for (const f of AT_REV) {
    const text = show(`src/io/${f}`);
    if (text !== undefined) { writeFileSync(join(dir, f), text); local.add(f.replace(/\.ts$/, '.js')); }
  }
  const file = join(dir, 'charset-sniff.ts');
  writeFileSync(file, source.replace(/from '\.\/([^']+)'/g, (m, p: string) => (local.has(p) ? m
    : `from '${pathToFileURL(join(root, 'src', 'io', p)).href}'`)));
  try {
    return (await import(pathToFileURL(file).href)).sniffCharset as Sniff;
  } finally {
    rmSync(dir, { recursive: true });
  }
}
