// The Bench page's worker: the run (requests, engine, scores), the tasks it
// takes (fetched from the site one file each, when first needed), and
// everything a run becomes (summaries, the JSON file, the share link, a
// comparison). The page holds plain data and draws; nothing here touches
// the DOM. The key arrives with `run` and is handed to runBench only.

import { expose, type ProxyOrClone } from 'comlink';
import LZString from 'lz-string';
import { familyOf, planOf, sectionFor, type FamilyKey, type PromptTable } from '../bench/prompts.ts';
import { exactCounter } from '../bench/count.ts';
import { cachedWriter, estimateRun, runBench } from '../bench/run.ts';
import { loadTokenizers } from '../tokens/index.ts';
import { selectTasks } from '../bench/select.ts';
import { best, summarize } from '../bench/summary.ts';
import { compareRuns, readRun, runJson, RUN_PREFIX } from '../bench/file.ts';
import { parseSuite, type BenchSuite, type BenchTask } from '../bench/tasks.ts';
import type { BenchConfig, BenchEvent, BenchReply, BenchRun, FormatPlan, FormatSummary } from '../bench/types.ts';
import { inflateUriComponent } from '../share/lz.ts';

export { RUN_PREFIX };
/** A share link holds at most this much JSON once inflated (a run file's own limit is readRun's). */
const MAX_LINK_JSON = 50_000_000;
/** What a link cut short (or altered) is said to be. */
const CUT = 'the link could not be decompressed; it may have been cut short';

/** What the page draws for a run. */
export interface RunView {
  run: BenchRun;
  summaries: FormatSummary[];
  best: ReturnType<typeof best>;
}

export type Opened = { ok: true; view: RunView } | { ok: false; error: string };

/** What the page hears while a run goes: its start, each retry, and each reply with the summaries so far (the run itself is `run`'s result). */
export type RunNews =
  | { type: 'start'; total: number }
  | { type: 'retry'; task: string; format: string; attempt: number; waitMs: number; message: string }
  | { type: 'reply'; reply: BenchReply; done: number; total: number; summaries: FormatSummary[]; best: ReturnType<typeof best> };

/** The prompt of each format for a model, as the page shows it before a run. */
export interface Prompts {
  /** The family the prompts are for (chosen, or from the model name). */
  family: FamilyKey;
  /** By format: its section's heading and texts, or null when its page has none for the family. */
  plans: Record<string, FormatPlan | null>;
}

let controller: AbortController | null = null;
/** Every format's prompt sections by family, as the page sent them (once per worker: `prompts` with a table). */
let promptTable: PromptTable | null = null;

/** The site's bench task files (src/pages/bench/tasks/): the ids in suite order, and one file per task. */
const TASKS_URL = `${import.meta.env.BASE_URL.replace(/\/?$/, '/')}bench/tasks/`;

let index: Promise<string[]> | null = null;
const loaded = new Map<string, Promise<BenchTask>>();
/** The engine's own reply for each task and format and its trial apply, made once (the estimate asks at every change of the form, the run again). */
const write = cachedWriter();

async function getJson(url: string, what: string): Promise<unknown> {
  const r = await fetch(url, { credentials: 'same-origin' });
  if (!r.ok) throw new Error(`${what} could not be loaded (HTTP ${r.status})`);
  return r.json() as Promise<unknown>;
}

/** The suite's task ids, in suite order (fetched once). */
function taskIndex(): Promise<string[]> {
  index ??= getJson(`${TASKS_URL}index.json`, 'the task list')
    .then((ids) => {
      if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) throw new Error('the task list is not a list of task ids');
      return ids as string[];
    })
    .catch((e: unknown) => {
      index = null;
      throw e;
    });
  return index;
}

/** One task (fetched once, checked like the suite). */
function loadTask(id: string): Promise<BenchTask> {
  let task = loaded.get(id);
  if (!task) {
    task = getJson(`${TASKS_URL}${encodeURIComponent(id)}.json`, `task ${id}`).then((data) => {
      const [t] = parseSuite(data).tasks;
      if (!t || t.id !== id) throw new Error(`the file of task ${id} holds another task`);
      return t;
    });
    task.catch(() => loaded.delete(id));
    loaded.set(id, task);
  }
  return task;
}

/** The tasks of a choice, in suite order (throws naming an unknown id): only those are fetched. */
async function chosenTasks(spec: 'quick' | 'all' | readonly string[]): Promise<BenchTask[]> {
  const ids = await taskIndex();
  const stubs: BenchSuite = { version: 1, tasks: ids.map((id) => ({ id }) as BenchTask) };
  return Promise.all(selectTasks(stubs, spec).map((t) => loadTask(t.id)));
}

function view(run: BenchRun): RunView {
  const summaries = summarize(run);
  return { run, summaries, best: best(summaries) };
}

/** A run as it stands while replies arrive (enough for its summaries). */
function partial(config: BenchConfig, engine: string, started: string, replies: BenchRun['replies']): BenchRun {
  return { version: 1, engine, started, finished: null, stopped: false, config, replies };
}

const api = {
  /**
   * Each format's prompt for `model`, in the chosen family or the model's own.
   * `table` is sent with the first call (and whenever it changes); later calls
   * leave it out and the worker uses the one it holds. Throws when it holds none.
   */
  prompts(formats: string[], model: string, family: FamilyKey | 'auto', table?: PromptTable): Prompts {
    if (table) promptTable = table;
    if (!promptTable) throw new Error('the bench worker has no prompt table: send it with the first call');
    const key = family === 'auto' ? familyOf(model) : family;
    const plans: Record<string, FormatPlan | null> = {};
    for (const format of formats) {
      const section = sectionFor(promptTable, format, key, model);
      plans[format] = section ? planOf(format, section) : null;
    }
    return { family: key, plans };
  },

  /** Requests and tokens a run would take. */
  async estimate(config: BenchConfig): Promise<{ requests: number; skipped: number; input: number; output: number; method: string }> {
    return estimateRun(config, await chosenTasks(config.tasks), write);
  },

  /** Run the bench; `news` hears how it goes. Resolves with the run (stopped or not). */
  async run(config: BenchConfig, key: string, engine: string, allowed: string[], news: ProxyOrClone<(n: RunNews) => void>): Promise<RunView> {
    if (controller) throw new Error('a run is already going');
    // Stop works from the start, while the suite loads too.
    const own = new AbortController();
    controller = own;
    let tasks;
    try {
      tasks = await chosenTasks(config.tasks);
    } catch (e) {
      controller = null;
      throw e;
    }
    const started = new Date().toISOString();
    const replies: BenchRun['replies'] = [];
    const tell = news as unknown as (n: RunNews) => void;
    const onEvent = (e: BenchEvent) => {
      switch (e.type) {
        case 'start':
          tell({ type: 'start', total: e.total });
          break;
        case 'retry':
          tell(e);
          break;
        case 'reply':
          replies.push(e.reply);
          {
            const summaries = summarize(partial(config, engine, started, replies));
            tell({ type: 'reply', reply: e.reply, done: e.done, total: e.total, summaries, best: best(summaries) });
          }
          break;
        case 'request':
        case 'text':
        case 'end':
          break;
      }
    };
    try {
      // A reply whose API reported no usage is counted with the model's own tokenizer where one runs here
      // (loaded on first use, a separate chunk), else estimated.
      const run = await runBench({ config, tasks, key, engine, signal: own.signal, onEvent, allowed, count: exactCounter(loadTokenizers), write });
      return view(run);
    } finally {
      controller = null;
    }
  },

  /** Stop the run: unstarted requests are not sent, those in flight are cut. */
  stop(): void {
    controller?.abort();
  },

  /** Read an opened run file (untrusted). */
  open(json: string): Opened {
    const read = readRun(json);
    return read.ok ? { ok: true, view: view(read.run) } : { ok: false, error: read.error };
  },

  /** The run as the JSON file Download saves. */
  json(run: BenchRun): string {
    return runJson(run);
  },

  /** The hash of the run's share link (without `#`). */
  link(run: BenchRun): string {
    return RUN_PREFIX + LZString.compressToEncodedURIComponent(runJson(run));
  },

  /** Read a share link's hash (untrusted; with or without `#`). */
  readLink(hash: string): Opened {
    const raw = hash.replace(/^#/, '');
    if (!raw.startsWith(RUN_PREFIX)) return { ok: false, error: 'the link holds no bench run (its address should end in #run=…)' };
    const packed = raw.slice(RUN_PREFIX.length);
    if (!/^[A-Za-z0-9+\-$_]*$/.test(packed)) return { ok: false, error: 'the link contains characters a run link never has; it may have been cut or altered' };
    const inflated = inflateUriComponent(packed, MAX_LINK_JSON);
    if (!inflated.ok || inflated.text === '')
      return { ok: false, error: !inflated.ok && inflated.reason === 'too-large' ? 'the run in the link is too large' : CUT };
    const read = readRun(inflated.text);
    if (read.ok) return { ok: true, view: view(read.run) };
    // A link cut short may still inflate, into a fragment of the JSON: that is a cut link too.
    if (read.notJson) return { ok: false, error: CUT };
    return { ok: false, error: `the run in the link is not valid: ${read.error}` };
  },

  /** What changed from run `a` to run `b`. */
  compare(a: BenchRun, b: BenchRun): ReturnType<typeof compareRuns> {
    return compareRuns(a, b);
  },
};

export type BenchApi = typeof api;

expose(api);
