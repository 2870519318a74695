"""Writing games and hands, each change in one transaction.

Every write happens inside :func:`changing` (or :func:`create_game`): one
``BEGIN IMMEDIATE`` transaction that loads the game as it is now, refuses a form
made from an older version of it or already submitted, and lets the caller decide
and write against that fresh state. Each change bumps the game's version (the
database's triggers do it)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import sqlite_utils

import engine
from engine import HandOutcome

from ..db import writing
from . import access
from .cache import GameCache
from .checkpoints import keep_checkpoints
from .conflicts import ConflictError, NoSuchGame, StaleError
from .decoding import inserted_id
from .drafts import forget_draft
from .jackpot import carry_rule_cards
from .keys import check_unspent, digest, spend
from .listing import list_as
from .loading import load_game, score_with
from .records import CHANGEABLE_HANDS, MAX_GAME_HANDS, GameRecord, GameSetup, Hand, Holding, now
from .stats import keep_results


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
        # One read: from the cache when it holds this version (its checkpoints were kept
        # with it), else the rows, from which the checkpoints are kept at once.
        row = db.execute("select version from games where id = ?", [game_id]).fetchone()
        game = cache.get(game_id, row[0]) if cache and row else None
        game = game or (keep_checkpoints(db, game_id) if row else None)
        if game is None or (game.deleted_at and not allow_deleted):
            raise NoSuchGame("There is no such game. It may have been deleted.")
        if version is not None and version != game.version:
            raise StaleError("This game was changed on another phone since this page was "
                             "opened, so nothing was saved. Here it is as it is now.", game_id)
        yield game
        spend(db, submission, digest)
        row = db.execute("select version from games where id = ?", [game_id]).fetchone()
        if row[0] != game.version:
            changed = keep_checkpoints(db, game_id)
            if changed is not None:
                list_as(db, changed)
                keep_results(db, changed)
    # Only a committed state may be cached: a rolled-back one would be served later.
    if cache and changed is not None:
        cache.put(changed)


def create_game(db: sqlite_utils.Database, setup: GameSetup,
                submission: str | None = None, keeper: str | None = None,
                digest: str | None = None) -> int:
    """Store a new game and its seats in one transaction, ``keeper`` (a device) its
    scorekeeper; return its id. ``digest``: what the form said (see :func:`check_unspent`)."""
    with writing(db):
        check_unspent(db, submission, digest, None, "Already saved. This form was already "
                      "submitted: nothing was saved twice. Your game is on the home page.")
        game_id = insert_game(db, setup, keeper=keeper)
        spend(db, submission, digest)
    return game_id


def create_rematch(db: sqlite_utils.Database, game_id: int, submission: str | None,
                   cache: GameCache | None = None, keeper: str | None = None,
                   rng: random.Random | None = None) -> int:
    """A new game with the same seats and settings, ``keeper`` (a device) its scorekeeper;
    the deal moves on one seat. The table stays as it was: the Wild Jackpot's rule cards
    (shuffled into the unit by ``rng``) and, for ``keeper``, its seat and being the phone
    passed round (the other phones keep theirs as they follow: companion/sharing.py)."""
    # The form says nothing but its game: a key spent on another game's rematch is out of date.
    with changing(db, game_id, submission=submission, digest=digest([("rematch", game_id)]),
                  cache=cache) as game:
        if not game.finished:
            raise ConflictError("A rematch is offered once this game has its winner.", game.id)
        again = GameSetup(variant=game.variant, mode=game.mode, target=game.target,
                          options=game.options, players=game.players,
                          dealer=(game.dealer + 1) % len(game.players))
        new_id = insert_game(db, again, rematch_of=game.id, keeper=keeper)
        if keeper:
            access.carry_over(db, keeper, game.id, new_id)
        if rng is not None:
            carry_rule_cards(db, game.id, new_id, rng)
        return new_id


def rematch_of(db: sqlite_utils.Database, game_id: int) -> int | None:
    """The newest game started as a rematch of this one (not deleted), if any."""
    row = db.execute("select id from games where rematch_of = ? and deleted_at is null "
                     "order by id desc limit 1", [game_id]).fetchone()
    return int(row[0]) if row else None


def insert_game(db: sqlite_utils.Database, setup: GameSetup, rematch_of: int | None = None,
                 keeper: str | None = None) -> int:
    """Insert a game's row (with fresh share links) and its seats, ``keeper`` (a device)
    its scorekeeper, inside the caller's transaction; its id."""
    stamp = now()
    start = setup.start_totals
    game_id = inserted_id(db.table("games").insert({
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
        if rematch_of is None:  # the phone that starts a game is the one passed round
            access.pass_round(db, game_id, keeper)
    return game_id


def record_hand(db: sqlite_utils.Database, game: GameRecord, went_out: int,
                holdings: Iterable[Holding], device: str = "") -> int:
    """Add a hand to ``game`` (inside :func:`changing`) after the scoring layer accepts it;
    the entry ``device`` kept for it is done with (other phones' entries stay theirs)."""
    holdings = list(holdings)
    if game.no_more_hands:
        raise ConflictError(game.no_more_hands, game.id)
    engine.score_hand(game.scored, HandOutcome(went_out, {h.seat: h.points for h in holdings}))
    cursor = db.execute("insert into hands (game_id, went_out, created_at) values (?, ?, ?)",
                        [game.id, went_out, now()])
    assert cursor.lastrowid is not None
    hand_id = cursor.lastrowid
    insert_holdings(db, hand_id, holdings)
    _touch(db, game)
    forget_draft(db, game.id, 0, device)
    return hand_id


def update_hand(db: sqlite_utils.Database, game: GameRecord, hand: Hand, went_out: int,
                holdings: Iterable[Holding], device: str = "") -> None:
    """Replace a past hand's entries (inside :func:`changing`); the standings follow."""
    holdings = list(holdings)
    require_changeable(db, game, hand.id)
    score_with(db, game, hand, HandOutcome(went_out, {h.seat: h.points for h in holdings}))
    db.table("hands").update(hand.id, {"went_out": went_out})
    db.table("holdings").delete_where("hand_id = ?", [hand.id])
    insert_holdings(db, hand.id, holdings)
    _touch(db, game)
    forget_draft(db, game.id, hand.id, device)


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
    require_changeable(db, game, hand_id)
    if not deleted:
        if game.hand_count >= MAX_GAME_HANDS:
            raise ConflictError(f"This game has {MAX_GAME_HANDS:,} hands, the most one game "
                                "keeps: that hand cannot be put back.", game.id)
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


def require_changeable(db: sqlite_utils.Database, game: GameRecord, hand_id: int) -> None:
    """Refuse to change a hand with :data:`CHANGEABLE_HANDS` live hands or more after it
    (counted no further than that), unless the history cannot be scored as it is: the one
    check and wording, for the store's writes and the views' forms alike."""
    if game.problem is not None:
        return
    later = db.execute("select count(*) from (select 1 from hands where game_id = ? and "
                       "deleted_at is null and id > ? limit ?)",
                       [game.id, hand_id, CHANGEABLE_HANDS]).fetchone()[0]
    if later >= CHANGEABLE_HANDS:
        raise ConflictError(f"That hand is more than {CHANGEABLE_HANDS} hands back: it can no "
                            "longer be changed, deleted or put back. Nothing was changed.",
                            game.id)


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


def insert_holdings(db: sqlite_utils.Database, hand_id: int, holdings: Iterable[Holding]) -> None:
    """Insert what each opponent held in a hand (inside the caller's transaction)."""
    db.conn.executemany(
        "insert into holdings (hand_id, seat, cards, points, typed) values (?, ?, ?, ?, ?)",
        [(hand_id, h.seat, engine.cards_text(h.cards), h.points, int(h.typed)) for h in holdings])


def _touch(db: sqlite_utils.Database, game: GameRecord) -> None:
    # The version itself is bumped by the database's triggers on every changed row
    # (db.bump_versions_on_any_change), so no change can forget it.
    db.execute("update games set updated_at = ? where id = ?", [now(), game.id])
