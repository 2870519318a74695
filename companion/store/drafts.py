"""Drafts: the hand each phone is entering, kept on every tap so nothing is lost; and
which other phones are entering the same hand."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlite_utils

from ..db import writing
from .records import now

#: Drafts are a convenience: one not touched for this long is forgotten.
DRAFT_DAYS = 30


#: The most a draft may hold (the largest real picker, 10 players, sends about 15 KB).
MAX_DRAFT_BYTES = 32_000


#: Another phone's draft touched this recently means that phone is entering that hand.
ENTERING_MINUTES = 30


def save_draft(db: sqlite_utils.Database, game_id: int, hand_id: int, device: str,
               data: dict[str, Any]) -> None:
    """Keep ``device``'s entry in progress for this game (hand_id 0: a new hand).

    Only for a hand that exists, at most :data:`MAX_DRAFT_BYTES`; drafts left
    untouched for :data:`DRAFT_DAYS` days are forgotten on the way.
    """
    text = json.dumps(data)
    if len(text) > MAX_DRAFT_BYTES:
        return
    with writing(db):
        if hand_id and not any(db.table("hands").rows_where(
                "id = ? and game_id = ? and deleted_at is null", [hand_id, game_id])):
            return
        stamp = now()
        # started_at stays as first written: since when this phone has been entering.
        db.execute("insert into drafts (game_id, hand_id, device, data, started_at, updated_at) "
                   "values (?, ?, ?, ?, ?, ?) on conflict (game_id, hand_id, device) do update "
                   "set data = excluded.data, updated_at = excluded.updated_at",
                   [game_id, hand_id, device, text, stamp, stamp])
        cutoff = (datetime.now(UTC) - timedelta(days=DRAFT_DAYS)).isoformat(timespec="seconds")
        db.table("drafts").delete_where("updated_at < ?", [cutoff])


def load_draft(db: sqlite_utils.Database, game_id: int, hand_id: int,
               device: str) -> dict[str, Any] | None:
    """``device``'s entry in progress, if any."""
    rows = db.table("drafts").rows_where("game_id = ? and hand_id = ? and device = ?",
                                         [game_id, hand_id, device], select="data")
    row = next(rows, None)
    data = json.loads(row["data"]) if row else None
    return data if isinstance(data, dict) else None


def drop_draft(db: sqlite_utils.Database, game_id: int, hand_id: int, device: str) -> None:
    """Forget ``device``'s entry in progress (the user chose to discard it)."""
    with writing(db):
        forget_draft(db, game_id, hand_id, device)


def forget_draft(db: sqlite_utils.Database, game_id: int, hand_id: int, device: str) -> None:
    """Forget ``device``'s entry of this hand (inside the caller's transaction)."""
    db.table("drafts").delete_where("game_id = ? and hand_id = ? and device = ?",
                                    [game_id, hand_id, device])


def others_entering(db: sqlite_utils.Database, game_id: int, hand_id: int,
                    device: str) -> list[tuple[dict[str, Any], datetime]]:
    """Other phones' entries of this hand touched in the last :data:`ENTERING_MINUTES`,
    oldest first: what each holds, and since when it has been entered."""
    cutoff = (datetime.now(UTC) - timedelta(minutes=ENTERING_MINUTES)).isoformat(
        timespec="seconds")
    rows = db.table("drafts").rows_where(
        "game_id = ? and hand_id = ? and device != ? and updated_at >= ?",
        [game_id, hand_id, device, cutoff], order_by="started_at", select="data, started_at")
    found = []
    for row in rows:
        data = json.loads(row["data"])
        if isinstance(data, dict) and row["started_at"]:
            found.append((data, datetime.fromisoformat(row["started_at"])))
    return found
