// The bench's small modules: prompts (families and sections), the user
// message, task selection, the results table, the token counts a stream
// reports, Retry-After, the run estimate, and a server that cannot place a
// request.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { familyOf, formatPlan, sectionFor } from '../../src/bench/prompts.ts';
import { benchMessage, INSTRUCTION } from '../../src/bench/message.ts';
import { BENCH_FORMATS, QUICK_TASKS, selectTasks } from '../../src/bench/select.ts';
import { askedCount, best, median, summarize } from '../../src/bench/summary.ts';
import { retryAfter } from '../../src/bench/client.ts';
import { cachedWriter, estimateRun, writeTask } from '../../src/bench/run.ts';
import { taskChanges, taskFiles } from '../../src/bench/tasks.ts';
import { scoreReply, withoutReasoning } from '../../src/bench/score.ts';
import { chatRequest, usageOf } from '../../src/chat/protocol.ts';
import { sourceText } from '../../src/prompt/prompts.ts';
import { formats, getFormat } from '../../src/formats/index.ts';
import type { BenchReply, BenchRun, ReplyScore } from '../../src/bench/types.ts';
import { suite, table, task } from './harness.ts';
import { startBenchServer } from './server.ts';

describe('bench prompts', () => {
  it('maps model names to families', () => {
    const cases: [string, string][] = [
      ['gpt-4o', 'openai'], ['gpt-4.1-mini', 'openai'], ['o1', 'openai'], ['o3-mini', 'openai'], ['o4-mini', 'openai'], ['chatgpt-4o-latest', 'openai'],
      ['claude-sonnet-4-5', 'anthropic'], ['anthropic/claude-3.5-haiku', 'anthropic'], ['gemini-2.5-pro', 'gemini'], ['deepseek-coder-v2', 'deepseek'],
      ['qwen2.5-coder:7b', 'qwen'], ['Qwen/Qwen3-Coder', 'qwen'], ['llama3.2', 'local'], ['mistral', 'local'], ['phi4', 'local'], ['gemma3', 'local'],
      ['', 'local'], ['o5x', 'local'], ['ollama', 'local'],
    ];
    for (const [model, family] of cases) assert.equal(familyOf(model), family, model);
  });

  it('has a system prompt for every family of every bench format, as written on the page', () => {
    for (const format of BENCH_FORMATS)
      for (const family of ['openai', 'anthropic', 'gemini', 'deepseek', 'qwen', 'local'] as const)
        assert.ok(sectionFor(table, format, family, 'x'), `${format} ${family}`);
    const plan = formatPlan(table, 'ln-diff', 'claude-sonnet-4-5');
    assert.equal(plan.family, 'Anthropic Claude');
    assert.ok(plan.system.includes('<<<<<<< REMOVE'));
    assert.equal(typeof plan.reminder, 'string');
    assert.equal(formatPlan(table, 'whole', 'gemini-2.5-pro').reminder, null);
  });

  it("splits ln-diff's OpenAI prompts: gpt-4o* takes the first, other OpenAI models the second", () => {
    assert.equal(formatPlan(table, 'ln-diff', 'gpt-4o-mini').family, 'OpenAI GPT-4o and GPT-4o-mini');
    assert.equal(formatPlan(table, 'ln-diff', 'gpt-4o').family, 'OpenAI GPT-4o and GPT-4o-mini');
    assert.equal(formatPlan(table, 'ln-diff', 'gpt-5').family, 'OpenAI GPT-4.1 and GPT-5');
    assert.equal(formatPlan(table, 'ln-diff', 'o3').family, 'OpenAI GPT-4.1 and GPT-5');
    assert.equal(formatPlan(table, 'udiff', 'gpt-4o').family, 'OpenAI GPT-4o, GPT-4.1 and GPT-5');
  });

  it('takes an override as a custom plan and names a format without a page', () => {
    assert.deepEqual(formatPlan(table, 'udiff', 'gpt-4o', { system: 'S', reminder: null }), { format: 'udiff', family: 'custom', system: 'S', reminder: null });
    assert.throws(() => formatPlan(table, 'nope', 'gpt-4o'), /nope/);
  });
});

describe('bench message', () => {
  it('holds SOURCE in the format view, TARGET, the instruction and the reminder, the same every time', () => {
    const t = task('normalize-css');
    const ln = getFormat('ln-diff')!;
    const m = benchMessage(t, ln, 'REMIND');
    assert.equal(m, benchMessage(t, ln, 'REMIND'));
    const [source] = Object.entries(taskFiles(t));
    assert.ok(m.startsWith(`SOURCE\n\nnormalize.css\n${ln.view!(source[1]).replace(/\n$/, '')}\n\nTARGET\n\nnormalize.css\n\`\`\`\n${t.files[0].after}`));
    assert.ok(m.endsWith(`\n\n${INSTRUCTION}\n\nREMIND`));
    assert.ok(benchMessage(t, getFormat('udiff')!, null).endsWith(INSTRUCTION));
  });

  it('holds every SOURCE file and every TARGET file: deleted, moved and created ones too', () => {
    for (const id of QUICK_TASKS) {
      const t = task(id);
      for (const format of formats.filter((f) => f.prompt)) {
        const m = benchMessage(t, format, null);
        const files = Object.entries(taskFiles(t)).map(([name, text]) => ({ name, text }));
        assert.ok(m.includes(sourceText(files, format.view ? (x) => format.view!(x) : undefined)), `${id} ${format.name}`);
        for (const f of t.files) {
          if (f.after === null) assert.ok(m.includes(`\ndelete ${f.path}\n`) || m.includes(`\ndelete ${f.path}\n\n${INSTRUCTION}`), `${id}: delete ${f.path}`);
          else {
            assert.ok(m.includes(f.after), `${id}: ${f.path} after`);
            assert.ok(m.includes(f.renamedFrom ? `move ${f.renamedFrom} to ${f.path}\n` : `\n${f.path}\n`), `${id}: ${f.path}`);
          }
        }
      }
    }
    assert.ok(benchMessage(task('abbrev-move-to-lib'), getFormat('whole')!, null).includes('move abbrev.js to lib/index.js\n```'));
  });
});

describe('bench selection', () => {
  it('picks quick, all and named tasks in suite order, and names an unknown id', () => {
    assert.equal(selectTasks(suite, 'quick').length, 8);
    assert.equal(selectTasks(suite, 'all').length, suite.tasks.length);
    const order = suite.tasks.map((t) => t.id);
    const picked = selectTasks(suite, ['normalize-css', 'ms-index']).map((t) => t.id);
    assert.deepEqual(picked, [...picked].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
    assert.throws(() => selectTasks(suite, ['ms-index', 'no-such-task']), /no-such-task/);
    assert.deepEqual(BENCH_FORMATS, formats.filter((f) => f.prompt).map((f) => f.name));
    assert.ok(BENCH_FORMATS.includes('ln-diff') && BENCH_FORMATS.includes('str-replace'));
  });
});

const blank: ReplyScore = { parsed: false, applied: false, exact: false, edits: 0, matches: { exact: 0, offset: 0, whitespace: 0, fuzzy: 0, failed: 0 }, codes: {}, warnings: {} };
function reply(format: string, over: Partial<BenchReply> & { s?: Partial<Omit<ReplyScore, 'matches'>> & { matches?: Partial<ReplyScore['matches']> } }): BenchReply {
  const { s, ...rest } = over;
  return {
    task: 't', format, status: 'done', error: null, reply: '', attempts: 1, retry: null,
    tokens: { input: 100, output: 10, method: 'usage' }, ms: { firstToken: 5, total: 50 },
    ...rest,
    score: { ...blank, ...s, matches: { ...blank.matches, ...s?.matches } },
  };
}

describe('bench summary', () => {
  it('gives exact rates, sums and medians for a hand-built run, stopped replies left out', () => {
    const run: BenchRun = {
      version: 1, engine: 'ln-diff 0.1.0', started: '2025-01-01T00:00:00.000Z', finished: null, stopped: true,
      config: { endpoint: { api: 'openai', baseUrl: 'http://127.0.0.1:1/v1', model: 'm' }, formats: [{ format: 'udiff', family: 'x', system: 's', reminder: null }, { format: 'ln-diff', family: 'x', system: 's', reminder: null }, { format: 'whole', family: 'x', system: 's', reminder: null }], tasks: ['t'], concurrency: 1, retries: 0, idleTimeoutMs: 1 },
      replies: [
        reply('ln-diff', { s: { parsed: true, applied: true, exact: true, edits: 2, matches: { exact: 1, offset: 1 } }, tokens: { input: 100, output: 10, method: 'usage' }, ms: { firstToken: 4, total: 40 } }),
        reply('ln-diff', { s: { parsed: true, applied: true, edits: 1, matches: { fuzzy: 1 } }, tokens: { input: 300, output: 30, method: 'usage' }, ms: { firstToken: 8, total: 80 } }),
        reply('ln-diff', { s: { parsed: true, edits: 2, matches: { exact: 1, failed: 1 }, codes: { 'no-match': 1 } }, tokens: { input: 200, output: 20, method: 'estimate' }, ms: { firstToken: null, total: 60 } }),
        reply('ln-diff', { status: 'http', tokens: { input: null, output: null, method: 'estimate' }, ms: { firstToken: null, total: 10 } }),
        reply('ln-diff', { status: 'stopped', s: { parsed: true, applied: true, exact: true }, ms: { firstToken: 1, total: 1 } }),
        reply('udiff', { s: { parsed: true, applied: true, exact: true, edits: 1, matches: { exact: 1 } }, tokens: { input: 50, output: 5, method: 'usage' }, ms: { firstToken: 2, total: 20 } }),
        reply('udiff', { status: 'stalled', s: { parsed: true, edits: 1, matches: { failed: 1 }, codes: { truncated: 1 } }, tokens: { input: 70, output: 3, method: 'usage' }, ms: { firstToken: 3, total: 90 } }),
      ],
    };
    const [udiff, ln, whole] = summarize(run);
    assert.deepEqual(ln, {
      format: 'ln-diff', replies: 4, parsed: 3, applied: 2, exact: 1,
      rates: { parsed: 0.75, applied: 0.5, exact: 0.25 },
      matches: { exact: 2, offset: 1, whitespace: 0, fuzzy: 1, failed: 1 },
      codes: { 'no-match': 1 }, statuses: { http: 1 }, cutOff: 0,
      median: { input: 200, output: 20, firstToken: 6, total: 50 },
      estimated: true,
    });
    assert.deepEqual(udiff, {
      format: 'udiff', replies: 2, parsed: 2, applied: 1, exact: 1,
      rates: { parsed: 1, applied: 0.5, exact: 0.5 },
      matches: { exact: 1, offset: 0, whitespace: 0, fuzzy: 0, failed: 1 },
      codes: { truncated: 1 }, statuses: { stalled: 1 }, cutOff: 0,
      median: { input: 60, output: 4, firstToken: 2.5, total: 55 },
      estimated: false,
    });
    assert.deepEqual(whole, {
      format: 'whole', replies: 0, parsed: 0, applied: 0, exact: 0, rates: { parsed: 0, applied: 0, exact: 0 },
      matches: { exact: 0, offset: 0, whitespace: 0, fuzzy: 0, failed: 0 }, codes: {}, statuses: {}, cutOff: 0,
      median: { input: null, output: null, firstToken: null, total: null }, estimated: false,
    });
    assert.deepEqual(best([udiff, ln, whole]), {
      parsed: ['udiff'], applied: ['udiff', 'ln-diff'], exact: ['udiff'], input: ['udiff'], output: ['udiff'], firstToken: ['udiff'], total: ['ln-diff'],
    });
    assert.equal(median([]), null);
    assert.equal(median([3, 1, 2]), 2);
  });
});

describe('bench protocol: usage and caps', () => {
  const ev = (data: unknown, event = 'message') => ({ event, data: JSON.stringify(data) });
  it('reads OpenAI usage from the last chunk and Anthropic usage from message_start and message_delta', () => {
    assert.deepEqual(usageOf('openai', ev({ choices: [], usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 } })), { input: 12, output: 3 });
    assert.equal(usageOf('openai', ev({ choices: [{ delta: { content: 'x' } }] })), null);
    assert.equal(usageOf('openai', { event: 'message', data: '[DONE]' }), null);
    assert.deepEqual(usageOf('anthropic', ev({ type: 'message_start', message: { usage: { input_tokens: 40, output_tokens: 1 } } })), { input: 40 });
    assert.deepEqual(usageOf('anthropic', ev({ type: 'message_delta', usage: { output_tokens: 77 } })), { output: 77 });
    assert.equal(usageOf('anthropic', ev({ type: 'content_block_delta', delta: { text: 'x' } })), null);
    assert.equal(usageOf('anthropic', ev({ type: 'message_delta', usage: { output_tokens: -1 } })), null);
    assert.equal(usageOf('openai', { event: 'message', data: '{not json' }), null);
  });

  it('asks for usage and caps tokens only when told to', () => {
    const openai = { provider: 'openai' as const, baseUrl: 'http://127.0.0.1:8080/v1', model: 'm', key: '' };
    assert.deepEqual(JSON.parse(chatRequest(openai, 's', 'u').body), { model: 'm', stream: true, messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'u' }] });
    const asked = JSON.parse(chatRequest(openai, 's', 'u', { usage: true, maxTokens: 100 }).body);
    assert.deepEqual(asked.stream_options, { include_usage: true });
    assert.equal(asked.max_tokens, 100);
    const anthropic = { provider: 'anthropic' as const, baseUrl: 'https://api.anthropic.com', model: 'claude-x', key: 'k' };
    assert.equal(JSON.parse(chatRequest(anthropic, 's', 'u').body).max_tokens, 8192);
    assert.equal(JSON.parse(chatRequest(anthropic, 's', 'u', { maxTokens: 500 }).body).max_tokens, 500);
  });

  it('reads Retry-After as seconds or a date', () => {
    assert.equal(retryAfter('1', 0), 1000);
    assert.equal(retryAfter('2.5', 0), 2500);
    assert.equal(retryAfter(null, 0), null);
    assert.equal(retryAfter('soon', 0), null);
    const now = Date.UTC(2025, 0, 1, 0, 0, 0);
    assert.equal(retryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now), 30_000);
  });
});

describe('bench estimate', () => {
  it('counts system and user characters and the writer reply, over 4', () => {
    const t = task('ms-index');
    const plan = formatPlan(table, 'ln-diff', 'gpt-4.1');
    const config = { endpoint: { api: 'openai' as const, baseUrl: 'http://x/v1', model: 'gpt-4.1' }, formats: [plan], tasks: [t.id], concurrency: 1, retries: 0, idleTimeoutMs: 1 };
    const user = benchMessage(t, getFormat('ln-diff')!, plan.reminder);
    const reply = getFormat('ln-diff')!.write([{ file: 'index.js', before: t.files[0].before, after: t.files[0].after }]);
    assert.deepEqual(estimateRun(config, [t]), { input: Math.ceil((plan.system.length + user.length) / 4), output: Math.ceil(reply.length / 4), method: 'estimate', requests: 1, skipped: 0 });
  });

  it('with a cached writer, writes (and trial-applies) each task in each format once, with the same estimate', () => {
    const tasks = [task('ms-index'), task('normalize-css')];
    const plans = ['ln-diff', 'udiff'].map((f) => formatPlan(table, f, 'gpt-4.1'));
    const config = { endpoint: { api: 'openai' as const, baseUrl: 'http://x/v1', model: 'gpt-4.1' }, formats: plans, tasks: tasks.map((t) => t.id), concurrency: 1, retries: 0, idleTimeoutMs: 1 };
    let writes = 0;
    const write = cachedWriter((t, f) => (writes++, writeTask(t, f)));
    const first = estimateRun(config, tasks, write);
    assert.equal(writes, 4);
    assert.deepEqual(estimateRun(config, tasks, write), first);
    assert.deepEqual(estimateRun(config, [tasks[1]], write), estimateRun(config, [tasks[1]]));
    assert.equal(writes, 4, 'asked again: nothing written again');
    assert.equal(write.size(), 4);
    assert.deepEqual(first, estimateRun(config, tasks));
  });
});

describe('scripted server', () => {
  it('answers a request it cannot place with HTTP 400 saying why, and preflights with CORS', async () => {
    const plan = formatPlan(table, 'ln-diff', 'gpt-4.1');
    const server = await startBenchServer({ tasks: [task('ms-index')], plans: [plan], behaviour: () => 'right' });
    try {
      const post = (system: string, user: string) =>
        fetch(`${server.base}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ stream: true, messages: [{ role: 'system', content: system }, { role: 'user', content: user }] }) });
      const unknownPrompt = await post('another prompt', 'SOURCE\n\nx');
      assert.equal(unknownPrompt.status, 400);
      assert.match(await unknownPrompt.text(), /system prompt is none of the planned/);
      const unknownTask = await post(plan.system, 'SOURCE\n\nother.js\n1│x\n\nTARGET\n\n');
      assert.equal(unknownTask.status, 400);
      assert.match(await unknownTask.text(), /no known task/);
      const pre = await fetch(`${server.base}/messages`, { method: 'OPTIONS', headers: { origin: 'http://127.0.0.1:4321', 'access-control-request-method': 'POST' } });
      assert.equal(pre.status, 204);
      assert.equal(pre.headers.get('access-control-allow-origin'), '*');
      assert.match(pre.headers.get('access-control-allow-headers') ?? '', /x-api-key/);
    } finally {
      await server.close();
    }
  });
});

describe('bench scoring: a reasoning model\'s thinking', () => {
  it('leaves out the <think> block a reply opens with, never one later in the reply', () => {
    assert.equal(withoutReasoning('<think>\nmaybe line 3?\n</think>\n\nHere it is.'), 'Here it is.');
    assert.equal(withoutReasoning('  <THINK>a</THINK><thinking>b</thinking>\nAnswer'), 'Answer');
    assert.equal(withoutReasoning('<think>cut off while thinking'), '');
    const later = 'Answer first.\n<think>not reasoning</think>\n';
    assert.equal(withoutReasoning(later), later);
    assert.equal(withoutReasoning('no tags'), 'no tags');
  });

  it('scores the answer after the thinking, not the drafts in it', () => {
    const t = task('ms-index');
    const right = getFormat('search-replace')!.write(taskChanges(t));
    // A draft edit in the thinking that would fail (its SEARCH is nowhere in the file).
    const draft = 'index.js\n<<<<<<< SEARCH\nthis line is not in the file\n=======\nx\n>>>>>>> REPLACE\n';
    const { score } = scoreReply(t, 'search-replace', `<think>\nFirst try:\n${draft}</think>\n${right}`);
    assert.deepEqual([score.parsed, score.applied, score.exact, score.matches.failed], [true, true, true, 0]);
    assert.equal(scoreReply(t, 'search-replace', `${right}\n<think>\n${draft}</think>\n`).score.applied, false, 'a block later in the reply is part of the answer');
  });
});

describe('bench: requests a run asks', () => {
  it('every task in every format, less the pairs not asked', () => {
    const config = { tasks: ['a', 'b'], formats: [{}, {}, {}] } as unknown as BenchRun['config'];
    assert.equal(askedCount({ config }), 6);
    assert.equal(askedCount({ config, skipped: [{ task: 'a', format: 'whole', reason: 'x' }] }), 5);
  });
});
