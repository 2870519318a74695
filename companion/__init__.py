"""The UNO table companion: a Flask app for a phone in the middle of the table."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

import platformdirs
from flask import Flask

import engine

from . import csrf, db, errors

#: htmx ships as a static file (see docs/decisions.md for why 2.0).
HTMX_VERSION = "2.0.11"


def default_data_dir() -> Path:
    """Where the database lives unless told otherwise: the user's data folder."""
    return Path(os.environ.get("UNO_COMPANION_HOME") or platformdirs.user_data_dir("uno-companion"))


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app; ``test_config`` overrides settings (tests pass DATABASE, SECRET_KEY)."""
    app = Flask(__name__, template_folder="../templates", static_folder="../static")
    data_dir = default_data_dir()
    app.config.from_mapping(
        DATABASE=os.environ.get("UNO_COMPANION_DB") or str(data_dir / "companion.sqlite3"),
        SECRET_KEY=os.environ.get("UNO_COMPANION_SECRET_KEY"),
        SESSION_COOKIE_SAMESITE="Lax",
        HTMX_VERSION=HTMX_VERSION,
    )
    if test_config:
        app.config.update(test_config)
    if app.config["DATABASE"] != ":memory:":
        Path(app.config["DATABASE"]).parent.mkdir(parents=True, exist_ok=True)
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = _stored_secret(Path(app.config["DATABASE"]).parent)

    db.migrate(app.config["DATABASE"])
    db.init_app(app)
    csrf.init_app(app)
    errors.init_app(app)

    from . import games, hands
    from .labels import bdi, card_label, chips, names

    app.jinja_env.globals["card_label"] = card_label
    app.jinja_env.globals["chips"] = chips
    app.jinja_env.filters["bdi"] = bdi
    app.jinja_env.globals["names"] = names
    app.jinja_env.globals["card_colors"] = engine.COLORS

    app.register_blueprint(games.bp)
    app.register_blueprint(hands.bp)
    return app


def _stored_secret(folder: Path) -> str:
    # Sessions (and so CSRF tokens) must survive a restart: keep the key beside the data.
    path = folder / "secret_key"
    if path.exists():
        return path.read_text().strip()
    key = secrets.token_hex(32)
    path.write_text(key)
    path.chmod(0o600)
    return key
