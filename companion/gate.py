"""The door to every game: which phone this request comes from, and what it may do.

Each browser is a ``device``: a random key kept in its signed session cookie, made when
it first starts a game or opens a share link. Before any view of a game runs (every URL
with a ``game_id``), :func:`guard` asks :mod:`companion.store.access` what this device may do:
a stranger gets the same 404 as for a game that does not exist (ids are sequential, so
they must open nothing), a viewer may look but any change is a 403, a scorekeeper may
do everything. Views that load a game named elsewhere (the referee's ``?game=``) go
through :func:`get_game_or_404`, which asks the same question.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from flask import Flask, abort, current_app, g, request, session

from . import store
from .db import get_db
from .store import access, get_cache
from .store.access import Access

#: Methods that change nothing.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

#: What a stranger is told: the same as for a game that is not there.
NO_SUCH_GAME = "There is no such game. It may have been deleted."
#: What a viewer is told when it tries to change the game.
VIEW_ONLY = ("This phone can only look at this game: ask the scorekeeper for the "
             "scorekeeper's link (or QR code) to change it. Nothing was changed.")

View = TypeVar("View", bound=Callable[..., object])


def device(create: bool = False) -> str | None:
    """This browser's key (None for a browser that never had one, unless ``create``)."""
    found = session.get("device")
    if found is None and create:
        found = session["device"] = access.new_device()
        # Kept across browser restarts: the phone's list of games lives on this key.
        session.permanent = True
    return str(found) if found else None


def access_to(game_id: int) -> Access:
    """What this device may do with the game (asked once per request)."""
    known: dict[int, Access] = g.setdefault("access", {})
    if game_id not in known:
        known[game_id] = access.role_of(get_db(), device(), game_id)
    return known[game_id]


def current_access() -> Access:
    """What this device may do with the game the request is about (templates ask this)."""
    return g.get("game_access", access.STRANGER)  # type: ignore[no-any-return]


def get_game_or_404(game_id: int, *, allow_deleted: bool = False) -> store.GameRecord:
    """The game, or a 404 page for an unknown (or deleted) one, or one this phone was not
    given."""
    allowed = access_to(game_id)
    if not allowed.can_view:
        abort(404, description=NO_SUCH_GAME)
    game = store.load_game(get_db(), game_id, get_cache())
    if game is None or (game.deleted_at and not allow_deleted):
        abort(404, description=NO_SUCH_GAME)
    g.game_access = allowed
    g.shown_game = game  # the page's game (templates/base.html shows what waits for this phone)
    return game


def require_change(game_id: int) -> None:
    """Refuse (403) unless this phone may change the game."""
    if not access_to(game_id).can_change:
        abort(403, description=VIEW_ONLY)


def viewers_may_post(view: View) -> View:
    """Mark a view of a game that a viewer may send (it checks what it allows itself)."""
    view.viewers_may_post = True  # type: ignore[attr-defined]
    return view


def keepers_only(view: View) -> View:
    """Mark a page of a game that exists only to change it (a form, a confirmation): a
    viewer is refused it as it would be refused its POST."""
    view.keepers_only = True  # type: ignore[attr-defined]
    return view


def refusal(allowed: Access, view: object, method: str) -> int | None:
    """The door's decision for a request of ``method`` to ``view`` by a phone allowed
    ``allowed``: 404 (a stranger), 403 (a viewer asking to change), or None (come in).
    Also asked by the live pages' poll front (companion/live.py), before Flask."""
    if not allowed.can_view:
        return 404
    if allowed.can_change:
        return None
    if method in SAFE_METHODS:
        refused = getattr(view, "keepers_only", False)
    else:
        refused = not getattr(view, "viewers_may_post", False)
    return 403 if refused else None


def guard() -> None:
    """Before any view of a game: a stranger's 404, a viewer's 403 for a change."""
    game_id = (request.view_args or {}).get("game_id")
    if not isinstance(game_id, int):
        return
    allowed = access_to(game_id)
    view = current_app.view_functions.get(request.endpoint or "")
    refused = refusal(allowed, view, request.method)
    if refused == 404:
        abort(404, description=NO_SUCH_GAME)
    g.game_access = allowed
    if refused == 403:
        abort(403, description=VIEW_ONLY)


def init_app(app: Flask) -> None:
    """Guard every game's URLs, and let templates ask what this phone may do."""
    app.before_request(guard)
    app.jinja_env.globals["access"] = current_access
