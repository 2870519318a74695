"""The scene: what a table knows at the moment a dispute is about (the seats, the
direction of play, the card on top and the color in play, the hands known or counted, the
table's options), read once and checked once against the variant's deck. Every check is a
question asked of a :class:`Scene`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from types import MappingProxyType

from .. import (
    Card,
    CardError,
    Color,
    Direction,
    Game,
    TableOptions,
    card_name,
    clean_name,
    find_variant,
    names_problem,
    seat_of,
)
from .verdict import (
    BadCountError,
    ImpossibleSituationError,
    NoSuchSeatError,
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



@dataclass(frozen=True)
class TableSetup:
    """The table's fixed part: the variant, the seats' names (clockwise, R1), the options
    and the deck they make. Cached per table, so the caches kept by table stay warm."""

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
            # As the games match names (engine.names): any Unicode form, case, or stray
            # bidirectional mark of a seat's name is that seat.
            seat = seat_of(self.names, ref)
            if seat is not None:
                return seat
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
               options: TableOptions | None, *, seated: bool = True) -> TableSetup:
    """The table, its variant found and its seats and options checked; ``seated=False``
    lets a table that has not named its players through (no seats at all)."""
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
        names = tuple(clean_name(str(s)) for s in seats)
    else:
        raise NoSuchSeatError(f"give the players' names in seat order, not {seats!r}")
    problem = names_problem(names)  # the games' own rule (engine.names)
    if problem is not None:
        raise ImpossibleSituationError(problem)
    if names or seated:
        check_players(cls, len(names))
    return _seated((cls, names, options if options is not None else cls.default_options()))


def check_players(cls: type[Game], n: int) -> None:
    """Refuse a table of a player count the variant is not for."""
    if not cls.min_players <= n <= cls.max_players:
        raise ImpossibleSituationError(
            f"{cls.name} is for {cls.min_players}-{cls.max_players} players, not {n}")


@lru_cache(maxsize=256)
def _seated(table: tuple[type[Game], tuple[str, ...], TableOptions]) -> TableSetup:
    """The table, its options checked and its deck counted once: a table asks dispute
    after dispute, and the caches kept by table (see neutral_order) stay warm."""
    cls, names, options = table
    try:
        cls.check_options(options)
    except ValueError as exc:
        raise ImpossibleSituationError(str(exc)) from None
    return TableSetup(cls, names, options, tuple(cls.deck_counts(options).items()))


def direction_arg(value: object) -> int:
    try:
        return int(Direction.parse(value))  # the engine's one reading (engine.direction)
    except ValueError as exc:
        raise ImpossibleSituationError(str(exc)) from None


def color_arg(value: object, what: str) -> Color:
    if isinstance(value, Color):
        return value
    if isinstance(value, str):
        try:
            return Color(value.strip().lower())
        except ValueError:
            pass
    raise ImpossibleSituationError(f"{what}: {value!r} is not a color (red, yellow, green, blue)")


# -- a scene from a check's arguments: hands, counts, the card under the play ---------------

#: A hand as the helpers hold it: the cards known, and how many cards it has in all.
KnownHand = tuple[list[Card], int]


def hand_arg(t: TableSetup, hand: HandLike | None, what: str, default: int) -> KnownHand:
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


def counts_arg(t: TableSetup, counts: Mapping[SeatRef, HandLike] | None,
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


def pile_arg(value: object, what: str, most: int) -> int | None:
    """How many cards a pile holds: none to ``most`` (None: not given)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadCountError(f"{what}: give how many cards, not {value!r}")
    if not 0 <= value <= most:
        raise BadCountError(f"{what} holds 0 to {most} cards, not {value}")
    return value


def top_and_color(t: TableSetup, top: Card | str | None, color: Color | str | None,
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


class Scene:
    """What a table knows at the moment a dispute is about, read once and checked once.

    ``variant`` is a variant's name (or alias) or class; ``seats`` the players' names in
    clockwise order (R1), or how many there are; ``top`` the card on top of the pile
    before the play the question is about, ``color`` the color in play then (needed on a
    wild; else the top card's); ``direction`` 1 or "clockwise", -1 or
    "counter-clockwise"; ``hands`` what the table knows of each hand, by seat (its name or
    number): its cards, or only how many (anyone left out holds a deal's worth of cards
    nobody knows); ``options`` the table's :class:`TableOptions` (house rules);
    ``draw_pile`` how many cards are left on the draw pile (by default more than any
    dispute draws: the rest of the deck is then under the top card of the discard pile,
    and is shuffled into a new draw pile when it runs out, R2); ``rule_cards`` how many of
    the written rule cards a Wild Jackpot unit still holds (the rest are used, R17).

    Every card is checked against this variant's deck with these options, every seat
    against the table, every count; what is wrong is refused with a :class:`RefereeError`
    naming it (``top_is`` and ``hands_are`` say how a refusal names the top card and the
    hands, where a question calls them otherwise: "the card under the wild"). What only a
    question can say (more copies of a card than the deck holds once the card played is
    counted too; a card that cannot go on the top card) is refused when it is asked.

    ``seats`` may be left empty for a question that needs none (:func:`can_play`); a
    question that needs them refuses a scene without.

    >>> scene = Scene("classic", ["Ann", "Bea", "Cy"], top="red-5", hands={"Bea": 2})
    >>> scene.seats, scene.top, scene.color, scene.direction
    (('Ann', 'Bea', 'Cy'), Card.parse('red-5'), <Color.RED: 'red'>, 1)
    >>> scene.hand("Bea"), scene.hand("Cy")
    (([], 2), None)
    >>> Scene("classic", ["Ann", "Bea"], top="wild")
    Traceback (most recent call last):
    ...
    engine.referee.verdict.ImpossibleSituationError: the top card is a Wild: give the color in play (R3)
    """

    __slots__ = ("color", "direction", "draw_pile", "hands", "rule_cards", "table", "top")

    table: TableSetup
    #: What is known of each hand, by seat number: the cards known and the hand's size.
    hands: Mapping[int, KnownHand]
    direction: int
    top: Card | None
    color: Color | None
    #: Cards left on the draw pile, and rule cards left in the unit, where the table said.
    draw_pile: int | None
    rule_cards: int | None

    def __init__(self, variant: VariantLike, seats: Sequence[str] | int = (), *,
                 top: Card | str | None = None, color: Color | str | None = None,
                 direction: int | str = 1, hands: Mapping[SeatRef, HandLike] | None = None,
                 options: TableOptions | None = None, top_is: str = "the top card",
                 hands_are: str = "hands", draw_pile: int | None = None,
                 rule_cards: int | None = None) -> None:
        self.table = make_table(variant, seats, options, seated=False)
        self.hands = MappingProxyType(counts_arg(self.table, hands, hands_are))
        self.direction = direction_arg(direction)
        self.top, self.color = top_and_color(self.table, top, color, top_is)
        self.draw_pile = pile_arg(draw_pile, "the draw pile", sum(n for _, n in self.table.deck))
        if rule_cards is not None and not self.table.variant.rule_cards:
            raise ImpossibleSituationError(
                f"{self.table.variant.name} has no rule-card unit: rule cards are Wild "
                "Jackpot's (R17)")
        self.rule_cards = pile_arg(rule_cards, "the rule-card unit", self.table.variant.rule_cards)

    def __repr__(self) -> str:
        return (f"Scene({self.table.variant.name!r}, {list(self.seats)!r}, top={self.top!r}, "
                f"color={self.color!r}, direction={self.direction})")

    @property
    def variant(self) -> type[Game]:
        """The variant's class."""
        return self.table.variant

    @property
    def seats(self) -> tuple[str, ...]:
        """The seats' names, clockwise (empty for a table that has not named them)."""
        return self.table.names

    @property
    def options(self) -> TableOptions:
        """The table's options (house rules)."""
        return self.table.options

    def seated(self) -> TableSetup:
        """The table, for a question that needs its seats (refused without them)."""
        check_players(self.table.variant, self.table.n)
        return self.table

    def seat(self, ref: SeatRef, what: str = "seat") -> int:
        """The number of the seat ``ref`` names (its name in any case or Unicode form, as
        :func:`engine.names.name_key` compares names, or its number)."""
        return self.seated().seat(ref, what)

    def hand(self, ref: SeatRef) -> KnownHand | None:
        """What the table knows of a seat's hand (its cards known and its size), if anything."""
        return self.hands.get(self.seat(ref))
