// The bench run end to end, against the scripted server on the test clock:
// every behaviour (right, line numbers one off, a typo, a lazy elision, a
// broken marker, cut off, prose only, a 429 then the reply, a stall) for
// three tasks in six formats over both APIs, each score asserted exactly
// from what the behaviour does; the quick tasks answered right; Stop in the
// middle; the concurrency limit; the key kept out of everything but a header.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BENCH_FORMATS, QUICK_TASKS, selectTasks } from '../../src/bench/select.ts';
import { benchMessage } from '../../src/bench/message.ts';
import { readRun, runJson } from '../../src/bench/file.ts';
import { estimateRun } from '../../src/bench/run.ts';
import { taskChanges } from '../../src/bench/tasks.ts';
import { writeWith } from '../../src/formats/compare.ts';
import { getFormat } from '../../src/formats/index.ts';
import type { BenchApi, BenchReply, ReplyScore } from '../../src/bench/types.ts';
import { bench, IDLE_MS, KEY, plansFor, suite, task } from './harness.ts';
import { BEHAVIOURS, scriptedReply, type Behaviour } from './replies.ts';

const APIS: BenchApi[] = ['openai', 'anthropic'];
const TASKS = ['ms-index', 'normalize-css', 'nan-doc-string-bytes'];
// hashline is a tool-call format (a JSON call per edit), as is str-replace.
const FORMATS = ['ln-diff', 'search-replace', 'udiff', 'whole', 'hashline', 'str-replace'];

/**
 * Edits in the writer's reply, read off it by hand: ms-index changes one
 * line; normalize-css has two hunks (the version comment, the new `main`
 * rule); nan-doc-string-bytes three (a list entry, a note, a new section).
 * `whole` writes each file once, so one edit per file.
 */
const EDITS: Record<string, Record<string, number>> = {
  'ms-index': { 'ln-diff': 1, 'search-replace': 1, udiff: 1, whole: 1, hashline: 1, 'str-replace': 1 },
  'normalize-css': { 'ln-diff': 2, 'search-replace': 2, udiff: 2, whole: 1, hashline: 2, 'str-replace': 2 },
  'nan-doc-string-bytes': { 'ln-diff': 3, 'search-replace': 3, udiff: 3, whole: 1, hashline: 3, 'str-replace': 3 },
};

/**
 * The edit (1-based) holding the first added line the behaviours spoil:
 * normalize-css's new version comment is in its first edit; nan-doc's first
 * added line without a quote is the note of its second hunk (the list entry
 * before it holds quotes).
 */
const SPOILT: Record<string, number> = { 'ms-index': 1, 'normalize-css': 1, 'nan-doc-string-bytes': 2 };

/** The code a broken marker gives in each format. */
const BROKEN: Record<string, string> = {
  'ln-diff': 'unnumbered-remove-line', // a REMOVE line without its number
  'search-replace': 'missing-divider', // SEARCH with no =======
  udiff: 'malformed', // a hunk line that is neither context, - nor +
  whole: 'truncated', // a fence never closed
  hashline: 'malformed', // a JSON call without its closing brace
  'str-replace': 'malformed',
};

/** Formats whose replies cite line numbers the engine checks (off-by-one moves them). */
const NUMBERED = ['ln-diff', 'udiff'];

const score = (over: Partial<Omit<ReplyScore, 'matches'>> & { matches?: Partial<ReplyScore['matches']> }): ReplyScore => ({
  parsed: true,
  applied: true,
  exact: true,
  edits: 0,
  codes: {},
  warnings: {},
  ...over,
  matches: { exact: 0, offset: 0, whitespace: 0, fuzzy: 0, failed: 0, ...over.matches },
});

/** The score a behaviour must give, from what it does to the reply. */
function expected(id: string, format: string, behaviour: Behaviour): ReplyScore {
  const n = EDITS[id][format];
  const k = format === 'whole' ? 1 : SPOILT[id];
  switch (behaviour) {
    case 'right':
    case '429-then-ok':
      return score({ edits: n, matches: { exact: n } });
    case 'off-by-one':
      // Cited lines one off: found one line away (an offset match), same result.
      if (NUMBERED.includes(format)) return score({ edits: n, matches: { offset: n } });
      // hashline's tag is a hash of the line it names: the line one on has another tag, so every edit is refused.
      if (format === 'hashline') return score({ applied: false, exact: false, edits: n, matches: { failed: n }, codes: { 'tag-mismatch': n } });
      // The other formats cite no numbers: the reply is the right one.
      return score({ edits: n, matches: { exact: n } });
    case 'typo':
      // The typo is in a new line: it applies, the file is not the target.
      return score({ exact: false, edits: n, matches: { exact: n } });
    case 'elided':
      return score({ applied: false, exact: false, edits: n, matches: { exact: n - 1, failed: 1 }, codes: { elided: 1 } });
    case 'broken-fence': {
      // The first edit's structure is broken: it fails; the others apply.
      return score({ applied: false, exact: false, edits: n, matches: { exact: n - 1, failed: 1 }, codes: { [BROKEN[format]]: 1 } });
    }
    case 'cut-off':
    case 'stalled':
      // Cut inside edit k: the edits before it apply, it is truncated, none after it exists.
      return score({ applied: false, exact: false, edits: k, matches: { exact: k - 1, failed: 1 }, codes: { truncated: 1 } });
    case 'prose-only':
      return score({ parsed: false, applied: false, exact: false, edits: 0, warnings: { 'no-edits': 1 } });
  }
}

const tasks = TASKS.map(task);

function checkReply(api: BenchApi, behaviour: Behaviour, r: BenchReply): void {
  const where = `${api} ${behaviour} ${r.task} ${r.format}`;
  assert.deepEqual(r.score, expected(r.task, r.format, behaviour), where);
  const want = scriptedReply(task(r.task), r.format, behaviour);
  assert.equal(r.reply, want.sent === undefined ? want.text : want.text.slice(0, want.sent), where);
  const failed = r.score.matches.failed > 0;
  if (failed) assert.match(r.retry ?? '', /^Your edit #\d+ to \S+ was not applied \(/, where);
  else assert.equal(r.retry, null, where);
  assert.equal(r.attempts, behaviour === '429-then-ok' ? 2 : 1, where);
  if (behaviour === 'stalled') {
    assert.equal(r.status, 'stalled', where);
    assert.match(r.error ?? '', /sent nothing for 600 s/, where);
    // The stream never reached its counts (Anthropic's input count alone does not make a pair): estimated.
    const plan = plansFor(api, [r.format])[0];
    const user = benchMessage(task(r.task), getFormat(r.format)!, plan.reminder);
    assert.deepEqual(r.tokens, { input: Math.ceil((plan.system.length + user.length) / 4), output: Math.ceil(r.reply.length / 4), method: 'estimate' }, where);
    assert.equal(r.ms.total, IDLE_MS, where);
  } else {
    assert.equal(r.status, 'done', where);
    assert.equal(r.error, null, where);
    assert.deepEqual(r.tokens, { input: 1234, output: 56, method: 'usage' }, where);
    // No time passes within a request on the test clock (the 429 runs move it for every job's wait, so they are left out).
    if (behaviour !== '429-then-ok') assert.deepEqual(r.ms, { firstToken: 0, total: 0 }, where);
  }
}

for (const api of APIS) {
  describe(`bench run over the ${api} API`, () => {
    for (const behaviour of BEHAVIOURS) {
      it(`scores "${behaviour}" exactly for ${TASKS.length} tasks in ${FORMATS.length} formats`, async () => {
        const { run, events, server } = await bench({ api, tasks, formats: FORMATS, behaviour: () => behaviour });
        assert.equal(run.stopped, false);
        assert.deepEqual(
          run.replies.map((r) => `${r.task} ${r.format}`),
          TASKS.flatMap((t) => FORMATS.map((f) => `${t} ${f}`)),
          'replies in task-then-format order',
        );
        for (const r of run.replies) checkReply(api, behaviour, r);
        const posts = server.posts();
        assert.equal(posts.length, TASKS.length * FORMATS.length * (behaviour === '429-then-ok' ? 2 : 1));
        const retries = events.filter((e) => e.type === 'retry');
        if (behaviour === '429-then-ok') {
          assert.equal(retries.length, TASKS.length * FORMATS.length);
          for (const e of retries) {
            assert.equal(e.waitMs, 1000, 'Retry-After: 1');
            assert.equal(e.attempt, 2);
            assert.match(e.message, /HTTP 429/);
          }
        } else assert.equal(retries.length, 0);
        const end = events.at(-1);
        assert.equal(end?.type, 'end');
        assert.equal(events[0].type, 'start');
        assert.equal(events.filter((e) => e.type === 'reply').length, run.replies.length);
      });
    }
  });
}

describe('bench run: the quick tasks', () => {
  it('every bench format can say every quick task (the writer round-trips it byte for byte)', () => {
    for (const t of selectTasks(suite, 'quick'))
      for (const name of BENCH_FORMATS) {
        const written = writeWith(getFormat(name)!, taskChanges(t));
        assert.equal(written.roundTrip, 'ok', `${t.id} in ${name}: ${written.problem ?? ''}`);
      }
  });

  it('selects the eight quick tasks and scores the writer\'s own replies exact in every format asked', async () => {
    const quick = selectTasks(suite, 'quick');
    assert.deepEqual(new Set(quick.map((t) => t.id)), new Set(QUICK_TASKS));
    const { run } = await bench({ api: 'openai', tasks: quick, formats: ['ln-diff', 'udiff', 'whole'], behaviour: () => 'right', concurrency: 4 });
    assert.equal(run.replies.length, 24);
    assert.equal(run.skipped, undefined);
    for (const r of run.replies) {
      assert.equal(r.status, 'done', r.task);
      assert.deepEqual([r.score.parsed, r.score.applied, r.score.exact, r.score.matches.failed], [true, true, true, 0], `${r.task} ${r.format}`);
    }
  });
});

describe('bench run: changes a format cannot say', () => {
  // bcrypt-ci deletes a file (ln-diff and whole have no way to); ts-lib-es2019-intl creates a file that mixes CR LF
  // and LF lines (no format can say which line break each new line ends with); ts-lib-promise mixes them in an
  // existing file, which every format can say (unchanged lines keep their own).
  const tasks = [task('bcrypt-ci'), task('ts-lib-es2019-intl'), task('ts-lib-promise')];
  const formats = ['ln-diff', 'udiff', 'whole'];

  it('are not asked: listed with the writer\'s reason, out of the requests, the estimate and the rates', async () => {
    const { run, server } = await bench({ api: 'openai', tasks, formats, behaviour: () => 'right', concurrency: 2 });
    assert.deepEqual(
      run.skipped?.map((p) => `${p.task} ${p.format}`),
      ['bcrypt-ci ln-diff', 'bcrypt-ci whole', 'ts-lib-es2019-intl ln-diff', 'ts-lib-es2019-intl udiff', 'ts-lib-es2019-intl whole'],
    );
    assert.match(run.skipped![0].reason, /does not carry deleting a file/);
    assert.match(run.skipped![2].reason, /does not carry which line break/);
    assert.deepEqual(run.replies.map((r) => `${r.task} ${r.format}`), ['bcrypt-ci udiff', 'ts-lib-promise ln-diff', 'ts-lib-promise udiff', 'ts-lib-promise whole']);
    assert.equal(server.posts().length, 4);
    assert.ok(run.replies.every((r) => r.score.exact));
    const plans = plansFor('openai', formats);
    const config = { ...run.config, formats: plans };
    const all = estimateRun(config, tasks);
    const asked = estimateRun(config, [task('ts-lib-promise')]);
    // bcrypt-ci is asked in udiff alone: its estimate is less than the three formats' would be.
    assert.ok(all.input > asked.input && all.input < asked.input * 3, `${all.input} vs ${asked.input}`);
  });

  it('a saved run keeps them', async () => {
    const { run } = await bench({ api: 'openai', tasks, formats, behaviour: () => 'right', concurrency: 2 });
    const back = readRun(runJson(run));
    assert.ok(back.ok);
    assert.deepEqual(back.ok && back.run.skipped, run.skipped);
  });
});

describe('bench run: Stop, concurrency and the key', () => {
  it('Stop after three replies keeps them, marks the one in flight stopped and sends nothing more', async () => {
    const two = [task('ms-index'), task('normalize-css')];
    const formats = ['ln-diff', 'search-replace', 'udiff'];
    // ms-index answers at once; normalize-css's replies go silent and stay so.
    const { run, server } = await bench({
      api: 'anthropic',
      tasks: two,
      formats,
      concurrency: 2,
      behaviour: (t) => (t === 'ms-index' ? 'right' : 'stalled'),
      holdStalls: true,
      abortAfter: 3,
    });
    assert.equal(run.stopped, true);
    assert.deepEqual(
      run.replies.map((r) => [r.task, r.format, r.status]),
      [
        ['ms-index', 'ln-diff', 'done'],
        ['ms-index', 'search-replace', 'done'],
        ['ms-index', 'udiff', 'done'],
        ['normalize-css', 'ln-diff', 'stopped'],
      ],
    );
    assert.equal(server.posts().length, 4, 'the fifth job never sent');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(server.posts().length, 4);
    assert.notEqual(run.finished, null);
  });

  it('never has more requests in flight than the concurrency, and does reach it', async () => {
    const quick = selectTasks(suite, 'quick');
    // The server holds every stream until three are open at once: a run that sent fewer would never end, one that sent more would count four.
    const { run, server, events } = await bench({ api: 'openai', tasks: quick.slice(0, 7), formats: ['search-replace'], behaviour: () => 'right', concurrency: 3, gate: 3 });
    assert.equal(server.maxStreams(), 3);
    assert.equal(run.replies.length, 7);
    assert.ok(run.replies.every((r) => r.status === 'done'));
    // The run's own account agrees: never more than three between a request and its reply.
    let inflight = 0;
    let most = 0;
    for (const e of events) {
      if (e.type === 'request') most = Math.max(most, ++inflight);
      if (e.type === 'reply') inflight--;
    }
    assert.equal(most, 3);
  });

  it('sends the key as a header only, and keeps it out of the run and the events', async () => {
    for (const api of APIS) {
      const { run, events, server } = await bench({ api, tasks: [task('ms-index')], formats: ['ln-diff', 'whole'], behaviour: () => '429-then-ok' });
      for (const r of server.posts()) {
        if (api === 'openai') {
          assert.equal(r.headers.authorization, `Bearer ${KEY}`);
          assert.equal(r.headers['x-api-key'], undefined);
        } else {
          assert.equal(r.headers['x-api-key'], KEY);
          assert.equal(r.headers.authorization, undefined);
        }
        const others = Object.entries(r.headers).filter(([k]) => k !== 'authorization' && k !== 'x-api-key');
        assert.ok(!JSON.stringify(others).includes(KEY), 'no other header');
        assert.ok(!r.body.includes(KEY), 'not in the body');
        assert.ok(!r.url.includes(KEY), 'not in the URL');
      }
      assert.ok(!runJson(run).includes(KEY));
      assert.ok(!JSON.stringify(events).includes(KEY));
    }
  });
});
