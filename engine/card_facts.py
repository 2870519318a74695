"""Every kind of card's facts, in one table: :data:`RANK_FACTS`.

What a card is called (in sentences and on the picker), what playing it does, how
many cards it makes the next player draw, which topic of a sheet its events cite
and which section of the rules pages explains it. The engine's modules, the rules
pages and the app read this table; nothing else restates these facts. Points are
not here: they differ by variant (``Game.rank_points``).

>>> RANK_FACTS[Rank.WILD_DRAW4].name, RANK_FACTS[Rank.WILD_DRAW4].label
('Wild Draw 4', 'Wild +4')
>>> EFFECT_OF[Card.parse("red-skip")] is Effect.SKIP
True
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .cards import ALL_CARDS, Card, Rank, card
from .direction import Direction


class Effect(enum.Enum):
    """What playing a card does once it is on the discard pile."""

    #: Nothing more: the next player's turn.
    NUMBER = "number"
    SKIP = "skip"
    REVERSE = "reverse"
    #: The next player draws (Draw One, Draw Two, Wild Draw 2, Wild Draw 4).
    DRAW = "draw"
    #: A color is named (Wild, and blanks: docs/rulings.md).
    WILD = "wild"
    #: Wild Swap Hands (R14).
    SWAP = "swap"
    #: Wild Dip Into The Deck (R24).
    DIP = "dip"
    #: Jackpot and Wild Jackpot: the lever (R18).
    JACKPOT = "jackpot"
    #: Let's Build a Droid (R36).
    DROID = "droid"
    #: A 7: under the 7-0 house rule, swap hands with a chosen player; else a number.
    SEVEN = "seven"
    #: A 0: under the 7-0 house rule, every hand passes on; else a number.
    ZERO = "zero"


@dataclass(frozen=True)
class RankFacts:
    """One kind of card's facts."""

    #: As people say it, without a color: "Skip", "Wild Draw 4" (numbers: the digit).
    name: str
    #: The face the card picker prints: "+2", "Wild +4".
    label: str
    effect: Effect
    #: Cards the next player draws when it is played (0: none).
    draws: int = 0
    #: The topic of ``Game.sections`` its events cite ("" for number cards).
    topic: str = ""
    #: Its section on the rules pages (``/rules/<variant>#<anchor>``).
    anchor: str = "number-cards"


_NUMBER = {r: RankFacts(r.value, r.value, Effect.NUMBER) for r in Rank if r.is_number}

#: Every kind of card's facts.
RANK_FACTS: dict[Rank, RankFacts] = {
    **_NUMBER,
    Rank.SEVEN: RankFacts("7", "7", Effect.SEVEN),
    Rank.ZERO: RankFacts("0", "0", Effect.ZERO),
    Rank.SKIP: RankFacts("Skip", "Skip", Effect.SKIP, topic="skip", anchor="skip"),
    Rank.REVERSE: RankFacts("Reverse", "Rev", Effect.REVERSE, topic="reverse",
                            anchor="reverse"),
    Rank.DRAW1: RankFacts("Draw One", "+1", Effect.DRAW, 1, "draw1", "draw-1"),
    Rank.DRAW2: RankFacts("Draw Two", "+2", Effect.DRAW, 2, "draw2", "draw-2"),
    Rank.JACKPOT: RankFacts("Jackpot", "Jackpot", Effect.JACKPOT, topic="jackpot",
                            anchor="jackpot"),
    Rank.WILD: RankFacts("Wild", "Wild", Effect.WILD, topic="wild", anchor="wild"),
    Rank.WILD_DRAW4: RankFacts("Wild Draw 4", "Wild +4", Effect.DRAW, 4, "wd4", "wild-draw-4"),
    Rank.WILD_DRAW2: RankFacts("Wild Draw 2", "Wild +2", Effect.DRAW, 2, "wd2", "wild-draw-2"),
    Rank.WILD_DIP: RankFacts("Wild Dip Into The Deck", "Wild Dip", Effect.DIP, topic="dip",
                             anchor="wild-dip"),
    Rank.WILD_JACKPOT: RankFacts("Wild Jackpot", "Wild Jackpot", Effect.JACKPOT,
                                 topic="jackpot", anchor="wild-jackpot"),
    Rank.WILD_SWAP: RankFacts("Wild Swap Hands", "Swap Hands", Effect.SWAP, topic="swap",
                              anchor="wild-swap-hands"),
    Rank.WILD_DROID: RankFacts("Wild Let's Build a Droid", "Build a Droid", Effect.DROID,
                               topic="droid", anchor="wild-droid"),
    Rank.BLANK: RankFacts("blank card", "Blank", Effect.WILD, topic="blank",
                          anchor="blank-cards"),
}

# -- the same facts by card, for the hot path -----------------------------------------------
# Cards are interned and hash by identity, so these lookups are cheap.

#: What playing each card does.
EFFECT_OF: dict[Card, Effect] = {c: RANK_FACTS[c.rank].effect for c in ALL_CARDS}
#: Cards drawn by the next player when this card is played.
DRAW_OF: dict[Card, int] = {c: RANK_FACTS[c.rank].draws for c in ALL_CARDS
                            if RANK_FACTS[c.rank].draws}
#: Draw wilds, which may be challenged (R10, R20, R25, R35).
DRAW_WILDS: frozenset[Card] = frozenset(c for c in DRAW_OF if c.color is None)
#: The sheet topic each draw card's events cite.
DRAW_TOPIC: dict[Card, str] = {c: RANK_FACTS[c.rank].topic for c in DRAW_OF}
WILD_SWAP = card(Rank.WILD_SWAP)
WILD_JACKPOT = card(Rank.WILD_JACKPOT)
#: How events name the direction of play: :class:`Direction`'s words, by a game's int
#: (a plain dict: the hot path looks it up on every Reverse).
DIRECTION_WORDS = {int(d): d.words for d in Direction}


def card_name(c: Card) -> str:
    """A card as people say it: ``red 7``, ``blue Skip``, ``Wild Draw 4``."""
    name = RANK_FACTS[c.rank].name
    return f"{c.color.value} {name}" if c.color is not None else name


def card_label(c: Card) -> str:
    """The face of a card as the picker prints it: "7", "+2", "Wild +4"."""
    return RANK_FACTS[c.rank].label


