"""Wild Jackpot's lever and rule cards (R17-R19).

A Jackpot or Wild Jackpot played makes its player pull the lever (R18); the
outcome deals rule cards (left, right, everyone), makes the puller choose who
performs one, makes them draw 4, or opens the discard (:mod:`.jackpot_discard`).
Turned up first, a Jackpot makes the player left of the dealer choose who
performs a rule card, then play (R19). The rule cards' dispenser is this phase's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from ..actions import LEVER, Action, ActionKind, IllegalActionError
from ..card_facts import WILD_JACKPOT, Effect
from ..events import EventKind
from ..jackpot import (
    LEVER_OUTCOMES,
    LeverCall,
    LeverOutcome,
    RuleDispenser,
    default_rule_cards,
    spin,
)
from .base import Phase, PhaseHost, SpecialPhase


class JackpotLever(SpecialPhase):
    """The lever (``LEVER``) and choosing who performs a rule card (``CHOOSE``)."""

    __slots__ = ("dispenser", "opening")
    phases: ClassVar[tuple[Phase, ...]] = (Phase.CHOOSE, Phase.LEVER)
    played_effects: ClassVar[tuple[Effect, ...]] = (Effect.JACKPOT,)
    first_effects: ClassVar[tuple[Effect, ...]] = (Effect.JACKPOT,)

    def __init__(self, players: int) -> None:
        """No rule cards loaded yet (see :meth:`prepare`)."""
        #: The rule cards in the unit and used (R17).
        self.dispenser = RuleDispenser()
        #: True while a Jackpot turned up first waits for its choice (R19).
        self.opening = False

    def copy(self) -> JackpotLever:
        """Its own dispenser, the same flag."""
        other = JackpotLever(0)
        other.dispenser = RuleDispenser(list(self.dispenser.loaded), list(self.dispenser.used))
        other.opening = self.opening
        return other

    def prepare(self, table: PhaseHost) -> None:
        """R17: the box's cards shared equally, the rest set aside (see rule_card_shares)."""
        texts = list(table.options.rule_cards) or default_rule_cards(table.players)
        self.dispenser = RuleDispenser.load(texts, table.rng)

    def on_play(self, table: PhaseHost, seat: int) -> None:
        """R18: a Jackpot or Wild Jackpot played: its player pulls the lever."""
        table.wait_for(seat, Phase.LEVER)

    def on_first_card(self, table: PhaseHost, seat: int) -> None:
        """R19: turned up first, ``seat`` chooses who performs a rule card."""
        self.opening = True
        table.wait_for(seat, Phase.CHOOSE)

    # -- legality ----------------------------------------------------------------------

    def legal(self, table: PhaseHost, phase: Phase, seat: int, out: list[Action]) -> None:
        """Every seat to choose, or the lever (spun, or each outcome a table's showed)."""
        if phase is Phase.CHOOSE:
            out.extend(Action(ActionKind.CHOOSE, target=t) for t in range(table.player_count))
        else:
            out.extend(_LEVERS)

    def check(self, table: PhaseHost, phase: Phase, seat: int,
              a: Action) -> IllegalActionError | None:
        """Only choosing a seat at the table, or pulling the lever."""
        if phase is Phase.CHOOSE and a.kind is ActionKind.CHOOSE:
            return table.check_seat(a.target, None, "perform the rule card")
        if phase is Phase.LEVER and a.kind is ActionKind.LEVER:
            return None
        return table.not_now(a.kind)

    def waiting_for(self, table: PhaseHost, phase: Phase, who: str) -> str:
        """Choosing, or pulling the lever."""
        if phase is Phase.CHOOSE:
            return f"{who} to choose who performs the rule card"
        return f"{who} to pull the lever"

    # -- the moves ---------------------------------------------------------------------

    def apply(self, table: PhaseHost, phase: Phase, a: Action) -> None:
        """Choose, or pull (the game's generator spins unless the outcome is given)."""
        if a.kind is ActionKind.CHOOSE:
            assert a.target is not None
            self._choose(table, a.target)
        else:
            self._pull(table, a.lever if a.lever is not None else spin(table.rng))

    def _perform(self, table: PhaseHost, seats: Sequence[int]) -> None:
        held = len(self.dispenser.loaded)
        texts = self.dispenser.dispense(table.rng, len(seats))
        for i, (s, text) in enumerate(zip(seats, texts)):
            if i == held:  # R17: the unit ran out, so this card came from the used pile
                table.event(EventKind.RULES_RESHUFFLE, None, "rules")
            table.event(EventKind.RULE_CARD, s, "jackpot", note=text)
        if len(texts) < len(seats):
            table.event(EventKind.NO_RULE_CARD, None, "rules")

    def _choose(self, table: PhaseHost, target: int) -> None:
        seat = table.to_act
        assert seat is not None
        topic = "first-jackpot" if self.opening else "jackpot"
        table.event(EventKind.CHOOSE, seat, topic, target=target)
        self._perform(table, (target,))
        if self.opening:  # R19: then the player left of the dealer plays first
            self.opening = False
            if table.top_card is WILD_JACKPOT:
                table.start_phase(Phase.NAME_COLOR, seat)
            else:
                table.give_turn(seat)
            return
        table.give_turn(table.next_seat(seat))

    def _pull(self, table: PhaseHost, outcome: LeverOutcome) -> None:
        seat = table.to_act
        assert seat is not None
        table.event(EventKind.LEVER, seat, "jackpot", note=outcome.words)
        if outcome is LeverOutcome.CHOOSE:
            table.wait_for(seat, Phase.CHOOSE)
            return
        if outcome is LeverOutcome.DISCARD:
            table.start_phase(Phase.DISCARD, seat)
            return
        if outcome is LeverOutcome.DRAW4:
            table.draw_cards(seat, 4, "jackpot")
        else:  # left, right (R1: seats) or everyone (from the puller, in the direction of play)
            self._perform(table, LeverCall(outcome, seat, table.player_count,
                                           table.direction).performers)
        table.give_turn(table.next_seat(seat))

    # -- saving ------------------------------------------------------------------------

    def write_json(self, state: dict[str, Any]) -> None:
        """``opening`` and ``rule_cards``."""
        state["opening"] = self.opening
        state["rule_cards"] = self.dispenser.to_json()

    @classmethod
    def write_default(cls, state: dict[str, Any], players: int) -> None:
        """No lever: not opening, an empty dispenser."""
        state["opening"] = False
        state["rule_cards"] = RuleDispenser().to_json()

    def read_json(self, state: dict[str, Any]) -> None:
        """``opening`` and ``rule_cards``."""
        self.opening = state["opening"]
        self.dispenser = RuleDispenser.from_json(state["rule_cards"])


_LEVERS: tuple[Action, ...] = (LEVER,) + tuple(Action(ActionKind.LEVER, lever=o)
                                                for o in LEVER_OUTCOMES)
