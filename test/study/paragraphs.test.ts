import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { paragraphParams, shingleParagraphs, splitSentences } from '../../src/study/paragraphs.js';

test('the paper\'s six-sentence example gives two shingle paragraphs without overlap', () => {
  const text = 'First sentence here. Second one. Third is this.  Fourth\nsentence. Fifth. Sixth and last.';
  assert.equal(splitSentences(text), ['First sentence here.', 'Second one.', 'Third is this.', 'Fourth sentence.', 'Fifth.', 'Sixth and last.']);
  assert.equal(shingleParagraphs(text, { minChars: 0 }), ['First sentence here. Second one. Third is this.', 'Fourth sentence. Fifth. Sixth and last.']);
});

test('a sentence with no period by its 150th character ends there; the next starts at the 151st', () => {
  const a = 'a'.repeat(150), b = 'b'.repeat(150), c = 'c'.repeat(40);
  assert.equal(splitSentences(a + b + c), [a, b, c]);
  // A period as the 150th character still ends the sentence there…
  const dotAt150 = 'x'.repeat(149) + '.';
  assert.equal(splitSentences(dotAt150 + 'y.'), [dotAt150, 'y.']);
  // …as the 151st it is too late: the cut comes first and the period ends a one-character sentence.
  assert.equal(splitSentences('x'.repeat(150) + '.y.'), ['x'.repeat(150), '.', 'y.']);
  // A period before the limit wins, and the limit counts from the sentence start.
  assert.equal(splitSentences('Hi. ' + 'z'.repeat(160)), ['Hi.', 'z'.repeat(150), 'z'.repeat(10)]);
  assert.equal(splitSentences('ab cd ef', { maxSentence: 3 }), ['ab', 'cd', 'ef']);
});

test('period runs end one sentence; whitespace is collapsed', () => {
  assert.equal(splitSentences('Wait... what.  Then\t\nthis'), ['Wait...', 'what.', 'Then this']);
  assert.equal(splitSentences('   '), []);
});

test('documents under 450 characters are left out; 450 is enough', () => {
  const unit = 'abcdefghi.'; // 10 characters, one sentence
  const short = Array(45).fill(unit).join(''); // 450 characters
  assert.is(shingleParagraphs(short.slice(0, 449)), null);
  const ps = shingleParagraphs(short)!;
  assert.is(ps.length, 15);
  assert.is(ps[0], 'abcdefghi. abcdefghi. abcdefghi.');
  // Collapsed whitespace does not count toward the length.
  assert.is(shingleParagraphs(short.slice(0, 440) + ' '.repeat(20)), null);
  assert.equal(shingleParagraphs('a. b.', { minChars: 6 }), null);
});

test('the last one or two sentences form a shorter paragraph unless keepTail is false', () => {
  const text = 's1. s2. s3. s4. s5.';
  assert.equal(shingleParagraphs(text, { minChars: 0 }), ['s1. s2. s3.', 's4. s5.']);
  assert.equal(shingleParagraphs(text, { minChars: 0, keepTail: false }), ['s1. s2. s3.']);
  assert.equal(shingleParagraphs(text, { minChars: 0, sentencesPerParagraph: 2 }), ['s1. s2.', 's3. s4.', 's5.']);
});

test('options are validated before work', () => {
  assert.throws(() => paragraphParams({ maxSentence: 0 }), /expected integer 1\.\.\d+ for maxSentence, got 0/);
  assert.throws(() => paragraphParams({ minChars: -1 }), /minChars/);
  assert.throws(() => paragraphParams({ keepTail: 'yes' as unknown as boolean }), /expected boolean for keepTail/);
  assert.throws(() => paragraphParams({ sentences: 3 } as never), /unknown option "sentences"/);
  assert.equal(paragraphParams(), { maxSentence: 150, sentencesPerParagraph: 3, minChars: 450, keepTail: true });
});

test.run();
