"""What a live page's ETag is made from: the game's revision, which the database bumps on
every change a live page shows (companion/schema.py, companion/live.py)."""

from __future__ import annotations

import sqlite_utils


def revision(db: sqlite_utils.Database, game_id: int) -> int | None:
    """The game's revision, or None for a game not there (one indexed row read)."""
    row = db.execute("select revision from games where id = ?", [game_id]).fetchone()
    return int(row[0]) if row else None
