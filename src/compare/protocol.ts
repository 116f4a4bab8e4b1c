// What the compare worker tells the page: plain, structured-clone-safe data.

import type { RoundTrip } from '../formats/compare.ts';
import type { TokenCounts } from '../tokens/index.ts';

export interface CompareRow {
  format: string;
  title: string;
  reply: string;
  chars: number;
  roundTrip: RoundTrip;
  problem: string | null;
}

export interface CompareView {
  /** `plain`, or the name of the first format whose view this is. */
  kind: string;
  label: string;
  /** The formats that show the source this way. */
  usedBy: string[];
  text: string;
  chars: number;
}

export interface CompareOutput {
  /** Files the change touches. */
  files: string[];
  rows: CompareRow[];
  views: CompareView[];
}

export interface CountOutput {
  counts: TokenCounts[];
  method: string;
}
