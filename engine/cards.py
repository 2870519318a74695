"""Cards and their one canonical text form.

Every card has a single notation used in forms, URLs, SQLite and tests, and
``Card.parse(card.text) is card`` always holds:

>>> Card.parse("r7").text
'red-7'
>>> Card.parse("WD4")
Card.parse('wild-draw4')
>>> str(Card.parse("b-skip"))
'blue-skip'

Cards are value objects: there is exactly one instance of each card, so
``is`` and ``==`` agree and a card can be a dict key or live in a set.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass


class CardError(ValueError):
    """Raised for text that is not a card."""


class Color(enum.Enum):
    """The four suit colors, in the order the card picker shows them."""

    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"


COLORS: tuple[Color, ...] = tuple(Color)


class Rank(enum.Enum):
    """What is printed on a card besides its color."""

    ZERO = "0"
    ONE = "1"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    SKIP = "skip"
    REVERSE = "reverse"
    DRAW1 = "draw1"
    DRAW2 = "draw2"
    JACKPOT = "jackpot"
    WILD = "wild"
    WILD_DRAW4 = "wild-draw4"
    WILD_DRAW2 = "wild-draw2"
    WILD_DIP = "wild-dip"
    WILD_JACKPOT = "wild-jackpot"
    WILD_SWAP = "wild-swap"
    WILD_DROID = "wild-droid"
    BLANK = "blank"

    @property
    def is_number(self) -> bool:
        """True for 0-9."""
        return self in NUMBER_RANKS

    @property
    def is_wild(self) -> bool:
        """True for the black cards that may be played on anything."""
        return self in WILD_RANKS

    @property
    def is_colored(self) -> bool:
        """True for ranks that come in the four colors."""
        return self in COLORED_RANKS

    @property
    def number(self) -> int | None:
        """The face value of a number card, None otherwise."""
        return int(self.value) if self.is_number else None


NUMBER_RANKS: tuple[Rank, ...] = tuple(r for r in Rank if r.value.isdigit())
ACTION_RANKS: tuple[Rank, ...] = (Rank.SKIP, Rank.REVERSE, Rank.DRAW1, Rank.DRAW2, Rank.JACKPOT)
COLORED_RANKS: frozenset[Rank] = frozenset(NUMBER_RANKS + ACTION_RANKS)
WILD_RANKS: frozenset[Rank] = frozenset(
    {Rank.WILD, Rank.WILD_DRAW4, Rank.WILD_DRAW2, Rank.WILD_DIP, Rank.WILD_JACKPOT,
     Rank.WILD_SWAP, Rank.WILD_DROID}
)


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card: a colored rank (``red-7``), a wild (``wild-draw4``) or ``blank``.

    Build cards with :meth:`parse` or :func:`card`; both return the one shared
    instance, so identity comparison is safe and fast.
    """

    rank: Rank
    color: Color | None = None
    text: str = ""

    @property
    def is_wild(self) -> bool:
        """True for cards that may be played on anything."""
        return self.rank.is_wild

    @property
    def is_number(self) -> bool:
        """True for 0-9 cards."""
        return self.rank.is_number

    @property
    def is_action(self) -> bool:
        """True for colored symbol cards (Skip, Reverse, Draw One/Two, Jackpot)."""
        return self.rank in ACTION_RANKS

    @classmethod
    def parse(cls, text: object) -> Card:
        """Parse a canonical or short card name; raise :class:`CardError` otherwise."""
        key = text.strip().lower() if isinstance(text, str) else ""
        found = _BY_TEXT.get(key)
        if found is None:
            found = _parse_short(key)
        if found is None:
            raise CardError(f"{text!r} is not a card (try e.g. red-7, blue-skip, wild-draw4)")
        return found

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card.parse({self.text!r})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # Keep the one-instance-per-card promise across pickling and copying.
        return (Card.parse, (self.text,))


def _make(rank: Rank, color: Color | None) -> Card:
    text = f"{color.value}-{rank.value}" if color else rank.value
    return Card(rank, color, text)


ALL_CARDS: tuple[Card, ...] = tuple(
    [_make(rank, color) for color in COLORS for rank in NUMBER_RANKS + ACTION_RANKS]
    + [_make(rank, None) for rank in Rank if rank.is_wild or rank is Rank.BLANK]
)
_BY_TEXT: dict[str, Card] = {c.text: c for c in ALL_CARDS}
_BY_PARTS: dict[tuple[Rank, Color | None], Card] = {(c.rank, c.color): c for c in ALL_CARDS}


def card(rank: Rank | str, color: Color | str | None = None) -> Card:
    """The card of this rank and color (color only for colored ranks).

    It takes a :class:`Rank` and a :class:`Color`; text is for :meth:`Card.parse`, and is
    refused here with a :class:`CardError` that says so:

    >>> card(Rank.SEVEN, Color.RED) == Card.parse("red-7")
    True
    >>> card("red-7")
    Traceback (most recent call last):
    ...
    engine.cards.CardError: card() takes a Rank and a Color, not 'red-7': Card.parse('red-7') reads text
    """
    # Text is in the signature so that the compiled build, which enforces annotations,
    # answers it with the same CardError as the interpreted one.
    if not isinstance(rank, Rank):
        raise CardError(f"card() takes a Rank and a Color, not {rank!r}: "
                        f"Card.parse({rank!r}) reads text")
    if color is not None and not isinstance(color, Color):
        raise CardError(f"card() takes a Color, not {color!r}: Color({color!r}) reads text")
    try:
        return _BY_PARTS[(rank, color)]
    except KeyError:
        raise CardError(
            f"no card is {rank.value} with color {color.value if color else None}") from None


# Short forms people type at a table. Colors: a single letter. Symbols: the
# usual abbreviations. Anything not listed is rejected rather than guessed.
_COLOR_SHORT = {"r": Color.RED, "y": Color.YELLOW, "g": Color.GREEN, "b": Color.BLUE}
_COLOR_SHORT.update({c.value: c for c in COLORS})
_SYMBOL_SHORT = {
    "s": Rank.SKIP, "skip": Rank.SKIP,
    "rev": Rank.REVERSE, "reverse": Rank.REVERSE,
    "d1": Rank.DRAW1, "+1": Rank.DRAW1, "draw1": Rank.DRAW1, "drawone": Rank.DRAW1,
    "d2": Rank.DRAW2, "+2": Rank.DRAW2, "draw2": Rank.DRAW2, "drawtwo": Rank.DRAW2,
    "j": Rank.JACKPOT, "jp": Rank.JACKPOT, "jackpot": Rank.JACKPOT,
}
_SYMBOL_SHORT.update({r.value: r for r in NUMBER_RANKS})
_WILD_SHORT = {
    "w": Rank.WILD,
    "wd4": Rank.WILD_DRAW4, "w+4": Rank.WILD_DRAW4, "+4": Rank.WILD_DRAW4, "wilddraw4": Rank.WILD_DRAW4,
    "wd2": Rank.WILD_DRAW2, "w+2": Rank.WILD_DRAW2, "wilddraw2": Rank.WILD_DRAW2,
    "wdip": Rank.WILD_DIP, "dip": Rank.WILD_DIP, "wilddip": Rank.WILD_DIP,
    "wilddipintothedeck": Rank.WILD_DIP,
    "wj": Rank.WILD_JACKPOT, "wjp": Rank.WILD_JACKPOT, "wildjackpot": Rank.WILD_JACKPOT,
    "wswap": Rank.WILD_SWAP, "swap": Rank.WILD_SWAP, "ws": Rank.WILD_SWAP,
    "wildswap": Rank.WILD_SWAP, "wildswaphands": Rank.WILD_SWAP,
    "wdroid": Rank.WILD_DROID, "droid": Rank.WILD_DROID, "wilddroid": Rank.WILD_DROID,
    "wildletsbuildadroid": Rank.WILD_DROID,
}
_SHORT = re.compile(r"^(red|yellow|green|blue|[rygb])[-_ ]?(.+)$")


def _parse_short(key: str) -> Card | None:
    compact = key.replace(" ", "").replace("_", "").replace("-", "")
    if compact in _WILD_SHORT:
        return _BY_PARTS[(_WILD_SHORT[compact], None)]
    match = _SHORT.match(key)
    if not match:
        return None
    color = _COLOR_SHORT[match.group(1)]
    symbol = match.group(2).replace("-", "").replace(" ", "")
    rank = _SYMBOL_SHORT.get(symbol)
    return _BY_PARTS[(rank, color)] if rank else None


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse several cards, given as one space- or comma-separated string or a list."""
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(p) for p in parts]


def cards_text(cards: Iterable[Card]) -> str:
    """The canonical space-separated text of several cards (inverse of parse_cards)."""
    return " ".join(c.text for c in cards)
