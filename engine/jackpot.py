"""The Wild Jackpot unit: the lever's six outcomes and the rule-card dispenser (R17, R18).

The engine cannot carry out what players write on rule cards, so a dispensed
card is announced (who must perform which text) and has no effect on the
cards; see docs/rulings.md.

:class:`LeverCall` says what a table does after a pull (or after a Jackpot is
turned up first, R19), seat by seat and in words with the players' names: the
app's lever shows it, and a game in play deals its rule cards by it.

>>> import random
>>> d = RuleDispenser.load(["Sing", "Hop"], random.Random(1))
>>> sorted(d.dispense(random.Random(2), 2))
['Hop', 'Sing']
>>> d.loaded, sorted(d.used)
([], ['Hop', 'Sing'])
"""

from __future__ import annotations

import enum
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .cards import Rank
from .chance import shuffle

#: The cards that, turned up first, deal a rule card before play (R19).
OPENING_RANKS: tuple[Rank, ...] = (Rank.JACKPOT, Rank.WILD_JACKPOT)


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

    @property
    def label(self) -> str:
        """The outcome's name on the spinner, in a word or two."""
        return _LABELS[self]


_WORDS = {
    LeverOutcome.CHOOSE: "choose any player to perform a rule card",
    LeverOutcome.RIGHT: "the player on the right performs a rule card",
    LeverOutcome.LEFT: "the player on the left performs a rule card",
    LeverOutcome.EVERYONE: "every player performs a rule card",
    LeverOutcome.DISCARD: "discard up to one card of each color",
    LeverOutcome.DRAW4: "draw 4 cards",
}

_LABELS = {
    LeverOutcome.CHOOSE: "Choose", LeverOutcome.RIGHT: "Right", LeverOutcome.LEFT: "Left",
    LeverOutcome.EVERYONE: "Everyone", LeverOutcome.DISCARD: "Discard",
    LeverOutcome.DRAW4: "Draw 4",
}

#: In spinner order; a random spin picks one of these uniformly (R18).
LEVER_OUTCOMES: tuple[LeverOutcome, ...] = tuple(LeverOutcome)


def spin(rng: random.Random) -> LeverOutcome:
    """One pull of the lever: each outcome equally likely (R18)."""
    return LEVER_OUTCOMES[rng.randrange(len(LEVER_OUTCOMES))]


def lever_fairness(counts: Mapping[LeverOutcome, int]) -> tuple[float, float]:
    """Pearson's chi-square of the lever's counts against six equal chances, and the
    probability that a fair lever lands at least that unevenly (5 degrees of freedom).

    >>> even = dict.fromkeys(LEVER_OUTCOMES, 10)
    >>> lever_fairness(even)
    (0.0, 1.0)
    >>> chi, p = lever_fairness({**even, LeverOutcome.DRAW4: 30}); round(chi, 1), round(p, 4)
    (25.0, 0.0001)
    """
    total = sum(counts.get(o, 0) for o in LEVER_OUTCOMES)
    if not total:
        return 0.0, 1.0
    expected = total / len(LEVER_OUTCOMES)
    chi = sum((counts.get(o, 0) - expected) ** 2 / expected for o in LEVER_OUTCOMES)
    # The chi-square tail for 5 degrees of freedom, in closed form.
    tail = math.erfc(math.sqrt(chi / 2)) + math.sqrt(2 * chi / math.pi) * math.exp(-chi / 2) * (
        1 + chi / 3)
    return chi, min(1.0, tail)


@dataclass(frozen=True)
class LeverCall:
    """What the table does now: after a pull of the lever (R18), or after a Jackpot or
    Wild Jackpot turned up as the first card (R19, ``opening`` names which).

    ``direction`` is the direction of play (1 clockwise, -1 counter-clockwise); only
    the order of "everyone" and who plays afterwards depend on it, never left and
    right (R1). For "choose", the performer is known once ``chosen`` is. Seats in
    ``out`` (players knocked out of a Challenge UNO game) have left the table: the
    neighbours and "everyone" pass them by.

    >>> call = LeverCall(LeverOutcome.EVERYONE, puller=1, players=3)
    >>> call.performers, call.next_seat
    ((1, 2, 0), 2)
    >>> call.say(["Ana", "Ben", "Cy"])
    'Everyone gets a rule card, starting with Ben, then Cy, Ana.'
    >>> LeverCall(LeverOutcome.LEFT, puller=2, players=3).say(["Ana", "Ben", "Cy"])
    'Ana (on your left) performs a rule card.'
    >>> first = LeverCall.first_card(Rank.WILD_JACKPOT, dealer=0, players=3)
    >>> first.puller, first.choose(0).say(["Ana", "Ben", "Cy"])
    (1, 'Ana performs a rule card.')
    """

    outcome: LeverOutcome
    #: Who pulled the lever; for a first card, the player left of the dealer (R19).
    puller: int
    players: int
    direction: int = 1
    #: The seat the puller chose to perform (outcome "choose"), once chosen.
    chosen: int | None = None
    #: Rank.JACKPOT or Rank.WILD_JACKPOT when the card turned up first did this (R19).
    opening: Rank | None = None
    #: Seats no longer playing (knocked out), which the lever passes by.
    out: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        if self.players - len(self.out) < 2 or any(not 0 <= s < self.players for s in self.out):
            raise ValueError("the lever needs at least two players")
        for seat in (self.puller, self.chosen):
            if seat is not None and not 0 <= seat < self.players:
                raise ValueError(f"there is no seat {seat + 1} at this table")
            if seat in self.out:
                raise ValueError(f"seat {seat + 1} is out of the game")
        if self.direction not in (1, -1):
            raise ValueError("the direction of play is 1 (clockwise) or -1")

    @classmethod
    def first_card(cls, opening: Rank, *, dealer: int, players: int,
                   out: frozenset[int] = frozenset()) -> LeverCall:
        """A Jackpot or a Wild Jackpot (``opening``) turned up first: the player left of
        the dealer chooses who performs a rule card, then plays first (R19)."""
        if opening not in OPENING_RANKS:
            raise ValueError("a Jackpot or a Wild Jackpot can be turned up first")
        chooser = (dealer + 1) % players  # R1: left is the next seat clockwise
        while chooser in out:
            chooser = (chooser + 1) % players
        return cls(LeverOutcome.CHOOSE, chooser, players, opening=opening, out=out)

    def _step(self, seat: int, step: int) -> int:
        """The next seat still playing from ``seat``, clockwise (1) or not (-1)."""
        seat = (seat + step) % self.players
        while seat in self.out:
            seat = (seat + step) % self.players
        return seat

    def choose(self, seat: int) -> LeverCall:
        """The puller's choice of who performs (outcome "choose" only)."""
        if self.outcome is not LeverOutcome.CHOOSE:
            raise ValueError("only the \"choose any player\" outcome lets the puller choose")
        return replace(self, chosen=seat)

    @property
    def performers(self) -> tuple[int, ...]:
        """The seats that are dealt a rule card and perform it, in that order (R18)."""
        seat = self.puller
        if self.outcome is LeverOutcome.LEFT:  # R1: the seats, not the direction of play
            return (self._step(seat, 1),)
        if self.outcome is LeverOutcome.RIGHT:
            return (self._step(seat, -1),)
        if self.outcome is LeverOutcome.EVERYONE:
            order = [seat]
            while len(order) < self.players - len(self.out):
                order.append(self._step(order[-1], self.direction))
            return tuple(order)
        if self.outcome is LeverOutcome.CHOOSE and self.chosen is not None:
            return (self.chosen,)
        return ()

    @property
    def awaits_choice(self) -> bool:
        """True while the puller has still to choose who performs."""
        return self.outcome is LeverOutcome.CHOOSE and self.chosen is None

    @property
    def next_seat(self) -> int | None:
        """Who plays after the lever; None after a discard, where discarded Skips and
        Reverses decide it (see docs/rulings.md)."""
        if self.opening:
            return self.puller  # R19: the player left of the dealer plays first
        if self.outcome is LeverOutcome.DISCARD:
            return None
        return self._step(self.puller, self.direction)

    def say(self, names: Sequence[str]) -> str:
        """What to do now, in one sentence with the players' names, said to the puller."""
        if len(names) != self.players:
            raise ValueError(f"{len(names)} names for {self.players} seats")
        puller = names[self.puller]
        outcome = self.outcome
        if outcome is LeverOutcome.CHOOSE and self.chosen is None:
            return f"{puller}, choose any player (yourself too) to perform a rule card."
        if outcome is LeverOutcome.LEFT:
            return f"{names[self.performers[0]]} (on your left) performs a rule card."
        if outcome is LeverOutcome.RIGHT:
            return f"{names[self.performers[0]]} (on your right) performs a rule card."
        if outcome is LeverOutcome.EVERYONE:
            first, *rest = (names[s] for s in self.performers)
            return f"Everyone gets a rule card, starting with {first}, then {', '.join(rest)}."
        if outcome is LeverOutcome.DISCARD:
            return f"{puller}, discard up to one card of each color."
        if outcome is LeverOutcome.DRAW4:
            return f"{puller}, draw 4 cards."
        return f"{names[self.performers[0]]} performs a rule card."

    def then(self, names: Sequence[str]) -> str:
        """What happens once the lever's action is done."""
        if self.opening is Rank.WILD_JACKPOT:
            return f"Then {names[self.puller]} names the color and plays first."
        if self.opening:
            return f"Then {names[self.puller]} plays first."
        if self.next_seat is None:
            return ("Each action card discarded hits the next player; the last card "
                    "discarded sets the color. Then the next player plays.")
        return f"Then {names[self.next_seat]} plays."

    @property
    def opening_name(self) -> str:
        """The card turned up first, in words ("" after a pull of the lever)."""
        return _OPENING_NAMES.get(self.opening, "") if self.opening else ""

    @property
    def sources(self) -> tuple[str, ...]:
        """The rulings behind this call (RULINGS.md numbers)."""
        rulings = ["R19" if self.opening else "R18", "R17"]
        if self.outcome in (LeverOutcome.LEFT, LeverOutcome.RIGHT):
            rulings.append("R1")
        return tuple(rulings)


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

    def add(self, texts: Sequence[str], rng: random.Random) -> None:
        """Newly written cards go into the unit, shuffled in with what it holds."""
        self.loaded.extend(texts)
        shuffle(self.loaded, rng)

    def remove(self, texts: Sequence[str]) -> None:
        """Cards taken away (torn up, rewritten as others) leave whichever pile holds them."""
        gone = set(texts)
        self.loaded = [t for t in self.loaded if t not in gone]
        self.used = [t for t in self.used if t not in gone]

    def to_json(self) -> dict[str, Any]:
        """Plain values, for JSON."""
        return {"loaded": list(self.loaded), "used": list(self.used)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RuleDispenser:
        """Inverse of :meth:`to_json`."""
        return cls(list(data["loaded"]), list(data["used"]))


_OPENING_NAMES = {Rank.JACKPOT: "Jackpot", Rank.WILD_JACKPOT: "Wild Jackpot"}

#: The blank rule cards in the box (R16).
RULE_CARDS = 8


def rule_card_shares(players: int, cards: int = RULE_CARDS) -> tuple[int, ...]:
    """How many rule cards each seat writes: ``cards // players`` each, the rest set
    aside (R17). With more players than cards that share is none at all, which would
    leave the unit empty: then the first ``cards`` seats write one each
    (docs/rulings.md).

    >>> rule_card_shares(3), rule_card_shares(10)
    ((2, 2, 2), (1, 1, 1, 1, 1, 1, 1, 1, 0, 0))
    """
    if players < 1:
        raise ValueError("rule cards are shared among at least one player")
    each = cards // players
    if each:
        return (each,) * players
    return tuple(1 if seat < cards else 0 for seat in range(players))


def default_rule_cards(names: Sequence[str], cards: int = RULE_CARDS) -> list[str]:
    """Labels for unwritten rule cards: each player's share, numbered (R17)."""
    shares = rule_card_shares(len(names), cards)
    return [f"rule card {k + 1} by {name}" for name, share in zip(names, shares)
            for k in range(share)]
