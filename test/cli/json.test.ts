import { test } from 'node:test';
import assert from 'node:assert/strict';
import { block, oneErrorLine, run } from './helpers.ts';

const applyJson = (request: unknown) =>
  run(['apply', '--json'], { input: typeof request === 'string' ? request : JSON.stringify(request) });

function parseResult(stdout: string) {
  assert.ok(stdout.endsWith('}\n'), `one JSON document and a newline, got ${JSON.stringify(stdout.slice(-20))}`);
  assert.equal(stdout.indexOf('\n'), stdout.length - 1, 'a single line');
  return JSON.parse(stdout);
}

test('apply --json: a clean edit exits 0 and prints the result', () => {
  const reply = 'Sure, here is the fix.\n\n' + block('src/app.py', [[2, '    print("old")']], ['    print("new")']);
  const r = applyJson({ format: 'ln-diff', files: { 'src/app.py': 'def f():\n    print("old")\n    return 1\n' }, response: reply });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  const result = parseResult(r.stdout);
  assert.equal(result.ok, true);
  assert.deepEqual(result.files, { 'src/app.py': 'def f():\n    print("new")\n    return 1\n' });
  assert.equal(result.edits.length, 1);
  const [e] = result.edits;
  assert.equal(e.file, 'src/app.py');
  assert.equal(e.index, 0);
  assert.equal(e.status, 'applied');
  assert.equal(e.match, 'exact');
  assert.equal(e.offset, 0);
  assert.equal(e.similarity, 1);
  assert.deepEqual(e.range, { start: 2, end: 2 });
  assert.equal(e.code, null);
  assert.equal(typeof e.message, 'string');
});

test('apply --json: CRLF, BOM, no final newline and non-ASCII text survive byte for byte', () => {
  const crlf = '\uFEFFline 1\r\nold 2 é\r\nline 3 🙂\r\n';
  const noFinal = 'a\nb\nc';
  const reply =
    block('win.txt', [[2, 'old 2 é']], ['new 2 ü', 'extra ✓']) + '\n' + block('nofinal.txt', [[3, 'c']], ['C']);
  const r = applyJson({ format: 'auto', files: { 'win.txt': crlf, 'nofinal.txt': noFinal }, response: reply });
  assert.equal(r.status, 0, r.stderr + r.stdout);
  const result = parseResult(r.stdout);
  assert.equal(result.ok, true);
  assert.equal(result.files['win.txt'], '\uFEFFline 1\r\nnew 2 ü\r\nextra ✓\r\nline 3 🙂\r\n');
  assert.equal(result.files['nofinal.txt'], 'a\nb\nC');
  assert.deepEqual(
    result.edits.map((e: { file: string; status: string }) => [e.file, e.status]),
    [
      ['win.txt', 'applied'],
      ['nofinal.txt', 'applied'],
    ],
  );
});

test('apply --json: a CRLF reply applies too', () => {
  const reply = block('a.txt', [[1, 'x']], ['y']).replace(/\n/g, '\r\n');
  const r = applyJson({ format: 'ln-diff', files: { 'a.txt': 'x\n' }, response: reply });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(parseResult(r.stdout).files['a.txt'], 'y\n');
});

test('apply --json: a failed edit exits 1, still prints the result, file text unchanged', () => {
  const before = 'one\ntwo\nthree\n';
  const reply = block('f.txt', [[2, 'not in the file at all']], ['x']);
  const r = applyJson({ format: 'ln-diff', files: { 'f.txt': before }, response: reply });
  assert.equal(r.status, 1, r.stderr);
  assert.equal(r.stderr, '');
  const result = parseResult(r.stdout);
  assert.equal(result.ok, false);
  assert.equal(result.files['f.txt'], before);
  assert.equal(result.edits[0].status, 'failed');
  assert.equal(result.edits[0].match, null);
  assert.equal(result.edits[0].range, null);
  assert.equal(result.edits[0].code, 'no-match');
});

test('apply --json: a reply with no edit is ok with the warning no-edits, and exits 0 as its ok says', () => {
  const r = applyJson({ format: 'auto', files: { 'a.txt': 'x\n' }, response: '' });
  assert.equal(r.status, 0, r.stderr);
  const result = parseResult(r.stdout);
  assert.equal(result.ok, true);
  assert.deepEqual(result.edits, []);
  assert.deepEqual(result.diagnostics.map((d: { code: string }) => d.code), ['no-edits']);
});

test('apply --json: options are passed to the engine', () => {
  const request = {
    format: 'ln-diff',
    files: { 'f.txt': 'a\nb\n' },
    response: block('f.txt', [[2, 'b']], ['B']),
    options: { window: 10, fuzzyThreshold: 0.9, whitespace: false, fuzzy: false },
  };
  const r = applyJson(request);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(parseResult(r.stdout).files['f.txt'], 'a\nB\n');
});

test('apply --json: a BOM before the JSON document is accepted', () => {
  const request = { format: 'ln-diff', files: { 'f.txt': 'a\n' }, response: block('f.txt', [[1, 'a']], ['b']) };
  const r = applyJson('\uFEFF' + JSON.stringify(request));
  assert.equal(r.status, 0, r.stderr);
  assert.equal(parseResult(r.stdout).files['f.txt'], 'b\n');
});

const reply = block('f.txt', [[1, 'a']], ['b']);
const malformed: [string, string | Buffer][] = [
  ['invalid JSON', '{"format": "ln-diff", '],
  ['empty stdin', ''],
  ['not an object', JSON.stringify([1, 2])],
  ['a JSON string', JSON.stringify('hello')],
  ['null', 'null'],
  ['response missing', JSON.stringify({ format: 'ln-diff', files: {} })],
  ['response not a string', JSON.stringify({ format: 'ln-diff', files: {}, response: 42 })],
  ['files not an object', JSON.stringify({ format: 'ln-diff', files: ['f.txt'], response: reply })],
  ['file text not a string', JSON.stringify({ format: 'ln-diff', files: { 'f.txt': null }, response: reply })],
  ['format not a string', JSON.stringify({ format: 7, files: {}, response: reply })],
  ['unknown format', JSON.stringify({ format: 'no-such-format', files: {}, response: reply })],
  ['bad options', JSON.stringify({ format: 'ln-diff', files: {}, response: reply, options: { window: -1 } })],
  ['options not an object', JSON.stringify({ format: 'ln-diff', files: {}, response: reply, options: 'fast' })],
  ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
  ['an unknown field', JSON.stringify({ format: 'ln-diff', files: {}, response: reply, respnose: reply })],
  ['an unknown option', JSON.stringify({ format: 'ln-diff', files: {}, response: reply, options: { fuzzyTreshold: 0.5 } })],
  ['file text a number', JSON.stringify({ format: 'ln-diff', files: { 'f.txt': 5 }, response: reply })],
  ['files null', JSON.stringify({ format: 'ln-diff', files: null, response: reply })],
];
for (const [name, input] of malformed) {
  test(`apply --json: ${name} exits 2 with one stderr line and nothing on stdout`, () => {
    const r = run(['apply', '--json'], { input });
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    oneErrorLine(r.stderr);
  });
}

test('apply --json: the error names the problem', () => {
  assert.match(oneErrorLine(applyJson('{nope').stderr), /invalid JSON/);
  assert.match(
    oneErrorLine(applyJson({ format: 'no-such-format', files: {}, response: '' }).stderr),
    /unknown format "no-such-format"/,
  );
  assert.match(oneErrorLine(applyJson({ format: 'ln-diff', files: {} }).stderr), /"response"/);
});

test('apply --json: an unknown field, of the request or of its options, is named', () => {
  assert.match(oneErrorLine(applyJson({ format: 'ln-diff', files: {}, response: reply, model: 'x' }).stderr), /unknown field "model"/);
  assert.match(
    oneErrorLine(applyJson({ format: 'ln-diff', files: {}, response: reply, options: { window: 3, fuzz: false } }).stderr),
    /unknown option "fuzz"/,
  );
  assert.match(oneErrorLine(applyJson({ format: 'ln-diff', files: { 'f.txt': 5 }, response: reply }).stderr), /"files"\["f\.txt"\] must be a string/);
});

test('apply --json: every field the schema allows is accepted, each left out takes its default', () => {
  // The contract's fields, all of them at once, then only the required one.
  const full = { format: 'auto', files: { 'f.txt': 'a\n' }, response: reply, options: { window: 0, fuzzyThreshold: 1, whitespace: true, fuzzy: true } };
  const r = applyJson(full);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(parseResult(r.stdout).files['f.txt'], 'b\n');
  const bare = applyJson({ response: 'no edit here' });
  assert.equal(bare.status, 0, bare.stderr);
  const result = parseResult(bare.stdout);
  assert.deepEqual(result.files, {});
  assert.notEqual(result.detection, null, 'format defaults to auto');
});

test('apply --json: other options or arguments are a usage error', () => {
  for (const args of [
    ['apply', '--json', 'reply.txt'],
    ['apply', '--json', '--dry-run'],
    ['apply', '--json', '--base', '.'],
    ['apply', '--json', '--format', 'ln-diff'],
    ['apply', '--json', '--bogus'],
  ]) {
    const r = run(args, { input: JSON.stringify({ format: 'ln-diff', files: {}, response: '' }) });
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stdout, '');
    oneErrorLine(r.stderr);
  }
});

test('apply --json: a file named __proto__ is a file like any other (in the request and the result)', () => {
  // Written as JSON text: an object literal with a `__proto__` key would set a prototype instead.
  const response = block('__proto__', [[1, 'x']], ['y']);
  const request = `{"format":"ln-diff","files":{"__proto__":"x\\n","b.txt":"b\\n"},"response":${JSON.stringify(response)}}`;
  const r = applyJson(request);
  assert.equal(r.status, 0, r.stderr + r.stdout);
  const result = parseResult(r.stdout);
  assert.equal(Object.hasOwn(result.files, '__proto__'), true, 'the result names the file');
  assert.equal(result.files['__proto__'], 'y\n');
  assert.equal(result.files['b.txt'], 'b\n');
  assert.deepEqual(Object.keys(result.files).sort(), ['__proto__', 'b.txt']);
  assert.equal(result.edits[0].file, '__proto__');
  assert.equal(result.edits[0].status, 'applied');
});
