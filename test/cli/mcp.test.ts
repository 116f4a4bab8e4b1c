// `ln-diff mcp` through the SDK's own client over stdio: every tool, the
// prompts, the refusals and malformed calls (each an error result saying
// what to fix, the server going on), two calls at once, the client's roots,
// and a call cancelled in flight (held by the server's test hook at a known
// point, so no test waits on a clock).

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { dirname } from 'node:path';
import { BIN, block, run, tempDir } from './helpers.ts';
import { call, connect, text } from './mcp-client.ts';

const APP = 'def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n';

function workspace(t: { after(fn: () => void): void }): string {
  const dir = tempDir(t, 'ln-diff-mcp-');
  writeFileSync(join(dir, 'app.py'), APP);
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'sub', 'b.txt'), 'one\ntwo\nthree\n');
  return dir;
}

describe('ln-diff mcp: tools and prompts', () => {
  test('initialize: the three tools with JSON Schemas, and a prompt per format and model family', async (t) => {
    const dir = workspace(t);
    const c = await connect({ args: ['--root', dir] });
    t.after(() => c.close());
    assert.equal(c.client.getServerVersion()?.name, 'ln-diff');
    const { tools } = await c.client.listTools();
    assert.deepEqual(tools.map((x) => x.name).sort(), ['apply_edits', 'list_formats', 'read_file']);
    const read = tools.find((x) => x.name === 'read_file')!;
    assert.deepEqual(read.inputSchema.required, ['path']);
    assert.equal((read.inputSchema.properties as Record<string, { type?: string }>).start_line.type, 'integer');
    const apply = tools.find((x) => x.name === 'apply_edits')!;
    assert.deepEqual(apply.inputSchema.required, ['reply']);
    assert.ok(apply.outputSchema && read.outputSchema, 'every tool declares its structured output');

    const { prompts } = await c.client.listPrompts();
    const names = prompts.map((p) => p.name);
    for (const format of ['ln-diff', 'udiff', 'search-replace', 'hashline'])
      assert.ok(names.some((n) => n.startsWith(`${format}-anthropic`)), `${format} has a prompt for Claude`);
    const got = await c.client.getPrompt({ name: 'ln-diff-anthropic-claude' });
    const first = got.messages[0].content;
    assert.equal(first.type, 'text');
    assert.match(first.type === 'text' ? first.text : '', /<<<<<<< REMOVE/);
  });

  test('list_formats: every format, which ones number the lines', async (t) => {
    const c = await connect({ args: ['--root', workspace(t)] });
    t.after(() => c.close());
    const r = await call(c.client, 'list_formats', {});
    const formats = (r.structuredContent as { formats: { name: string; numbers_lines: boolean; view: string; description: string }[] }).formats;
    const by = Object.fromEntries(formats.map((f) => [f.name, f]));
    assert.equal(formats.length, 10);
    assert.equal(by['ln-diff'].numbers_lines, true);
    assert.equal(by.roo.numbers_lines, true);
    assert.equal(by.udiff.numbers_lines, false);
    assert.equal(by.hashline.view, 'tagged');
    assert.ok(formats.every((f) => f.description.length > 20 && !f.description.includes('\n')));
    assert.match(text(r), /^ln-diff: .*\(read_file numbers the lines\)$/m);
  });

  test('read_file: the view for the format, a range, the line count; an absolute path inside the root', async (t) => {
    const dir = workspace(t);
    const c = await connect({ args: ['--root', dir] });
    t.after(() => c.close());
    const whole = await call(c.client, 'read_file', { path: 'app.py' });
    assert.equal(whole.isError, undefined);
    assert.deepEqual(whole.structuredContent, {
      path: 'app.py',
      format: 'ln-diff',
      view: 'numbered',
      total_lines: 5,
      start_line: 1,
      end_line: 5,
      text: '1│def total(xs):\n2│    s = 0\n3│    for x in xs:\n4│        s += x\n5│    return s\n',
    });
    assert.match(text(whole), /^app\.py: 5 lines, showing 1-5\n1│def total/);
    const range = await call(c.client, 'read_file', { path: join(dir, 'app.py'), start_line: 2, end_line: 3 });
    assert.equal((range.structuredContent as { text: string }).text, '2│    s = 0\n3│    for x in xs:\n');
    const plain = await call(c.client, 'read_file', { path: 'sub/b.txt', format: 'udiff', start_line: 3 });
    assert.deepEqual([(plain.structuredContent as { text: string }).text, (plain.structuredContent as { view: string }).view], ['three\n', 'plain']);
    const tagged = await call(c.client, 'read_file', { path: 'sub/b.txt', format: 'hashline', start_line: 2, end_line: 2 });
    assert.match((tagged.structuredContent as { text: string }).text, /^file_tag:\S+\n2:\S+ two\n$/);
  });

  test('apply_edits dry run: the change as a unified diff, nothing written', async (t) => {
    const dir = workspace(t);
    const c = await connect({ args: ['--root', dir] });
    t.after(() => c.close());
    const reply = block('app.py', [[5, '    return s']], ['    return int(s)']);
    const r = await call(c.client, 'apply_edits', { reply, dry_run: true });
    assert.equal(r.isError, false);
    const out = r.structuredContent as { ok: boolean; dry_run: boolean; diff: string; edits: { status: string; match: string }[]; files: unknown[] };
    assert.equal(out.ok, true);
    assert.equal(out.dry_run, true);
    assert.deepEqual(out.edits.map((e) => [e.status, e.match]), [['applied', 'exact']]);
    assert.deepEqual(out.files, [{ file: 'app.py', action: 'modify', done: true, failure: null }]);
    assert.equal(out.diff, '--- a/app.py\n+++ b/app.py\n@@ -2,4 +2,4 @@\n     s = 0\n     for x in xs:\n         s += x\n-    return s\n+    return int(s)\n');
    assert.match(text(r), /dry run: 1 file would change, nothing written/);
    assert.equal(readFileSync(join(dir, 'app.py'), 'utf8'), APP);
    // `ln-diff apply --dry-run` prints the same diff after its summary.
    const cli = run(['apply', '--dry-run', '--base', dir], { input: reply });
    assert.equal(cli.status, 0, cli.stderr);
    assert.ok(cli.stdout.endsWith('nothing written\n\n' + out.diff), cli.stdout);
  });

  test('apply_edits: written in place with the mode kept; a new file created; the format named or detected', async (t) => {
    const dir = workspace(t);
    chmodSync(join(dir, 'app.py'), 0o640);
    const c = await connect({ args: ['--root', dir] });
    t.after(() => c.close());
    const r = await call(c.client, 'apply_edits', { reply: block('app.py', [[2, '    s = 0']], ['    s = 1']) });
    assert.equal(r.isError, false);
    assert.equal(readFileSync(join(dir, 'app.py'), 'utf8'), APP.replace('s = 0', 's = 1'));
    assert.equal(statSync(join(dir, 'app.py')).mode & 0o777, 0o640);
    const udiff = '--- /dev/null\n+++ b/new/c.txt\n@@ -0,0 +1,1 @@\n+hello\n';
    const created = await call(c.client, 'apply_edits', { reply: udiff, format: 'udiff' });
    assert.equal((created.structuredContent as { format: string }).format, 'udiff');
    assert.equal(readFileSync(join(dir, 'new/c.txt'), 'utf8'), 'hello\n');
    assert.match(text(created), /created new\/c\.txt/);
  });

  test('apply_edits refusals: an edit that fits nowhere (with the retry message), .git, a path outside the root; nothing written', async (t) => {
    const dir = workspace(t);
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, '.git', 'config'), '[core]\n');
    const c = await connect({ args: ['--root', dir] });
    t.after(() => c.close());
    const miss = await call(c.client, 'apply_edits', { reply: block('app.py', [[2, '    total = 0']], ['    total = 1']) });
    assert.equal(miss.isError, true, 'no edit applied');
    const edit = (miss.structuredContent as { edits: { status: string; code: string; retry: string; message: string }[] }).edits[0];
    assert.equal(edit.status, 'failed');
    assert.equal(edit.code, 'no-match');
    assert.match(edit.retry, /^Your edit #1 to app\.py was not applied \(no-match\)/);
    assert.match(edit.retry, /app\.py has at line 2:\n2│    s = 0/);
    assert.ok(text(miss).includes(edit.retry), 'the model reads the retry message');

    const git = await call(c.client, 'apply_edits', { reply: block('.git/config', [[1, '[core]']], ['[core] x']) });
    assert.equal(git.isError, true);
    assert.match(text(git), /unsafe path "\.git\/config" .*git's own directory/);
    const out = await call(c.client, 'apply_edits', { reply: block('../escape.txt', [[1, 'x']], ['y']) });
    assert.match(text(out), /unsafe path "\.\.\/escape\.txt" .*leaves the base directory/);
    assert.equal(readFileSync(join(dir, '.git', 'config'), 'utf8'), '[core]\n');
    assert.equal(readFileSync(join(dir, 'app.py'), 'utf8'), APP);
  });

  test('malformed and bad calls are error results that say what to fix; the server goes on', async (t) => {
    const dir = workspace(t);
    writeFileSync(join(dir, 'bin.dat'), Buffer.from([0x00, 0x01, 0x02, 0x0a]));
    writeFileSync(join(dir, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    writeFileSync(join(dir, 'long.txt'), 'x\n'.repeat(2500));
    const c = await connect({ args: ['--root', dir] });
    t.after(() => c.close());
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['read_file', {}, /^read_file: the argument path is missing; expected the file's path, relative to the root \(a non-empty string\)$/],
      ['read_file', { path: 5 }, /^read_file: the argument path is 5; expected the file's path, relative to the root \(a non-empty string\)$/],
      ['read_file', { path: 'app.py', start_line: 0 }, /^read_file: the argument start_line is 0; expected a whole number from 1 \(or leave it out for 1\)$/],
      ['read_file', { path: 'app.py', format: 'nope' }, /^read_file: the argument format is "nope" \(a string\); expected one of ln-diff, .*, str-replace \(or leave it out for ln-diff\)$/],
      ['read_file', { path: '../outside.txt' }, /unsafe path "\.\.\/outside\.txt": leaves the base directory/],
      ['read_file', { path: '/etc/passwd' }, /unsafe path "\/etc\/passwd": absolute path/],
      ['read_file', { path: 'missing.py' }, /missing\.py: no such file \(paths are relative to /],
      ['read_file', { path: 'bin.dat' }, /bin\.dat: a binary file/],
      ['read_file', { path: 'latin1.txt' }, /latin1\.txt: not valid UTF-8 text/],
      ['read_file', { path: 'long.txt' }, /long\.txt has 2500 lines; one read shows at most 2000: pass start_line and end_line/],
      ['read_file', { path: 'app.py', start_line: 9 }, /start_line 9 is past the end of app\.py, which has 5 lines/],
      ['apply_edits', { reply: 42 }, /^apply_edits: the argument reply is 42; expected the reply as text \(a string\)$/],
      ['apply_edits', { reply: 'x', dry_run: 'yes' }, /^apply_edits: the argument dry_run is "yes" \(a string\); expected true or false \(or leave it out for false\)$/],
      ['apply_edits', { reply: 'no edits here, only prose\n' }, /0 edits/],
    ];
    for (const [name, args, expected] of cases) {
      const r = await call(c.client, name, args);
      assert.equal(r.isError, true, `${name} ${JSON.stringify(args)}`);
      assert.match(text(r), expected, `${name} ${JSON.stringify(args)}`);
    }
    // A reply with no edit: an error result whose ok agrees (the engine's own result is ok, with no-edits).
    for (const reply of ['', 'no edits here, only prose\n']) {
      const r = await call(c.client, 'apply_edits', { reply });
      assert.equal(r.isError, true);
      const out = r.structuredContent as { ok: boolean; edits: unknown[]; diagnostics: { code: string }[] };
      assert.equal(out.ok, false, JSON.stringify(reply));
      assert.deepEqual(out.edits, []);
      assert.deepEqual(out.diagnostics.map((d) => d.code), ['no-edits']);
    }
    const { tools } = await c.client.listTools();
    assert.match(tools.find((x) => x.name === 'apply_edits')!.description ?? '', /holds no edit at all \(empty, or prose only\)/);
    const range = await call(c.client, 'read_file', { path: 'long.txt', start_line: 2400, end_line: 2500 });
    assert.equal((range.structuredContent as { total_lines: number }).total_lines, 2500);
    const unknown = await call(c.client, 'no_such_tool', {});
    assert.equal(unknown.isError, true);
    assert.match(text(unknown), /Tool no_such_tool not found/);
    const still = await call(c.client, 'read_file', { path: 'app.py' });
    assert.equal(still.isError, undefined);
  });

  test('--read-only: apply_edits does dry runs only', async (t) => {
    const dir = workspace(t);
    const c = await connect({ args: ['--root', dir, '--read-only', '--format', 'ln-diff'] });
    t.after(() => c.close());
    const reply = block('app.py', [[2, '    s = 0']], ['    s = 1']);
    const write = await call(c.client, 'apply_edits', { reply });
    assert.equal(write.isError, true);
    assert.match(text(write), /read-only .*pass dry_run: true/);
    const dry = await call(c.client, 'apply_edits', { reply, dry_run: true });
    assert.equal(dry.isError, false);
    assert.equal(readFileSync(join(dir, 'app.py'), 'utf8'), APP);
  });

  test("a wrong argument is answered in the server's words: the argument, the value given, what is expected", async (t) => {
    const dir = workspace(t);
    const c = await connect({ args: ['--root', dir] });
    t.after(() => c.close());
    // A misspelt argument: the one missing and the one not taken, each named.
    const misspelt = await call(c.client, 'read_file', { file: 'app.py' });
    assert.equal(misspelt.isError, true);
    assert.equal(
      text(misspelt),
      "read_file: the argument path is missing; expected the file's path, relative to the root (a non-empty string)\n" +
        'read_file has no argument file; its arguments are path, format, start_line, end_line',
    );
    // Every wrong argument, one line each, in the order the tool lists them.
    const several = await call(c.client, 'read_file', { path: '', start_line: '10', end_line: 2.5 });
    assert.deepEqual(text(several).split('\n'), [
      "read_file: the argument path is \"\" (a string); expected the file's path, relative to the root (a non-empty string)",
      'read_file: the argument start_line is "10" (a string); expected a whole number from 1 (or leave it out for 1)',
      'read_file: the argument end_line is 2.5; expected a whole number from 1 (or leave it out for the last line)',
    ]);
    const long = await call(c.client, 'apply_edits', { reply: null, format: 'x'.repeat(100) });
    assert.deepEqual(text(long).split('\n'), [
      'apply_edits: the argument reply is null; expected the reply as text (a string)',
      `apply_edits: the argument format is "${'x'.repeat(60)}…" (a string of 100 characters); expected auto or one of ln-diff, search-replace, whole, udiff, roo, udiffx, hashline, between, apply-patch, str-replace (or leave it out for auto)`,
    ]);
    for (const r of [misspelt, several, long]) assert.doesNotMatch(text(r), /Input validation error|received|invalid_type| at path/);
    // An argument the tool does not take is no error on its own.
    const extra = await call(c.client, 'read_file', { path: 'app.py', encoding: 'utf8' });
    assert.equal(extra.isError, undefined, text(extra));
  });

  test('tools/list shows the JSON Schema of the real arguments (the server checks them itself)', async (t) => {
    const z = await import('zod/v4');
    const { readArguments, applyArguments } = await import('../../src/cli/mcp/tools.ts');
    const c = await connect({ args: ['--root', workspace(t), '--format', 'udiff'] });
    t.after(() => c.close());
    const { tools } = await c.client.listTools();
    for (const [name, args] of [
      ['read_file', readArguments('udiff')],
      ['apply_edits', applyArguments('udiff')],
    ] as const) {
      const shape = Object.fromEntries(Object.entries(args).map(([k, a]) => [k, a.schema]));
      const expected = z.toJSONSchema(z.object(shape), { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
      const listed = tools.find((x) => x.name === name)!.inputSchema as Record<string, unknown>;
      assert.deepEqual(listed, expected, name);
    }
  });

  test('two calls at once each get their own answer', async (t) => {
    const dir = workspace(t);
    const c = await connect({ args: ['--root', dir] });
    t.after(() => c.close());
    const [read, apply, formats] = await Promise.all([
      call(c.client, 'read_file', { path: 'sub/b.txt' }),
      call(c.client, 'apply_edits', { reply: block('app.py', [[5, '    return s']], ['    return -s']) }),
      call(c.client, 'list_formats', {}),
    ]);
    assert.equal((read.structuredContent as { total_lines: number }).total_lines, 3);
    assert.equal((apply.structuredContent as { ok: boolean }).ok, true);
    assert.equal((formats.structuredContent as { formats: unknown[] }).formats.length, 10);
    assert.match(readFileSync(join(dir, 'app.py'), 'utf8'), /return -s\n$/);
  });

  test("the client's roots narrow the root, and a change of roots is seen by the next call", async (t) => {
    const dir = workspace(t);
    let roots = [pathToFileURL(join(dir, 'sub')).href];
    const c = await connect({
      args: ['--root', dir],
      capabilities: { capabilities: { roots: { listChanged: true } } },
      setup: (client) => client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: roots.map((uri) => ({ uri, name: 'r' })) })),
    });
    t.after(() => c.close());
    const inside = await call(c.client, 'read_file', { path: 'sub/b.txt' });
    assert.equal(inside.isError, undefined);
    const outside = await call(c.client, 'read_file', { path: 'app.py' });
    assert.equal(outside.isError, true);
    assert.match(text(outside), /"app\.py" is outside the client's roots .*paths must lie under sub/);
    const edit = await call(c.client, 'apply_edits', { reply: block('app.py', [[2, '    s = 0']], ['    s = 1']) });
    assert.match(text(edit), /outside the client's roots/);
    assert.equal(readFileSync(join(dir, 'app.py'), 'utf8'), APP);

    roots = [pathToFileURL(dir).href];
    await c.client.sendRootsListChanged();
    const now = await call(c.client, 'read_file', { path: 'app.py' });
    assert.equal(now.isError, undefined, text(now));

    roots = [pathToFileURL(tempDir(t)).href];
    await c.client.sendRootsListChanged();
    const none = await call(c.client, 'read_file', { path: 'app.py' });
    assert.match(text(none), /do not meet the server's root .*no file may be touched/);
  });

  test('a call cancelled in flight writes nothing, and the server goes on', async (t) => {
    const dir = workspace(t);
    const c = await connect({ args: ['--root', dir], env: { LN_DIFF_MCP_TEST_HOLD: '1' } });
    t.after(() => c.close());
    const abort = new AbortController();
    const pending = call(c.client, 'apply_edits', { reply: block('app.py', [[2, '    s = 0']], ['    s = 1']) }, abort.signal);
    await c.stderrHas('holding apply_edits');
    abort.abort('the user stopped it');
    await assert.rejects(pending);
    await c.stderrHas('apply_edits cancelled');
    const after = await call(c.client, 'read_file', { path: 'app.py' });
    assert.match((after.structuredContent as { text: string }).text, /2│    s = 0\n/);
    assert.equal(readFileSync(join(dir, 'app.py'), 'utf8'), APP);
  });
});

describe('ln-diff mcp: the command line', () => {
  test('the server and the SDK are in lib/cli/mcp.cjs only: every other command loads neither', () => {
    const cli = join(dirname(BIN), '..', 'lib', 'cli');
    const main = readFileSync(join(cli, 'main.cjs'), 'utf8');
    const server = readFileSync(join(cli, 'mcp.cjs'), 'utf8');
    for (const mark of ['jsonrpc', 'notifications/roots/list_changed', 'ZodError']) {
      assert.ok(server.includes(mark), `mcp.cjs holds ${mark}`);
      assert.ok(!main.includes(mark), `main.cjs holds ${mark}`);
    }
    // The engine is bundled once: mcp.cjs takes it from main.cjs.
    assert.ok(!server.includes('<<<<<<< REMOVE'), 'mcp.cjs has its own copy of the engine');
  });

  test('a root that does not exist or an unknown format is a usage error before the server starts', () => {
    const bad = run(['mcp', '--root', '/no/such/dir']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /^ln-diff: base directory \/no\/such\/dir: does not exist\n$/);
    const format = run(['mcp', '--format', 'nope']);
    assert.equal(format.status, 2);
    assert.match(format.stderr, /unknown format "nope"/);
    assert.equal(run(['mcp', 'extra']).status, 2);
    assert.match(run(['--help']).stdout, /^  mcp \[options\]/m);
  });
});
