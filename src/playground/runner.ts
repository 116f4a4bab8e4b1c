// Running the engine: every change of the input is sent to the worker as
// the change itself (the worker keeps the documents), small inputs run at
// once (one run in flight, the newest waiting, so fast typing coalesces by
// itself), and the running indicator, timeouts and crashes are reported.
// In a large session the result view follows typing once it pauses: a run
// made for keystrokes asks for no result view content, and the view is
// brought up to date after the pause (src/session/pause.ts).

import { ChangeSet } from '@codemirror/state';
import { ViewPlugin, type EditorView } from '@codemirror/view';
import type { Extension } from '@codemirror/state';
import type { EngineOptions } from '../core/types.ts';
import { ENGINE_DEFAULTS } from '../core/defaults.ts';
import type { DocSync, MergeAsk, MergeOutput, RunInput, RunOutput } from '../worker/protocol.ts';
import { EngineClient, type EngineEvent } from './engine-client.ts';
import { RunIndicator } from './guard.ts';
import { LIMITS } from '../session/session.ts';
import { KEYSTROKE_CHARS, MERGE_PAUSE, MERGE_WAITS_FROM, pauseFor } from '../session/pause.ts';
import { sizeText } from './present.ts';
import type { PageState, Run } from './state.ts';
import type { Elements } from './elements.ts';
import type { Notices } from './notices.ts';

/** The engine's own defaults: an option left at its default is not written into the request or the link. */
const DEFAULT_OPTIONS = ENGINE_DEFAULTS;

/** The reply's document id in the worker (files use their tab's id, from 1). */
export const REPLY_DOC = 0;

/** What the engine worker has of each document: the text it was last sent, and the changes made here since. */
class DocSender {
  private readonly pending = new Map<number, ChangeSet>();
  /** Documents the worker has (sent whole once, then kept up by changes). */
  private readonly known = new Set<number>();

  /** A document changed by these changes. */
  changed(id: number, changes: ChangeSet): void {
    if (!this.known.has(id)) return; // it goes whole anyway
    const before = this.pending.get(id);
    this.pending.set(id, before ? before.compose(changes) : changes);
  }

  /** Send this document whole next time (it was replaced). */
  replaced(id: number): void {
    this.known.delete(id);
    this.pending.delete(id);
  }

  /** Send every document whole next time (a new worker, a new session). */
  reset(): void {
    this.known.clear();
    this.pending.clear();
  }

  /** What to send now for these documents; what is taken is no longer pending. */
  take(views: Map<number, EditorView>): Record<number, DocSync> {
    const out: Record<number, DocSync> = {};
    for (const [id, view] of views) {
      if (!this.known.has(id)) {
        out[id] = { set: view.state.doc.toString() };
        this.known.add(id);
      } else {
        const changes = this.pending.get(id);
        if (changes && !changes.empty) out[id] = { changes: changes.toJSON() as never };
      }
    }
    for (const id of [...this.known]) if (!views.has(id)) this.known.delete(id);
    this.pending.clear();
    return out;
  }
}

export interface RunnerHooks {
  reply(): EditorView;
  /** A run came back. */
  result(run: { input: RunInput; output: RunOutput; seq: number }): void;
  /** The result view's content for another file came back. */
  merge(output: MergeOutput | null): void;
  /** The input changed (the link and the saved copy follow). */
  changed(): void;
  /** The merge view's wish for the next run. */
  mergeAsk(): MergeAsk;
  /** The file whose model's-eye view to compute. */
  viewFile(): string | null;
}

/** Characters a change set inserts and deletes (counted up to `most`). */
export function changedChars(changes: ChangeSet, most = Infinity): number {
  let n = 0;
  changes.iterChangedRanges((fromA, toA, fromB, toB) => {
    if (n <= most) n += toA - fromA + (toB - fromB);
  });
  return n;
}

export class Runner {
  readonly engine: EngineClient;
  readonly indicator: RunIndicator;
  private readonly docs = new DocSender();
  /** A run is queued for the end of the current task (`schedule`). */
  private queued = false;
  /** The `changeSeq` of the run in flight's input. */
  private inflightSeq = -1;
  /** Since the last run was sent: documents changed by keystrokes only (no paste, no replaced document). */
  private keystrokes = false;
  /** …and by something larger than a keystroke. */
  private largerChange = false;
  /** Brings the result view up to date once typing pauses. */
  private mergeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Runs sent so far (each run's number). */
  private runs = 0;

  constructor(
    private readonly state: PageState,
    private readonly ui: Elements,
    private readonly notices: Notices,
    private readonly hooks: RunnerHooks,
    testHooks: boolean,
  ) {
    this.engine = new EngineClient((e) => this.onEvent(e), () => this.docs.reset(), testHooks);
    this.indicator = new RunIndicator(() => this.engine.cancel());
    ui.engine.after(this.indicator.el);
  }

  /** A document changed by a transaction of the user's (not while a session loads). */
  changed(id: number, changes: ChangeSet): void {
    this.docs.changed(id, changes);
    if (changedChars(changes, KEYSTROKE_CHARS) > KEYSTROKE_CHARS) this.largerChange = true;
    else this.keystrokes = true;
  }

  /** A document was replaced outright (send it whole). */
  replaced(id: number): void {
    this.docs.replaced(id);
    this.largerChange = true;
  }

  /** Every document is sent whole next time. */
  resetDocs(): void {
    this.docs.reset();
    this.largerChange = true;
  }

  /**
   * An editor's document changed (called while the editor updates, before it
   * redraws): a keystroke the user typed or deleted is sent to the engine at
   * once, so that the engine works while the editor draws it; any other
   * change as `schedule` says.
   */
  edited(id: number, changes: ChangeSet, byKeystroke: boolean): void {
    this.changed(id, changes);
    if (byKeystroke && changedChars(changes, KEYSTROKE_CHARS) <= KEYSTROKE_CHARS) this.schedule(true);
    else this.schedule();
  }

  /**
   * The input changed: run as soon as the code that changed it is done (the
   * same task: the engine works while the page draws the keystroke), or after
   * the run in flight. Changes made together go in one run. With `now`, the
   * run is sent (or waits for the run in flight) before this returns.
   */
  schedule(now = false): void {
    this.state.changeSeq++;
    // A run is coming: it asks for the result view's content itself, or waits again.
    clearTimeout(this.mergeTimer);
    this.mergeTimer = undefined;
    if (now) this.runNow();
    else if (!this.queued) {
      this.queued = true;
      queueMicrotask(() => {
        if (this.queued) this.runNow();
      });
    }
    this.hooks.changed();
  }

  /**
   * Whether the run being sent leaves the result view as it is: keystrokes
   * (and nothing larger) in a session of `size` characters at least
   * `MERGE_WAITS_FROM`. The view is then brought up to date once typing
   * pauses for `MERGE_PAUSE`.
   */
  private mergeWaits(size: number): boolean {
    const waits = this.keystrokes && !this.largerChange && size >= MERGE_WAITS_FROM && this.state.merge !== null;
    this.keystrokes = false;
    this.largerChange = false;
    clearTimeout(this.mergeTimer);
    this.mergeTimer = waits ? setTimeout(() => this.showFile(), pauseFor(size, MERGE_PAUSE)) : undefined;
    return waits;
  }

  currentOptions(): EngineOptions | undefined {
    const { ui } = this;
    const o: EngineOptions = {};
    if (!ui.optWhitespace.checked) o.whitespace = false;
    if (!ui.optFuzzy.checked) o.fuzzy = false;
    const t = Number(ui.optThreshold.value);
    if (ui.optThreshold.value !== '' && Number.isFinite(t) && t >= 0 && t <= 1 && t !== DEFAULT_OPTIONS.fuzzyThreshold) o.fuzzyThreshold = t;
    const w = Number(ui.optWindow.value);
    if (ui.optWindow.value !== '' && Number.isInteger(w) && w >= 0 && w !== DEFAULT_OPTIONS.window) o.window = w;
    return Object.keys(o).length ? o : undefined;
  }

  setOptions(o: EngineOptions | undefined): void {
    const { ui } = this;
    ui.optWhitespace.checked = o?.whitespace ?? DEFAULT_OPTIONS.whitespace;
    ui.optFuzzy.checked = o?.fuzzy ?? DEFAULT_OPTIONS.fuzzy;
    ui.optThreshold.value = String(o?.fuzzyThreshold ?? DEFAULT_OPTIONS.fuzzyThreshold);
    ui.optWindow.value = String(o?.window ?? DEFAULT_OPTIONS.window);
  }

  /** Send the input to the engine (after the run in flight, if any). */
  runNow(): void {
    this.queued = false;
    const { state } = this;
    const reply = this.hooks.reply();
    const total = state.tabs.reduce((n, t) => n + t.view.state.doc.length, reply.state.doc.length);
    if (total > LIMITS.text) {
      this.notices.alert('input', `The input is too large to run: ${sizeText(total)} (the playground takes up to ${sizeText(LIMITS.text)}). Make the files or the reply smaller.`);
      return;
    }
    this.notices.alert('input', null);
    this.engine.run(() => {
      // Made when sent: every change up to now travels with it.
      const views = new Map<number, EditorView>([[REPLY_DOC, this.hooks.reply()], ...state.tabs.map((t) => [t.id, t.view] as [number, EditorView])]);
      const options = this.currentOptions();
      let size = 0;
      for (const view of views.values()) size += view.state.doc.length;
      const input: RunInput = {
        docs: this.docs.take(views),
        files: state.tabs.map((t) => ({ doc: t.id, name: t.name })),
        reply: REPLY_DOC,
        format: state.format,
        ...(options ? { options } : {}),
        viewFile: this.hooks.viewFile(),
        merge: this.mergeWaits(size) ? null : this.hooks.mergeAsk(),
        run: ++this.runs,
      };
      this.inflightSeq = state.changeSeq;
      return input;
    });
  }

  /**
   * The digest of the shown result when it belongs to the current input
   * (nothing changed since), else null. Made by the worker when first asked
   * (a link records it), not with every run.
   */
  digest(): Promise<string | null> {
    const last = this.state.last;
    return last && last.seq === this.state.changeSeq ? this.digestOf(last) : Promise.resolve(null);
  }

  /** The digest of a run's result (null when the engine threw on it, or the worker has run since). */
  digestOf(run: Run): Promise<string | null> {
    if (run.output.result === null) return Promise.resolve(null);
    // Kept once had; a null (no answer in time, a restarted worker) is asked for again next time.
    return (run.digest ??= this.engine.digest(run.input.run).then((digest) => {
      if (digest === null) run.digest = undefined;
      return digest;
    }));
  }

  /** Ask for the result view's content of another file (from the last run). */
  showFile(): void {
    this.engine.merge(() => this.hooks.mergeAsk());
  }

  private busy(on: boolean): void {
    if (on) {
      this.indicator.start();
      this.ui.diagnostics.setAttribute('aria-busy', 'true');
    } else {
      this.indicator.stop();
      this.ui.diagnostics.removeAttribute('aria-busy');
    }
  }

  private onEvent(event: EngineEvent): void {
    const { ui, notices } = this;
    switch (event.kind) {
      case 'running':
        this.busy(true);
        ui.engine.textContent = 'Engine: running…';
        break;
      case 'result':
        notices.alert('engine', null);
        this.hooks.result({ input: event.input, output: event.output, seq: this.inflightSeq });
        break;
      case 'merge':
        this.hooks.merge(event.output);
        break;
      case 'timeout':
        this.busy(false);
        ui.engine.textContent = 'Engine: stopped';
        notices.alert(
          'engine',
          `The engine took longer than ${(this.engine.timeoutMs / 1000).toFixed(0)} s on this input and was stopped; a fresh worker was started. ` +
            'The results shown are from the last run that finished. Change the input to run it again.',
        );
        break;
      case 'crash':
        this.busy(false);
        ui.engine.textContent = 'Engine: restarted';
        notices.alert('engine', `The engine worker crashed (${event.message}) and was replaced by a new one. Change the input to run it again.`);
        break;
      case 'cancelled':
        this.busy(false);
        ui.engine.textContent = 'Engine: cancelled';
        notices.say('Run cancelled; the engine was restarted. Your text is unchanged. Change the input to run it again.');
        break;
      case 'idle':
        this.busy(false);
        if (ui.engine.textContent === 'Engine: running…') ui.engine.textContent = 'Engine: ready';
        break;
    }
  }
}

/**
 * The extension that tells the runner of an editor's changes (`Runner.edited`)
 * while the editor updates, before it draws them: a change the user typed or
 * deleted goes to the engine before the editor's own work on it. `follow`
 * says whether changes count now (not while a session loads).
 */
export function followEdits(runner: () => Runner, id: () => number, follow: () => boolean): Extension {
  return ViewPlugin.define(() => ({
    update(u) {
      if (!u.docChanged || !follow()) return;
      const byKeystroke = u.transactions.some((tr) => tr.isUserEvent('input.type') || tr.isUserEvent('delete'));
      try {
        runner().edited(id(), u.changes, byKeystroke);
      } catch (e) {
        // Thrown out of the editor's update, CodeMirror would drop this plugin, and the engine's copy would fall behind.
        setTimeout(() => {
          throw e;
        });
      }
    },
  }));
}
