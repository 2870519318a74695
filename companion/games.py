"""Games: the home page, starting a game, the scoreboard and the end of a game."""

from __future__ import annotations

import secrets
from collections.abc import Callable

from flask import Blueprint, abort, redirect, render_template, request, url_for
from sqlite_utils import Database
from werkzeug.wrappers import Response

import engine

from . import store
from .db import get_db
from .errors import error_page
from .forms import FormErrors, parse_new_game

bp = Blueprint("games", __name__)

DEFAULT_SEATS = 4
MAX_SEATS = max(v.max_players for v in engine.VARIANTS)


def get_game_or_404(game_id: int, *, allow_deleted: bool = False) -> store.GameRecord:
    """The game, or a 404 page for an unknown (or deleted) one."""
    game = store.load_game(get_db(), game_id)
    if game is None or (game.deleted_at and not allow_deleted):
        abort(404, description="There is no such game. It may have been deleted.")
    return game


@bp.get("/")
def index() -> str:
    """Start a game, resume one in progress, look back at finished ones."""
    games = store.list_games(get_db())
    deleted = request.args.get("deleted", type=int)
    deleted_game = store.load_game(get_db(), deleted) if deleted else None
    if deleted_game and not deleted_game.deleted_at:
        deleted_game = None
    return render_template(
        "index.html",
        in_progress=[g for g in games if g.accepts_hands],
        finished=[g for g in games if not g.accepts_hands],
        deleted_game=deleted_game,
    )


@bp.get("/games/new")
def new_game() -> str:
    """The new-game form; also re-renders itself when the variant or seat count changes."""
    return _new_game_page(errors={})


def _new_game_page(errors: dict[str, str]) -> str:
    args = request.values
    try:
        variant = engine.find_variant(args.get("variant") or "classic")
    except ValueError:
        variant = engine.VARIANTS[0]
    # Every seat any variant allows gets an input (a variant change leaves the
    # names alone); the script shows only the first few until "Add a player" is
    # tapped, and without JS all are shown. The variant's own range is checked on save.
    names = args.getlist("player")[:MAX_SEATS]
    filled = max((i + 1 for i, n in enumerate(names) if n.strip()), default=0)
    shown = max(filled, DEFAULT_SEATS)
    names += [""] * (MAX_SEATS - len(names))
    return render_template(
        "new_game.html", variant=variant, variants=engine.VARIANTS, names=names, seats=shown,
        values=args, errors=errors, submission=secrets.token_urlsafe(16),
    )


@bp.post("/games")
def create_game() -> Response | tuple[str, int]:
    """Store a new game and go to its scoreboard."""
    try:
        new = parse_new_game(request.form, request.form.getlist("player"))
        game_id = store.create_game(
            get_db(), variant=new.variant, mode=new.mode, target=new.target,
            options=new.options, players=new.players, dealer=new.dealer,
            submission=request.form.get("submission") or None,
        )
    except FormErrors as exc:
        return _new_game_page(exc.errors), 400
    except store.ConflictError as exc:
        return error_page(str(exc) + " Your game is on the home page.", 409)
    return redirect(url_for("games.scoreboard", game_id=game_id), 303)


@bp.get("/games/<id:game_id>")
def scoreboard(game_id: int) -> str:
    """Standings, the next dealer, and the way to record a hand."""
    game = get_game_or_404(game_id)
    restore = request.args.get("restore", type=int)
    return render_template("scoreboard.html", game=game, restorable=_deleted_hand(game, restore),
                           submission=secrets.token_urlsafe(16))


def _deleted_hand(game: store.GameRecord, hand_id: int | None) -> int | None:
    if not hand_id:
        return None
    row = get_db().execute(
        "select id from hands where id = ? and game_id = ? and deleted_at is not null",
        [hand_id, game.id],
    ).fetchone()
    return int(row[0]) if row else None


def _change_game(game_id: int,
                 change: Callable[[Database, store.GameRecord], None]) -> Response | tuple[str, int]:
    """Apply one change to a game, then show its scoreboard (409 if the game refuses it)."""
    game = get_game_or_404(game_id)
    try:
        change(get_db(), game)
    except store.ConflictError as exc:
        return error_page(str(exc), 409)
    return redirect(url_for("games.scoreboard", game_id=game.id), 303)


@bp.post("/games/<id:game_id>/play-on")
def play_on(game_id: int) -> Response | tuple[str, int]:
    """Keep playing past the target; the winner stays recorded."""
    return _change_game(game_id, store.set_play_on)


@bp.get("/games/<id:game_id>/end")
def confirm_end(game_id: int) -> str:
    """Ask before ending an open-ended tally."""
    game = get_game_or_404(game_id)
    leaders = " & ".join(game.players[s] for s in game.standings.leaders) or "nobody"
    return render_template(
        "confirm.html", title="End this game?",
        message=f"The leader wins: {leaders}. You can reopen the game afterwards.",
        action=url_for("games.end_game", game_id=game.id), button="End game",
        back=url_for("games.scoreboard", game_id=game.id),
    )


@bp.post("/games/<id:game_id>/end")
def end_game(game_id: int) -> Response | tuple[str, int]:
    """End an open-ended tally: the leader wins."""
    return _change_game(game_id, store.end_open_game)


@bp.post("/games/<id:game_id>/reopen")
def reopen_game(game_id: int) -> Response | tuple[str, int]:
    """Take back "end game" on an open-ended tally."""
    return _change_game(game_id, lambda db, game: store.end_open_game(db, game, ended=False))


@bp.post("/games/<id:game_id>/rematch")
def rematch(game_id: int) -> Response | tuple[str, int]:
    """A new game with the same seats and settings; the deal moves on one seat."""
    game = get_game_or_404(game_id)
    if not game.finished:
        return error_page("A rematch is offered once this game has its winner.", 409)
    try:
        new_id = store.create_game(
            get_db(), variant=game.variant, mode=game.mode, target=game.target,
            options=game.options, players=game.players,
            dealer=(game.dealer + 1) % len(game.players), rematch_of=game.id,
            submission=request.form.get("submission") or None,
        )
    except store.ConflictError as exc:
        return error_page(str(exc), 409)
    return redirect(url_for("games.scoreboard", game_id=new_id), 303)


@bp.get("/games/<id:game_id>/delete")
def confirm_delete(game_id: int) -> str:
    """Ask before deleting a game."""
    game = get_game_or_404(game_id)
    return render_template(
        "confirm.html", title="Delete this game?",
        message=f"{game.variant.title} with {', '.join(game.players)}, "
                f"{len(game.hands)} hand(s). You can undo this from the home page.",
        action=url_for("games.delete_game", game_id=game.id), button="Delete game",
        back=url_for("games.scoreboard", game_id=game.id),
    )


@bp.post("/games/<id:game_id>/delete")
def delete_game(game_id: int) -> Response:
    """Delete a game, keeping it so the deletion can be undone."""
    game = get_game_or_404(game_id)
    store.set_game_deleted(get_db(), game.id, True)
    return redirect(url_for("games.index", deleted=game.id), 303)


@bp.post("/games/<id:game_id>/restore")
def restore_game(game_id: int) -> Response:
    """Undo a game's deletion."""
    game = get_game_or_404(game_id, allow_deleted=True)
    store.set_game_deleted(get_db(), game.id, False)
    return redirect(url_for("games.scoreboard", game_id=game.id), 303)
