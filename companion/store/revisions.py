"""What a live page's ETag is made from: the game's revision, which the database bumps on
every change a live page shows (companion/schema.py, companion/live.py)."""

from __future__ import annotations

import sqlite_utils

from .access import STRANGER, Access


def revision(db: sqlite_utils.Database, game_id: int) -> int | None:
    """The game's revision, or None for a game not there (one indexed row read)."""
    row = db.execute("select revision from games where id = ?", [game_id]).fetchone()
    return int(row[0]) if row else None


def revision_and_role(db: sqlite_utils.Database, device: str | None,
                      game_id: int) -> tuple[int, Access] | None:
    """The game's live revision and what ``device`` may do with it, in one read (the
    live pages' poll front, companion/live.py); None for a game not there."""
    row = db.execute(
        "select games.revision, access.role, access.seat from games left join access"
        " on access.game_id = games.id and access.device = ? where games.id = ?",
        [device or "", game_id]).fetchone()
    if row is None:
        return None
    return row[0], (Access(row[1], row[2]) if device and row[1] else STRANGER)
