// How alike two lines are, for the fuzzy rung and for naming the closest
// place: difflib's ratio (linear-time ends comparison for very long lines),
// and the rule that a fuzzy match may differ in one word at most.

import { ratio } from './similarity.ts';

/**
 * Longest pair of lines (both lengths together, in UTF-16 code units) whose
 * similarity is difflib's ratio. difflib's matcher takes time that grows
 * with the product of the lengths; longer pairs are compared by their
 * common start and end instead (`endsSimilarity`), in linear time.
 */
export const RATIO_MAX_LENGTH = 20_000;

/**
 * The similarity of two long strings from what they share at both ends:
 * twice the common prefix plus the common suffix (not overlapping it),
 * over the total length. A lower bound of the share of equal text: one
 * changed character in a long line still scores close to 1, a line that is
 * merely made of the same characters scores low.
 */
export function endsSimilarity(a: string, b: string): number {
  const total = a.length + b.length;
  if (total === 0) return 1;
  const short = Math.min(a.length, b.length);
  let prefix = 0;
  while (prefix < short && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (suffix < short - prefix && a.charCodeAt(a.length - 1 - suffix) === b.charCodeAt(b.length - 1 - suffix)) suffix++;
  return (2 * (prefix + suffix)) / total;
}

/**
 * Per-line similarity as the seed's reference does it: difflib ratio,
 * newline included; for lines longer than `RATIO_MAX_LENGTH` together,
 * `endsSimilarity`.
 */
export function lineSimilarity(cited: string, actual: string): number {
  if (cited === actual) return 1;
  if (cited.length + actual.length > RATIO_MAX_LENGTH) return endsSimilarity(actual + '\n', cited + '\n');
  return ratio(actual + '\n', cited + '\n');
}

/** The pattern of `tokens`, made on first use (a pattern of Unicode classes costs a fraction of a millisecond to build). */
let tokenPattern: RegExp | undefined;
/** Words (runs of letters, digits and `_`) and single other characters; blanks separate. */
const tokens = (line: string): string[] => line.match((tokenPattern ??= /[\p{L}\p{N}\p{M}_]+|[^\s\p{L}\p{N}\p{M}_]/gu)) ?? [];

/** Longest lines `oneWordApart` tokenises; longer pairs pass on similarity alone. */
const TOKENS_MAX_LENGTH = 2_000;

/**
 * Why a cited line and a file line are too different for the fuzzy rung
 * whatever their similarity, or null when they are not. They may differ in
 * one token at most (a word, or one character that is not a letter, digit or
 * blank), blanks aside; that token's digits, if any, must be the same on
 * both sides; and two words must share at least half their characters
 * (difflib ratio ≥ 0.5). A misspelt word or a missing `;` is forgiven; a
 * second change, a changed number or another word is not (`value_0500` is
 * not `value_0000`, `5` is not `9`, `x` is not `y`).
 */
export function fuzzyRefusal(cited: string, actual: string): string | null {
  if (cited.length + actual.length > 2 * TOKENS_MAX_LENGTH) return null;
  const a = tokens(cited);
  const b = tokens(actual);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const restA = a.length - head - tail;
  const restB = b.length - head - tail;
  const x = restA ? a[head] : '';
  const y = restB ? b[head] : '';
  if (x.replace(/\D+/g, '') !== y.replace(/\D+/g, '') && restA <= 1 && restB <= 1) return 'a number differs';
  if (restA > 1 || restB > 1) {
    const digits = (t: string[], n: number) => t.slice(head, head + n).join('').replace(/\D+/g, '');
    return digits(a, restA) !== digits(b, restB) ? 'a number differs' : 'more than one word differs';
  }
  const word = /^[\p{L}\p{N}\p{M}_]/u;
  if (word.test(x) && word.test(y) && ratio(x, y) < 0.5) return `${JSON.stringify(x)} and ${JSON.stringify(y)} are different words`;
  return null;
}

/** Whether the fuzzy rung may forgive the difference between two lines (see `fuzzyRefusal`). */
export const oneWordApart = (cited: string, actual: string): boolean => fuzzyRefusal(cited, actual) === null;
