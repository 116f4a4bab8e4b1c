// Stage "report": the result of a request, from the verdicts and the new
// files: each edit's result with the warnings that need every edit at once
// (a created path like another, a BiDi control, no change), the path a
// missing file was meant as, and the reply-level findings.

import { diagnostic } from './diagnostics.ts';
import { addLookalikeWarnings } from './lookalikes.ts';
import { unreadMarker } from './markers.ts';
import { noEdits } from './messages.ts';
import type { Originals } from './originals.ts';
import { givenPaths } from './paths.ts';
import type { ApplyResult, Format, LexedReply, Part } from './types.ts';
import { live, type Verdict } from './verdict.ts';

export interface Reported {
  parts: readonly Part[];
  /** The format that names the result. */
  main: Format;
  reply: string;
  lexed?: LexedReply;
}

export function report(verdicts: readonly Verdict[], files: Record<string, string | null>, given: Originals, { parts, main, reply, lexed }: Reported): ApplyResult {
  // Each result is this stage's own copy: the warnings below are added to it.
  const done = verdicts.map((v) => ({ ...v, result: { ...v.result } }));

  // A path that names no given file, when one given file has its name: that file, as data too.
  for (const v of done) {
    if (v.result.code !== 'file-not-found') continue;
    const meant = givenPaths(given.given).meant(v.edit.file);
    if (meant !== null) v.result.meant = meant;
  }

  // New paths that look like another file's, BiDi controls in new text: warnings (src/core/lookalikes.ts).
  addLookalikeWarnings(done, given.given, (path) => given.text(path)?.lines ?? []);
  for (const v of done) {
    // A format's own no-change finding (udiffx's context-only hunk) says it already.
    if (v.outcome === 'inert' && !v.result.warnings.some((d) => d.code === 'no-change'))
      v.result.warnings = [...v.result.warnings, diagnostic('no-change', 'warning', v.unchanged!, v.edit.span)];
  }

  const diagnostics = parts.flatMap((p) => p.parsed.diagnostics);
  // No edit read, and no finding that says why (an error, or edits that change nothing): a reply that
  // shows the format's structure is malformed; one that shows none (a chat answer) has no edits.
  if (done.length === 0 && !diagnostics.some((d) => d.severity === 'error' || d.code === 'no-change')) {
    diagnostics.push(unreadMarker(reply, main, undefined, lexed) ?? diagnostic('no-edits', 'warning', noEdits(main)));
  }
  return {
    ok: done.every((v) => v.result.status === 'applied') && !diagnostics.some((d) => d.severity === 'error'),
    files,
    edits: done.map((v) => v.result),
    format: main.name,
    detection: null,
    diagnostics,
  };
}
