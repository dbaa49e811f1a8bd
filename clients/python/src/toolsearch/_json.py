"""JSON encoding byte-for-byte like the Go client's (encoding/json with
SetEscapeHTML(false)): compact, keys in insertion order, non-ASCII text
unescaped but U+2028/U+2029 escaped, and floats written as Go writes them
(1 not 1.0, 0.951 not 0.9510)."""

from __future__ import annotations

import json
import math
from typing import Any


def _go_float(f: float) -> str:
    if math.isnan(f) or math.isinf(f):
        raise ValueError("JSON has no NaN or infinity")
    if f == int(f) and abs(f) < 1e21:
        return str(int(f))
    r = repr(f)
    if "e" in r:  # Go: 1e-07, Python: 1e-07; Go pads the exponent to 2 digits
        mant, exp = r.split("e")
        sign = exp[0] if exp[0] in "+-" else "+"
        digits = exp.lstrip("+-").lstrip("0") or "0"
        return f"{mant}e{sign if sign == '-' else '+'}{digits.zfill(2)}"
    return r


def _encode(v: Any, out: list[str]) -> None:
    if v is None:
        out.append("null")
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif isinstance(v, int):
        out.append(str(v))
    elif isinstance(v, float):
        out.append(_go_float(v))
    elif isinstance(v, str):
        out.append(json.dumps(v, ensure_ascii=False).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))
    elif isinstance(v, RawJSON):
        out.append(v.text)
    elif isinstance(v, dict):
        out.append("{")
        for i, (k, x) in enumerate(v.items()):
            if i:
                out.append(",")
            _encode(str(k), out)
            out.append(":")
            _encode(x, out)
        out.append("}")
    elif isinstance(v, (list, tuple)):
        out.append("[")
        for i, x in enumerate(v):
            if i:
                out.append(",")
            _encode(x, out)
        out.append("]")
    else:
        raise TypeError(f"cannot encode {type(v).__name__} as JSON")


class RawJSON:
    """JSON text spliced into the output as it is (compacted), like Go's
    json.RawMessage."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = compact(text)


def compact(text: str) -> str:
    """Removes insignificant whitespace from JSON text, as Go's json.Compact."""
    out = []
    in_str = esc = False
    for ch in text:
        if in_str:
            out.append(ch)
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
            out.append(ch)
        elif ch not in " \t\r\n":
            out.append(ch)
    return "".join(out)


def dumps(v: Any) -> str:
    """Encodes v as compact JSON, as the Go client does."""
    out: list[str] = []
    _encode(v, out)
    return "".join(out)


def go_quote(s: str) -> str:
    """Quotes s as Go's %q verb (strconv.Quote) does for printable text."""
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch in "\a\b\f\n\r\t\v":
            out.append({"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v"}[ch])
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\x{o:02x}")
        elif not ch.isprintable() and o > 0x7F and ch != " ":
            out.append(f"\\u{o:04x}" if o <= 0xFFFF else f"\\U{o:08x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)
