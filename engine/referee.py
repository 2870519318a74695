"""The referee: settles a table's disputes from what the table knows.

At a real table everyone sees the top card, the color in play, the seats and the
direction, and at most one hand is shown. The referee takes that partial
knowledge (unknown hands as card counts, an unknown draw pile), fills in the
rest with cards the deck still holds, sets the position up with
:meth:`Game.from_position` (or deals it with :meth:`Game.new`) and lets the
engine play it. It never decides a rule itself: it turns the engine's events
into a :class:`Verdict`, and where the answer hangs on something nobody knows it
plays every case that matters and says so.

>>> v = challenge("classic", ["Ann", "Bea", "Cy", "Dan"], "Bea", "red-3 blue-7", "red")
>>> v.outcome
"Bea's Wild Draw 4 was illegal: Bea draws 4, then Cy plays"
>>> v.guilty, v.draws, v.next_player
(True, {'Bea': 4}, 'Cy')
>>> v.citations[:2]
('R10', 'classic sheet, Wild Draw 4 Card')

Without the hand, the referee says what the answer hangs on:

>>> v = challenge("classic", ["Ann", "Bea", "Cy"], "Bea", 3, "red")
>>> v.depends_on
'whether Bea holds a red card'
>>> [(case.when, case.verdict.guilty) for case in v.cases]
[('Bea holds a red card', True), ('Bea holds none of these', False)]

Impossible situations are refused with a :class:`RefereeError`:

>>> can_play("pizza-pizza", "red-5", None, "red-0")
Traceback (most recent call last):
...
engine.referee.UnknownCardError: red 0 is not in the pizza-pizza deck
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cached_property, lru_cache
from typing import Any
from urllib.parse import quote, unquote

from . import (
    COLORS,
    Action,
    ActionKind,
    Card,
    CardError,
    Color,
    Event,
    EventKind,
    Game,
    IllegalActionError,
    LeverOutcome,
    Phase,
    ScoringError,
    ScoringMode,
    SetupError,
    TableOptions,
    card_name,
    find_variant,
    new_standings,
    score_hand,
)

__all__ = [
    "BadCountError",
    "Case",
    "Choice",
    "IllegalMoveError",
    "ImpossibleSituationError",
    "NoSuchSeatError",
    "Position",
    "RefereeError",
    "Replay",
    "Step",
    "TooManyCopiesError",
    "UnknownCardError",
    "UnknownVariantError",
    "Verdict",
    "build_droid",
    "can_play",
    "challenge",
    "end_of_hand",
    "first_card",
    "jump_in",
    "seven_zero",
    "swap_hands",
    "uno_catch",
    "whos_next",
    "wild_dip",
]

#: A variant: its name (or an alias) or its class.
VariantLike = str | type[Game]
#: A seat: its name at this table, or its number (0 is the first seat, clockwise, R1).
SeatRef = str | int
#: Cards as :func:`engine.parse_cards` reads them: "red-7 blue-2", or a list.
Cards = str | Sequence[Card | str]
#: A hand: its cards, or only how many cards it holds (an unknown hand).
HandLike = str | Sequence[Card | str] | int


# -- errors ---------------------------------------------------------------------------------


class RefereeError(ValueError):
    """The referee cannot judge this: the situation cannot happen as described."""


class UnknownVariantError(RefereeError):
    """No variant has this name."""


class UnknownCardError(RefereeError):
    """Text that is not a card, or a card the variant's deck does not hold."""


class TooManyCopiesError(RefereeError):
    """More copies of a card are named (counting every card named) than the deck holds."""


class NoSuchSeatError(RefereeError):
    """A seat that is not at this table."""


class BadCountError(RefereeError):
    """A hand count below zero, or more cards than the deck holds."""


class ImpossibleSituationError(RefereeError):
    """Anything else the engine refuses to set up: a player count, a card that could
    not have been played there, a color missing after a wild..."""


class IllegalMoveError(RefereeError):
    """An action the rules do not allow at that moment (``rule`` names the ruling)."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule


# -- verdicts -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One way an unknown can turn out, and the verdict if it does."""

    when: str
    verdict: Verdict

    def to_dict(self) -> dict[str, Any]:
        """Plain values, for JSON."""
        return {"when": self.when, "verdict": self.verdict.to_dict()}


@dataclass(frozen=True)
class Verdict:
    """The referee's answer: one sentence, the engine's events, and the facts behind them.

    Seats are named as the table names them. Fields a check does not answer stay
    ``None`` (or empty). When the answer hangs on something unknown, ``depends_on``
    says what, and ``cases`` holds the verdict for each way it can turn out (empty
    when the unknown is only a number of cards to count, as in :func:`end_of_hand`).
    """

    #: One line a child can read, with the seats' names.
    outcome: str
    #: The engine's events, in the order they happened.
    steps: tuple[Event, ...] = ()
    #: Ruling codes and sheet sections the steps follow, each once ("R10", "classic sheet, ...").
    citations: tuple[str, ...] = ()
    #: Who plays next (when that is settled).
    next_player: str | None = None
    #: Cards each seat draws.
    draws: Mapping[str, int] = field(default_factory=dict)
    #: Seats that lose their turn.
    skipped: tuple[str, ...] = ()
    #: For a challenged draw wild: True if its player was guilty (it was a bluff).
    guilty: bool | None = None
    #: :func:`can_play`, :func:`jump_in`: whether the card may be played.
    playable: bool | None = None
    #: :func:`uno_catch`: whether the player can be caught.
    catchable: bool | None = None
    #: The color in play afterwards.
    color: Color | None = None
    #: The direction of play afterwards: "clockwise" or "counter-clockwise".
    direction: str | None = None
    #: :func:`first_card`: who names the color.
    color_chooser: str | None = None
    #: :func:`first_card`: cards that went back into the deck.
    returned: tuple[Card, ...] = ()
    #: :func:`uno_catch`: who may catch; until whose turn begins; the cards drawn if caught.
    catchers: tuple[str, ...] = ()
    until: str | None = None
    penalty: int | None = None
    #: :func:`end_of_hand`: the points each other seat holds (None in a variant without
    #: points), the cards whose points are not known yet, and the hand's score.
    points: Mapping[str, int] | None = None
    uncounted: Mapping[str, int] = field(default_factory=dict)
    scores: Mapping[str, int] | None = None
    #: Cards each seat holds afterwards (swaps, 7-0, Wild Dip).
    hand_sizes: Mapping[str, int] = field(default_factory=dict)
    #: Let's Build a Droid: the cards laid, in order, and the color of the last one.
    laid: tuple[tuple[str, Card], ...] = ()
    last_color: Color | None = None
    #: What the answer hangs on, and the verdict for each case.
    depends_on: str | None = None
    cases: tuple[Case, ...] = ()

    @property
    def settled(self) -> bool:
        """True when the answer does not hang on anything unknown."""
        return self.depends_on is None

    def to_dict(self) -> dict[str, Any]:
        """Plain values, for a JSON API: cards and colors as text, events as sentences.

        >>> v = whos_next("classic", ["Ann", "Bea", "Cy"], "Ann", "red-skip")
        >>> d = v.to_dict()
        >>> d["outcome"], d["next_player"], d["skipped"]
        ('Bea misses a turn, then Cy plays', 'Cy', ['Bea'])
        >>> d["steps"][1]["text"]
        'Bea loses their turn (classic sheet, Skip Card)'
        """
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "steps":
                value = [_event_dict(e) for e in value]
            elif f.name == "cases":
                value = [c.to_dict() for c in value]
            elif f.name == "returned":
                value = [c.text for c in value]
            elif f.name == "laid":
                value = [[who, c.text] for who, c in value]
            elif isinstance(value, Color):
                value = value.value
            elif isinstance(value, Mapping):
                value = dict(value)
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out


def _event_dict(e: Event) -> dict[str, Any]:
    return {
        "kind": e.kind.value,
        "text": e.text,
        "rule": e.rule,
        "source": e.source,
        "seat": e.names[e.seat] if e.seat is not None else None,
        "target": e.names[e.target] if e.target is not None else None,
        "amount": e.amount,
        "cards": [c.text for c in e.cards],
        "color": e.color.value if e.color is not None else None,
    }


# -- the table: names, cards and seats as the table gives them ------------------------------

_DIRECTIONS = {"clockwise": 1, "cw": 1, "left": 1, "counter-clockwise": -1,
               "counterclockwise": -1, "anticlockwise": -1, "ccw": -1, "right": -1}
_DIRECTION_WORDS = {1: "clockwise", -1: "counter-clockwise"}


@dataclass(frozen=True)
class _Table:
    variant: type[Game]
    names: tuple[str, ...]
    options: TableOptions
    deck: tuple[tuple[Card, int], ...]

    @property
    def n(self) -> int:
        return len(self.names)

    @cached_property
    def holds(self) -> dict[Card, int]:
        """Copies of each card in this table's deck."""
        return dict(self.deck)

    def counts(self) -> Counter[Card]:
        return Counter(self.holds)

    def seat(self, ref: object, what: str = "seat") -> int:
        if isinstance(ref, int) and not isinstance(ref, bool):
            if 0 <= ref < self.n:
                return ref
            raise NoSuchSeatError(f"{what}: seat {ref} is not at this table of {self.n} "
                                  f"(seats 0-{self.n - 1})")
        if isinstance(ref, str):
            key = ref.strip()
            for i, name in enumerate(self.names):
                if name == key:
                    return i
            for i, name in enumerate(self.names):
                if name.casefold() == key.casefold():
                    return i
        raise NoSuchSeatError(f"{what}: {ref!r} is not at this table "
                              f"({', '.join(self.names)})")

    def card(self, text: object, what: str) -> Card:
        if isinstance(text, Card):
            c = text
        else:
            try:
                c = Card.parse(text)
            except CardError as exc:
                raise UnknownCardError(f"{what}: {exc}") from None
        if self.holds.get(c, 0) == 0:
            raise UnknownCardError(f"{card_name(c)} is not in the {self.variant.name} deck")
        return c

    def cards(self, value: object, what: str) -> list[Card]:
        if isinstance(value, str):
            parts: list[object] = list(value.replace(",", " ").split())
        elif isinstance(value, Sequence):
            parts = list(value)
        else:
            raise UnknownCardError(f"{what}: give cards as text or a list, not {value!r}")
        return [self.card(p, what) for p in parts]

    def name(self, seat: int) -> str:
        return self.names[seat]


def _table(variant: VariantLike, seats: Sequence[str] | int,
           options: TableOptions | None) -> _Table:
    if isinstance(variant, type) and issubclass(variant, Game) and variant.name:
        cls = variant
    else:
        try:
            cls = find_variant(variant)
        except ValueError as exc:
            raise UnknownVariantError(str(exc)) from None
    if isinstance(seats, int) and not isinstance(seats, bool):
        names = tuple(f"Player {i + 1}" for i in range(seats))
    elif isinstance(seats, Sequence) and not isinstance(seats, str):
        names = tuple(str(s).strip() for s in seats)
    else:
        raise NoSuchSeatError(f"give the players' names in seat order, not {seats!r}")
    if any(not s for s in names) or len({s.casefold() for s in names}) != len(names):
        raise ImpossibleSituationError("every player needs a name of their own")
    if not cls.min_players <= len(names) <= cls.max_players:
        raise ImpossibleSituationError(
            f"{cls.name} is for {cls.min_players}-{cls.max_players} players, not {len(names)}")
    opts = options if options is not None else cls.default_options()
    try:
        cls.check_options(opts)
    except ValueError as exc:
        raise ImpossibleSituationError(str(exc)) from None
    deck = tuple(cls.deck_counts(opts).items())
    return _Table(cls, names, opts, deck)


def _direction(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value in (1, -1):
        return value
    if isinstance(value, str) and value.strip().lower() in _DIRECTIONS:
        return _DIRECTIONS[value.strip().lower()]
    raise ImpossibleSituationError(
        f"direction is 1 or 'clockwise', -1 or 'counter-clockwise', not {value!r}")


def _color(value: object, what: str) -> Color:
    if isinstance(value, Color):
        return value
    if isinstance(value, str):
        try:
            return Color(value.strip().lower())
        except ValueError:
            pass
    raise ImpossibleSituationError(f"{what}: {value!r} is not a color (red, yellow, green, blue)")


def _check_copies(t: _Table, named: Iterable[tuple[str, Card]]) -> None:
    """Refuse more copies of a card than the deck holds, counting every card named."""
    where: dict[Card, list[str]] = {}
    for place, c in named:
        where.setdefault(c, []).append(place)
    deck = t.holds
    for c, places in where.items():
        if len(places) > deck.get(c, 0):
            spots = ", ".join(dict.fromkeys(places))
            raise TooManyCopiesError(
                f"{card_name(c)} is named {len(places)} times ({spots}), but the "
                f"{t.variant.name} deck has {deck.get(c, 0)}")


# -- scenes: a position built from what is known, filled with cards the deck still holds ----


@dataclass(frozen=True)
class _Hand:
    known: tuple[Card, ...]
    size: int
    #: Strict limits on the unknown cards: only these, never these.
    only: frozenset[Card] | None = None
    deny: frozenset[Card] = frozenset()

    @property
    def unknown(self) -> int:
        return self.size - len(self.known)


@lru_cache(maxsize=256)
def _neutral_order(t: _Table, avoid: frozenset[Card]) -> dict[Card, tuple[int, int]]:
    # Filler cards that cannot change a verdict come first: plain numbers (a 7 or a 0
    # only acts when played under 7-0), then colored symbols, then wilds.
    order: dict[Card, tuple[int, int]] = {}
    for i, (c, _) in enumerate(t.deck):
        if c.is_number:
            klass = 1 if c.rank.number in (0, 7) else 0
        else:
            klass = 2 if c.color is not None else 3
        order[c] = (klass + (10 if c in avoid else 0), i)
    return order


#: Filler cards left on the draw pile: more than any one dispute draws, few enough that
#: setting a position up stays cheap (the rest of the deck is deeper in the discard pile).
_DRAW_PILE = 40


@dataclass(frozen=True)
class _Scene:
    """A position (hands known or counted, the discard pile, the known top of the draw
    pile) and the actions applied to it; :meth:`run` builds and plays it."""

    table: _Table
    hands: tuple[_Hand, ...]
    discard: tuple[Card, ...]
    color: Color | None
    direction: int = 1
    to_act: int = 0
    draw_top: tuple[Card, ...] = ()
    prelude: tuple[Action, ...] = ()
    #: Cards filler should avoid where it can (a copy of the card just played...).
    avoid: frozenset[Card] = frozenset()
    #: Whether the table gave the card under the play and the color in play, or the
    #: referee chose them (a draw wild's challenge may hang on them).
    under_given: bool = True
    color_given: bool = True

    def then(self, *actions: Action) -> _Scene:
        return replace(self, prelude=self.prelude + actions)

    def with_hand(self, seat: int, extra: Sequence[Card] = (), *, size: int | None = None,
                  only: frozenset[Card] | None = None,
                  deny: frozenset[Card] | None = None) -> _Scene:
        h = self.hands[seat]
        new = _Hand(h.known + tuple(extra), h.size if size is None else size,
                    h.only if only is None else only, h.deny if deny is None else deny)
        if new.unknown < 0:
            raise BadCountError(f"{self.table.name(seat)} cannot hold that many cards")
        return replace(self, hands=self.hands[:seat] + (new,) + self.hands[seat + 1:])

    def remaining(self) -> Counter[Card]:
        """Cards of the deck nobody has named (the pool the filler comes from)."""
        left = self.table.counts()
        left.subtract(self.discard)
        left.subtract(self.draw_top)
        for h in self.hands:
            left.subtract(h.known)
        if any(k < 0 for k in left.values()):
            raise TooManyCopiesError("more copies of a card are named than the deck holds")
        return +left

    def build(self) -> Game:
        t = self.table
        order = _neutral_order(t, self.avoid)
        pool = sorted(self.remaining().elements(), key=order.__getitem__)
        hands: list[list[Card]] = [list(h.known) for h in self.hands]
        # Hands with strict limits are filled first, so they find the cards they need.
        for seat in sorted(range(t.n), key=lambda s: self.hands[s].only is None):
            h = self.hands[seat]
            if h.unknown < 0:
                raise BadCountError(f"{t.name(seat)} holds more cards than counted")
            taken: list[int] = []
            for i, c in enumerate(pool):
                if len(taken) == h.unknown:
                    break
                if (h.only is None or c in h.only) and c not in h.deny:
                    taken.append(i)
            if len(taken) < h.unknown:
                raise BadCountError(
                    f"the {t.variant.name} deck has too few cards left for "
                    f"{t.name(seat)}'s {h.size} cards")
            for i in reversed(taken):
                hands[seat].append(pool.pop(i))
        try:
            return t.variant.from_position(
                hands, list(self.discard), [*self.draw_top, *pool[:_DRAW_PILE]],
                players=t.names,
                current_color=self.color, direction=self.direction, to_act=self.to_act,
                options=t.options, seed=0)
        except SetupError as exc:
            raise ImpossibleSituationError(str(exc)) from None

    def run(self) -> tuple[Game, list[Event]]:
        game = self.build()
        events: list[Event] = []
        for a in self.prelude:
            try:
                events.extend(game.apply(a))
            except IllegalActionError as exc:
                raise IllegalMoveError(str(exc), exc.rule) from None
        return game, events


# -- telling what happened --------------------------------------------------------------------


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _article(phrase: str) -> str:
    return f"an {phrase}" if phrase[:1].lower() in "aeiou8" else f"a {phrase}"


def _bare(c: Card) -> str:
    """A card's name without its color ("7", "Skip")."""
    name = card_name(c)
    return name.split(" ", 1)[1] if c.color is not None else name


def _or(parts: Sequence[str], word: str = "or") -> str:
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} {word} {parts[-1]}"


def _and(parts: Sequence[str]) -> str:
    return _or(parts, "and")


def _describe(chosen: Iterable[Card], universe: Iterable[Card]) -> str:
    """Some cards, in as few words as the universe allows: "a red card, a 7 or a wild card"."""
    picked = set(chosen)
    everything = list(dict.fromkeys(universe))
    parts: list[str] = []
    covered: set[Card] = set()
    for color in COLORS:
        group = [c for c in everything if c.color is color]
        if len(group) > 1 and all(c in picked for c in group):
            parts.append(f"a {color.value} card")
            covered.update(group)
    for c in everything:
        if c not in picked or c in covered or c.color is None:
            continue
        group = [x for x in everything if x.rank is c.rank and x.color is not None]
        if len(group) > 1 and all(x in picked for x in group):
            parts.append(_article(_bare(c)))
            covered.update(group)
    wilds = [c for c in everything if c.color is None]
    if len(wilds) > 1 and all(c in picked for c in wilds):
        parts.append("a wild card")
        covered.update(wilds)
    parts.extend(_article(card_name(c)) for c in everything if c in picked and c not in covered)
    return _or(parts)


def _cite(events: Iterable[Event], extra: Iterable[str] = ()) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for e in events:
        if e.rule.startswith("R"):
            seen.setdefault(e.rule)
        if e.source:
            seen.setdefault(e.source)
    for x in extra:
        if x:
            seen.setdefault(x)
    return tuple(seen)


def _clauses(t: _Table, events: Sequence[Event]) -> list[str]:
    """What the events did, in short clauses ("Bea draws 2 and misses a turn")."""
    out: list[str] = []
    last_draw: str | None = None
    for e in events:
        who = t.name(e.seat) if e.seat is not None else ""
        whom = t.name(e.target) if e.target is not None else ""
        k = e.kind
        said = ""
        if k is EventKind.DRAW:
            said = f"{who} draws {e.amount}"
        elif k is EventKind.LOSE_TURN:
            if last_draw == who and out:
                out[-1] += " and misses a turn"
            else:
                said = f"{who} misses a turn"
        elif k is EventKind.SHORT:
            said = f"the piles are empty, so {who} gets only {e.amount}"
        elif k is EventKind.REVERSE:
            said = f"play now goes {e.note}"
        elif k is EventKind.START:
            said = f"{who} plays first, going {e.note}"
        elif k is EventKind.RETURNED:
            said = f"{card_name(e.cards[0])} goes back into the deck"
        elif k is EventKind.SWAP:
            said = f"{who} swaps hands with {whom}"
        elif k is EventKind.ROTATE:
            said = f"every hand moves one seat {e.note}"
        elif k is EventKind.GIVE:
            said = f"{who} gives {card_name(e.cards[0])} to {whom}"
        elif k is EventKind.OUT:
            said = f"{who} goes out"
        elif k is EventKind.UNO:
            said = f"{who} calls UNO"
        elif k is EventKind.CATCH:
            said = f"{who} catches {whom}"
        elif k is EventKind.JUMP:
            said = f"{who} jumps in with {card_name(e.cards[0])}"
        elif k is EventKind.LEVER:
            said = f"the lever says: {e.note}"
        elif k is EventKind.RULE_CARD:
            said = f"{who} performs a rule card"
        elif k is EventKind.DISCARD:
            said = f"{who} discards {card_name(e.cards[0])}"
        elif k is EventKind.DROID_FAIL:
            said = f"{who} cannot lay a card of a different color"
        elif k is EventKind.DROID_RETURN:
            said = "every card laid goes back to its owner"
        elif k is EventKind.COLOR:
            said = f"{who} names {e.color.value if e.color else 'a color'}"
        if said:
            out.append(said)
        last_draw = who if k is EventKind.DRAW else None
    return out


def _end_clause(t: _Table, game: Game, events: Sequence[Event]) -> str:
    """Where the game stands after the events: who plays next, or that the hand is over."""
    seat = game.to_act
    if game.is_over or seat is None:
        return "the hand is over"
    who = t.name(seat)
    if game.phase is Phase.NAME_COLOR:
        swaps = any(a.kind is ActionKind.COLOR and a.target is not None
                    for a in game.legal_actions())
        return (f"{who} names the color, may swap hands with another player, and plays first"
                if swaps else f"{who} names the color and plays first")
    if any(e.kind is EventKind.START and e.seat == seat for e in events):
        return ""
    if events and events[-1].kind is EventKind.AGAIN and events[-1].seat == seat:
        return f"then {who} plays again"
    return f"then {who} plays"


def _sentence(lead: str, clauses: Sequence[str]) -> str:
    said = [c for c in clauses if c]
    if said and not lead and said[0].startswith("then "):
        first = said[0][len("then "):]
        said[0] = f"{first} next" if first.endswith(" plays") else first
    body = ", ".join(said)
    if lead and body:
        return _cap(f"{lead}: {body}")
    return _cap(lead or body)


def _guilt(events: Sequence[Event]) -> bool | None:
    for e in events:
        if e.kind is EventKind.GUILTY:
            return True
        if e.kind is EventKind.INNOCENT:
            return False
    return None


def _leaf(t: _Table, game: Game, events: Sequence[Event], lead: str = "", *,
          clauses: Sequence[str] | None = None, end: str | None = None,
          extra_cites: Iterable[str] = (), sizes: bool = False, **facts: Any) -> Verdict:
    """A verdict for a game that has reached a settled point."""
    draws: dict[str, int] = {}
    skipped: list[str] = []
    laid: list[tuple[str, Card]] = []
    for e in events:
        if e.kind is EventKind.DRAW and e.seat is not None and e.amount:
            draws[t.name(e.seat)] = draws.get(t.name(e.seat), 0) + e.amount
        elif e.kind is EventKind.LOSE_TURN and e.seat is not None:
            skipped.append(t.name(e.seat))
        elif e.kind is EventKind.LAY and e.seat is not None:
            laid.append((t.name(e.seat), e.cards[0]))
    said = list(_clauses(t, events) if clauses is None else clauses)
    said.append(_end_clause(t, game, events) if end is None else end)
    seat = game.to_act
    playing = seat is not None and game.phase in (Phase.TURN, Phase.DRAWN, Phase.NAME_COLOR)
    facts.setdefault("next_player", t.name(seat) if playing and seat is not None else None)
    facts.setdefault("color", game.current_color)
    facts.setdefault("direction", _DIRECTION_WORDS[game.direction])
    if laid:
        facts.setdefault("laid", tuple(laid))
        facts.setdefault("last_color", laid[-1][1].color)
    if sizes:
        facts.setdefault("hand_sizes", {t.name(s): len(h) for s, h in enumerate(game.hands)})
    return Verdict(_sentence(lead, said), tuple(events), _cite(events, extra_cites),
                   draws=draws, skipped=tuple(skipped), **facts)


def _key(v: Verdict) -> tuple[Any, ...]:
    return (v.outcome, v.depends_on, tuple((c.when, _key(c.verdict)) for c in v.cases))


def _depends(t: _Table, events: Sequence[Event], depends_on: str, cases: Sequence[Case], *,
             partial: bool = False, **facts: Any) -> Verdict:
    """A verdict that hangs on ``depends_on``. Unless the cases are only some of the
    possibilities (``partial``), it collapses when every case ends the same way."""
    cases = list(cases)
    if not partial and cases and len({_key(c.verdict) for c in cases}) == 1:
        v = cases[0].verdict
        return replace(v, steps=tuple(events)) if len(cases) > 1 else v
    simple = len(cases) <= 3 and all(c.verdict.settled for c in cases)
    outcome = f"It depends on {depends_on}"
    if simple:
        outcome += "".join(f". If {c.when}: {c.verdict.outcome}" for c in cases)
    nexts = {c.verdict.next_player for c in cases}
    if len(nexts) == 1:
        facts.setdefault("next_player", nexts.pop())
    cites = _cite(events, [x for c in cases for x in c.verdict.citations])
    return Verdict(outcome, tuple(events), cites, depends_on=depends_on, cases=tuple(cases),
                   **facts)


# -- resolving the decisions that follow a play ---------------------------------------------

_ACCEPT = Action(ActionKind.ACCEPT)
_CHALLENGE = Action(ActionKind.CHALLENGE)
_DONE = Action(ActionKind.DONE)


@dataclass
class _Budget:
    """How many more positions an exploration may build (Let's Build a Droid can branch
    a lot); past it, the verdict asks the table for the cards laid."""

    left: int = 400

    def spend(self) -> bool:
        self.left -= 1
        return self.left >= 0


def _resolve(scene: _Scene, *, lead: str = "", since: int = 0, budget: _Budget | None = None,
             sizes: bool = False) -> Verdict:
    """Play ``scene`` and settle what follows: a pending draw, the lever, a droid..."""
    t = scene.table
    budget = budget or _Budget()
    game, events = scene.run()
    shown = events[since:]
    phase = game.phase
    seat = game.to_act
    if phase is Phase.PENDING and seat is not None:
        return _pending(scene, game, events, since=since, lead=lead, sizes=sizes)
    if phase is Phase.LEVER and seat is not None:
        cases = [Case(f"the lever shows: {o.words}",
                      _resolve(scene.then(Action(ActionKind.LEVER, lever=o)), since=since,
                               budget=budget, sizes=sizes))
                 for o in LeverOutcome]
        return _depends(t, shown, "what the lever shows", cases)
    if phase is Phase.DISCARD and seat is not None:
        who = t.name(seat)
        case = Case(f"{who} discards nothing more",
                    _resolve(scene.then(_DONE), since=since, budget=budget, sizes=sizes))
        return _depends(t, shown, f"what {who} discards (up to one card of each color)", [case],
                        partial=True)
    if phase is Phase.CHOOSE and seat is not None:
        # Whoever is chosen, the rule card changes no cards: play goes on the same way.
        after, later = scene.then(Action(ActionKind.CHOOSE, target=seat)).run()
        said = _clauses(t, shown) + [f"{t.name(seat)} chooses a player to perform a rule card"]
        return _leaf(t, after, shown, lead, clauses=said, end=_end_clause(t, after, later),
                     next_player=_playing(t, after), sizes=sizes)
    if phase is Phase.GIVE and seat is not None:
        given = game.hands[seat][0]
        after, later = scene.then(Action(ActionKind.GIVE, given)).run()
        gift = next(e for e in later[len(events):] if e.kind is EventKind.GIVE)
        receiver = t.name(gift.target) if gift.target is not None else ""
        said = _clauses(t, shown) + [f"{t.name(seat)} gives a card of their choice to {receiver}"]
        return _leaf(t, after, shown, lead, clauses=said, end=_end_clause(t, after, later),
                     next_player=_playing(t, after), sizes=sizes)
    if phase is Phase.DROID:
        return _droid(scene, since=since, budget=budget)
    return _leaf(t, game, shown, lead, sizes=sizes)


def _playing(t: _Table, game: Game) -> str | None:
    seat = game.to_act
    if seat is None or game.phase not in (Phase.TURN, Phase.DRAWN, Phase.NAME_COLOR):
        return None
    return t.name(seat)


def _last_player(events: Sequence[Event]) -> int | None:
    for e in reversed(events):
        if e.kind is EventKind.PLAY:
            return e.seat
    return None


def _pending(scene: _Scene, game: Game, events: Sequence[Event], *, since: int, lead: str,
             sizes: bool) -> Verdict:
    """A draw waits for its victim: take it, challenge a draw wild, or pass it on."""
    t = scene.table
    seat = game.to_act
    assert seat is not None
    victim = t.name(seat)
    n = game.pending_draw
    cases = [Case(f"{victim} takes the {n} cards",
                  _resolve(scene.then(_ACCEPT), since=since, lead=lead, sizes=sizes))]
    choices = ["take the cards"]
    if game.is_legal(_CHALLENGE):
        accused = _last_player(events)
        assert accused is not None
        cases.append(Case(f"{victim} challenges",
                          _challenge_case(scene, game, accused, since=since, sizes=sizes)))
        choices.append("challenge")
    stacks = _stack_cases(scene, game, seat, since=since, sizes=sizes)
    if stacks:
        cases.extend(stacks)
        choices.append("pass the draw on")
    return _depends(t, events[since:], f"what {victim} does: {_or(choices)}", cases)


def _stack_cases(scene: _Scene, game: Game, seat: int, *, since: int,
                 sizes: bool) -> list[Case]:
    # House rules (stacking, progressive UNO): try each draw card the deck still holds in
    # the victim's hand; the engine says which may pass the draw on.
    t = scene.table
    if t.options.stack_rule is None:
        return []
    seen: set[object] = set()
    cases: list[Case] = []
    for c in sorted(scene.remaining(), key=_neutral_order(t, frozenset()).__getitem__):
        if c.is_number or c.rank in seen:
            continue
        try:  # in place of one of the victim's unknown cards (none: they cannot hold it)
            tried = scene.with_hand(seat, [c])
            g, _ = tried.run()
        except RefereeError:
            continue
        plays = [a for a in g.legal_actions()
                 if a.kind is ActionKind.PLAY and a.card is c and not a.uno]
        if not plays:
            continue
        seen.add(c.rank)
        v = _resolve_stack(tried.then(plays[0]), since=since, sizes=sizes)
        cases.append(Case(f"{t.name(seat)} passes it on with {_article(_bare(c))}", v))
    return cases


def _resolve_stack(scene: _Scene, *, since: int, sizes: bool) -> Verdict:
    # After a stacked draw card the next victim decides again: said, not explored further.
    t = scene.table
    game, events = scene.run()
    shown = events[since:]
    seat = game.to_act
    if game.phase is Phase.PENDING and seat is not None:
        end = (f"{t.name(seat)} must take {game.pending_draw} cards, challenge or pass them on"
               if game.is_legal(_CHALLENGE) else
               f"{t.name(seat)} must take {game.pending_draw} cards or pass them on")
        return _leaf(t, game, shown, end=end, sizes=sizes)
    return _leaf(t, game, shown, sizes=sizes)


def _challenge_leaf(t: _Table, game: Game, events: Sequence[Event], *, sizes: bool) -> Verdict:
    guilty = _guilt(events)
    lead = ""
    for e in events:
        if e.kind is EventKind.CHALLENGE and e.target is not None:
            lead = (f"{t.name(e.target)}'s {card_name(e.cards[0])} was "
                    f"{'illegal' if guilty else 'legal'}")
            break
    said = [c for c in _clauses(t, events) if c]
    return _leaf(t, game, events, lead, clauses=said, guilty=guilty, sizes=sizes)


def _challenged(scene: _Scene, accused: int, *, since: int, sizes: bool = False) -> Verdict:
    """The challenge, played out for every kind of hand the accused may hold."""
    t = scene.table
    hand = scene.hands[accused]
    game, events = scene.run()
    if hand.unknown <= 0:
        return _challenge_leaf(t, game, events[since:], sizes=sizes)
    # Which single card, held beside the known ones, makes the draw wild illegal?
    universe = sorted(scene.remaining(), key=_neutral_order(t, frozenset()).__getitem__)
    bluffs: list[Card] = []
    for c in universe:
        g, ev = scene.with_hand(accused, [c], size=len(hand.known) + 1).run()
        if _guilt(ev):
            bluffs.append(c)
    if not bluffs or len(bluffs) == len(universe):
        return _challenge_leaf(t, game, events[since:], sizes=sizes)
    guilty_scene = scene.with_hand(accused, [bluffs[0]])
    g, ev = guilty_scene.run()
    guilty = _challenge_leaf(t, g, ev[since:], sizes=sizes)
    try:
        g, ev = scene.with_hand(accused, deny=frozenset(bluffs)).run()
    except BadCountError:  # every card left would make it a bluff
        return guilty
    innocent = _challenge_leaf(t, g, ev[since:], sizes=sizes)
    who = t.name(accused)
    held = _describe(bluffs, universe)
    return _depends(t, events[since:_first(events, EventKind.CHALLENGE, since)],
                    f"whether {who} holds {held}",
                    [Case(f"{who} holds {held}", guilty),
                     Case(f"{who} holds none of these", innocent)])


def _challenge_case(scene: _Scene, game: Game, accused: int, *, since: int,
                    sizes: bool) -> Verdict:
    # A challenge is judged on the color in play and the card under the draw wild: where
    # the table did not give them, the referee does not pick them.
    t = scene.table
    wild = game.top_card
    if scene.under_given:
        return _challenged(scene.then(_CHALLENGE), accused, since=since, sizes=sizes)
    if not scene.color_given:
        what = (f"the color in play before the {card_name(wild)} and "
                f"{t.name(accused)}'s other cards")
        return Verdict(f"It depends on {what}: give them to the challenge check",
                       depends_on=what)
    return _challenge_tops(scene, accused, _tops(scene, wild), wild, since=since, sizes=sizes)


def _tops(scene: _Scene, wild: Card) -> list[Card]:
    """Every card that could have been under the play, with the scene's color in play."""
    free = replace(scene, discard=()).remaining()
    order = _neutral_order(scene.table, frozenset([wild]))
    return sorted((c for c in free if c.color is scene.color or c.color is None),
                  key=order.__getitem__)


def _challenge_tops(scene: _Scene, accused: int, tops: Sequence[Card], wild: Card, *,
                    since: int, sizes: bool = False) -> Verdict:
    """The challenge of the draw wild played in ``scene``, for each card that may have been
    under it; the cards that give the same verdict are one case."""
    t = scene.table
    found: dict[tuple[Any, ...], Verdict] = {}
    groups: dict[tuple[Any, ...], list[Card]] = {}
    for top in tops:
        s = replace(scene, discard=(top,))
        game, _ = s.run()
        if game.phase is Phase.PENDING and game.is_legal(_CHALLENGE):
            v = _challenged(s.then(_CHALLENGE), accused, since=since, sizes=sizes)
        else:  # R31: no challenge in this variant; the draw is taken
            v = _resolve(s.then(_ACCEPT) if game.phase is Phase.PENDING else s, since=since,
                         sizes=sizes)
            v = replace(v, outcome=f"Nobody can challenge a {card_name(wild)} in "
                                   f"{t.variant.title}: {v.outcome}")
        found.setdefault(_key(v), v)
        groups.setdefault(_key(v), []).append(top)
    if len(groups) == 1:
        return next(iter(found.values()))
    ranked = sorted(groups, key=lambda k: len(groups[k]))
    cases = [Case(f"the card under it was {_describe(groups[k], tops)}", found[k])
             for k in ranked[:-1]]
    cases.append(Case("the card under it was any other card", found[ranked[-1]]))
    return _depends(t, (), f"which card was under the {card_name(wild)}", cases)


def _first(events: Sequence[Event], kind: EventKind, start: int = 0) -> int:
    for i in range(start, len(events)):
        if events[i].kind is kind:
            return i
    return len(events)


# -- Let's Build a Droid (R36): walking the table round by round ----------------------------


def _droid(scene: _Scene, *, since: int, budget: _Budget) -> Verdict:
    """Walk the droid: forced lays are laid; a real choice, or a seat whose hand is unknown,
    splits the walk into cases."""
    t = scene.table
    while True:
        game, events = scene.run()
        if not budget.spend():
            return Verdict("It depends on the cards laid for the droid: tell the referee the "
                           "cards laid so far", tuple(events[since:]), _cite(events[since:]),
                           depends_on="the cards laid for the droid")
        visit = _undecided_visit(scene, game, events)
        if visit is not None:
            return _droid_branch(scene, events, visit, since=since, budget=budget)
        seat = game.to_act
        if game.phase is not Phase.DROID or seat is None:
            return _leaf(t, game, events[since:])
        lays = [a for a in game.legal_actions() if a.kind is ActionKind.LAY]
        colors = list(dict.fromkeys(a.card.color for a in lays if a.card is not None))
        if len(colors) == 1:
            scene = scene.then(lays[0])
            continue
        cases = []
        for color in colors:
            a = next(x for x in lays if x.card is not None and x.card.color is color)
            assert color is not None
            cases.append(Case(f"{t.name(seat)} lays {_article(color.value + ' card')}",
                              _droid(scene.then(a), since=since, budget=budget)))
        return _depends(t, events[since:], f"which color {t.name(seat)} lays", cases)


def _last_laid(events: Sequence[Event], upto: int) -> Color | None:
    last: Color | None = None
    for e in events[:upto]:
        if e.kind is EventKind.LAY:
            last = e.cards[0].color
        elif e.kind is EventKind.PLAY:
            last = None
    return last


def _undecided_visit(scene: _Scene, game: Game,
                     events: Sequence[Event]) -> tuple[int, int] | None:
    """The first time the droid reaches a seat whose unknown cards would decide whether
    and what it lays: (seat, index of that moment in the events)."""
    start = max((i for i, e in enumerate(events) if e.kind is EventKind.PLAY), default=0)
    for i in range(start, len(events)):
        e = events[i]
        if e.kind is EventKind.DROID_FAIL and e.seat is not None and _open(scene, e.seat):
            return e.seat, i
        if e.kind is EventKind.DROID_RETURN:
            return None
    seat = game.to_act
    if game.phase is Phase.DROID and seat is not None and _open(scene, seat):
        return seat, len(events)
    return None


def _open(scene: _Scene, seat: int) -> bool:
    h = scene.hands[seat]
    return h.unknown > 0 and h.only is None


def _droid_branch(scene: _Scene, events: Sequence[Event], visit: tuple[int, int], *,
                  since: int, budget: _Budget) -> Verdict:
    t = scene.table
    seat, at = visit
    who = t.name(seat)
    last = _last_laid(events, at)
    cases: list[Case] = []
    # The seat cannot lay: its unknown cards are all of the last color, or wild.
    stuck = frozenset(c for c, _ in t.deck if c.color is None or c.color is last)
    try:
        tried = scene.with_hand(seat, only=stuck)
        _, ev = tried.run()
        if any(e.kind is EventKind.DROID_FAIL and e.seat == seat for e in ev[at:]):
            when = (f"{who} cannot lay a card that is not {last.value}" if last is not None
                    else f"{who} holds no colored card")
            cases.append(Case(when, _droid(tried, since=since, budget=budget)))
    except RefereeError:
        pass
    left = scene.remaining()
    order = _neutral_order(t, frozenset())
    for color in COLORS:
        if color is last:
            continue
        spare = sorted((c for c in left if c.color is color), key=order.__getitem__)
        if not spare:
            continue
        tried = scene.with_hand(seat, [spare[0]])
        cases.append(Case(f"{who} lays {_article(color.value + ' card')}",
                          _droid(tried.then(Action(ActionKind.LAY, spare[0])), since=since,
                                 budget=budget)))
    what = (f"whether {who} can lay a card that is not {last.value}, and which"
            if last is not None else f"whether {who} holds a colored card, and which")
    return _depends(t, events[since:at], what, cases)


# -- the checks -----------------------------------------------------------------------------

#: A hand as the helpers hold it: the cards known, and how many cards it has in all.
_Known = tuple[list[Card], int]


def _hand_arg(t: _Table, hand: HandLike | None, what: str, default: int) -> _Known:
    """Known cards and the hand's size, from a hand given as cards or as a count."""
    if hand is None:
        return [], default
    if isinstance(hand, bool):
        raise BadCountError(f"{what}: give cards or a count, not {hand!r}")
    if isinstance(hand, int):
        if hand < 0:
            raise BadCountError(f"{what}: a hand cannot hold {hand} cards")
        return [], hand
    known = t.cards(hand, what)
    return known, len(known)


def _counts_arg(t: _Table, counts: Mapping[SeatRef, HandLike] | None,
                what: str = "hands") -> dict[int, _Known]:
    out: dict[int, _Known] = {}
    if counts is not None and not isinstance(counts, Mapping):
        raise NoSuchSeatError(f"{what}: give a mapping of seat to cards or count")
    for ref, hand in (counts or {}).items():
        seat = t.seat(ref, what)
        if seat in out:
            raise NoSuchSeatError(f"{what}: {t.name(seat)} is given twice")
        out[seat] = _hand_arg(t, hand, f"{t.name(seat)}'s hand", t.variant.hand_size)
    return out


def _top_and_color(t: _Table, top: Card | str | None, color: Color | str | None,
                   what: str = "the top card") -> tuple[Card | None, Color | None]:
    top_card = t.card(top, what) if top is not None else None
    col = _color(color, "the color in play") if color is not None else None
    if top_card is not None:
        if top_card.color is None and col is None:
            raise ImpossibleSituationError(
                f"{what} is a {card_name(top_card)}: give the color in play (R3)")
        if top_card.color is not None and col is not None and col is not top_card.color:
            raise ImpossibleSituationError(
                f"the color in play is the top card's ({top_card.color.value}) unless the top "
                "card is a wild (R3)")
        col = col or top_card.color
    return top_card, col


def _scene(t: _Table, player: int, mine: _Known, others: Mapping[int, _Known], *,
           discard: Sequence[Card], color: Color | None, direction: int,
           draw_top: Sequence[Card] = (), avoid: Iterable[Card] = ()) -> _Scene:
    """A scene with ``player`` to act; seats not in ``others`` hold a deal's worth of
    unknown cards."""
    hands = []
    for s in range(t.n):
        k, n = mine if s == player else others.get(s, ([], t.variant.hand_size))
        if n < len(k):
            raise BadCountError(f"{t.name(s)} cannot hold {n} cards and show {len(k)}")
        if n == 0 and s != player:
            raise ImpossibleSituationError(
                f"{t.name(s)} holds no cards: the hand would be over already")
        hands.append(_Hand(tuple(k), n))
    _check_copies(t, [*((f"{t.name(s)}'s hand", c) for s, h in enumerate(hands)
                        for c in h.known),
                      *(("the discard pile", c) for c in discard),
                      *(("the cards drawn", c) for c in draw_top)])
    total = sum(h.size for h in hands) + len(discard) + len(draw_top)
    deck = sum(n for _, n in t.deck)
    if total > deck:
        raise BadCountError(f"these hands need {total} cards; the {t.variant.name} deck has "
                            f"{deck}")
    return _Scene(t, tuple(hands), tuple(discard), color, direction, player, tuple(draw_top),
                  avoid=frozenset(avoid))


def _play_scene(t: _Table, player: int, card: Card, *, others: Mapping[int, _Known],
                hand: _Known | None = None, direction: int, top: Card | str | None,
                color: Color | str | None, named: Color | str | None = None,
                target: SeatRef | None = None, draw_top: Sequence[Card] = ()
                ) -> tuple[_Scene, list[Action]]:
    """The scene just before ``player`` plays ``card``, and the engine's legal plays of it.

    ``hand`` is the player's hand (the card added if missing); without it, ``others``
    may give it, else a deal's worth of cards. Without ``top`` the card is played on a
    card it can go on (the engine says which).
    """
    top_card, col = _top_and_color(t, top, color)
    rest = {s: h for s, h in others.items() if s != player}
    known, size = hand if hand is not None else others.get(player, ([], t.variant.hand_size))
    mine = list(known) if card in known else [card, *known]
    # A hand given card by card gains the card if it was left out; a count includes it.
    size = len(mine) if len(known) == size and card not in known else max(size, len(mine))
    named_color = _color(named, "the color named") if named is not None else None
    target_seat = t.seat(target, "the seat to swap with") if target is not None else None
    if top_card is not None:
        scene = _scene(t, player, (mine, size), rest, discard=[top_card], color=col,
                       direction=direction, draw_top=draw_top, avoid=[card])
        return scene, _legal_plays(t, scene, scene.build(), card, named_color, target_seat)
    base = _scene(t, player, (mine, size), rest, discard=[], color=col, direction=direction,
                  draw_top=draw_top, avoid=[card])
    order = _neutral_order(t, frozenset([card]))
    want = col or card.color

    def rank(c: Card) -> tuple[int, tuple[int, int]]:
        return (0 if c.color is want and c.rank is not card.rank else
                1 if c.color is want else 2 if c.rank is card.rank else 3, order[c])

    candidates = [c for c in base.remaining()
                  if c.color is not None and (col is None or c.color is col)]
    for candidate in sorted(candidates, key=rank):
        scene = replace(base, discard=(candidate,), color=candidate.color)
        game = scene.build()
        if any(a.kind is ActionKind.PLAY and a.card is card for a in game.legal_actions()):
            scene = replace(scene, under_given=False, color_given=col is not None)
            return scene, _legal_plays(t, scene, game, card, named_color, target_seat)
    raise ImpossibleSituationError(
        f"{card_name(card)} cannot be played on any card with "
        f"{col.value if col else 'any color'} in play (R3)")


def _legal_plays(t: _Table, scene: _Scene, game: Game, card: Card, named: Color | None,
                 target: int | None) -> list[Action]:
    plays = _plays(game, card, named, target)
    if not plays:
        who = t.name(scene.to_act)
        reason, _ = _refusal(game, Action.play(
            card, (named or game.current_color) if card.color is None else None, target))
        raise ImpossibleSituationError(f"{who} cannot play {card_name(card)} here: {reason}")
    return plays


def _plays(game: Game, card: Card, named: Color | None, target: int | None) -> list[Action]:
    """The engine's legal plays of ``card`` (one per seat it may name), naming ``named``
    (for a wild; by default the color in play)."""
    out = []
    for a in game.legal_actions():
        if a.kind is not ActionKind.PLAY or a.card is not card or a.uno:
            continue
        if card.color is None and a.color is not (named or game.current_color):
            continue
        if target is not None and a.target != target:
            continue
        out.append(a)
    return out


def _refusal(game: Game, action: Action) -> tuple[str, str]:
    """Why the engine refuses ``action``: its reason (without the ruling) and the ruling."""
    try:
        game.apply(action)
    except IllegalActionError as exc:
        text = str(exc)
        if exc.rule and text.endswith(f" ({exc.rule})"):
            text = text[: -len(exc.rule) - 3]
        return text, exc.rule
    raise ImpossibleSituationError("the referee expected the engine to refuse this")


def _since_play(events: Sequence[Event]) -> int:
    """Where the events after the (first) play begin."""
    return min(_first(events, EventKind.PLAY) + 1, len(events))


def can_play(variant: VariantLike, top: Card | str, color: Color | str | None,
             card: Card | str, hand: HandLike | None = None,
             options: TableOptions | None = None, *, player: str = "the player",
             named: Color | str | None = None) -> Verdict:
    """Can ``card`` be played on ``top`` with ``color`` in play (R3)? For a draw wild (Wild
    Draw 4, Wild Draw 2) also: is it legal or a bluff, given ``hand`` (R10, R20, R25, R35)?

    ``color`` is the color in play (None: the top card's own color; needed on a wild).
    ``hand`` is the player's whole hand before the play, the card included (added if
    missing), or only its size; without it, a draw wild's verdict says what a bluff
    hangs on. ``named`` is the color a wild names (default: the color in play).

    >>> can_play("classic", "blue-7", None, "red-2").outcome
    'No: red 2 matches neither the color in play (blue) nor the blue 7 on top'
    >>> can_play("classic", "blue-7", None, "red-7").outcome
    'Yes, the player can play red 7 on blue 7'
    >>> v = can_play("classic", "red-5", None, "wild-draw4", "wild-draw4 red-1 blue-2")
    >>> v.playable, v.guilty
    (True, True)
    >>> v.outcome
    'Yes, the player can play Wild Draw 4, but it is a bluff: they held a card of the color in play, so a challenge would make them draw 4'
    >>> can_play("pizza-pizza", "red-5", None, "wild-draw2", "wild-draw2 blue-5").guilty
    True
    >>> can_play("one", "red-5", None, "wild-draw4", "wild-draw4 red-1").outcome
    'Yes, the player can play Wild Draw 4 here, and nobody can challenge it'
    >>> can_play("star-wars", "red-5", None, "wild-draw4").depends_on
    'whether the player holds a red card or a wild card'
    """
    who = str(player).strip() or "the player"
    # Three seats, so that no two-player rule (R13) colors the hypothetical challenge.
    t = _table(variant, [who, *(n for n in ("the next player", "the player after them",
                                            "another player") if n != who)][:3], options)
    top_card, col = _top_and_color(t, top, color)
    assert top_card is not None
    c = t.card(card, "the card")
    known, size = _hand_arg(t, hand, f"{who}'s hand", 2)
    named_color = _color(named, "the color named") if named is not None else None
    scene = _scene(t, 0, ([*known] if c in known else [c, *known],
                          max(size, len(known) + (c not in known))), {},
                   discard=[top_card], color=col, direction=1, avoid=[c])
    game = scene.build()
    plays = _plays(game, c, named_color, None)
    if not plays:
        reason, rule = _refusal(game, Action.play(c, (named_color or col)
                                                  if c.color is None else None))
        return Verdict(_cap(f"no: {reason}"), citations=(rule,) if rule else (),
                       playable=False)
    played = scene.then(plays[0])
    after, events = played.run()
    lead = f"yes, {who} can play {card_name(c)}"
    if after.phase is Phase.PENDING and after.is_legal(_CHALLENGE):
        return _bluff_words(t, _challenged(played.then(_CHALLENGE), 0, since=0), who, c)
    if c.color is None and any(e.kind is EventKind.DRAW for e in events):
        return Verdict(_cap(f"{lead} here, and nobody can challenge it"), tuple(events),
                       _cite(events), playable=True, color=after.current_color)
    on = f"on {card_name(top_card)}"
    if top_card.color is None and col is not None:
        on += f" with {col.value} in play"
    shown = events[:_since_play(events)]
    return Verdict(_cap(f"{lead} {on}"), tuple(shown), _cite(shown), playable=True,
                   color=after.current_color)


def _bluff_words(t: _Table, v: Verdict, who: str, c: Card) -> Verdict:
    # A challenge's verdict said as the answer to "may I play this?".
    lead = f"Yes, {who} can play {card_name(c)}"
    if not v.settled:
        cases = tuple(Case(x.when, _bluff_words(t, x.verdict, who, c)) for x in v.cases)
        return replace(v, cases=cases, playable=True,
                       outcome=f"{lead}; whether it is a bluff depends on {v.depends_on}")
    if v.guilty:
        note = next((e.note for e in v.steps if e.kind is EventKind.GUILTY), "")
        text = (f"{lead}, but it is a bluff: they {note}, so a challenge would make them "
                f"draw {v.draws.get(t.names[0], 0)}")
    else:
        text = (f"{lead}, and it is no bluff: a challenge would fail and make the challenger "
                f"draw {v.draws.get(t.names[1], 0)}")
    return replace(v, outcome=text, playable=True)


@lru_cache(maxsize=64)
def _draw_wilds(t: _Table) -> tuple[Card, ...]:
    """The deck's wilds whose play makes the next player draw, as the engine plays them."""
    found = []
    number = next(x for x, _ in t.deck if x.is_number)
    for c, _ in t.deck:
        if c.color is not None:
            continue
        scene = _Scene(t, tuple(_Hand((c,) if s == 0 else (), 3) for s in range(t.n)),
                       (number,), number.color)
        game = scene.build()
        plays = _plays(game, c, None, None)
        if not plays:
            continue
        game.apply(plays[0])
        if game.phase is Phase.PENDING or any(len(h) > 3 for h in game.hands[1:]):
            found.append(c)
    return tuple(found)


def challenge(variant: VariantLike, seats: Sequence[str] | int, wild_by: SeatRef,
              hand: HandLike | None, color_before: Color | str | None,
              top_before: Card | str | None = None, direction: int | str = 1,
              options: TableOptions | None = None, *, named: Color | str | None = None,
              counts: Mapping[SeatRef, HandLike] | None = None,
              wild: Card | str | None = None) -> Verdict:
    """The next player challenges the draw wild ``wild_by`` played: guilty or innocent, who
    draws how many, who plays next (R4, R10, R20, R25, R35; R31: ``one`` has no challenge).

    ``hand`` is what the challenged player shows: the cards left after the wild (a count,
    or None, when it was not shown). ``color_before`` is the color in play before the
    wild, ``top_before`` the card under it (pizza-pizza's Wild Draw 2 is judged by it
    too: without it, the verdict says when it matters). ``wild`` is the variant's draw
    wild unless given; ``named`` the color it named; ``counts`` other hands' sizes.

    >>> seats = ["Ann", "Bea", "Cy"]
    >>> challenge("classic", seats, "Ann", "blue-1 green-2", "red").outcome
    "Ann's Wild Draw 4 was legal: Bea draws 6 and misses a turn, then Cy plays"
    >>> challenge("star-wars", seats, "Ann", "wild blue-1", "red").guilty
    True
    >>> challenge("pizza-pizza", seats, "Ann", "blue-5", "red", "red-5").outcome
    "Ann's Wild Draw 2 was illegal: Ann draws 2, then Bea plays"
    >>> challenge("one", seats, "Ann", "red-1", "red").outcome
    'Nobody can challenge a Wild Draw 4 in One: Bea draws 4 and misses a turn, then Cy plays'
    >>> challenge("classic", seats, "Ann", "", "red").outcome
    "Ann's Wild Draw 4 was legal: Ann goes out, Bea draws 6, the hand is over"
    """
    t = _table(variant, seats, options)
    by = t.seat(wild_by, "who played the wild")
    d = _direction(direction)
    if wild is not None:
        w = t.card(wild, "the wild")
    else:
        wilds = _draw_wilds(t)
        if not wilds:
            raise ImpossibleSituationError(f"the {t.variant.name} deck has no draw wild")
        w = wilds[0]
    top_card, col = _top_and_color(t, top_before, color_before, "the card under the wild")
    if col is None:
        raise ImpossibleSituationError("give the color in play before the wild (R10)")
    known, size = _hand_arg(t, hand, f"{t.name(by)}'s hand", 1)
    others = _counts_arg(t, counts, "counts")
    named_color = _color(named, "the color named") if named is not None else col
    base = _scene(t, by, ([w, *known], size + 1), {s: h for s, h in others.items() if s != by},
                  discard=[top_card] if top_card is not None else [], color=col, direction=d,
                  avoid=[w])
    tops = [top_card] if top_card is not None else _tops(base, w)
    scene = replace(base, discard=(tops[0],))
    scene = scene.then(_legal_plays(t, scene, scene.build(), w, named_color, None)[0])
    _, events = scene.run()
    v = _challenge_tops(scene, by, tops, w, since=_since_play(events))
    return replace(v, color=named_color if named is not None else None)


def first_card(variant: VariantLike, seats: Sequence[str] | int, dealer: SeatRef,
               card: Card | str | Sequence[Card | str], options: TableOptions | None = None,
               *, named: Color | str | None = None) -> Verdict:
    """The first card turned up: what happens, who names the color, who plays first, the
    direction, and what goes back into the deck (R8, R9, R19, R23, R28, R34).

    ``card`` may be several cards, in the order they were turned up: every one but the
    last must have gone back. ``named`` is the color named for a Wild turned up.

    >>> seats = ["Ann", "Bea", "Cy", "Dan"]
    >>> first_card("classic", seats, "Ann", "red-reverse").outcome
    'Red Reverse turned up first: Dan plays first, going counter-clockwise'
    >>> first_card("wild-jackpot", seats, "Ann", "red-reverse").next_player
    'Ann'
    >>> v = first_card("classic", seats, "Ann", "wild")
    >>> v.outcome, v.color_chooser
    ('Wild turned up first: Bea names the color and plays first', 'Bea')
    >>> v = first_card("classic", seats, "Ann", "wild-draw4")
    >>> v.outcome, [c.text for c in v.returned]
    ('Wild Draw 4 turned up first: Wild Draw 4 goes back into the deck, turn up another card', ['wild-draw4'])
    >>> first_card("star-wars", seats, "Ann", ["red-skip", "blue-3"]).outcome
    'Blue 3 turned up first: Bea plays first, going clockwise'
    """
    t = _table(variant, seats, options)
    d = t.seat(dealer, "the dealer")
    turned = [card] if isinstance(card, (str, Card)) else list(card)
    if not turned:
        raise ImpossibleSituationError("give the card turned up")
    cards = [t.card(c, "the card turned up") for c in turned]
    steps: list[Event] = []
    returned: list[Card] = []
    for c in cards[:-1]:
        events = [e for e in _opening(t, d, c).opening_events if e.kind is not EventKind.DEAL]
        if events[0].kind is not EventKind.RETURNED:
            raise ImpossibleSituationError(
                f"{card_name(c)} stays on the discard pile: no card is turned up after it")
        steps.append(events[0])
        returned.append(c)
    last = cards[-1]
    game = _opening(t, d, last)
    events = [e for e in game.opening_events if e.kind is not EventKind.DEAL]
    lead = f"{card_name(last)} turned up first"
    if events[0].kind is EventKind.RETURNED:
        steps.append(events[0])
        return Verdict(_sentence(lead, [*_clauses(t, events[:1]), "turn up another card"]),
                       tuple(steps), _cite(steps), returned=(*returned, last))
    if named is not None and game.phase is Phase.NAME_COLOR:
        events += game.apply(Action(ActionKind.COLOR, color=_color(named, "the color named")))
    said = _clauses(t, events)
    if game.phase is Phase.CHOOSE and game.to_act is not None:
        # Whoever performs the rule card, the opening goes on the same way.
        seat = game.to_act
        game.apply(Action(ActionKind.CHOOSE, target=seat))
        said.append(f"{t.name(seat)} chooses a player to perform a rule card")
    end = _end_clause(t, game, events)
    chooser = t.name(game.to_act) if (game.phase is Phase.NAME_COLOR
                                      and game.to_act is not None) else None
    return _leaf(t, game, [*steps, *events], lead, clauses=said, end=end,
                 color_chooser=chooser, returned=tuple(returned))


def _opening(t: _Table, dealer: int, first: Card) -> Game:
    """A new hand dealt from a stacked deck that turns ``first`` up; the rest is filler."""
    order = _neutral_order(t, frozenset([first]))
    left = t.counts()
    left[first] -= 1
    pool = sorted((+left).elements(), key=order.__getitem__)
    size = t.variant.hand_size
    reserve, pool = pool[:4], pool[4:]  # number cards to turn up if ``first`` goes back
    hands = [pool[i * size:(i + 1) * size] for i in range(t.n)]
    rest = reserve + pool[t.n * size:]
    try:
        deck = t.variant.stack_deck(hands, first, rest, dealer=dealer)
        return t.variant.new(list(t.names), deck=deck, dealer=dealer, options=t.options, seed=0)
    except SetupError as exc:
        raise ImpossibleSituationError(str(exc)) from None


def _play_verdict(t: _Table, scene: _Scene, plays: Sequence[Action], *, sizes: bool = False,
                  then: Sequence[Action] = ()) -> Verdict:
    if len(plays) == 1:
        return _resolve(scene.then(plays[0], *then), sizes=sizes)
    actor = plays[0].seat if plays[0].seat is not None else scene.to_act
    who = t.name(actor)
    cases = [Case(f"{who} swaps with {t.name(a.target)}" if a.target is not None else a.text,
                  _resolve(scene.then(a, *then), sizes=sizes)) for a in plays]
    return _depends(t, (), f"whom {who} swaps hands with", cases)


def whos_next(variant: VariantLike, seats: Sequence[str] | int, turn: SeatRef,
              card: Card | str, direction: int | str = 1, options: TableOptions | None = None,
              *, top: Card | str | None = None, color: Color | str | None = None,
              named: Color | str | None = None, target: SeatRef | None = None,
              counts: Mapping[SeatRef, HandLike] | None = None,
              lever: LeverOutcome | str | None = None) -> Verdict:
    """``turn`` plays ``card``: who plays next, who draws, who is skipped, with the table's
    house rules and the two-player rules (R13).

    ``top``/``color``: what it was played on (default: a card it can go on). ``named``:
    the color named with a wild (default: the color in play). ``target``: the seat a
    Wild Swap Hands (or a 7 under 7-0) names. ``counts``: hand sizes (or cards) before
    the play. ``lever``: what a Wild Jackpot lever showed.

    >>> whos_next("classic", ["Ann", "Bea", "Cy"], "Ann", "red-draw2").outcome
    'Bea draws 2 and misses a turn, then Cy plays'
    >>> whos_next("classic", ["Ann", "Bea"], "Ann", "red-reverse").outcome
    'Play now goes counter-clockwise, then Ann plays again'
    >>> whos_next("star-wars", ["Ann", "Bea"], "Ann", "red-reverse").next_player
    'Bea'
    >>> whos_next("classic", ["Ann", "Bea", "Cy"], "Ann", "wild-draw4").depends_on
    'what Bea does: take the cards or challenge'
    """
    t = _table(variant, seats, options)
    p = t.seat(turn, "whose turn")
    c = t.card(card, "the card played")
    scene, plays = _play_scene(t, p, c, others=_counts_arg(t, counts, "counts"),
                               direction=_direction(direction), top=top, color=color,
                               named=named, target=target)
    then: list[Action] = []
    if lever is not None:
        try:
            then.append(Action(ActionKind.LEVER, lever=LeverOutcome(lever)))
        except ValueError:
            raise ImpossibleSituationError(f"{lever!r} is not a lever outcome") from None
    v = _play_verdict(t, scene, plays, then=then)
    return _jump_ins(t, scene.then(plays[0], *then), v) if len(plays) == 1 else v


def _jump_ins(t: _Table, scene: _Scene, v: Verdict) -> Verdict:
    # Jump-in (house rule): whoever holds a copy of the card now on top may play it first.
    if not t.options.jump_in or not v.settled:
        return v
    game, events = scene.run()
    if game.phase is not Phase.TURN:
        return v
    top = game.top_card
    cases = [Case("nobody jumps in", v)]
    for s in range(t.n):
        if scene.hands[s].unknown < 1:
            continue
        try:
            tried = scene.with_hand(s, [top])
            g, _ = tried.run()
        except RefereeError:
            continue
        jumps = [a for a in g.legal_actions() if a.kind is ActionKind.JUMP and a.seat == s]
        if jumps:
            cases.append(Case(f"{t.name(s)} jumps in with another {card_name(top)}",
                              _resolve(tried.then(jumps[0]))))
    if len(cases) == 1:
        return v
    return _depends(t, events, f"whether someone jumps in with another {card_name(top)}",
                    cases)


def uno_catch(variant: VariantLike, seats: Sequence[str] | int, player: SeatRef, *,
              card: Card | str | None = None, played: bool = True, called: bool = False,
              next_began: bool = False, catcher: SeatRef | None = None,
              target: SeatRef | None = None, direction: int | str = 1,
              top: Card | str | None = None,
              color: Color | str | None = None, counts: Mapping[SeatRef, HandLike] | None = None,
              options: TableOptions | None = None) -> Verdict:
    """Can ``player``, down to one card, still be caught not calling UNO: by whom, until
    when, and what it costs (R6 and the table's ``uno_penalty``)?

    ``card`` is the next-to-last card ``player`` played (``played=False``: not played
    yet); ``called``: they called UNO since; ``next_began``: the next player has begun
    their turn; ``catcher``: who catches them (the catch then happens); ``target``: the
    seat a Wild Swap Hands (or a 7 under 7-0) swapped with.

    >>> seats = ["Ann", "Bea", "Cy"]
    >>> uno_catch("classic", seats, "Ann").outcome
    'Yes: Bea or Cy can catch Ann until Bea begins their turn (plays or draws); a caught Ann draws 4'
    >>> uno_catch("classic", seats, "Ann", card="red-skip").until
    'Cy'
    >>> v = uno_catch("wild-jackpot", seats, "Ann", catcher="Cy")
    >>> v.outcome, v.draws
    ('Yes: Cy catches Ann, Ann draws 2, then Bea plays', {'Ann': 2})
    >>> uno_catch("classic", seats, "Ann", called=True).outcome
    'No: Ann does not owe an UNO call now: only a player who got down to one card, until the next player begins their turn'
    >>> uno_catch("one", seats, "Ann").outcome
    'No: no UNO call is needed at this table'
    """
    t = _table(variant, seats, options)
    p = t.seat(player, "the player")
    who = t.name(p)
    d = _direction(direction)
    others = _counts_arg(t, counts, "counts")
    if card is not None:
        c = t.card(card, "the card played")
    else:
        top_card, col = _top_and_color(t, top, color)
        left = t.counts()
        if top_card is not None:
            left[top_card] -= 1
        order = _neutral_order(t, frozenset([top_card] if top_card else []))
        c = min((x for x in +left if x.is_number),
                key=lambda x: (col is not None and x.color is not col, order[x]))
    scene, plays = _play_scene(t, p, c, others=others, hand=([c], 2), direction=d, top=top,
                               color=color, target=target)
    if len(plays) > 1:
        raise ImpossibleSituationError(
            f"give the seat {who} swapped hands with: the UNO call follows the cards")
    catcher_seat = t.seat(catcher, "the catcher") if catcher is not None else (p + 1) % t.n
    catch = Action(ActionKind.CATCH, seat=catcher_seat, target=p)
    if not played:
        game = scene.build()
        reason, rule = _refusal(game, catch)
        return Verdict(_cap(f"no: {reason}"), citations=(rule,) if rule else (),
                       catchable=False, penalty=game.uno_penalty)
    scene = scene.then(plays[0])
    if called:
        scene = scene.then(Action(ActionKind.UNO, seat=p))
    game, events = scene.run()
    penalty = game.uno_penalty
    closer = _close_window(game, p) if next_began else None
    catchers = tuple(t.name(a.seat) for a in game.legal_actions()
                     if a.kind is ActionKind.CATCH and a.target == p and a.seat is not None)
    if not game.is_legal(catch) and (catcher is not None or not catchers):
        reason, rule = _refusal(game, catch)
        if closer is not None:
            reason = f"it is too late: {t.name(closer)} has begun their turn"
        return Verdict(_cap(f"no: {reason}"), tuple(events), _cite(events, [rule]),
                       catchable=False, penalty=penalty)
    probe, _ = scene.run()
    until = _close_window(probe, p)
    until_name = t.name(until) if until is not None else None
    if catcher is not None:
        caught = game.apply(catch)
        return _leaf(t, game, [*events, *caught], "yes", catchable=True, catchers=catchers,
                     until=until_name, penalty=penalty)
    probe, _ = scene.run()
    text = (f"Yes: {_or(list(catchers))} can catch {who} until {until_name} begins their turn "
            f"(plays or draws); a caught {who} draws {penalty}")
    return Verdict(text, tuple(events), _cite(events, _cite(probe.apply(catch))),
                   catchable=True, catchers=catchers, until=until_name, penalty=penalty)


def _close_window(game: Game, p: int) -> int | None:
    """Play on until nobody can catch ``p`` any more; the seat whose turn closed it."""
    def open_() -> bool:
        return any(a.kind is ActionKind.CATCH and a.target == p for a in game.legal_actions())

    for _ in range(4 * game.player_count):
        seat = game.to_act
        if not open_() or seat is None:
            return None
        if game.phase is Phase.PENDING:
            action = _ACCEPT
        elif game.phase is Phase.DRAWN:
            action = Action(ActionKind.PASS)
        else:
            action = Action(ActionKind.DRAW)
        if not game.is_legal(action):
            return None
        game.apply(action)
        if not open_():
            return seat
    return None


def end_of_hand(variant: VariantLike, seats: Sequence[str] | int, went_out: SeatRef,
                last_card: Card | str, hands: Mapping[SeatRef, HandLike] | None = None, *,
                direction: int | str = 1, top: Card | str | None = None,
                color: Color | str | None = None, named: Color | str | None = None,
                drawn: Cards = (), mode: ScoringMode | str | None = None,
                options: TableOptions | None = None) -> Verdict:
    """``went_out`` plays their last card: who draws for a final draw card (R5), then the
    points each other player holds and the hand's score (the variant's points; none in
    ``one``, R32).

    ``hands``: each other seat's cards (a count where they are not known). ``drawn``:
    the cards drawn for a final draw card, top of the draw pile first (without them,
    the verdict says whose points still need counting). ``mode``: the scoring mode
    (default: the variant's own).

    >>> v = end_of_hand("classic", ["Ann", "Bea", "Cy"], "Ann", "blue-draw2",
    ...                 {"Bea": "red-7 wild", "Cy": "green-skip"}, drawn="blue-1 blue-2")
    >>> v.outcome
    'Ann goes out, Bea draws 2, the hand is over: Ann scores 80 (Bea 60, Cy 20)'
    >>> v.points, v.scores
    ({'Bea': 60, 'Cy': 20}, {'Ann': 80})
    >>> end_of_hand("one", ["Ann", "Bea"], "Ann", "red-3", {"Bea": "red-7"}).outcome
    'Ann goes out, the hand is over: Ann wins (One has no points)'
    """
    t = _table(variant, seats, options)
    p = t.seat(went_out, "who went out")
    c = t.card(last_card, "the last card")
    held = {s: h for s, h in _counts_arg(t, hands, "hands").items() if s != p}
    draw_top = t.cards(drawn, "the cards drawn")
    chosen = _mode(t, mode)
    scene, plays = _play_scene(t, p, c, others=held, hand=([c], 1),
                               direction=_direction(direction), top=top, color=color,
                               named=named, draw_top=draw_top)
    played = scene.then(plays[0])
    game, events = played.run()
    if game.phase is Phase.PENDING and game.to_act is not None:
        seat = game.to_act
        cases = [Case(f"{t.name(seat)} takes the {game.pending_draw} cards",
                      _points(t, played.then(_ACCEPT), chosen, len(draw_top), held))]
        if game.is_legal(_CHALLENGE):
            cases.append(Case(f"{t.name(seat)} challenges",
                              _points(t, played.then(_CHALLENGE), chosen, len(draw_top), held)))
        return _depends(t, events, f"what {t.name(seat)} does: "
                        f"{_or(['take the cards', 'challenge'][:len(cases)])}", cases)
    return _points(t, played, chosen, len(draw_top), held)


def _mode(t: _Table, mode: ScoringMode | str | None) -> ScoringMode:
    if mode is None:
        return t.variant.scoring_modes[0]
    try:
        chosen = mode if isinstance(mode, ScoringMode) else ScoringMode(mode)
    except ValueError:
        raise ImpossibleSituationError(f"{mode!r} is not a scoring mode") from None
    if chosen not in t.variant.scoring_modes:
        raise ImpossibleSituationError(f"{t.variant.name} is not scored {chosen.value}")
    return chosen


def _points(t: _Table, scene: _Scene, mode: ScoringMode, known_draws: int,
            held: Mapping[int, _Known]) -> Verdict:
    game, events = scene.run()
    result = game.hand_result()
    out = t.name(result.went_out)
    said = _clauses(t, events)
    end = _end_clause(t, game, events)
    if result.points is None:
        return _leaf(t, game, events, clauses=said,
                     end=f"{end}: {out} wins ({t.variant.title} has no points)",
                     scores={out: 1})
    # Cards whose points nobody gave: hands given as counts, and cards drawn beyond ``drawn``.
    unseen: dict[int, list[Card]] = {}
    seen = 0
    for e in events:
        if e.kind is EventKind.DRAW and e.seat is not None:
            for c in e.cards:
                if seen >= known_draws:
                    unseen.setdefault(e.seat, []).append(c)
                seen += 1
    points: dict[str, int] = {}
    uncounted: dict[str, int] = {}
    hidden: set[str] = set()
    for s, cards in result.held.items():
        rest = list(cards)
        k, n = held.get(s, ([], t.variant.hand_size))
        if len(k) != n:
            uncounted[t.name(s)] = len(rest)
            hidden.add(t.name(s))
            rest = []
        else:
            for c in unseen.get(s, []):
                rest.remove(c)
            if unseen.get(s):
                uncounted[t.name(s)] = len(unseen[s])
        points[t.name(s)] = t.variant.hand_points(rest, t.options)
    if uncounted:
        todo = [f"{name}'s {n} card{'s' if n != 1 else ''}" if name in hidden else
                f"the {n} card{'s' if n != 1 else ''} {name} drew"
                for name, n in uncounted.items()]
        so_far = ", ".join(f"{name} {pts}" for name, pts in points.items()
                           if name not in hidden)
        text = f"{end}: count {_and(todo)}" + (f" (so far: {so_far})" if so_far else "")
        v = _leaf(t, game, events, clauses=said, end=text, points=points, uncounted=uncounted)
        return replace(v, depends_on=f"the points of {_and(todo)}")
    try:
        standings = new_standings(mode, t.n, t.variant.default_target or 1)
        hand_score = score_hand(standings, result.outcome).hands[-1]
    except ScoringError as exc:
        raise ImpossibleSituationError(str(exc)) from None
    scores = {t.name(s): pts for s, pts in hand_score.points.items()}
    listed = ", ".join(f"{name} {pts}" for name, pts in points.items())
    if mode.charges_holder:
        text = f"each player is charged their cards ({listed})"
    elif mode.uses_points:
        text = f"{out} scores {scores[out]} ({listed})"
    else:
        text = f"{out} wins the hand"
    return _leaf(t, game, events, clauses=said, end=f"{end}: {text}", points=points,
                 scores=scores)


# -- special cards, step by step ------------------------------------------------------------


def _special(t: _Table, text: str) -> Card:
    """The deck's one card of this text (a Wild Dip, a Wild Swap Hands, a Droid)."""
    c = Card.parse(text)
    if t.holds.get(c, 0) == 0:
        raise UnknownCardError(f"{card_name(c)} is not in this {t.variant.name} deck")
    return c


def wild_dip(variant: VariantLike, seats: Sequence[str] | int, player: SeatRef,
             named: Color | str | None = None, *, drawn: Card | str | None = None,
             give: Card | str | None = None, hand: HandLike | None = None,
             direction: int | str = 1, top: Card | str | None = None,
             color: Color | str | None = None, counts: Mapping[SeatRef, HandLike] | None = None,
             options: TableOptions | None = None) -> Verdict:
    """Wild Dip Into The Deck (R24): ``player`` names a color, draws one card (``drawn``),
    gives one card (``give``) to the next player, who still takes their turn.

    ``hand``: the player's hand before the play (the Dip added if missing), or its size.

    >>> v = wild_dip("pizza-pizza", ["Ann", "Bea", "Cy"], "Ann", "blue")
    >>> v.outcome
    'Ann draws 1, Ann gives a card of their choice to Bea, then Bea plays'
    >>> wild_dip("pizza-pizza", ["Ann", "Bea", "Cy"], "Ann", "blue", drawn="red-9",
    ...          give="red-9").hand_sizes
    {'Ann': 4, 'Bea': 6, 'Cy': 5}
    """
    t = _table(variant, seats, options)
    p = t.seat(player, "the player")
    dip = _special(t, "wild-dip")
    draw_top = [t.card(drawn, "the card drawn")] if drawn is not None else []
    gift = t.card(give, "the card given") if give is not None else None
    others = _counts_arg(t, counts, "counts")
    known, size = (_hand_arg(t, hand, f"{t.name(p)}'s hand", t.variant.hand_size)
                   if hand is not None else others.get(p, ([], t.variant.hand_size)))
    if dip not in known:
        known, size = [dip, *known], max(size, len(known) + 1)
    if gift is not None and gift not in known and gift not in draw_top:
        known, size = [*known, gift], max(size, len(known) + 1)
    scene, plays = _play_scene(t, p, dip, others=others, hand=(known, size),
                               direction=_direction(direction), top=top, color=color,
                               named=named, draw_top=draw_top)
    then = [Action(ActionKind.GIVE, gift)] if gift is not None else []
    return _play_verdict(t, scene, plays, sizes=True, then=then)


def swap_hands(variant: VariantLike, seats: Sequence[str] | int, player: SeatRef,
               target: SeatRef | None, named: Color | str | None = None, *,
               direction: int | str = 1, top: Card | str | None = None,
               color: Color | str | None = None, counts: Mapping[SeatRef, HandLike] | None = None,
               options: TableOptions | None = None) -> Verdict:
    """Wild Swap Hands (R14): ``player`` names a color and swaps hands with ``target``;
    played as the last card it ends the hand with no swap. ``hand_sizes`` are afterwards.

    >>> v = swap_hands("classic", ["Ann", "Bea", "Cy"], "Ann", "Cy", "red",
    ...                counts={"Ann": 4, "Cy": 2})
    >>> v.outcome, v.hand_sizes
    ('Ann swaps hands with Cy, then Bea plays', {'Ann': 2, 'Bea': 7, 'Cy': 3})
    >>> swap_hands("classic", ["Ann", "Bea"], "Ann", None, "red", counts={"Ann": 1}).outcome
    'Ann goes out, the hand is over'
    """
    t = _table(variant, seats, options)
    p = t.seat(player, "the player")
    swap = _special(t, "wild-swap")
    scene, plays = _play_scene(t, p, swap, others=_counts_arg(t, counts, "counts"),
                               direction=_direction(direction), top=top, color=color,
                               named=named, target=target)
    return _play_verdict(t, scene, plays, sizes=True)


def seven_zero(variant: VariantLike, seats: Sequence[str] | int, player: SeatRef,
               card: Card | str, *, target: SeatRef | None = None, direction: int | str = 1,
               top: Card | str | None = None, color: Color | str | None = None,
               counts: Mapping[SeatRef, HandLike] | None = None,
               options: TableOptions | None = None) -> Verdict:
    """The 7-0 house rule (``options.seven_o``): a 7 swaps hands with ``target``, a 0
    passes every hand one seat on in the direction of play. ``hand_sizes`` afterwards.
    Without the house rule the card is only a number.

    >>> from engine import TableOptions
    >>> v = seven_zero("classic", ["Ann", "Bea", "Cy"], "Ann", "red-0",
    ...                counts={"Ann": 2, "Bea": 5, "Cy": 6}, options=TableOptions(seven_o=True))
    >>> v.outcome, v.hand_sizes
    ('Every hand moves one seat clockwise, then Bea plays', {'Ann': 6, 'Bea': 1, 'Cy': 5})
    """
    t = _table(variant, seats, options)
    p = t.seat(player, "the player")
    c = t.card(card, "the card played")
    scene, plays = _play_scene(t, p, c, others=_counts_arg(t, counts, "counts"),
                               direction=_direction(direction), top=top, color=color,
                               target=target)
    return _play_verdict(t, scene, plays, sizes=True)


def jump_in(variant: VariantLike, seats: Sequence[str] | int, turn: SeatRef,
            top: Card | str, jumper: SeatRef, *, direction: int | str = 1,
            target: SeatRef | None = None, counts: Mapping[SeatRef, HandLike] | None = None,
            options: TableOptions | None = None) -> Verdict:
    """Jump-in (house rule, ``options.jump_in``): ``top`` is on the pile and ``turn`` is
    about to play; ``jumper`` plays a card identical to it first. May they, and who plays
    next?

    >>> from engine import TableOptions
    >>> seats = ["Ann", "Bea", "Cy", "Dan"]
    >>> jump_in("classic", seats, "Bea", "red-5", "Dan", options=TableOptions(jump_in=True)).outcome
    'Dan jumps in with red 5, then Ann plays'
    >>> jump_in("classic", seats, "Bea", "red-5", "Dan").outcome
    'No: jump-in is a house rule this table does not play'
    """
    t = _table(variant, seats, options)
    b = t.seat(turn, "whose turn")
    j = t.seat(jumper, "the jumper")
    top_card = t.card(top, "the top card")
    target_seat = t.seat(target, "the seat to swap with") if target is not None else None
    others = _counts_arg(t, counts, "counts")
    known, size = others.get(j, ([], t.variant.hand_size))
    mine = known if top_card in known else [top_card, *known]
    others[j] = (mine, max(size, len(mine)))
    scene = _scene(t, b, others.get(b, ([], t.variant.hand_size)), others,
                   discard=[top_card], color=top_card.color, direction=_direction(direction))
    game = scene.build()
    jumps = [a for a in game.legal_actions() if a.kind is ActionKind.JUMP and a.seat == j
             and (target_seat is None or a.target == target_seat)]
    if not jumps:
        reason, rule = _refusal(game, Action(ActionKind.JUMP, top_card, None, target_seat, j))
        return Verdict(_cap(f"no: {reason}"), citations=(rule,) if rule else (),
                       playable=False)
    return replace(_play_verdict(t, scene, jumps), playable=True)


def build_droid(variant: VariantLike, seats: Sequence[str] | int, player: SeatRef,
                named: Color | str | None = None,
                hands: Mapping[SeatRef, HandLike] | None = None, *, lays: Cards = (),
                direction: int | str = 1, top: Card | str | None = None,
                color: Color | str | None = None,
                options: TableOptions | None = None) -> Verdict:
    """Let's Build a Droid (R36): ``player`` names a color and lays a colored card; going
    round, each next player lays a card of a different color from the last one laid; the
    first who cannot draws 3; then play resumes after ``player``.

    ``hands``: each seat's cards (``player``'s without the Droid), or counts where
    unknown. ``lays``: the cards laid so far, in order. Where a seat's choice or its
    unknown cards decide the walk, the verdict splits into cases (collapsed when every
    case ends the same way).

    >>> seats = ["Ann", "Bea", "Cy"]
    >>> v = build_droid("star-wars", seats, "Ann", "red",
    ...                 {"Ann": "blue-1 wild", "Bea": "blue-2 blue-3", "Cy": "green-4"})
    >>> v.outcome
    'Bea cannot lay a card of a different color, Bea draws 3, every card laid goes back to its owner, then Bea plays'
    >>> [(who, c.text) for who, c in v.laid], v.last_color
    ([('Ann', 'blue-1')], <Color.BLUE: 'blue'>)
    >>> build_droid("star-wars", seats, "Ann", "red",
    ...             {"Ann": "red-1", "Bea": 2, "Cy": "green-4"}).depends_on
    'whether Bea can lay a card that is not red, and which'
    """
    t = _table(variant, seats, options)
    p = t.seat(player, "the player")
    droid = _special(t, "wild-droid")
    known = _counts_arg(t, hands, "hands")
    mine, size = known.pop(p, ([], t.variant.hand_size))
    scene, plays = _play_scene(t, p, droid, others=known, hand=([droid, *mine], size + 1),
                               direction=_direction(direction), top=top, color=color,
                               named=named)
    scene = scene.then(plays[0])
    for c in t.cards(lays, "the cards laid"):
        game, events = scene.run()
        # A seat whose cards are unknown lays this card: the filler must not decide for it.
        visit = _undecided_visit(scene, game, events)
        seat = visit[0] if visit is not None else game.to_act
        if seat is None or (visit is None and game.phase is not Phase.DROID):
            raise ImpossibleSituationError(
                f"{card_name(c)} cannot be laid: the droid is over by then")
        free = Counter(scene.hands[seat].known)
        free.subtract(e.cards[0] for e in events if e.kind is EventKind.LAY and e.seat == seat)
        if free[c] <= 0 and scene.hands[seat].unknown > 0:
            scene = scene.with_hand(seat, [c])
        scene = scene.then(Action(ActionKind.LAY, c))
        try:
            scene.run()
        except IllegalMoveError as exc:
            raise ImpossibleSituationError(
                f"{t.name(seat)} cannot lay {card_name(c)}: {exc}") from None
    return _resolve(scene, budget=_Budget())


# -- replaying a position: one link holds the whole state ----------------------------------

_OPTION_DEFAULTS = TableOptions()


@dataclass(frozen=True)
class Position:
    """A full position as :meth:`Game.from_position` takes it, with a compact text form that
    round-trips (``Position.parse(p.text) == p``), so a link can hold it.

    >>> p = Position("classic", ("Ann", "Bea"), (("red-7", "red-2"), ("blue-3",)), ("red-5",),
    ...              ("yellow-1", "yellow-2"))
    >>> p.text
    'variant=classic;players=Ann,Bea;hands=red-7.red-2/blue-3;discard=red-5;draw=yellow-1.yellow-2'
    >>> Position.parse(p.text) == p
    True
    >>> p.game().to_act
    0
    """

    variant: str
    players: tuple[str, ...]
    #: Each seat's cards, as card text.
    hands: tuple[tuple[str, ...], ...]
    #: Bottom first: the last card is the top card.
    discard: tuple[str, ...]
    #: Top first.
    draw: tuple[str, ...] = ()
    color: str | None = None
    direction: int = 1
    to_act: int = 0
    dealer: int | None = None
    drawn: str | None = None
    pending_draw: int = 0
    pending_from: int | None = None
    previous_color: str | None = None
    uno_owed: tuple[int, ...] = ()
    options: TableOptions = _OPTION_DEFAULTS
    seed: int = 0

    def __post_init__(self) -> None:
        # Cards in their canonical text, so equal positions have equal texts.
        def canon(cards: Iterable[str]) -> tuple[str, ...]:
            try:
                return tuple(Card.parse(c).text for c in cards)
            except CardError as exc:
                raise UnknownCardError(str(exc)) from None

        object.__setattr__(self, "hands", tuple(canon(h) for h in self.hands))
        object.__setattr__(self, "discard", canon(self.discard))
        object.__setattr__(self, "draw", canon(self.draw))
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "uno_owed", tuple(self.uno_owed))
        if self.drawn is not None:
            object.__setattr__(self, "drawn", canon([self.drawn])[0])

    @property
    def text(self) -> str:
        """The compact text form: ``key=value`` fields joined by ``;``, defaults left out."""
        parts = [f"variant={self.variant}",
                 "players=" + ",".join(quote(p, safe="") for p in self.players),
                 "hands=" + "/".join(".".join(h) for h in self.hands),
                 "discard=" + ".".join(self.discard)]
        if self.draw:
            parts.append("draw=" + ".".join(self.draw))
        for name in ("color", "direction", "to_act", "dealer", "drawn", "pending_draw",
                     "pending_from", "previous_color"):
            value = getattr(self, name)
            if value != getattr(_POSITION_DEFAULTS, name):
                parts.append(f"{name}={value}")
        if self.uno_owed:
            parts.append("uno_owed=" + ".".join(str(s) for s in self.uno_owed))
        opts = _options_text(self.options)
        if opts:
            parts.append(f"options={opts}")
        if self.seed:
            parts.append(f"seed={self.seed}")
        return ";".join(parts)

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read :attr:`text`; raises :class:`RefereeError` for anything else."""
        fields_ = _fields(text)
        fields_.pop("actions", None)
        return _position(fields_)

    @classmethod
    def from_game(cls, game: Game, seed: int = 0) -> Position:
        """The position ``game`` is in (a turn, a drawn card or the end of the hand).

        A pending draw cannot be taken: who played it and the color before it are not
        part of the engine's public state.
        """
        if game.phase not in (Phase.TURN, Phase.DRAWN, Phase.OVER):
            raise ImpossibleSituationError(
                f"a position can be taken at a turn, not while the game waits for "
                f"'{game.phase.value}'")
        drawn = game.drawn_card
        color = game.current_color
        top = game.top_card
        return cls(game.name, game.players, tuple(tuple(c.text for c in h) for h in game.hands),
                   tuple(c.text for c in game.discard_pile),
                   tuple(c.text for c in game.draw_pile),
                   color.value if color is not None and top.color is None else None,
                   game.direction, game.to_act if game.to_act is not None else 0, game.dealer,
                   drawn.text if drawn is not None else None,
                   uno_owed=game.uno_owed, options=game.options, seed=seed)

    def game(self) -> Game:
        """The position, set up by the engine (:meth:`Game.from_position`)."""
        try:
            cls = find_variant(self.variant)
        except ValueError as exc:
            raise UnknownVariantError(str(exc)) from None
        try:
            return cls.from_position(
                [list(h) for h in self.hands], list(self.discard), list(self.draw),
                players=self.players, current_color=self.color, direction=self.direction,
                to_act=self.to_act, dealer=self.dealer, drawn=self.drawn,
                pending_draw=self.pending_draw, pending_from=self.pending_from,
                previous_color=self.previous_color, uno_owed=self.uno_owed,
                options=self.options, seed=self.seed)
        except CardError as exc:
            raise UnknownCardError(str(exc)) from None
        except SetupError as exc:
            raise ImpossibleSituationError(str(exc)) from None


_POSITION_DEFAULTS = Position("classic", (), (), ())
_POSITION_KEYS = {"variant", "players", "hands", "discard", "draw", "color", "direction",
                  "to_act", "dealer", "drawn", "pending_draw", "pending_from", "previous_color",
                  "uno_owed", "options", "seed"}


def _position(f: dict[str, str]) -> Position:
    """The position written in the fields of :attr:`Position.text`."""
    def cards(value: str) -> tuple[str, ...]:
        return tuple(x for x in value.split(".") if x)

    def number(name: str) -> int | None:
        if name not in f:
            return None
        try:
            return int(f[name])
        except ValueError:
            raise ImpossibleSituationError(f"{name} must be a number") from None

    unknown = set(f) - _POSITION_KEYS
    if unknown:
        raise ImpossibleSituationError(f"unknown fields: {', '.join(sorted(unknown))}")
    for key in ("variant", "players", "hands", "discard"):
        if key not in f:
            raise ImpossibleSituationError(f"a position needs its {key}")
    owed = tuple(int(x) for x in f.get("uno_owed", "").split(".") if x.isdigit())
    return Position(
        variant=f["variant"], players=tuple(unquote(p) for p in f["players"].split(",")),
        hands=tuple(cards(h) for h in f["hands"].split("/")), discard=cards(f["discard"]),
        draw=cards(f.get("draw", "")), color=f.get("color"),
        direction=number("direction") or 1, to_act=number("to_act") or 0,
        dealer=number("dealer"), drawn=f.get("drawn"),
        pending_draw=number("pending_draw") or 0, pending_from=number("pending_from"),
        previous_color=f.get("previous_color"), uno_owed=owed,
        options=_options_parse(f.get("options", "")), seed=number("seed") or 0)


def _fields(text: str) -> dict[str, str]:
    if not isinstance(text, str):
        raise ImpossibleSituationError(f"a position is text, not {text!r}")
    out: dict[str, str] = {}
    for part in text.strip().split(";"):
        if not part:
            continue
        key, sep, value = part.partition("=")
        if not sep or key in out:
            raise ImpossibleSituationError(f"{part!r} is not a key=value field (or repeats one)")
        out[key.strip()] = value.strip()
    return out


def _options_text(options: TableOptions) -> str:
    parts = []
    for f in fields(TableOptions):
        value = getattr(options, f.name)
        if value == getattr(_OPTION_DEFAULTS, f.name):
            continue
        if f.name == "rule_cards":
            parts.append("rule_cards:" + "|".join(quote(r, safe="") for r in value))
        elif value is True:
            parts.append(f.name)
        else:
            parts.append(f"{f.name}:{str(value).lower()}")
    return ",".join(parts)


def _options_parse(text: str) -> TableOptions:
    data: dict[str, Any] = {}
    for part in (p for p in text.split(",") if p):
        name, _, value = part.partition(":")
        if name == "rule_cards":
            data[name] = [unquote(r) for r in value.split("|")]
        elif not value or value == "true":
            data[name] = True
        elif value == "false":
            data[name] = False
        elif value == "none":
            data[name] = None
        elif value.lstrip("-").isdigit():
            data[name] = int(value)
        else:
            raise ImpossibleSituationError(f"option {name}: {value!r} is not a value")
    try:
        return TableOptions.from_dict(data)
    except (ValueError, TypeError) as exc:
        raise ImpossibleSituationError(str(exc)) from None


@dataclass(frozen=True)
class Choice:
    """A legal action and what it means at the table."""

    action: str
    label: str


@dataclass(frozen=True)
class Step:
    """An action replayed, its label, and the engine's events."""

    action: str
    label: str
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Replay:
    """A position and the actions played from it; its text is the whole state, for a link.

    Every step is the engine's: :meth:`game` replays the actions with
    :meth:`Game.replay` from the position's setup; :meth:`undo` replays one fewer.

    >>> r = Replay.parse("variant=classic;players=Ann,Bea;hands=red-7.red-2/blue-3.green-5;"
    ...                  "discard=red-5;draw=yellow-1.yellow-2")
    >>> [c.label for c in r.choices()][:3]
    ['Ann plays red 7', 'Ann plays red 2', 'Ann draws a card']
    >>> r = r.play("play red-7")
    >>> r.text.endswith(";actions=play_red-7")
    True
    >>> [e.text for e in r.steps()[-1].events]
    ['Ann plays red 7 (R3; classic sheet, Gameplay)']
    >>> r.undo() == Replay.parse(r.undo().text)
    True
    """

    position: Position
    actions: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """The position's text, then ``;actions=`` with the actions (spaces as ``_``)."""
        if not self.actions:
            return self.position.text
        return self.position.text + ";actions=" + ",".join(a.replace(" ", "_")
                                                          for a in self.actions)

    @classmethod
    def parse(cls, text: str) -> Replay:
        """Read :attr:`text`, replaying it: a position or action that cannot be is refused."""
        f = _fields(text)
        actions = tuple(a.replace("_", " ") for a in f.pop("actions", "").split(",") if a)
        replay = cls(_position(f), actions)
        steps = replay.steps()  # the engine checks every action; kept in canonical text
        return replace(replay, actions=tuple(step.action for step in steps))

    def game(self) -> Game:
        """The game after every action (the engine's :meth:`Game.replay`)."""
        start = self.position.game()
        try:
            return Game.replay(start.setup, self.actions)
        except (IllegalActionError, ValueError) as exc:
            raise IllegalMoveError(str(exc), getattr(exc, "rule", "")) from None

    def steps(self) -> tuple[Step, ...]:
        """Each action with its label and the events it gave."""
        game = self.position.game()
        out = []
        for text in self.actions:
            try:
                action = Action.parse(text)
                label = _label(game, action)
                out.append(Step(action.text, label, tuple(game.apply(action))))
            except (IllegalActionError, ValueError) as exc:
                raise IllegalMoveError(str(exc), getattr(exc, "rule", "")) from None
        return tuple(out)

    def choices(self) -> tuple[Choice, ...]:
        """The legal actions now, each with a label for a button."""
        game = self.game()
        return tuple(Choice(a.text, _label(game, a)) for a in game.legal_actions())

    def play(self, action: Action | str) -> Replay:
        """This replay with one more action; an illegal one raises :class:`IllegalMoveError`."""
        game = self.game()
        try:
            a = Action.parse(action) if isinstance(action, str) else action
            reason = game.why_illegal(a)
        except (ValueError, TypeError) as exc:
            raise IllegalMoveError(str(exc)) from None
        if reason is not None:
            raise IllegalMoveError(reason)
        return replace(self, actions=(*self.actions, a.text))

    def undo(self) -> Replay:
        """This replay without its last action."""
        if not self.actions:
            raise IllegalMoveError("nothing to undo: this is the position itself")
        return replace(self, actions=self.actions[:-1])


def _label(game: Game, a: Action) -> str:
    """An action as a button says it: "Ann plays Wild and names blue"."""
    names = game.players
    actor = a.seat if a.seat is not None else game.to_act
    who = names[actor] if actor is not None else ""
    k = a.kind
    if k is ActionKind.PLAY or k is ActionKind.JUMP:
        assert a.card is not None
        text = f"{who} {'jumps in with' if k is ActionKind.JUMP else 'plays'} {card_name(a.card)}"
        if a.color is not None:
            text += f" and names {a.color.value}"
        if a.target is not None:
            text += f", swapping hands with {names[a.target]}"
        if a.uno:
            text += " and calls UNO"
        return text
    if k is ActionKind.DRAW:
        return f"{who} draws a card"
    if k is ActionKind.PASS:
        return f"{who} keeps the card" if game.phase is Phase.DRAWN else f"{who} passes"
    if k is ActionKind.ACCEPT:
        return f"{who} takes the {game.pending_draw} cards"
    if k is ActionKind.CHALLENGE:
        return f"{who} challenges the {card_name(game.top_card)}"
    if k is ActionKind.UNO:
        return f"{who} calls UNO"
    if k is ActionKind.CATCH:
        return f"{who} catches {names[a.target] if a.target is not None else ''} not calling UNO"
    if k is ActionKind.COLOR:
        text = f"{who} names {a.color.value if a.color else ''}"
        return text + (f" and swaps hands with {names[a.target]}" if a.target is not None else "")
    if k is ActionKind.GIVE:
        return f"{who} gives away {card_name(a.card) if a.card else ''}"
    if k is ActionKind.LEVER:
        return (f"{who} pulls the lever: {a.lever.words}" if a.lever is not None
                else f"{who} pulls the lever")
    if k is ActionKind.CHOOSE:
        return f"{who} chooses {names[a.target] if a.target is not None else ''}"
    if k is ActionKind.DISCARD:
        return f"{who} discards {card_name(a.card) if a.card else ''}"
    if k is ActionKind.DONE:
        return f"{who} stops discarding"
    if k is ActionKind.LAY:
        return f"{who} lays {card_name(a.card) if a.card else ''} for the droid"
    return a.text  # pragma: no cover - every kind is named above
