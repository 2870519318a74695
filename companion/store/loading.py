"""Reading games and hands: a game from its latest checkpoint and the hands after it, a
hand numbered as the table counts it, a page of the history, every hand for an export."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import sqlite_utils

import engine
from engine import HandOutcome, Standings

from . import checkpoints
from .cache import GameCache
from .checkpoints import (
    catch_up,
    checkpoint_before,
    counted_before,
    game_start,
    hands_from,
    latest_checkpoints,
    replay,
    score_on,
)
from .decoding import read_hands, read_setups, snapshot
from .records import CHANGEABLE_HANDS, GameRecord, Hand

#: Hands read per query where every hand is wanted (SQLite caps a query's parameters).
HANDS_PER_READ = 500


def load_game(db: sqlite_utils.Database, game_id: int,
              cache: GameCache | None = None) -> GameRecord | None:
    """The game with this id (deleted ones included), or None (also for unreadable settings)."""
    games = load_games(db, list(db.table("games").rows_where("id = ?", [game_id])), cache)
    return games[0] if games else None


def load_games(db: sqlite_utils.Database, game_rows: list[dict[str, Any]],
                cache: GameCache | None) -> list[GameRecord]:
    """Records for these game rows, from the cache where the version matches."""
    found = {r["id"]: cache.get(r["id"], r["version"]) for r in game_rows} if cache else {}
    missing = [r["id"] for r in game_rows if found.get(r["id"]) is None]
    if missing:
        with snapshot(db):
            # Read again inside: a record is kept under the version of what it holds.
            read = _read_games(db, list(db.table("games").rows_where(
                f"id in ({','.join('?' * len(missing))})", missing)))
        for game, scored in read:
            found[game.id] = game
            if cache:
                cache.put(game)
        catch_up(db, [game.id for game, scored in read if scored > checkpoints.CHECKPOINT_EVERY])
    return [g for g in (found.get(r["id"]) for r in game_rows) if g is not None]


def _read_games(db: sqlite_utils.Database, game_rows: list[dict[str, Any]]
                ) -> list[tuple[GameRecord, int]]:
    """Records for these game rows, each with how many hands were scored to read it."""
    # A few queries whatever the number of games and hands: each game's latest
    # checkpoint and the hands after it (usually only its last hand), scored on top.
    games = read_setups(db, game_rows)
    if not games:
        return []
    starts = latest_checkpoints(db, games)
    each = "select id from hands where game_id = ? and deleted_at is null and id >= ?"
    after = " union all ".join([each] * len(games))
    hands: dict[int, list[Hand]] = {i: [] for i in games}
    for hand in read_hands(db, games, f"id in ({after})",
                            [a for i, s in starts.items() for a in (i, s.last_hand)]):
        hands[hand.game_id].append(hand)
    records = []
    for i, game in games.items():
        first = starts[i].hands if starts[i].last_hand else starts[i].hands + 1
        numbered = [replace(h, number=n) for n, h in enumerate(hands[i], first)]
        record = replay(game, starts[i], numbered)
        records.append((record, record.hand_count - starts[i].hands))
    return records


def load_hand(db: sqlite_utils.Database, game: GameRecord, hand_id: int) -> Hand | None:
    """The live hand with this id, numbered as the table counts it."""
    with snapshot(db):
        hands = read_hands(db, game, "id = ? and game_id = ? and deleted_at is null",
                            [hand_id, game.id])
        if not hands:
            return None
        # Counted from the latest checkpoint before it, not from the first hand.
        counted, last_hand = counted_before(db, game, hand_id)
        row = db.execute("select count(*) from hands where game_id = ? and deleted_at is null "
                         "and id > ? and id < ?", [game.id, last_hand, hand_id]).fetchone()
    return replace(hands[0], number=counted + int(row[0]) + 1)


def hand_numbered(db: sqlite_utils.Database, game: GameRecord, number: int) -> Hand | None:
    """The live hand with this number, if the game has that many."""
    rows = db.execute("select id from hands where game_id = ? and deleted_at is null "
                      "order by id limit 1 offset ?", [game.id, number - 1]).fetchall()
    return load_hand(db, game, rows[0][0]) if rows and number >= 1 else None


def before(db: sqlite_utils.Database, game: GameRecord, hand: Hand | None) -> GameRecord:
    """The game as it stood when ``hand`` was played (who was still in); a new hand: itself."""
    if hand is None:
        return game
    with snapshot(db):
        start = checkpoint_before(db, game, hand.number - 1)
        return replay(game, start, hands_from(db, game, start, upto=hand.number - 1))


def score_with(db: sqlite_utils.Database, game: GameRecord, hand: Hand | None,
               outcome: HandOutcome) -> Standings:
    """The standings if ``hand`` (None: a new hand) were ``outcome``; ScoringError if not."""
    if hand is None and not game.problem:
        return engine.score_hand(game.scored, outcome)  # one more hand: no rescoring
    number = hand.number if hand else game.hand_count + 1
    with snapshot(db):
        start = checkpoint_before(db, game, number - 1)
        if start.problem:  # broken before: the hands say why, as they are scored again
            start = game_start(game)
        outcomes = [outcome if h.number == number else h.outcome()
                    for h in hands_from(db, game, start) if h.number > start.hands]
    if hand is None:
        outcomes.append(outcome)
    return engine.score_hands(start.scored, outcomes)


def all_hands(db: sqlite_utils.Database, game: GameRecord) -> list[Hand]:
    """Every live hand, oldest first, numbered: for an export, whose size is the game's."""
    hands: list[Hand] = []
    with snapshot(db):
        while True:
            after = hands[-1].id if hands else 0
            chunk = read_hands(db, game, "game_id = ? and deleted_at is null and id > ?",
                                [game.id, after], limit=HANDS_PER_READ)
            hands += chunk
            if len(chunk) < HANDS_PER_READ:
                break
    return [replace(h, number=n) for n, h in enumerate(hands, 1)]


def history_page(db: sqlite_utils.Database, game: GameRecord, page: int,
                 size: int) -> list[tuple[Hand, engine.HandScore | None]]:
    """One page of the live hands, newest first, each with what it scored (None: not
    scored, the history being broken at or before it)."""
    newest = game.hand_count - (page - 1) * size
    oldest = max(1, newest - size + 1)
    if newest < 1:
        return []
    # What a hand scored depends on the hands before it (who was still in): scored from
    # the checkpoint before the page, not from the first hand.
    with snapshot(db):
        start = checkpoint_before(db, game, oldest - 1)
        hands = [h for h in hands_from(db, game, start, upto=newest) if h.number > start.hands]
    scored = None if start.problem else score_on(start.scored, hands)[0]
    return [(h, scored.score_of(h.number) if scored else None)
            for h in reversed(hands) if h.number >= oldest]


#: The most taken-back hands the history lists (the newest).
REMOVED_LISTED = 5


def removed_hands(db: sqlite_utils.Database, game: GameRecord) -> list[Hand]:
    """The game's latest deleted hands that can still be put back, newest deletion first,
    each numbered as it would be again."""
    found = []
    with snapshot(db):
        rows = db.execute("select id from hands where game_id = ? and deleted_at is not null "
                          "order by deleted_at desc, id desc limit ?",
                          [game.id, REMOVED_LISTED]).fetchall()
        for (hand_id,) in rows:
            before = db.execute("select count(*) from hands where game_id = ? and "
                                "deleted_at is null and id < ?", [game.id, hand_id]).fetchone()[0]
            if game.problem is None and game.hand_count - before >= CHANGEABLE_HANDS:
                continue  # too far back to be put back (store.set_hand_deleted refuses it)
            hand = read_hands(db, game, "id = ?", [hand_id])[0]
            found.append(replace(hand, number=before + 1))
    return found


def deleted_hand_id(db: sqlite_utils.Database, game: GameRecord, hand_id: int | None) -> int | None:
    """``hand_id`` if it is one of this game's deleted hands (so it can be restored), else None."""
    if not hand_id:
        return None
    rows = db.table("hands").rows_where("id = ? and game_id = ? and deleted_at is not null",
                                  [hand_id, game.id], select="id")
    return next((int(r["id"]) for r in rows), None)
