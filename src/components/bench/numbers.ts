// How the Bench page writes numbers: counts with separators, rates as
// percentages, times in milliseconds or seconds, token counts marked `~`
// when they are estimates. Pure.

import { wholePercent } from '../../bench/summary.ts';

const COUNT = new Intl.NumberFormat('en-US');

export const count = (n: number): string => COUNT.format(Math.round(n));

export const plural = (n: number, word: string, many = `${word}s`): string => `${count(n)} ${n === 1 ? word : many}`;

/** A rate 0..1 as a whole percentage; never 0 % or 100 % unless it is exactly that. */
export const percent = (rate: number): string => `${wholePercent(rate)} %`;

/** Milliseconds as `850 ms`, `3.2 s`, `74 s`; a dash when unknown. */
export function duration(ms: number | null): string {
  if (ms === null) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  return `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
}

/** A token count, `~1,234` when estimated; a dash when unknown. */
export const tokens = (n: number | null, estimated: boolean): string => (n === null ? '–' : `${estimated ? '~' : ''}${count(n)}`);
