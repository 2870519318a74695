"""Live pages: every phone showing a game polls its page, and hears "nothing changed" cheaply.

A live page (the scoreboard, the hands, the rulings, the lever and its history) carries a
poller (``live_poller`` in templates/_macros.html) that asks for the same page every two
seconds, sending the ETag it was given; ``static/app.js`` swaps the page's live regions
in when something changed. The ETag is made from the game's ``revision``, which the
database itself bumps on every change a live page shows (companion/schema.py), so "nothing
changed" is one indexed row read and a ``304``, before the game is loaded or scored.
See "Live pages: polling with ETags" in docs/decisions.md for why not server-sent events.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from importlib import metadata
from typing import ParamSpec, TypeVar

from flask import Flask, current_app, g, request
from werkzeug.wrappers import Response

from . import store
from .db import get_db
from .gate import access_to

P = ParamSpec("P")
R = TypeVar("R")

#: How often a live page asks whether its game changed (the poller's hx-trigger).
POLL_EVERY = "2s"


def app_version() -> str:
    """The installed app's version: part of every ETag, so that a deploy (a new version)
    sends every open page its regions afresh, from the new templates."""
    try:
        return metadata.version("uno-companion")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown"


def etag(game_id: int) -> str | None:
    """This request's ETag for a live page of the game, or None for a game not there.

    Besides the game's revision: what this phone may do (a keeper's page has buttons a
    viewer's has not), the representation asked for (the rulings also answer JSON), and
    the app's version. Hashed, so that the tag says nothing of the game.
    """
    revision = store.revision(get_db(), game_id)
    if revision is None:
        return None
    allowed = access_to(game_id)  # asked already by the gate: no second query
    kind = request.accept_mimetypes.best_match(["text/html", "application/json"])
    parts = (game_id, revision, allowed.role, allowed.seat, kind,
             current_app.config["APP_VERSION"])
    return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()


def page(view: Callable[P, R]) -> Callable[P, R | Response]:
    """Make a view of one game (``game_id``) a live page: ``304 Not Modified``, with no
    body, when the request's If-None-Match names the game as it is; else the view as it
    was, its response carrying the ETag (which its template also reads: ``live_etag``)."""

    @functools.wraps(view)
    def live_view(*args: P.args, **kwargs: P.kwargs) -> R | Response:
        game_id = kwargs["game_id"]
        assert isinstance(game_id, int)
        # Read before the view loads the game: a change committed in between makes the
        # page newer than its tag (the next poll fetches it again), never older.
        tag = etag(game_id)
        if tag is None:
            return view(*args, **kwargs)  # the view says there is no such game
        g.live_etag = tag
        if request.if_none_match.contains(tag):
            unchanged = Response(status=304)
            unchanged.set_etag(tag)
            return unchanged
        return view(*args, **kwargs)

    return live_view


def live_etag() -> str:
    """The ETag of the live page being rendered (templates put it on the poller)."""
    return str(g.get("live_etag", ""))


def _tag_response(response: Response) -> Response:
    """A live page's 200 carries its ETag: the poller sends it back on its next poll."""
    tag = g.get("live_etag")
    if tag and response.status_code == 200 and not response.get_etag()[0]:
        response.set_etag(tag)
    return response


def init_app(app: Flask) -> None:
    """Know the app's version, tag live pages' answers, and let templates read the tag."""
    app.config.setdefault("APP_VERSION", app_version())
    app.config.setdefault("LIVE_POLL", POLL_EVERY)
    app.after_request(_tag_response)
    app.jinja_env.globals["live_etag"] = live_etag
