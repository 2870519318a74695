"""The standard game model, :class:`Game`. Each variant in :mod:`engine.variants`
subclasses it, sets a few class-level settings and overrides a few hooks.

The base class plays the classic sheet; a variant changes only what its sheet
changes. A hand runs as a small state machine: :attr:`Game.phase` says what the
game waits for and :attr:`Game.to_act` who decides it.

>>> from engine import Game, Position
>>> game = Game.from_position(Position(
...     "classic", (), (("red-7", "red-2"), ("blue-3", "green-5")), ("red-5",),
...     ("yellow-1", "yellow-2")))
>>> [a.text for a in game.legal_actions()]
['play red-7', 'play red-2', 'draw', 'play red-7 uno', 'play red-2 uno']
>>> [e.text for e in game.apply("play red-7")]
['Player 1 plays red 7 (R3; classic sheet, Gameplay)']
>>> [a.text for a in game.legal_actions()]
['draw', 'uno 0', 'catch 1 0']

:class:`Game` owns what every variant has: the seats, the piles, whose turn, the
direction, the phase and the options. Its sections, in order: the settings and
hooks a variant sets; deck and points; the read-only views; the moves every rule
is made of (public where a special card's phase makes them, see
:class:`engine.phases.PhaseHost`); building, saving and replaying a game; what may
be done now; and the turn machine, :meth:`Game.apply`.

Every phase is an object that holds its own state and answers its own questions
side by side (:class:`engine.phases.PhaseRules`: legal actions, checks, applying,
what the game waits for); the game hands each question to the current phase's
object in one place. The turn's own phases are in this module, after
:class:`Game`: :class:`Turn`, :class:`Drawn` (the card just drawn) and
:class:`Pending` (the pending draw and its challenge). A special card's phase (a
Wild turned up first, Wild Jackpot's lever and discard, Dip's give, the droid)
is an object of :mod:`engine.phases`; the variant declares which it uses
(:attr:`Game.special_phases`).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Final, Self, cast

from .actions import (
    ACCEPT,
    CALLING_PLAYS,
    CHALLENGE,
    COLOR_PLAYS,
    DRAW,
    PASS,
    PLAIN_PLAYS,
    Action,
    ActionKind,
    BadChoiceError,
    CardNotHeldError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    UnplayableCardError,
)
from .card_facts import (
    DIRECTION_WORDS,
    DRAW_OF,
    DRAW_TOPIC,
    DRAW_WILDS,
    EFFECT_OF,
    WILD_SWAP,
    Effect,
    card_name,
)
from .cards import COLORS, Card, Color, Rank, card, parse_cards
from .chance import rng_from_json, rng_to_json, shuffle
from .events import Event, EventKind
from .jackpot import RuleDispenser
from .names import clean_name, names_problem
from .options import MAX_UNO_PENALTY, TableOptions
from .phases import JackpotLever, NameColor, Phase, PhaseRules, SpecialPhase
from .position import Position, owing, specials_of
from .results import (
    CLASSIC_SECTIONS,
    HandNotOverError,
    HandResult,
    NoPointsError,
    SetupError,
)
from .scoring import ScoringMode

# Importable from here as before: the variants, the app and the tests use them.
__all__ = ["CLASSIC_SECTIONS", "RETURNED_FIRST", "Drawn", "Game", "HandNotOverError",
           "HandResult", "NoPointsError", "Pending", "Phase", "SetupError", "Turn"]


#: The attributes a copy of a game shares with it: immutable values (numbers, enums,
#: cards, tuples, positions), or, for ``_setup`` and ``_start_of_hand``, values never
#: changed once set.
_SHARED = (
    "_color", "_direction", "_forced_play", "_jump_in", "_legal", "_n", "_penalty",
    "_phase", "_reverse_skips", "_setup", "_seven_o", "_stack_rule", "_start_of_hand",
    "_start_position", "_to_act", "_until_playable", "_winner",
)


class Game:
    """Standard UNO rules (the classic sheet); subclasses are the variants.

    Make a game with :meth:`new` (a shuffled or stacked deck), :meth:`from_position`
    (any moment of a hand, :class:`engine.Position`) or :meth:`from_json`; then :meth:`legal_actions`,
    :meth:`is_legal` / :meth:`why_illegal` and :meth:`apply` until :attr:`is_over`.
    """

    # With slots every attribute read and write on the hot path stays a fixed-offset
    # access instead of a dict lookup. A phase's own state is not here: it is its phase
    # object's (the drawn card, the pending draw; a special card's, engine.phases, which
    # the variant declares); variants add no slots.
    __slots__ = (
        "_color",
        "_direction",
        "_discard",
        "_draw",
        "_drawn",
        "_events",
        "_forced_play",
        "_hands",
        "_jump_in",
        "_legal",
        "_n",
        "_penalty",
        "_pending",
        "_phase",
        "_reverse_skips",
        "_rng",
        "_rules",
        "_setup",
        "_seven_o",
        "_special_on_first",
        "_special_on_play",
        "_specials",
        "_stack_rule",
        "_start_of_hand",
        "_start_position",
        "_to_act",
        "_uno_owed",
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
    special_phases: ClassVar[tuple[type[SpecialPhase], ...]] = (NameColor,)

    #: Every variant by name, for :meth:`from_json` and :meth:`replay`.
    _registry: ClassVar[dict[str, type[Game]]] = {}
    #: topic -> (rule, source), built from ``sections`` and ``sheet``.
    _cite: ClassVar[dict[str, tuple[str, str]]] = {}
    _play_cite: ClassVar[tuple[str, str]] = ("", "")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.name:
            Game._registry[cls.name] = cls
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
        if options.uno_penalty is not None and not 0 <= options.uno_penalty <= MAX_UNO_PENALTY:
            raise ValueError(f"the UNO penalty must be 0-{MAX_UNO_PENALTY} cards (R6)")
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
    def has_lever(cls) -> bool:
        """Whether the variant comes with Wild Jackpot's lever (R18): a Jackpot card played
        makes its player pull it."""
        return JackpotLever in cls.special_phases

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
        self._uno_owed: list[int] = []
        self._set_phases(Drawn(), Pending(), [phase_type(n) for phase_type in self.special_phases])
        self._events: list[Event] = []
        self._legal: tuple[Action, ...] | None = None
        self._setup: dict[str, Any] = {}
        # new(): the seed or generator state, and the stacked deck; JSON made on demand.
        self._start_of_hand: tuple[dict[str, Any], list[Card] | None] | None = None
        # from_position(): the position it set up; its JSON made on demand.
        self._start_position: Position | None = None
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
        game._uno_owed = list(self._uno_owed)
        game._events = list(self._events)
        game._set_phases(self._drawn.copy(), self._pending.copy(),
                         [special.copy() for special in dict.fromkeys(self._specials.values())])
        game.history = list(self.history)
        game.opening_events = list(self.opening_events)
        return game

    def _set_phases(self, drawn: Drawn, pending: Pending,
                    specials: Sequence[SpecialPhase]) -> None:
        # Each phase's object, by phase: the one place the game looks a phase up.
        self._drawn = drawn
        self._pending = pending
        self._specials = {p: special for special in specials for p in special.phases}
        rules: dict[Phase, PhaseRules[Game]] = {_P_TURN: _TURN, _P_DRAWN: drawn,
                                                _P_PENDING: pending}
        rules.update(self._specials)
        self._rules = rules
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
        return self._drawn.card if self._phase is _P_DRAWN else None

    @property
    def pending_draw(self) -> int:
        """Cards ``to_act`` must draw unless they challenge or stack."""
        return self._pending.amount if self._phase is _P_PENDING else 0

    @property
    def uno_owed(self) -> tuple[int, ...]:
        """Seats at one card that have not called UNO and can be caught now (R6)."""
        return tuple(s for s in self._uno_owed if len(self._hands[s]) == 1)

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
    # Public: a special card's phase (engine.phases.base.PhaseHost) makes them too. They
    # change the game without checking anything: they are for rules, not for players.

    def event(self, kind: EventKind, seat: int | None, topic: str, amount: int = 0,
              cards: tuple[Card, ...] = (), color: Color | None = None,
              target: int | None = None, note: str = "") -> None:
        """Record what happened, citing this variant's source for ``topic``."""
        rule, source = self._cite[topic]
        # tuple.__new__ skips the NamedTuple's Python-level __new__: events are made often
        # (issue 28: 18% more hands/s compiled, 12% interpreted, classic 4p).
        self._events.append(_make_event(Event, (kind, seat, rule, source, self.players, amount,
                                                cards, color, target, note)))

    def next_seat(self, seat: int, skip: int = 0) -> int:
        """The seat after ``seat`` in the direction of play, skipping ``skip`` seats."""
        return (seat + self._direction * (1 + skip)) % self._n

    def give_turn(self, seat: int) -> None:
        """``seat`` now plays or draws."""
        self._to_act = seat
        self._phase = _P_TURN

    def owe_uno(self, seat: int) -> None:
        """``seat`` is down to one card and owes the call."""
        # R6: the call is owed each time a player gets down to one card.
        if self._penalty and seat not in self._uno_owed:
            self._uno_owed.append(seat)

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
        self.event(_V_RESHUFFLE, None, "reshuffle")
        return True

    def draw_cards(self, seat: int, k: int, topic: str, note: str = "") -> list[Card]:
        """``seat`` draws ``k`` cards (fewer if both piles run out, R2)."""
        got: list[Card] = []
        for _ in range(k):
            c = self._take(seat)
            if c is None:
                break
            got.append(c)
        self.event(_V_DRAW, seat, topic, len(got), tuple(got), note=note)
        if len(got) < k:
            self.event(_V_SHORT, seat, "reshuffle", len(got))  # R2
        return got

    def go_out(self, seat: int) -> None:
        """``seat`` has gone out (any final draw may still follow, R5)."""
        self._winner = seat
        self.event(EventKind.OUT, seat, "out")

    def end_hand(self) -> None:
        """The hand is over."""
        self._phase = _P_OVER
        self._to_act = None
        self._pending.clear()
        self._drawn.card = None
        self._uno_owed.clear()

    # -- more moves a special card's phase makes (engine.phases.base.PhaseHost) -------------------

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

    def wait_for(self, seat: int, phase: Phase) -> None:
        """The game now waits for ``seat`` to decide ``phase``."""
        self._to_act = seat
        self._phase = phase

    def start_phase(self, phase: Phase, seat: int) -> None:
        """Hand ``seat`` over to the special phase ``phase`` (its object starts it)."""
        self._specials[phase].start(self, phase, seat)

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
        self.event(EventKind.SWAP, seat, topic, target=other)
        for s, was in zip((seat, other), before):
            if len(hands[s]) == 1 and was != 1:
                self.owe_uno(s)

    def _rotate_hands(self) -> None:
        # 7-0 (house rule): every hand passes one seat in the direction of play.
        n, d, hands = self._n, self._direction, self._hands
        before = [len(h) for h in hands]
        self._hands = hands = [hands[(s - d) % n] for s in range(n)]
        self.event(EventKind.ROTATE, None, "seven-o", note=DIRECTION_WORDS[d])
        for s in range(n):
            if len(hands[s]) == 1 and before[s] != 1:
                self.owe_uno(s)

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
        phase = self._phase
        wants = self._rules[phase].waiting_for(self, phase, self.players[seat])
        return NotYourTurnError(f"cannot '{kind.value}' now: the game waits for {wants}")

    # == building a game, saving it, replaying it ================================

    @classmethod
    def new(cls, players: int | Sequence[str], *, seed: int | None = None,
            options: TableOptions | None = None, dealer: int = 0,
            deck: Sequence[Card | str] | None = None,
            rng: random.Random | None = None) -> Self:
        """Shuffle (or take a stacked ``deck``, top card first), deal and turn the first card.

        Randomness comes from ``rng``, else from ``random.Random(seed)``; without
        either a seed is drawn from the system and recorded, so the game can be replayed.
        A stacked deck is dealt as given, one card at a time clockwise from the
        dealer's left (see :meth:`stack_deck`).
        """
        names = cls._seat_names(players)
        options = cls._resolve_options(options)
        if not 0 <= dealer < len(names):
            raise SetupError(f"the dealer must be a seat from 0 to {len(names) - 1}")
        start: dict[str, Any]
        if rng is not None:
            if seed is not None:
                raise SetupError("give a seed or a random generator, not both")
            start = {"rng": rng_to_json(rng)}
        else:
            if seed is None:
                seed = secrets.randbits(63)
            rng = random.Random(seed)
            start = {"seed": seed}
        if deck is None:
            cards = list(cls._full_deck(options))
            shuffle(cards, rng)
            stacked = None
        else:
            cards = [Card.parse(c) if isinstance(c, str) else c for c in deck]
            cls._check_cards(cards, options)
            stacked = cards[:]
        game = cls(names, options, dealer, rng)
        game._start_of_hand = (start, stacked)
        cards.reverse()
        game._draw = cards
        game._prepare_specials()
        game._events = game.opening_events
        game._deal()
        game._turn_up_first_card()
        return game

    @classmethod
    def stack_deck(cls, hands: Sequence[Sequence[Card | str] | str], first: Card | str,
                   draw_pile: Sequence[Card | str] | str = (), *, dealer: int = 0) -> list[Card]:
        """A stacked deck (top card first) that :meth:`new` deals into exactly ``hands``
        (by seat), turns up ``first`` and leaves ``draw_pile`` (top first) to draw from.

        >>> from engine import find_variant
        >>> classic = find_variant("classic")
        >>> hands = ["red-1 red-2 red-3 red-4 red-5 red-6 red-7",
        ...          "blue-1 blue-2 blue-3 blue-4 blue-5 blue-6 blue-7"]
        >>> deck = classic.stack_deck(hands, "red-9", "green-2 green-3")
        >>> game = classic.new(2, deck=deck)
        >>> game.top_card.text, [c.text for c in game.draw_pile]
        ('red-9', ['green-2', 'green-3'])
        """
        seat_hands = [_cards(h) for h in hands]
        n = len(seat_hands)
        if any(len(h) != cls.hand_size for h in seat_hands):
            raise SetupError(f"each hand of {cls.name} has {cls.hand_size} cards")
        order = [(dealer + k) % n for k in range(1, n + 1)]
        deck = [seat_hands[s][i] for i in range(cls.hand_size) for s in order]
        return deck + [_cards([first])[0]] + _cards(draw_pile)

    @classmethod
    def from_position(cls, position: Position) -> Self:
        """The game at ``position`` (:mod:`engine.position`), as ``chess.Board(fen)`` sets a
        board up: called on :class:`Game`, the game of the position's variant. A position
        taken with :meth:`position` goes on exactly as the game it was taken from (random
        generator included); a set-out one as the table set it out, for settling a dispute.

        >>> from engine import Position
        >>> game = Game.from_position(Position("classic", (), (("red-7",), ("blue-3",)),
        ...                                    ("red-5",), ("yellow-1",)))
        >>> type(game).__name__, [a.text for a in game.legal_actions()]
        ('ClassicGame', ['play red-7', 'draw'])

        Raises :class:`SetupError` for a position no hand of this variant can be in.
        """
        named = position.variant.strip().lower()
        if cls.name and (named == cls.name or named in cls.aliases):
            variant = cls
        else:
            variant = cls._variant_of({"variant": position.variant})
            if cls.name and variant is not cls:
                raise SetupError(f"a position of {variant.name} is not one of {cls.name}")
        p = position
        p.check()  # whatever the variant; what this variant allows is checked below
        names = variant._seat_names(p.players)
        options = variant._resolve_options(p.options)
        variant._check_cards([c for h in p.hands for c in h] + list(p.discard) + list(p.draw),
                             options)
        rng = random.Random(p.seed)
        if p.rng is not None:
            try:
                rng.setstate(p.rng)
            except (TypeError, ValueError):
                raise SetupError("rng is not a random generator's state") from None
        assert p.dealer is not None and p.phase is not None  # worked out by the position
        game = variant(names, options, p.dealer, rng)
        game._hands = [list(h) for h in p.hands]
        game._draw = list(reversed(p.draw))
        game._discard = list(p.discard)
        game._direction = p.direction
        game._color = p.color
        for special in dict.fromkeys(game._specials.values()):
            state = p.special_state(type(special), len(names))
            if state is None:
                special.prepare(game)  # a fresh game's: the lever loads its rule cards (R17)
                continue
            try:
                special.read_json(state)
                laid = special.laid_aside()
                if laid is not None and len(laid) != len(names):
                    raise ValueError
            except (KeyError, TypeError, ValueError, AttributeError):
                raise SetupError(f"not the saved state of {type(special).__name__}") from None
        if p.rule_cards_left is not None:
            game._leave_rule_cards(p.rule_cards_left)
        phase = p.phase
        game._phase = phase
        game._to_act = p.to_act
        game._winner = p.winner
        if phase is _P_DRAWN:
            if not game.may_play_drawn_card:
                raise SetupError(f"in {variant.name} a drawn card is never played that turn "
                                 "(R29)")
            game._drawn.card = p.drawn
        elif phase is _P_PENDING:
            game._set_pending(p)
        elif phase is not _P_TURN and phase is not _P_OVER:
            waiting = game._specials.get(phase)
            if waiting is None:
                raise SetupError(f"{variant.name} has no '{phase.value}' phase")
            problem = waiting.problem(phase)
            if problem is not None:
                raise SetupError(problem)
        for s in p.uno_owed:
            game.owe_uno(s)
        game._start_position = position
        return game

    def _set_pending(self, p: Position) -> None:
        top = p.discard[-1]
        pending = self._pending
        pending.amount, pending.source, pending.final = p.pending_draw, p.pending_from, p.final
        if p.guilty is not None:
            pending.guilty = p.guilty
        elif not p.final and top in DRAW_WILDS and self.challenges:
            # Set out: R10's bluff, from the color in play before the draw wild.
            discard = p.discard
            before = p.previous_color if p.previous_color is not None else (
                discard[-2].color if len(discard) > 1 else None)
            if before is None:
                raise SetupError("give previous_color: the color in play before the "
                                 f"{card_name(top)}")
            assert p.pending_from is not None
            under = discard[-2] if len(discard) > 1 else top
            pending.guilty = self.bluffed(p.hands[p.pending_from], before, under)
        if top not in DRAW_WILDS and self._stack_rule is None:
            raise SetupError("without stacking only a draw wild leaves a draw pending")

    def position(self) -> Position:
        """This moment of the hand, whole (:mod:`engine.position`), as ``board.fen()``
        writes a board: :meth:`from_position` sets up a game that goes on exactly as this
        one, random generator included."""
        phase = self._phase
        pending = self._pending if phase is _P_PENDING else None
        written: dict[str, Any] = {}
        for special in dict.fromkeys(self._specials.values()):
            special.write_json(written)
        return Position(
            self.name, self.players, tuple([tuple(h) for h in self._hands]),
            tuple(self._discard), tuple(reversed(self._draw)), self._color, self._direction,
            self._to_act, self.dealer, self._drawn.card if phase is _P_DRAWN else None,
            pending.amount if pending else 0, pending.source if pending else None,
            uno_owed=owing(self._hands, self._uno_owed), options=self.options, phase=phase,
            winner=self._winner, guilty=pending.guilty if pending else None,
            specials=specials_of(written, self._n), rng=self._rng.getstate())

    @classmethod
    def _seat_names(cls, players: int | Sequence[str]) -> list[str]:
        if isinstance(players, int):
            names = [f"Player {i + 1}" for i in range(players)]
        else:
            names = [clean_name(str(p)) for p in players]
            problem = names_problem(names)  # the one rule every form follows (engine.names)
            if problem is not None:
                raise SetupError(problem)
        if not cls.min_players <= len(names) <= cls.max_players:
            raise SetupError(f"{cls.name} is for {cls.min_players}-{cls.max_players} players,"
                             f" not {len(names)}")
        return names

    @classmethod
    def _resolve_options(cls, options: TableOptions | None) -> TableOptions:
        if options is None:
            cached = _DEFAULTS.get(cls)
            if cached is None:
                cached = _DEFAULTS[cls] = cls._resolve_options(cls.default_options())
            return cached
        try:
            cls.check_options(options)
        except SetupError:
            raise
        except ValueError as exc:
            raise SetupError(str(exc)) from None
        return options

    @classmethod
    def _full_deck(cls, options: TableOptions) -> list[Card]:
        key = (cls, options.wild_swap, options.blank_cards)
        cached = _DECKS.get(key)
        if cached is None:
            cached = _DECKS[key] = cls.deck(options)
        return cached

    @classmethod
    def _check_cards(cls, cards: Sequence[Card], options: TableOptions) -> None:
        # Cached: the referee sets a position up many times over for one dispute.
        key = (cls, options.wild_swap, options.blank_cards)
        counts = _DECK_COUNTS.get(key)
        if counts is None:
            counts = _DECK_COUNTS[key] = cls.deck_counts(options)
        seen: dict[Card, int] = {}
        for c in cards:
            seen[c] = seen.get(c, 0) + 1
        for c, k in seen.items():
            if k > counts.get(c, 0):
                have = counts.get(c, 0)
                raise SetupError(f"{c.text} appears {k} times; the {cls.name} deck has {have}")

    def _leave_rule_cards(self, left: int) -> None:
        # R17: only ``left`` written cards are still in the unit; the rest have been used.
        if not self.rule_cards:
            raise SetupError(f"{self.name} has no rule-card unit (R17)")
        unit = self.rule_dispenser
        if not 0 <= left <= len(unit.loaded):
            raise SetupError(f"the unit holds 0 to {len(unit.loaded)} rule cards: the cards "
                             "written at this table (R17)")
        used = len(unit.loaded) - left
        unit.used, unit.loaded = unit.loaded[:used], unit.loaded[used:]

    def _prepare_specials(self) -> None:
        for special in dict.fromkeys(self._specials.values()):
            special.prepare(self)

    # -- the deal and the first card -------------------------------------------------

    def _deal(self) -> None:
        n, draw, hands = self._n, self._draw, self._hands
        if len(draw) < self.hand_size * n + 1:
            raise SetupError(f"the deck has {len(draw)} cards: too few to deal {self.hand_size}"
                             f" to {n} players and turn one up")
        # One card at a time clockwise from the dealer's left; the top card is draw[-1],
        # so the seat k-th in line gets every n-th card counting down from draw[-1 - k].
        dealt = self.hand_size * n
        top = len(draw) - 1
        for k in range(n):
            hands[(self.dealer + 1 + k) % n][:] = draw[top - k:top - dealt:-n]
        del draw[top + 1 - dealt:]
        self.event(EventKind.DEAL, self.dealer, "setup", amount=self.hand_size)

    def _turn_up_first_card(self) -> None:
        draw, rng = self._draw, self._rng
        while True:
            first = draw.pop()
            if not self._first_card_returned(first):
                break
            if not any(not self._first_card_returned(c) for c in draw):
                raise SetupError("no card in the deck may start the discard pile")
            # Back into the deck at a random place: the same as shuffling it in.
            topic = "first-return"
            self.event(EventKind.RETURNED, None, topic, cards=(first,))
            draw.insert(rng.randrange(len(draw) + 1), first)
        self._discard.append(first)
        self._color = first.color
        self.event(EventKind.FIRST_CARD, None, "first", cards=(first,))
        n, dealer = self._n, self.dealer
        left = (dealer + 1) % n
        effect = EFFECT_OF[first]
        if effect is _E_SKIP:
            self.event(_V_LOSE_TURN, left, "first-skip")
            self._start((left + 1) % n)
        elif effect is _E_DRAW:
            self.draw_cards(left, DRAW_OF[first], "first-draw")
            self.event(_V_LOSE_TURN, left, "first-draw")
            self._start((left + 1) % n)
        elif effect is _E_REVERSE:
            self._direction = -1
            self._start((dealer - 1) % n if self.first_reverse_right_of_dealer else dealer,
                        "first-reverse")
        else:
            special = self._special_on_first.get(effect)
            if special is not None:  # a Wild to name, a Jackpot's rule card (R8, R19)
                special.on_first_card(self, left)
            else:
                self._start(left)

    def _first_card_returned(self, c: Card) -> bool:
        # R8, R19, R23 (draw wilds, Dip); R28, R34 (anything but a number); blanks: rulings.md
        if self.first_card_numbers_only:
            return not c.rank.is_number
        return c in RETURNED_FIRST

    def _start(self, seat: int, topic: str = "first") -> None:
        self.event(_V_START, seat, topic, note=DIRECTION_WORDS[self._direction])
        self.give_turn(seat)

    # -- saving and replaying ------------------------------------------------------------------

    @property
    def setup(self) -> dict[str, Any]:
        """How this hand started, as JSON: :meth:`replay` takes it with the actions."""
        if self._start_of_hand is not None:
            start, stacked = self._start_of_hand
            return {"variant": self.name, "players": list(self.players), "dealer": self.dealer,
                    "options": self.options.to_dict(), **_copy_json(start),
                    "deck": [c.text for c in stacked] if stacked is not None else None}
        if self._start_position is not None:
            # Written when asked, not on every set-up: the referee sets positions up by the
            # thousand and never asks.
            start_game = type(self).from_position(self._start_position)
            return {"variant": self.name, "position": start_game.position().to_json()}
        copied: dict[str, Any] = _copy_json(self._setup)
        return copied

    def to_json(self) -> dict[str, Any]:
        """Everything about the game as plain JSON values; :meth:`from_json` restores it
        exactly, random generator included."""
        return {
            "variant": self.name,
            "setup": self.setup,
            "state": self.position().to_json(),
            "history": [a.text for a in self.history],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """The game saved by :meth:`to_json`."""
        variant = cls._variant_of(data)
        game = variant.from_position(Position.from_json(data["state"], variant.name))
        game._start_position = None
        game._setup = _copy_json(dict(data.get("setup") or {}))
        game._start_of_hand = None
        game.history = [Action.parse(t) for t in data.get("history", [])]
        return game

    @classmethod
    def _variant_of(cls, data: Mapping[str, Any]) -> type[Self]:
        name = data.get("variant") or cls.name
        try:
            variant = Game._registry[name]
        except KeyError:
            raise SetupError(f"unknown variant {name!r}") from None
        # The saved game's own variant, as ever: called on Game (as the app does), a Game.
        return cast("type[Self]", variant)

    @classmethod
    def _replay_start(cls, setup: Mapping[str, Any] | int, *,
               players: int | Sequence[str] | None = None,
               options: TableOptions | None = None, dealer: int = 0) -> Self:
        """The game a replay starts from (see :meth:`engine.game.Game.replay`)."""
        if isinstance(setup, int):
            if players is None or not cls.name:
                raise SetupError("replay from a seed needs a variant class and the players")
            game = cls.new(players, seed=setup, options=options, dealer=dealer)
        else:
            start = setup.get("setup", setup)
            variant = cls._variant_of(start)
            if "position" in start:
                game = variant.from_position(Position.from_json(start["position"], variant.name))
                game._start_position = None  # the setup as saved, not as worked out again
                game._setup = _copy_json(dict(start))
            else:
                opts = TableOptions.from_dict(start.get("options"))
                rng = None
                if "rng" in start:
                    rng = random.Random()
                    rng.setstate(rng_from_json(start["rng"]))
                game = variant.new(start["players"], seed=start.get("seed"), options=opts,
                                   dealer=start.get("dealer", 0), deck=start.get("deck"),
                                   rng=rng)
        return game

    # == what may be done now ====================================================

    def legal_actions(self) -> list[Action]:
        """Every legal action now: the decision of :attr:`to_act`, then UNO calls and
        catches (each naming its actor) and jump-ins (house rule)."""
        out: list[Action] = []
        seat = self._to_act
        if seat is None:  # the hand is over
            return out
        phase = self._phase
        rules = self._rules[phase]  # the phase's object answers (Turn, Drawn, Pending, ...)
        rules.legal(self, phase, seat, out)
        if self._jump_in and rules.jumps:  # house rule: out of turn, before this turn begins
            self._add_jumps(seat, out)
        if self._penalty and len(self._hands[seat]) == 2 and rules.plays:
            # R6: the play that leaves one card may call UNO with it (no swap: a swap moves
            # hands, so that call is made on its own afterwards).
            out.extend([c for c in map(CALLING_PLAYS.get, map(id, out)) if c is not None])
        if self._uno_owed:
            self._add_calls(out)
        self._legal = tuple(out)
        return out

    def _matches(self, c: Card) -> bool:
        # R3: the color in play (named after a wild) or the top card's symbol; wilds anywhere.
        return c.color is self._color or c.rank is self._discard[-1].rank or c.color is None

    def _needs_target(self, seat: int, c: Card) -> bool:
        # Wild Swap Hands (R14: not as the last card) and 7s under 7-0 name a seat.
        return ((c is WILD_SWAP or (self._seven_o and c.rank is Rank.SEVEN))
                and len(self._hands[seat]) > 1)

    def _add_plays(self, seat: int, c: Card, out: list[Action],
                   kind: ActionKind = ActionKind.PLAY, actor: int | None = None) -> None:
        targeted = self._needs_target(seat, c)
        if kind is _K_PLAY and not targeted:
            out.extend(COLOR_PLAYS[c] if c.color is None else (PLAIN_PLAYS[c],))
            return
        key = (kind, c, seat, self._n if targeted else 0, actor)
        actions = _PLAYS_WITH_SEATS.get(key)
        if actions is None:  # the same few actions every time: made once
            others = [t for t in range(self._n) if t != seat] if targeted else [None]
            colors: Sequence[Color | None] = COLORS if c.color is None else (None,)
            actions = _PLAYS_WITH_SEATS[key] = tuple(
                Action(kind, c, col, t, actor) for col in colors for t in others)
        out.extend(actions)

    def _add_jumps(self, seat: int, out: list[Action]) -> None:
        top = self._discard[-1]
        if top.color is None:
            return
        for s in range(self._n):
            if s != seat and top in self._hands[s]:
                self._add_plays(s, top, out, ActionKind.JUMP, s)

    def _add_calls(self, out: list[Action]) -> None:
        n = self._n
        for s in self._uno_owed:
            if len(self._hands[s]) == 1:
                calls = _CALLS.get((n, s))
                if calls is None:  # the same few actions every time: made once
                    calls = _CALLS[(n, s)] = (Action(ActionKind.UNO, seat=s),) + tuple(
                        Action(ActionKind.CATCH, seat=c, target=s) for c in range(n) if c != s)
                out.extend(calls)

    # -- checking an action ----------------------------------------------------------------

    def is_legal(self, action: Action | str) -> bool:
        """True if ``action`` may be applied now."""
        return self._check(_action(action)) is None

    def why_illegal(self, action: Action | str) -> str | None:
        """Why ``action`` may not be applied now, citing the rule; None if it may."""
        error = self._check(_action(action))
        return None if error is None else str(error)

    def _check(self, a: Action) -> IllegalActionError | None:
        if not isinstance(a, Action):  # a caller's bug, not a move: the same in both builds
            raise TypeError(f"an action is an Action or its text, not {a!r}")
        error = self._check_action(a)
        if error is None and a.uno:
            return self._check_calling_play(a)
        return error

    def _check_calling_play(self, a: Action) -> IllegalActionError | None:
        # ``play CARD uno``: the call made as the next-to-last card goes down (R6).
        if a.kind is not _K_PLAY:
            return BadChoiceError(f"'{a.kind.value}' cannot call UNO: only a play can")
        seat = self._to_act
        assert seat is not None
        if self._penalty == 0:
            return UnplayableCardError("no UNO call is needed at this table", "R6")
        if a.target is not None:
            return BadChoiceError("a play that swaps hands cannot call UNO with it: call "
                                  "afterwards with 'uno SEAT'", "R6")
        if len(self._hands[seat]) != 2:
            return UnplayableCardError(
                f"{self.players[seat]} cannot call UNO with this play: only the play that "
                "leaves one card calls with it", "R6")
        return None

    def _check_action(self, a: Action) -> IllegalActionError | None:
        phase = self._phase
        if phase is _P_OVER:  # no phase's object: nothing may be done
            return GameOverError("the hand is over")
        kind = a.kind
        carried = _FIELDS_OF[kind]
        for field in _FIELDS:
            if field not in carried and getattr(a, field) is not None:
                return BadChoiceError(f"'{kind.value}' takes no {field}")
        if kind is ActionKind.UNO or kind is ActionKind.CATCH:
            return self._check_call(a)
        if kind is ActionKind.JUMP:
            return self._check_jump(a)
        seat = self._to_act
        assert seat is not None
        return self._rules[phase].check(self, phase, seat, a)  # the phase's object answers

    def _check_play(self, seat: int, a: Action) -> IllegalActionError | None:
        c = a.card
        held = self.check_held(seat, c)
        if held is not None:
            return held
        assert c is not None
        if not self._matches(c):
            top = self._discard[-1]
            color = self._color.value if self._color is not None else "none"
            return UnplayableCardError(
                f"{card_name(c)} matches neither the color in play ({color}) nor the "
                f"{card_name(top)} on top", "R3")
        return self._check_choices(seat, c, a.color, a.target)

    def _check_choices(self, seat: int, c: Card, color: Color | None,
                       target: int | None) -> IllegalActionError | None:
        if c.color is None:
            if color is None:
                return BadChoiceError(f"name a color for the {card_name(c)}")
        elif color is not None:
            return BadChoiceError(f"only a wild names a color, not {card_name(c)}")
        if self._needs_target(seat, c):
            return self.check_seat(target, seat, "swap hands with")
        if target is not None:
            if c is WILD_SWAP:
                return BadChoiceError("a Wild Swap Hands played as the last card ends the hand "
                                      "without a swap", "R14")
            return BadChoiceError(f"{card_name(c)} does not name a seat")
        return None

    def _check_call(self, a: Action) -> IllegalActionError | None:
        s = a.seat if a.kind is ActionKind.UNO else a.target
        bad = self.check_seat(s, None, "call UNO")
        if bad is not None:
            return bad
        assert s is not None
        if self._penalty == 0:
            return UnplayableCardError("no UNO call is needed at this table", "R6")
        if s not in self._uno_owed or len(self._hands[s]) != 1:
            return UnplayableCardError(
                f"{self.players[s]} does not owe an UNO call now: only a player who got down "
                "to one card, until the next player begins their turn", "R6")
        if a.kind is ActionKind.CATCH:
            bad = self.check_seat(a.seat, s, "catch")
            if bad is not None:
                return bad
        return None

    def _check_jump(self, a: Action) -> IllegalActionError | None:
        if not self._jump_in:
            return UnplayableCardError("jump-in is a house rule this table does not play")
        if not self._rules[self._phase].jumps:
            return NotYourTurnError("jump-in is only allowed before a player begins their turn")
        bad = self.check_seat(a.seat, self._to_act, "jump in")
        if bad is not None:
            return bad
        assert a.seat is not None
        held = self.check_held(a.seat, a.card)
        if held is not None:
            return held
        top = self._discard[-1]
        if a.card is not top or top.color is None:
            return UnplayableCardError("jump in only with a card identical to the top card "
                                       "(same color and symbol)")
        return self._check_choices(a.seat, top, a.color, a.target)

    # == the turn machine: applying an action ====================================

    @classmethod
    def replay(cls, setup: Mapping[str, Any] | int, actions: Iterable[Action | str], *,
               players: int | Sequence[str] | None = None,
               options: TableOptions | None = None, dealer: int = 0) -> Self:
        """The game reached from a start and a list of actions.

        ``setup`` is :attr:`setup`, a :meth:`to_json` dict (its start is used, not
        its current state) or, called on a variant, just a seed with ``players``.
        Same start and same actions always give the same game.
        """
        game = cls._replay_start(setup, players=players, options=options, dealer=dealer)
        for a in actions:
            game.apply(a)
        return game

    def apply(self, action: Action | str) -> list[Event]:
        """Apply a legal action and return what happened.

        Raises :class:`~engine.actions.IllegalActionError` (a subclass per cause) for an
        illegal action, leaving the game unchanged.
        """
        a = Action.parse(action) if isinstance(action, str) else action
        legal = self._legal
        for x in legal or ():  # handed out by legal_actions() since the last change: legal
            if x is a:
                break
        else:
            error = self._check(a)
            if error is not None:
                raise error
        self._legal = None
        events: list[Event] = []
        self._events = events
        actor = a.seat
        if actor is None:  # the decision of to_act: the phase's object carries it out
            phase = self._phase
            self._rules[phase].apply(self, phase, a)
        else:  # out of turn, naming its actor: an UNO call, a catch, a jump-in
            kind = a.kind
            if kind is _K_UNO:
                self._uno_owed.remove(actor)
                self.event(_V_UNO, actor, "uno")
            elif kind is _K_CATCH:
                assert a.target is not None
                self._uno_owed.remove(a.target)
                self.event(EventKind.CATCH, actor, "uno", target=a.target)
                self.draw_cards(a.target, self._penalty, "uno", "the penalty for not calling UNO")
            else:
                assert a.card is not None
                self._uno_owed.clear()
                self.event(EventKind.JUMP, actor, "jump-in", cards=(a.card,))
                self._to_act = actor
                self._play(actor, a.card, a.color, a.target)
        self.history.append(a)
        return events

    # -- playing a card ----------------------------------------------------------------------

    def _play(self, seat: int, c: Card, color: Color | None, target: int | None,
              calls: bool = False) -> None:
        hand = self._hands[seat]
        hand.remove(c)
        guilty = False
        if c in DRAW_WILDS and self.challenges:
            guilty = self.bluffed(hand, self._color, self._discard[-1])
        self._discard.append(c)
        self._color = c.color if c.color is not None else color
        rule, source = self._play_cite
        self._events.append(_make_event(Event, (_V_PLAY, seat, rule, source, self.players, 0,
                                                (c,), color, None, "")))
        if len(hand) < 2:
            if not hand:
                self._go_out(seat, c)
                return
            if calls:  # R6: called as the card went down, so nobody can catch it
                if seat in self._uno_owed:
                    self._uno_owed.remove(seat)
                self.event(_V_UNO, seat, "uno")
            else:
                self.owe_uno(seat)
        effect = EFFECT_OF[c]
        if effect is _E_NUMBER:
            self._to_act = (seat + self._direction) % self._n
            self._phase = _P_TURN
        elif effect is _E_DRAW:
            self._draw_card_played(seat, c, guilty)
        elif effect is _E_SKIP:
            self.event(_V_LOSE_TURN, self.next_seat(seat), "skip")
            self.give_turn(self.next_seat(seat, 1))
            if self._n == 2:
                self.event(_V_AGAIN, seat, "two")
        elif effect is _E_REVERSE:
            self._direction = -self._direction
            self.event(_V_REVERSE, seat, "reverse", note=DIRECTION_WORDS[self._direction])
            if self._reverse_skips:  # R13
                self.event(_V_AGAIN, seat, "two")
                self.give_turn(seat)
            else:
                self.give_turn(self.next_seat(seat))
        elif effect is _E_WILD:
            self.give_turn(self.next_seat(seat))
        elif effect is _E_SEVEN and self._seven_o:
            assert target is not None
            self.swap_hands(seat, target, "seven-o")
            self.give_turn(self.next_seat(seat))
        elif effect is _E_ZERO and self._seven_o:
            self._rotate_hands()
            self.give_turn(self.next_seat(seat))
        elif effect is _E_SWAP:
            assert target is not None
            self.swap_hands(seat, target, "swap")
            self.give_turn(self.next_seat(seat))
        elif effect is _E_SEVEN or effect is _E_ZERO:  # a 7 or 0 without the 7-0 house rule
            self.give_turn(self.next_seat(seat))
        else:  # Dip, Jackpot, the droid: the card's phase starts
            self._special_on_play[effect].on_play(self, seat)

    def _draw_topic(self, c: Card) -> str:
        if self._stack_rule is not None:
            return "stacking" if self._stack_rule == "any" else "progressive"
        return DRAW_TOPIC[c]

    def _draw_card_played(self, seat: int, c: Card, guilty: bool) -> None:
        k = DRAW_OF[c]
        victim = self.next_seat(seat)
        if self._stack_rule is not None or (c in DRAW_WILDS and self.challenges):
            # The next player decides: take it, challenge a draw wild, or stack (house rule).
            self._pending.start(self, seat, c, victim, guilty)
            return
        topic = self._draw_topic(c)
        self.draw_cards(victim, k, topic)
        self.event(_V_LOSE_TURN, victim, topic)
        self.give_turn(self.next_seat(seat, 1))
        if self._n == 2:
            self.event(_V_AGAIN, seat, "two")

    def _go_out(self, seat: int, c: Card) -> None:
        self.go_out(seat)
        k = DRAW_OF.get(c)
        if k is not None:
            # R5: a draw card played last still makes the next player draw.
            victim = self.next_seat(seat)
            total = self._pending.amount + k
            if c in DRAW_WILDS and self.challenges:
                # The challenge is allowed but always fails: no other card was held.
                self._pending.start_final(self, seat, victim, total)
                return
            self.draw_cards(victim, total, "final")
        self.end_hand()

    # -- the end of the hand ---------------------------------------------------------------

    def hand_result(self) -> HandResult:
        """Who went out, the cards everyone else holds and their points (R5 draws included).

        Raises :class:`HandNotOverError` while the hand goes on.
        """
        if self._phase is not Phase.OVER or self._winner is None:
            raise HandNotOverError("the hand is not over yet")
        out = self._winner
        held = {s: tuple(h) for s, h in enumerate(self._hands) if s != out}
        points = ({s: self.hand_points(h, self.options) for s, h in held.items()}
                  if self.has_points() else None)
        return HandResult(out, held, points)


# == the turn's own phases ====================================================
# Each is an object answering for its phase side by side, as a special card's phase does
# (engine.phases): its legal actions, its checks, what its actions do, what the game
# waits for, and its own state (the drawn card, the pending draw). They live here, with
# the game, because they are the turn itself: they read the hands and piles directly.


class Turn(PhaseRules[Game]):
    """``TURN``: ``to_act`` plays a card or draws (or passes: nothing to draw and nothing
    to play, R2); the others may jump in (house rule). It holds no state."""

    __slots__ = ()
    phases: ClassVar[tuple[Phase, ...]] = (Phase.TURN,)
    plays: ClassVar[bool] = True
    jumps: ClassVar[bool] = True

    def legal(self, table: Game, phase: Phase, seat: int, out: list[Action]) -> None:
        """Each playable card (R3), then ``draw`` (or ``pass``, R2)."""
        game = table
        color = game._color
        rank = game._discard[-1].rank
        # R3: the color in play or the top card's symbol; colorless cards (wilds,
        # blanks) go on anything, naming a color.
        playable: list[Card] = []
        for c in game._hands[seat]:
            if c.color is color or c.rank is rank or c.color is None:
                playable.append(c)
        seven_o = game._seven_o
        # One action per distinct card; most hands offer one play or none, so the
        # copies are only looked for when there are two.
        for c in dict.fromkeys(playable) if len(playable) > 1 else playable:
            if c.color is None:
                if c is WILD_SWAP:
                    game._add_plays(seat, c, out)
                else:
                    out.extend(COLOR_PLAYS[c])
            elif seven_o:
                game._add_plays(seat, c, out)
            else:
                out.append(PLAIN_PLAYS[c])
        if game._draw or len(game._discard) > 1:
            out.append(DRAW)
        elif not out:
            out.append(PASS)  # R2: nothing to draw and nothing to play

    def check(self, table: Game, phase: Phase, seat: int,
              a: Action) -> IllegalActionError | None:
        """A matching card held (R3); a draw while there is one (R2); a pass only when
        nothing can be drawn or played (R2)."""
        game = table
        kind = a.kind
        if kind is _K_PLAY:
            return game._check_play(seat, a)
        if kind is _K_DRAW:
            if game._draw or len(game._discard) > 1:
                return None
            return UnplayableCardError("both piles are exhausted: nothing can be drawn", "R2")
        if kind is _K_PASS:
            who = game.players[seat]
            if game._draw or len(game._discard) > 1:
                return UnplayableCardError(
                    f"{who} cannot pass: a player who does not play draws a card", "R2")
            if any(game._matches(c) for c in game._hands[seat]):
                return UnplayableCardError(
                    f"{who} cannot pass: nothing can be drawn, so a playable card must be "
                    "played", "R2")
            return None
        return game.not_now(kind)

    def apply(self, table: Game, phase: Phase, a: Action) -> None:
        """Play, draw or pass; each begins the player's turn, ending any UNO catch (R6)."""
        game = table
        seat = game._to_act
        assert seat is not None
        kind = a.kind
        if kind is _K_PLAY:
            assert a.card is not None
            if game._uno_owed:
                game._uno_owed.clear()  # R6: this player begins their turn
            game._play(seat, a.card, a.color, a.target, a.uno)
        elif kind is _K_DRAW:
            self._draw(game, seat)
        else:
            game._uno_owed.clear()
            game.event(EventKind.PASS, seat, "pass", note="nothing can be drawn or played")
            game.give_turn(game.next_seat(seat))

    def _draw(self, game: Game, seat: int) -> None:
        if game._uno_owed:
            game._uno_owed.clear()  # R6: drawing begins this player's turn
        if game._until_playable:
            got: list[Card] = []
            while True:
                c = game._take(seat)
                if c is None:
                    break
                got.append(c)
                if game._matches(c):
                    break
            game.event(_V_DRAW, seat, "draw-until", len(got), tuple(got))
            last = got[-1] if got else None
        else:
            draw = game._draw
            if not draw:  # drawing is legal, so the reshuffle refills this same list (R2)
                game._reshuffle()
            last = draw.pop()
            game._hands[seat].append(last)
            game.event(_V_DRAW, seat, "draw", 1, (last,))
        if (last is None or not game.may_play_drawn_card
                or not (last.color is game._color or last.rank is game._discard[-1].rank
                        or last.color is None)):
            # R12: only the drawn card could be played, and it cannot; R29: never that turn.
            game.event(_V_KEEP, seat, "after-draw")
            game._to_act = (seat + game._direction) % game._n
            game._phase = _P_TURN
            return
        game._drawn.card = last
        game._phase = _P_DRAWN

    def waiting_for(self, table: Game, phase: Phase, who: str) -> str:
        """Playing or drawing."""
        return f"{who} to play a card or draw"


class Drawn(PhaseRules[Game]):
    """``DRAWN``: ``to_act`` drew a card that can be played: play it or keep it (R12)."""

    __slots__ = ("card",)
    phases: ClassVar[tuple[Phase, ...]] = (Phase.DRAWN,)
    plays: ClassVar[bool] = True

    def __init__(self) -> None:
        """No card drawn."""
        #: The card just drawn (left as it was once played: only DRAWN reads it).
        self.card: Card | None = None

    def copy(self) -> Drawn:
        """The same drawn card."""
        other = Drawn()
        other.card = self.card
        return other

    def legal(self, table: Game, phase: Phase, seat: int, out: list[Action]) -> None:
        """The drawn card, if it matches (R12); keeping it, unless forced play (house rule)."""
        drawn = self.card
        assert drawn is not None
        matches = table._matches(drawn)
        if matches:
            table._add_plays(seat, drawn, out)
        if not (matches and table._forced_play):
            out.append(PASS)

    def check(self, table: Game, phase: Phase, seat: int,
              a: Action) -> IllegalActionError | None:
        """Only the drawn card is played (R12); it is kept unless forced play says not."""
        drawn = self.card
        assert drawn is not None
        kind = a.kind
        if kind is _K_PLAY:
            if a.card is not drawn:
                return UnplayableCardError(
                    f"after drawing only the drawn card ({card_name(drawn)}) may be played",
                    "R12")
            return table._check_play(seat, a)
        if kind is _K_PASS:
            if table._forced_play and table._matches(drawn):
                return UnplayableCardError(
                    "forced play (house rule): the drawn card can be played, so it must be")
            return None
        return table.not_now(kind)

    def apply(self, table: Game, phase: Phase, a: Action) -> None:
        """Play the drawn card, or keep it and play goes on."""
        seat = table._to_act
        assert seat is not None
        if a.kind is _K_PLAY:
            assert a.card is not None
            table._play(seat, a.card, a.color, a.target, a.uno)
            return
        table.event(_V_KEEP, seat, "after-draw")
        self.card = None
        table.give_turn(table.next_seat(seat))

    def waiting_for(self, table: Game, phase: Phase, who: str) -> str:
        """Playing the drawn card or keeping it."""
        return f"{who} to play the drawn card or keep it"


class Pending(PhaseRules[Game]):
    """``PENDING``: ``to_act`` must take a draw, challenge a draw wild (R10) or pass the
    draw on (stacking, house rule); the draw, who played it, and whether it was a bluff."""

    __slots__ = ("amount", "final", "guilty", "source")
    phases: ClassVar[tuple[Phase, ...]] = (Phase.PENDING,)
    plays: ClassVar[bool] = True

    def __init__(self) -> None:
        """No draw pending."""
        #: The cards to take (stacked draws add up).
        self.amount = 0
        #: The seat that played the draw card.
        self.source: int | None = None
        #: The draw wild was a bluff: a challenge succeeds (R10).
        self.guilty = False
        #: The draw card was its player's last: the hand ends once it is taken (R5).
        self.final = False

    def copy(self) -> Pending:
        """The same draw."""
        other = Pending()
        other.amount, other.source = self.amount, self.source
        other.guilty, other.final = self.guilty, self.final
        return other

    def clear(self) -> None:
        """The hand is over: nothing left to take (``guilty`` stays: only PENDING reads it)."""
        self.amount = 0
        self.source = None
        self.final = False

    # -- starting ----------------------------------------------------------------------

    def start(self, game: Game, seat: int, c: Card, victim: int, guilty: bool) -> None:
        """``seat`` played the draw card ``c``; ``victim`` decides (its draw adds to any
        draw passed on)."""
        self.amount += DRAW_OF[c]
        self.source = seat
        self.guilty = guilty
        game._to_act = victim
        game._phase = _P_PENDING
        if game._stack_rule is not None:
            game.event(EventKind.STACK, seat, game._draw_topic(c), self.amount, target=victim)

    def start_final(self, game: Game, seat: int, victim: int, total: int) -> None:
        """``seat`` went out with a draw wild: ``victim`` takes ``total`` or challenges,
        in vain (R5)."""
        self.amount, self.source = total, seat
        self.guilty, self.final = False, True
        game._to_act, game._phase = victim, _P_PENDING

    # -- the phase's questions -----------------------------------------------------------

    def legal(self, table: Game, phase: Phase, seat: int, out: list[Action]) -> None:
        """``accept``; ``challenge`` a draw wild; a draw card that stacks (house rule)."""
        game = table
        out.append(ACCEPT)
        top = game._discard[-1]
        if game.challenges and top in DRAW_WILDS:
            out.append(CHALLENGE)
        if game._stack_rule is not None and not self.final:
            for c in dict.fromkeys(game._hands[seat]):
                if self._stacks_on(game, c, top):
                    game._add_plays(seat, c, out)

    def _stacks_on(self, game: Game, c: Card, top: Card) -> bool:
        if game._stack_rule == "same":  # progressive UNO: the same card only
            return c.rank is top.rank
        mine = DRAW_OF.get(c)  # stacking: a draw at least as big
        return mine is not None and mine >= DRAW_OF[top]

    def check(self, table: Game, phase: Phase, seat: int,
              a: Action) -> IllegalActionError | None:
        """A challenge only of a draw wild where the variant allows it (R10, R31); a play
        only under stacking, with a draw card that passes the draw on (R11)."""
        game = table
        kind = a.kind
        if kind is _K_ACCEPT:
            return None
        if kind is _K_CHALLENGE:
            top = game._discard[-1]
            if not game.challenges:
                return UnplayableCardError(
                    f"a {card_name(top)} cannot be challenged in {game.name}", "R31")
            if top not in DRAW_WILDS:
                return UnplayableCardError(
                    f"only a draw wild can be challenged, not a {card_name(top)}", "R10")
            return None
        if kind is _K_PLAY:
            top = game._discard[-1]
            who = game.players[seat]
            if game._stack_rule is None:
                return UnplayableCardError(
                    f"{who} must draw: draw cards cannot be stacked", "R11")
            if self.final:
                return UnplayableCardError("the hand is over: the last draw is only taken",
                                           "R5")
            if a.card is None or not self._stacks_on(game, a.card, top):
                rule = ("only the same draw card passes the draw on (progressive UNO)"
                        if game._stack_rule == "same" else
                        "only a draw card of the same or a bigger draw passes it on")
                return UnplayableCardError(f"{who} must draw: {rule}")
            return game._check_play(seat, a)
        return game.not_now(kind)

    def apply(self, table: Game, phase: Phase, a: Action) -> None:
        """Take the draw, challenge it, or pass it on with a draw card."""
        kind = a.kind
        if kind is _K_ACCEPT:
            self._accept(table)
        elif kind is _K_CHALLENGE:
            self._challenge(table)
        else:
            seat = table._to_act
            assert seat is not None and a.card is not None
            table._play(seat, a.card, a.color, a.target, a.uno)

    def _accept(self, game: Game) -> None:
        seat = game._to_act
        assert seat is not None
        topic = "final" if self.final else game._draw_topic(game._discard[-1])
        game.draw_cards(seat, self.amount, topic)
        if self.final:
            game.end_hand()
            return
        source = self.source
        self.amount, self.source, self.guilty = 0, None, False
        game.event(_V_LOSE_TURN, seat, topic)
        game.give_turn(game.next_seat(seat))
        if game._n == 2 and source == game._to_act:
            game.event(_V_AGAIN, source, "two")

    def _challenge(self, game: Game) -> None:
        seat = game._to_act
        accused = self.source
        assert seat is not None and accused is not None
        top = game._discard[-1]
        topic = "wd2" if top.rank is Rank.WILD_DRAW2 else "wd4"
        total = self.amount
        game.event(EventKind.CHALLENGE, seat, topic, cards=(top,), target=accused)
        self.amount, self.source = 0, None
        final = self.final
        if self.guilty and not final:
            self.guilty = False
            game.event(EventKind.GUILTY, seat, topic, target=accused, note=game.bluff_words)
            game.draw_cards(accused, total, topic, f"their {card_name(top)} was illegal")
            # R4: the challenger takes their turn, with the color the wild's player named.
            game.event(EventKind.TAKES_TURN, seat, "challenge-won",
                       note="a successful challenge does not cost it")
            game.give_turn(seat)
            return
        self.guilty = False
        game.event(EventKind.INNOCENT, seat, "final" if final else topic, target=accused,
                   note="held no card that would have made it illegal")
        game.draw_cards(seat, total + 2, "final" if final else topic, "their challenge failed")
        if final:
            game.end_hand()
            return
        game.event(_V_LOSE_TURN, seat, topic)
        game.give_turn(game.next_seat(seat))
        if game._n == 2:
            game.event(_V_AGAIN, accused, "two")

    def waiting_for(self, table: Game, phase: Phase, who: str) -> str:
        """Taking the draw, challenging it, passing it on."""
        return f"{who} to take the draw" + (
            ", challenge it" if table.challenges and table._discard[-1] in DRAW_WILDS
            else "") + (" or pass it on" if table._stack_rule else "")


#: TURN's object: it holds no state, so every game shares it.
_TURN = Turn()


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


Game._cite = _citations("", CLASSIC_SECTIONS)
Game._play_cite = Game._cite["play"]


#: Turned up first, these go back into the deck (R8, R19, R23; blanks: docs/rulings.md).
RETURNED_FIRST: frozenset[Card] = frozenset(
    card(r) for r in (Rank.WILD_DRAW4, Rank.WILD_DRAW2, Rank.WILD_DIP, Rank.BLANK))
#: Each variant's default options, checked once.
_DEFAULTS: dict[type[Game], TableOptions] = {}
#: Each variant's unshuffled deck, by (variant, wild swap, blanks).
_DECKS: dict[tuple[type[Game], bool, int], list[Card]] = {}
#: The same decks' copies of each card.
_DECK_COUNTS: dict[tuple[type[Game], bool, int], dict[Card, int]] = {}

#: The optional fields of an action, in the order a misplaced one is reported.
_FIELDS = ("card", "color", "target", "seat", "lever")
#: The fields each kind of action may carry; the others must be None.
_FIELDS_OF: dict[ActionKind, frozenset[str]] = {
    ActionKind.PLAY: frozenset({"card", "color", "target"}),
    ActionKind.DRAW: frozenset(),
    ActionKind.PASS: frozenset(),
    ActionKind.ACCEPT: frozenset(),
    ActionKind.CHALLENGE: frozenset(),
    ActionKind.DONE: frozenset(),
    ActionKind.UNO: frozenset({"seat"}),
    ActionKind.CATCH: frozenset({"target", "seat"}),
    ActionKind.COLOR: frozenset({"color", "target"}),
    ActionKind.GIVE: frozenset({"card"}),
    ActionKind.DISCARD: frozenset({"card"}),
    ActionKind.LAY: frozenset({"card"}),
    ActionKind.LEVER: frozenset({"lever"}),
    ActionKind.CHOOSE: frozenset({"target"}),
    ActionKind.JUMP: frozenset({"card", "color", "target", "seat"}),
}
#: (players, seat) -> "uno seat" and every "catch other seat".
_CALLS: dict[tuple[int, int], tuple[Action, ...]] = {}
#: Plays naming a seat (swaps, 7-0) and jump-ins, by (kind, card, seat, players, actor).
_PLAYS_WITH_SEATS: dict[tuple[ActionKind, Card, int, int, int | None], tuple[Action, ...]] = {}

# Enum members are read through a Python-level descriptor on Python 3.11 (about a
# quarter of a microsecond a read): the hot path reads these module-level names instead.
# Measured (issue 28, bench/engine.py, classic 4p): 21% more hands/s interpreted; Final
# lets the compiled build read them as constants (without it they cost it 4%).
_P_TURN: Final = Phase.TURN
_P_DRAWN: Final = Phase.DRAWN
_P_PENDING: Final = Phase.PENDING
_P_OVER: Final = Phase.OVER
_K_PLAY: Final = ActionKind.PLAY
_K_DRAW: Final = ActionKind.DRAW
_K_PASS: Final = ActionKind.PASS
_K_ACCEPT: Final = ActionKind.ACCEPT
_K_CHALLENGE: Final = ActionKind.CHALLENGE
_K_UNO: Final = ActionKind.UNO
_K_CATCH: Final = ActionKind.CATCH
_K_JUMP: Final = ActionKind.JUMP
_E_NUMBER: Final = Effect.NUMBER
_E_DRAW: Final = Effect.DRAW
_E_SKIP: Final = Effect.SKIP
_E_REVERSE: Final = Effect.REVERSE
_E_WILD: Final = Effect.WILD
_E_SEVEN: Final = Effect.SEVEN
_E_ZERO: Final = Effect.ZERO
_E_SWAP: Final = Effect.SWAP
_V_PLAY: Final = EventKind.PLAY
_V_DRAW: Final = EventKind.DRAW
_V_KEEP: Final = EventKind.KEEP
_V_LOSE_TURN: Final = EventKind.LOSE_TURN
_V_AGAIN: Final = EventKind.AGAIN
_V_REVERSE: Final = EventKind.REVERSE
_V_UNO: Final = EventKind.UNO
_V_SHORT: Final = EventKind.SHORT
_V_RESHUFFLE: Final = EventKind.RESHUFFLE
_V_START: Final = EventKind.START
#: Makes an Event without the NamedTuple's Python-level __new__ (see Game._ev).
_make_event: Any = tuple.__new__


def _cards(cards: Sequence[Card | str] | str) -> list[Card]:
    if isinstance(cards, str):
        return parse_cards(cards)
    return [Card.parse(c) if isinstance(c, str) else c for c in cards]


def _copy_json(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _copy_json(v) for k, v in data.items()}
    if isinstance(data, list):
        # No call per plain value: the generator's state alone is 625 numbers.
        return [_copy_json(v) if isinstance(v, (dict, list)) else v for v in data]
    return data


def _action(action: Action | str) -> Action:
    return Action.parse(action) if isinstance(action, str) else action
