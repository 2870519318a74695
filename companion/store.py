"""Games and hands as rows: reading them into records and writing them atomically.

Standings are derived from the hands by the engine's scoring layer, so an edit or a
deletion anywhere in the history is simply a change of rows. Each game keeps a
checkpoint of them, written with every change (a new hand: one hand scored on top;
anything else: the hands rescored) and dropped by the database when the rows it was
scored from change; so loading a game, and saving a hand, read a few rows whatever
its history (docs/decisions.md).

Every write happens inside :func:`changing` (or :func:`create_game`): one
``BEGIN IMMEDIATE`` transaction that loads the game as it is now, refuses a form
made from an older version of it or already submitted, and lets the caller decide
and write against that fresh state. Each change bumps the game's version.
"""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from functools import cached_property
from importlib import metadata
from typing import Any

import sqlite_utils

import engine
from engine import Card, HandOutcome, ScoringMode, Standings, TableOptions

from . import access
from .db import writing

#: Drafts are a convenience: one not touched for this long is forgotten.
DRAFT_DAYS = 30
#: The most a draft may hold (the largest real picker, 10 players, sends about 15 KB).
MAX_DRAFT_BYTES = 32_000
#: A spent one-time key is kept this long: a form sent again later is no double tap,
#: no retry and no Back-and-resend, so nothing remains to refuse it for.
SUBMISSION_DAYS = 30
#: The most old keys each write forgets on the way: its cost stays small and fixed, and
#: a database that gathered many (an update, a long pause) is emptied over a few writes.
SUBMISSIONS_FORGOTTEN = 20
#: Another phone's draft touched this recently means that phone is entering that hand.
ENTERING_MINUTES = 30


class ConflictError(ValueError):
    """A write that the game's state does not allow (finished game, duplicate form...).

    ``game_id`` names the game whose fresh state should be shown beside the message.
    """

    def __init__(self, message: str, game_id: int | None = None):
        super().__init__(message)
        self.game_id = game_id


class StaleError(ConflictError):
    """The form was made from an older version of the game: someone changed it meanwhile."""


class AlreadySaved(ConflictError):
    """The very same form was submitted before (a double tap, Back and resend, a retry)."""


class OutOfDate(ConflictError):
    """A spent one-time key came back with something else in its form: a page kept by the
    browser (Back, a cache) used again for a new change. Never a replay, never "saved"."""


#: What a page out of date is told (the page shown with it carries fresh keys).
OUT_OF_DATE = ("This page was already used for another change, so nothing was saved now. "
               "Here it is again, up to date: tap again.")


def digest(fields: Iterable[tuple[str, Any]]) -> str:
    """A short fingerprint of a form's meaningful fields (order and blanks do not count)."""
    kept = sorted((str(k), str(v)) for k, v in fields if str(v) != "")
    return hashlib.sha256(json.dumps(kept).encode()).hexdigest()[:32]


class NoSuchGame(LookupError):
    """No game (or no live hand) with that id."""


def now() -> str:
    """Timestamp stored in rows (UTC, ISO 8601)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Holding:
    """What one opponent was caught holding: the cards, or a typed total."""

    seat: int
    cards: tuple[Card, ...]
    points: int
    typed: bool


@dataclass(frozen=True)
class Hand:
    """One recorded hand."""

    id: int
    number: int
    went_out: int
    holdings: dict[int, Holding]
    created_at: str
    #: Why the stored hand cannot be read as entered (a manual edit, an older bug), if so.
    problem: str | None = None
    game_id: int = 0

    def outcome(self) -> HandOutcome:
        """The hand as the scoring layer reads it."""
        return HandOutcome(self.went_out, {s: h.points for s, h in self.holdings.items()})


@dataclass(frozen=True, kw_only=True)
class GameSetup:
    """What a table chooses before the first hand: a new-game form, checked."""

    variant: type[engine.Game]
    mode: ScoringMode
    target: int | None
    options: TableOptions
    players: tuple[str, ...]
    dealer: int
    #: Each seat's score when the game was taken over from a score sheet; None from zero.
    start_totals: tuple[int, ...] | None = None


@dataclass(frozen=True, kw_only=True)
class GameRecord(GameSetup):
    """A game with its seats and standings, as stored: its hands are read apart, only
    those a page shows (:func:`load_hand`, :func:`history_page`)."""

    id: int
    play_on: bool
    ended_at: str | None
    created_at: str
    deleted_at: str | None
    rematch_of: int | None
    #: Bumped by every change; a form names the version it was made from.
    version: int = 0
    #: The standings of the live hands as scored (an ended tally's winners aside), up to
    #: the first hand that cannot be scored.
    scored: Standings
    #: What stops the history from being scored, if anything: the table must fix it first.
    problem: str | None = None
    #: How many live hands the game has, and the latest (the one "undo" takes back).
    hand_count: int = 0
    last_hand: Hand | None = None

    @property
    def standings(self) -> Standings:
        """Totals, eliminations and winners of the hands (up to a broken one)."""
        if self.ended and not self.problem and not self.scored.finished:
            return engine.end_game(self.scored)
        return self.scored

    @property
    def ended(self) -> bool:
        """True when the table ended an open tally (and it still has hands to decide it)."""
        return self.ended_at is not None and self.hand_count > 0

    @property
    def finished(self) -> bool:
        """True once the game has its winner."""
        return self.standings.finished

    @property
    def accepts_hands(self) -> bool:
        """False once the game is over, unless the table chose to play on."""
        if self.deleted_at or self.ended or self.problem:
            return False
        if not self.finished:
            return True
        return self.play_on and self.mode.plays_on

    @property
    def can_play_on(self) -> bool:
        """True when a finished game may go on past its target (the sheets' "play again")."""
        return (self.finished and not self.play_on and not self.ended and not self.problem
                and self.mode.plays_on)

    @cached_property
    def next_dealer(self) -> int:
        """Seat dealing the next hand (the engine's rule: clockwise, skipping the eliminated)."""
        return self.standings.next_dealer(self.dealer)


#: Besides the latest, a checkpoint is kept every this many hands: undoing, changing a
#: recent hand or showing a page of the history scores at most this many hands again.
CHECKPOINT_EVERY = 20


@dataclass(frozen=True)
class _Checkpoint:
    """Where scoring starts: a stored checkpoint, or the game's start."""

    scored: Standings
    problem: str | None
    #: How many live hands it counts, and the id of the last of them (0: none).
    hands: int = 0
    last_hand: int = 0


def _start(game: GameRecord) -> _Checkpoint:
    return _Checkpoint(engine.new_standings(game.mode, len(game.players), game.target,
                                            totals=game.start_totals), None)


def _checkpoint(game: GameRecord, row: Mapping[str, Any] | None) -> _Checkpoint:
    if row is None:
        return _start(game)
    return _Checkpoint(Standings.from_dict(json.loads(row["standings"])), row["problem"],
                       row["hands"], row["last_hand"] or 0)


def _checkpoint_before(db: sqlite_utils.Database, game: GameRecord, number: int) -> _Checkpoint:
    """The latest checkpoint counting at most ``number`` hands (else the game's start)."""
    return _checkpoint(game, next(db.table("checkpoints").rows_where(
        "game_id = ? and scored_by = ? and hands <= ?", [game.id, SCORED_BY, number],
        order_by="hands desc", limit=1), None))


def _hands_from(db: sqlite_utils.Database, game: GameRecord, start: _Checkpoint,
                upto: int | None = None) -> list[Hand]:
    """The live hands after ``start`` (up to number ``upto``), numbered; its own last
    hand first, if it has one."""
    first = start.hands if start.last_hand else start.hands + 1
    hands = _read_hands(db, game, "game_id = ? and deleted_at is null and id >= ?",
                        [game.id, start.last_hand],
                        limit=None if upto is None else max(0, upto - first + 1))
    return [replace(h, number=n) for n, h in enumerate(hands, first)]


def _score_on(standings: Standings, hands: Iterable[Hand]) -> tuple[Standings, str | None]:
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


def _replay(game: GameRecord, start: _Checkpoint, hands: list[Hand]) -> GameRecord:
    """``game`` as ``start`` and the hands after it (:func:`_hands_from`) score it."""
    new = [h for h in hands if h.number > start.hands]
    scored, problem = start.scored, start.problem
    if problem is None:
        scored, problem = _score_on(scored, new)
    return replace(game, scored=scored, problem=problem, hand_count=start.hands + len(new),
                   last_hand=hands[-1] if hands else None)


def load_hand(db: sqlite_utils.Database, game: GameRecord, hand_id: int) -> Hand | None:
    """The live hand with this id, numbered as the table counts it."""
    with _snapshot(db):
        hands = _read_hands(db, game, "id = ? and game_id = ? and deleted_at is null",
                            [hand_id, game.id])
        if not hands:
            return None
        # Counted from the latest checkpoint before it, not from the first hand.
        start = next(db.table("checkpoints").rows_where(
            "game_id = ? and scored_by = ? and last_hand < ?", [game.id, SCORED_BY, hand_id],
            order_by="hands desc", limit=1, select="hands, last_hand"),
            {"hands": 0, "last_hand": 0})
        row = db.execute("select count(*) from hands where game_id = ? and deleted_at is null "
                         "and id > ? and id < ?", [game.id, start["last_hand"], hand_id]
                         ).fetchone()
    return replace(hands[0], number=start["hands"] + int(row[0]) + 1)


def hand_numbered(db: sqlite_utils.Database, game: GameRecord, number: int) -> Hand | None:
    """The live hand with this number, if the game has that many."""
    rows = db.execute("select id from hands where game_id = ? and deleted_at is null "
                      "order by id limit 1 offset ?", [game.id, number - 1]).fetchall()
    return load_hand(db, game, rows[0][0]) if rows and number >= 1 else None


def before(db: sqlite_utils.Database, game: GameRecord, hand: Hand | None) -> GameRecord:
    """The game as it stood when ``hand`` was played (who was still in); a new hand: itself."""
    if hand is None:
        return game
    with _snapshot(db):
        start = _checkpoint_before(db, game, hand.number - 1)
        return _replay(game, start, _hands_from(db, game, start, upto=hand.number - 1))


def score_with(db: sqlite_utils.Database, game: GameRecord, hand: Hand | None,
               outcome: HandOutcome) -> Standings:
    """The standings if ``hand`` (None: a new hand) were ``outcome``; ScoringError if not."""
    if hand is None and not game.problem:
        return engine.score_hand(game.scored, outcome)  # one more hand: no rescoring
    number = hand.number if hand else game.hand_count + 1
    with _snapshot(db):
        start = _checkpoint_before(db, game, number - 1)
        if start.problem:  # broken before: the hands say why, as they are scored again
            start = _start(game)
        outcomes = [outcome if h.number == number else h.outcome()
                    for h in _hands_from(db, game, start) if h.number > start.hands]
    if hand is None:
        outcomes.append(outcome)
    return engine.score_hands(start.scored, outcomes)


#: Hands read per query where every hand is wanted (SQLite caps a query's parameters).
HANDS_PER_READ = 500


def all_hands(db: sqlite_utils.Database, game: GameRecord) -> list[Hand]:
    """Every live hand, oldest first, numbered: for an export, whose size is the game's."""
    hands: list[Hand] = []
    with _snapshot(db):
        while True:
            after = hands[-1].id if hands else 0
            chunk = _read_hands(db, game, "game_id = ? and deleted_at is null and id > ?",
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
    with _snapshot(db):
        start = _checkpoint_before(db, game, oldest - 1)
        hands = [h for h in _hands_from(db, game, start, upto=newest) if h.number > start.hands]
    scored = None if start.problem else _score_on(start.scored, hands)[0]
    return [(h, scored.score_of(h.number) if scored else None)
            for h in reversed(hands) if h.number >= oldest]



# -- reading -------------------------------------------------------------


class GameCache:
    """Games as last loaded, each valid for one version of its game.

    Every change bumps a game's version, so an entry is used only while the stored
    game is exactly what it was loaded from: a game's pages then cost the same
    whatever its history.
    """

    def __init__(self, size: int = 128):
        self._size = size
        self._games: OrderedDict[int, GameRecord] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: int, version: int) -> GameRecord | None:
        """The game at this version, if it was loaded (or written) by this process."""
        with self._lock:
            game = self._games.get(game_id)
            if game is None or game.version != version:
                return None
            self._games.move_to_end(game_id)
            return game

    def put(self, game: GameRecord) -> None:
        """Keep ``game`` (as read from a committed state), forgetting the least used."""
        with self._lock:
            self._games[game.id] = game
            self._games.move_to_end(game.id)
            while len(self._games) > self._size:
                self._games.popitem(last=False)


#: Games listed per page on the home page.
PAGE_SIZE = 20


def load_game(db: sqlite_utils.Database, game_id: int,
              cache: GameCache | None = None) -> GameRecord | None:
    """The game with this id (deleted ones included), or None (also for unreadable settings)."""
    games = _load_games(db, list(db.table("games").rows_where("id = ?", [game_id])), cache)
    return games[0] if games else None


def list_games(db: sqlite_utils.Database, device: str | None, *, in_progress: bool,
               page: int = 1, cache: GameCache | None = None) -> tuple[list[GameRecord], bool]:
    """One page of the games not deleted that ``device`` was given, newest first: those in
    progress (or needing a fix) or the finished ones; and whether more follow this page."""
    rows = access.listed_game_rows(db, device, in_progress=in_progress, limit=PAGE_SIZE + 1,
                                   offset=(page - 1) * PAGE_SIZE)
    return _load_games(db, rows[:PAGE_SIZE], cache), len(rows) > PAGE_SIZE


def _load_games(db: sqlite_utils.Database, game_rows: list[dict[str, Any]],
                cache: GameCache | None) -> list[GameRecord]:
    """Records for these game rows, from the cache where the version matches."""
    found = {r["id"]: cache.get(r["id"], r["version"]) for r in game_rows} if cache else {}
    missing = [r["id"] for r in game_rows if found.get(r["id"]) is None]
    if missing:
        with _snapshot(db):
            # Read again inside: a record is kept under the version of what it holds.
            read = _read_games(db, list(db.table("games").rows_where(
                f"id in ({','.join('?' * len(missing))})", missing)))
        for game, scored in read:
            found[game.id] = game
            if cache:
                cache.put(game)
        _catch_up(db, [game.id for game, scored in read if scored > CHECKPOINT_EVERY])
    return [g for g in (found.get(r["id"]) for r in game_rows) if g is not None]


@contextmanager
def _snapshot(db: sqlite_utils.Database) -> Iterator[None]:
    """Read in one transaction (unless one is open): a game's row, its checkpoint and
    its hands then all come from the same committed state."""
    if db.conn.in_transaction:
        yield
        return
    db.execute("BEGIN")
    try:
        yield
    except BaseException:
        if db.conn.in_transaction:
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _scored_by() -> str:
    """What scores a checkpoint: one scored by another version of the app (whose rules
    or point values may differ) is not used, the hands are scored again."""
    try:
        return metadata.version("uno-companion")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown"


SCORED_BY = _scored_by()


def _catch_up(db: sqlite_utils.Database, game_ids: list[int]) -> None:
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
                _keep_checkpoints(db, game_id)
    except sqlite3.OperationalError:
        pass


def _read_games(db: sqlite_utils.Database, game_rows: list[dict[str, Any]]
                ) -> list[tuple[GameRecord, int]]:
    """Records for these game rows, each with how many hands were scored to read it."""
    # A few queries whatever the number of games and hands: each game's latest
    # checkpoint and the hands after it (usually only its last hand), scored on top.
    games = _setups(db, game_rows)
    if not games:
        return []
    starts = _latest_checkpoints(db, games)
    each = "select id from hands where game_id = ? and deleted_at is null and id >= ?"
    after = " union all ".join([each] * len(games))
    hands: dict[int, list[Hand]] = {i: [] for i in games}
    for hand in _read_hands(db, games, f"id in ({after})",
                            [a for i, s in starts.items() for a in (i, s.last_hand)]):
        hands[hand.game_id].append(hand)
    records = []
    for i, game in games.items():
        first = starts[i].hands if starts[i].last_hand else starts[i].hands + 1
        numbered = [replace(h, number=n) for n, h in enumerate(hands[i], first)]
        record = _replay(game, starts[i], numbered)
        records.append((record, record.hand_count - starts[i].hands))
    return records


def _setups(db: sqlite_utils.Database, game_rows: list[dict[str, Any]]) -> dict[int, GameRecord]:
    """The games these rows are, with their seats, before any hand is scored."""
    settings = {r["id"]: read for r in game_rows if (read := _settings(r)) is not None}
    rows = [r for r in game_rows if r["id"] in settings]
    if not rows:
        return {}
    ids = [r["id"] for r in rows]
    marks = ",".join("?" * len(ids))
    players: dict[int, list[str]] = {i: [] for i in ids}
    for p in db.table("players").rows_where(f"game_id in ({marks})", ids, order_by="game_id, seat"):
        players[p["game_id"]].append(p["name"])
    games: dict[int, GameRecord] = {}
    for r in rows:
        try:
            games[r["id"]] = _record(r, settings[r["id"]], tuple(players[r["id"]]))
        except engine.ScoringError:  # settings the engine refuses (a manual edit): left out
            continue
    return games


def _latest_checkpoints(db: sqlite_utils.Database, games: Mapping[int, GameRecord]
                        ) -> dict[int, _Checkpoint]:
    """Each game's latest checkpoint (else its start)."""
    marks = ",".join("?" * len(games))
    latest = {c["game_id"]: c for c in db.query(
        f"select * from checkpoints c where game_id in ({marks}) and scored_by = ? and "
        "hands = (select max(hands) from checkpoints where game_id = c.game_id and "
        "scored_by = c.scored_by)", [*games, SCORED_BY])}
    return {i: _checkpoint(g, latest.get(i)) for i, g in games.items()}


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
        scored=engine.new_standings(mode, len(players), row["target"], totals=start))


def _read_hands(db: sqlite_utils.Database, games: Mapping[int, GameRecord] | GameRecord,
                where: str, args: list[Any], limit: int | None = None) -> list[Hand]:
    """The hands these rows are, in order (numbered 0: the caller counts), with what was held."""
    hand_rows = list(db.table("hands").rows_where(where, args, order_by="id", limit=limit))
    holdings: dict[int, list[dict[str, Any]]] = {h["id"]: [] for h in hand_rows}
    if hand_rows:
        marks = ",".join("?" * len(hand_rows))
        for row in db.table("holdings").rows_where(f"hand_id in ({marks})", list(holdings),
                                                   order_by="seat"):
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
    # Entered cards are the truth: rescore them, so a points fix reaches old hands.
    cards = tuple(engine.parse_cards(row["cards"]))
    points = variant.hand_points(cards, options) if variant.has_points() else 0
    return Holding(row["seat"], cards, points, False)


def deleted_hand_id(db: sqlite_utils.Database, game: GameRecord, hand_id: int | None) -> int | None:
    """``hand_id`` if it is one of this game's deleted hands (so it can be restored), else None."""
    if not hand_id:
        return None
    rows = db.table("hands").rows_where("id = ? and game_id = ? and deleted_at is not null",
                                  [hand_id, game.id], select="id")
    return next((int(r["id"]) for r in rows), None)


# -- writing -------------------------------------------------------------


@contextmanager
def changing(db: sqlite_utils.Database, game_id: int, *, version: int | None = None,
             submission: str | None = None, digest: str | None = None,
             allow_deleted: bool = False,
             cache: GameCache | None = None) -> Iterator[GameRecord]:
    """Open a write transaction on one game and yield the game as it is now.

    Refused, before anything is written, when ``submission`` (a form's one-time key)
    was used already (:func:`check_unspent`: the same form again, or a page out of date
    when its ``digest`` differs), or when ``version`` is not the game's version: the form was made
    from a state of the game that another phone has changed since. Whatever the
    caller writes inside is decided on this fresh game, and commits with the key spent
    and the game's derived state brought up to date: where the home page lists it (in
    progress or finished) and the checkpoints of its standings.
    """
    changed: GameRecord | None = None
    with writing(db):
        check_unspent(db, submission, digest, game_id, "Already saved. This form was already "
                      "submitted: nothing was saved twice. Here is the game as it is now.")
        # Checkpointed first (nothing to do unless some hands are not), so that a game
        # whose checkpoints went (an upgrade, a manual fix) is scored once, not twice.
        _keep_checkpoints(db, game_id)
        game = load_game(db, game_id, cache)
        if game is None or (game.deleted_at and not allow_deleted):
            raise NoSuchGame("There is no such game. It may have been deleted.")
        if version is not None and version != game.version:
            raise StaleError("This game was changed on another phone since this page was "
                             "opened, so nothing was saved. Here it is as it is now.", game_id)
        yield game
        _spend(db, submission, digest)
        row = db.execute("select version from games where id = ?", [game_id]).fetchone()
        if row[0] != game.version:
            _keep_checkpoints(db, game_id)
            changed = load_game(db, game_id)  # read from the checkpoint just written
            if changed is not None:
                _list_as(db, changed)
    # Only a committed state may be cached: a rolled-back one would be served later.
    if cache and changed is not None:
        cache.put(changed)


def fill_listing_state(db: sqlite_utils.Database) -> None:
    """Work out where the home page lists each game stored before that was kept."""
    with writing(db):
        for row in list(db.table("games").rows_where("in_progress is null", select="id")):
            game = load_game(db, row["id"])
            db.table("games").update(row["id"], {"in_progress": int(
                game is None or game.accepts_hands or game.problem is not None)})


def _keep_checkpoints(db: sqlite_utils.Database, game_id: int) -> None:
    """Bring the game's checkpoints up to its hands (inside the write's transaction).

    The hands after its latest checkpoint are scored on top of it: after a new hand, that
    one; after a change to an older hand, those after the checkpoint before it (the
    database dropped the later ones), which get theirs again every
    :data:`CHECKPOINT_EVERY` hands. The last hand gets one too.
    """
    games = _setups(db, list(db.table("games").rows_where("id = ?", [game_id])))
    if not games:
        return
    game = games[game_id]
    start = _latest_checkpoints(db, games)[game_id]
    standings, problem, last = start.scored, start.problem, None
    for hand in _hands_from(db, game, start):
        last = hand
        if hand.number == start.hands:  # the checkpoint's own last hand
            continue
        if problem is None:
            standings, problem = _score_on(replace(standings, hands=()), [hand])
        if hand.number % CHECKPOINT_EVERY == 0:
            _write_checkpoint(db, game_id, standings, problem, last)
    if last is None or last.number == start.hands:
        return  # nothing after the latest checkpoint: it stands
    _write_checkpoint(db, game_id, standings, problem, last)
    # The latest and one every CHECKPOINT_EVERY hands are kept; any of another version of the app go.
    count = last.number if last else 0
    db.execute("delete from checkpoints where game_id = ? and hands != ? and "
               "(hands % ? != 0 or hands > ? or scored_by != ?)",
               [game_id, count, CHECKPOINT_EVERY, count, SCORED_BY])


def _write_checkpoint(db: sqlite_utils.Database, game_id: int, scored: Standings,
                      problem: str | None, last_hand: Hand | None) -> None:
    version = db.execute("select version from games where id = ?", [game_id]).fetchone()[0]
    db.table("checkpoints").upsert({
        "game_id": game_id, "hands": last_hand.number if last_hand else 0,
        "last_hand": last_hand.id if last_hand else None, "standings": json.dumps(
            scored.to_dict()), "problem": problem, "version": version, "scored_by": SCORED_BY},
        pk=("game_id", "hands"))


def _list_as(db: sqlite_utils.Database, game: GameRecord) -> None:
    """Store where the home page lists the game (derived: written with every change)."""
    in_progress = int(game.accepts_hands or game.problem is not None)
    db.table("games").update(game.id, {"in_progress": in_progress})


def create_game(db: sqlite_utils.Database, setup: GameSetup,
                submission: str | None = None, keeper: str | None = None,
                digest: str | None = None) -> int:
    """Store a new game and its seats in one transaction, ``keeper`` (a device) its
    scorekeeper; return its id. ``digest``: what the form said (see :func:`check_unspent`)."""
    with writing(db):
        check_unspent(db, submission, digest, None, "Already saved. This form was already "
                      "submitted: nothing was saved twice. Your game is on the home page.")
        game_id = _insert_game(db, setup, keeper=keeper)
        _spend(db, submission, digest)
    return game_id


def create_rematch(db: sqlite_utils.Database, game_id: int, submission: str | None,
                   cache: GameCache | None = None, keeper: str | None = None) -> int:
    """A new game with the same seats and settings, ``keeper`` (a device) its scorekeeper;
    the deal moves on one seat."""
    # The form says nothing but its game: a key spent on another game's rematch is out of date.
    with changing(db, game_id, submission=submission, digest=digest([("rematch", game_id)]),
                  cache=cache) as game:
        if not game.finished:
            raise ConflictError("A rematch is offered once this game has its winner.", game.id)
        again = GameSetup(variant=game.variant, mode=game.mode, target=game.target,
                          options=game.options, players=game.players,
                          dealer=(game.dealer + 1) % len(game.players))
        return _insert_game(db, again, rematch_of=game.id, keeper=keeper)


def rematch_of(db: sqlite_utils.Database, game_id: int) -> int | None:
    """The newest game started as a rematch of this one (not deleted), if any."""
    row = db.execute("select id from games where rematch_of = ? and deleted_at is null "
                     "order by id desc limit 1", [game_id]).fetchone()
    return int(row[0]) if row else None


def _insert_game(db: sqlite_utils.Database, setup: GameSetup, rematch_of: int | None = None,
                 keeper: str | None = None) -> int:
    stamp = now()
    start = setup.start_totals
    game_id = _inserted(db.table("games").insert({
        "variant": setup.variant.name, "mode": setup.mode.value, "target": setup.target,
        "options": json.dumps(setup.options.to_dict()), "dealer": setup.dealer, "play_on": 0,
        "created_at": stamp, "updated_at": stamp, "rematch_of": rematch_of, "version": 1,
        "start_totals": json.dumps(list(start)) if start else None, "in_progress": 1,
        **access.token_columns(),
    }))
    db.table("players").insert_all(
        {"game_id": game_id, "seat": seat, "name": name}
        for seat, name in enumerate(setup.players)
    )
    if keeper:
        access.grant(db, keeper, game_id, access.KEEPER)
    return game_id


def _inserted(table: sqlite_utils.db.Table) -> int:
    """The row id of what ``table`` just inserted."""
    assert table.last_rowid is not None
    return table.last_rowid


def record_hand(db: sqlite_utils.Database, game: GameRecord, went_out: int,
                holdings: Iterable[Holding], device: str = "") -> int:
    """Add a hand to ``game`` (inside :func:`changing`) after the scoring layer accepts it;
    the entry ``device`` kept for it is done with (other phones' entries stay theirs)."""
    holdings = list(holdings)
    if not game.accepts_hands:
        raise ConflictError("This game is over: no more hands can be recorded.", game.id)
    engine.score_hand(game.scored, HandOutcome(went_out, {h.seat: h.points for h in holdings}))
    hand_id = _inserted(db.table("hands").insert({
        "game_id": game.id, "went_out": went_out, "created_at": now(),
    }))
    _insert_holdings(db, hand_id, holdings)
    _touch(db, game)
    _forget_draft(db, game.id, 0, device)
    return hand_id


def update_hand(db: sqlite_utils.Database, game: GameRecord, hand: Hand, went_out: int,
                holdings: Iterable[Holding], device: str = "") -> None:
    """Replace a past hand's entries (inside :func:`changing`); the standings follow."""
    holdings = list(holdings)
    score_with(db, game, hand, HandOutcome(went_out, {h.seat: h.points for h in holdings}))
    db.table("hands").update(hand.id, {"went_out": went_out})
    db.table("holdings").delete_where("hand_id = ?", [hand.id])
    _insert_holdings(db, hand.id, holdings)
    _touch(db, game)
    _forget_draft(db, game.id, hand.id, device)


def set_hand_deleted(db: sqlite_utils.Database, game: GameRecord, hand_id: int,
                     deleted: bool) -> None:
    """Delete a hand (kept, so it can be restored) or restore it (inside :func:`changing`).

    Refused when the history that would result cannot be scored, e.g. a Challenge
    UNO player brought back into hands that were played without them. Deleting is
    always allowed, so a hand that breaks the history can be taken out.
    """
    row = next(db.table("hands").rows_where("id = ? and game_id = ?", [hand_id, game.id],
                                            select="deleted_at"), None)
    if row is None:
        raise NoSuchGame("There is no such hand in this game.")
    if (row["deleted_at"] is not None) == deleted:
        raise ConflictError("That hand was already deleted: nothing more was changed." if deleted
                            else "That hand is already back in the game.", game.id)
    if not deleted:
        db.table("hands").update(hand_id, {"deleted_at": None})
        restored = load_game(db, game.id)
        if restored is None or restored.problem:
            raise ConflictError(
                "That would leave hands that cannot be scored any more "
                f"({restored.problem if restored else 'no game'}). "
                "Change or delete the later hands first.", game.id)
    else:
        db.table("hands").update(hand_id, {"deleted_at": now()})
    _touch(db, game)


def set_game_deleted(db: sqlite_utils.Database, game: GameRecord, deleted: bool) -> None:
    """Delete a game (kept, so it can be restored) or restore it (inside :func:`changing`)."""
    db.table("games").update(game.id, {"deleted_at": now() if deleted else None})
    _touch(db, game)


def set_play_on(db: sqlite_utils.Database, game: GameRecord) -> None:
    """Let a finished game go on past its target; the winner stays recorded."""
    if not game.can_play_on:
        raise ConflictError("This game cannot go on past its end.", game.id)
    db.table("games").update(game.id, {"play_on": 1})
    _touch(db, game)


def end_open_game(db: sqlite_utils.Database, game: GameRecord, ended: bool = True) -> None:
    """End a game with no target (a win tally), whoever leads winning; or reopen it."""
    if game.target is not None:
        raise ConflictError("This game ends when someone reaches its target.", game.id)
    if ended and game.finished:
        raise ConflictError("This game is already over.", game.id)
    if ended and not game.hand_count:
        raise ConflictError("Play at least one hand before ending the game.", game.id)
    if ended and game.problem:
        raise ConflictError(game.problem, game.id)
    if not ended and not game.ended:
        raise ConflictError("This game is not ended.", game.id)
    db.table("games").update(game.id, {"ended_at": now() if ended else None})
    _touch(db, game)


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
        _forget_draft(db, game_id, hand_id, device)


def _forget_draft(db: sqlite_utils.Database, game_id: int, hand_id: int, device: str) -> None:
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


def _spend(db: sqlite_utils.Database, submission: str | None, digest: str | None) -> None:
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


def _insert_holdings(db: sqlite_utils.Database, hand_id: int, holdings: Iterable[Holding]) -> None:
    db.table("holdings").insert_all(
        {"hand_id": hand_id, "seat": h.seat, "cards": engine.cards_text(h.cards),
         "points": h.points, "typed": int(h.typed)}
        for h in holdings
    )


def _touch(db: sqlite_utils.Database, game: GameRecord) -> None:
    # The version itself is bumped by the database's triggers on every changed row
    # (db.bump_versions_on_any_change), so no change can forget it.
    db.table("games").update(game.id, {"updated_at": now()})


# -- the referee's rulings a table kept ------------------------------------

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


def list_rulings(db: sqlite_utils.Database, game_id: int) -> tuple[list[dict[str, Any]], bool]:
    """The game's newest rulings, newest first, as many as RULINGS_SHOWN and RULINGS_TEXT
    allow (always the newest one); and whether there are older ones not listed."""
    sizes = db.execute("select id, length(verdict) + length(dispute) from rulings "
                       "where game_id = ? order by id desc limit ?",
                       [game_id, RULINGS_SHOWN + 1]).fetchall()
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


# -- the Wild Jackpot unit (R17, R18): rule cards, the dispenser, the lever ------------

#: Pulls listed per page of a game's lever history.
SPINS_PAGE = 20


@dataclass(frozen=True)
class RuleCard:
    """A rule card a player wrote, and where it is: in the unit or on the used pile."""

    id: int
    seat: int
    text: str
    loaded: bool
    #: Its place in its pile (the unit deals from the end).
    place: int
    #: The phone (device) it was written on; None for the shared scorekeeper's phone
    #: (cards written before phones were told apart).
    written_by: str | None = None

    def readable_by(self, device: str | None, keeper: bool) -> bool:
        """Whether a phone may read the text: only the one it was written on (a card of
        the shared phone's days: any scorekeeper's phone). Nobody else sees a rule until
        the lever deals it (R17)."""
        return self.written_by == device if self.written_by else keeper


@dataclass(frozen=True)
class DealtCard:
    """A rule card the lever dealt: to whom, in which turn, and whether its player has
    seen it yet (until then only they may read it: docs/rulings.md)."""

    turn: int
    seat: int
    #: The text as it was when dealt; None where the phone asking may not read it.
    text: str | None
    revealed: bool


@dataclass(frozen=True)
class Spin:
    """One pull of the lever (or a Jackpot turned up first), as recorded."""

    id: int
    call: engine.LeverCall
    #: The rule cards dealt, in the order they are performed.
    cards: tuple[DealtCard, ...]
    created_at: str


def rule_cards(db: sqlite_utils.Database, game_id: int) -> list[RuleCard]:
    """The game's written rule cards, by writer's seat in the order written."""
    rows = db.table("rule_cards").rows_where("game_id = ?", [game_id], order_by="seat, id")
    return [RuleCard(r["id"], r["seat"], r["text"], r["pile"] == "loaded", r["place"],
                     r["written_by"]) for r in rows]


def write_rule_cards(db: sqlite_utils.Database, game: GameRecord, seat: int,
                     texts: list[str], rng: random.Random, *, device: str | None,
                     keeper: bool) -> None:
    """Set the cards this phone wrote for ``seat`` to ``texts`` (inside :func:`changing`):
    a blank text is a card not written (or torn up). Cards of the seat this phone may
    not read (written on another phone) are left alone. New cards are shuffled into the
    unit, torn-up ones leave their pile, rewritten ones stay where they are
    (docs/rulings.md)."""
    cards = rule_cards(db, game.id)
    mine = [c for c in cards if c.seat == seat and c.readable_by(device, keeper)]
    unit = _dispenser(cards)
    stamp = now()
    added: list[str] = []
    removed: list[str] = []
    table = db.table("rule_cards")
    for k in range(max(len(mine), len(texts))):
        old = mine[k] if k < len(mine) else None
        text = texts[k] if k < len(texts) else ""
        if old is not None and not text:
            table.delete(old.id)
            removed.append(str(old.id))
        elif old is not None and text != old.text:
            table.update(old.id, {"text": text, "updated_at": stamp, "written_by": device})
        elif old is None and text:
            added.append(str(_inserted(table.insert({
                "game_id": game.id, "seat": seat, "text": text, "pile": "loaded", "place": -1,
                "created_at": stamp, "updated_at": stamp, "written_by": device}))))
    unit.remove(removed)
    unit.add(added, rng)
    _keep_dispenser(db, unit)


def tear_up_rule_cards(db: sqlite_utils.Database, game: GameRecord,
                       cards: Iterable[RuleCard]) -> None:
    """Take ``cards`` out of the game, from whichever pile holds them (inside
    :func:`changing`)."""
    unit = _dispenser(rule_cards(db, game.id))
    removed = [str(c.id) for c in cards]
    for card in removed:
        db.table("rule_cards").delete(int(card))
    unit.remove(removed)
    _keep_dispenser(db, unit)


def reveal_rule_card(db: sqlite_utils.Database, spin_id: int, turn: int) -> None:
    """Record that a dealt card's player has seen it (once: the first time counts);
    ``turn`` counts from 1, as :class:`DealtCard` does."""
    db.execute("update spin_cards set revealed_at = ? where spin_id = ? and turn = ? and "
               "revealed_at is null", [now(), spin_id, turn - 1])


def pull_lever(db: sqlite_utils.Database, game: GameRecord, call: engine.LeverCall,
               rng: random.Random, submission: str | None) -> int:
    """Record a pull whose outcome is decided (inside :func:`changing`), dealing the
    rule cards it calls for; return its id."""
    spin_id = _inserted(db.table("spins").insert({
        "game_id": game.id, "puller": call.puller, "outcome": call.outcome.value,
        "direction": call.direction, "chosen": call.chosen,
        "opening": call.opening.value if call.opening else None,
        "out_seats": json.dumps(sorted(call.out)), "submission": submission,
        "created_at": now()}))
    _deal(db, game.id, spin_id, call.performers, rng)
    return spin_id


def choose_performer(db: sqlite_utils.Database, game: GameRecord, spin: Spin, seat: int,
                     rng: random.Random) -> None:
    """The puller's choice for "choose any player" (inside :func:`changing`); the same
    choice sent again changes nothing, another one is refused."""
    if not spin.call.awaits_choice:
        if spin.call.chosen == seat:
            return
        raise ConflictError("That choice was already made: nothing was changed.", game.id)
    call = spin.call.choose(seat)
    db.table("spins").update(spin.id, {"chosen": seat})
    _deal(db, game.id, spin.id, call.performers, rng)


def load_spin(db: sqlite_utils.Database, game: GameRecord, spin_id: int) -> Spin | None:
    """One recorded pull of this game's lever."""
    spins = _spins(db, game, "game_id = ? and id = ?", [game.id, spin_id])
    return spins[0] if spins else None


def spin_for_submission(db: sqlite_utils.Database, game: GameRecord, submission: str) -> int | None:
    """The pull a form's one-time key made, if it made one."""
    rows = db.table("spins").rows_where("game_id = ? and submission = ?", [game.id, submission],
                                        select="id")
    return next((int(r["id"]) for r in rows), None)


def list_spins(db: sqlite_utils.Database, game: GameRecord, page: int = 1) -> tuple[list[Spin], bool]:
    """One page of the game's pulls, newest first, and whether older ones follow."""
    spins = _spins(db, game, "game_id = ?", [game.id], limit=SPINS_PAGE + 1,
                   offset=(page - 1) * SPINS_PAGE)
    return spins[:SPINS_PAGE], len(spins) > SPINS_PAGE


def lever_counts(db: sqlite_utils.Database, game_id: int) -> dict[engine.LeverOutcome, int]:
    """How often the lever stopped on each outcome in this game (first cards left out)."""
    counts = dict.fromkeys(engine.LeverOutcome, 0)
    for row in db.execute("select outcome, count(*) from spins where game_id = ? and opening "
                          "is null group by outcome", [game_id]).fetchall():
        counts[engine.LeverOutcome(row[0])] = row[1]
    return counts


def last_direction(db: sqlite_utils.Database, game_id: int) -> int:
    """The direction of play the table gave with its last pull (clockwise at first)."""
    rows = db.table("spins").rows_where("game_id = ?", [game_id], order_by="id desc", limit=1,
                                        select="direction")
    return next((int(r["direction"]) for r in rows), 1)


def _spins(db: sqlite_utils.Database, game: GameRecord, where: str, args: list[Any],
           limit: int | None = None, offset: int | None = None) -> list[Spin]:
    rows = list(db.table("spins").rows_where(where, args, order_by="id desc", limit=limit,
                                             offset=offset))
    dealt: dict[int, list[DealtCard]] = {r["id"]: [] for r in rows}
    if rows:
        marks = ",".join("?" * len(rows))
        for c in db.table("spin_cards").rows_where(f"spin_id in ({marks})", list(dealt),
                                                   order_by="spin_id, turn"):
            # Turns are stored from 0; pages and addresses count them from 1.
            dealt[c["spin_id"]].append(DealtCard(c["turn"] + 1, c["seat"], c["text"],
                                                 c["revealed_at"] is not None))
    return [Spin(r["id"], engine.LeverCall(
        engine.LeverOutcome(r["outcome"]), r["puller"], len(game.players), r["direction"],
        chosen=r["chosen"], opening=engine.Rank(r["opening"]) if r["opening"] else None, out=frozenset(json.loads(r["out_seats"] or "[]"))),
        tuple(dealt[r["id"]]), r["created_at"])
        for r in rows]


def _deal(db: sqlite_utils.Database, game_id: int, spin_id: int, seats: tuple[int, ...],
          rng: random.Random) -> None:
    """Deal one rule card to each of ``seats`` out of the game's unit (R17)."""
    if not seats:
        return
    cards = rule_cards(db, game_id)
    unit = _dispenser(cards)
    dealt = unit.dispense(rng, len(seats))
    texts = {str(c.id): c.text for c in cards}
    db.table("spin_cards").insert_all(
        {"spin_id": spin_id, "turn": turn, "seat": seat, "card_id": int(card), "text": texts[card]}
        for turn, (seat, card) in enumerate(zip(seats, dealt)))
    _keep_dispenser(db, unit)


def _dispenser(cards: Iterable[RuleCard]) -> engine.RuleDispenser:
    """The unit as stored, holding card ids: each pile in its order."""
    ordered = sorted(cards, key=lambda c: (c.place, c.id))
    return engine.RuleDispenser([str(c.id) for c in ordered if c.loaded],
                                [str(c.id) for c in ordered if not c.loaded])


def _keep_dispenser(db: sqlite_utils.Database, unit: engine.RuleDispenser) -> None:
    for pile, ids in (("loaded", unit.loaded), ("used", unit.used)):
        for place, card in enumerate(ids):
            db.table("rule_cards").update(int(card), {"pile": pile, "place": place})


# -- a game carried over from an export (companion/transfer.py) ----------------------------


@dataclass(frozen=True)
class CarriedCard:
    """A rule card as exported: its text, or None where the exporting phone could not
    read it (then written here on a phone nobody has, so nobody reads it)."""

    seat: int
    text: str | None
    loaded: bool
    place: int


@dataclass(frozen=True)
class CarriedGame:
    """A whole game read from an export and checked, ready to be stored as a new game."""

    setup: GameSetup
    created_at: str
    play_on: bool
    ended: bool
    #: Each hand: who went out, what the others held, when it was recorded.
    hands: tuple[tuple[int, tuple[Holding, ...], str], ...] = ()
    #: Each kept ruling as its row's values (check_name, title, outcome, verdict, dispute,
    #: created_at), oldest first.
    rulings: tuple[Mapping[str, str], ...] = ()
    rule_cards: tuple[CarriedCard, ...] = ()
    #: Each pull: the call, when, and the cards it dealt (seat, text, revealed), in turn.
    spins: tuple[tuple[engine.LeverCall, str, tuple[tuple[int, str, bool], ...]], ...] = ()


def store_carried(db: sqlite_utils.Database, carried: CarriedGame, keeper: str,
                  submission: str | None = None, digest: str | None = None) -> int:
    """Store ``carried`` as a new game, ``keeper`` (a device) its scorekeeper, in one
    transaction: all of it, or nothing when the game it makes cannot be scored or ended
    as it says (ConflictError), or the form's one-time key was spent (see
    :func:`check_unspent`). Returns its id."""
    with writing(db):
        check_unspent(db, submission, digest, None, "Already imported. This form was "
                      "already sent: nothing was imported twice. The game is on the home page.")
        game_id = _insert_game(db, carried.setup, keeper=keeper)
        db.table("games").update(game_id, {"created_at": carried.created_at})
        for went_out, holdings, stamp in carried.hands:
            hand_id = _inserted(db.table("hands").insert(
                {"game_id": game_id, "went_out": went_out, "created_at": stamp}))
            _insert_holdings(db, hand_id, holdings)
        db.table("rulings").insert_all({**r, "game_id": game_id} for r in carried.rulings)
        nobody = access.new_device()  # the phone a withheld card was written on, as here
        for card in carried.rule_cards:
            db.table("rule_cards").insert({
                "game_id": game_id, "seat": card.seat, "text": card.text or "",
                "pile": "loaded" if card.loaded else "used", "place": card.place,
                "created_at": carried.created_at, "updated_at": carried.created_at,
                "written_by": keeper if card.text is not None else nobody})
        for call, stamp, dealt in carried.spins:
            spin_id = _inserted(db.table("spins").insert({
                "game_id": game_id, "puller": call.puller, "outcome": call.outcome.value,
                "direction": call.direction, "chosen": call.chosen,
                "opening": call.opening.value if call.opening else None,
                "out_seats": json.dumps(sorted(call.out)), "created_at": stamp}))
            db.table("spin_cards").insert_all(
                {"spin_id": spin_id, "turn": turn, "seat": seat, "text": text,
                 "revealed_at": stamp if revealed else None}
                for turn, (seat, text, revealed) in enumerate(dealt))
        game = load_game(db, game_id)
        if game is None or game.problem:
            raise ConflictError((game and game.problem) or "The game cannot be read.")
        if carried.play_on:
            set_play_on(db, game)
        if carried.ended:
            end_open_game(db, game)
        game = load_game(db, game_id)
        assert game is not None
        _list_as(db, game)
        _spend(db, submission, digest)
    return game_id
