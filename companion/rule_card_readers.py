"""Which phone is asking about a game's Wild Jackpot unit, and what of its rule cards it
may read: the one place that decides (docs/rulings.md, "Who reads a rule card").

Kept apart from the lever's views: the export (companion/transfer.py) asks the same
question, and a blueprint is no place for a rule other modules read.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from flask import current_app, request

from . import live, store
from .db import get_db
from .errors import row_id
from .gate import current_access, device
from .store import access

#: The most characters a rule card holds (the printed card has room for a sentence).
MAX_RULE = 160

#: Every spin and every shuffle of the rule cards draws from the operating system's
#: random source (os.urandom), which nobody at the table can predict or replay.
#: Tests may set ``JACKPOT_RANDOM`` in the app's config to a seeded generator.
OS_RANDOM = random.SystemRandom()


def lever_random() -> random.Random:
    """The generator spins and shuffles draw from (the OS's, unless a test set one): the
    lever's, and the rematch's that shuffles the table's rule cards into its unit."""
    chosen = current_app.config.get("JACKPOT_RANDOM")
    return chosen if isinstance(chosen, random.Random) else OS_RANDOM


@dataclass(frozen=True)
class Phone:
    """The phone asking, as the Wild Jackpot sees it: the one place that says who may
    read which rule card (docs/rulings.md, "Who reads a rule card").

    One scorekeeper's phone is passed round the table (the one that started the game,
    unless the table named another); a phone that claimed a seat is that player's own
    (a scorekeeper's phone too: a scorekeeper may be a player). Any other phone, a second
    scorekeeper's included, reads no card but its own and the revealed ones."""

    device: str | None
    keeper: bool
    #: The seat this phone is the own phone of, if any.
    seat: int | None
    #: Every seat a player's own phone claimed: seat to device.
    claimed: Mapping[int, str]
    #: Whether this is the phone passed round the table.
    passed_round: bool = False

    def writes(self, seat: int) -> bool:
        """Whether this phone writes the seat's rule cards: its own phone, or (when it
        has none) the phone passed round, handed to the player."""
        if seat in self.claimed:
            return self.claimed[seat] == self.device
        return self.passed_round

    def reveals(self, seat: int) -> bool:
        """Whether a card dealt to the seat may show here before it is revealed: the
        same phones as write the seat's cards."""
        return self.writes(seat)

    def reads(self, card: store.RuleCard) -> bool:
        """Whether this phone may read a written card (the one it was written on)."""
        return card.readable_by(self.device, self.passed_round)

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
        """The dealt cards this phone is still to show their players, in turn (the shared
        phone's pass round the table): those not yet revealed."""
        return [c for c in cards if not c.revealed and self.reveals(c.seat)]


def this_phone(game: store.GameRecord) -> Phone:
    """The phone asking about ``game`` (whose access the gate has checked)."""
    allowed = current_access()
    db = get_db()
    here = device()
    return Phone(here, allowed.can_change, allowed.seat, access.seat_phones(db, game.id),
                 here is not None and access.passed_round(db, game.id) == here)


def for_this_phone(game: store.GameRecord) -> dict[str, Any] | None:
    """What waits for this phone on the game's pages (templates/_for_you.html): the dealt
    cards it is to show (its player's, or, on the phone passed round, those of the
    players without a phone of their own), the phones asking for a seat it answers, the
    seat it asks for itself. None for a phone nothing can wait for (it does not poll)."""
    db = get_db()
    # Read before what it tags: a change in between is fetched again, never missed.
    tag = live.etag(game.id)
    phone = this_phone(game)
    asks = access.seat_asks(db, game.id)
    asking = next((seat for seat, asker in asks.items() if asker == phone.device), None)
    if phone.seat is None and not phone.passed_round and asking is None:
        return None
    # A pull's own page (and its cards') offers its cards itself; its poll names it.
    shown = (request.view_args or {}).get("spin_id") or row_id(request.args.get("spin"))
    cards = [(spin_id, turn, seat) for spin_id, turn, seat in store.unrevealed_cards(db, game.id)
             if phone.reveals(seat) and spin_id != shown]
    return {"game": game, "phone": phone, "cards": cards, "asking": asking,
            "asks": sorted(asks) if phone.passed_round else [], "etag": tag, "shown": shown}
