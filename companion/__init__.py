"""The UNO table companion: a Flask app for a phone in the middle of the table."""

from __future__ import annotations

import os
import secrets
import sqlite3
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

import platformdirs
from flask import Config, Flask, Response

import engine

from . import assets, csrf, db, errors, gate, live

#: htmx ships as a static file (see docs/decisions.md for why 2.0).
HTMX_VERSION = "2.0.11"

#: Host names always served: this machine's own, which no web page can rebind.
LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]")

#: The largest request body accepted. The largest real form, the card picker of a
#: ten-player classic game with every field filled, is 506 fields and about 7 KB.
MAX_BODY = 256 * 1024

#: Sent with every response. The pages use no inline script or style, and htmx is told
#: not to add its indicator style (templates/base.html), so the policy can be strict.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; "
        "object-src 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}


def default_data_dir() -> Path:
    """Where the database lives unless told otherwise: the user's data folder."""
    return Path(os.environ.get("UNO_COMPANION_HOME") or platformdirs.user_data_dir("uno-companion"))


def default_database() -> str:
    """The database file unless told otherwise: UNO_COMPANION_DB, or the data folder's."""
    return os.environ.get("UNO_COMPANION_DB") or str(default_data_dir() / "companion.sqlite3")


def allowed_hosts() -> list[str]:
    """Host names served besides this machine's: UNO_COMPANION_ALLOWED_HOSTS (comma-separated)."""
    return os.environ.get("UNO_COMPANION_ALLOWED_HOSTS", "").replace(",", " ").split()


def resource_folder(name: str) -> str:
    """Where the app's ``templates`` or ``static`` folder is.

    An installed wheel carries them inside the package (pyproject.toml maps them
    there); a checkout, or an editable install of one, has them at the top of the
    repository, beside the package.
    """
    packaged = Path(__file__).resolve().parent / name
    if packaged.is_dir():
        return str(packaged)
    return str(Path(__file__).resolve().parent.parent / name)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app; ``test_config`` overrides settings (tests pass DATABASE, SECRET_KEY).

    ``DATABASE=":memory:"`` is a throwaway database: a temporary file, removed when the
    process exits, with a key kept in memory. Raises ``errors.StartupError`` when the
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
    _prepare_storage(app.config)

    db.init_app(app)
    csrf.init_app(app)
    gate.init_app(app)
    live.init_app(app)
    errors.init_app(app)
    assets.init_app(app)
    app.after_request(_protect)
    # Polls that changed nothing are most requests: answered before Flask (companion/live.py).
    app.wsgi_app = live.PollFront(app, SECURITY_HEADERS)  # type: ignore[method-assign]

    from . import games, hands, jackpot, referee, rules, sharing
    from .labels import bdi, card_label, chips, names

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
    return app


def _prepare_storage(config: Config) -> None:
    """Settle the database file and the secret key, and bring the schema up to date."""
    if config["DATABASE"] == ":memory:":
        config["DATABASE"] = db.throwaway_path()
        config["DATABASE_THROWAWAY"] = True
        # Nothing outlives the process, so neither does the key.
        config["SECRET_KEY"] = config["SECRET_KEY"] or secrets.token_hex(32)
    path = config["DATABASE"]
    folder = Path(path).parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise errors.StartupError(
            f"The folder {folder} for the database cannot be made ({exc.strerror}): choose "
            "another place for it (--db, or UNO_COMPANION_DB).") from exc
    if not config["SECRET_KEY"]:
        config["SECRET_KEY"] = _stored_secret(folder)
    if config.get("DATABASE_READONLY") is None:
        config["DATABASE_READONLY"] = db.read_only_file(path)
    try:
        db.migrate(path, config["DATABASE_READONLY"])
    except sqlite3.DatabaseError as exc:
        problem = errors.database_problem(exc, path)
        if problem is None:
            raise
        raise errors.StartupError(problem[1]) from exc


def _stored_secret(folder: Path) -> str:
    # Sessions (and so CSRF tokens) must survive a restart: keep the key beside the data.
    path = folder / "secret_key"
    try:
        key = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        key = ""
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "it is not text"
        raise errors.StartupError(
            f"The secret key file {path} cannot be read ({reason}): fix it, or delete it to "
            "have a new key made (open pages then need a reload).") from exc
    # An empty file is a write that was cut short (keys were once written in place). No
    # session can have been signed with an empty key, so a new key loses nothing.
    return key or _write_secret(path)


def _write_secret(path: Path) -> str:
    """Store a new key so that it appears whole and private, or not at all."""
    key = secrets.token_hex(32)
    try:
        # mkstemp opens with O_EXCL and mode 0o600: the key is never readable by others.
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".secret_key-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as file:
                file.write(key)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError as exc:
        raise errors.StartupError(
            f"The secret key cannot be written to {path} ({exc.strerror}): check that the "
            "folder is writable, or set UNO_COMPANION_SECRET_KEY.") from exc
    return key


def _protect(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    # A page is never kept by the browser: one shown again by Back or a cache would carry
    # one-time keys already spent. Static assets set their own caching (companion/assets.py).
    if response.mimetype == "text/html":
        response.headers["Cache-Control"] = "no-store"
    return response
