import { test } from 'node:test';
import assert from 'node:assert/strict';
import LZString from 'lz-string';
import {
  checkSession,
  decodeSession,
  encodeSession,
  linkVersion,
  readSessionFile,
  sessionFile,
  sessionHref,
  type Session,
} from '../../src/share/share.ts';

const FULL: Session = {
  format: 'ln-diff',
  files: [
    { name: 'a.py', text: 'x = 1\r\ny = 2' },
    { name: 'dir/b.txt', text: '\ufeffbom\n\n' },
  ],
  reply: 'a.py\n<editblock>\n</editblock>',
  options: { fuzzy: false, window: 3, fuzzyThreshold: 0.5, whitespace: false },
  selected: 1,
  prompt: 'Be exact.\r\n',
  digest: '0123abcd',
};

test('a session survives a link byte for byte (CRLF, no final newline, BOM, every field)', () => {
  assert.deepEqual(decodeSession(encodeSession(FULL)), { ok: true, session: FULL });
  assert.deepEqual(decodeSession(`#${encodeSession(FULL)}`), { ok: true, session: FULL });
  const bare: Session = { format: 'auto', files: [], reply: '' };
  assert.deepEqual(decodeSession(encodeSession(bare)), { ok: true, session: bare });
});

test('sessionHref: the version in the query only when given', () => {
  const hash = encodeSession(FULL);
  assert.equal(sessionHref(FULL), `/playground/#${hash}`);
  assert.equal(sessionHref(FULL, '/base/playground/'), `/base/playground/#${hash}`);
  assert.equal(sessionHref(FULL, '/playground/', '0.1.0'), `/playground/?v=0.1.0#${hash}`);
  assert.equal(sessionHref(FULL, '/playground/', '"><script>'), `/playground/#${hash}`);
});

test('linkVersion reads ?v= and refuses anything but a version', () => {
  assert.equal(linkVersion('?v=0.1.0'), '0.1.0');
  assert.equal(linkVersion('?test-hooks&v=1.2.3-beta.1%2Bbuild'), '1.2.3-beta.1+build');
  assert.equal(linkVersion(''), null);
  assert.equal(linkVersion('?v='), null);
  assert.equal(linkVersion('?v=%3Cscript%3E'), null);
  assert.equal(linkVersion(`?v=${'1'.repeat(41)}`), null);
});

const pack = (value: unknown) => `s=${LZString.compressToEncodedURIComponent(JSON.stringify(value))}`;
const error = (hash: string) => {
  const d = decodeSession(hash);
  return d.ok ? 'ok' : d.error;
};

test('broken and hostile links say what is wrong, never throw', () => {
  const good = encodeSession(FULL);
  assert.equal(error(''), 'the link holds no playground session');
  assert.equal(error('#x=1'), 'the link holds no playground session');
  assert.equal(error('s='), 'the link could not be decompressed; it may have been cut short');
  assert.equal(error(good.slice(0, 20)), 'the link could not be decompressed; it may have been cut short');
  assert.equal(error('s=<script>'), 'the link contains characters a session never has; it may have been cut or altered');
  assert.equal(error(`s=${LZString.compressToEncodedURIComponent('{"v":1')}`), 'the session in the link is not valid JSON; it may have been cut short');
  assert.equal(error(pack(null)), 'the link holds a session of an unknown version');
  assert.equal(error(pack({ v: 2 })), 'the link holds a session of an unknown version');
  assert.equal(error(pack({ v: 1, f: 1, fs: [], r: '' })), 'the session names no valid format');
  assert.equal(error(pack({ v: 1, f: 'x'.repeat(51), fs: [], r: '' })), 'the session names no valid format');
  assert.equal(error(pack({ v: 1, f: 'ln-diff', fs: [], r: null })), 'the session has no reply text');
  assert.equal(error(pack({ v: 1, f: 'ln-diff', fs: {}, r: '' })), "the session's files are missing or too many (at most 50)");
  assert.equal(error(pack({ v: 1, f: 'ln-diff', fs: Array(51).fill(['a', '']), r: '' })), "the session's files are missing or too many (at most 50)");
  assert.equal(error(pack({ v: 1, f: 'ln-diff', fs: [['a', 1]], r: '' })), 'a file in the session is not a name and a text');
  assert.equal(error(pack({ v: 1, f: 'ln-diff', fs: [['a'.repeat(501), '']], r: '' })), 'a file name in the session is too long (over 500 characters)');
  assert.equal(error(pack({ v: 1, f: 'ln-diff', fs: [], r: '', o: [] })), "the session's options are not an object");
  assert.equal(error(pack({ v: 1, f: 'ln-diff', fs: [], r: '', p: 5 })), "the session's prompt is not text");
  assert.equal(error(`s=${'A'.repeat(4_000_001)}`), 'the link is too long (4000001 characters)');
});

test('unknown or malformed optional fields are dropped, not trusted', () => {
  const d = decodeSession(
    pack({ v: 1, f: 'ln-diff', fs: [], r: '', o: JSON.parse('{"__proto__":{"x":1},"window":-1,"fuzzyThreshold":2,"fuzzy":"no","whitespace":false}'), e: 1.5, d: 'XYZ', extra: 1 }),
  );
  assert.deepEqual(d, { ok: true, session: { format: 'ln-diff', files: [], reply: '', options: { whitespace: false } } });
  assert.equal(({} as Record<string, unknown>).x, undefined);
});

test('session files: written with the version, read back with the same checks', () => {
  const text = sessionFile(FULL, '0.1.0');
  assert.deepEqual(readSessionFile(text), { ok: true, session: FULL, version: '0.1.0' });
  assert.deepEqual(JSON.parse(text).lnDiffSession, 1);
  assert.deepEqual(readSessionFile('not json'), { ok: false, error: 'the file is not JSON' });
  assert.deepEqual(readSessionFile('[]'), { ok: false, error: 'it is not a playground session' });
  assert.deepEqual(readSessionFile('{"format":"auto","files":[{"name":"a"}],"reply":""}'), { ok: false, error: 'a file in the session is not a name and a text' });
  assert.deepEqual(readSessionFile(JSON.stringify({ format: 'auto', files: [], reply: '', version: '<b>' })), {
    ok: true,
    session: { format: 'auto', files: [], reply: '' },
    version: null,
  });
});

test('checkSession takes the long form, as examples carry it', () => {
  assert.deepEqual(checkSession({ format: 'whole', files: [{ name: 'a', text: 'b' }], reply: 'r' }), {
    ok: true,
    session: { format: 'whole', files: [{ name: 'a', text: 'b' }], reply: 'r' },
  });
  assert.deepEqual(checkSession('x'), { ok: false, error: 'it is not a playground session' });
  assert.deepEqual(checkSession({ format: 'whole', files: Array(60).fill({ name: 'a', text: '' }), reply: '' }), {
    ok: false,
    error: "the session's files are missing or too many (at most 50)",
  });
});
