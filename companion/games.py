"""Games: the home page, starting a game, the scoreboard and the end of a game."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable

from flask import Blueprint, redirect, render_template, request, url_for
from flask.typing import ResponseValue
from markupsafe import Markup
from sqlite_utils import Database
from werkzeug.wrappers import Response

import engine

from . import htmx, live, store, transfer
from .db import get_db
from .errors import error_page, row_id
from .forms import FormErrors, parse_new_game
from .gate import access_to, device, get_game_or_404, keepers_only
from .labels import names
from .rule_card_readers import lever_random, this_phone
from .settings import MAX_BODY
from .store import get_cache

bp = Blueprint("games", __name__)

DEFAULT_SEATS = 4
MAX_SEATS = max(v.max_players for v in engine.VARIANTS)


@bp.app_errorhandler(store.ConflictError)
def refused(exc: store.ConflictError) -> tuple[ResponseValue, int]:
    """A write the game refused: the reason, beside the game as it is now."""
    game = store.load_game(get_db(), exc.game_id, get_cache()) if exc.game_id else None
    if game is None or game.deleted_at:
        return error_page(str(exc), 409)
    return _scoreboard_page(game, notice=str(exc)), 409


@bp.app_errorhandler(store.NoSuchGame)
def no_such_game(exc: store.NoSuchGame) -> tuple[ResponseValue, int]:
    """A game or hand that is not there (any more)."""
    return error_page(str(exc), 404)


@bp.get("/")
def index() -> str:
    """Start a game, resume one in progress, look back at finished ones."""
    db, cache = get_db(), get_cache()
    open_page = row_id(request.args.get("open_page")) or 1
    page = row_id(request.args.get("page")) or 1
    mine = device()
    in_progress, more_open = store.list_games(db, mine, in_progress=True, page=open_page,
                                              cache=cache)
    finished, more_finished = store.list_games(db, mine, in_progress=False, page=page,
                                               cache=cache)
    deleted_id = row_id(request.args.get("deleted"))
    deleted_game = None
    if deleted_id and access_to(deleted_id).can_change:
        deleted_game = store.load_game(db, deleted_id, cache)
    if deleted_game and not deleted_game.deleted_at:
        deleted_game = None
    return render_template(
        "index.html", in_progress=in_progress, finished=finished, deleted_game=deleted_game,
        open_page=open_page, more_open=more_open, page=page, more_finished=more_finished,
        forgot=bool(request.args.get("forgot")),
        kept_games=store.access.kept_here(db, mine, [g.id for g in [*in_progress, *finished]]),
    )


@bp.get("/games/new")
def new_game() -> str:
    """The new-game form; htmx re-renders its variant part when the variant changes."""
    return _new_game_page(errors={})


@bp.post("/games/new")
def refresh_new_game() -> str:
    """The new-game form again, with what was typed: "use this variant" without JavaScript,
    and what Enter in a name does there (a game is only started by its own button)."""
    return _new_game_page(errors={})


def _new_game_page(errors: dict[str, str], fresh_key: bool = False,
                   import_error: str | None = None) -> str:
    args = request.values
    try:
        variant = engine.find_variant(args.get("variant") or engine.VARIANTS[0].name)
    except ValueError:
        variant = engine.VARIANTS[0]
    # Every seat any variant allows gets an input (a variant change leaves the
    # names alone); the script shows only the first few until "Add a player" is
    # tapped, and without JS all are shown. The variant's own range is checked on save.
    names = [n[:200] for n in args.getlist("player")[:MAX_SEATS]]
    # A regular tapped (a name from this phone's games) takes the first empty seat.
    mine = device()
    regulars = store.stats.remembered(get_db(), mine, ("regulars",),
                                      lambda: store.stats.regulars(get_db(), mine))
    seated = {engine.name_key(n) for n in names if n.strip()}
    added = args.get("regular", "")[:200]
    if added.strip() and engine.name_key(added) not in seated:
        empty = [i for i, n in enumerate(names) if not n.strip()]
        if empty:
            names[empty[0]] = added
        elif len(names) < MAX_SEATS:
            names.append(added)
        seated.add(engine.name_key(added))
    filled = max((i + 1 for i, n in enumerate(names) if n.strip()), default=0)
    shown = max(filled, DEFAULT_SEATS)
    names += [""] * (MAX_SEATS - len(names))
    starts = [s[:20] for s in args.getlist("start")[:MAX_SEATS]]
    starts += [""] * (MAX_SEATS - len(starts))
    # A form refused as out of date gets a new key, so the next tap can go through.
    submission = (not fresh_key and args.get("submission")) or secrets.token_urlsafe(16)
    # The variant's own settings alone when htmx asks for them (the variant switch): the
    # names typed meanwhile, outside that part, are never replaced.
    return htmx.page_or_part(
        "new_game.html", "_variant_settings.html", "variant-settings",
        variant=variant, variants=engine.VARIANTS, names=names, seats=shown,
        partners=engine.ScoringMode.PARTNERS, starts=starts,
        values=args, errors=errors, submission=submission[:64], import_error=import_error,
        import_submission=secrets.token_urlsafe(16),
        regulars=[n for n in regulars if engine.name_key(n) not in seated],
    )


@bp.post("/games")
def create_game() -> Response | tuple[str, int]:
    """Store a new game and go to its scoreboard."""
    try:
        new = parse_new_game(request.form, request.form.getlist("player"))
    except FormErrors as exc:
        return _new_game_page(exc.errors), 400
    said = store.digest((k, v) for k, v in request.form.items(multi=True)
                        if k not in ("csrf_token", "submission"))
    try:
        game_id = store.create_game(
            get_db(), new, submission=(request.form.get("submission") or "")[:64] or None,
            keeper=device(create=True), digest=said,
        )
    except store.OutOfDate as exc:
        return _new_game_page({"": str(exc)}, fresh_key=True), 409
    return redirect(url_for("games.scoreboard", game_id=game_id), 303)


@bp.post("/games/import")
def import_game() -> Response | tuple[str, int]:
    """A game exported from this app (a file, or its text pasted) as a new game, this phone
    its scorekeeper; refused whole (400) when anything in it is wrong."""
    upload = request.files.get("file")
    text: str | bytes = (upload.read(MAX_BODY + 1) if upload and upload.filename
                         else request.form.get("json", ""))
    if not text.strip():
        return _new_game_page({}, True, "Choose an exported game's file, or paste its text."), 400
    submission = (request.form.get("submission") or "")[:64] or None
    try:
        game_id = transfer.import_game(get_db(), text, keeper=str(device(create=True)),
                                       submission=submission)
    except transfer.ImportRefused as exc:
        # fresh_key: the import's key is not the new-game form's (the page reads the form).
        return _new_game_page({}, True, f"Nothing was imported. {exc}"), 400
    except store.OutOfDate as exc:
        return _new_game_page({}, True, str(exc)), 409
    return redirect(url_for("games.scoreboard", game_id=game_id), 303)


@bp.get("/games/<id:game_id>/export.json")
def export_json(game_id: int) -> Response:
    """The whole game as JSON, rule cards as this phone may read them (companion/transfer.py)."""
    game = get_game_or_404(game_id)
    data = transfer.export_game(get_db(), game, this_phone(game))
    return _download(json.dumps(data, separators=(",", ":"), ensure_ascii=False), "application/json",
                     f"uno-game-{game.id}.json")


@bp.get("/games/<id:game_id>/standings.csv")
def export_csv(game_id: int) -> Response:
    """The standings, best first, as CSV."""
    game = get_game_or_404(game_id)
    return _download(transfer.standings_csv(game), "text/csv", f"uno-standings-{game.id}.csv")


def _download(body: str, mimetype: str, name: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    response.headers["Cache-Control"] = "no-store"  # a game's rows: never kept by a cache
    return response


@bp.get("/games/<id:game_id>")
@live.page
def scoreboard(game_id: int) -> str:
    """Standings, the next dealer, and the way to record a hand."""
    game = get_game_or_404(game_id)
    restorable = store.deleted_hand_id(get_db(), game, row_id(request.args.get("restore")))
    # "Hand 3 saved", once the page it was saved from has led here (and that hand is there).
    saved = row_id(request.args.get("saved"))
    return _scoreboard_page(game, restorable=restorable,
                            saved=saved if saved and saved <= game.hand_count else None)


def _scoreboard_page(game: store.GameRecord, *, restorable: int | None = None,
                     notice: str | None = None, saved: int | None = None) -> str:
    # A variant with a Wild Jackpot unit gets its lever on the scoreboard (one tap a pull).
    lever = ({"direction": store.last_direction(get_db(), game.id),
              "written": len(store.rule_cards(get_db(), game.id)),
              "submission": secrets.token_urlsafe(16)} if game.variant.rule_cards else None)
    rematch = store.rematch_of(get_db(), game.id) if game.finished else None
    return render_template("scoreboard.html", game=game, restorable=restorable, notice=notice,
                           saved=saved, submission=secrets.token_urlsafe(16), lever=lever, rematch=rematch,
                           rematch_open=rematch is not None and access_to(rematch).can_view)


def _change_game(game_id: int, change: Callable[[Database, store.GameRecord], None],
                 *, allow_deleted: bool = False) -> Response:
    """Apply one change to a game, decided in its transaction, then show its scoreboard."""
    db = get_db()
    with store.changing(db, game_id, allow_deleted=allow_deleted, cache=get_cache()) as game:
        change(db, game)
    return redirect(url_for("games.scoreboard", game_id=game_id), 303)


@bp.post("/games/<id:game_id>/play-on")
def play_on(game_id: int) -> Response:
    """Keep playing past the target; the winner stays recorded."""
    return _change_game(game_id, store.set_play_on)


@bp.get("/games/<id:game_id>/end")
@keepers_only
def confirm_end(game_id: int) -> str:
    """Ask before ending an open-ended tally."""
    game = get_game_or_404(game_id)
    leaders = names(game.players, game.standings.leaders, " & ") or "nobody"
    return render_template(
        "confirm.html", title="End this game?",
        message=Markup("The leader wins: {}. You can reopen the game afterwards.").format(leaders),
        action=url_for("games.end_game", game_id=game.id), button="End game",
        back=url_for("games.scoreboard", game_id=game.id),
    )


@bp.post("/games/<id:game_id>/end")
def end_game(game_id: int) -> Response:
    """End an open-ended tally: the leader wins."""
    return _change_game(game_id, store.end_open_game)


@bp.post("/games/<id:game_id>/reopen")
def reopen_game(game_id: int) -> Response:
    """Take back "end game" on an open-ended tally."""
    return _change_game(game_id, lambda db, game: store.end_open_game(db, game, ended=False))


@bp.post("/games/<id:game_id>/rematch")
def rematch(game_id: int) -> Response:
    """A new game with the same seats and settings; the deal moves on one seat."""
    submission = (request.form.get("submission") or "")[:64] or None
    new_id = store.create_rematch(get_db(), game_id, submission, get_cache(),
                                  keeper=device(create=True), rng=lever_random())
    return redirect(url_for("games.scoreboard", game_id=new_id), 303)


@bp.get("/games/<id:game_id>/delete")
@keepers_only
def confirm_delete(game_id: int) -> str:
    """Ask before deleting a game."""
    game = get_game_or_404(game_id)
    return render_template(
        "confirm.html", title="Delete this game?",
        message=Markup("{} with {}, {} hand(s). You can undo this from the home page.").format(
            game.variant.title, names(game.players), game.hand_count),
        action=url_for("games.delete_game", game_id=game.id), button="Delete game",
        back=url_for("games.scoreboard", game_id=game.id),
    )


@bp.post("/games/<id:game_id>/delete")
def delete_game(game_id: int) -> Response:
    """Delete a game, keeping it so the deletion can be undone."""
    db = get_db()
    with store.changing(db, game_id, cache=get_cache()) as game:
        store.set_game_deleted(db, game, True)
    return redirect(url_for("games.index", deleted=game_id), 303)


@bp.post("/games/<id:game_id>/restore")
def restore_game(game_id: int) -> Response:
    """Undo a game's deletion."""
    db = get_db()
    with store.changing(db, game_id, allow_deleted=True, cache=get_cache()) as game:
        if not game.deleted_at:
            raise store.ConflictError("This game is not deleted.", game.id)
        store.set_game_deleted(db, game, False)
    return redirect(url_for("games.scoreboard", game_id=game_id), 303)
