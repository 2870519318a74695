"""The Wild Jackpot lever's discard (R18): up to one card of each color.

Each action card discarded hits the next player once the puller is done: a Skip
or (two players, R13) a Reverse costs them their turn, draw cards add up.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..actions import DONE, Action, ActionKind, IllegalActionError, UnplayableCardError
from ..card_facts import DIRECTION_WORDS, DRAW_OF, EFFECT_OF, Effect
from ..cards import Card, Color
from ..events import EventKind
from .base import Phase, PhaseHost, SpecialPhase, distinct


class JackpotDiscard(SpecialPhase):
    """``to_act`` discards up to one card of each color, then is done (``DISCARD``)."""

    __slots__ = ("colors", "draws", "skip")
    phases: ClassVar[tuple[Phase, ...]] = (Phase.DISCARD,)

    def __init__(self, players: int) -> None:
        """Nothing discarded."""
        #: The colors discarded so far.
        self.colors: list[Color] = []
        #: Cards the next player will draw for the draw cards discarded.
        self.draws = 0
        #: Whether the next player will lose their turn.
        self.skip = False

    def copy(self) -> JackpotDiscard:
        """Its own list of colors."""
        other = JackpotDiscard(0)
        other.colors, other.draws, other.skip = list(self.colors), self.draws, self.skip
        return other

    def start(self, table: PhaseHost, phase: Phase, seat: int) -> None:
        """The lever showed "discard": ``seat`` begins (done at once if no card can go)."""
        self.colors, self.draws, self.skip = [], 0, False
        table.wait_for(seat, Phase.DISCARD)
        if not self._can_discard(table, seat):
            self._end(table)

    def _can_discard(self, table: PhaseHost, seat: int) -> bool:
        used = self.colors
        return any(c.color is not None and c.color not in used for c in table.hand_of(seat))

    def legal(self, table: PhaseHost, phase: Phase, seat: int, out: list[Action]) -> None:
        """Each colored card of a color not yet discarded, and ``done``."""
        used = self.colors
        out.extend(Action(ActionKind.DISCARD, c) for c in distinct(table.hand_of(seat))
                   if c.color is not None and c.color not in used)
        out.append(DONE)

    def check(self, table: PhaseHost, phase: Phase, seat: int,
              a: Action) -> IllegalActionError | None:
        """A held colored card of a new color, or done (R18)."""
        if a.kind is ActionKind.DONE:
            return None
        if a.kind is not ActionKind.DISCARD:
            return table.not_now(a.kind)
        held = table.check_held(seat, a.card)
        if held is not None:
            return held
        assert a.card is not None
        if a.card.color is None:
            return UnplayableCardError("only colored cards can be discarded", "R18")
        if a.card.color in self.colors:
            return UnplayableCardError(
                f"a {a.card.color.value} card was already discarded: one per color", "R18")
        return None

    def waiting_for(self, table: PhaseHost, phase: Phase, who: str) -> str:
        """Discarding, or being done."""
        return f"{who} to discard up to one card of each color, or be done"

    def apply(self, table: PhaseHost, phase: Phase, a: Action) -> None:
        """Discard a card, or be done."""
        if a.kind is ActionKind.DONE:
            self._end(table)
        else:
            assert a.card is not None
            self._discard(table, a.card)

    def _discard(self, table: PhaseHost, c: Card) -> None:
        # R18: up to one card of each color; each action card hits the next player.
        seat = table.to_act
        assert seat is not None and c.color is not None
        hand = table.hand_of(seat)
        hand.remove(c)
        table.put_on_discard(c)
        self.colors.append(c.color)
        table.event(EventKind.DISCARD, seat, "jackpot", cards=(c,))
        effect = EFFECT_OF[c]
        if effect is Effect.SKIP:
            self.skip = True
        elif effect is Effect.DRAW:
            self.draws += DRAW_OF[c]
        elif effect is Effect.REVERSE:
            direction = table.reverse_direction()
            table.event(EventKind.REVERSE, seat, "reverse", note=DIRECTION_WORDS[direction])
            if table.reverse_skips:
                self.skip = True
        if not hand:
            table.go_out(seat)
            if self.draws:
                table.draw_cards(table.next_seat(seat), self.draws, "final")
            table.end_hand()
            return
        if len(hand) == 1:
            table.owe_uno(seat)
        if not self._can_discard(table, seat):
            self._end(table)

    def _end(self, table: PhaseHost) -> None:
        seat = table.to_act
        assert seat is not None
        victim = table.next_seat(seat)
        draws, skip = self.draws, self.skip
        self.colors, self.draws, self.skip = [], 0, False
        if draws:
            table.draw_cards(victim, draws, "jackpot")
        if draws or skip:
            table.event(EventKind.LOSE_TURN, victim, "jackpot")
            table.give_turn(table.next_seat(seat, 1))
        else:
            table.give_turn(victim)

    def write_json(self, state: dict[str, Any]) -> None:
        """``jackpot_discard``: the colors discarded, the draws and skip to come."""
        state["jackpot_discard"] = {"colors": [c.value for c in self.colors],
                                    "draws": self.draws, "skip": self.skip}

    @classmethod
    def write_default(cls, state: dict[str, Any], players: int) -> None:
        """Nothing discarded."""
        state["jackpot_discard"] = {"colors": [], "draws": 0, "skip": False}

    def read_json(self, state: dict[str, Any]) -> None:
        """``jackpot_discard``."""
        jp = state["jackpot_discard"]
        self.colors = [Color(c) for c in jp["colors"]]
        self.draws, self.skip = jp["draws"], jp["skip"]
