// hashline tags: a 4-character checksum per line and an 8-digit checksum per
// file, both CRC-32/IEEE (zlib's crc32) of UTF-8 bytes. spec/formats/hashline.md
// ("Tags") is the contract; python3 reproduces every value:
//
//   line tag: base64.urlsafe_b64encode((zlib.crc32(line.rstrip(' \t\r').encode()) & 0xFFFFFF).to_bytes(3, 'big'))
//   file tag: '%08x' % zlib.crc32(''.join(l.rstrip(' \t\r') + '\n' for l in lines).encode())

/** The 64 digits of a tag: RFC 4648 base64url, in value order. */
export const TAG_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A line tag as written: exactly 4 base64url digits. */
export const TAG_PATTERN = /^[A-Za-z0-9_-]{4}$/;

/** A file tag as written: exactly 8 hexadecimal digits (either case). */
export const FILE_TAG_PATTERN = /^[0-9A-Fa-f]{8}$/;

const TABLE: Uint32Array = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/**
 * Feed the UTF-8 encoding of `text` into a running CRC-32 register (not yet
 * finalised). Lone surrogates are encoded as U+FFFD, as the WHATWG encoder does.
 */
function feed(crc: number, text: string): number {
  const byte = (b: number) => {
    crc = TABLE[(crc ^ b) & 0xff] ^ (crc >>> 8);
  };
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (cp <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (next - 0xdc00);
        i++;
      } else {
        cp = 0xfffd;
      }
    }
    if (cp < 0x80) byte(cp);
    else if (cp < 0x800) {
      byte(0xc0 | (cp >> 6));
      byte(0x80 | (cp & 63));
    } else if (cp < 0x10000) {
      byte(0xe0 | (cp >> 12));
      byte(0x80 | ((cp >> 6) & 63));
      byte(0x80 | (cp & 63));
    } else {
      byte(0xf0 | (cp >> 18));
      byte(0x80 | ((cp >> 12) & 63));
      byte(0x80 | ((cp >> 6) & 63));
      byte(0x80 | (cp & 63));
    }
  }
  return crc;
}

/** CRC-32/IEEE (the zlib, PNG and zip checksum) of the UTF-8 bytes of `text`. */
export function crc32(text: string): number {
  return (feed(0xffffffff, text) ^ 0xffffffff) >>> 0;
}

/** A line as it is hashed: trailing spaces, tabs and carriage returns removed. */
export function normalise(line: string): string {
  // A loop, not /[ \t\r]+$/: that regex is quadratic on a long run of blanks followed by other text.
  let e = line.length;
  for (let c = line.charCodeAt(e - 1); c === 32 || c === 9 || c === 13; c = line.charCodeAt(e - 1)) e--;
  return e === line.length ? line : line.slice(0, e);
}

/** The tag of one line: the low 24 bits of its CRC-32 as 4 base64url digits, most significant first. */
export function lineTag(line: string): string {
  const v = crc32(normalise(line)) & 0xffffff;
  return TAG_ALPHABET[(v >>> 18) & 63] + TAG_ALPHABET[(v >>> 12) & 63] + TAG_ALPHABET[(v >>> 6) & 63] + TAG_ALPHABET[v & 63];
}

/**
 * The tag of a whole file, from its lines: CRC-32 of every normalised line
 * followed by LF, as 8 lowercase hexadecimal digits. Line endings, a byte
 * order mark and the final-newline state do not count.
 */
export function fileTag(lines: readonly string[]): string {
  let crc = 0xffffffff;
  for (const line of lines) crc = feed(feed(crc, normalise(line)), '\n');
  return ((crc ^ 0xffffffff) >>> 0).toString(16).padStart(8, '0');
}

/** One row of the view: `N:TAG content` (no space after the tag when the line is empty). */
export function viewRow(number: number, line: string): string {
  return `${number}:${lineTag(line)}${line === '' ? '' : ' ' + line}`;
}

/** The text a model is shown: a `file_tag:` header, then one row per line, each ending with LF. */
export function renderView(lines: readonly string[]): string {
  let out = `file_tag:${fileTag(lines)}\n`;
  lines.forEach((line, i) => (out += viewRow(i + 1, line) + '\n'));
  return out;
}
