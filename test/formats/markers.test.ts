// Format.markers: the lines that show a reply meant an edit (spec/formats.md,
// "Replies that show structure but hold no edit").

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findMarker, unreadMarker } from '../../src/core/markers.ts';
import { applyRequest, formats } from '../../src/formats/index.ts';

const change = [{ file: 'a.txt', before: 'one\ntwo\nthree\n', after: 'one\nTWO\nthree\n' }];

/** Chat answers: prose, Markdown and command output, with the markers' words in sentences. */
const PROSE = [
  'I would use a SEARCH/REPLACE block here; the SEARCH part must match exactly.',
  'Write <<<<<<< SEARCH, then the lines, then >>>>>>> REPLACE.',
  '---',
  '***',
  '- - -',
  'Heading',
  '=======',
  'Sub-heading',
  '-------',
  '> quoted --- text',
  '| --- | --- |',
  'The diff starts with --- a/file and +++ b/file lines.',
  '```',
  '$ git status',
  'On branch main',
  '```',
  'In apply_patch, *** Begin Patch opens the envelope.',
  'The tool call names "tool" and "edit" as keys.',
  'Set INSERT mode, then REMOVE the line.',
  '--- SEARCH RESULTS ---',
  '<<< REMOVE ME LATER >>>',
  '+++ REPLACE ALL +++',
  'Done.',
  '@@ is how a hunk starts.',
];

describe('markers', () => {
  it('every format but whole declares some, and its own writing shows one', () => {
    for (const format of formats) {
      if (format.name === 'whole') {
        assert.equal(format.markers, undefined, 'a fence is what every chat answer has');
        continue;
      }
      assert.ok(format.markers?.length, format.name);
      const reply = format.write(change);
      assert.ok(findMarker(reply, format.markers!), `${format.name}: no marker in its own writing:\n${reply}`);
    }
  });

  it('no marker of any format matches prose, Markdown rules and headings, or command output', () => {
    const text = PROSE.join('\n') + '\n';
    for (const format of formats) {
      const found = findMarker(text, format.markers ?? []);
      assert.equal(found, null, `${format.name}: ${JSON.stringify(found?.line.text)}`);
    }
    for (const format of formats) {
      const r = applyRequest({ format: format.name, files: { 'a.txt': 'one\n' }, response: text });
      assert.ok(!r.diagnostics.some((d) => d.code === 'malformed'), format.name);
    }
    assert.deepEqual(applyRequest({ format: 'auto', files: { 'a.txt': 'one\n' }, response: text }).diagnostics.map((d) => d.code), ['no-edits']);
  });

  it('the error is placed at the marker: its line, its first column after indentation, the line quoted', () => {
    const format = formats.find((f) => f.name === 'search-replace')!;
    const d = unreadMarker('Here:\n\n  <<<< SEARCH\nx\n', format);
    assert.equal(d?.code, 'malformed');
    assert.equal(d?.severity, 'error');
    assert.deepEqual(d?.reply?.start, { line: 3, column: 3 });
    assert.equal(d?.reply?.from, 'Here:\n\n  '.length);
    assert.match(d?.message ?? '', /^reply line 3, column 3: the line "<<<< SEARCH" is taken for the head of a SEARCH\/REPLACE block/);
    assert.match(d?.message ?? '', /nothing was applied$/);
  });

  it('a marker that needs the next line (a --- line before +++) does not match alone', () => {
    const udiff = formats.find((f) => f.name === 'udiff')!;
    assert.equal(findMarker('--- a/x\n', udiff.markers!), null);
    assert.equal(findMarker('--- a/x\nsomething\n+++ b/x\n', udiff.markers!), null);
    assert.equal(findMarker('--- a/x\r\n+++ b/x\r\n', udiff.markers!)?.line.line, 1);
  });

  it('under auto, the first marker of the reply decides the format, and a quoted one in a whole file does not count', () => {
    // Neither is structure (no format scores it 0.5): the markers decide, in reply order.
    const r = applyRequest({ format: 'auto', files: { 'a.txt': 'x\n' }, response: 'Patch:\n\ndiff --git a/a.txt b/a.txt\n\n<<<< SEARCH\nx\n>>>> REPLACE\n' });
    assert.equal(r.format, 'udiff', r.detection?.reason);
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['malformed']);
    assert.equal(r.diagnostics[0].reply?.start.line, 3);
    const later = applyRequest({ format: 'auto', files: { 'a.txt': 'x\n' }, response: '<<<< SEARCH\nx\n>>>> REPLACE\n\ndiff --git a/a.txt b/a.txt\n' });
    assert.equal(later.format, 'search-replace', later.detection?.reason);
    const quoted = applyRequest({ format: 'auto', files: { 'README.md': '# T\n' }, response: 'README.md\n```\n# T\n\n*** Begin Patch\n*** End Patch\n```\n' });
    assert.equal(quoted.format, 'whole');
    assert.equal(quoted.ok, true);
  });
});
