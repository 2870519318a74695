"""A Wild turned up first: the first player names its color (R8, R19, R23).

A Wild Swap Hands turned up first also lets that player swap hands (R8, R14); a
Wild Jackpot turned up first comes here after its rule card is dealt (R19).
"""

from __future__ import annotations

from typing import ClassVar

from ..actions import Action, ActionKind, BadChoiceError, IllegalActionError
from ..card_facts import WILD_JACKPOT, WILD_SWAP, Effect
from ..cards import COLORS
from ..events import EventKind
from .base import Phase, PhaseHost, SpecialPhase


class NameColor(SpecialPhase):
    """``to_act`` names the color of the Wild that started the discard pile."""

    __slots__ = ()
    phases: ClassVar[tuple[Phase, ...]] = (Phase.NAME_COLOR,)
    first_effects: ClassVar[tuple[Effect, ...]] = (Effect.WILD, Effect.SWAP)

    def copy(self) -> NameColor:
        """It holds nothing: a new one."""
        return NameColor(0)

    def on_first_card(self, table: PhaseHost, seat: int) -> None:
        """A Wild (or Wild Swap Hands) turned up: ``seat`` names the color."""
        table.wait_for(seat, Phase.NAME_COLOR)

    def start(self, table: PhaseHost, phase: Phase, seat: int) -> None:
        """A Wild Jackpot turned up first, its rule card dealt: ``seat`` names the color."""
        table.wait_for(seat, Phase.NAME_COLOR)

    def legal(self, table: PhaseHost, phase: Phase, seat: int, out: list[Action]) -> None:
        """Each color; after a Wild Swap Hands, each color with each other seat too."""
        out.extend(_COLOR_NAMES)
        if table.top_card is WILD_SWAP:
            out.extend(Action(ActionKind.COLOR, color=col, target=t)
                       for col in COLORS for t in range(table.player_count) if t != seat)

    def check(self, table: PhaseHost, phase: Phase, seat: int,
              a: Action) -> IllegalActionError | None:
        """A color must be named; a seat only after a Wild Swap Hands (R8)."""
        if a.kind is not ActionKind.COLOR:
            return table.not_now(a.kind)
        if a.color is None:
            return BadChoiceError("name a color")
        if a.target is not None:
            if table.top_card is not WILD_SWAP:
                return BadChoiceError("only a Wild Swap Hands turned up lets the first "
                                      "player swap hands", "R8")
            return table.check_seat(a.target, seat, "swap hands with")
        return None

    def apply(self, table: PhaseHost, phase: Phase, a: Action) -> None:
        """Name the color (and swap), then the same player plays first."""
        seat = table.to_act
        assert seat is not None
        top = table.top_card
        topic = "first-swap" if top is WILD_SWAP else (
            "first-jackpot" if top is WILD_JACKPOT else "first-wild")
        table.name_color(a.color)
        table.event(EventKind.COLOR, seat, topic, color=a.color)
        if a.target is not None:
            table.swap_hands(seat, a.target, "first-swap")
        table.give_turn(seat)

    def waiting_for(self, table: PhaseHost, phase: Phase, who: str) -> str:
        """``who`` names the color."""
        return f"{who} to name the color"


_COLOR_NAMES: tuple[Action, ...] = tuple(Action(ActionKind.COLOR, color=c) for c in COLORS)
