// Decompression of lz-string's URI-safe encoding with a limit on the output.
// Links are untrusted, and LZ codes can describe far more text than they
// take: a link of a few hundred kilobytes can stand for gigabytes, which
// `LZString.decompressFromEncodedURIComponent` would build before anyone
// could check its size. This reader is the same algorithm (lz-string 1.5,
// `_decompress`, WTFPL) stopping as soon as the output passes `maxLength`.
// Pure; compression stays with the lz-string package.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$';
const VALUE = new Map<string, number>([...ALPHABET].map((ch, i) => [ch, i]));

export type Inflated = { ok: true; text: string } | { ok: false; reason: 'corrupt' | 'too-large' };

/**
 * Decompress `compressToEncodedURIComponent` output. `corrupt` for input the
 * compressor never writes (an empty or cut input, a code that points past the
 * dictionary), `too-large` as soon as the text would pass `maxLength` UTF-16
 * units. Never throws.
 */
export function inflateUriComponent(input: string, maxLength: number): Inflated {
  if (input === '') return { ok: false, reason: 'corrupt' };
  const packed = input.replace(/ /g, '+');
  const length = packed.length;
  const valueAt = (i: number): number => VALUE.get(packed.charAt(i)) ?? 0;
  const reset = 32;
  let val = valueAt(0);
  let position = reset;
  let index = 1;

  const read = (bitCount: number): number => {
    let bits = 0;
    for (let power = 1, n = 0; n < bitCount; n++, power *= 2) {
      const bit = val & position;
      position >>= 1;
      if (position === 0) {
        position = reset;
        val = valueAt(index++);
      }
      if (bit > 0) bits += power;
    }
    return bits;
  };

  const dictionary: string[] = ['', '', ''];
  let dictSize = 4;
  let numBits = 3;
  let enlargeIn = 4;
  let total = 0;
  const result: string[] = [];

  let c: string;
  switch (read(2)) {
    case 0:
      c = String.fromCharCode(read(8));
      break;
    case 1:
      c = String.fromCharCode(read(16));
      break;
    default:
      return { ok: true, text: '' };
  }
  dictionary[3] = c;
  let w = c;
  result.push(c);
  total = 1;
  for (;;) {
    if (index > length) return { ok: false, reason: 'corrupt' };
    let code = read(numBits);
    if (code === 0 || code === 1) {
      dictionary[dictSize++] = String.fromCharCode(read(code === 0 ? 8 : 16));
      code = dictSize - 1;
      enlargeIn--;
    } else if (code === 2) {
      return { ok: true, text: result.join('') };
    }
    if (enlargeIn === 0) {
      enlargeIn = 2 ** numBits;
      numBits++;
    }
    let entry: string;
    if (code < dictSize && code >= 3 && dictionary[code]) entry = dictionary[code];
    else if (code === dictSize) entry = w + w.charAt(0);
    else return { ok: false, reason: 'corrupt' };
    // Check before the entry is read character by character (charAt flattens it).
    total += entry.length;
    if (total > maxLength) return { ok: false, reason: 'too-large' };
    result.push(entry);
    dictionary[dictSize++] = w + entry.charAt(0);
    enlargeIn--;
    w = entry;
    if (enlargeIn === 0) {
      enlargeIn = 2 ** numBits;
      numBits++;
    }
  }
}
