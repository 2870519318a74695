"""Checkpoints of a game's standings, and scoring hands on top of one.

Each game keeps checkpoints (table ``checkpoints``), written with every change and dropped
by the database when the rows they were scored from change; so loading a game, and saving
a hand, score a few hands whatever its history (docs/decisions.md)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import sqlite_utils

import engine
from engine import Standings

from ..db import writing
from .decoding import read_hands, read_setups, select_rows
from .records import GameRecord, Hand

#: Besides the latest, a checkpoint is kept every this many hands: undoing, changing a
#: recent hand or showing a page of the history scores at most this many hands again.
CHECKPOINT_EVERY = 20


#: What scored a checkpoint: one scored under another revision of the engine's scoring
#: (whose rules or point values may differ) is not used, the hands are scored again. A new
#: version of the app that leaves scoring alone keeps every game's checkpoints.
SCORED_BY = f"scoring-{engine.SCORING_REVISION}"



@dataclass(frozen=True)
class Checkpoint:
    """Where scoring starts: a stored checkpoint, or the game's start."""

    scored: Standings
    problem: str | None
    #: How many live hands it counts, and the id of the last of them (0: none).
    hands: int = 0
    last_hand: int = 0


def game_start(game: GameRecord) -> Checkpoint:
    """Where scoring starts without a checkpoint: the game's first hand (its starting scores)."""
    return Checkpoint(engine.new_standings(game.mode, len(game.players), game.target,
                                            totals=game.start_totals), None)


def _checkpoint(game: GameRecord, row: Mapping[str, Any] | None) -> Checkpoint:
    if row is None:
        return game_start(game)
    return Checkpoint(Standings.from_dict(json.loads(row["standings"])), row["problem"],
                       row["hands"], row["last_hand"] or 0)


def checkpoint_before(db: sqlite_utils.Database, game: GameRecord, number: int) -> Checkpoint:
    """The latest checkpoint counting at most ``number`` hands (else the game's start)."""
    return _checkpoint(game, next(db.table("checkpoints").rows_where(
        "game_id = ? and scored_by = ? and hands <= ?", [game.id, SCORED_BY, number],
        order_by="hands desc", limit=1), None))


def counted_before(db: sqlite_utils.Database, game: GameRecord, hand_id: int) -> tuple[int, int]:
    """How many hands the latest checkpoint before hand ``hand_id`` counts, and the id of
    the last of them (0, 0: none)."""
    row = next(db.table("checkpoints").rows_where(
        "game_id = ? and scored_by = ? and last_hand < ?", [game.id, SCORED_BY, hand_id],
        order_by="hands desc", limit=1, select="hands, last_hand"),
        {"hands": 0, "last_hand": 0})
    return int(row["hands"]), int(row["last_hand"])


def latest_checkpoints(db: sqlite_utils.Database, games: Mapping[int, GameRecord]
                        ) -> dict[int, Checkpoint]:
    """Each game's latest checkpoint (else its start)."""
    marks = ",".join("?" * len(games))
    latest = {c["game_id"]: c for c in select_rows(
        db, f"select * from checkpoints c where game_id in ({marks}) and scored_by = ? and "
        "hands = (select max(hands) from checkpoints where game_id = c.game_id and "
        "scored_by = c.scored_by)", [*games, SCORED_BY])}
    return {i: _checkpoint(g, latest.get(i)) for i, g in games.items()}


def hands_from(db: sqlite_utils.Database, game: GameRecord, start: Checkpoint,
                upto: int | None = None) -> list[Hand]:
    """The live hands after ``start`` (up to number ``upto``), numbered; its own last
    hand first, if it has one."""
    first = start.hands if start.last_hand else start.hands + 1
    hands = read_hands(db, game, "game_id = ? and deleted_at is null and id >= ?",
                        [game.id, start.last_hand],
                        limit=None if upto is None else max(0, upto - first + 1))
    return [replace(h, number=n) for n, h in enumerate(hands, first)]


def score_on(standings: Standings, hands: Iterable[Hand]) -> tuple[Standings, str | None]:
    """``standings`` after these hands, and what stops them from being scored, if anything."""
    # Score hand by hand, so a stored hand that cannot be scored (an older bug, a
    # manual edit) stops the count there instead of making the game unreadable. Each
    # hand's score is gathered apart, as engine.score_game does: linear, not quadratic.
    scores = list(standings.hands)
    problem = None
    for hand in hands:
        if hand.problem:
            problem = f"Hand {hand.number} cannot be read: {hand.problem}"
            break
        try:
            standings = engine.score_hand(replace(standings, hands=()), hand.outcome())
        except engine.ScoringError as exc:
            problem = f"Hand {hand.number} cannot be scored: {exc}"
            break
        scores += standings.hands
    return replace(standings, hands=tuple(scores)), problem


def replay(game: GameRecord, start: Checkpoint, hands: list[Hand]) -> GameRecord:
    """``game`` as ``start`` and the hands after it (:func:`hands_from`) score it."""
    new = [h for h in hands if h.number > start.hands]
    scored, problem = start.scored, start.problem
    if problem is None:
        scored, problem = score_on(scored, new)
    return replace(game, scored=scored, problem=problem, hand_count=start.hands + len(new),
                   last_hand=hands[-1] if hands else None)


def keep_checkpoints(db: sqlite_utils.Database, game_id: int) -> GameRecord | None:
    """Bring the game's checkpoints up to its hands (inside the write's transaction), and
    return the game as read for it (None: no such game, or settings that do not read): the
    game's rows are read once for both.

    The hands after its latest checkpoint are scored on top of it: after a new hand, that
    one; after a change to an older hand, those after the checkpoint before it (the
    database dropped the later ones), which get theirs again every
    :data:`CHECKPOINT_EVERY` hands. The last hand gets one too.
    """
    games = read_setups(db, select_rows(db, "select * from games where id = ?", [game_id]))
    if not games:
        return None
    game = games[game_id]
    start = latest_checkpoints(db, games)[game_id]
    hands = hands_from(db, game, start)
    scored, problem = _write_checkpoints(db, game_id, start, hands)
    # What replay() gives, from the same scoring: each hand is scored once.
    return replace(game, scored=scored, problem=problem,
                   hand_count=start.hands + sum(h.number > start.hands for h in hands),
                   last_hand=hands[-1] if hands else None)


def _write_checkpoints(db: sqlite_utils.Database, game_id: int, start: Checkpoint,
                       hands: list[Hand]) -> tuple[Standings, str | None]:
    """Write the checkpoints ``hands`` (after ``start``, as :func:`hands_from` reads them)
    call for; return the standings they lead to (each hand's score kept, as
    :func:`replay`'s) and what stops them from being scored, if anything."""
    standings, problem, last = start.scored, start.problem, None
    scores = list(standings.hands)
    for hand in hands:
        last = hand
        if hand.number == start.hands:  # the checkpoint's own last hand
            continue
        if problem is None:
            standings, problem = score_on(replace(standings, hands=()), [hand])
            scores += standings.hands
        if hand.number % CHECKPOINT_EVERY == 0:
            _write_checkpoint(db, game_id, standings, problem, last)
    scored = replace(standings, hands=tuple(scores))
    if last is None or last.number == start.hands:
        return scored, problem  # nothing after the latest checkpoint: it stands
    _write_checkpoint(db, game_id, standings, problem, last)
    # The latest and one every CHECKPOINT_EVERY hands are kept; any of another version of the app go.
    count = last.number if last else 0
    db.execute("delete from checkpoints where game_id = ? and hands != ? and "
               "(hands % ? != 0 or hands > ? or scored_by != ?)",
               [game_id, count, CHECKPOINT_EVERY, count, SCORED_BY])
    return scored, problem


def _write_checkpoint(db: sqlite_utils.Database, game_id: int, scored: Standings,
                      problem: str | None, last_hand: Hand | None) -> None:
    db.execute(
        "insert into checkpoints (game_id, hands, last_hand, standings, problem, version, "
        "scored_by) values (?, ?, ?, ?, ?, (select version from games where id = ?), ?) "
        "on conflict (game_id, hands) do update set last_hand = excluded.last_hand, "
        "standings = excluded.standings, problem = excluded.problem, "
        "version = excluded.version, scored_by = excluded.scored_by",
        [game_id, last_hand.number if last_hand else 0, last_hand.id if last_hand else None,
         json.dumps(scored.to_dict()), problem, game_id, SCORED_BY])


def stale_games(db: sqlite_utils.Database) -> list[int]:
    """Games with live hands but no checkpoint of the current scoring (an upgrade that
    changed scoring, a database of an older version)."""
    return [r[0] for r in db.execute(
        "select g.id from games g where exists (select 1 from hands h where h.game_id = g.id "
        "and h.deleted_at is null) and not exists (select 1 from checkpoints c where "
        "c.game_id = g.id and c.scored_by = ?)", [SCORED_BY])]


def catch_up(db: sqlite_utils.Database, game_ids: list[int]) -> None:
    """Checkpoint games that were read with many hands after their latest checkpoint (an
    upgrade, a bulk import), in a short write of their own: the next read, in any
    process, and the game's history pages are then light. Only a shortcut: skipped
    inside a transaction, and where the database cannot be written now (read-only,
    full, busy)."""
    if not game_ids or db.conn.in_transaction:
        return
    try:
        with writing(db):
            for game_id in game_ids:
                keep_checkpoints(db, game_id)
    except sqlite3.OperationalError:
        pass


def score_stale_games(db: sqlite_utils.Database) -> int:
    """Checkpoint every stale game (:func:`stale_games`), each in a write of its own: run
    at start-up, so an upgrade that changed scoring scores long games once, before
    serving, not on some phone's request. Returns how many games it scored."""
    stale = stale_games(db)
    for game_id in stale:
        catch_up(db, [game_id])
    return len(stale)
