"""Reading the XML hand histories (Merge, iPoker) one game at a time.

A file may hold several ``<game>`` elements with no single root, or a session
whose declared charset is not the one written: the text is decoded first (see
:func:`stud8.formats.sites._text.decode`), then each game is cut out and parsed
on its own, so that a corrupt game names its own line and spoils no other.
Entities are refused (no document type is needed to read a hand), which keeps
an entity bomb out.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable

from stud8.formats.pokerstars import BadLine, PokerStarsHand, ReadError, Skipped
from stud8.formats.sites._text import Item

__all__ = ["read_games"]

_GAME = re.compile(r"<game\b")


def read_games(
    text: str,
    file: str,
    parse: Callable[[ET.Element, int, str, str], PokerStarsHand | Skipped],
    site: str,
) -> list[Item]:
    """Every ``<game>`` of the text, parsed by ``parse(game, line, file, header)``:
    ``header`` is the text that last stood between two games (or before the first):
    a session's header, a description, which holds for the games after it.

    In time linear in the text, whatever it holds (a hostile file of thousands of
    empty or unclosed games too): each game is looked for its end only up to the
    next game, lines are counted once, and a parser sees its header, not all the
    text before it."""
    text = text.lstrip("\ufeff")
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        line = text.count("\n", 0, max(text.find("<!DOCTYPE"), text.find("<!ENTITY"))) + 1
        return [ReadError(file, line, f"a {site} history has no document type nor entities")]
    starts = [m.start() for m in _GAME.finditer(text)]
    out: list[Item] = []
    line, counted = 1, 0  # the line of position ``counted``
    header, after = "", 0  # the last header; where the last game ended
    for k, at in enumerate(starts):
        nxt = starts[k + 1] if k + 1 < len(starts) else len(text)
        line += text.count("\n", counted, at)
        counted = at
        if at > after:
            between = text[after:at]
            if between.strip():
                header = between
        end = text.find("</game>", at, nxt)
        if end < 0:
            out.append(ReadError(file, line, f"the {site} game is truncated: no </game>"))
            after = nxt  # what follows it is its own, not a header
            continue
        after = end + 7
        chunk = text[at:after]
        try:
            game = ET.fromstring(chunk)
        except ET.ParseError as e:
            row = line + e.position[0] - 1
            out.append(ReadError(file, row, f"not well-formed XML: {e}"))
            continue
        try:
            out.append(parse(game, line, file, header))
        except BadLine as e:
            out.append(ReadError(file, e.line, e.message))
        except (ValueError, KeyError, IndexError) as e:
            out.append(ReadError(file, line, f"cannot read this {site} game: {e}"))
    if not out:
        first = next((i + 1 for i, t in enumerate(text.split("\n")) if t.strip()), 1)
        out.append(ReadError(file, first, f"no {site} game found (no <game> element)"))
    return out
