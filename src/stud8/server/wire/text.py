"""The one rule for text a person types, and for the strings a JSON text carries.

Every name and line a person types and others read (a chat line, a table's name, a
tournament's name, an operator's reason) is taken through :func:`typed_text`: its
outer spaces trimmed, 1 to ``most`` characters, one line, and no character that is
no part of a line of text: the C0 and C1 controls and DEL, the line and paragraph
separators, the bidirectional overrides and isolates (U+202E turns the rest of a
line around: a name could pass for another), and the lone surrogates (``"\\ud800"``
is valid JSON, but no text: the database cannot write it).

A lone surrogate can come in any string of a JSON text, not only a typed one (a
command id, an invitation code); :func:`lone_surrogate` finds one in a decoded
value, so that the wire refuses it where it reads the JSON, before anything uses it.

>>> typed_text("  nice hand ", "chat: text", 200)
'nice hand'
>>> typed_text("evil\\u202eexe.txt", "name", 40)
Traceback (most recent call last):
...
stud8.server.wire.text.TextRefused: name may not contain control characters (U+202E)
>>> typed_text("\\ud800", "name", 40)
Traceback (most recent call last):
...
stud8.server.wire.text.TextRefused: name may not contain a lone surrogate (U+D800): it is no text
>>> lone_surrogate({"d": ["ok", "\\U0001f600", "\\udc00"]})
'\\udc00'
"""

from __future__ import annotations

import re

__all__ = ["TextRefused", "lone_surrogate", "may_hold_surrogate", "typed_text"]


class TextRefused(ValueError):
    """Typed text that breaks the rule; its message says which part and why."""


# The characters refused in typed text (see the module); one class, matched in C.
_NOT_TEXT = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
# A JSON text can hold a surrogate only as an escape (its UTF-8 cannot): \ud8.. to \udf..
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_SURROGATE_TEXT_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def typed_text(value: object, what: str, most: int) -> str:
    """``value`` trimmed, if it is text a person may type here (1 to ``most``
    characters, one line, no control character, no lone surrogate); else
    :class:`TextRefused`, whose message begins with ``what``."""
    if not isinstance(value, str):
        raise TextRefused(f"{what} must be a string")
    text = value.strip()
    if not text:
        raise TextRefused(f"{what} is empty")
    if len(text) > most:
        raise TextRefused(f"{what} is {len(text)} characters (the limit is {most})")
    bad = _NOT_TEXT.search(text)
    if bad is not None:
        code = ord(bad.group())
        if 0xD800 <= code <= 0xDFFF:
            raise TextRefused(
                f"{what} may not contain a lone surrogate (U+{code:04X}): it is no text"
            )
        raise TextRefused(f"{what} may not contain control characters (U+{code:04X})")
    return text


def lone_surrogate(value: object) -> str | None:
    """The first lone surrogate in a decoded JSON value's strings (its keys too), if any."""
    if isinstance(value, str):
        match = _SURROGATE.search(value)
        return match.group() if match else None
    found: str | None = None
    if isinstance(value, dict):
        for key, item in value.items():
            found = lone_surrogate(key) or lone_surrogate(item)
            if found:
                break
    elif isinstance(value, list):
        for item in value:
            found = lone_surrogate(item)
            if found:
                break
    return found


def may_hold_surrogate(raw: str | bytes) -> bool:
    """Whether a JSON text has an escape that may decode to a lone surrogate (almost
    none does: only then is its decoded value walked)."""
    if isinstance(raw, str):
        return _SURROGATE.search(raw) is not None or _SURROGATE_TEXT_ESCAPE.search(raw) is not None
    return _SURROGATE_ESCAPE.search(raw) is not None
