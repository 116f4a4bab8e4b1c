// Planning a reply on disk: everything `ln-diff apply` and the MCP server's
// `apply_edits` do before writing, in one place. Every path the reply names
// is checked before anything is read (disk.ts: inside the base, not into
// .git, one name per file, spelt as the directory entries are); the files
// are read, the engine runs, and every change is worked out (and every path
// the result names checked again) before a byte is written. Nothing here
// writes.

import { confusableMessage } from '../core/lookalikes.ts';
import { listGiven } from '../core/paths.ts';
import { editsByIndex } from '../core/run.ts';
import type { ApplyResult, Edit, Format } from '../core/types.ts';
import { applyRead, formats, getFormat, readReply } from '../formats/index.ts';
import type { ReplyReading } from '../formats/read.ts';
import { chooseFormat } from '../formats/resolve.ts';
import { refuseTwoNames, type Change } from './changes.ts';
import { lookalikeEntry, readTarget, resolveTarget, spellingSiblings, type Listings, type Target } from './disk.ts';
import { CliError, EXIT_INTERNAL } from './errors.ts';
import { editRef } from './summary.ts';

/**
 * The engine's words for a file it was not given (`X is not among the files
 * given`, with the list of those it was) in disk mode, where "given" means
 * "found under the base directory": the result with each such message saying
 * that the file was not given in the request and is not under `base` (the
 * resolved directory, printed), and how to name another base. The rest of
 * the message (a format's hint on creating a file) is kept. `given`: the
 * names the engine was given, in order (its words list them so).
 */
export function notOnDisk(result: ApplyResult, base: string, given: readonly string[]): ApplyResult {
  const words = ` is not among the files given${listGiven(given)}`;
  const instead = ` was not given in the request and is not under the base directory ${base}`;
  let changed = false;
  const edits = result.edits.map((e) => {
    if (e.status !== 'failed' || e.code !== 'file-not-found' || !e.message.includes(words)) return e;
    changed = true;
    const message = `${e.message.replace(words, () => instead)}; if the reply's paths are relative to another directory, run again with --base DIR`;
    return { ...e, message };
  });
  return changed ? { ...result, edits } : result;
}

/** What the steps before writing found. */
export interface DiskPlan {
  /** The engine's result on the files read. */
  result: ApplyResult;
  /** The edits as the engine read them, by their result's index (a failed edit's retry message cites their lines). */
  cited: Map<number, Edit>;
  /** The changes it makes, each with its checked target. */
  changes: Change[];
  /** The texts the engine was given, by the name it was given them. */
  files: Record<string, string>;
}

/**
 * The paths a reply's edits name, as `format` reads them given the files
 * known to exist (`reading`), and as every other format whose structure the
 * reply shows reads them (a file on disk is a file given: an edit of another
 * format on it is a part of the reply under `auto`, and `mixed-formats` with
 * a format named, never a quote dropped unread), each with the first edit
 * that names it (for messages).
 */
function editPaths(reading: ReplyReading, format: Format): Map<string, string> {
  const others = reading.structure().found.filter((r) => r.format !== format);
  const paths = new Map<string, string>();
  for (const { edits } of [reading.parse(format, false), ...others.map((r) => r.parsed)])
    for (const e of edits)
      for (const file of [e.file, e.moveTo ?? '']) if (file !== '' && !paths.has(file)) paths.set(file, editRef({ reply: e.span }));
  return paths;
}

/**
 * Read the files a reply names under `base` and run the engine on them
 * (`formatName` is what the request asks, `auto` included: then the format
 * detected reads the reply's paths). The reply is split into lines and
 * scored once; it is read once per round of the files known to exist (one
 * round when no path it names exists, two when some do), and the engine
 * applies the last round's reading. `allow` is asked about every target before it is used
 * and throws a CliError to refuse it (the MCP client's roots). Throws a
 * CliError for an unsafe path or an unreadable file: nothing has been
 * written then, and nothing is written by this function.
 */
export function planDisk(base: string, formatName: string, reply: string, allow: (file: string, target: Target) => void = () => {}): DiskPlan {
  // A path is known by the name the reply writes and by the name the
  // directory entries have (`diskSpelling`: another letter case or Unicode
  // normalisation); the engine is given the latter.
  const targets = new Map<string, Target>();
  const refs = new Map<string, string>();
  const listings: Listings = new Map();
  const target = (file: string): Target => {
    const known = targets.get(file);
    if (known) return known;
    let t = resolveTarget(base, file, refs.get(file), listings);
    allow(file, t);
    t = targets.get(t.file) ?? t;
    targets.set(file, t);
    targets.set(t.file, t);
    // Entries that differ from it only in form or letter case are given too, so that the engine
    // takes the one the reply writes exactly; one that could not be edited anyway (a symlink,
    // not text, outside what `allow` allows) is left out rather than refusing the reply for a
    // file it may not name.
    if (t.exists)
      for (const sibling of spellingSiblings(base, t.file, listings)) {
        if (targets.has(sibling)) continue;
        try {
          const s = resolveTarget(base, sibling, undefined, listings);
          if (s.exists && s.file === sibling) {
            allow(sibling, s);
            readTarget(s);
          } else continue;
        } catch {
          continue;
        }
        target(sibling);
      }
    return t;
  };
  const unique = () => [...new Set(targets.values())];

  // Parse until the set of existing files the parser is told about is stable
  // (a parser may read paths differently once it knows which files exist).
  let reading = readReply(reply, []);
  const format = formatName === 'auto' ? chooseFormat(reading.scores, formats).format : getFormat(formatName)!;
  let existing: string[] = [];
  for (let round = 0; round < 3; round++) {
    const paths = editPaths(reading, format);
    for (const [file, ref] of paths) if (!refs.has(file)) refs.set(file, ref);
    for (const file of paths.keys()) target(file);
    const now = unique().filter((t) => t.exists).map((t) => t.file);
    if (now.length === existing.length) break;
    existing = now;
    reading = reading.withFiles(existing);
  }
  refuseTwoNames(unique().filter((t) => t.exists));

  // A map with no prototype: a file named `__proto__` is a file like any other.
  const files: Record<string, string> = Object.create(null);
  for (const t of unique()) {
    if (!t.exists) continue;
    const read = readTarget(t);
    for (const [name, known] of targets) if (known === t) targets.set(name, read.target);
    files[t.file] = read.text;
  }

  const read = applyRead({ format: formatName, files, response: reply }, reading);
  const { result } = read;

  // Work out every change (and check every path the result names) before writing anything.
  const changes: Change[] = [];
  const named: Target[] = [];
  for (const [file, after] of Object.entries(result.files)) {
    const t = target(file);
    const before = Object.hasOwn(files, t.file) ? files[t.file] : undefined;
    named.push(t);
    if (t.exists && before === undefined)
      throw new CliError(`engine result names ${file}, which exists but was not in the request; refusing to overwrite it`, EXIT_INTERNAL);
    if (after === null) {
      if (before !== undefined) changes.push({ target: t, action: 'delete', text: null, before });
    } else if (after !== before) {
      const change: Change = { target: t, action: before === undefined ? 'create' : 'modify', text: after, before: before ?? null };
      // A new name like an entry on disk the engine was not given (it warns about those it was).
      const like = before === undefined ? lookalikeEntry(base, t.file, listings) : null;
      if (like !== null && !Object.hasOwn(files, like)) change.warning = `confusable-path: ${confusableMessage(t.file, like)}`;
      changes.push(change);
    }
  }
  refuseTwoNames(named);
  return { result, cited: editsByIndex(read), changes, files };
}
