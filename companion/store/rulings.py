"""The referee's rulings a table kept on its game's log."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import sqlite_utils

from ..db import writing
from .conflicts import OUT_OF_DATE, NoSuchGame, OutOfDate
from .loading import load_game
from .records import now

#: The most rulings shown for one game.
RULINGS_SHOWN = 200


#: The most stored text (verdicts and disputes) one list of rulings reads: a verdict too
#: open to settle can be 100 KB, and a list of 200 of them would be a 20 MB answer.
RULINGS_TEXT = 150_000


def ruling_record(row: Mapping[str, Any]) -> dict[str, Any]:
    """A kept ruling as plain values (the rulings log, the history page and JSON)."""
    return {"id": row["id"], "game": row["game_id"], "check": row["check_name"],
            "title": row["title"], "outcome": row["outcome"], "created_at": row["created_at"],
            "dispute": [list(p) for p in json.loads(row["dispute"] or "[]")],
            "verdict": json.loads(row["verdict"])}


def list_rulings(db: sqlite_utils.Database, game_id: int, before: int | None = None
                 ) -> tuple[list[dict[str, Any]], bool]:
    """The game's newest rulings (older than ruling ``before``, for the next page), newest
    first, as many as RULINGS_SHOWN and RULINGS_TEXT allow (always the newest one); and
    whether there are older ones not listed."""
    sizes = db.execute("select id, length(verdict) + length(dispute) from rulings "
                       "where game_id = ? and id < ? order by id desc limit ?",
                       [game_id, before or 2**63 - 1, RULINGS_SHOWN + 1]).fetchall()
    ids: list[int] = []
    total = 0
    for ruling_id, size in sizes[:RULINGS_SHOWN]:
        total += size or 0
        if ids and total > RULINGS_TEXT:
            break
        ids.append(ruling_id)
    rows = db.table("rulings").rows_where(
        f"id in ({', '.join('?' * len(ids))})", ids, order_by="id desc") if ids else []
    return [ruling_record(r) for r in rows], len(ids) < len(sizes)


def keep_ruling(db: sqlite_utils.Database, game_id: int, *, check: str, title: str,
                outcome: str, verdict: Mapping[str, Any], dispute: list[tuple[str, str]],
                submission: str | None) -> tuple[dict[str, Any], bool]:
    """Keep a verdict on the game's rulings log, in one write transaction; a form sent
    twice (the same ``submission`` key) is kept once, and its key on another ruling is a
    page out of date (:class:`OutOfDate`). Returns the ruling and whether it is new."""
    with writing(db):
        game = load_game(db, game_id)
        if game is None or game.deleted_at:
            raise NoSuchGame("There is no such game. It may have been deleted.")
        if submission:
            found = list(db.table("rulings").rows_where("submission = ?", [submission]))
            if found:
                # The same ruling sent again is kept once; its key on another ruling is a
                # page out of date, not "already kept".
                same = (found[0]["check_name"], found[0]["dispute"]) == (
                    check, json.dumps(dispute))
                if not same:
                    raise OutOfDate(OUT_OF_DATE, game_id)
                return ruling_record(found[0]), False
        rulings = db.table("rulings")
        rulings.insert({
            "game_id": game_id, "check_name": check, "title": title,
            "outcome": outcome, "verdict": json.dumps(verdict),
            "dispute": json.dumps(dispute), "submission": submission,
            "created_at": now(),
        })
        assert rulings.last_rowid is not None
        row = rulings.get(rulings.last_rowid)
    return ruling_record(row), True


def all_rulings(db: sqlite_utils.Database, game_id: int) -> list[dict[str, Any]]:
    """Every ruling kept on the game's log, oldest first, as its row's values (an export)."""
    return list(db.table("rulings").rows_where("game_id = ?", [game_id], order_by="id"))
