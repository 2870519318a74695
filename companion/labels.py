"""How cards and names are written on screen."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from markupsafe import Markup, escape

from engine import Card
from engine.card_facts import card_label

# card_label (the face the picker prints) is the engine's, read from its card table.
__all__ = ["bdi", "card_label", "chip", "chips", "names"]


@cache
def chip(card: Card) -> Markup:
    """A card as a small colored chip, its face printed on it (history and review).

    Color is never the only cue (red and green look alike to many players): a colored
    card's chip starts with its color's letter (R, Y, G, B), and names the card in full
    in its title.
    """
    if card.color is None:
        return Markup(f'<span class="chip black" title="{card.text}">'
                      f"{escape(card_label(card))}</span>")
    color = card.color.value
    return Markup(f'<span class="chip {color}" title="{card.text}"><span class="cue">'
                  f'{color[0].upper()}</span> {escape(card_label(card))}</span>')


def chips(cards: Iterable[Card]) -> Markup:
    """Several cards as chips, in the order given."""
    return Markup(" ").join(chip(c) for c in cards)


def bdi(name: str) -> Markup:
    """A player's name, escaped and isolated, so a right-to-left name cannot reorder the
    words around it (or the next name in a list)."""
    return Markup(f"<bdi>{escape(name)}</bdi>")


def names(players: Sequence[str], seats: Iterable[int] | None = None,
          joiner: str = ", ") -> Markup:
    """Players' names (all, or those at ``seats``), each isolated: "Ann, Bob" or "Ann & Bob"."""
    chosen = range(len(players)) if seats is None else seats
    return Markup(joiner).join(bdi(players[s]) for s in chosen)
