"""The standard game model. Each variant in :mod:`engine.variants` subclasses
:class:`Game`, sets a few class-level settings and overrides a few hooks.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from .cards import COLORS, NUMBER_RANKS, Card, Rank, card
from .options import TableOptions
from .scoring import ScoringMode


class NoPointsError(ValueError):
    """Raised when asking for points in a variant that has none (R32)."""


class Game:
    """Standard UNO rules; subclasses are the variants."""

    #: Name used in URLs, the database and tests.
    name: ClassVar[str] = ""
    #: Other names :func:`engine.find_variant` accepts.
    aliases: ClassVar[tuple[str, ...]] = ()
    #: Human title, e.g. "UNO Pocket Pizza Pizza".
    title: ClassVar[str] = ""
    #: Which rule sheet this variant follows.
    sheet: ClassVar[str] = ""
    hand_size: ClassVar[int] = 7
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 10
    #: Points to win; None where the sheet has no points (R32).
    default_target: ClassVar[int | None] = 500
    #: Cards drawn for a missed UNO call (R6); 0 where no call is needed.
    default_uno_penalty: ClassVar[int] = 2
    #: Scoring modes this variant can be kept with, the sheet's own first.
    scoring_modes: ClassVar[tuple[ScoringMode, ...]] = tuple(ScoringMode)
    #: Colored card counts per color, e.g. {Rank.ONE: 2, ...}.
    colored_counts: ClassVar[dict[Rank, int]] = {}
    #: Wild card counts, e.g. {Rank.WILD: 4}.
    wild_counts: ClassVar[dict[Rank, int]] = {}
    #: Points per rank for scored hands; None for a variant without points.
    rank_points: ClassVar[dict[Rank, int] | None] = None

    # -- deck and points -------------------------------------------------

    @classmethod
    def default_options(cls) -> TableOptions:
        """The sheet's own setup for this variant."""
        return TableOptions(uno_penalty=cls.default_uno_penalty)

    @classmethod
    def check_options(cls, options: TableOptions) -> None:
        """Raise ValueError for options this variant cannot be set up with."""
        if options.blank_cards:
            raise ValueError(f"blank cards are a classic table card (R7), not part of {cls.name}")
        if options.blank_value < 0:
            raise ValueError("a blank card cannot score below 0 (R14)")
        if options.uno_penalty is not None and not 0 <= options.uno_penalty <= 20:
            raise ValueError("the UNO penalty must be 0-20 cards (R6)")

    @classmethod
    def deck_counts(cls, options: TableOptions | None = None) -> dict[Card, int]:
        """How many of each card the deck holds, in picker order (colors, then wilds)."""
        counts: dict[Card, int] = {}
        for color in COLORS:
            for rank, n in cls.colored_counts.items():
                counts[card(rank, color)] = n
        for rank, n in cls.wild_counts.items():
            counts[card(rank)] = n
        return counts

    @classmethod
    def deck(cls, options: TableOptions | None = None) -> list[Card]:
        """Every card of the deck, unshuffled, in picker order."""
        return [c for c, n in cls.deck_counts(options).items() for _ in range(n)]

    @classmethod
    def has_points(cls) -> bool:
        """False for variants that only tally wins (R32)."""
        return cls.rank_points is not None

    @classmethod
    def points_for(cls, c: Card, options: TableOptions | None = None) -> int:
        """Points a card scores when left in an opponent's hand."""
        if cls.rank_points is None:
            raise NoPointsError(f"{cls.name} has no card points: the first player out wins (R32)")
        if c.rank is Rank.BLANK:
            return (options or cls.default_options()).blank_value  # R14
        if c.rank.is_number:
            return c.rank.number or 0
        try:
            return cls.rank_points[c.rank]
        except KeyError:
            raise NoPointsError(f"{c.text} is not a {cls.name} card") from None

    @classmethod
    def hand_points(cls, cards: Iterable[Card], options: TableOptions | None = None) -> int:
        """Total points of the cards a player is caught holding.

        >>> from engine import find_variant, parse_cards
        >>> find_variant("classic").hand_points(parse_cards("red-7 blue-skip wild"))
        77
        """
        return sum(cls.points_for(c, options) for c in cards)
