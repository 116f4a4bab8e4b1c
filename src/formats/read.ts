// Stages "detect" and "read": what every format sees in one reply. Each
// format scores the reply (`Format.detect`) and reads it (`Format.parse`) at
// most once per request, on the reply's one split (`lexReply`); what follows
// (resolve.ts, the disk planner) asks this reading instead of parsing again.
// spec/formats.md, "Detection and mixed replies", is the contract.
//
// Detection weighs structure, not words: the formats that recognise an edit
// structure in the reply (a score of at least `STRUCTURE`) read it. A format
// whose every edit stands inside a whole file that another part of the
// reply writes (after other lines of that file) is quoted content of that
// file, not an edit.

import { unreadMarker } from '../core/markers.ts';
import { linesOf, type ReplyLine } from '../core/reply.ts';
import type { Diagnostic, Edit, Format, LexedReply, ParseContext, ParseResult } from '../core/types.ts';
import { editLines, lastAtOrBelow, type Lines } from './ranges.ts';

/** The score from which a format's evidence is structure (its markers), not a guess. */
export const STRUCTURE = 0.5;

/** A format's score for a reply (`Format.detect`). */
export interface Scored {
  format: Format;
  score: number;
  reason: string;
}

/** One format's reading of a reply: its score, and what it read. */
export interface Reading extends Scored {
  parsed: ParseResult;
}

/** A fenced file block: its lines, and the first line of its content that is not blank. */
export interface FileBlock {
  block: Lines;
  firstContent: number;
}

const FENCE = /^ {0,3}(?:`{3,}|~{3,}|<(?:source|code|pre|codeblock|sourcecode)>)/;

/** The block of a whole-file edit, from its path line (or fence) to its closing fence. */
export function fileBlock(lines: readonly ReplyLine[], edit: Edit): FileBlock {
  const block = editLines(edit);
  let k = block.start; // the path line, or the fence
  while (k <= block.end && !FENCE.test(lines[k - 1]?.text ?? '')) k++;
  k++;
  while (k < block.end && (lines[k - 1]?.text ?? '').trim() === '') k++;
  return { block, firstContent: k };
}

/** Whether an edit at `at` is quoted inside a file block: inside it (up to its closing fence), after other lines of the file. */
const quotedIn = (f: FileBlock, at: Lines) => f.block.start < at.start && at.end <= f.block.end && at.start > f.firstContent;

/**
 * The first format of `formats` whose blocks are whole files (`Format.wholeFiles`:
 * `whole` in the registry): it finds the files a reply writes whole, and reads
 * a reply whose only structure is quoted in them.
 */
export const wholeFormat = (formats: readonly Format[]): Format | undefined => formats.find((f) => f.wholeFiles);

/** The formats with structure in a reply, read, best first, and those set aside as quoted in a whole file. */
export interface Structure {
  found: Reading[];
  quoted: Reading[];
}

/**
 * A reply as every format of the registry sees it, given the names of the
 * files that exist: scores and parses, each worked out once, on first use.
 */
export class ReplyReading {
  readonly lines: readonly ReplyLine[];
  private scored: Scored[] | null;
  private parses = new Map<Format, { asked?: ParseResult; detected?: ParseResult }>();
  private structures = new Map<string, Structure>();
  constructor(
    readonly reply: string,
    readonly lexed: LexedReply,
    readonly formats: readonly Format[],
    readonly files: readonly string[],
    scored: Scored[] | null = null,
  ) {
    this.lines = linesOf(reply, lexed);
    this.scored = scored;
  }

  /** The same reply, read given other files: the scores (which no file changes) are kept, every parse is read anew. */
  withFiles(files: readonly string[]): ReplyReading {
    return new ReplyReading(this.reply, this.lexed, this.formats, files, this.scored);
  }

  /** The context every parse gets: `detected` when the format was detected, not asked for. */
  context(detected: boolean): ParseContext {
    return { files: this.files as string[], lexed: this.lexed, ...(detected ? { detected } : {}) };
  }

  /** The format's reading of the reply, asked for or detected (`ParseContext.detected`): read once. */
  parse(format: Format, detected: boolean): ParseResult {
    let entry = this.parses.get(format);
    if (!entry) this.parses.set(format, (entry = {}));
    const key = detected ? 'detected' : 'asked';
    return (entry[key] ??= format.parse(this.reply, this.context(detected)));
  }

  /** Every format's score, in registry order. */
  get scores(): readonly Scored[] {
    return (this.scored ??= this.formats.map((format) => ({ format, ...format.detect(this.reply, this.lexed) })));
  }

  /** The whole-file blocks the reply writes (`write` edits of `wholeFormat(among)`, read with no error). */
  wholeFiles(among: readonly Format[] = this.formats): FileBlock[] {
    const whole = wholeFormat(among);
    if (!whole) return [];
    return this.parse(whole, true)
      .edits.filter((e) => e.kind === 'write' && !e.error)
      .map((e) => fileBlock(this.lines, e));
  }

  /**
   * The formats of `among` whose structure the reply shows (a score of at
   * least `STRUCTURE`), read, best first (ties in registry order); those
   * whose edits all stand quoted inside a whole file the reply writes are
   * set aside in `quoted`.
   */
  structure(among: readonly Format[] = this.formats): Structure {
    const key = among.map((f) => f.name).join('\n');
    let known = this.structures.get(key);
    if (!known) this.structures.set(key, (known = this.readStructure(among)));
    return known;
  }

  private readStructure(among: readonly Format[]): Structure {
    const scored = this.scores
      .map((s, order) => ({ ...s, order }))
      .filter((s) => among.includes(s.format) && s.score >= STRUCTURE)
      .sort((a, b) => b.score - a.score || a.order - b.order);
    if (scored.length === 0) return { found: [], quoted: [] };
    const files = this.wholeFiles(among);
    const found: Reading[] = [];
    const quoted: Reading[] = [];
    for (const s of scored) {
      const parsed = this.parse(s.format, true);
      const inside =
        files.length > 0 &&
        parsed.edits.length > 0 &&
        parsed.edits.every((e) => {
          // The file blocks do not overlap and are in reply order: only the last one starting before the edit can hold it.
          const at = editLines(e);
          const k = lastAtOrBelow(files.length, at.start - 1, (i) => files[i].block.start);
          return k >= 0 && quotedIn(files[k], at);
        });
      (inside ? quoted : found).push({ format: s.format, score: s.score, reason: s.reason, parsed });
    }
    return { found, quoted };
  }

  /**
   * For a reply in which no format found structure: the format whose markers
   * (`Format.markers`: a misspelt head, an empty envelope, a file header with
   * no hunk) the reply shows first, outside any file the reply writes whole
   * (a marker after other lines of such a file is quoted content), with the
   * `malformed` error there; null when the reply shows none (a chat answer).
   * Among formats whose first marker is on the same line, the earlier in
   * the registry wins.
   */
  unreadStructure(): { format: Format; error: Diagnostic } | null {
    const withMarkers = this.formats.filter((f) => f.markers?.length);
    if (withMarkers.length === 0) return null;
    const files = this.wholeFiles();
    const quoted = (line: number) => {
      const k = lastAtOrBelow(files.length, line - 1, (i) => files[i].block.start);
      return k >= 0 && quotedIn(files[k], { start: line, end: line });
    };
    let best: { format: Format; error: Diagnostic } | null = null;
    for (const format of withMarkers) {
      const error = unreadMarker(this.reply, format, quoted, this.lexed);
      if (error?.reply && (!best || error.reply.from < best.error.reply!.from)) best = { format, error };
    }
    return best;
  }
}
