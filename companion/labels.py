"""How cards are written on screen (short, to fit a phone-sized picker cell)."""

from __future__ import annotations

from engine import Card, Rank

_RANK_LABELS = {
    Rank.SKIP: "Skip", Rank.REVERSE: "Rev", Rank.DRAW1: "+1", Rank.DRAW2: "+2",
    Rank.JACKPOT: "Jackpot", Rank.WILD: "Wild", Rank.WILD_DRAW4: "Wild +4",
    Rank.WILD_DRAW2: "Wild +2", Rank.WILD_DIP: "Wild Dip", Rank.WILD_JACKPOT: "Wild Jackpot",
    Rank.WILD_SWAP: "Swap Hands", Rank.WILD_DROID: "Build a Droid", Rank.BLANK: "Blank",
}


def card_label(card: Card) -> str:
    """The face of a card as the picker prints it: "7", "+2", "Wild +4"."""
    return _RANK_LABELS.get(card.rank, card.rank.value)
