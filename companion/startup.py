"""What runs before serving: the database file settled and its schema brought up to date
(the migrations, then the derived state the store keeps), the secret key found or made,
and every problem with them told as a ``StartupError`` in one sentence (the command line
prints it and exits 2)."""

from __future__ import annotations

import os
import secrets
import sqlite3
import tempfile
from pathlib import Path

import click
from flask import Config, Flask, current_app

from . import db, store
from .errors import StartupError, database_problem
from .schema import migrations


def migrate(path: str, read_only: bool = False) -> None:
    """Bring the schema of the database at ``path`` up to date (once, at start-up).

    A read-only database cannot be brought up to date: it must need nothing.
    """
    database = db.open_db(path, read_only)
    try:
        if not read_only:
            migrations.apply(database)
            # Derived state is computed the way the store computes it.
            store.fill_listing_state(database)
            store.score_stale_games(database)
            store.stats.fill_results(database)
        elif migrations.pending(database):
            raise StartupError(
                f"{path} is read-only and needs an update for this version of the app: make "
                "it writable and start the app once, then make it read-only again.")
    finally:
        database.close()


def prepare_storage(config: Config) -> None:
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
        raise StartupError(
            f"The folder {folder} for the database cannot be made ({exc.strerror}): choose "
            "another place for it (--db, or UNO_COMPANION_DB).") from exc
    if not config["SECRET_KEY"]:
        config["SECRET_KEY"] = stored_secret(folder)
    if config.get("DATABASE_READONLY") is None:
        config["DATABASE_READONLY"] = db.read_only_file(path)
    try:
        migrate(path, config["DATABASE_READONLY"])
    except sqlite3.DatabaseError as exc:
        problem = database_problem(exc, path)
        if problem is None:
            raise
        raise StartupError(problem[1]) from exc


def stored_secret(folder: Path) -> str:
    # Sessions (and so CSRF tokens) must survive a restart: keep the key beside the data.
    path = folder / "secret_key"
    try:
        key = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        key = ""
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "it is not text"
        raise StartupError(
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
        raise StartupError(
            f"The secret key cannot be written to {path} ({exc.strerror}): check that the "
            "folder is writable, or set UNO_COMPANION_SECRET_KEY.") from exc
    return key


@click.command("init-db")
def init_db_command() -> None:
    """Create or migrate the database file."""
    migrate(current_app.config["DATABASE"], current_app.config.get("DATABASE_READONLY", False))
    click.echo(f"Database ready at {current_app.config['DATABASE']}")


def init_app(app: Flask) -> None:
    """Register the ``init-db`` command."""
    app.cli.add_command(init_db_command)
