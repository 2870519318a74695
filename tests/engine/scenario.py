"""Setting up scenario tests in a line or two: a position, a stacked deal, events as words.

Seats are 0..n-1 and the names are Ann, Bea, Cal, Dan, Eve... so event texts
read like a table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from engine import (
    Card,
    Event,
    EventKind,
    Game,
    Position,
    TableOptions,
    cards_text,
    find_variant,
    parse_cards,
)

NAMES = ("Ann", "Bea", "Cal", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon")


def position(variant: str, hands: Sequence[str], discard: str, draw: str = "",
             **kwargs: Any) -> Game:
    """A mid-hand position: hands by seat, discard pile bottom first, draw pile top first;
    the other fields of :class:`engine.Position` by name."""
    kwargs.setdefault("players", NAMES[:len(hands)])
    kwargs.setdefault("seed", 1)
    return find_variant(variant).from_position(Position(
        variant, hands=tuple(tuple(parse_cards(h)) for h in hands),
        discard=tuple(parse_cards(discard)), draw=tuple(parse_cards(draw)), **kwargs))


def deal(variant: str, hands: Sequence[str], first: str, draw: str = "", *, dealer: int = 0,
         options: TableOptions | None = None, seed: int = 1) -> Game:
    """A new hand from a stacked deck that deals exactly ``hands`` and turns up ``first``."""
    cls = find_variant(variant)
    deck = cls.stack_deck(hands, first, draw, dealer=dealer)
    return cls.new(NAMES[:len(hands)], deck=deck, dealer=dealer, options=options, seed=seed)


def filler(variant: str, count: int, avoid: str = "", start: int = 0) -> list[str]:
    """``count`` distinct-enough number cards for padding hands, none of them in ``avoid``."""
    cls = find_variant(variant)
    taken = Counter(parse_cards(avoid))
    out: list[str] = []
    for c, n in cls.deck_counts().items():
        if not c.is_number:
            continue
        free = n - taken[c]
        out.extend([c.text] * max(free, 0))
    return out[start:start + count]


def play(game: Game, *actions: str) -> list[Event]:
    """Apply several actions; all their events, in order."""
    events: list[Event] = []
    for action in actions:
        events.extend(game.apply(action))
    return events


def texts(events: Iterable[Event]) -> list[str]:
    """The events in plain words."""
    return [e.text for e in events]


def kinds(events: Iterable[Event]) -> list[EventKind]:
    """The kind of each event, in order."""
    return [e.kind for e in events]


def rules(events: Iterable[Event]) -> list[str]:
    """The rulings the events cite, in order ("" for sheet-only events)."""
    return [e.rule for e in events]


def hand(game: Game, seat: int) -> str:
    """A seat's cards as text."""
    return cards_text(game.hands[seat])


def legal(game: Game) -> list[str]:
    """The legal actions as text."""
    return [a.text for a in game.legal_actions()]


def choices(game: Game) -> list[str]:
    """The legal actions as text, leaving out UNO calls and catches."""
    return [t for t in legal(game) if not t.startswith(("uno ", "catch "))]


def card(text: str) -> Card:
    """One card from its text."""
    return Card.parse(text)
