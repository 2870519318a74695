"""Games and hands as rows: reading them into records and writing them atomically.

Standings are never stored: they are recomputed from the hands by the engine's
scoring layer, so an edit or a deletion anywhere in the history is simply a
change of rows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import cached_property
from typing import Any

import sqlite_utils

import engine
from engine import Card, HandOutcome, ScoringMode, Standings, TableOptions


class ConflictError(ValueError):
    """A write that the game's state does not allow (finished game, duplicate form...)."""


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

    def outcome(self) -> HandOutcome:
        """The hand as the scoring layer reads it."""
        return HandOutcome(self.went_out, {s: h.points for s, h in self.holdings.items()})


@dataclass(frozen=True)
class GameRecord:
    """A game with its seats and live hands, as stored."""

    id: int
    variant: type[engine.Game]
    mode: ScoringMode
    target: int | None
    options: TableOptions
    players: tuple[str, ...]
    dealer: int
    play_on: bool
    ended_at: str | None
    created_at: str
    deleted_at: str | None
    rematch_of: int | None
    hands: tuple[Hand, ...] = field(default=())

    @cached_property
    def standings(self) -> Standings:
        """Totals, eliminations and winners, recomputed from the hands."""
        standings = engine.score_game(
            self.mode, len(self.players), (h.outcome() for h in self.hands), self.target
        )
        if self.ended and not standings.finished:
            standings = engine.end_game(standings)
        return standings

    @property
    def ended(self) -> bool:
        """True when the table ended an open tally (and it still has hands to decide it)."""
        return self.ended_at is not None and bool(self.hands)

    @property
    def finished(self) -> bool:
        """True once the game has its winner."""
        return self.standings.finished

    @property
    def accepts_hands(self) -> bool:
        """False once the game is over, unless the table chose to play on."""
        if self.deleted_at or self.ended:
            return False
        if not self.finished:
            return True
        return self.play_on and self.mode is not ScoringMode.CHALLENGE

    @property
    def can_play_on(self) -> bool:
        """True when a finished game may go on past its target (the sheets' "play again")."""
        return (self.finished and not self.play_on and not self.ended
                and self.mode is not ScoringMode.CHALLENGE)

    @property
    def next_dealer(self) -> int:
        """Seat dealing the next hand: the deal passes clockwise (R1), skipping the eliminated."""
        seats = len(self.players)
        dealer = self.dealer
        eliminated: frozenset[int] = frozenset()
        for score in self.standings.hands:
            eliminated = eliminated | score.eliminated
            dealer = _next_seat(dealer, seats, eliminated)
        if dealer in eliminated:
            dealer = _next_seat(dealer, seats, eliminated)
        return dealer

    def before(self, hand: Hand | None) -> GameRecord:
        """The game as it stood when ``hand`` was played (who was still in); a new hand: itself."""
        return self if hand is None else replace(self, hands=self.hands[: hand.number - 1])

    def hand(self, hand_id: int) -> Hand | None:
        """The live hand with this id."""
        return next((h for h in self.hands if h.id == hand_id), None)


def _next_seat(seat: int, seats: int, skip: frozenset[int]) -> int:
    for step in range(1, seats + 1):
        candidate = (seat + step) % seats
        if candidate not in skip:
            return candidate
    return seat


# -- reading -------------------------------------------------------------


def load_game(db: sqlite_utils.Database, game_id: int) -> GameRecord | None:
    """The game with this id (deleted ones included), or None."""
    games = _load_games(db, "id = ?", [game_id])
    return games[0] if games else None


def list_games(db: sqlite_utils.Database) -> list[GameRecord]:
    """Every game not deleted, newest first."""
    return _load_games(db, "deleted_at is null", [])


def _load_games(db: sqlite_utils.Database, where: str, params: Sequence[Any]) -> list[GameRecord]:
    # Four queries whatever the number of games: no query per game or hand.
    rows = list(db["games"].rows_where(where, params, order_by="id desc"))
    if not rows:
        return []
    ids = [r["id"] for r in rows]
    marks = ",".join("?" * len(ids))
    players: dict[int, list[str]] = {i: [] for i in ids}
    for p in db["players"].rows_where(f"game_id in ({marks})", ids, order_by="game_id, seat"):
        players[p["game_id"]].append(p["name"])
    hand_rows = list(db["hands"].rows_where(
        f"game_id in ({marks}) and deleted_at is null", ids, order_by="id"))
    holdings: dict[int, list[dict[str, Any]]] = {h["id"]: [] for h in hand_rows}
    if hand_rows:
        hand_ids = [h["id"] for h in hand_rows]
        hmarks = ",".join("?" * len(hand_ids))
        for row in db["holdings"].rows_where(f"hand_id in ({hmarks})", hand_ids, order_by="seat"):
            holdings[row["hand_id"]].append(row)
    games = {r["id"]: r for r in rows}
    variants = {i: engine.find_variant(r["variant"]) for i, r in games.items()}
    options = {i: TableOptions.from_dict(json.loads(r["options"])) for i, r in games.items()}
    hands: dict[int, list[Hand]] = {i: [] for i in ids}
    for h in hand_rows:
        game_id = h["game_id"]
        held = {row["seat"]: _holding(row, variants[game_id], options[game_id])
                for row in holdings[h["id"]]}
        number = len(hands[game_id]) + 1
        hands[game_id].append(Hand(h["id"], number, h["went_out"], held, h["created_at"]))
    return [
        GameRecord(
            id=r["id"], variant=variants[r["id"]], mode=ScoringMode(r["mode"]),
            target=r["target"], options=options[r["id"]],
            players=tuple(players[r["id"]]), dealer=r["dealer"], play_on=bool(r["play_on"]),
            ended_at=r["ended_at"], created_at=r["created_at"], deleted_at=r["deleted_at"],
            rematch_of=r["rematch_of"], hands=tuple(hands[r["id"]]),
        )
        for r in rows
    ]


def _holding(row: dict[str, Any], variant: type[engine.Game], options: TableOptions) -> Holding:
    if row["typed"]:
        return Holding(row["seat"], (), row["points"], True)
    # Entered cards are the truth: rescore them, so a points fix reaches old hands.
    cards = tuple(engine.parse_cards(row["cards"]))
    points = variant.hand_points(cards, options) if variant.has_points() else 0
    return Holding(row["seat"], cards, points, False)


# -- writing -------------------------------------------------------------


def create_game(
    db: sqlite_utils.Database,
    *,
    variant: type[engine.Game],
    mode: ScoringMode,
    target: int | None,
    options: TableOptions,
    players: Sequence[str],
    dealer: int,
    submission: str | None = None,
    rematch_of: int | None = None,
) -> int:
    """Store a new game and its seats in one transaction; return its id."""
    with db.atomic():
        _claim(db, submission)
        stamp = now()
        game_id = db["games"].insert({
            "variant": variant.name, "mode": mode.value, "target": target,
            "options": json.dumps(options.to_dict()), "dealer": dealer, "play_on": 0,
            "created_at": stamp, "updated_at": stamp, "rematch_of": rematch_of,
        }).last_pk
        db["players"].insert_all(
            {"game_id": game_id, "seat": seat, "name": name} for seat, name in enumerate(players)
        )
    return int(game_id)


def record_hand(
    db: sqlite_utils.Database,
    game: GameRecord,
    went_out: int,
    holdings: Iterable[Holding],
    submission: str | None = None,
) -> int:
    """Store a new hand in one transaction after the scoring layer accepts it."""
    holdings = list(holdings)
    if not game.accepts_hands:
        raise ConflictError("This game is over: no more hands can be recorded.")
    engine.score_hand(game.standings, HandOutcome(went_out, {h.seat: h.points for h in holdings}))
    with db.atomic():
        _claim(db, submission)
        hand_id = int(db["hands"].insert({
            "game_id": game.id, "went_out": went_out, "created_at": now(),
        }).last_pk)
        _insert_holdings(db, hand_id, holdings)
        _touch(db, game.id)
        db["drafts"].delete_where("game_id = ? and hand_id = 0", [game.id])
    return hand_id


def update_hand(
    db: sqlite_utils.Database,
    game: GameRecord,
    hand_id: int,
    went_out: int,
    holdings: Iterable[Holding],
    submission: str | None = None,
) -> None:
    """Replace a past hand's entries; the standings follow on their own."""
    holdings = list(holdings)
    old = game.hand(hand_id)
    if old is None:
        raise LookupError("No such hand in this game.")
    edited = [h.outcome() for h in game.hands if h.id != hand_id]
    edited.insert(old.number - 1, HandOutcome(went_out, {h.seat: h.points for h in holdings}))
    engine.score_game(game.mode, len(game.players), edited, game.target)
    with db.atomic():
        _claim(db, submission)
        db["hands"].update(hand_id, {"went_out": went_out})
        db["holdings"].delete_where("hand_id = ?", [hand_id])
        _insert_holdings(db, hand_id, holdings)
        _touch(db, game.id)
        db["drafts"].delete_where("game_id = ? and hand_id = ?", [game.id, hand_id])


def set_hand_deleted(db: sqlite_utils.Database, game: GameRecord, hand_id: int, deleted: bool) -> None:
    """Delete a hand (kept, so it can be restored) or restore it.

    Refused when the history that would result cannot be scored, e.g. a Challenge
    UNO player brought back into hands that were played without them.
    """
    rows = {r["id"]: r for r in db["hands"].rows_where("game_id = ?", [game.id], order_by="id")}
    if hand_id not in rows:
        raise LookupError("No such hand in this game.")
    keep = [i for i, r in rows.items()
            if (i == hand_id and not deleted) or (i != hand_id and r["deleted_at"] is None)]
    held: dict[int, dict[int, int]] = {i: {} for i in keep}
    if keep:
        marks = ",".join("?" * len(keep))
        for row in db["holdings"].rows_where(f"hand_id in ({marks})", keep):
            held[row["hand_id"]][row["seat"]] = _holding(row, game.variant, game.options).points
    try:
        engine.score_game(game.mode, len(game.players),
                          (HandOutcome(rows[i]["went_out"], held[i]) for i in keep), game.target)
    except engine.ScoringError as exc:
        raise ConflictError(
            "That would leave hands that cannot be scored any more "
            f"({exc}). Change or delete the later hands first.") from None
    with db.atomic():
        db["hands"].update(hand_id, {"deleted_at": now() if deleted else None})
        _touch(db, game.id)


def set_game_deleted(db: sqlite_utils.Database, game_id: int, deleted: bool) -> None:
    """Delete a game (kept, so it can be restored) or restore it."""
    with db.atomic():
        db["games"].update(game_id, {"deleted_at": now() if deleted else None})


def set_play_on(db: sqlite_utils.Database, game: GameRecord) -> None:
    """Let a finished game go on past its target; the winner stays recorded."""
    if not game.can_play_on:
        raise ConflictError("This game cannot go on past its end.")
    with db.atomic():
        db["games"].update(game.id, {"play_on": 1})
        _touch(db, game.id)


def end_open_game(db: sqlite_utils.Database, game: GameRecord, ended: bool = True) -> None:
    """End a game with no target (a win tally), whoever leads winning; or reopen it."""
    if game.target is not None:
        raise ConflictError("This game ends when someone reaches its target.")
    if ended and game.finished:
        raise ConflictError("This game is already over.")
    if ended and not game.hands:
        raise ConflictError("Play at least one hand before ending the game.")
    if not ended and not game.ended:
        raise ConflictError("This game is not ended.")
    with db.atomic():
        db["games"].update(game.id, {"ended_at": now() if ended else None})
        _touch(db, game.id)


def save_draft(db: sqlite_utils.Database, game_id: int, hand_id: int, data: dict[str, Any]) -> None:
    """Keep the entry in progress for this game (hand_id 0: a new hand)."""
    db["drafts"].upsert(
        {"game_id": game_id, "hand_id": hand_id, "data": json.dumps(data), "updated_at": now()},
        pk=("game_id", "hand_id"),
    )


def load_draft(db: sqlite_utils.Database, game_id: int, hand_id: int) -> dict[str, Any] | None:
    """The entry in progress, if any."""
    row = db.execute(
        "select data from drafts where game_id = ? and hand_id = ?", [game_id, hand_id]
    ).fetchone()
    return json.loads(row[0]) if row else None


def drop_draft(db: sqlite_utils.Database, game_id: int, hand_id: int) -> None:
    """Forget the entry in progress (the user chose to discard it)."""
    db["drafts"].delete_where("game_id = ? and hand_id = ?", [game_id, hand_id])


def _claim(db: sqlite_utils.Database, submission: str | None) -> None:
    # A form carries a one-time token: a second submission of it changes nothing.
    if submission is None:
        return
    if db.execute("select 1 from submissions where token = ?", [submission]).fetchone():
        raise ConflictError("This form was already submitted: nothing was saved twice.")
    db["submissions"].insert({"token": submission, "used_at": now()})


def _insert_holdings(db: sqlite_utils.Database, hand_id: int, holdings: Iterable[Holding]) -> None:
    db["holdings"].insert_all(
        {"hand_id": hand_id, "seat": h.seat, "cards": engine.cards_text(h.cards),
         "points": h.points, "typed": int(h.typed)}
        for h in holdings
    )


def _touch(db: sqlite_utils.Database, game_id: int) -> None:
    db["games"].update(game_id, {"updated_at": now()})
