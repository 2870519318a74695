"""What a hand is made of: the base layer of :class:`engine.game.Game`.

:class:`GameState` holds the seats, the piles and the phase, the settings and
hooks a variant sets, the read-only views the app reads, and the few moves every
rule is made of: writing an event, drawing cards, passing the turn, owing an UNO
call, ending the hand. The layers above it (see :mod:`engine.game`) build on
these and on nothing else.

Also here, because every layer reads them: the errors, :class:`Phase`,
:class:`HandResult`, what each card does (:class:`Effect` and the per-card
tables) and where the classic sheet says each thing (:data:`CLASSIC_SECTIONS`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from .actions import (
    Action,
    ActionKind,
    BadChoiceError,
    CardNotHeldError,
    IllegalActionError,
    NotYourTurnError,
)
from .card_facts import (
    DIRECTION_WORDS,
    DRAW_OF,
    DRAW_WILDS,
    EFFECT_OF,
    WILD_JACKPOT,
    WILD_SWAP,
    Effect,
    card_name,
)
from .cards import COLORS, Card, Color, Rank, card
from .chance import shuffle
from .events import Event, EventKind
from .jackpot import RuleDispenser
from .options import TableOptions
from .phases import JackpotLever, Phase, SpecialPhase
from .scoring import HandOutcome, ScoringMode

# Read from here by the layers above (and from engine.game by the app and tests).
__all__ = ["CLASSIC_SECTIONS", "DIRECTION_WORDS", "DRAW_OF", "DRAW_WILDS", "EFFECT_OF",
           "WILD_JACKPOT", "WILD_SWAP", "Effect", "GameState", "HandNotOverError",
           "HandResult", "NoPointsError", "Phase", "SetupError"]


class NoPointsError(ValueError):
    """Raised when asking for points in a variant that has none (R32)."""


class SetupError(ValueError):
    """A game cannot start this way: players, dealer, deck, options or position."""


class HandNotOverError(ValueError):
    """The hand is still being played: it has no result yet."""


@dataclass(frozen=True)
class HandResult:
    """The end of a hand: who went out, what everyone else holds, and its points."""

    went_out: int
    #: The cards each other player holds, by seat.
    held: Mapping[int, tuple[Card, ...]]
    #: Points of those cards by seat (the variant's ``hand_points``); None without points (R32).
    points: Mapping[int, int] | None

    @property
    def outcome(self) -> HandOutcome:
        """The hand as :func:`engine.scoring.score_hand` takes it."""
        return HandOutcome(self.went_out, dict(self.points or {}))


#: Where the classic sheet says each thing, and the ruling that settles it.
#: Topic -> (section of the sheet, or None where the sheet is silent; ruling or "").
#: A section starting with "house rule" is a table option, not the sheet.
CLASSIC_SECTIONS: dict[str, tuple[str | None, str]] = {
    "setup": ("Setup", ""),
    "first": ("Setup", ""),
    "first-skip": ("Skip Card", ""),
    "first-draw": ("Draw 2 Card", ""),
    "first-reverse": ("Reverse Card", "R9"),
    "first-wild": ("Wild Card", "R8"),
    "first-return": ("Wild Draw 4 Card", "R8"),
    "first-swap": ("Wild Swap Hands Card", "R8"),
    "first-jackpot": (None, "R19"),
    "play": ("Gameplay", "R3"),
    "draw": ("Gameplay", ""),
    "after-draw": ("Gameplay", "R12"),
    "pass": ("Gameplay", "R2"),
    "reshuffle": ("Gameplay", "R2"),
    "skip": ("Skip Card", ""),
    "reverse": ("Reverse Card", ""),
    "two": ("Rules for Two Players", "R13"),
    "draw1": (None, ""),
    "draw2": ("Draw 2 Card", ""),
    "wild": ("Wild Card", ""),
    "wd4": ("Wild Draw 4 Card", "R10"),
    "wd2": (None, "R25"),
    "challenge-won": ("Wild Draw 4 Card", "R4"),
    "final": ("Gameplay", "R5"),
    "out": ("Gameplay", ""),
    "uno": ("Gameplay", "R6"),
    "swap": ("Wild Swap Hands Card", "R14"),
    "blank": ("Blank Card", ""),
    "dip": (None, "R24"),
    "jackpot": (None, "R18"),
    "rules": (None, "R17"),
    "droid": (None, "R36"),
    "stacking": ("house rule: stacking", "house"),
    "progressive": ("house rule: progressive UNO", "house"),
    "seven-o": ("house rule: 7-0", "house"),
    "jump-in": ("house rule: jump-in", "house"),
    "draw-until": ("house rule: draw until playable", "house"),
    "forced": ("house rule: forced play", "house"),
}


#: The attributes a copy of a game shares with it: immutable values (numbers, enums,
#: cards, tuples), or, for ``_setup`` and ``_start_of_hand``, values never changed once set.
_SHARED = (
    "_color", "_direction", "_drawn", "_final", "_forced_play",
    "_guilty", "_jump_in", "_legal", "_n", "_penalty",
    "_pending", "_pending_from", "_phase", "_reverse_skips", "_setup", "_seven_o",
    "_stack_rule", "_start_of_hand", "_to_act", "_until_playable", "_winner",
)


class GameState:
    """A hand's state and settings; :class:`engine.game.Game` is the whole game model."""

    # With slots every attribute read and write on the hot path stays a fixed-offset
    # access instead of a dict lookup. The layers above add none. A special card's state
    # is not here: it is its phase's (engine.phases), which the variant declares.
    __slots__ = (
        "_color",
        "_direction",
        "_discard",
        "_draw",
        "_drawn",
        "_events",
        "_exposed",
        "_final",
        "_forced_play",
        "_guilty",
        "_hands",
        "_jump_in",
        "_legal",
        "_n",
        "_penalty",
        "_pending",
        "_pending_from",
        "_phase",
        "_reverse_skips",
        "_rng",
        "_setup",
        "_seven_o",
        "_special_on_first",
        "_special_on_play",
        "_specials",
        "_stack_rule",
        "_start_of_hand",
        "_to_act",
        "_until_playable",
        "_winner",
        "dealer",
        "history",
        "opening_events",
        "options",
        "players",
    )

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
    #: Blank rule cards for a Wild Jackpot unit (R16, R17); 0: the variant has no unit.
    rule_cards: ClassVar[int] = 0
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
    #: Blank and other table cards the deck may take (R7); only classic has any.
    max_table_cards: ClassVar[int] = 0

    # -- rule settings: the hooks a variant sets -------------------------------------

    #: R28, R34: only a number card may start the discard pile.
    first_card_numbers_only: ClassVar[bool] = False
    #: R9 (classic): a Reverse turned up first starts with the player to the dealer's
    #: right; False (R19, R23): with the dealer. Play goes counter-clockwise either way.
    first_reverse_right_of_dealer: ClassVar[bool] = True
    #: R12 (True): a drawn card may be played at once; R29 (False): never that turn.
    may_play_drawn_card: ClassVar[bool] = True
    #: False where draw wilds cannot be challenged (R31).
    challenges: ClassVar[bool] = True
    #: R13: with two players a Reverse acts as a Skip (classic); a table option elsewhere.
    two_player_reverse_skips: ClassVar[bool] = True
    #: What a guilty player of a draw wild held, for the event text.
    bluff_words: ClassVar[str] = "held a card of the color in play"
    #: Topic -> (sheet section, ruling) for the events' sources.
    sections: ClassVar[dict[str, tuple[str | None, str]]] = CLASSIC_SECTIONS

    #: The special cards' phases this variant's deck needs (engine.phases).
    special_phases: ClassVar[tuple[type[SpecialPhase], ...]] = ()

    #: Every variant by name, for :meth:`from_json` and :meth:`replay`.
    _registry: ClassVar[dict[str, type[GameState]]] = {}
    #: topic -> (rule, source), built from ``sections`` and ``sheet``.
    _cite: ClassVar[dict[str, tuple[str, str]]] = {}
    _play_cite: ClassVar[tuple[str, str]] = ("", "")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.name:
            GameState._registry[cls.name] = cls
        cls._cite = _citations(cls.sheet, cls.sections)
        cls._play_cite = cls._cite["play"]

    def bluffed(self, rest: Sequence[Card], color: Color | None, top: Card) -> bool:
        """Whether a draw wild was played illegally: whether ``rest``, the player's hand
        after the play, holds a card :meth:`bluff_card` names. ``color`` and ``top`` are
        the color in play and the top card before it.
        """
        return any(self.bluff_card(c, color, top) for c in rest)

    def bluff_card(self, c: Card, color: Color | None, top: Card) -> bool:
        """Whether holding ``c`` makes playing a draw wild a bluff: the hook each variant's
        challenge uses. Classic (R10, R20): a card of the color in play; wilds and other
        colors' symbols do not count.

        One card is enough, whatever else is held: so the referee, not knowing a hand,
        can ask which single card would make the play a bluff.
        """
        return c.color is color

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
        if options.rule_cards:
            raise ValueError(f"rule cards belong to wild-jackpot (R17), not to {cls.name}")

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
        if c.rank is Rank.BLANK and cls.max_table_cards:
            return (options or cls.default_options()).blank_value  # R14
        if c.color is not None and c.rank not in cls.colored_counts:
            raise NoPointsError(f"{c.text} is not a {cls.name} card")
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

    # -- the table ----------------------------------------------------------------------

    def __init__(self, players: Sequence[str], options: TableOptions, dealer: int,
                 rng: random.Random) -> None:
        """An empty table; use :meth:`new`, :meth:`from_position` or :meth:`from_json`."""
        n = len(players)
        self.players: tuple[str, ...] = tuple(players)
        self.options = options
        self.dealer = dealer
        self._rng = rng
        self._n = n
        penalty = options.uno_penalty
        self._penalty = self.default_uno_penalty if penalty is None else penalty
        reverse = options.two_player_reverse_skips
        self._reverse_skips = n == 2 and (
            self.two_player_reverse_skips if reverse is None else reverse)
        self._stack_rule = options.stack_rule
        self._seven_o = options.seven_o
        self._jump_in = options.jump_in
        self._until_playable = options.draw_until_playable
        self._forced_play = options.forced_play
        self._hands: list[list[Card]] = [[] for _ in range(n)]
        self._draw: list[Card] = []  # the top card is the last
        self._discard: list[Card] = []  # the top card is the last
        self._color: Color | None = None
        self._direction = 1
        self._to_act: int | None = None
        self._phase = _P_TURN
        self._winner: int | None = None
        self._drawn: Card | None = None
        self._pending = 0
        self._pending_from: int | None = None
        self._guilty = False
        self._final = False
        self._exposed: list[int] = []
        self._set_specials([phase_type(n) for phase_type in self.special_phases])
        self._events: list[Event] = []
        self._legal: tuple[Action, ...] | None = None
        self._setup: dict[str, Any] = {}
        # new(): the seed or generator state, and the stacked deck; JSON made on demand.
        self._start_of_hand: tuple[dict[str, Any], list[Card] | None] | None = None
        #: Every action applied since the start, in order.
        self.history: list[Action] = []
        #: The events of the deal and the first card.
        self.opening_events: list[Event] = []

    def copy(self) -> Self:
        """An independent copy of the game as it stands, its random generator included:
        playing on the copy never changes this game. (The referee walks a dispute's
        branches on copies rather than setting each position up again.)

        Every attribute is shared, save the mutable ones copied below; the engine's tests
        check that no attribute is left shared and mutable.
        """
        rng = type(self._rng).__new__(type(self._rng))  # unseeded: its state is set next
        rng.setstate(self._rng.getstate())
        game = type(self)(self.players, self.options, self.dealer, rng)
        for name in _SHARED:
            setattr(game, name, getattr(self, name))
        game._hands = [list(h) for h in self._hands]
        game._draw = list(self._draw)
        game._discard = list(self._discard)
        game._exposed = list(self._exposed)
        game._events = list(self._events)
        game._set_specials([special.copy() for special in dict.fromkeys(self._specials.values())])
        game.history = list(self.history)
        game.opening_events = list(self.opening_events)
        return game

    def _set_specials(self, specials: Sequence[SpecialPhase]) -> None:
        self._specials = {p: special for special in specials for p in special.phases}
        self._special_on_play = {e: special for special in specials
                                 for e in special.played_effects}
        self._special_on_first = {e: special for special in specials
                                  for e in special.first_effects}

    def special_phase(self, phase: Phase) -> SpecialPhase | None:
        """The object that holds ``phase``'s state and answers for it (engine.phases);
        None for the turn's own phases and for a phase this variant's deck never opens."""
        return self._specials.get(phase)

    # -- what the app reads ----------------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        """The one seat whose decision the game waits on; None once the hand is over."""
        return self._to_act

    @property
    def phase(self) -> Phase:
        """What the game waits for."""
        return self._phase

    @property
    def is_over(self) -> bool:
        """True once the hand has ended (after any final draw, R5)."""
        return self._phase is _P_OVER

    @property
    def winner(self) -> int | None:
        """The seat that went out, as soon as they have (R5 draws may still follow)."""
        return self._winner

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every seat's cards (cards laid for a droid are in :attr:`laid_aside`)."""
        return tuple(tuple(h) for h in self._hands)

    @property
    def draw_pile(self) -> tuple[Card, ...]:
        """The draw pile, top card first."""
        return tuple(reversed(self._draw))

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom first: the last card is the top card."""
        return tuple(self._discard)

    @property
    def top_card(self) -> Card:
        """The top card of the discard pile."""
        return self._discard[-1]

    @property
    def current_color(self) -> Color | None:
        """The color in play: the top card's, or the one named for a wild (R3).
        None only while a Wild turned up first waits for its color."""
        return self._color

    @property
    def direction(self) -> int:
        """1 for clockwise (to the left, R1), -1 for counter-clockwise."""
        return self._direction

    @property
    def player_count(self) -> int:
        """Seats at the table."""
        return self._n

    @property
    def drawn_card(self) -> Card | None:
        """The card just drawn, while its player decides whether to play it (R12)."""
        return self._drawn if self._phase is _P_DRAWN else None

    @property
    def pending_draw(self) -> int:
        """Cards ``to_act`` must draw unless they challenge or stack."""
        return self._pending if self._phase is _P_PENDING else 0

    @property
    def uno_owed(self) -> tuple[int, ...]:
        """Seats at one card that have not called UNO and can be caught now (R6)."""
        return tuple(s for s in self._exposed if len(self._hands[s]) == 1)

    @property
    def laid_aside(self) -> tuple[tuple[Card, ...], ...]:
        """Cards each seat has laid for a droid, until they go back to the hands (R36)."""
        for special in self._specials.values():
            laid = special.laid_aside()
            if laid is not None:
                return tuple(tuple(h) for h in laid)
        return tuple(() for _ in range(self._n))

    @property
    def rule_dispenser(self) -> RuleDispenser:
        """wild-jackpot's rule cards: in the unit and used (R17). Empty elsewhere."""
        lever = self._specials.get(Phase.LEVER)
        return lever.dispenser if isinstance(lever, JackpotLever) else RuleDispenser()

    @property
    def uno_penalty(self) -> int:
        """Cards a player caught without calling UNO draws (R6)."""
        return self._penalty

    def describe_options(self) -> list[str]:
        """This table's options in plain sentences."""
        return self.options.describe(type(self))

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"{self._phase.value}, seat {self._to_act} to act"
        return f"<{type(self).__name__} {self._n} players: {state}>"

    # -- the moves every rule is made of -----------------------------------------------

    def _ev(self, kind: EventKind, seat: int | None, topic: str, amount: int = 0,
            cards: tuple[Card, ...] = (), color: Color | None = None,
            target: int | None = None, note: str = "") -> None:
        rule, source = self._cite[topic]
        # tuple.__new__ skips the NamedTuple's Python-level __new__: events are made often.
        self._events.append(_make_event(Event, (kind, seat, rule, source, self.players, amount,
                                                cards, color, target, note)))

    def _next(self, seat: int, skip: int = 0) -> int:
        return (seat + self._direction * (1 + skip)) % self._n

    def _turn(self, seat: int) -> None:
        self._to_act = seat
        self._phase = _P_TURN

    def _expose(self, seat: int) -> None:
        # R6: the call is owed each time a player gets down to one card.
        if self._penalty and seat not in self._exposed:
            self._exposed.append(seat)

    def _take(self, seat: int) -> Card | None:
        draw = self._draw
        if not draw and not self._reshuffle():
            return None
        c = draw.pop()
        self._hands[seat].append(c)
        return c

    def _reshuffle(self) -> bool:
        # R2: all of the discard pile but its top card becomes the new draw pile.
        discard = self._discard
        if len(discard) <= 1:
            return False
        rest = discard[:-1]
        del discard[:-1]
        shuffle(rest, self._rng)
        self._draw.extend(rest)
        self._ev(_V_RESHUFFLE, None, "reshuffle")
        return True

    def _draw_cards(self, seat: int, k: int, topic: str, note: str = "") -> list[Card]:
        got: list[Card] = []
        for _ in range(k):
            c = self._take(seat)
            if c is None:
                break
            got.append(c)
        self._ev(_V_DRAW, seat, topic, len(got), tuple(got), note=note)
        if len(got) < k:
            self._ev(_V_SHORT, seat, "reshuffle", len(got))  # R2
        return got

    def _went_out(self, seat: int) -> None:
        self._winner = seat
        self._ev(EventKind.OUT, seat, "out")

    def _finish(self) -> None:
        self._phase = _P_OVER
        self._to_act = None
        self._pending = 0
        self._pending_from = None
        self._final = False
        self._drawn = None
        self._exposed.clear()


    # -- the moves a special card's phase makes (engine.phases.base.Table) -------------------

    @property
    def reverse_skips(self) -> bool:
        """Whether a Reverse acts as a Skip at this table (R13)."""
        return self._reverse_skips

    @property
    def rng(self) -> random.Random:
        """The game's one random generator."""
        return self._rng

    def hand_of(self, seat: int) -> list[Card]:
        """``seat``'s hand itself, for a phase to move cards in and out of it."""
        return self._hands[seat]

    def event(self, kind: EventKind, seat: int | None, topic: str, amount: int = 0,
              cards: tuple[Card, ...] = (), color: Color | None = None,
              target: int | None = None, note: str = "") -> None:
        """Record what happened, citing this variant's source for ``topic``."""
        self._ev(kind, seat, topic, amount, cards, color, target, note)

    def next_seat(self, seat: int, skip: int = 0) -> int:
        """The seat after ``seat`` in the direction of play, skipping ``skip`` seats."""
        return (seat + self._direction * (1 + skip)) % self._n

    def give_turn(self, seat: int) -> None:
        """``seat`` now plays or draws."""
        self._to_act = seat
        self._phase = _P_TURN

    def wait_for(self, seat: int, phase: Phase) -> None:
        """The game now waits for ``seat`` to decide ``phase``."""
        self._to_act = seat
        self._phase = phase

    def start_phase(self, phase: Phase, seat: int) -> None:
        """Hand ``seat`` over to the special phase ``phase`` (its object starts it)."""
        self._specials[phase].start(self, phase, seat)

    def draw_cards(self, seat: int, k: int, topic: str, note: str = "") -> list[Card]:
        """``seat`` draws ``k`` cards (fewer if both piles run out, R2)."""
        return self._draw_cards(seat, k, topic, note)

    def owe_uno(self, seat: int) -> None:
        """``seat`` is down to one card and owes the call (R6)."""
        self._expose(seat)

    def go_out(self, seat: int) -> None:
        """``seat`` has gone out."""
        self._went_out(seat)

    def end_hand(self) -> None:
        """The hand is over."""
        self._finish()

    def name_color(self, color: Color | None) -> None:
        """The color in play is now ``color``."""
        self._color = color

    def put_on_discard(self, c: Card) -> None:
        """``c`` goes on the discard pile; its color is now in play."""
        self._discard.append(c)
        self._color = c.color

    def reverse_direction(self) -> int:
        """Play goes the other way; the new direction."""
        self._direction = -self._direction
        return self._direction

    def swap_hands(self, seat: int, other: int, topic: str) -> None:
        """Wild Swap Hands (R14) and the 7-0 house rule's 7: two seats swap hands."""
        hands = self._hands
        before = (len(hands[seat]), len(hands[other]))
        hands[seat], hands[other] = hands[other], hands[seat]
        self._ev(EventKind.SWAP, seat, topic, target=other)
        for s, was in zip((seat, other), before):
            if len(hands[s]) == 1 and was != 1:
                self._expose(s)

    def _rotate_hands(self) -> None:
        # 7-0 (house rule): every hand passes one seat in the direction of play.
        n, d, hands = self._n, self._direction, self._hands
        before = [len(h) for h in hands]
        self._hands = hands = [hands[(s - d) % n] for s in range(n)]
        self._ev(EventKind.ROTATE, None, "seven-o", note=DIRECTION_WORDS[d])
        for s in range(n):
            if len(hands[s]) == 1 and before[s] != 1:
                self._expose(s)

    def check_held(self, seat: int, c: Card | None) -> IllegalActionError | None:
        """Why ``seat`` cannot use ``c`` (None if they hold it)."""
        if c is None:
            return BadChoiceError("name a card")
        if c not in self._hands[seat]:
            return CardNotHeldError(f"{self.players[seat]} does not hold {card_name(c)}")
        return None

    def check_seat(self, target: int | None, not_seat: int | None,
                   what: str) -> IllegalActionError | None:
        """Why ``target`` cannot be chosen to ``what`` (None if it can)."""
        if target is None:
            return BadChoiceError(f"name the seat to {what}")
        if not 0 <= target < self._n:
            return BadChoiceError(f"seat {target} is not at this table")
        if target == not_seat:
            return BadChoiceError(f"choose another player to {what}")
        return None

    def not_now(self, kind: ActionKind) -> NotYourTurnError:
        """The error for an action of ``kind`` that is not what the game waits for."""
        seat = self._to_act
        assert seat is not None
        who = self.players[seat]
        phase = self._phase
        if phase is _P_TURN:
            wants = f"{who} to play a card or draw"
        elif phase is _P_DRAWN:
            wants = f"{who} to play the drawn card or keep it"
        elif phase is _P_PENDING:
            wants = f"{who} to take the draw" + (
                ", challenge it" if self.challenges and self._discard[-1] in DRAW_WILDS
                else "") + (" or pass it on" if self._stack_rule else "")
        else:
            wants = self._specials[phase].waiting_for(phase, who)
        return NotYourTurnError(f"cannot '{kind.value}' now: the game waits for {wants}")


def _citations(sheet: str, sections: Mapping[str, tuple[str | None, str]]
               ) -> dict[str, tuple[str, str]]:
    cite: dict[str, tuple[str, str]] = {}
    for topic, (section, rule) in sections.items():
        if section is not None and section.startswith("house rule"):
            cite[topic] = (rule, section)
        elif section is None:
            cite[topic] = (rule, f"not on the {sheet}" if sheet else "ruling")
        else:
            cite[topic] = (rule, f"{sheet}, {section}" if sheet else section)
    return cite


GameState._cite = _citations("", CLASSIC_SECTIONS)
GameState._play_cite = GameState._cite["play"]

# Enum members are read through a Python-level descriptor on Python 3.11 (about a
# quarter of a microsecond a read); the methods use these module-level names instead.
_P_TURN = Phase.TURN
_P_DRAWN = Phase.DRAWN
_P_PENDING = Phase.PENDING
_P_OVER = Phase.OVER
_V_DRAW = EventKind.DRAW
_V_SHORT = EventKind.SHORT
_V_RESHUFFLE = EventKind.RESHUFFLE
_make_event: Any = tuple.__new__
