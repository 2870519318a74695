"""The special cards' phases, one module each (see :mod:`engine.phases.base`).

:data:`SPECIAL_PHASES` lists them all, in the order their state is saved.
"""

from __future__ import annotations

from .base import Phase, PhaseHost, PhaseRules, SpecialPhase
from .dip import DipGive
from .droid import Droid
from .jackpot_discard import JackpotDiscard
from .jackpot_lever import JackpotLever
from .name_color import NameColor

#: Every special phase, in the order a saved game holds their state.
SPECIAL_PHASES: tuple[type[SpecialPhase], ...] = (
    NameColor, DipGive, JackpotLever, JackpotDiscard, Droid)

__all__ = [
    "SPECIAL_PHASES",
    "DipGive",
    "Droid",
    "JackpotDiscard",
    "JackpotLever",
    "NameColor",
    "Phase",
    "PhaseHost",
    "PhaseRules",
    "SpecialPhase",
]
