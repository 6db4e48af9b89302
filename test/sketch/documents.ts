// Random documents for the sketch kernels' tests: 0 to 1500 words, some wrapped in markup.
import { rng, randomWords } from '../helpers/random.js';

/** Takes a seed and a count; returns documents of 0, 1, 3, 7, 8, 9, 40, 200 and 1500 words in turn. */
export function docs(seed: number, count: number): string[] {
  const r = rng(seed);
  return Array.from({ length: count }, (_, i) => {
    const n = [0, 1, 3, 7, 8, 9, 40, 200, 1500][i % 9];
    const words = randomWords(r, n, 60 + i);
    if (i % 4 === 1) return `<p>${words.join(' <b>x</b> ')}</p>`;
    return words.join(r() < 0.5 ? ' ' : '\n');
  });
}
