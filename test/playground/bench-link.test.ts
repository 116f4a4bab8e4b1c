// A Bench reply's playground link (#b=): what it names reads back the same;
// an altered or cut link says what is wrong, never throws.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { benchReplyHref, decodeBenchReply, encodeBenchReply, isBenchReplyHash } from '../../src/share/bench-link.ts';

describe('Bench reply links', () => {
  const ref = { task: 'ms-index', format: 'udiff', reply: '--- a/index.js\n+++ b/index.js\n@@ -1 +1 @@\n-a\n+b\n', prompt: 'You edit files.\n'.repeat(200) };

  it('read back what they name, with or without a prompt', () => {
    assert.deepEqual(decodeBenchReply(encodeBenchReply(ref)), { ok: true, ref });
    const { prompt: _, ...bare } = ref;
    assert.deepEqual(decodeBenchReply(`#${encodeBenchReply(bare)}`), { ok: true, ref: bare });
    const href = benchReplyHref(ref, '/ln-diff/playground/');
    assert.ok(href.startsWith('/ln-diff/playground/#b='));
    assert.ok(isBenchReplyHash(new URL(href, 'https://x.dev').hash));
    assert.equal(isBenchReplyHash('#s=abc'), false);
  });

  it('compress a prompt once for every reply of its format', () => {
    const a = encodeBenchReply(ref);
    const b = encodeBenchReply({ ...ref, reply: 'another reply' });
    assert.equal(a.split('.')[1], b.split('.')[1]);
    assert.notEqual(a.split('.')[0], b.split('.')[0]);
  });

  it('refuse an altered, cut or hostile link with a reason', () => {
    const good = encodeBenchReply(ref);
    const cut = decodeBenchReply(good.slice(0, 12));
    assert.equal(cut.ok, false);
    assert.equal(decodeBenchReply(`${good}.AAAA`).ok, false);
    assert.equal(decodeBenchReply('b=').ok, false);
    const badTask = decodeBenchReply(encodeBenchReply({ ...ref, task: '../../etc/passwd' }));
    assert.deepEqual(badTask, { ok: false, error: 'the link names no valid task' });
    assert.deepEqual(decodeBenchReply('s=abc'), { ok: false, error: 'the link holds no Bench reply' });
  });
});
