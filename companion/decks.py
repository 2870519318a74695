"""A variant's deck laid out for tapping: the card picker's rank-by-colour grid, and its
template rendered once per deck (the hand entry and the referee's forms show it)."""

from __future__ import annotations

from functools import lru_cache

from flask import current_app
from markupsafe import Markup

import engine
from engine import COLORS, Card, Rank, TableOptions


@lru_cache(maxsize=64)
def picker_grid(variant_name: str, options: TableOptions) -> tuple[
        tuple[tuple[Rank, tuple[tuple[Card | None, int], ...]], ...], tuple[tuple[Card, int], ...]]:
    """The variant's deck as the picker shows it: a rank-by-color grid, then the wilds."""
    deck = engine.find_variant(variant_name).deck_counts(options)
    ranks = [r for r in Rank if r.is_colored and any(c.rank is r for c in deck)]
    rows = tuple(
        (rank, tuple((engine.card(rank, color), deck[engine.card(rank, color)])
                     if engine.card(rank, color) in deck else (None, 0) for color in COLORS))
        for rank in ranks
    )
    wilds = tuple((c, n) for c, n in deck.items() if c.color is None)
    return rows, wilds


def deck_grid(variant_name: str, options: TableOptions) -> Markup:
    """The picker's deck template (_card_picker.html) for this deck, rendered once per app:
    a few hundred escaped attributes that are the same for every page showing this deck."""
    grids: dict[tuple[str, TableOptions], Markup] = current_app.extensions.setdefault(
        "uno_deck_grids", {})
    key = (variant_name, options)
    if key not in grids or current_app.jinja_env.auto_reload:
        macros = current_app.jinja_env.get_template("_card_picker.html").module
        grids[key] = Markup(macros.deck_template(*picker_grid(variant_name, options)))  # type: ignore[attr-defined]
    return grids[key]
