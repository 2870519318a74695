"""Which phone is asking about a game's Wild Jackpot unit, and what of its rule cards it
may read: the one place that decides (docs/rulings.md, "Who reads a rule card").

Kept apart from the lever's views: the export (companion/transfer.py) asks the same
question, and a blueprint is no place for a rule other modules read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from . import store
from .db import get_db
from .gate import current_access, device
from .store import access

#: The most characters a rule card holds (the printed card has room for a sentence).
MAX_RULE = 160


@dataclass(frozen=True)
class Phone:
    """The phone asking, as the Wild Jackpot sees it: the one place that says who may
    read which rule card (docs/rulings.md, "Who reads a rule card").

    A scorekeeper's phone is the shared one, passed round the table; a viewer's phone
    that claimed a seat is that player's own."""

    device: str | None
    keeper: bool
    #: The seat this phone is the own phone of, if any.
    seat: int | None
    #: Every seat a player's own phone claimed: seat to device.
    claimed: Mapping[int, str]

    def writes(self, seat: int) -> bool:
        """Whether this phone writes the seat's rule cards: its own phone, or (when it
        has none) the shared phone passed to the player."""
        return self.claimed.get(seat) == self.device if seat in self.claimed else self.keeper

    def reveals(self, seat: int) -> bool:
        """Whether a card dealt to the seat may show here before it is revealed: the
        same phones as write the seat's cards."""
        return self.writes(seat)

    def reads(self, card: store.RuleCard) -> bool:
        """Whether this phone may read a written card (the one it was written on)."""
        return card.readable_by(self.device, self.keeper)

    def on_own_phone(self, seat: int) -> bool:
        """Whether the seat's player has a phone of their own, other than this one."""
        return seat in self.claimed and self.claimed[seat] != self.device

    def sees(self, spin: store.Spin) -> store.Spin:
        """The pull as this phone may see it: a dealt card's text only once it is
        revealed, or where it is to be revealed."""
        return replace(spin, cards=tuple(
            c if c.revealed or self.reveals(c.seat) else replace(c, text=None)
            for c in spin.cards))

    def shown_here(self, cards: Iterable[store.DealtCard]) -> list[store.DealtCard]:
        """The dealt cards this phone shows their players, in turn (the shared phone's
        pass round the table)."""
        return [c for c in cards if self.reveals(c.seat)]


def this_phone(game: store.GameRecord) -> Phone:
    """The phone asking about ``game`` (whose access the gate has checked)."""
    allowed = current_access()
    return Phone(device(), allowed.can_change, allowed.seat,
                 access.seat_phones(get_db(), game.id))
