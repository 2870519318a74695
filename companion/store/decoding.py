"""Rows read into records: a game's settings and seats, its hands and their holdings, all
read in one snapshot; the shared low-level helpers of the store's modules."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

import sqlite_utils

import engine
from engine import Card, ScoringMode, TableOptions

from ..db import transaction
from .records import GameRecord, Hand, Holding


def select_rows(db: sqlite_utils.Database, sql: str, args: list[Any]) -> list[dict[str, Any]]:
    """The rows a select finds, as dicts: straight through the connection, without the
    table look-ups and savepoint sqlite-utils adds around each of its reads."""
    cursor = db.execute(sql, args)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


@contextmanager
def snapshot(db: sqlite_utils.Database) -> Iterator[None]:
    """Read in one transaction (unless one is open): a game's row, its checkpoint and
    its hands then all come from the same committed state."""
    if db.conn.in_transaction:
        yield
        return
    with transaction(db):
        yield


def read_setups(db: sqlite_utils.Database, game_rows: list[dict[str, Any]]) -> dict[int, GameRecord]:
    """The games these rows are, with their seats, before any hand is scored."""
    settings = {r["id"]: read for r in game_rows if (read := _settings(r)) is not None}
    rows = [r for r in game_rows if r["id"] in settings]
    if not rows:
        return {}
    ids = [r["id"] for r in rows]
    marks = ",".join("?" * len(ids))
    players: dict[int, list[str]] = {i: [] for i in ids}
    for p in select_rows(
            db, f"select * from players where game_id in ({marks}) order by game_id, seat", ids):
        players[p["game_id"]].append(p["name"])
    games: dict[int, GameRecord] = {}
    for r in rows:
        try:
            games[r["id"]] = _record(r, settings[r["id"]], tuple(players[r["id"]]))
        except engine.ScoringError:  # settings the engine refuses (a manual edit): left out
            continue
    return games


def _record(row: dict[str, Any], settings: tuple[type[engine.Game], ScoringMode, TableOptions],
            players: tuple[str, ...]) -> GameRecord:
    """A game as its row says, before any hand is scored."""
    variant, mode, options = settings
    start = _start_totals(row)
    return GameRecord(
        id=row["id"], variant=variant, mode=mode, target=row["target"], options=options,
        players=players, dealer=row["dealer"], play_on=bool(row["play_on"]),
        ended_at=row["ended_at"], created_at=row["created_at"], deleted_at=row["deleted_at"],
        rematch_of=row["rematch_of"], version=row["version"], start_totals=start,
        updated_at=row.get("updated_at"),
        scored=engine.new_standings(mode, len(players), row["target"], totals=start))


def read_hands(db: sqlite_utils.Database, games: Mapping[int, GameRecord] | GameRecord,
                where: str, args: list[Any], limit: int | None = None) -> list[Hand]:
    """The hands these rows are, in order (numbered 0: the caller counts), with what was held."""
    hand_rows = list(select_rows(db, f"select * from hands where {where} order by id"
                              + ("" if limit is None else f" limit {int(limit)}"), args))
    holdings: dict[int, list[dict[str, Any]]] = {h["id"]: [] for h in hand_rows}
    if hand_rows:
        marks = ",".join("?" * len(hand_rows))
        for row in select_rows(
                db, f"select * from holdings where hand_id in ({marks}) order by seat",
                list(holdings)):
            holdings[row["hand_id"]].append(row)
    hands = []
    for h in hand_rows:
        game = games if isinstance(games, GameRecord) else games[h["game_id"]]
        held: dict[int, Holding] = {}
        problem = None
        for row in holdings[h["id"]]:
            try:
                held[row["seat"]] = _holding(row, game.variant, game.options)
            except (engine.CardError, ValueError) as exc:
                problem = f"the cards stored for seat {row['seat'] + 1} are not cards ({exc})"
        hands.append(Hand(h["id"], 0, h["went_out"], held, h["created_at"], problem,
                          game_id=h["game_id"]))
    return hands


def _settings(row: dict[str, Any]) -> tuple[type[engine.Game], ScoringMode, TableOptions] | None:
    # A game whose settings no longer read (a manual edit) is left out rather than
    # breaking every page that lists games.
    try:
        _start_totals(row)
        return (engine.find_variant(row["variant"]), ScoringMode(row["mode"]),
                TableOptions.from_dict(json.loads(row["options"])))
    except (ValueError, TypeError, KeyError):
        return None


def _start_totals(row: dict[str, Any]) -> tuple[int, ...] | None:
    if not row.get("start_totals"):
        return None
    return tuple(int(t) for t in json.loads(row["start_totals"]))


def _holding(row: dict[str, Any], variant: type[engine.Game], options: TableOptions) -> Holding:
    if row["typed"]:
        return Holding(row["seat"], (), row["points"], True)
    cards, points = _read_cards(row["cards"], variant.name, options)
    return Holding(row["seat"], cards, points, False)


@lru_cache(maxsize=4096)
def _read_cards(text: str, variant_name: str, options: TableOptions
                ) -> tuple[tuple[Card, ...], int]:
    """Stored cards and their points. Entered cards are the truth: they are scored again
    when read, so a points fix reaches old hands; remembered, because a long game's
    rescoring (a change, a page of history) reads the same few hands again and again."""
    cards = tuple(engine.parse_cards(text))
    variant = engine.find_variant(variant_name)
    return cards, variant.hand_points(cards, options) if variant.has_points() else 0


def inserted_id(table: sqlite_utils.db.Table) -> int:
    """The row id of what ``table`` just inserted."""
    assert table.last_rowid is not None
    return table.last_rowid
