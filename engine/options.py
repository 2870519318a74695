"""Table options: what a table agrees before the first deal.

One frozen object per game. Every field defaults to the rule sheets (and
RULINGS.md); ``None`` means "the variant's own default".
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any


@dataclass(frozen=True)
class TableOptions:
    """House rules and setup choices for one game."""

    #: Blank cards shuffled in (classic only, R7: 0-4 table cards in all).
    blank_cards: int = 0
    #: Points a blank card scores when caught in a hand (R14).
    blank_value: int = 50
    #: The one Wild Swap Hands card is in the deck (classic only, R7).
    wild_swap: bool = True
    #: Cards drawn for a missed UNO call; None is the variant's default (R6).
    uno_penalty: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain values, for JSON."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> TableOptions:
        """Inverse of :meth:`to_dict`; unknown keys are an error, missing ones default."""
        data = dict(data or {})
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown table options: {', '.join(sorted(unknown))}")
        return cls(**data)

    def replace(self, **changes: Any) -> TableOptions:
        """A copy with some fields changed."""
        return replace(self, **changes)
