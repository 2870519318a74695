"""The table's story: a game hand by hand (the score grid, the race), and the records of
the players across one phone's games.

Records are read in SQL from two small derived tables, written with every change of a
game (like the home page's listing): one row per finished game (``game_results``) and one
per seat of it (``player_results``), each figure the engine's (a hand's points, the
places, the margin). So the records page reads a few rows per game the phone keeps,
never a hand, however long the games were; and a stranger, who keeps none, reads none.
What a phone's records page shows is kept computed per version of its games
(:class:`RecordsCache`), so a phone with 1,000 games pays for them once per change.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar, cast

import sqlite_utils
from flask import current_app

import engine
from engine import HandScore, Standings

from ..db import writing
from .checkpoints import checkpoint_before, game_start, hands_from
from .decoding import snapshot
from .loading import all_hands, load_game
from .records import GameRecord, Hand

T = TypeVar("T")

#: The most players a records table lists (the phone's most frequent first): a page's
#: size stays bounded whatever the number of names a phone has seen.
RECORDS_PLAYERS = 30
#: The most names offered on the new-game form.
REGULARS_OFFERED = 20
#: Hands on one page of the score grid and its race (a game of up to this many: one page).
GRID_HANDS = 20
#: Phones whose records one process keeps computed (each at one version of its games).
CACHED_PHONES = 256


class RecordsCache:
    """Records and regulars as computed, each for one phone at one version of its games
    (``device_records``, bumped by the database on any change they are read from): a
    phone's records page costs one indexed read once computed, with 10 games or 1,000."""

    def __init__(self, size: int = CACHED_PHONES):
        self._size = size
        self._found: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, db: sqlite_utils.Database, device: str, key: tuple[Any, ...],
            compute: Callable[[], T]) -> T:
        """What ``compute`` gives for the phone's games as they are now: remembered from
        an earlier request while the phone's version has not moved."""
        row = db.execute("select version from device_records where device = ?",
                         [device]).fetchone()
        entry = (device, row[0] if row else 0, *key)
        with self._lock:
            if entry in self._found:
                self._found.move_to_end(entry)
                return cast(T, self._found[entry])
        value = compute()
        with self._lock:
            self._found[entry] = value
            while len(self._found) > self._size * 8:  # a few pages per phone
                self._found.popitem(last=False)
        return value


def remembered(db: sqlite_utils.Database, device: str | None, key: tuple[Any, ...],
               compute: Callable[[], T]) -> T:
    """``compute()`` for this phone's games, from the app's cache while they have not
    changed (a phone without a key has no games: nothing to remember)."""
    if not device:
        return compute()
    cache = current_app.extensions.setdefault("uno_records", RecordsCache())
    return cast(RecordsCache, cache).get(db, device, key, compute)


@dataclass(frozen=True)
class Story:
    """Some of a game's hands (a page, or all), each with what it scored."""

    #: Everyone's totals before the first of these hands.
    start: tuple[int, ...]
    hands: tuple[tuple[Hand, HandScore], ...]
    #: The standings after the last of these hands (its ``hands`` these hands' scores).
    standings: Standings
    #: The seat that dealt each hand, by hand number.
    dealers: dict[int, int] = field(default_factory=dict)
    #: The number of the first hand (the hands are numbered from 1 across the game).
    first: int = 1
    #: Which page of GRID_HANDS hands this is, and how many the game has.
    page: int = 1
    pages: int = 1

    def series(self, seat: int) -> list[int]:
        """The seat's running total before these hands, then after each."""
        return [self.start[seat]] + [score.totals[seat] for _, score in self.hands]


def story(db: sqlite_utils.Database, game: GameRecord, page: int | None = None) -> Story:
    """The game's hands scored by the engine, up to the first one that cannot be: one page
    of GRID_HANDS (the last page when ``page`` is past it), or every hand when ``page`` is
    None (what the results are written from, once per change of a finished game).

    A page is scored from the stored checkpoint before it, as the history is: reading one
    costs the same in the first hands of a game as in its thousandth."""
    pages = max(1, -(-game.hand_count // GRID_HANDS))
    if page is None:
        oldest, newest, start = 1, game.hand_count, game_start(game)
        hands = all_hands(db, game)
    else:
        page = min(max(page, 1), pages)
        oldest, newest = (page - 1) * GRID_HANDS + 1, min(page * GRID_HANDS, game.hand_count)
        with snapshot(db):
            start = checkpoint_before(db, game, oldest - 1)
            if start.problem:  # broken before: scored from the first hand, to say where
                start = game_start(game)
            hands = [h for h in hands_from(db, game, start, upto=newest)
                     if h.number > start.hands]
    scored = start.scored
    shown: list[tuple[Hand, HandScore]] = []
    dealers: dict[int, int] = {}
    before = scored.totals
    for hand in hands:
        if hand.problem:
            break
        dealer = scored.next_dealer(game.dealer)
        try:
            scored = engine.score_hand(replace(scored, hands=()), hand.outcome())
        except engine.ScoringError:
            break
        if hand.number < oldest:
            before = scored.totals
            continue
        dealers[hand.number] = dealer
        shown.append((hand, scored.hands[0]))
    if game.ended and not scored.finished and scored.played and newest == game.hand_count:
        scored = engine.end_game(scored)
    return Story(before, tuple(shown), replace(scored, hands=tuple(s for _, s in shown)),
                 dealers, oldest, page or 1, 1 if page is None else pages)


def biggest_hand(db: sqlite_utils.Database, game_id: int) -> tuple[int, int, int] | None:
    """A finished game's biggest hand, from its results: points, who went out, its number."""
    row = db.execute("select biggest, biggest_seat, biggest_hand from game_results where "
                     "game_id = ? and biggest is not null", [game_id]).fetchone()
    return (int(row[0]), int(row[1]), int(row[2])) if row else None


def keep_results(db: sqlite_utils.Database, game: GameRecord) -> None:
    """Write the game's results (inside the caller's transaction): its rows when it is
    finished and readable, none otherwise (in progress, deleted, broken)."""
    db.execute("delete from player_results where game_id = ?", [game.id])
    db.execute("delete from game_results where game_id = ?", [game.id])
    if not game.finished or game.deleted_at or game.problem:
        return
    told = story(db, game)
    final = told.standings
    places = {seat: place for place, seat in final.ranking()}
    biggest: tuple[int, int, int] | None = None  # points, seat, hand number
    seats: dict[int, dict[str, Any]] = {
        seat: {"game_id": game.id, "seat": seat, "name": name, "name_key": engine.name_key(name),
               "variant": game.variant.name, "won": int(seat in final.winners),
               "place": places[seat], "total": final.totals[seat], "hands_won": 0,
               "points_won": None, "biggest": None, "held_points": 0, "held_hands": 0,
               "longest_run": 0}
        for seat, name in enumerate(game.players)}
    run, last_out = 0, None
    for hand, score in told.hands:
        row = seats[hand.went_out]
        run = run + 1 if hand.went_out == last_out else 1
        last_out = hand.went_out
        row["hands_won"] += 1
        row["longest_run"] = max(row["longest_run"], run)
        value = final.hand_value(score)
        if value is not None:
            row["points_won"] = (row["points_won"] or 0) + value
            row["biggest"] = max(row["biggest"] or 0, value)
            if biggest is None or value > biggest[0]:
                biggest = (value, hand.went_out, hand.number)
            for seat, holding in hand.holdings.items():
                seats[seat]["held_points"] += holding.points
                seats[seat]["held_hands"] += 1
    db.table("player_results").insert_all(seats.values())
    db.table("game_results").insert({
        "game_id": game.id, "variant": game.variant.name, "hands": len(told.hands),
        "margin": final.margin if game.mode.uses_points else None,
        "biggest": biggest[0] if biggest else None,
        "biggest_seat": biggest[1] if biggest else None,
        "biggest_hand": biggest[2] if biggest else None,
    })


def fill_results(db: sqlite_utils.Database) -> None:
    """Write the results of the finished games stored before results were kept."""
    with writing(db):
        for (game_id,) in db.execute(
                "select id from games where in_progress = 0 and deleted_at is null and id not "
                "in (select game_id from game_results)").fetchall():
            game = load_game(db, game_id)
            if game is not None:
                keep_results(db, game)


@dataclass(frozen=True)
class PlayerRecord:
    """One player's figures over a set of finished games."""

    name: str
    games: int
    won: int
    hands_won: int
    #: Points per hand won, and points left in hand per hand lost (None: no points counted).
    per_hand_won: float | None
    biggest: int | None
    left_per_hand: float | None
    longest_run: int


@dataclass(frozen=True)
class TableRecord:
    """One of the table's records: what, in which game, by whom."""

    value: int
    game_id: int
    variant: str
    hand: int | None = None
    name: str | None = None


@dataclass(frozen=True)
class HeadToHead:
    """Two players' finished games together."""

    games: int
    first_ahead: int
    second_ahead: int
    first_won: int
    second_won: int


_MINE = ("from access join player_results r on r.game_id = access.game_id "
         "where access.device = ?")


def player_records(db: sqlite_utils.Database, device: str | None,
                   variant: str | None = None) -> list[PlayerRecord]:
    """Each player's records over ``device``'s finished games (of one variant, or all),
    the most games first."""
    if not device:
        return []
    where, args = ("and r.variant = ?", [device, variant]) if variant else ("", [device])
    rows = db.execute(
        "select max(r.name), count(*), sum(r.won), sum(r.hands_won), sum(r.points_won), "
        "sum(case when r.points_won is not null then r.hands_won end), max(r.biggest), "
        "sum(r.held_points), sum(r.held_hands), max(r.longest_run) "
        f"{_MINE} {where} group by r.name_key order by count(*) desc, sum(r.won) desc, "
        "max(r.name) limit ?", [*args, RECORDS_PLAYERS]).fetchall()
    return [PlayerRecord(name, games, won, hands_won,
                         points / point_hands if point_hands else None, biggest,
                         held / held_hands if held_hands else None, run)
            for (name, games, won, hands_won, points, point_hands, biggest, held, held_hands,
                 run) in rows]


def variants_played(db: sqlite_utils.Database, device: str | None) -> list[str]:
    """The variants of ``device``'s finished games, the most played first."""
    if not device:
        return []
    return [r[0] for r in db.execute(
        "select g.variant from access join game_results g on g.game_id = access.game_id "
        "where access.device = ? group by g.variant order by count(*) desc, g.variant",
        [device]).fetchall()]


def table_records(db: sqlite_utils.Database, device: str | None) -> dict[str, TableRecord]:
    """The table's records over ``device``'s finished games: the biggest hand, the shortest
    and the longest game (in hands), the closest finish (the smallest winning margin)."""
    if not device:
        return {}
    base = ("select {value}, g.game_id, g.variant, {hand}, {name} from access join "
            "game_results g on g.game_id = access.game_id {join} where access.device = ? "
            "and {value} is not null order by {value} {order}, g.game_id desc limit 1")
    biggest = {"hand": "g.biggest_hand", "name": "p.name",
               "join": "join players p on p.game_id = g.game_id and p.seat = g.biggest_seat"}
    plain = {"hand": "null", "name": "null", "join": ""}
    found = {}
    for key, value, order, parts in (("biggest", "g.biggest", "desc", biggest),
                                     ("shortest", "g.hands", "asc", plain),
                                     ("longest", "g.hands", "desc", plain),
                                     ("closest", "g.margin", "asc", plain)):
        row = db.execute(base.format(value=value, order=order, **parts), [device]).fetchone()
        if row:
            found[key] = TableRecord(*row)
    return found


def head_to_head(db: sqlite_utils.Database, device: str | None, first: str,
                 second: str) -> HeadToHead:
    """How ``first`` and ``second`` (names, compared as the engine compares them) fared in
    ``device``'s finished games they both played."""
    row = db.execute(
        "select count(*), sum(a.place < b.place), sum(b.place < a.place), sum(a.won), "
        "sum(b.won) from access join player_results a on a.game_id = access.game_id "
        "join player_results b on b.game_id = a.game_id and b.seat != a.seat "
        "where access.device = ? and a.name_key = ? and b.name_key = ?",
        [device or "", engine.name_key(first), engine.name_key(second)]).fetchone()
    return HeadToHead(*(int(v or 0) for v in row))


def jackpot_outcomes(db: sqlite_utils.Database,
                     device: str | None) -> dict[str, dict[engine.LeverOutcome, int]]:
    """How often the lever stopped on each outcome for each player who pulled it, over
    ``device``'s games (first cards left out): name to outcome to count."""
    if not device:
        return {}
    counts: dict[str, dict[engine.LeverOutcome, int]] = {}
    shown: dict[str, str] = {}
    for name, outcome, count in db.execute(
            "select p.name, s.outcome, count(*) from access join games on games.id = "
            "access.game_id join spins s on s.game_id = access.game_id join players p on "
            "p.game_id = s.game_id and p.seat = s.puller where access.device = ? and "
            "games.deleted_at is null and s.opening is null group by p.name, s.outcome",
            [device]).fetchall():
        key = engine.name_key(name)
        name = shown.setdefault(key, name)
        outcomes = counts.setdefault(name, dict.fromkeys(engine.LeverOutcome, 0))
        outcomes[engine.LeverOutcome(outcome)] += count
    return counts


def regulars(db: sqlite_utils.Database, device: str | None) -> list[str]:
    """The names of ``device``'s games (not deleted), the most frequent first: offered when
    the phone starts its next game."""
    if not device:
        return []
    seen: dict[str, tuple[int, int, str]] = {}
    for name, count, latest in db.execute(
            "select p.name, count(*), max(p.game_id) from access join games on games.id = "
            "access.game_id join players p on p.game_id = access.game_id where access.device "
            "= ? and games.deleted_at is null group by p.name", [device]).fetchall():
        key = engine.name_key(name)
        had = seen.get(key, (0, 0, name))
        # One spelling per player: the latest game's.
        seen[key] = (had[0] + count, max(had[1], latest), name if latest > had[1] else had[2])
    ranked = sorted(seen.values(), key=lambda v: (-v[0], -v[1]))
    return [name for _, _, name in ranked[:REGULARS_OFFERED]]
