"""Players' names: how a name typed at the table is kept, and when two names are the same.

The games' form keeps a seat's name as :func:`clean_name` makes it and refuses two seats
of the same :func:`name_key`; the referee finds a seat by the same key, so a name typed
in another Unicode form (a decomposed "Zoë", a stray bidirectional mark, another case)
is the same seat everywhere:

>>> clean_name(" Zoe\\u0308 \\u200e ") == "Zoë"
True
>>> name_key("ZOË") == name_key("zoe\\u0308")
True

One rule says which names a table may seat, for the games, the referee, every form that
takes names and the Jackpot's spinner (:func:`names_problem`):

>>> names_problem(["Ann", "ann"])
'Two players have the same name: add an initial to tell them apart.'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import lru_cache

#: The longest name a seat may have (a phone's row holds it).
MAX_NAME = 40

#: Characters that change how the text around them is laid out: the bidirectional
#: embeddings, overrides and isolates, and the marks. A name never needs them, and an
#: override makes "evil" display as "live".
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                           "\u2066\u2067\u2068\u2069")
#: Joiners that build one emoji out of several; kept in a name, ignored when comparing.
_JOINERS = frozenset("\u200c\u200d")


@lru_cache(maxsize=1024)  # a table's names are cleaned again for every position set up
def clean_name(raw: str) -> str:
    """A player's name as stored: Unicode NFC, spaces collapsed, invisible and control
    characters removed (zero-width spaces, bidirectional overrides, soft hyphens...)."""
    text = unicodedata.normalize("NFC", raw)
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if char.isspace():
            kept.append(" ")
            continue
        if char in _BIDI_CONTROLS or category in ("Cc", "Cs", "Co", "Cn"):
            continue
        if category == "Cf" and char not in _JOINERS:
            continue
        kept.append(char)
    return " ".join("".join(kept).split())


@lru_cache(maxsize=1024)
def name_key(name: str) -> str:
    """What two names are compared by: the same key looks the same on the table."""
    folded = unicodedata.normalize("NFKC", clean_name(name)).casefold()
    return "".join(c for c in folded if c not in _JOINERS)


def names_problem(names: Sequence[str]) -> str | None:
    """What is wrong with these seats' names (as :func:`clean_name` leaves them), as a
    sentence for the table, or None: every seat named, no name longer than
    :data:`MAX_NAME`, no two the same by :func:`name_key` ("Ann" and "ann" are one name)."""
    if any(not n for n in names):
        return "Every seat needs a name (or remove the empty seat)."
    if any(len(n) > MAX_NAME for n in names):
        return f"Names can be at most {MAX_NAME} characters."
    if len({name_key(n) for n in names}) != len(names):
        return "Two players have the same name: add an initial to tell them apart."
    return None


def seat_of(names: Sequence[str], name: str) -> int | None:
    """The seat ``name`` is at, in any case or Unicode form (:func:`name_key`); None if it
    is at none."""
    if name in names:
        return list(names).index(name)
    key = name_key(name)
    return next((i for i, n in enumerate(names) if name_key(n) == key), None)
