"""What every part of the engine says about a hand besides the game itself: the errors
of setting one up and of asking for its result, :class:`HandResult`, and where the
classic sheet says each thing (:data:`CLASSIC_SECTIONS`, which each variant
overrides for its own sheet). The game is :class:`engine.game.Game`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .cards import Card
from .scoring import HandOutcome


class NoPointsError(ValueError):
    """Raised when asking for points in a variant that has none (R32)."""


class SetupError(ValueError):
    """A game cannot start this way: players, dealer, deck, options or position."""


class HandNotOverError(ValueError):
    """The hand is still being played: it has no result yet."""


@dataclass(frozen=True)
class HandResult:
    """The end of a hand: who went out, what everyone else holds, and its points."""

    went_out: int
    #: The cards each other player holds, by seat.
    held: Mapping[int, tuple[Card, ...]]
    #: Points of those cards by seat (the variant's ``hand_points``); None without points (R32).
    points: Mapping[int, int] | None

    @property
    def outcome(self) -> HandOutcome:
        """The hand as :func:`engine.scoring.score_hand` takes it."""
        return HandOutcome(self.went_out, dict(self.points or {}))


#: Where the classic sheet says each thing, and the ruling that settles it.
#: Topic -> (section of the sheet, or None where the sheet is silent; ruling or "").
#: A section starting with "house rule" is a table option, not the sheet.
CLASSIC_SECTIONS: dict[str, tuple[str | None, str]] = {
    "setup": ("Setup", ""),
    "first": ("Setup", ""),
    "first-skip": ("Skip Card", ""),
    "first-draw": ("Draw 2 Card", ""),
    "first-reverse": ("Reverse Card", "R9"),
    "first-wild": ("Wild Card", "R8"),
    "first-return": ("Wild Draw 4 Card", "R8"),
    "first-swap": ("Wild Swap Hands Card", "R8"),
    "first-jackpot": (None, "R19"),
    "play": ("Gameplay", "R3"),
    "draw": ("Gameplay", ""),
    "after-draw": ("Gameplay", "R12"),
    "pass": ("Gameplay", "R2"),
    "reshuffle": ("Gameplay", "R2"),
    "skip": ("Skip Card", ""),
    "reverse": ("Reverse Card", ""),
    "two": ("Rules for Two Players", "R13"),
    "draw1": (None, ""),
    "draw2": ("Draw 2 Card", ""),
    "wild": ("Wild Card", ""),
    "wd4": ("Wild Draw 4 Card", "R10"),
    "wd2": (None, "R25"),
    "challenge-won": ("Wild Draw 4 Card", "R4"),
    "final": ("Gameplay", "R5"),
    "out": ("Gameplay", ""),
    "uno": ("Gameplay", "R6"),
    "swap": ("Wild Swap Hands Card", "R14"),
    "blank": ("Blank Card", ""),
    "dip": (None, "R24"),
    "jackpot": (None, "R18"),
    "rules": (None, "R17"),
    "droid": (None, "R36"),
    "stacking": ("house rule: stacking", "house"),
    "progressive": ("house rule: progressive UNO", "house"),
    "seven-o": ("house rule: 7-0", "house"),
    "jump-in": ("house rule: jump-in", "house"),
    "draw-until": ("house rule: draw until playable", "house"),
    "forced": ("house rule: forced play", "house"),
}
