"""Games written straight into the store for the table's story (score grid, race, records),
kept by the phone a browser test started a game on: many hands without tapping each."""

from __future__ import annotations

import random

from flask import Flask

import engine
from companion import store
from companion.db import open_db

NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hana", "Ines", "Jo"]


def phone_key(app: Flask) -> str:
    """The device key of the one phone that started a game on this app."""
    db = open_db(app.config["DATABASE"])
    try:
        return str(db.execute("select device from access limit 1").fetchone()[0])
    finally:
        db.close()


def seeded_game(app: Flask, device: str, players: int, hands: int, *, target: int = 500,
                mode: engine.ScoringMode = engine.ScoringMode.STANDARD, seed: int = 1,
                game_id: int | None = None) -> int:
    """A classic game kept by ``device`` (or ``game_id``, one already there) with ``hands``
    more hands, each opponent holding a few points, the same for the same ``seed``."""
    rng = random.Random(seed)
    db = open_db(app.config["DATABASE"])
    try:
        classic = engine.find_variant("classic")
        if game_id is None:
            game_id = store.create_game(db, store.GameSetup(
                variant=classic, mode=mode, target=target, options=classic.default_options(),
                players=tuple(NAMES[:players]), dealer=0), keeper=device)
        for _ in range(hands):
            with store.changing(db, game_id) as game:
                if not game.accepts_hands:
                    break
                out = rng.randrange(len(game.players))
                store.record_hand(db, game, out, [
                    store.Holding(s, (), rng.choice([0, 3, 5, 8, 12, 20, 35]), True)
                    for s in game.standings.scored_seats(out)])
    finally:
        db.close()
    return game_id
