// Place a hashline edit: no search, only checks. The cited lines must exist,
// each cited tag must be the line's tag now, and a cited file tag must be the
// file's tag now (spec/formats/hashline.md, "Placing an edit").

import { locate } from '../../core/match.ts';
import type { MatchOutcome } from '../../core/match.ts';
import type { Candidate, Edit, EngineOptions, RequestBudget } from '../../core/types.ts';
import type { HashlineMeta, Op } from './parse.ts';
import { fileTag, lineTag, viewRow } from './tag.ts';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function metaOf(edit: Edit): HashlineMeta | null {
  const m = edit.meta;
  if (!m || typeof m.op !== 'string' || !Array.isArray(m.lines) || !Array.isArray(m.tags)) return null;
  return {
    op: m.op as Op,
    lines: m.lines as number[],
    tags: m.tags as string[],
    fileTag: typeof m.fileTag === 'string' ? m.fileTag : null,
  };
}

/** The file tag of each line array (one per file and request): an edit citing it must not rehash the file. */
const fileTags = new WeakMap<readonly string[], string>();

function fileTagOf(lines: readonly string[]): string {
  let tag = fileTags.get(lines);
  if (tag === undefined) fileTags.set(lines, (tag = fileTag(lines)));
  return tag;
}

export function locateHashline(lines: readonly string[], edit: Edit, options: EngineOptions, budget?: RequestBudget): MatchOutcome {
  const meta = metaOf(edit);
  // Not one of ours (no meta): the engine's ladder.
  if (!meta) return locate(lines, edit.old, edit.cited !== undefined ? edit.cited - 1 : null, options, budget);
  const { op, lines: numbers, tags } = meta;
  const fail = (code: 'stale-file' | 'no-match' | 'tag-mismatch', message: string, candidates: Candidate[] = []): MatchOutcome => ({
    ok: false,
    code,
    message,
    candidates,
    kind: null,
    outside: [],
  });

  if (meta.fileTag !== null) {
    const now = fileTagOf(lines);
    if (now !== meta.fileTag)
      return fail(
        'stale-file',
        `${edit.file} changed since it was read: the edit cites file_tag ${meta.fileTag}, but the file's tag is now ${now}; read the file again and cite its current line numbers and file_tag`,
      );
  }

  const first = numbers[0] ?? 0;
  const last = numbers[numbers.length - 1] ?? 0;
  if (last > lines.length) {
    const what = numbers.length > 1 ? `lines ${first}-${last} are` : `line ${last} is`;
    return fail(
      'no-match',
      `${what} not in ${edit.file}: the file has ${plural(lines.length, 'line')}; read the file again and cite lines as the read view numbers them`,
    );
  }

  const differs = numbers.map((n, k) => tags[k] !== '' && tags[k] !== lineTag(lines[n - 1]));
  if (differs.some(Boolean)) {
    const rows = numbers.flatMap((n, k) => (differs[k] ? [`${viewRow(n, lines[n - 1])}`] : []));
    const cited = numbers.flatMap((n, k) => (differs[k] ? [`${n}:${tags[k]}`] : []));
    const count = rows.length;
    return fail(
      'tag-mismatch',
      `${count === 1 ? 'the tag of 1 cited line does' : `the tags of ${count} cited lines do`} not match ${edit.file} as it is now (cited ${cited.join(', ')}); the file changed since it was read, or the ${count === 1 ? 'tag was' : 'tags were'} misremembered. ${count === 1 ? 'That line is' : 'Those lines are'} now:\n${rows.join('\n')}\nRead the file again and cite the current tags.`,
      [
        {
          start: first,
          end: last,
          offset: 0,
          similarity: 0,
          lines: lines.slice(first - 1, last),
          differs,
        },
      ],
    );
  }

  // Every check passed: the cited place, exactly.
  const placed = (start: number, end: number, newLines: string[], message?: string): MatchOutcome => ({
    ok: true,
    kind: 'exact',
    start,
    end,
    newLines,
    ...(message !== undefined ? { message } : {}),
    offset: 0,
    similarity: 1,
    differing: [],
  });
  const where = first === last ? `line ${first}` : `lines ${first}-${last}`;
  switch (op) {
    case 'insert_after':
      return placed(last, last, edit.new, `inserted ${plural(edit.new.length, 'line')} ${last === 0 ? 'at the top of the file' : `after line ${last}`}`);
    case 'delete':
      return placed(first - 1, last, [], `deleted ${where}`);
    default:
      return placed(first - 1, last, edit.new);
  }
}
