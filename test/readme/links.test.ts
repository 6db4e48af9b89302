// Every relative link in the README and the manual (docs/*.md), and in the Markdown files they
// link, resolves: the file exists, and a `#fragment` names a heading of the Markdown file it
// points at (GitHub's slugs). The tarball (`npm pack --dry-run`, package.json's "files") ships
// every file those pages link, so the links also hold in node_modules/web-resemble/.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { root } from './examples.js';

/** Takes a heading's text; returns its anchor as GitHub makes it (lowercase, punctuation dropped, spaces to hyphens). */
export function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/<[^>]+>/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** Takes Markdown text; returns the anchors of its headings (repeats numbered as GitHub does: x, x-1, …). */
function anchors(text: string): Set<string> {
  const out = new Set<string>(), count = new Map<string, number>();
  let fence = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fence = !fence;
    const m = fence ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    const s = slug(m[1]), n = count.get(s) ?? 0;
    out.add(n ? `${s}-${n}` : s);
    count.set(s, n + 1);
  }
  return out;
}

/** Takes Markdown text; returns its link targets outside code, as written. */
function links(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
}

const start = ['README.md', ...readdirSync(join(root, 'docs')).filter((n) => n.endsWith('.md')).map((n) => `docs/${n}`)];
/** Every relative link of the start pages and of the Markdown files they reach: from → target path, fragment. */
const found: { from: string; link: string; path: string; fragment: string }[] = [];
const seen = new Set<string>(), queue = [...start];
while (queue.length) {
  const md = queue.shift()!;
  if (seen.has(md)) continue;
  seen.add(md);
  for (const link of links(readFileSync(join(root, md), 'utf8'))) {
    if (/^[a-z][a-z+.-]*:/i.test(link)) continue;    // http:, mailto:
    const [target, fragment = ''] = link.split('#');
    const path = target === '' ? md : normalize(join(dirname(md), target)).replace(/\\/g, '/');
    found.push({ from: md, link, path, fragment });
    if (path.endsWith('.md') && existsSync(join(root, path))) queue.push(path);
  }
}

test('the README and the manual link each other', () => {
  assert.ok(found.filter((l) => l.from === 'README.md').length >= 20, 'the README links the manual');
  for (const page of start.slice(1)) assert.ok(found.some((l) => l.path === page), `${page} is linked from the README or another page`);
});

test('every relative link names a file or folder that exists', () => {
  const broken = found.filter((l) => !existsSync(join(root, l.path))).map((l) => `${l.from}: ${l.link}`);
  assert.equal(broken, []);
});

test('every #fragment names a heading of the page it points at', () => {
  const broken = found.filter((l) => l.fragment && l.path.endsWith('.md') && existsSync(join(root, l.path))
    && !anchors(readFileSync(join(root, l.path), 'utf8')).has(l.fragment)).map((l) => `${l.from}: ${l.link}`);
  assert.equal(broken, []);
});

test('the README has no line longer than 100 characters, and at most 400 lines', () => {
  const lines = readFileSync(join(root, 'README.md'), 'utf8').split('\n');
  assert.ok(lines.length <= 400, `${lines.length} lines`);
  assert.equal(lines.map((l, i) => [i + 1, l.length]).filter(([, n]) => n > 100), []);
});

test('the tarball ships every file the README and the manual link', () => {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  const files = new Set((JSON.parse(r.stdout) as { files: { path: string }[] }[])[0].files.map((f) => f.path));
  for (const md of seen) assert.ok(files.has(md), `${md} is linked and shipped`);
  const missing = found.filter((l) => !files.has(l.path) && !(statSync(join(root, l.path), { throwIfNoEntry: false })?.isDirectory() && [...files].some((f) => f.startsWith(`${l.path}/`))));
  assert.equal(missing.map((l) => `${l.from}: ${l.link}`), []);
  assert.not.ok([...files].some((f) => f.startsWith('docs/api/')), 'the generated API reference is not shipped');
});

test.run();
