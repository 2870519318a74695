"""The Wild Jackpot unit: the lever's six outcomes and the rule-card dispenser (R17, R18).

The engine cannot carry out what players write on rule cards, so a dispensed
card is announced (who must perform which text) and has no effect on the
cards; see docs/rulings.md.

>>> import random
>>> d = RuleDispenser.load(["Sing", "Hop"], random.Random(1))
>>> sorted(d.dispense(random.Random(2), 2))
['Hop', 'Sing']
>>> d.loaded, sorted(d.used)
([], ['Hop', 'Sing'])
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .chance import shuffle


class LeverOutcome(enum.Enum):
    """Where the spinner stops when the lever is pulled (R18: each 1 in 6)."""

    #: Choose any player (yourself too); they perform a dispensed rule card.
    CHOOSE = "choose"
    #: The player on your right performs a dispensed rule card.
    RIGHT = "right"
    #: The player on your left performs a dispensed rule card.
    LEFT = "left"
    #: Every player gets a rule card and performs it, starting with you.
    EVERYONE = "everyone"
    #: Discard up to one card of each color; action cards among them hit the next player.
    DISCARD = "discard"
    #: Draw 4 cards.
    DRAW4 = "draw4"

    @property
    def words(self) -> str:
        """What the outcome asks, in plain words."""
        return _WORDS[self]


_WORDS = {
    LeverOutcome.CHOOSE: "choose any player to perform a rule card",
    LeverOutcome.RIGHT: "the player on the right performs a rule card",
    LeverOutcome.LEFT: "the player on the left performs a rule card",
    LeverOutcome.EVERYONE: "every player performs a rule card",
    LeverOutcome.DISCARD: "discard up to one card of each color",
    LeverOutcome.DRAW4: "draw 4 cards",
}

#: In spinner order; a random spin picks one of these uniformly (R18).
LEVER_OUTCOMES: tuple[LeverOutcome, ...] = tuple(LeverOutcome)


def spin(rng: random.Random) -> LeverOutcome:
    """One pull of the lever: each outcome equally likely (R18)."""
    return LEVER_OUTCOMES[rng.randrange(len(LEVER_OUTCOMES))]


@dataclass
class RuleDispenser:
    """The written rule cards: a shuffled stack in the unit and a used pile behind it (R17)."""

    #: Cards in the unit; the next one out is the last.
    loaded: list[str] = field(default_factory=list)
    #: Cards already performed.
    used: list[str] = field(default_factory=list)

    @classmethod
    def load(cls, texts: Sequence[str], rng: random.Random) -> RuleDispenser:
        """Shuffle the written cards and load them (R17)."""
        loaded = list(texts)
        shuffle(loaded, rng)
        return cls(loaded, [])

    def dispense(self, rng: random.Random, count: int = 1) -> list[str]:
        """Deal ``count`` cards out of the unit, then put them on the used pile.

        When the unit is empty the used pile is shuffled back in (R17); cards
        dealt in this same round are still in players' hands and stay out of
        that reshuffle. Fewer cards come out when there are not enough.
        """
        dealt: list[str] = []
        for _ in range(count):
            if not self.loaded and self.used:
                self.loaded, self.used = self.used, []
                shuffle(self.loaded, rng)
            if not self.loaded:
                break
            dealt.append(self.loaded.pop())
        self.used.extend(dealt)
        return dealt

    def to_json(self) -> dict[str, Any]:
        """Plain values, for JSON."""
        return {"loaded": list(self.loaded), "used": list(self.used)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RuleDispenser:
        """Inverse of :meth:`to_json`."""
        return cls(list(data["loaded"]), list(data["used"]))


def default_rule_cards(names: Sequence[str], per_player: int) -> list[str]:
    """Labels for unwritten rule cards: each player's share, numbered (R17)."""
    return [f"rule card {k + 1} by {name}" for name in names for k in range(per_player)]
