// One reply applied twice on disk, as an agent that retries a step does: the
// second run writes nothing twice. In every format that cites old lines or
// inserts at a place, each edit fails with already-applied, the file stays
// byte for byte as the first run left it, and the exit status is 1; the
// formats that write whole files or replace what stands between anchors
// change nothing the second time (no-change, exit 0). The MCP server's
// apply_edits says the same with an error result.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { block, run, tempDir } from './helpers.ts';
import { call, connect } from './mcp-client.ts';
import { lineTag } from '../../src/formats/hashline/tag.ts';

const APP = 'import os\nimport subprocess\n\ndef run(cmd):\n    return subprocess.run(cmd, shell=True)\n';
const ADDED = APP.replace('import subprocess\n', 'import subprocess\nimport shlex\n');

/** Each format's reply adding `import shlex` after `import subprocess` in app.py (as written against APP). */
const REPLIES: Record<string, string> = {
  'ln-diff': block('app.py', [[2, 'import subprocess']], ['import subprocess', 'import shlex']),
  'search-replace': 'app.py\n```python\n<<<<<<< SEARCH\nimport subprocess\n=======\nimport subprocess\nimport shlex\n>>>>>>> REPLACE\n```\n',
  udiff: '--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,3 @@\n import os\n import subprocess\n+import shlex\n',
  udiffx: '<FILE_CHANGES>\n<FILE_PATCH file_path="app.py">\n@@\n import subprocess\n+import shlex\n</FILE_PATCH>\n</FILE_CHANGES>\n',
  roo: '<apply_diff>\n<path>app.py</path>\n<diff>\n<<<<<<< SEARCH\n:start_line:2\n-------\nimport subprocess\n=======\nimport subprocess\nimport shlex\n>>>>>>> REPLACE\n</diff>\n</apply_diff>\n',
  'apply-patch': '*** Begin Patch\n*** Update File: app.py\n@@\n import subprocess\n+import shlex\n*** End Patch\n',
  'str-replace': '{"command": "str_replace", "path": "app.py", "old_str": "import subprocess", "new_str": "import subprocess\\nimport shlex"}\n',
  hashline: `{"tool": "edit", "path": "app.py", "op": "insert_after", "line": 2, "tag": "${lineTag('import subprocess')}", "new": "import shlex"}\n`,
};

/** Each format's reply creating new.py (twice: the second time it exists). */
const CREATIONS: Record<string, string> = {
  'ln-diff': block('new.py', [], ['x = 1']),
  'search-replace': 'new.py\n```python\n<<<<<<< SEARCH\n=======\nx = 1\n>>>>>>> REPLACE\n```\n',
  udiff: '--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+x = 1\n',
  'apply-patch': '*** Begin Patch\n*** Add File: new.py\n+x = 1\n*** End Patch\n',
  'str-replace': '{"command": "create", "path": "new.py", "file_text": "x = 1\\n"}\n',
};

function applyTwice(t: Parameters<typeof tempDir>[0], format: string, reply: string, files: Record<string, string>) {
  const dir = tempDir(t);
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  const first = run(['apply', '--base', dir, '--format', format], { input: reply });
  const after = (path: string) => readFileSync(join(dir, path), 'utf8');
  return { dir, first, after, second: () => run(['apply', '--base', dir, '--format', format], { input: reply }) };
}

describe('a reply applied twice on disk', () => {
  for (const [format, reply] of Object.entries(REPLIES)) {
    test(`${format}: the second run fails already-applied, exit 1, the file byte-identical`, (t) => {
      const { first, second, after } = applyTwice(t, format, reply, { 'app.py': APP });
      assert.equal(first.status, 0, first.stdout + first.stderr);
      assert.equal(after('app.py'), ADDED);
      const r = second();
      assert.equal(r.status, 1, r.stdout + r.stderr);
      assert.equal(after('app.py'), ADDED);
      // Where the new lines stand: with the hunk's context line (udiff), or the inserted line alone (hashline).
      const where = format === 'udiff' ? 'lines 1-3' : format === 'hashline' ? 'line 3' : 'lines 2-3';
      assert.match(r.stdout, new RegExp(`✗ app\\.py already-applied \\(.*\\): the edit's new lines already stand at ${where} of app\\.py`));
      assert.match(r.stdout, /1 edit: 0 applied, 1 failed/);
    });
  }

  for (const [format, reply] of Object.entries(CREATIONS)) {
    test(`${format}: a file created, created again, fails already-applied and is unchanged`, (t) => {
      const { first, second, after } = applyTwice(t, format, reply, {});
      assert.equal(first.status, 0, first.stdout + first.stderr);
      assert.equal(after('new.py'), 'x = 1\n');
      const r = second();
      assert.equal(r.status, 1, r.stdout + r.stderr);
      assert.equal(after('new.py'), 'x = 1\n');
      assert.match(r.stdout, /already-applied/);
    });
  }

  test('whole and between: the second run writes the text the file has, and says it changed nothing (exit 0)', (t) => {
    const whole = applyTwice(t, 'whole', 'app.py\n```python\n' + ADDED + '```\n', { 'app.py': APP });
    const between = applyTwice(t, 'between', 'app.py\n```python\n@BETWEEN@ "import os" AND "def run(cmd):"\nimport subprocess\nimport shlex\n\n```\n', { 'app.py': APP });
    for (const { first, second, after } of [whole, between]) {
      assert.equal(first.status, 0, first.stdout + first.stderr);
      assert.equal(after('app.py'), ADDED);
      const r = second();
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.equal(after('app.py'), ADDED);
      assert.match(r.stdout, /no-change/);
    }
  });

  test('a reply applied in part: the edit not yet applied is written, the other fails, exit 1', (t) => {
    const fix = '\n--- a/app.py\n+++ b/app.py\n@@ -4,2 +4,2 @@\n def run(cmd):\n-    return subprocess.run(cmd, shell=True)\n+    return subprocess.run(shlex.split(cmd))\n';
    const { dir, first, after } = applyTwice(t, 'udiff', REPLIES.udiff, { 'app.py': APP });
    assert.equal(first.status, 0);
    const r = run(['apply', '--base', dir, '--format', 'udiff'], { input: REPLIES.udiff + fix });
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.equal(after('app.py'), ADDED.replace('subprocess.run(cmd, shell=True)', 'subprocess.run(shlex.split(cmd))'));
    assert.match(r.stdout, /2 edits: 1 applied, 1 failed/);
    assert.match(r.stdout, /already-applied/);
    assert.equal(existsSync(join(dir, 'new.py')), false);
  });
});

describe('a reply applied twice through the MCP server', () => {
  test('apply_edits: the second call is an error result with the code, the retry message says not to send it again', async (t) => {
    const dir = tempDir(t, 'ln-diff-mcp-');
    writeFileSync(join(dir, 'app.py'), APP);
    const c = await connect({ args: ['--root', dir] });
    t.after(() => c.close());
    const once = await call(c.client, 'apply_edits', { reply: REPLIES.udiff, format: 'udiff' });
    assert.equal(once.isError, false);
    const again = await call(c.client, 'apply_edits', { reply: REPLIES.udiff, format: 'udiff' });
    assert.equal(again.isError, true);
    const out = again.structuredContent as { ok: boolean; edits: { status: string; code: string; retry: string }[] };
    assert.equal(out.ok, false);
    assert.deepEqual(out.edits.map((e) => [e.status, e.code]), [['failed', 'already-applied']]);
    assert.match(out.edits[0].retry, /do not send this edit again/);
    assert.equal(readFileSync(join(dir, 'app.py'), 'utf8'), ADDED);
  });
});
