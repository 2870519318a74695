"""The five variants: each a :class:`~engine.game.Game` with its own settings.

Deck counts, hand sizes, player ranges, points and targets follow the rule
sheets as settled in RULINGS.md (see docs/rulings.md for our summary).
"""

from __future__ import annotations

from typing import ClassVar

from .cards import NUMBER_RANKS, Card, Color, Rank, card
from .game import Game
from .jackpot import RULE_CARDS
from .options import TableOptions
from .phases import DipGive, Droid, JackpotDiscard, JackpotLever, NameColor, SpecialPhase
from .results import CLASSIC_SECTIONS
from .scoring import ScoringMode

_STANDARD_COLORED: dict[Rank, int] = {
    **{r: (1 if r is Rank.ZERO else 2) for r in NUMBER_RANKS},
    Rank.SKIP: 2, Rank.REVERSE: 2, Rank.DRAW2: 2,
}
_STANDARD_POINTS: dict[Rank, int] = {
    Rank.SKIP: 20, Rank.REVERSE: 20, Rank.DRAW2: 20, Rank.WILD: 50, Rank.WILD_DRAW4: 50,
}


class ClassicGame(Game):
    """Classic UNO: 108 cards plus up to four table cards (R7).

    The base :class:`Game` plays the classic sheet, so classic changes only its deck.
    """

    __slots__ = ()  # as Game: no per-instance dict
    name = "classic"
    aliases = ("uno", "standard", "original")
    title = "UNO (classic)"
    sheet = "classic sheet"
    default_uno_penalty = 4  # R6; classic sheet, calling UNO
    colored_counts = _STANDARD_COLORED
    wild_counts = {Rank.WILD: 4, Rank.WILD_DRAW4: 4}
    rank_points = {**_STANDARD_POINTS, Rank.WILD_SWAP: 50}  # R14
    #: At most four table cards: blanks and/or the one Wild Swap Hands (R7).
    max_table_cards = 4

    @classmethod
    def deck_counts(cls, options: TableOptions | None = None) -> dict[Card, int]:
        """The 108 standard cards plus the table cards the options choose (R7)."""
        options = options or cls.default_options()
        # super() names its class: mypyc resolves the bare form wrongly in class methods.
        counts = super(ClassicGame, cls).deck_counts(options)
        if options.wild_swap:
            counts[card(Rank.WILD_SWAP)] = 1
        if options.blank_cards:
            counts[card(Rank.BLANK)] = options.blank_cards
        return counts

    @classmethod
    def check_options(cls, options: TableOptions) -> None:
        """Reject table cards beyond the box's four (R7)."""
        super(ClassicGame, cls).check_options(options.replace(blank_cards=0))  # see above
        table_cards = options.blank_cards + (1 if options.wild_swap else 0)
        if options.blank_cards < 0 or table_cards > cls.max_table_cards:
            raise ValueError(
                "classic takes 0-4 table cards in all: blanks plus the Wild Swap Hands (R7)"
            )


class WildJackpotGame(Game):
    """UNO Wild Jackpot: Jackpot cards and the lever (R16-R21)."""

    __slots__ = ()  # as Game: no per-instance dict
    name = "wild-jackpot"
    aliases = ("jackpot", "wildjackpot")
    title = "UNO Wild Jackpot"
    sheet = "wild-jackpot sheet"
    # R16: the sheet gives 15 number cards per color without a split.
    colored_counts = {
        **{r: (1 if r is Rank.ZERO else 2) for r in NUMBER_RANKS[:8]},
        Rank.DRAW2: 2, Rank.REVERSE: 2, Rank.SKIP: 2, Rank.JACKPOT: 4,
    }
    wild_counts = {Rank.WILD: 2, Rank.WILD_DRAW4: 4, Rank.WILD_JACKPOT: 2}
    rank_points = {**_STANDARD_POINTS, Rank.JACKPOT: 40, Rank.WILD_JACKPOT: 50}  # R21
    #: Rule cards for the dispenser, never dealt (R16, R17).
    rule_cards: ClassVar[int] = RULE_CARDS
    special_phases: ClassVar[tuple[type[SpecialPhase], ...]] = (
        NameColor, JackpotLever, JackpotDiscard)
    first_reverse_right_of_dealer = False  # R19: the dealer plays first
    two_player_reverse_skips = False  # R13
    sections = {
        **CLASSIC_SECTIONS,
        "first": ("Setup", ""), "first-skip": ("Skip Card", "R19"),
        "first-draw": ("Draw Two Card", "R19"), "first-reverse": ("Reverse Card", "R19"),
        "first-wild": ("Wild Card", "R19"), "first-return": ("Wild Draw 4 Card", "R19"),
        "first-jackpot": ("Jackpot Card", "R19"),
        "play": ("Game Play", "R3"), "draw": ("Game Play", ""), "after-draw": ("Game Play", "R12"),
        "pass": ("Game Play", "R2"), "reshuffle": ("Going Out", "R2"), "two": (None, "R13"),
        "draw2": ("Draw Two Card", ""), "wd4": ("Wild Draw 4 Card", "R20"),
        "challenge-won": ("Wild Draw 4 Card", "R4"), "final": ("Going Out", "R5"),
        "out": ("Going Out", ""), "uno": ("Going Out", "R6"),
        "jackpot": ("Wild Jackpot Lever", "R18"), "rules": ("Wild Jackpot Lever", "R17"),
    }

    @classmethod
    def check_options(cls, options: TableOptions) -> None:
        """Rule cards are this variant's: at most the box's 8 (R16, R17)."""
        super(WildJackpotGame, cls).check_options(options.replace(rule_cards=()))  # as above
        if len(options.rule_cards) > cls.rule_cards:
            raise ValueError(f"the box has {cls.rule_cards} rule cards (R16)")
        if any(not text.strip() for text in options.rule_cards):
            raise ValueError("a rule card needs a rule written on it (R17)")


class PizzaPizzaGame(Game):
    """UNO Pocket Pizza Pizza: 51 cards, 5 each, to 250 (R22-R26)."""

    __slots__ = ()  # as Game: no per-instance dict
    name = "pizza-pizza"
    aliases = ("pizza", "pizzapizza", "pocket")
    title = "UNO Pocket Pizza Pizza"
    sheet = "pizza-pizza sheet"
    hand_size = 5
    max_players = 5
    default_target = 250
    colored_counts = {
        **{r: 1 for r in NUMBER_RANKS[1:]}, Rank.DRAW1: 1, Rank.SKIP: 1, Rank.REVERSE: 1,
    }
    wild_counts = {Rank.WILD: 1, Rank.WILD_DIP: 1, Rank.WILD_DRAW2: 1}
    rank_points = {
        Rank.SKIP: 20, Rank.DRAW1: 20, Rank.REVERSE: 20,
        Rank.WILD: 50, Rank.WILD_DIP: 50, Rank.WILD_DRAW2: 50,
    }  # R26
    first_reverse_right_of_dealer = False  # R23: the dealer plays first
    two_player_reverse_skips = False  # R13
    bluff_words = "held another card that could have been played"
    special_phases: ClassVar[tuple[type[SpecialPhase], ...]] = (NameColor, DipGive)
    sections = {
        **CLASSIC_SECTIONS,
        "setup": ("dealing", ""), "first": ("first card", "R23"),
        "first-skip": ("first card", "R23"), "first-draw": ("first card", "R23"),
        "first-reverse": ("first card", "R23"), "first-wild": ("first card", "R23"),
        "first-return": ("first card", "R23"), "play": ("matching", "R3"),
        "draw": ("drawing", ""), "after-draw": ("drawing", "R12"), "pass": (None, "R2"),
        "reshuffle": ("empty draw pile", "R2"), "skip": ("Skip", ""), "reverse": ("Reverse", ""),
        "draw1": ("Draw One", ""), "two": (None, "R13"), "wild": ("Wild cards", ""),
        "wd2": ("Wild Draw 2 and its challenge", "R25"),
        "challenge-won": ("Wild Draw 2 and its challenge", "R4"),
        "dip": ("Wild Dip Into The Deck", "R24"), "final": ("going out", "R5"),
        "out": ("going out", ""), "uno": ("calling UNO", "R6"),
    }

    def bluff_card(self, c: Card, color: Color | None, top: Card) -> bool:
        """R25: guilty if any other card held could have been played, wilds included."""
        return c.color is None or c.color is color or c.rank is top.rank


class OneGame(Game):
    """"One": first player out wins, no points and no UNO call (R27-R32)."""

    __slots__ = ()  # as Game: no per-instance dict
    name = "one"
    aliases = ("uno-one",)
    title = "One"
    sheet = "one sheet"
    default_target = None
    default_uno_penalty = 0  # R6, R31
    scoring_modes = (ScoringMode.WIN_TALLY,)  # R32
    colored_counts = _STANDARD_COLORED
    wild_counts = {Rank.WILD: 3, Rank.WILD_DRAW4: 4}  # R27: 107 cards
    rank_points = None
    first_card_numbers_only = True  # R28
    may_play_drawn_card = False  # R29
    challenges = False  # R31
    two_player_reverse_skips = False  # R13, R30
    sections = {
        **CLASSIC_SECTIONS,
        "setup": ("Set up", ""), "first": ("Set up", "R28"), "first-return": ("Set up", "R28"),
        "play": ("Set up", "R3"), "draw": ("Set up", "R29"), "after-draw": ("Set up", "R29"),
        "pass": (None, "R2"), "reshuffle": (None, "R2"),
        "skip": ("Functions of action cards", ""),
        "reverse": ("Functions of action cards", "R30"),
        "draw2": ("Functions of action cards", ""), "wild": ("Functions of action cards", ""),
        "wd4": ("Functions of action cards", "R31"), "two": (None, "R13"),
        "final": (None, "R5"), "out": ("Functions of action cards", "R32"),
        "uno": ("Note", "R6"),
    }


class StarWarsGame(Game):
    """UNO Star Wars: the standard deck plus Let's Build a Droid (R33-R37)."""

    __slots__ = ()  # as Game: no per-instance dict
    name = "star-wars"
    aliases = ("starwars", "star wars", "sw")
    title = "UNO Star Wars"
    sheet = "star-wars sheet"
    colored_counts = _STANDARD_COLORED
    wild_counts = {Rank.WILD: 4, Rank.WILD_DRAW4: 4, Rank.WILD_DROID: 1}  # R33
    rank_points = {**_STANDARD_POINTS, Rank.WILD_DROID: 50}  # R37
    first_card_numbers_only = True  # R34
    two_player_reverse_skips = False  # R13
    bluff_words = "held a card of the color in play or another wild"
    special_phases: ClassVar[tuple[type[SpecialPhase], ...]] = (NameColor, Droid)
    sections = {
        **CLASSIC_SECTIONS,
        "setup": ("Set Up", ""), "first": ("Set Up", "R34"), "first-return": ("Set Up", "R34"),
        "play": ("Let's Play UNO!", "R3"), "draw": ("Let's Play UNO!", ""),
        "after-draw": ("Let's Play UNO!", "R12"), "pass": (None, "R2"),
        "reshuffle": ("Let's Play UNO!", "R2"), "skip": ("Action Cards, Skip", ""),
        "reverse": ("Action Cards, Reverse", ""), "draw2": ("Action Cards, Draw Two", ""),
        "wild": ("Action Cards, Wild", ""), "wd4": ("Action Cards, Wild Draw Four", "R35"),
        "challenge-won": ("Action Cards, Wild Draw Four", "R4"),
        "droid": ("Action Cards, Wild Let's Build a Droid", "R36"), "two": (None, "R13"),
        "final": (None, "R5"), "out": ("Winning", ""), "uno": ("Calling UNO!", "R6"),
    }

    def bluff_card(self, c: Card, color: Color | None, top: Card) -> bool:
        """R35: guilty if holding a card of the color in play or any other wild."""
        return c.color is None or c.color is color


VARIANTS: list[type[Game]] = [ClassicGame, WildJackpotGame, PizzaPizzaGame, OneGame, StarWarsGame]


def find_variant(name: object) -> type[Game]:
    """The variant called ``name`` or one of its aliases (case-insensitive).

    >>> find_variant("Pizza").name
    'pizza-pizza'
    """
    key = name.strip().lower() if isinstance(name, str) else ""
    for variant in VARIANTS:
        if key == variant.name or key in variant.aliases:
            return variant
    names = ", ".join(v.name for v in VARIANTS)
    raise ValueError(f"unknown variant {name!r}; choose one of {names}")
