// UTF-8 bytes to a string, in plain ECMAScript (the core uses no Web or Node
// API): what `new TextDecoder().decode(bytes)` gives, each invalid or cut
// sequence becoming one U+FFFD (the WHATWG "maximal subpart" rule).

/** Decode UTF-8 `bytes`; invalid sequences become U+FFFD, as TextDecoder (non-fatal) does. */
export function decodeUtf8(bytes: ArrayLike<number>): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b < 0x80) {
      out += String.fromCharCode(b);
      i++;
      continue;
    }
    // Sequence length and the range the second byte must fall in.
    let need = 0;
    let lo = 0x80;
    let hi = 0xbf;
    let cp = 0;
    if (b >= 0xc2 && b <= 0xdf) [need, cp] = [1, b & 0x1f];
    else if (b >= 0xe0 && b <= 0xef) {
      [need, cp] = [2, b & 0x0f];
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      [need, cp] = [3, b & 0x07];
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else {
      out += '\ufffd';
      i++;
      continue;
    }
    let j = i + 1;
    let ok = true;
    for (let k = 0; k < need; k++, j++) {
      const c = bytes[j];
      if (j >= bytes.length || c < (k === 0 ? lo : 0x80) || c > (k === 0 ? hi : 0xbf)) {
        ok = false;
        break;
      }
      cp = (cp << 6) | (c & 0x3f);
    }
    if (!ok) {
      out += '\ufffd';
      i = j; // the maximal subpart is replaced by one U+FFFD
      continue;
    }
    out += String.fromCodePoint(cp);
    i = j;
  }
  return out;
}
