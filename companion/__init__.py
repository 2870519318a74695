"""The UNO table companion: a Flask app for a phone in the middle of the table."""

from __future__ import annotations

import functools
import os
from datetime import timedelta
from typing import Any

from flask import Flask, Response

import engine

# The views (blueprints) are games, hands, jackpot, referee, rules, sharing and story: only
# create_app imports them, and no other module does (tests/app/test_app_layout.py).
from . import (
    assets,
    csrf,
    db,
    errors,
    games,
    gate,
    hands,
    htmx,
    jackpot,
    live,
    referee,
    rules,
    sharing,
    startup,
    store,
    story,
)
from .labels import bdi, card_label, chips, names
from .settings import (
    HTMX_VERSION,
    LOCAL_HOSTS,
    MAX_BODY,
    allowed_hosts,
    default_data_dir,
    default_database,
    resource_folder,
)

__all__ = ["HTMX_VERSION", "LOCAL_HOSTS", "MAX_BODY", "create_app", "default_data_dir",
           "default_database"]


def security_headers(inline: dict[str, str]) -> dict[str, str]:
    """What every response carries. The pages use no inline script or style but app.js and
    the stylesheet on a phone's first page, each allowed by its hash (``inline``,
    companion/assets.py); htmx is told not to add its indicator style (templates/base.html),
    so the policy can be strict."""
    return {
        "Content-Security-Policy": (
            f"default-src 'self'; script-src 'self' {inline['script']}; "
            f"style-src 'self' {inline['style']}; img-src 'self'; connect-src 'self'; "
            "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"),
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",
        "X-Frame-Options": "DENY",
    }


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app; ``test_config`` overrides settings (tests pass DATABASE, SECRET_KEY).

    ``DATABASE=":memory:"`` is a throwaway database: a temporary file, removed when the
    process exits, with a key kept in memory. Raises ``errors.StartupError`` (companion/startup.py) when the
    database or the secret key cannot be used, saying what to do.
    """
    # Static files are served by companion.assets (hashed names, compression), not Flask.
    app = Flask(__name__, template_folder=resource_folder("templates"), static_folder=None)
    app.static_folder = resource_folder("static")
    app.config.from_mapping(
        DATABASE=default_database(),
        SECRET_KEY=os.environ.get("UNO_COMPANION_SECRET_KEY"),
        SESSION_COOKIE_SAMESITE="Lax",
        # A phone's list of games lives on the key in its session cookie (companion/gate.py):
        # kept for 400 days (browsers keep no cookie longer), renewed when it joins a game.
        PERMANENT_SESSION_LIFETIME=timedelta(days=400),
        SESSION_REFRESH_EACH_REQUEST=False,
        HTMX_VERSION=HTMX_VERSION,
        ALLOWED_HOSTS=[*LOCAL_HOSTS, *allowed_hosts()],
        MAX_CONTENT_LENGTH=MAX_BODY,
        MAX_FORM_MEMORY_SIZE=MAX_BODY,
    )
    if test_config:
        app.config.update(test_config)
    startup.prepare_storage(app.config)

    db.init_app(app)
    store.init_app(app)
    startup.init_app(app)
    csrf.init_app(app)
    gate.init_app(app)
    live.init_app(app)
    errors.init_app(app)
    assets.init_app(app)
    htmx.init_app(app)
    headers = security_headers(app.extensions["uno_assets"].inline_hashes)
    app.after_request(functools.partial(_protect, headers))
    # Polls that changed nothing are most requests: answered before Flask (companion/live.py).
    app.wsgi_app = live.PollFront(app, headers)  # type: ignore[method-assign]

    app.jinja_env.globals["card_label"] = card_label
    app.jinja_env.globals["chips"] = chips
    app.jinja_env.filters["bdi"] = bdi
    app.jinja_env.globals["names"] = names
    app.jinja_env.globals["card_colors"] = engine.COLORS

    app.register_blueprint(games.bp)
    app.register_blueprint(hands.bp)
    app.register_blueprint(rules.bp)
    app.register_blueprint(referee.bp)
    app.register_blueprint(jackpot.bp)
    app.register_blueprint(sharing.bp)
    app.register_blueprint(story.bp)
    return app


def _protect(headers: dict[str, str], response: Response) -> Response:
    for name, value in headers.items():
        response.headers.setdefault(name, value)
    # A page is never kept by the browser: one shown again by Back or a cache would carry
    # one-time keys already spent. Static assets set their own caching (companion/assets.py).
    if response.mimetype == "text/html":
        response.headers["Cache-Control"] = "no-store"
    return response
