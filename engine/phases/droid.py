"""Let's Build a Droid (R36).

Its player, then each next player in the direction of play, lays a colored card
of a color other than the last one laid; the first who cannot draws 3, every
laid card goes back to its owner and play goes on after the droid's player.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..actions import Action, ActionKind, IllegalActionError, UnplayableCardError
from ..card_facts import Effect
from ..cards import Card, Color, parse_cards
from ..events import EventKind
from .base import Phase, PhaseHost, SpecialPhase, distinct


class Droid(SpecialPhase):
    """``to_act`` lays a card of a new color (``DROID``); the cards laid, by seat."""

    __slots__ = ("by", "laid", "last")
    phases: ClassVar[tuple[Phase, ...]] = (Phase.DROID,)
    played_effects: ClassVar[tuple[Effect, ...]] = (Effect.DROID,)

    def __init__(self, players: int) -> None:
        """No droid being built."""
        #: The seat that played the droid, while it is built.
        self.by: int | None = None
        #: The color of the last card laid.
        self.last: Color | None = None
        #: Cards laid by each seat, until they go back to the hands.
        self.laid: list[list[Card]] = [[] for _ in range(players)]

    def copy(self) -> Droid:
        """Its own laid cards."""
        other = Droid(0)
        other.by, other.last, other.laid = self.by, self.last, [list(h) for h in self.laid]
        return other

    def laid_aside(self) -> list[list[Card]]:
        """The cards laid, by seat."""
        return self.laid

    def on_play(self, table: PhaseHost, seat: int) -> None:
        """The droid's player lays first."""
        self.by = seat
        self.last = None
        self._next_layer(table, seat)

    def _next_layer(self, table: PhaseHost, seat: int) -> None:
        last = self.last
        if any(c.color is not None and c.color is not last for c in table.hand_of(seat)):
            table.wait_for(seat, Phase.DROID)
            return
        # R36: the first player who cannot lay a card of a new color draws 3.
        by = self.by
        assert by is not None
        table.event(EventKind.DROID_FAIL, seat, "droid")
        table.draw_cards(seat, 3, "droid")
        for s, laid in enumerate(self.laid):
            if laid:
                table.hand_of(s).extend(laid)
                laid.clear()
        table.event(EventKind.DROID_RETURN, None, "droid")
        self.by = None
        self.last = None
        table.give_turn(table.next_seat(by))

    def legal(self, table: PhaseHost, phase: Phase, seat: int, out: list[Action]) -> None:
        """Each colored card held of another color than the last one laid."""
        last = self.last
        out.extend(Action(ActionKind.LAY, c) for c in distinct(table.hand_of(seat))
                   if c.color is not None and c.color is not last)

    def check(self, table: PhaseHost, phase: Phase, seat: int,
              a: Action) -> IllegalActionError | None:
        """A held colored card, of a new color (R36)."""
        if a.kind is not ActionKind.LAY:
            return table.not_now(a.kind)
        held = table.check_held(seat, a.card)
        if held is not None:
            return held
        assert a.card is not None
        if a.card.color is None:
            return UnplayableCardError("wild cards cannot be laid for a droid", "R36")
        if a.card.color is self.last:
            return UnplayableCardError(
                "the droid needs a card of a different color from the last one", "R36")
        return None

    def waiting_for(self, table: PhaseHost, phase: Phase, who: str) -> str:
        """Laying a card."""
        return f"{who} to lay a card for the droid"

    def apply(self, table: PhaseHost, phase: Phase, a: Action) -> None:
        """Lay the card; the next player lays or fails."""
        c = a.card
        seat = table.to_act
        assert seat is not None and c is not None
        table.hand_of(seat).remove(c)
        self.laid[seat].append(c)
        self.last = c.color
        table.event(EventKind.LAY, seat, "droid", cards=(c,))
        self._next_layer(table, table.next_seat(seat))

    def write_json(self, state: dict[str, Any]) -> None:
        """``droid``: who played it, the last color, the cards laid."""
        state["droid"] = {"by": self.by, "last": self.last.value if self.last else None,
                          "laid": [[c.text for c in h] for h in self.laid]}

    @classmethod
    def write_default(cls, state: dict[str, Any], players: int) -> None:
        """No droid: nothing laid."""
        state["droid"] = {"by": None, "last": None, "laid": [[] for _ in range(players)]}

    def problem(self, phase: Phase) -> str | None:
        """A droid is built only once someone has played it."""
        if self.by is None:
            return "a droid is built once a player has played it: give the droid's 'by'"
        return None

    def read_json(self, state: dict[str, Any]) -> None:
        """``droid``."""
        droid = state["droid"]
        self.by = droid["by"]
        self.last = Color(droid["last"]) if droid["last"] else None
        self.laid = [parse_cards(h) for h in droid["laid"]]
