// Read a reply of aider @BETWEEN@ snippets into edits. spec/formats/between.md
// is the contract; section names below refer to it.

import { diagnostic } from '../../core/diagnostics.ts';
import { givenPaths, notGivenMessage, unsafePathReason } from '../../core/paths.ts';
import { columnSpan, linesSpan, linesOf, type ReplyLine } from '../../core/reply.ts';
import type { Diagnostic, Edit, ParseContext, ParseResult } from '../../core/types.ts';
import { isShellInfo, scanFences, type FenceBlock } from '../whole/fences.ts';
import { blockPath, closedEarlyError, missingPath, nestedWarning, pairedAfterError, truncatedBlock, withoutBom } from '../whole/parse.ts';
import { BETWEEN, WHOLE_FILE, anchorKey, betweenAnchors, tagOf } from './syntax.ts';

const show = (s: string) => JSON.stringify(s);

/** One snippet: its tag line and content lines (indexes into the block's content). */
interface Snippet {
  /** Index into the reply lines of the tag line; null for untagged lines before the first tag. */
  tagLine: number | null;
  tag: string;
  args: string;
  argsAt: number;
  /** Content, as indexes into the block's `content`. */
  body: number[];
}

function snippetsOf(block: FenceBlock, lines: readonly ReplyLine[]): Snippet[] {
  const out: Snippet[] = [];
  let current: Snippet | null = null;
  block.content.forEach((text, k) => {
    const t = tagOf(text);
    if (t) {
      // aider drops one blank line between a snippet and the next tag.
      if (current && current.tagLine !== null && current.body.length > 0 && block.content[current.body[current.body.length - 1]].trim() === '')
        current.body.pop();
      // Columns count in the reply line, before the fence's indentation was removed.
      const raw = lines[block.lineIndexes[k]].text;
      current = { tagLine: block.lineIndexes[k], tag: t.tag.replace(/\s+/g, ' '), args: t.args, argsAt: raw.length - t.args.length, body: [] };
      out.push(current);
      return;
    }
    if (!current) {
      if (text.trim() === '') return;
      current = { tagLine: null, tag: '', args: '', argsAt: 0, body: [] };
      out.push(current);
    }
    current.body.push(k);
  });
  return out;
}

export const mergeNote = (a: string, b: string): Diagnostic =>
  diagnostic(
    'deterministic-merge',
    'info',
    `the snippet replaces exactly the lines between ${show(a)} and ${show(b)}; aider merges a snippet into that place with a second model instead, which can keep or adjust lines this rule replaces`,
  );

export function parseBetween(reply: string, context: ParseContext): ParseResult {
  const lines = linesOf(reply, context.lexed);
  const files = context.files;
  const edits: Edit[] = [];
  const diagnostics: Diagnostic[] = [];
  const detected = context.detected === true;
  let floor = 0;
  for (const block of scanFences(lines)) {
    const next = block.close === null ? lines.length : block.close + 1;
    const snippets = snippetsOf(block, lines);
    const bp = blockPath(lines, block, floor, files, { mentioned: false, detected });
    floor = next;
    // The first snippet that reaches the line that closed the block early, when it did ("Blocks and snippets", rule 8).
    const earlyFrom = block.early.length === 0 ? -1 : snippets.findIndex((s, k) => k === snippets.length - 1 || (snippets[k + 1].tagLine ?? 0) > block.early[0]);
    if (snippets.length === 0 && block.close !== null) continue; // an empty block: nothing to do
    // A block with no tag that names no file is a command for the user when
    // it is a shell block, and prose of any kind in a detected reply (rule 6).
    if (snippets.every((s) => s.tagLine === null) && bp.source !== 'line' && bp.source !== 'info' && (isShellInfo(block.fence.info) || detected)) continue;
    if (snippets.length === 0) snippets.push({ tagLine: null, tag: '', args: '', argsAt: 0, body: [] });

    const nested = nestedWarning(lines, block);
    snippets.forEach((s, k) => {
      const firstLine = k === 0 ? (bp.line ?? block.open) : s.tagLine!;
      const lastLine =
        k === snippets.length - 1
          ? (block.close ?? lines.length - 1)
          : (snippets[k + 1].tagLine ?? block.lineIndexes[block.lineIndexes.length - 1]) - 1;
      const span = linesSpan(lines[firstLine], lines[Math.max(firstLine, lastLine)]);
      const body = s.body.map((i) => block.content[i]);
      const warnings: Diagnostic[] = [];
      if (nested && k === snippets.length - 1) warnings.push(nested);
      const edit: Edit = { index: edits.length, kind: 'replace', file: bp.path ?? '', old: [], new: body, span, warnings };
      const tagAt = s.tagLine === null ? null : lines[s.tagLine];

      if (s.tagLine === null) {
        const first = lines[block.lineIndexes[s.body[0] ?? 0] ?? block.open];
        edit.error = diagnostic(
          'malformed',
          'error',
          `a snippet must begin with a \`${BETWEEN} "line above" AND "line below"\` or \`${WHOLE_FILE}\` line; the block that begins at line ${lines[block.open].line} has ${show(first.text)} at line ${first.line} before any tag`,
          linesSpan(first),
        );
      } else if (s.tag === WHOLE_FILE) {
        edit.kind = 'write';
        if (bp.path !== null) edit.new = withoutBom(body, !givenPaths(files).has(bp.path));
      } else if (s.tag === BETWEEN) {
        const anchors = betweenAnchors(s.args);
        if (!anchors) {
          edit.error = diagnostic(
            'malformed',
            'error',
            `expected \`${BETWEEN} "line above" AND "line below"\` at line ${tagAt!.line}, found ${show(tagAt!.text.trim())}: quote each line in double quotes and join them with AND`,
            linesSpan(tagAt!),
          );
        } else {
          edit.old = [anchors.a, anchors.b];
          edit.oldSpans = [
            columnSpan(tagAt!, s.argsAt + anchors.aAt[0], s.argsAt + anchors.aAt[1]),
            columnSpan(tagAt!, s.argsAt + anchors.bAt[0], s.argsAt + anchors.bAt[1]),
          ];
          const [ka, kb] = [anchorKey(anchors.a), anchorKey(anchors.b)];
          if (body.length > 0 && ka !== '' && anchorKey(body[0]) === ka) {
            warnings.push(
              diagnostic(
                'ambiguous-structure',
                'warning',
                `the snippet begins with the first anchor line ${show(ka)} (line ${lines[block.lineIndexes[s.body[0]]].line}); only the lines between the anchors are replaced, so it is kept as a new line after the anchor: leave the anchor lines out of the snippet`,
                linesSpan(lines[block.lineIndexes[s.body[0]]]),
              ),
            );
          }
          if (body.length > 0 && kb !== '' && anchorKey(body[body.length - 1]) === kb) {
            const at = lines[block.lineIndexes[s.body[s.body.length - 1]]];
            warnings.push(
              diagnostic(
                'ambiguous-structure',
                'warning',
                `the snippet ends with the second anchor line ${show(kb)} (line ${at.line}); only the lines between the anchors are replaced, so it is kept as a new line before the anchor: leave the anchor lines out of the snippet`,
                linesSpan(at),
              ),
            );
          }
          if (bp.path !== null && !givenPaths(files).has(bp.path) && unsafePathReason(bp.path) === null) {
            edit.error = diagnostic(
              'file-not-found',
              'error',
              notGivenMessage(bp.path, files, `${BETWEEN} edits an existing file: to create ${bp.path}, use ${WHOLE_FILE}`),
              linesSpan(tagAt!),
            );
          }
        }
      } else {
        edit.error = diagnostic(
          'malformed',
          'error',
          `unknown tag \`${s.tag}\` at line ${tagAt!.line}: a snippet begins with \`${BETWEEN} "line above" AND "line below"\` or \`${WHOLE_FILE}\``,
          columnSpan(tagAt!, tagAt!.text.indexOf('@'), s.argsAt),
        );
      }

      if (block.close === null && k === snippets.length - 1) {
        edit.error = truncatedBlock(reply, lines, block, 'this snippet was not applied');
      } else if (earlyFrom >= 0 && k >= earlyFrom) {
        edit.error = closedEarlyError(lines, block, 'this snippet was not applied');
      } else if (block.after !== null) {
        edit.error = pairedAfterError(lines, block, 'this snippet was not applied');
      } else if (bp.path === null && !edit.error) {
        edit.error = missingPath(lines, block, files, bp);
      }
      if (edit.kind === 'replace' && edit.old.length === 2 && !edit.error) warnings.push(mergeNote(edit.old[0], edit.old[1]));
      edits.push(edit);
    });
  }
  return { edits, diagnostics };
}
