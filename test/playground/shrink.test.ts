// Shrinking a session to a minimal failure: the shrunk session still fails
// the same way for the same edit (checked here by running the engine again),
// is small, and the number of engine runs stays within the budget.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyRequest } from '../../src/formats/index.ts';
import type { ApplyResult } from '../../src/core/types.ts';
import { resultDigest } from '../../src/digest/digest.ts';
import type { Session } from '../../src/session/session.ts';
import { chunks, ddmin } from '../../src/shrink/ddmin.ts';
import { citedNumbers, describeRemoved, lineAfter, lineCount, lineNumbers, shrink, shrank, type ShrinkProgress } from '../../src/shrink/reduce.ts';
import { failureIdentity, identityOf, sameFailure } from '../../src/shrink/failure.ts';
import { prng } from '../prng.ts';

const run = (s: Session): ApplyResult =>
  applyRequest({ format: s.format, files: Object.fromEntries(s.files.map((f) => [f.name, f.text])), response: s.reply, ...(s.options ? { options: s.options } : {}) });

const totalLines = (s: Session) => s.files.reduce((n, f) => n + lineCount(f.text), lineCount(s.reply));

const WORDS = ['value', 'result', 'index', 'length', 'array', 'object', 'iteratee', 'predicate', 'accumulator', 'collection', 'source', 'key'];
const CALLS = ['baseEach', 'arrayMap', 'isObject', 'toInteger', 'baseGet', 'castPath', 'isArray', 'getTag', 'copyObject', 'keysIn'];

/** A lodash-sized script: functions of varied lines, with the repeated lines real code has (`}`, blank, `return result;`). */
function library(lines: number, seed = 7): string[] {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const out: string[] = [];
  let n = 0;
  while (out.length < lines) {
    n++;
    out.push(`  function ${pick(CALLS)}${n}(${pick(WORDS)}, ${pick(WORDS)}) {`);
    const body = 3 + Math.floor(rand() * 9);
    for (let k = 0; k < body && out.length < lines; k++) {
      const r = rand();
      if (r < 0.1) out.push('');
      else if (r < 0.2) out.push(`    // ${pick(WORDS)} of the ${pick(WORDS)} (${n}.${k})`);
      else out.push(`    var ${pick(WORDS)}${n}_${k} = ${pick(CALLS)}(${pick(WORDS)}, ${Math.floor(rand() * 1000)});`);
    }
    out.push('    return result;', '  }', '');
  }
  return out.slice(0, lines);
}

/** 1-based numbers of lines that are not blank, not a comment and not repeated: good places for edits. */
function editable(lines: readonly string[]): number[] {
  const seen = new Map<string, number>();
  for (const l of lines) seen.set(l, (seen.get(l) ?? 0) + 1);
  return lines.flatMap((l, i) => (l.startsWith('    var ') && seen.get(l) === 1 && seen.get(lines[i + 1]) === 1 && lines[i + 1]?.startsWith('    var ') ? [i + 1] : []));
}

/** An ln-diff editblock replacing lines `at` and `at + 1` (cited as `cited`, when given). */
function block(file: string, lines: readonly string[], at: number, cited?: [string, string]): string {
  const [a, b] = cited ?? [lines[at - 1], lines[at]];
  return `${file}\n<editblock>\n<<<<<<< REMOVE\n${at}│${a}\n${at + 1}│${b}\n=======\n │${lines[at - 1].replace(' = ', ' = /* checked */ ')}\n │${b}\n>>>>>>> INSERT\n</editblock>\n`;
}

/** The case: a 17,000-line file, three other files, and a 15-edit reply whose 10th edit misquotes a line. */
function lodashCase() {
  const lines = library(17_000);
  const places = editable(lines);
  const step = Math.floor(places.length / 15);
  const at = Array.from({ length: 15 }, (_, k) => places[k * step + 3]);
  const bad = 9;
  const wrong = lines[at[bad] - 1].replace(/= (\w+)\((\w+)/, '= $1Deep($2, depth');
  let reply = 'Here are the changes, one per function.\n\n';
  at.forEach((line, k) => {
    reply += `${k + 1}. In the ${k % 2 ? 'helper' : 'main'} function:\n\n${block('lodash.js', lines, line, k === bad ? [wrong, lines[line]] : undefined)}\n`;
  });
  reply += 'These keep the behaviour the same.\n';
  const session: Session = {
    format: 'auto',
    files: [
      { name: 'lodash.js', text: lines.join('\n') + '\n' },
      { name: 'README.md', text: '# lodash\n\nA utility library.\n' },
      { name: 'test.js', text: library(400, 3).join('\n') + '\n' },
      { name: 'package.json', text: '{ "name": "lodash" }\n' },
    ],
    reply,
    prompt: 'Edit the files with editblocks.',
  };
  return { session, lines, at, bad, wrong };
}

test('ddmin: the smallest sublist passing the test, items in order, the empty list tried first', () => {
  let tests = 0;
  const needs = (kept: readonly number[]) => (tests++, kept.includes(3) && kept.includes(71));
  assert.deepEqual(ddmin(Array.from({ length: 100 }, (_, i) => i), needs), [3, 71]);
  assert.ok(tests < 100, `${tests} tests`);
  assert.deepEqual(ddmin([1, 2, 3], () => true), []);
  assert.deepEqual(ddmin([1, 2, 3], (k) => k.length === 3), [1, 2, 3]);
  // stopped at once: the list as it was
  assert.deepEqual(ddmin([1, 2, 3], () => true, () => true), [1, 2, 3]);
  assert.deepEqual(chunks([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4, 5]]);
  assert.deepEqual(chunks([1, 2], 4), [[1], [2]]);
});

test('a line number once lines are removed: minus the removed lines above it', () => {
  // lines 1-10, lines 2, 3 and 7 (0-based 1, 2, 6) removed; a removed line maps to the next one kept
  const kept = [0, 3, 4, 5, 7, 8, 9];
  assert.deepEqual([1, 2, 4, 7, 8, 10, 11, 15].map((l) => lineAfter(l, kept, 10)), [1, 2, 2, 5, 5, 7, 8, 12]);
});

test('line numbers in a reply line: whole numbers within the cited range only', () => {
  assert.deepEqual(lineNumbers('2128│    var x = f(2128, 2128.5, v2128);', 2127, 2130), [
    { at: 0, length: 4, value: 2128 },
    { at: 19, length: 4, value: 2128 },
  ]);
  assert.deepEqual(lineNumbers('@@ -40,3 +41,4 @@', 39, 43), [
    { at: 4, length: 2, value: 40 },
    { at: 10, length: 2, value: 41 },
  ]);
  assert.deepEqual(lineNumbers(' │    return 7;', 100, 110), []);
});

test('a 17,000-line session with one failing edit among 15 shrinks to a few lines that fail the same way', () => {
  const { session, lines, at, bad, wrong } = lodashCase();
  const original = run(session);
  assert.deepEqual(
    original.edits.map((e) => e.status),
    original.edits.map((_, k) => (k === bad ? 'failed' : 'applied')),
  );
  assert.equal(original.edits[bad].code, 'no-match');

  const seen: ShrinkProgress[] = [];
  const budget = 2000;
  const out = shrink(session, { index: bad, code: 'no-match' }, { budget, progress: (p) => seen.push(p) });
  assert.ok(out.ok);
  assert.ok(out.complete, 'finished within the budget');
  assert.ok(out.runs <= budget);

  // The shrunk session, run again: the corresponding edit fails with the same code, for the same reason.
  const shrunk = out.session;
  const again = run(shrunk);
  const edit = again.edits[out.index];
  assert.equal(edit.status, 'failed');
  assert.equal(edit.code, 'no-match');
  assert.equal(edit.file, 'lodash.js');
  assert.equal(shrunk.selected, out.index);
  assert.equal(shrunk.digest, resultDigest(again));
  assert.equal(shrunk.prompt, undefined);
  // the misquoted line is still cited, against the file's own line
  assert.ok(shrunk.reply.includes(wrong), shrunk.reply);
  assert.ok(shrunk.files.some((f) => f.text.includes(lines[at[bad] - 1])));
  assert.match(edit.message, /Deep\(\w+, depth/);

  assert.ok(totalLines(shrunk) <= 30, `${totalLines(shrunk)} lines:\n${JSON.stringify(shrunk, null, 1)}`);
  assert.deepEqual(shrunk.files.map((f) => f.name), ['lodash.js']);
  assert.equal(again.edits.length, 1);
  assert.deepEqual(out.after, { chars: shrunk.reply.length + shrunk.files[0].text.length, lines: totalLines(shrunk), files: 1, edits: 1 });
  assert.equal(out.before.files, 4);
  assert.equal(out.before.edits, 15);

  // The cited line number follows the lines removed above it.
  const cited = Number(/(\d+)│/.exec(shrunk.reply)?.[1]);
  assert.ok(cited < 10, `cites line ${cited}`);

  assert.deepEqual(out.removed.files, ['README.md', 'test.js', 'package.json']);
  assert.equal(out.removed.edits, 14);
  assert.equal(out.removed.lines[0].file, 'lodash.js');
  assert.equal(out.removed.lines[0].total, 17_000);
  assert.ok(shrank(out.removed));
  assert.match(
    describeRemoved(out.removed),
    /^removed 3 other files, 14 other edits, 1[67],\d{3} of 17,000 lines of lodash\.js, \d+ of \d+ lines of the reply and the prompt$/,
  );

  // Progress: runs counted up to the budget, phases in order, sizes shrinking to the result.
  assert.ok(seen.length > 2);
  assert.ok(seen.every((p, i) => p.budget === budget && p.runs <= budget && (i === 0 || p.runs >= seen[i - 1].runs)));
  assert.equal(seen[0].size.lines, out.before.lines);
  assert.equal(seen[seen.length - 1].phase, 'done');
  assert.deepEqual(seen[seen.length - 1].size, out.after);
  const order = ['check', 'files', 'edits', 'prose', 'lines', 'block', 'done'];
  const phases = [...new Set(seen.map((p) => p.phase))];
  assert.deepEqual(phases.slice(0, 5), order.slice(0, 5));
});

test('the budget of engine runs is respected; what was found so far still fails the same way', () => {
  const { session, bad } = lodashCase();
  let last = 0;
  const out = shrink(session, { index: bad, code: 'no-match' }, { budget: 40, progress: (p) => (last = p.runs) });
  assert.ok(out.ok);
  assert.equal(out.complete, false);
  assert.ok(out.runs <= 40 && last <= 40, `${out.runs} runs`);
  const edit = run(out.session).edits[out.index];
  assert.equal(edit.code, 'no-match');
  assert.ok(out.after.chars < out.before.chars);

  // Stopped from outside (the page's Cancel ends the worker; a caller may also ask).
  let asked = 0;
  const stopped = shrink(session, { index: bad, code: 'no-match' }, { stopped: () => ++asked > 5 });
  assert.ok(stopped.ok);
  assert.equal(stopped.complete, false);
  assert.ok(stopped.runs <= 6);
});

test('ambiguous: the shrunk session keeps two tied places', () => {
  const lines = library(3000, 11);
  const twice = lines[1500];
  lines[2400] = twice;
  const reply =
    'Sure.\n\napp.js\n```js\n<<<<<<< SEARCH\n' +
    `${twice}\n=======\n${twice.replace('var ', 'let ')}\n>>>>>>> REPLACE\n\`\`\`\n\n` +
    `app.js\n\`\`\`js\n<<<<<<< SEARCH\n${lines[100]}\n=======\n${lines[100]} // checked\n>>>>>>> REPLACE\n\`\`\`\n`;
  const session: Session = { format: 'auto', files: [{ name: 'app.js', text: lines.join('\n') + '\n' }, { name: 'other.js', text: 'x\n' }], reply };
  const original = run(session);
  assert.equal(original.edits[0].code, 'ambiguous');
  const out = shrink(session, { index: 0, code: 'ambiguous' });
  assert.ok(out.ok && out.complete);
  const edit = run(out.session).edits[out.index];
  assert.equal(edit.code, 'ambiguous');
  assert.equal(edit.candidates.length, 2);
  assert.ok(edit.candidates.every((c) => c.lines.join('\n') === twice));
  assert.deepEqual(out.session.files.map((f) => f.name), ['app.js']);
  assert.equal(out.session.files[0].text, `${twice}\n${twice}\n`);
  assert.equal(out.removed.edits, 1);
});

test('no-match with a close candidate: the shrunk failure keeps the line that differs and its close match', () => {
  const lines = library(5000, 5);
  const places = editable(lines);
  const at = places[200];
  const near = lines[at - 1];
  const typo = near.replace(/(\d+)\);$/, (_, d: string) => `${Number(d) + 1});`);
  assert.notEqual(typo, near);
  const reply = `${block('src/app.js', lines, at, [typo, lines[at]])}\n${block('src/app.js', lines, places[10])}`;
  const session: Session = { format: 'ln-diff', files: [{ name: 'src/app.js', text: lines.join('\n') + '\n' }], reply };
  const before = run(session).edits[0];
  assert.equal(before.code, 'no-match');
  const similarity = before.candidates[0].similarity;
  assert.ok(similarity > 0.9 && similarity < 1, String(similarity));

  const out = shrink(session, { index: 0, code: 'no-match' });
  assert.ok(out.ok && out.complete);
  const edit = run(out.session).edits[out.index];
  assert.equal(edit.code, 'no-match');
  const c = edit.candidates[0];
  assert.ok(c.lines.includes(near), JSON.stringify(c));
  assert.ok(c.similarity > 0.9, String(c.similarity));
  assert.ok(out.session.reply.includes(typo));
  assert.ok(totalLines(out.session) <= 10, JSON.stringify(out.session));
  assert.equal(out.session.format, 'ln-diff');
});

test('file-not-found: the edit naming no given file is kept, the files are not needed', () => {
  const lines = library(2000, 9);
  const places = editable(lines);
  const reply = [block('lodash.js', lines, places[5]), block('src/missing.js', lines, places[50]), block('lodash.js', lines, places[90])].join('\n');
  const session: Session = {
    format: 'ln-diff',
    files: [
      { name: 'lodash.js', text: lines.join('\n') + '\n' },
      { name: 'util.js', text: 'module.exports = {};\n' },
    ],
    reply,
  };
  const before = run(session);
  assert.equal(before.edits[1].code, 'file-not-found');
  const out = shrink(session, { index: 1, code: 'file-not-found' });
  assert.ok(out.ok && out.complete);
  const after = run(out.session);
  assert.equal(after.edits.length, 1);
  assert.equal(after.edits[out.index].code, 'file-not-found');
  assert.equal(after.edits[out.index].file, 'src/missing.js');
  assert.ok(out.session.reply.includes('src/missing.js'));
  assert.deepEqual(out.session.files, []);
  assert.match(describeRemoved(out.removed), /^removed 2 other files, 2 other edits and \d+ of \d+ lines of the reply$/);
});

test('an edit that fails only beside another (overlap) keeps the other edit', () => {
  const lines = library(1500, 13);
  const at = editable(lines)[40];
  const reply = [block('a.js', lines, at), block('a.js', lines, editable(lines)[5]), block('a.js', lines, at + 1, [lines[at], lines[at + 1]])].join('\n');
  const session: Session = { format: 'ln-diff', files: [{ name: 'a.js', text: lines.join('\n') + '\n' }], reply };
  const before = run(session);
  assert.deepEqual(
    before.edits.map((e) => e.code),
    ['overlap', null, 'overlap'],
  );
  const index = 2;
  const code = 'overlap';
  const out = shrink(session, { index, code });
  assert.ok(out.ok && out.complete);
  const after = run(out.session);
  assert.equal(after.edits[out.index].code, code);
  assert.equal(after.edits.length, 2);
  assert.equal(out.removed.edits, 1);
  // both blocks' line numbers followed the lines removed above them
  assert.ok(out.session.files[0].text.split('\n').length <= 5, JSON.stringify(out.session));
  assert.ok([...out.session.reply.matchAll(/(\d+)│/g)].every((m) => Number(m[1]) <= 5), out.session.reply);
});

test('a failure that is no longer there, or an edit that applies, is said so', () => {
  const { session } = lodashCase();
  const wrongCode = shrink(session, { index: 9, code: 'ambiguous' });
  assert.equal(wrongCode.ok, false);
  assert.ok(!wrongCode.ok && wrongCode.reason === 'not-reproduced' && /now fails with no-match, not ambiguous/.test(wrongCode.message));
  const applies = shrink(session, { index: 0, code: 'no-match' });
  assert.ok(!applies.ok && applies.reason === 'not-failed');
  const gone = shrink(session, { index: 40, code: 'no-match' });
  assert.ok(!gone.ok && gone.reason === 'not-reproduced' && gone.runs === 1);
});

test('what was removed, in words', () => {
  assert.equal(
    describeRemoved({ files: ['a', 'b', 'c'], ownFile: false, edits: 14, lines: [{ file: 'lodash.js', removed: 17_180, total: 17_209 }], reply: { removed: 0, total: 10 }, prompt: false }),
    'removed 3 other files, 14 other edits and 17,180 of 17,209 lines of lodash.js',
  );
  assert.equal(
    describeRemoved({ files: ['a'], ownFile: false, edits: 1, lines: [], reply: { removed: 1, total: 1 }, prompt: true }),
    'removed 1 other file, 1 other edit, 1 of 1 line of the reply and the prompt',
  );
  const none = { files: [], ownFile: false, edits: 0, lines: [], reply: { removed: 0, total: 3 }, prompt: false };
  assert.equal(describeRemoved(none), 'nothing could be removed');
  assert.equal(shrank(none), false);
});

// ---------------------------------------------------------------- a failure's identity

const PARSER = [
  'def load(path):',
  '    with open(path) as f:',
  '        data = f.read()',
  '    return data',
  '',
  'def parse(text):',
  '    items = text.split(",")',
  '    result = [i.strip() for i in items]',
  '    return result',
  '',
  'def save(path, data):',
  '    with open(path, "w") as f:',
  '        f.write(data)',
  '    return None',
  '',
];

/** An aider SEARCH/REPLACE reply for parse() whose SEARCH changes its lines `typos` (index → line). */
function typoSession(typos: Record<number, string>): Session {
  const search = PARSER.slice(5, 9).map((l, i) => typos[i] ?? l);
  const reply = `Fix parse:\n\napp.py\n\`\`\`python\n<<<<<<< SEARCH\n${search.join('\n')}\n=======\n${search.join('\n').replace('strip()', 'strip().lower()')}\n>>>>>>> REPLACE\n\`\`\`\n`;
  return { format: 'search-replace', files: [{ name: 'app.py', text: PARSER.join('\n') + '\n' }, { name: 'README.md', text: '# parser\n' }], reply };
}

const identity = (s: Session, index = 0) => {
  const result = run(s);
  return identityOf(s.reply, s.files.map((f) => f.name), result, result.edits[index], s.format === 'auto');
};

test("a failure's identity: the code, file, kind and the differing line its message names", () => {
  const session = typoSession({ 3: '  return result' });
  const edit = run(session).edits[0];
  assert.match(edit.message, /where line 9 is "    return result" but the SEARCH has "  return result"/);
  assert.deepEqual(identity(session), {
    code: 'no-match',
    file: 'app.py',
    kind: 'replace',
    differs: { cited: '  return result', actual: '    return result' },
    place: PARSER.slice(5, 9),
    remarks: [],
  });
  // The same lines, fewer of them around: the same failure.
  const smaller: Session = { format: 'search-replace', files: [{ name: 'app.py', text: `${PARSER[7]}\n${PARSER[8]}\n` }], reply: `app.py\n<<<<<<< SEARCH\n${PARSER[7]}\n  return result\n=======\n>>>>>>> REPLACE\n` };
  assert.ok(sameFailure(identity(session), identity(smaller)));
  // The typo alone: the engine now reads a change of indentation, a failure that names no differing line.
  const shifted: Session = { format: 'search-replace', files: [{ name: 'app.py', text: `${PARSER[8]}\n` }], reply: 'app.py\n<<<<<<< SEARCH\n  return result\n=======\n   def parse(text):\n>>>>>>> REPLACE\n' };
  assert.equal(run(shifted).edits[0].code, 'no-match');
  assert.match(run(shifted).edits[0].message, /only with their indentation changed/);
  assert.equal(identity(shifted).differs, null);
  assert.equal(sameFailure(identity(session), identity(shifted)), false);
  // Another line differing first: another failure, though the typo is still in the reply.
  const other: Session = { format: 'search-replace', files: [{ name: 'app.py', text: `${PARSER[6]}\n${PARSER[8]}\n` }], reply: `app.py\n<<<<<<< SEARCH\n${PARSER[7]}\n  return result\n=======\n>>>>>>> REPLACE\n` };
  assert.deepEqual(identity(other).differs, { cited: PARSER[7], actual: PARSER[6] });
  assert.equal(sameFailure(identity(session), identity(other)), false);
  // A remark the original did not have: another failure.
  assert.equal(sameFailure(identity(session), { ...identity(smaller), remarks: ['stray-marker'] }), false);
  assert.equal(sameFailure(identity(session), { ...identity(smaller), code: 'ambiguous' }), false);
});

test("a failure's identity from an edit result: the first differing line, only when the message quotes it", () => {
  const edit = run(typoSession({ 2: '    result = [i.strip() for i in item]', 3: '  return result' })).edits[0];
  const cited = ['def parse(text):', '    items = text.split(",")', '    result = [i.strip() for i in item]', '  return result'];
  assert.deepEqual(failureIdentity(edit, { diagnostics: [] }, cited).differs, { cited: cited[2], actual: PARSER[7] });
  // cited lines that are not the ones the message quotes: none named
  assert.equal(failureIdentity(edit, { diagnostics: [] }, ['a', 'b', 'c', 'd']).differs, null);
  assert.equal(failureIdentity(edit, { diagnostics: [] }, null).differs, null);
  // an applied edit has no failure
  assert.equal(failureIdentity({ ...edit, status: 'applied', code: null }, { diagnostics: [] }, cited).code, null);
});

test('shrinking keeps the failure: the SEARCH line with the typo and the file line it differs from stay named', () => {
  // The whole of parse() cited, its last line indented by two spaces instead of four. Shrunk to the
  // typo alone, the engine would read an indentation shift: the typo's failure would be gone.
  const session = typoSession({ 3: '  return result' });
  const out = shrink(session, { index: 0, code: 'no-match' });
  assert.ok(out.ok && out.complete);
  const edit = run(out.session).edits[out.index];
  assert.equal(edit.code, 'no-match');
  assert.match(edit.message, /where line \d+ is "    return result" but the SEARCH has "  return result"/);
  assert.deepEqual(identity(out.session, out.index).differs, identity(session).differs);
  assert.ok(totalLines(out.session) < totalLines(session) / 3, JSON.stringify(out.session));
  assert.deepEqual(out.session.files.map((f) => f.name), ['app.py']);

  // Two typos: the one the message names is the one kept (not the other, which would name another line).
  const two = typoSession({ 1: '    items = text.split(";")', 3: '  return result' });
  const named = run(two).edits[0].message;
  assert.match(named, /is "    items = text.split\(\\",\\"\)" but the SEARCH has "    items = text.split\(\\";\\"\)"/);
  const out2 = shrink(two, { index: 0, code: 'no-match' });
  assert.ok(out2.ok && out2.complete);
  assert.deepEqual(identity(out2.session, out2.index).differs, { cited: '    items = text.split(";")', actual: '    items = text.split(",")' });
});

test('shrinking an ln-diff edit keeps a cited line number that exists: the failure still names its line', () => {
  // Lines 36 and 37 are the same: keeping only line 36 would leave the block citing line 2 of a
  // one-line file ("cite lines that exist"), another failure.
  const file = ['    }', '    x = f(1);', '    return result;', '    return result;', '    y = g(2);', ''];
  const reply = 'app.py\n<editblock>\n<<<<<<< REMOVE\n2│    x = f(1);\n3│    return result;\n4│  return result;\n=======\n │    x = f(1); // new\n>>>>>>> INSERT\n</editblock>\n';
  const session: Session = { format: 'ln-diff', files: [{ name: 'app.py', text: file.join('\n') }], reply };
  assert.match(run(session).edits[0].message, /where line 4 is "    return result;" but the edit cites "  return result;"/);
  const out = shrink(session, { index: 0, code: 'no-match' });
  assert.ok(out.ok && out.complete);
  const edit = run(out.session).edits[out.index];
  assert.match(edit.message, /where line \d+ is "    return result;" but the edit cites "  return result;"/, JSON.stringify(out.session));
});

test('a number inside a line the block quotes is the code\'s, not a citation: it is never renumbered', () => {
  const block = '1502│    value_1502 = compute(alpha, beta, 1052)  # step 1502\n=======\n    │    total = 1502\n';
  const quoted = ['    value_1502 = compute(alpha, beta, 1052)  # step 1502', '    total = 1502'];
  assert.deepEqual(citedNumbers(block, quoted, 1501, 1503), [{ at: 0, length: 4, value: 1502 }]);
  // unified diff: the hunk header's numbers cite, the lines' do not
  assert.deepEqual(
    citedNumbers('@@ -40,2 +40,2 @@\n-  return 40;\n+  return 41;\n', ['  return 40;', '  return 41;'], 39, 42).map((n) => n.value),
    [40, 40],
  );
  // nothing quoted: every number in range, as before
  assert.deepEqual(citedNumbers('7│x = 7', [], 6, 8).map((n) => n.at), [0, 6]);

  // Every line of the file holds its own number: the failing line keeps its text while the lines above it go.
  let file = '';
  for (let i = 1; i <= 600; i++) file += `    value_${i} = compute(alpha, beta, ${i})  # step ${i}\n`;
  const typo = '    value_502 = compute(alpha, beta, 520)  # step 502';
  const reply = `app.py\n<editblock>\n<<<<<<< REMOVE\n502│${typo}\n=======\n    │    value_502 = compute(beta, alpha, 502)\n>>>>>>> INSERT\n</editblock>\n`;
  const session: Session = { format: 'ln-diff', files: [{ name: 'app.py', text: file }], reply };
  const out = shrink(session, { index: 0, code: 'no-match' });
  assert.ok(out.ok && out.complete);
  assert.ok(out.session.reply.includes(`│${typo}\n`), out.session.reply);
  assert.ok(totalLines(out.session) <= 6, JSON.stringify(out.session));
  assert.deepEqual(identity(out.session, out.index).differs, identity(session).differs);
});
