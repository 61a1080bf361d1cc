"""A student's text in the grader's log and reports: what their files, their programs and the
compiler quoting them may put on a line of the grader's own (a line break, a carriage return,
a terminal's escape, a bidirectional override) shown as escapes, on one line."""

from __future__ import annotations

import unicodedata

_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def one_line(text: str, limit: int = 0) -> str:
    """Text that a student's files or programs may have written, safe to show on one line of a
    log or a report: every character that would move the cursor, end the line, or reorder or
    hide text (controls, line and paragraph separators, format characters such as bidirectional
    overrides) shown as its escape, as Python's repr() shows it; cut to `limit` characters."""
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"):
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else
                       f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
        else:
            out.append(ch)
    shown = "".join(out)
    return shown if not limit or len(shown) <= limit else shown[:limit] + " [cut]"
