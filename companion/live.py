"""Live pages: every phone showing a game polls its page, and hears "nothing changed" cheaply.

A live page (the scoreboard, the hands, the rulings, the lever and its history) carries a
poller (``live_poller`` in templates/_macros.html) that asks for the same page every two
seconds, sending the ETag it was given; ``static/app.js`` swaps the page's live regions
in when something changed. The ETag is made from the game's ``revision``, which the
database itself bumps on every change a live page shows (companion/schema.py), so "nothing
changed" is one indexed row read and a ``304``, before the game is loaded or scored.
See "Live pages: polling with ETags" in docs/decisions.md for why not server-sent events.

Most requests a server gets are such polls, so :meth:`PollFront.unchanged` settles them
before Flask is reached (no request context, session object or hooks), and nothing else
does (gunicorn's worker loop asks it too: companion/server.py): it asks the same door as
every page (:func:`companion.gate.refusal`) and makes the tag the page was given
(:func:`tag`), from one read of the revision and the phone's role, and leaves anything it
cannot settle (a change, a refusal, a bad cookie) to Flask, which renders the page. Why:
docs/decisions.md, "Answering 'nothing changed' before Flask".
"""

from __future__ import annotations

import functools
import hashlib
import sqlite3
import time
from collections.abc import Callable, Iterable, Mapping
from importlib import metadata
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from flask import Flask, current_app, g, request
from itsdangerous import BadData
from werkzeug.datastructures import MIMEAccept
from werkzeug.exceptions import HTTPException
from werkzeug.http import parse_accept_header, parse_cookie, parse_etags, quote_etag
from werkzeug.wrappers import Response

from . import gate, store
from .db import ConnectionPool, get_db
from .errors import host_name
from .store.access import Access

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

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


@functools.lru_cache(maxsize=256)
def representation(accept: str | None) -> str | None:
    """What an Accept header asks of a live page: its HTML, or JSON (the rulings)."""
    return parse_accept_header(accept, MIMEAccept).best_match(["text/html", "application/json"])


def tag(game_id: int, revision: int, allowed: Access, kind: str | None,
        version: str) -> str:
    """The ETag of a live page of the game at ``revision``, as seen by a phone allowed
    ``allowed``, in the representation ``kind``, from the app at ``version``.

    Besides the game's revision: what this phone may do (a keeper's page has buttons a
    viewer's has not), the representation asked for (the rulings also answer JSON), and
    the app's version. Hashed, so that the tag says nothing of the game.
    """
    parts = (game_id, revision, allowed.role, allowed.seat, kind, version)
    return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()


def etag(game_id: int) -> str | None:
    """This request's ETag for a live page of the game, or None for a game not there."""
    revision = store.revision(get_db(), game_id)
    if revision is None:
        return None
    allowed = gate.access_to(game_id)  # asked already by the gate: no second query
    return tag(game_id, revision, allowed, representation(request.headers.get("Accept")),
               current_app.config["APP_VERSION"])


def page(view: Callable[P, R]) -> Callable[P, R]:
    """Make a view of one game (``game_id``) a live page: its answer carries the ETag of
    the game as it is (which its template also reads: ``live_etag``), and a poll naming
    that tag is answered ``304`` by :class:`PollFront`, the one place that decides it,
    before Flask. A poll the front does not settle is answered here with the page: always a
    right answer, only a dearer one (see "Live pages" in docs/decisions.md)."""

    @functools.wraps(view)
    def live_view(*args: P.args, **kwargs: P.kwargs) -> R:
        game_id = kwargs["game_id"]
        assert isinstance(game_id, int)
        # Read before the view loads the game: a change committed in between makes the
        # page newer than its tag (the next poll fetches it again), never older.
        tag = etag(game_id)
        if tag is not None:  # else the view says there is no such game
            g.live_etag = tag
        return view(*args, **kwargs)

    live_view.live_page = True  # type: ignore[attr-defined]  # the poll front answers it
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


class PollFront:
    """WSGI middleware: a live page's poll that names the game as it is gets its ``304``
    here, the one place that decides it, at about half of what Flask's path costs (a
    fifth through gunicorn's worker loop, which asks :meth:`unchanged` too); every other
    request (and a poll this cannot settle) goes on to ``app`` untouched.

    ``headers`` are sent with each 304, as Flask's would be (the app's security headers).
    """

    def __init__(self, app: Flask, headers: Mapping[str, str]):
        self.app = app
        self.inner: WSGIApplication = app.wsgi_app
        # What the page's own 200 carries besides its body (a 304 repeats it, RFC 9110
        # 15.4.5): live pages are never kept by a cache.
        self.headers = [*headers.items(), ("Cache-Control", "no-store"), ("Vary", "Cookie")]
        self._serializer: tuple[object, Any] = (None, None)
        # What was worked out already, for the next poll (each bounded: see _remember):
        # a path's live view and game, and a cookie's device and when it expires.
        self._routes: dict[tuple[str, str], tuple[object, int] | None] = {}
        self._devices: dict[tuple[object, str], tuple[str, float]] = {}

    def __call__(self, environ: WSGIEnvironment,
                 start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET" and environ.get("HTTP_IF_NONE_MATCH"):
            try:
                unchanged = self.unchanged(environ)
            except (sqlite3.Error, HTTPException, BadData, ValueError, TypeError):
                unchanged = None  # Flask answers it, and says what went wrong
            if unchanged is not None:
                start_response("304 NOT MODIFIED", [("ETag", quote_etag(unchanged)),
                                                    *self.headers])
                return []
        return self.inner(environ, start_response)

    def unchanged(self, environ: WSGIEnvironment) -> str | None:
        """The ETag the poll named, when it is the page's current one and the phone may
        see the page; None when Flask must answer."""
        config = self.app.config
        if host_name(environ.get("HTTP_HOST", "")) not in {
                h.lower() for h in config["ALLOWED_HOSTS"]}:
            return None
        route = self.route(environ)
        if route is None:
            return None
        view, game_id = route
        device = self.device(environ)
        if device is None:
            return None  # no phone key: a stranger, whom Flask turns away
        pool: ConnectionPool = self.app.extensions["uno_db"]
        db = pool.take(config["DATABASE"], config.get("DATABASE_READONLY", False))
        broken = True
        try:
            found = store.revision_and_role(db, device, game_id)
            broken = False
        finally:
            pool.give_back(db, broken=broken)
        if found is None or gate.refusal(found[1], view, "GET") is not None:
            return None
        current = tag(game_id, found[0], found[1], representation(environ.get("HTTP_ACCEPT")),
                      config["APP_VERSION"])
        return current if parse_etags(environ["HTTP_IF_NONE_MATCH"]).contains(current) else None

    def route(self, environ: WSGIEnvironment) -> tuple[object, int] | None:
        """The live page's view and game the request's path names; None for any other."""
        path = (environ.get("SCRIPT_NAME", ""), environ.get("PATH_INFO", ""))
        if path not in self._routes:
            endpoint, args = self.app.url_map.bind_to_environ(environ).match()
            view = self.app.view_functions.get(str(endpoint))
            game_id = args.get("game_id")
            live = getattr(view, "live_page", False) and isinstance(game_id, int)
            _remember(self._routes, path, (view, game_id) if live else None)
        return self._routes[path]

    def device(self, environ: WSGIEnvironment) -> str | None:
        """The phone's key in its session cookie, read as Flask's session would read it
        (signature and age checked); None without a valid one."""
        cookie = parse_cookie(environ).get(self.app.config["SESSION_COOKIE_NAME"])
        if not cookie:
            return None
        secret = self.app.secret_key
        known = self._devices.get((secret, cookie))
        if known is not None:
            return known[0] if time.time() < known[1] else None
        key, serializer = self._serializer
        if key != secret or serializer is None:
            # Made once, not per request as Flask's session does: it derives the key.
            serializer = self.app.session_interface.get_signing_serializer(  # type: ignore[attr-defined]
                self.app)
            self._serializer = (secret, serializer)
        if serializer is None:
            return None
        lifetime = self.app.permanent_session_lifetime.total_seconds()
        data, signed = serializer.loads(cookie, max_age=int(lifetime), return_timestamp=True)
        found = data.get("device") if isinstance(data, dict) else None
        if not isinstance(found, str) or not found:
            return None
        _remember(self._devices, (secret, cookie), (found, signed.timestamp() + lifetime))
        return found


#: The most entries a PollFront keeps of each kind (a few hundred bytes each).
REMEMBERED = 8192


def _remember(known: dict[Any, Any], key: object, value: object) -> None:
    """Keep ``value`` under ``key``, forgetting everything once ``known`` is full: a
    stranger's stream of new paths or cookies costs memory for a moment, not for ever."""
    if len(known) >= REMEMBERED:
        known.clear()
    known[key] = value


def init_app(app: Flask) -> None:
    """Know the app's version, tag live pages' answers, and let templates read the tag."""
    app.config.setdefault("APP_VERSION", app_version())
    app.config.setdefault("LIVE_POLL", POLL_EVERY)
    app.after_request(_tag_response)
    app.jinja_env.globals["live_etag"] = live_etag
