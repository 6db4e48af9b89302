/**
 * Sentences and shingle paragraphs (Pereira, Baeza-Yates, Ziviani 2006, Definition 1): a sentence
 * ends at a period; a sentence with no period by its `maxSentence`-th character ends there and the
 * next starts at the following character; shingle paragraphs are non-overlapping runs of
 * `sentencesPerParagraph` sentences. Lengths count UTF-16 code units after whitespace runs are
 * collapsed to one space (whitespace is layout, not content).
 */
import { intOption, optionError, rejectUnknown } from '../errors.js';

/** Options of sentence and shingle-paragraph splitting. */
export interface ParagraphOptions {
  /** A sentence with no period ends at this character (Definition 1). Default 150. */
  maxSentence?: number;
  /** Sentences per shingle paragraph, without overlap (Definition 1). Default 3. */
  sentencesPerParagraph?: number;
  /** Documents shorter than this (after whitespace is collapsed) are left out (§4). Default 450. */
  minChars?: number;
  /**
   * Keep the last 1–2 sentences as a shorter final paragraph. Default true: two documents that
   * differ only in their last sentences are then told apart.
   */
  keepTail?: boolean;
}

/** Validated paragraph options with every default filled in. */
export interface ParagraphParams {
  maxSentence: number;
  sentencesPerParagraph: number;
  minChars: number;
  keepTail: boolean;
}

export const PARAGRAPH_OPTION_KEYS = ['maxSentence', 'sentencesPerParagraph', 'minChars', 'keepTail'] as const;

/** Takes paragraph options; returns them validated with defaults, or throws E_OPTION. */
export function paragraphParams(options: ParagraphOptions = {}): ParagraphParams {
  rejectUnknown(options, PARAGRAPH_OPTION_KEYS, 'shingle paragraphs');
  const keepTail = options.keepTail ?? true;
  if (typeof keepTail !== 'boolean') throw optionError('keepTail', 'boolean', keepTail);
  return {
    maxSentence: intOption('maxSentence', options.maxSentence, 150, 1, 1 << 20),
    sentencesPerParagraph: intOption('sentencesPerParagraph', options.sentencesPerParagraph, 3, 1, 1 << 10),
    minChars: intOption('minChars', options.minChars, 450, 0, 2 ** 31),
    keepTail,
  };
}

/** Takes text; returns it with every whitespace run collapsed to one space and the ends trimmed. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Takes text; returns its sentences (Definition 1). A run of periods ("...") ends one sentence;
 * the period stays with its sentence and the space after it is dropped.
 */
export function splitSentences(text: string, options: Pick<ParagraphOptions, 'maxSentence'> = {}): string[] {
  const max = intOption('maxSentence', options.maxSentence, 150, 1, 1 << 20);
  return sentencesOf(collapseWhitespace(text), max);
}

function sentencesOf(s: string, max: number): string[] {
  const out: string[] = [];
  let i = 0;
  // The next period at or after i, found once and reused: searching from every sentence start
  // would scan a period-free text to its end once per sentence (quadratic).
  let dot = -2;
  while (i < s.length) {
    if (s.charCodeAt(i) === 32) { i++; continue; }
    const start = i;
    const limit = Math.min(start + max, s.length);
    if (dot !== -1 && dot < start) dot = s.indexOf('.', start);
    let end: number;
    if (dot >= 0 && dot < limit) {
      end = dot + 1;
      while (end < s.length && s.charCodeAt(end) === 46) end++;
    } else {
      end = limit;
    }
    out.push(s.slice(start, end).trimEnd());
    i = end;
  }
  return out;
}

/**
 * Takes a document's text; returns its shingle paragraphs (sentences joined by one space), or
 * null when the text is shorter than `minChars` and the document is left out.
 */
export function shingleParagraphs(text: string, options: ParagraphOptions = {}): string[] | null {
  const p = paragraphParams(options);
  return paragraphsOf(text, p);
}

/** `shingleParagraphs` with validated parameters (the batch path validates once). */
export function paragraphsOf(text: string, p: ParagraphParams): string[] | null {
  const s = collapseWhitespace(text);
  if (s.length < p.minChars) return null;
  const sentences = sentencesOf(s, p.maxSentence);
  const out: string[] = [];
  const w = p.sentencesPerParagraph;
  for (let i = 0; i + w <= sentences.length; i += w) out.push(sentences.slice(i, i + w).join(' '));
  const tail = sentences.length % w;
  if (p.keepTail && tail > 0) out.push(sentences.slice(sentences.length - tail).join(' '));
  return out;
}
