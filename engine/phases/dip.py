"""Wild Dip Into The Deck (R24): draw one, then give a card to the next player."""

from __future__ import annotations

from typing import ClassVar

from ..actions import Action, ActionKind, IllegalActionError
from ..card_facts import Effect
from ..events import EventKind
from .base import Phase, PhaseHost, SpecialPhase, distinct


class DipGive(SpecialPhase):
    """``to_act`` gives any one card to the next player (``GIVE``)."""

    __slots__ = ()
    phases: ClassVar[tuple[Phase, ...]] = (Phase.GIVE,)
    played_effects: ClassVar[tuple[Effect, ...]] = (Effect.DIP,)

    def copy(self) -> DipGive:
        """It holds nothing: a new one."""
        return DipGive(0)

    def on_play(self, table: PhaseHost, seat: int) -> None:
        """R24: draw one, then give any one card to the next player."""
        table.draw_cards(seat, 1, "dip")
        table.wait_for(seat, Phase.GIVE)

    def legal(self, table: PhaseHost, phase: Phase, seat: int, out: list[Action]) -> None:
        """Any card held."""
        out.extend(Action(ActionKind.GIVE, c) for c in distinct(table.hand_of(seat)))

    def check(self, table: PhaseHost, phase: Phase, seat: int,
              a: Action) -> IllegalActionError | None:
        """A card held."""
        if a.kind is not ActionKind.GIVE:
            return table.not_now(a.kind)
        return table.check_held(seat, a.card)

    def waiting_for(self, table: PhaseHost, phase: Phase, who: str) -> str:
        """Giving a card."""
        return f"{who} to give a card to the next player"

    def apply(self, table: PhaseHost, phase: Phase, a: Action) -> None:
        """Give the card; the next player then plays (R24: they do not lose their turn)."""
        c = a.card
        seat = table.to_act
        assert seat is not None and c is not None
        receiver = table.next_seat(seat)
        hand = table.hand_of(seat)
        hand.remove(c)
        table.hand_of(receiver).append(c)
        table.event(EventKind.GIVE, seat, "dip", cards=(c,), target=receiver)
        if not hand:
            table.go_out(seat)
            table.end_hand()
            return
        if len(hand) == 1:
            table.owe_uno(seat)
        table.give_turn(receiver)
