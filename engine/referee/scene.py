"""The table and its scenes: names, cards and seats as the table gives them, checked
against the variant's deck; a position built from what is known, filled with cards the
deck still holds, that the engine sets up and plays; and the scene a check's arguments
describe."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache

from .. import (
    Action,
    ActionKind,
    Card,
    CardError,
    Color,
    Event,
    Game,
    IllegalActionError,
    SetupError,
    TableOptions,
    card_name,
    find_variant,
)
from .verdict import (
    BadCountError,
    IllegalMoveError,
    ImpossibleSituationError,
    NoSuchSeatError,
    TooManyCopiesError,
    TooOpenError,
    UnknownCardError,
    UnknownVariantError,
)

#: A variant: its name (or an alias) or its class.
VariantLike = str | type[Game]
#: A seat: its name at this table, or its number (0 is the first seat, clockwise, R1).
SeatRef = str | int
#: Cards as :func:`engine.parse_cards` reads them: "red-7 blue-2", or a list.
Cards = str | Sequence[Card | str]
#: A hand: its cards, or only how many cards it holds (an unknown hand).
HandLike = str | Sequence[Card | str] | int


# -- the table: names, cards and seats as the table gives them ------------------------------

_DIRECTIONS = {"clockwise": 1, "cw": 1, "left": 1, "counter-clockwise": -1,
               "counterclockwise": -1, "anticlockwise": -1, "ccw": -1, "right": -1}
DIRECTION_WORDS = {1: "clockwise", -1: "counter-clockwise"}


@dataclass(frozen=True)
class Table:
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


def make_table(variant: VariantLike, seats: Sequence[str] | int,
           options: TableOptions | None) -> Table:
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
    return _seated((cls, names, options if options is not None else cls.default_options()))


@lru_cache(maxsize=256)
def _seated(table: tuple[type[Game], tuple[str, ...], TableOptions]) -> Table:
    """The table, its options checked and its deck counted once: a table asks dispute
    after dispute, and the caches kept by table (see neutral_order) stay warm."""
    cls, names, options = table
    try:
        cls.check_options(options)
    except ValueError as exc:
        raise ImpossibleSituationError(str(exc)) from None
    return Table(cls, names, options, tuple(cls.deck_counts(options).items()))


def direction_arg(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value in (1, -1):
        return value
    if isinstance(value, str) and value.strip().lower() in _DIRECTIONS:
        return _DIRECTIONS[value.strip().lower()]
    raise ImpossibleSituationError(
        f"direction is 1 or 'clockwise', -1 or 'counter-clockwise', not {value!r}")


def color_arg(value: object, what: str) -> Color:
    if isinstance(value, Color):
        return value
    if isinstance(value, str):
        try:
            return Color(value.strip().lower())
        except ValueError:
            pass
    raise ImpossibleSituationError(f"{what}: {value!r} is not a color (red, yellow, green, blue)")


def _check_copies(t: Table, named: Iterable[tuple[str, Card]]) -> None:
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
class Hand:
    known: tuple[Card, ...]
    size: int
    #: Strict limits on the unknown cards: only these, never these.
    only: frozenset[Card] | None = None
    deny: frozenset[Card] = frozenset()

    @property
    def unknown(self) -> int:
        return self.size - len(self.known)


@lru_cache(maxsize=256)
def neutral_order(t: Table, avoid: frozenset[Card]) -> dict[Card, tuple[int, int]]:
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


@lru_cache(maxsize=256)
def _filler_order(t: Table, avoid: frozenset[Card]) -> tuple[Card, ...]:
    """Each card of the deck once, in the order filler is taken (see :func:`neutral_order`)."""
    order = neutral_order(t, avoid)
    return tuple(sorted(order, key=order.__getitem__))


@lru_cache(maxsize=64)
def rule_hooks(t: Table) -> Game:
    """A hand of this table's game, dealt once and never played: only the variant's rule
    hooks (``bluff_card``) are asked of it."""
    return t.variant.new(list(t.names), options=t.options, seed=0)


#: Filler cards left on the draw pile: more than any one dispute draws, few enough that
#: setting a position up stays cheap (the rest of the deck is deeper in the discard pile).
_DRAW_PILE = 40


#: The work one question may do: each position it sets up counts one, and each action
#: played in it one more (what a position costs, and how long its verdict's steps are).
#: Each way an unknown card or a choice can turn out is another position, and ten unknown
#: hands at a droid are millions of ways: past the budget the referee says what it
#: settled and what to tell it (``Verdict.too_open``). Counted, not timed, so the same
#: question always gets the same answer. The most a dispute of the tests needs is 114 (a
#: Wild Draw 2 challenged on an unknown card under it); the most open question costs
#: about 15 ms and 120 KB of JSON.
SEARCH_BUDGET = 200


class Budget:
    """The work a question may still do (one budget for all the scenes of one question:
    a scene derived from another shares it)."""

    def __init__(self) -> None:
        self.left = SEARCH_BUDGET

    def spend(self, scene: Scene) -> None:
        self.left -= 1 + len(scene.prelude)
        if self.left < 0:
            raise TooOpenError(narrowed(scene))


def narrowed(scene: Scene, fallback: str = "more of what happened") -> str:
    """What to tell the referee to narrow an open question: the first hands it does not
    know, from the seat acting, in the direction of play."""
    t = scene.table
    order = [(scene.to_act + scene.direction * i) % t.n for i in range(t.n)]
    unknown = [t.name(s) for s in order if scene.hands[s].unknown > 0][:2]
    if not unknown:
        return fallback
    if len(unknown) == 1:
        return f"{unknown[0]}'s hand"
    return f"{unknown[0]}'s and {unknown[1]}'s hands"


@dataclass(frozen=True)
class Scene:
    """A position (hands known or counted, the discard pile, the known top of the draw
    pile) and the actions applied to it; :meth:`run` builds and plays it."""

    table: Table
    hands: tuple[Hand, ...]
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
    budget: Budget = field(default_factory=Budget, compare=False, repr=False)

    def then(self, *actions: Action) -> Scene:
        return replace(self, prelude=self.prelude + actions)

    def with_hand(self, seat: int, extra: Sequence[Card] = (), *, size: int | None = None,
                  only: frozenset[Card] | None = None,
                  deny: frozenset[Card] | None = None) -> Scene:
        h = self.hands[seat]
        new = Hand(h.known + tuple(extra), h.size if size is None else size,
                    h.only if only is None else only, h.deny if deny is None else deny)
        if new.unknown < 0:
            raise BadCountError(f"{self.table.name(seat)} cannot hold that many cards")
        return replace(self, hands=self.hands[:seat] + (new,) + self.hands[seat + 1:])

    def remaining(self) -> Counter[Card]:
        """Cards of the deck nobody has named (the pool the filler comes from)."""
        left = dict(self.table.holds)  # (every position a dispute sets up asks this)
        for cards in (self.discard, self.draw_top, *(h.known for h in self.hands)):
            for c in cards:
                copies = left.get(c, 0) - 1
                if copies < 0:
                    raise TooManyCopiesError("more copies of a card are named than the deck "
                                             "holds")
                left[c] = copies
        return Counter({c: k for c, k in left.items() if k})

    def build(self) -> Game:
        t = self.table
        left = self.remaining()
        pool = [c for c in _filler_order(t, self.avoid) for _ in range(left[c])]
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
        """The position built and the prelude played, paid from the question's budget
        (:class:`TooOpenError` past it)."""
        self.budget.spend(self)
        game = self.build()
        events: list[Event] = []
        for a in self.prelude:
            try:
                events.extend(game.apply(a))
            except IllegalActionError as exc:
                raise IllegalMoveError(str(exc), exc.rule) from None
        return game, events



# -- a scene from a check's arguments: hands, counts, the card under the play ---------------

#: A hand as the helpers hold it: the cards known, and how many cards it has in all.
KnownHand = tuple[list[Card], int]


def hand_arg(t: Table, hand: HandLike | None, what: str, default: int) -> KnownHand:
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


def counts_arg(t: Table, counts: Mapping[SeatRef, HandLike] | None,
                what: str = "hands") -> dict[int, KnownHand]:
    out: dict[int, KnownHand] = {}
    if counts is not None and not isinstance(counts, Mapping):
        raise NoSuchSeatError(f"{what}: give a mapping of seat to cards or count")
    for ref, hand in (counts or {}).items():
        seat = t.seat(ref, what)
        if seat in out:
            raise NoSuchSeatError(f"{what}: {t.name(seat)} is given twice")
        out[seat] = hand_arg(t, hand, f"{t.name(seat)}'s hand", t.variant.hand_size)
    return out


def top_and_color(t: Table, top: Card | str | None, color: Color | str | None,
                   what: str = "the top card") -> tuple[Card | None, Color | None]:
    top_card = t.card(top, what) if top is not None else None
    col = color_arg(color, "the color in play") if color is not None else None
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


def make_scene(t: Table, player: int, mine: KnownHand, others: Mapping[int, KnownHand], *,
           discard: Sequence[Card], color: Color | None, direction: int,
           draw_top: Sequence[Card] = (), avoid: Iterable[Card] = ()) -> Scene:
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
        hands.append(Hand(tuple(k), n))
    _check_copies(t, [*((f"{t.name(s)}'s hand", c) for s, h in enumerate(hands)
                        for c in h.known),
                      *(("the discard pile", c) for c in discard),
                      *(("the cards drawn", c) for c in draw_top)])
    total = sum(h.size for h in hands) + len(discard) + len(draw_top)
    deck = sum(n for _, n in t.deck)
    if total > deck:
        raise BadCountError(f"these hands need {total} cards; the {t.variant.name} deck has "
                            f"{deck}")
    return Scene(t, tuple(hands), tuple(discard), color, direction, player, tuple(draw_top),
                  avoid=frozenset(avoid))


def play_scene(t: Table, player: int, card: Card, *, others: Mapping[int, KnownHand],
                hand: KnownHand | None = None, direction: int, top: Card | str | None,
                color: Color | str | None, named: Color | str | None = None,
                target: SeatRef | None = None, draw_top: Sequence[Card] = ()
                ) -> tuple[Scene, list[Action]]:
    """The scene just before ``player`` plays ``card``, and the engine's legal plays of it.

    ``hand`` is the player's hand (the card added if missing); without it, ``others``
    may give it, else a deal's worth of cards. Without ``top`` the card is played on a
    card it can go on (the engine says which).
    """
    top_card, col = top_and_color(t, top, color)
    rest = {s: h for s, h in others.items() if s != player}
    known, size = hand if hand is not None else others.get(player, ([], t.variant.hand_size))
    mine = list(known) if card in known else [card, *known]
    # A hand given card by card gains the card if it was left out; a count includes it.
    size = len(mine) if len(known) == size and card not in known else max(size, len(mine))
    named_color = color_arg(named, "the color named") if named is not None else None
    target_seat = t.seat(target, "the seat to swap with") if target is not None else None
    if top_card is not None:
        scene = make_scene(t, player, (mine, size), rest, discard=[top_card], color=col,
                       direction=direction, draw_top=draw_top, avoid=[card])
        return scene, legal_plays(t, scene, scene.build(), card, named_color, target_seat)
    base = make_scene(t, player, (mine, size), rest, discard=[], color=col, direction=direction,
                  draw_top=draw_top, avoid=[card])
    order = neutral_order(t, frozenset([card]))
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
            return scene, legal_plays(t, scene, game, card, named_color, target_seat)
    raise ImpossibleSituationError(
        f"{card_name(card)} cannot be played on any card with "
        f"{col.value if col else 'any color'} in play (R3)")


def legal_plays(t: Table, scene: Scene, game: Game, card: Card, named: Color | None,
                 target: int | None) -> list[Action]:
    plays = plays_of(game, card, named, target)
    if not plays:
        who = t.name(scene.to_act)
        reason, _ = refusal(game, Action.play(
            card, (named or game.current_color) if card.color is None else None, target))
        raise ImpossibleSituationError(f"{who} cannot play {card_name(card)} here: {reason}")
    return plays


def plays_of(game: Game, card: Card, named: Color | None, target: int | None) -> list[Action]:
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


def refusal(game: Game, action: Action) -> tuple[str, str]:
    """Why the engine refuses ``action``: its reason (without the ruling) and the ruling."""
    try:
        game.apply(action)
    except IllegalActionError as exc:
        text = str(exc)
        if exc.rule and text.endswith(f" ({exc.rule})"):
            text = text[: -len(exc.rule) - 3]
        return text, exc.rule
    raise ImpossibleSituationError("the referee expected the engine to refuse this")

