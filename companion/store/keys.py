"""One-time form keys: each form that writes carries one, spent in the same transaction as
its write; a key sent again is "already saved" or a page out of date (docs/decisions.md)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlite_utils

from .conflicts import OUT_OF_DATE, AlreadySaved, OutOfDate
from .records import now

#: A spent one-time key is kept this long: a form sent again later is no double tap,
#: no retry and no Back-and-resend, so nothing remains to refuse it for.
SUBMISSION_DAYS = 30


#: The most old keys each write forgets on the way: its cost stays small and fixed, and
#: a database that gathered many (an update, a long pause) is emptied over a few writes.
SUBMISSIONS_FORGOTTEN = 20


def digest(fields: Iterable[tuple[str, Any]]) -> str:
    """A short fingerprint of a form's meaningful fields (order and blanks do not count)."""
    kept = sorted((str(k), str(v)) for k, v in fields if str(v) != "")
    return hashlib.sha256(json.dumps(kept).encode()).hexdigest()[:32]


def is_spent(db: sqlite_utils.Database, submission: str) -> bool:
    """True when this one-time form key was used by a saved change."""
    return bool(submission) and any(db.table("submissions").rows_where("token = ?", [submission], select="token"))


def check_unspent(db: sqlite_utils.Database, submission: str | None, digest: str | None,
                  game_id: int | None, saved: str) -> None:
    """Refuse a spent one-time key: :class:`AlreadySaved` (saying ``saved``) when the very
    same submission was stored (same digest, or one of them unknown), else
    :class:`OutOfDate`: the key came back on a page used again for something new."""
    if not submission:
        return
    row = next(db.table("submissions").rows_where("token = ?", [submission],
                                                  select="digest"), None)
    if row is None:
        return
    if row["digest"] is None or digest is None or row["digest"] == digest:
        raise AlreadySaved(saved, game_id)
    raise OutOfDate(OUT_OF_DATE, game_id)


def spend(db: sqlite_utils.Database, submission: str | None, digest: str | None) -> None:
    """Mark the one-time key used, with what its form said (inside the write's transaction);
    forget a few keys spent more than :data:`SUBMISSION_DAYS` ago on the way."""
    if submission:
        db.table("submissions").insert({"token": submission, "used_at": now(),
                                        "digest": digest})
        forget_old_submissions(db)


def forget_old_submissions(db: sqlite_utils.Database, limit: int = SUBMISSIONS_FORGOTTEN) -> int:
    """Delete at most ``limit`` keys spent more than :data:`SUBMISSION_DAYS` ago, oldest
    first (the index on ``used_at`` finds them); how many went."""
    cutoff = (datetime.now(UTC) - timedelta(days=SUBMISSION_DAYS)).isoformat(timespec="seconds")
    cursor = db.execute("delete from submissions where rowid in (select rowid from submissions "
                        "where used_at < ? order by used_at limit ?)", [cutoff, limit])
    return int(cursor.rowcount)
