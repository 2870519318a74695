"""Hands: recording one by tapping cards or typing totals, reviewing, editing, undoing."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

import engine
from engine import COLORS, Card, Rank, TableOptions

from . import store
from .db import get_db
from .forms import FormErrors, HandReading, hand_form_data, parse_went_out, read_hand, scored_seats
from .errors import error_page
from .games import get_game_or_404

bp = Blueprint("hands", __name__, url_prefix="/games/<id:game_id>/hands")

NEW = 0  # drafts of a hand not yet saved are kept under hand id 0


@lru_cache(maxsize=64)
def picker_grid(variant: type[engine.Game], options: TableOptions) -> tuple[
        tuple[tuple[Rank, tuple[tuple[Card | None, int], ...]], ...], tuple[tuple[Card, int], ...]]:
    """The variant's deck as the picker shows it: a rank-by-color grid, then the wilds."""
    deck = variant.deck_counts(options)
    ranks = [r for r in Rank if r.is_colored and any(c.rank is r for c in deck)]
    rows = tuple(
        (rank, tuple((engine.card(rank, color), deck[engine.card(rank, color)])
                     if engine.card(rank, color) in deck else (None, 0) for color in COLORS))
        for rank in ranks
    )
    wilds = tuple((c, n) for c, n in deck.items() if c.color is None)
    return rows, wilds


def _form_data(source: Mapping[str, Any]) -> dict[str, str]:
    """The hand's own fields from a submitted form (no token, no buttons)."""
    data = {k: v for k, v in source.items() if k == "out" or k.startswith(("c-", "pts-"))}
    if source.get("new_out"):  # "someone else went out", keeping what was entered
        data["out"] = source["new_out"]
    return data


def _open_game(game_id: int) -> store.GameRecord | tuple[str, int]:
    game = get_game_or_404(game_id)
    if not game.accepts_hands:
        return error_page("This game is over: no more hands can be recorded. "
                          "Start a rematch or choose to keep playing from the scoreboard.", 409)
    return game


def _picker(game: store.GameRecord, data: Mapping[str, Any], hand: store.Hand | None = None,
            errors: Mapping[str, str] | None = None, status: int = 200,
            restored: bool = False) -> tuple[str, int, dict[str, str]]:
    try:
        went_out = parse_went_out(game, data.get("out"))
        if not game.mode.uses_points:
            raise FormErrors({})  # a tally only asks who went out
    except FormErrors:
        return (render_template("hand_out.html", game=game, hand=hand, data=data,
                                errors=errors or {}), status, _NO_STORE)
    reading = read_hand(game, data)
    rows, wilds = picker_grid(game.variant, game.options)
    html = render_template(
        "hand_picker.html", game=game, hand=hand, data=data, went_out=went_out,
        seats=scored_seats(game, went_out), rows=rows, wilds=wilds, reading=reading,
        errors=errors or {}, restored=restored,
    )
    return html, status, _NO_STORE


# The picker must be fetched again on "back", so that it shows the kept draft.
_NO_STORE = {"Cache-Control": "no-store"}


@bp.get("")
def history(game_id: int) -> str:
    """Every hand with what each opponent held and the points it made."""
    game = get_game_or_404(game_id)
    return render_template("history.html", game=game,
                           restorable=request.args.get("restore", type=int))


@bp.get("/new")
def new_hand(game_id: int) -> Any:
    """Who went out, then the card picker; a kept draft comes back as it was."""
    game = _open_game(game_id)
    if isinstance(game, tuple):
        return game
    draft = store.load_draft(get_db(), game.id, NEW)
    data = _form_data(request.args)
    restored = False
    if not any(k != "out" for k in data) and draft:
        data = {**draft, **data}
        restored = any(k != "out" for k in draft)
    return _picker(game, data, restored=restored)


@bp.post("/preview")
def preview(game_id: int) -> str:
    """Live running points while cards are tapped (htmx); keeps the entry as a draft."""
    game = get_game_or_404(game_id)
    hand_id = request.form.get("hand_id", type=int) or NEW
    data = _form_data(request.form)
    store.save_draft(get_db(), game.id, hand_id, data)
    then = game.before(game.hand(hand_id))
    try:
        reading = read_hand(then, data)
    except FormErrors as exc:
        reading = HandReading(-1, [], {}, exc.errors)
    seats = scored_seats(then, reading.went_out) if reading.went_out >= 0 else ()
    return render_template("_running.html", game=game, reading=reading, seats=seats)


@bp.post("/switch")
def switch_out(game_id: int) -> Any:
    """"Someone else went out": keep what was entered as the draft, ask for the new opponents.

    A POST, so that the form's token and the tapped cards never ride in a URL.
    """
    hand_id = request.form.get("hand_id", type=int) or NEW
    if hand_id == NEW:
        game = _open_game(game_id)
        if isinstance(game, tuple):
            return game
        target = url_for("hands.new_hand", game_id=game.id)
    else:
        game = get_game_or_404(game_id)
        hand = _hand_or_404(game, hand_id)
        if isinstance(hand, tuple):
            return hand
        target = url_for("hands.edit_hand", game_id=game.id, hand_id=hand_id)
    store.save_draft(get_db(), game.id, hand_id, _form_data(request.form))
    return redirect(target, 303)


@bp.post("/draft/discard")
def discard_draft(game_id: int) -> Response:
    """Throw away a kept entry, on purpose."""
    game = get_game_or_404(game_id)
    hand_id = request.form.get("hand_id", type=int) or NEW
    store.drop_draft(get_db(), game.id, hand_id)
    if hand_id == NEW:
        return redirect(url_for("hands.new_hand", game_id=game.id), 303)
    return redirect(url_for("hands.edit_hand", game_id=game.id, hand_id=hand_id), 303)


def _review(game: store.GameRecord, hand: store.Hand | None) -> Any:
    data = _form_data(request.form)
    store.save_draft(get_db(), game.id, hand.id if hand else NEW, data)
    # A past hand is read against the players still in when it was played.
    then = game.before(hand)
    try:
        reading = read_hand(then, data)
    except FormErrors as exc:
        return _picker(then, data, hand, exc.errors, 400)
    if reading.errors:
        return _picker(then, data, hand, reading.errors, 400)
    outcome = engine.HandOutcome(reading.went_out, reading.points)
    outcomes = [h.outcome() for h in game.hands]
    if hand:
        outcomes[hand.number - 1] = outcome
    else:
        outcomes.append(outcome)
    try:
        after = engine.score_game(game.mode, len(game.players), outcomes, game.target)
    except engine.ScoringError as exc:
        return _picker(then, data, hand, {"out": str(exc)}, 400)
    return render_template(
        "hand_review.html", game=game, hand=hand, data=data, reading=reading, after=after,
        number=hand.number if hand else len(game.hands) + 1,
        submission=secrets.token_urlsafe(16),
    ), 200, _NO_STORE


@bp.post("/review")
def review_new(game_id: int) -> Any:
    """Show the new hand and what it does to the standings before saving."""
    game = _open_game(game_id)
    if isinstance(game, tuple):
        return game
    return _review(game, None)


@bp.post("")
def save_new(game_id: int) -> Any:
    """Save a reviewed hand and go back to the scoreboard."""
    game = _open_game(game_id)
    if isinstance(game, tuple):
        return game
    data = _form_data(request.form)
    try:
        reading = read_hand(game, data)
        if reading.errors:
            raise FormErrors(reading.errors)
        store.record_hand(get_db(), game, reading.went_out, reading.holdings,
                          submission=request.form.get("submission") or None)
    except FormErrors as exc:
        return _picker(game, data, None, exc.errors, 400)
    except engine.ScoringError as exc:
        return _picker(game, data, None, {"out": str(exc)}, 400)
    except store.ConflictError as exc:
        return error_page(str(exc), 409)
    return redirect(url_for("games.scoreboard", game_id=game.id), 303)


def _hand_or_404(game: store.GameRecord, hand_id: int) -> store.Hand | tuple[str, int]:
    hand = game.hand(hand_id)
    if hand is None:
        return error_page("There is no such hand in this game.", 404, "Not found")
    return hand


@bp.get("/<id:hand_id>/edit")
def edit_hand(game_id: int, hand_id: int) -> Any:
    """The picker filled with a past hand (or with the unsaved change to it)."""
    game = get_game_or_404(game_id)
    hand = _hand_or_404(game, hand_id)
    if isinstance(hand, tuple):
        return hand
    draft = store.load_draft(get_db(), game.id, hand.id)
    data = _form_data(request.args)
    restored = False
    if not any(k != "out" for k in data):
        base = draft or hand_form_data(hand.went_out, list(hand.holdings.values()))
        restored = draft is not None
        data = {**base, **data}
    return _picker(game.before(hand), data, hand, restored=restored)


@bp.post("/<id:hand_id>/review")
def review_edit(game_id: int, hand_id: int) -> Any:
    """Show the changed hand and the standings it leads to before saving."""
    game = get_game_or_404(game_id)
    hand = _hand_or_404(game, hand_id)
    if isinstance(hand, tuple):
        return hand
    return _review(game, hand)


@bp.post("/<id:hand_id>")
def save_edit(game_id: int, hand_id: int) -> Any:
    """Save a past hand's correction; totals, winner and dealer follow."""
    game = get_game_or_404(game_id)
    hand = _hand_or_404(game, hand_id)
    if isinstance(hand, tuple):
        return hand
    data = _form_data(request.form)
    then = game.before(hand)
    try:
        reading = read_hand(then, data)
        if reading.errors:
            raise FormErrors(reading.errors)
        store.update_hand(get_db(), game, hand.id, reading.went_out, reading.holdings,
                          submission=request.form.get("submission") or None)
    except FormErrors as exc:
        return _picker(then, data, hand, exc.errors, 400)
    except engine.ScoringError as exc:
        return _picker(then, data, hand, {"out": str(exc)}, 400)
    except store.ConflictError as exc:
        return error_page(str(exc), 409)
    return redirect(url_for("hands.history", game_id=game.id), 303)


@bp.get("/<id:hand_id>/delete")
def confirm_delete(game_id: int, hand_id: int) -> Any:
    """Ask before deleting a hand."""
    game = get_game_or_404(game_id)
    hand = _hand_or_404(game, hand_id)
    if isinstance(hand, tuple):
        return hand
    return render_template(
        "confirm.html", title=f"Delete hand {hand.number}?",
        message=f"{game.players[hand.went_out]} went out. The totals will be recomputed; "
                "you can undo this straight after.",
        action=url_for("hands.delete_hand", game_id=game.id, hand_id=hand.id),
        button="Delete hand", back=url_for("hands.history", game_id=game.id),
    )


@bp.post("/<id:hand_id>/delete")
def delete_hand(game_id: int, hand_id: int) -> Any:
    """Delete a hand, keeping it so that the deletion can be undone."""
    game = get_game_or_404(game_id)
    try:
        store.set_hand_deleted(get_db(), game, hand_id, True)
    except LookupError as exc:
        return error_page(str(exc), 404, "Not found")
    except store.ConflictError as exc:
        return error_page(str(exc), 409)
    return redirect(url_for("games.scoreboard", game_id=game.id, restore=hand_id), 303)


@bp.post("/undo")
def undo_last(game_id: int) -> Any:
    """Take back the last hand recorded (it can be restored)."""
    game = get_game_or_404(game_id)
    if not game.hands:
        return error_page("There is no hand to undo yet.", 409)
    last = game.hands[-1]
    # The form names the hand it takes back, so a double tap cannot undo a second one.
    if request.form.get("hand_id", type=int) not in (None, last.id):
        return error_page("That hand was already taken back: nothing more was undone.", 409)
    store.set_hand_deleted(get_db(), game, last.id, True)
    return redirect(url_for("games.scoreboard", game_id=game.id, restore=last.id), 303)


@bp.post("/<id:hand_id>/restore")
def restore_hand(game_id: int, hand_id: int) -> Any:
    """Put a deleted hand back where it was."""
    game = get_game_or_404(game_id)
    try:
        store.set_hand_deleted(get_db(), game, hand_id, False)
    except LookupError as exc:
        return error_page(str(exc), 404, "Not found")
    except store.ConflictError as exc:
        return error_page(str(exc), 409)
    return redirect(url_for("games.scoreboard", game_id=game.id), 303)
