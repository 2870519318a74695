"""The home page's listing: which games a phone was given, in progress or finished, a page
at a time; and where each game is listed, derived and written with every change."""

from __future__ import annotations

import sqlite3
from typing import Any

import sqlite_utils

from ..db import writing
from .cache import GameCache
from .loading import load_game, load_games
from .records import GameRecord

#: Games listed per page on the home page.
PAGE_SIZE = 20


def list_games(db: sqlite_utils.Database, device: str | None, *, in_progress: bool,
               page: int = 1, cache: GameCache | None = None) -> tuple[list[GameRecord], bool]:
    """One page of the games not deleted that ``device`` was given, newest first: those in
    progress (or needing a fix) or the finished ones; and whether more follow this page."""
    rows = _listed_rows(db, device, in_progress=in_progress, limit=PAGE_SIZE + 1,
                         offset=(page - 1) * PAGE_SIZE)
    return load_games(db, rows[:PAGE_SIZE], cache), len(rows) > PAGE_SIZE


def list_as(db: sqlite_utils.Database, game: GameRecord) -> None:
    """Store where the home page lists the game (derived: written with every change)."""
    in_progress = int(game.accepts_hands or game.problem is not None)
    db.execute("update games set in_progress = ? where id = ?", [in_progress, game.id])


def fill_listing_state(db: sqlite_utils.Database) -> None:
    """Work out where the home page lists each game stored before that was kept."""
    with writing(db):
        for row in list(db.table("games").rows_where("in_progress is null", select="id")):
            game = load_game(db, row["id"])
            db.table("games").update(row["id"], {"in_progress": int(
                game is None or game.accepts_hands or game.problem is not None)})


def _listed_rows(db: sqlite_utils.Database, device: str | None, *, in_progress: bool,
                     limit: int, offset: int) -> list[dict[str, Any]]:
    """The device's games not deleted, newest first: in progress (or needing a fix) or not."""
    if not device:
        return []
    cursor = db.execute(
        "select games.* from access join games on games.id = access.game_id "
        "where access.device = ? and games.deleted_at is null and games.in_progress = ? "
        "order by games.id desc limit ? offset ?",
        [device, int(in_progress), limit, offset])
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def count_games(conn: sqlite3.Connection) -> int:
    """How many games a database file holds, deleted ones included (a backup says so)."""
    return int(conn.execute("select count(*) from games").fetchone()[0])
