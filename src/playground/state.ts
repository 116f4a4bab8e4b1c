// The playground's state: one object, owned by the page and passed to the
// modules that read or change it (src/playground/main.ts wires them).
// Everything else a module keeps is its own private detail.

import type { EditorView } from '@codemirror/view';
import type { EditResult } from '../core/types.ts';
import type { MergeOutput, RunInput, RunOutput } from '../worker/protocol.ts';

/** A source file: its tab, its editor, and the id of its document in the engine worker. */
export interface Tab {
  id: number;
  name: string;
  view: EditorView;
  panel: HTMLElement;
}

/** A finished run: what was sent and what came back. */
export interface Run {
  input: RunInput;
  output: RunOutput;
  /** The `changeSeq` the input was made at (the input is current while it is the page's). */
  seq: number;
  /** Its result's digest, once asked for (`Runner.digest`). */
  digest?: Promise<string | null>;
}

export interface PageState {
  tabs: Tab[];
  /** Index of the shown tab (-1: none). */
  active: number;
  /** The format asked for (`auto` or a format's name). */
  format: string;
  /** The selected edit's index. */
  selected: number | null;
  /** The last run that came back. */
  last: Run | null;
  /** Bumped by every change of the engine's input. */
  changeSeq: number;
  /** The file the user chose for the result view (a tab, the menu, an edit); null: the engine's first file, one the reply changes if any. */
  resultFile: string | null;
  /** What the result view shows now (null: nothing yet). */
  merge: MergeOutput | null;
  /** Loading a session replaces documents: their change events are not edits. */
  loading: boolean;
  /** The session's prompt (shown read-only; a live run records the one it sent). */
  sessionPrompt: string | null;
}

export function createState(): PageState {
  return {
    tabs: [],
    active: -1,
    format: 'auto',
    selected: null,
    last: null,
    changeSeq: 0,
    resultFile: null,
    merge: null,
    loading: false,
    sessionPrompt: null,
  };
}

/** The shown tab, if any. */
export const activeTab = (state: PageState): Tab | null => (state.active >= 0 ? (state.tabs[state.active] ?? null) : null);

/** Every source file's current text, by name. */
export function currentFiles(state: PageState): Record<string, string> {
  const files: Record<string, string> = {};
  for (const tab of state.tabs) files[tab.name] = tab.view.state.doc.toString();
  return files;
}

/** An edit of the last result, by index. */
export function findEdit(state: PageState, index: number | null): EditResult | undefined {
  return index === null ? undefined : state.last?.output.result?.edits.find((e) => e.index === index);
}

/** The names of the last result's files (the request's, then new ones). */
export const resultNames = (state: PageState): string[] => state.last?.output.files.map((f) => f.name) ?? [];
