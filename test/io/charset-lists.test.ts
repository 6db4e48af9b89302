// The sniffer's character lists (src/io/charset-lists.ts) are the commonest characters of the
// counts eval/manuals/charset-lists.ts took from its pinned packages' text (committed as
// eval/manuals/charset-counts.json; the script checks those counts against the packages).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import * as LISTS from '../../src/io/charset-lists.js';
import { commonest, COUNTS_FILE, MARGIN, moStrings, SPECS, type ListCounts } from '../../eval/manuals/charset-lists.js';

const counts = JSON.parse(readFileSync(COUNTS_FILE, 'utf8')) as Record<string, ListCounts>;

test('every list is its language\'s commonest characters of its script in the committed counts', () => {
  assert.equal(Object.keys(LISTS).sort(), SPECS.map((s) => s.name).sort(), 'a spec for every list');
  for (const spec of SPECS) {
    const c = counts[spec.name];
    assert.ok(c, `counts for ${spec.name}`);
    assert.ok(c.top.length > spec.size && c.top.length <= spec.size + MARGIN, `${spec.name}: the counts go past the cut`);
    // the cut is a real one: the last character in counts more than the first left out, or ties broken by code point
    const sorted = [...c.top].sort((a, b) => b[1] - a[1]);
    assert.ok(sorted[spec.size - 1][1] >= sorted[spec.size][1], `${spec.name}: sorted counts`);
    assert.is(LISTS[spec.name], commonest(c.top, spec.size), `${spec.name} is the ${spec.size} commonest`);
    const inScript = (ch: string) => spec.ranges.some(([a, b]) => ch.codePointAt(0)! >= a && ch.codePointAt(0)! <= b);
    assert.ok([...LISTS[spec.name]].every(inScript), `${spec.name}: every character is of its script`);
    assert.is(new Set(LISTS[spec.name]).size, spec.size, `${spec.name}: no character twice`);
    const held = c.top.slice(0, spec.size).reduce((n, [, k]) => n + k, 0);
    assert.ok(held <= c.letters, `${spec.name}: counts within the total`);
  }
});

test('commonest: by count, ties by code point; a list that is not the commonest fails', () => {
  assert.is(commonest([['b', 2], ['c', 5], ['a', 2], ['d', 1]], 3), 'cab');
  const spec = SPECS[0], c = counts[spec.name];
  const swapped = commonest(c.top, spec.size + 1).slice(1);
  assert.is.not(swapped, LISTS[spec.name]);
});

test('moStrings: a catalogue\'s translations, its header left out, plural forms each a string', () => {
  // a little-endian .mo of three messages: the header (msgid ""), "a" → "α", "one\0many" → "ένα\0πολλά"
  const msgs: Array<[string, string]> = [['', 'Content-Type: text/plain; charset=UTF-8\n'], ['a', 'α'], ['one\0many', 'ένα\0πολλά']];
  const enc = (s: string) => Buffer.from(s, 'utf8');
  const n = msgs.length, head = 28, tables = head + 16 * n;
  const strings: Buffer[] = [];
  let at = tables;
  const orig: number[] = [], trans: number[] = [];
  for (const [id] of msgs) { const b = enc(id); orig.push(b.length, at); strings.push(b, Buffer.from([0])); at += b.length + 1; }
  for (const [, s] of msgs) { const b = enc(s); trans.push(b.length, at); strings.push(b, Buffer.from([0])); at += b.length + 1; }
  const h = Buffer.alloc(tables);
  [0x950412de, 0, n, head, head + 8 * n, 0, 0].forEach((v, i) => h.writeUInt32LE(v, 4 * i));
  [...orig, ...trans].forEach((v, i) => h.writeUInt32LE(v, head + 4 * i));
  assert.equal(moStrings(Buffer.concat([h, ...strings])), ['α', 'ένα', 'πολλά']);
  assert.throws(() => moStrings(Buffer.alloc(32)), /not a gettext catalogue/);
});

test.run();
