// JSON encoding byte-for-byte like the Go client's (encoding/json with
// SetEscapeHTML(false)): compact, keys in insertion order, U+2028 and
// U+2029 escaped. JSON.stringify already writes numbers as Go does (1, not
// 1.0) and leaves <, > and & alone.

/** Encodes v as compact JSON, as the Go client does. */
export function goJSON(v: unknown): string {
  return JSON.stringify(v).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

const shortEscapes: Record<string, string> = {
  "\x07": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v",
};

/** Quotes s as Go's %q verb (strconv.Quote) does for printable text. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (shortEscapes[ch] !== undefined) out += shortEscapes[ch];
    else if (c < 0x20 || c === 0x7f) out += "\\x" + c.toString(16).padStart(2, "0");
    else if (c > 0x7f && /[\p{C}\p{Z}]/u.test(ch) && ch !== " ") {
      out += c <= 0xffff ? "\\u" + c.toString(16).padStart(4, "0") : "\\U" + c.toString(16).padStart(8, "0");
    } else out += ch;
  }
  return out + '"';
}
