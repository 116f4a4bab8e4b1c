// Take the result away: copy the shown file's result, download it (or every
// changed file as a zip), copy or download the whole change as one unified
// diff. The buttons live in a container the page gives; the page says when a
// new result (or another shown file) is there, by refresh(). The diff and
// the zip are made in a worker whose client loads on the first click that
// needs it, so the page's first load does not carry them.

import { copyText, h, saveFile } from '../dom.ts';
import { actionStates, downloadName, PATCH_NAME, ZIP_NAME, type Action, type FileText } from './plan.ts';
import './takeaway.css';

export interface TakeawayHooks {
  /** The last result, or null: for every file, its text before (null: the file is new) and after (null: deleted). */
  files(): FileText[] | null;
  /** The file shown in the merge view (null: none). */
  shown(): string | null;
  /** Say something in the page's status line. */
  say(text: string): void;
}

export interface Takeaway {
  /** Enable or disable the buttons for the current result and shown file. */
  refresh(): void;
}

const LABELS: Record<Action, string> = {
  copy: 'Copy result',
  download: 'Download',
  zip: 'Download changed files',
  copyDiff: 'Copy diff',
  downloadDiff: 'Download diff',
};

const ORDER: Action[] = ['copy', 'download', 'zip', 'copyDiff', 'downloadDiff'];

/** What the status line says while a slow diff or zip is being made. */
const WORKING: Partial<Record<Action, string>> = { zip: 'Making the zip…', copyDiff: 'Making the diff…', downloadDiff: 'Making the diff…' };
/** Say it only when the work takes longer than this (milliseconds). */
const WORKING_AFTER_MS = 300;

/** Save bytes or text as a file through a temporary link to an object URL. */
const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const list = (names: string[]) => names.join(', ');

export function mountTakeaway(container: HTMLElement, hooks: TakeawayHooks): Takeaway {
  container.classList.add('pg-takeaway');
  const busy = new Set<Action>();
  const buttons = {} as Record<Action, HTMLButtonElement>;
  for (const action of ORDER) {
    buttons[action] = h('button', { attrs: { type: 'button', 'data-action': action }, on: { click: () => void run(action) } }, LABELS[action]);
  }
  container.replaceChildren(...ORDER.map((a) => buttons[a]));

  function refresh(): void {
    const states = actionStates(hooks.files(), hooks.shown());
    for (const action of ORDER) {
      const button = buttons[action];
      const state = states[action];
      // aria-disabled, not disabled: the button stays focusable, its title (the reason) is read, and a click says it.
      button.setAttribute('aria-disabled', String(!state.enabled));
      button.title = state.title;
      button.hidden = state.hidden;
    }
  }

  async function run(action: Action): Promise<void> {
    if (busy.has(action)) return;
    const files = hooks.files();
    const shown = hooks.shown();
    const state = actionStates(files, shown)[action];
    if (!state.enabled || !files) {
      hooks.say(state.title);
      refresh();
      return;
    }
    busy.add(action);
    buttons[action].setAttribute('aria-busy', 'true');
    const working = WORKING[action];
    const timer = working ? setTimeout(() => hooks.say(working), WORKING_AFTER_MS) : undefined;
    try {
      await act(action, files, shown);
    } finally {
      clearTimeout(timer);
      busy.delete(action);
      buttons[action].removeAttribute('aria-busy');
    }
  }

  async function act(action: Action, files: FileText[], shown: string | null): Promise<void> {
    const file = files.find((f) => f.name === shown);
    switch (action) {
      case 'copy': {
        if (!file || file.after === null) return;
        const ok = await copyText(file.after);
        hooks.say(ok ? `Copied ${file.name} as the reply leaves it.` : `Could not copy ${file.name}; use Download.`);
        return;
      }
      case 'download': {
        if (!file || file.after === null) return;
        const name = downloadName(file.name);
        saveFile(name, file.after, 'application/octet-stream');
        hooks.say(`Downloaded ${file.name} as ${name}.`);
        return;
      }
      case 'zip': {
        let out;
        try {
          const { makeZip } = await import('./client.ts');
          out = await makeZip(files);
        } catch {
          hooks.say('Could not make the zip.');
          return;
        }
        saveFile(ZIP_NAME, out.bytes as Uint8Array<ArrayBuffer>, 'application/zip');
        const gone = out.deleted.length ? ` Not in it, as the reply deletes ${out.deleted.length === 1 ? 'it' : 'them'}: ${list(out.deleted)}.` : '';
        hooks.say(`Downloaded ${count(out.names.length, 'file')} as ${ZIP_NAME}.${gone}`);
        return;
      }
      case 'copyDiff':
      case 'downloadDiff': {
        let patch: string;
        try {
          const { makePatch } = await import('./client.ts');
          patch = await makePatch(files);
        } catch {
          hooks.say('Could not make the diff.');
          return;
        }
        const n = count(files.filter((f) => f.before !== f.after).length, 'file');
        if (action === 'downloadDiff') {
          saveFile(PATCH_NAME, patch, 'text/x-diff');
          hooks.say(`Downloaded the diff of ${n} as ${PATCH_NAME}.`);
        } else {
          const ok = await copyText(patch);
          hooks.say(ok ? `Copied the diff of ${n}.` : 'Could not copy the diff; use Download diff.');
        }
        return;
      }
    }
  }

  refresh();
  return { refresh };
}
