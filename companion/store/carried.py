"""A game carried over from an export (companion/transfer.py), stored whole as a new game."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

import sqlite_utils

import engine

from ..db import writing
from . import access
from .conflicts import ConflictError
from .decoding import inserted_id
from .keys import check_unspent, spend
from .listing import list_as
from .loading import load_game
from .records import GameSetup, Holding
from .stats import keep_results
from .writes import end_open_game, insert_game, insert_holdings, set_play_on


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
        game_id = insert_game(db, carried.setup, keeper=keeper)
        db.table("games").update(game_id, {"created_at": carried.created_at})
        for went_out, holdings, stamp in carried.hands:
            hand_id = inserted_id(db.table("hands").insert(
                {"game_id": game_id, "went_out": went_out, "created_at": stamp}))
            insert_holdings(db, hand_id, holdings)
        db.table("rulings").insert_all({**r, "game_id": game_id} for r in carried.rulings)
        nobody = access.new_device()  # the phone a withheld card was written on, as here
        for card in carried.rule_cards:
            db.table("rule_cards").insert({
                "game_id": game_id, "seat": card.seat, "text": card.text or "",
                "pile": "loaded" if card.loaded else "used", "place": card.place,
                "created_at": carried.created_at, "updated_at": carried.created_at,
                "written_by": keeper if card.text is not None else nobody})
        for call, stamp, dealt in carried.spins:
            spin_id = inserted_id(db.table("spins").insert({
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
        list_as(db, game)
        keep_results(db, game)
        spend(db, submission, digest)
    return game_id
