// Every command line in the code blocks of the README and of the manual (docs/*.md) names a command, flags and scripts that exist:
// `resemble …` / `npx web-resemble …` lines are checked against the command's own --help, `npm run`
// lines against package.json's scripts, `node … FILE` lines against the file and the flags it parses.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
/** The README and every page of the manual, file → text. */
const pages = new Map([['README.md', readme], ...readdirSync(join(root, 'docs')).filter((n) => n.endsWith('.md')).sort().map((n) => [`docs/${n}`, readFileSync(join(root, 'docs', n), 'utf8')] as [string, string])]);
const scripts = Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);

/** The shell lines of the README's fenced code blocks (ts/js/json blocks left out), comments and prompts stripped. */
function shellLines(text: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const raw of text.split('\n')) {
    const open = /^```(\w*)/.exec(raw);
    if (open) { fence = fence === undefined ? open[1] : undefined; continue; }
    if (fence === undefined || !['', 'sh', 'bash', 'shell', 'console'].includes(fence)) continue;
    const line = raw.replace(/^\$ /, '').replace(/\s+#.*$/, '').trim();
    if (/^(npx|npm|node|resemble)\b/.test(line)) lines.push(line);
  }
  return lines;
}

/** Takes argv after `resemble`; returns the help text of its command (or the general help). */
async function helpOf(command: string | undefined): Promise<string> {
  let out = '';
  const sink = { write: (s: string) => { out += s; return true; } };
  const code = await main(command === undefined ? ['--help'] : [command, '--help'], { stdout: sink, stderr: sink });
  assert.is(code, 0, `resemble ${command ?? ''} --help: ${out}`);
  return out;
}

/** The flags (--name, -x) of a tokenized command line, values after `=` dropped. */
const flagsOf = (tokens: string[]) => tokens.filter((t) => /^--?[a-zA-Z]/.test(t)).map((t) => t.split('=')[0]);

const lines = [...pages.values()].flatMap(shellLines);

test('the README and the manual have command lines to check', () => {
  assert.ok(shellLines(readme).filter((l) => /resemble/.test(l)).length >= 10, shellLines(readme).join('\n'));
  assert.ok(lines.length > shellLines(readme).length, 'the manual\'s command lines are read too');
});

test('every resemble command line names a command and flags its --help lists', async () => {
  const general = await helpOf(undefined);
  for (const line of lines) {
    const m = /^(?:npx (?:--\S+ )*(?:web-resemble|resemble)|resemble|node bin\/resemble\.js)(?:\s+(.*))?$/.exec(line);
    if (!m) continue;
    const tokens = (m[1] ?? '').split(/\s+/).filter(Boolean);
    const command = tokens.find((t) => !t.startsWith('-'));
    const help = command === undefined || tokens[0].startsWith('-') ? general : await helpOf(command);
    if (command !== undefined && !tokens[0].startsWith('-')) assert.ok(new RegExp(`^  ${command}\\b`, 'm').test(general), `${line}: unknown command ${command}`);
    for (const flag of flagsOf(tokens)) {
      assert.ok(new RegExp(`(^|[\\s,\\[])${flag.replace(/-/g, '\\-')}\\b`, 'm').test(help), `${line}: ${flag} is not in resemble ${command ?? ''} --help`);
    }
    if (command === 'index') assert.ok(['build', 'add', 'remove', 'clusters'].includes(tokens[1]), `${line}: index subcommand`);
  }
});

test('every npm line runs a script package.json has', () => {
  for (const line of lines) {
    for (const part of line.split('&&').map((p) => p.trim())) {
      const run = /^npm run (\S+)/.exec(part) ?? /^npm (start|test)\b/.exec(part);
      if (run) assert.ok(scripts.includes(run[1]), `${line}: no script ${run[1]}`);
    }
  }
});

test('every node line runs a file of the repository with flags that file reads', () => {
  for (const line of lines) {
    if (!line.startsWith('node ') || line.startsWith('node bin/resemble.js')) continue;
    const tokens = line.split(/\s+/);
    const at = tokens.findIndex((t) => /\.(m?[jt]s)$/.test(t));
    assert.ok(at > 0, `${line}: names a script`);
    const file = join(root, tokens[at]);
    assert.ok(existsSync(file), `${line}: ${tokens[at]} does not exist`);
    const source = readFileSync(file, 'utf8');
    for (const flag of flagsOf(tokens.slice(at + 1))) {
      const name = flag.replace(/^--?/, '');
      assert.ok(source.includes(`'${name}'`) || source.includes(`"${name}"`) || source.includes(`${name}:`) || source.includes(`'${flag}'`) || source.includes(`--${name}`), `${line}: ${tokens[at]} does not read ${flag}`);
    }
  }
});

test.run();
