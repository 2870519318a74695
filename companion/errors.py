"""Error pages: every refusal is a page that says what happened, with its status.

Views refuse with ``abort(status, description=message)``; the handlers here turn
that (and Werkzeug's own refusals) into the same plain page, app-wide, or, for a
request that asks for JSON (the referee's API, docs/api.md), the same sentence as
``{"error": ..., "fields": {}}``. A database
that cannot be read or written is told in one sentence: on a page (503) while
serving, or as a ``StartupError`` that the command line prints instead of starting.
"""

from __future__ import annotations

import sqlite3

from flask import Flask, current_app, jsonify, render_template, render_template_string, request
from flask.typing import ResponseValue
from werkzeug.exceptions import HTTPException, SecurityError
from werkzeug.routing import IntegerConverter

from . import htmx
from .db import db_broken

#: A refusal's title; a 403's body says who may (the scorekeeper, or a player's own phone).
TITLES = {
    400: "That did not work", 403: "Not from this phone", 404: "Not found", 405: "That did not work",
    409: "That did not work", 413: "Too much at once",
}

#: SQLite failures someone at the table can fix, by primary result code: a title, and a
#: sentence where ``{db}`` is "the database file" on a page, its path on the command line.
DATABASE_PROBLEMS: dict[int, tuple[str, str]] = {
    sqlite3.SQLITE_READONLY: (
        "The scores are read-only",
        ("{db} is read-only, so the scores can be read but not changed: make it writable "
         "(or start the app as the file's owner), then try again.")),
    sqlite3.SQLITE_FULL: (
        "The disk is full",
        ("The disk holding {db} is full, so nothing more can be saved: free some space, "
         "then try again.")),
    sqlite3.SQLITE_NOTADB: (
        "Not a scores database",
        ("{db} is not an SQLite database, or it is damaged: start the app with another "
         "database file, or put back a copy from a backup.")),
    sqlite3.SQLITE_CORRUPT: (
        "The database is damaged",
        ("{db} is damaged: put back a copy from a backup, or start the app with another "
         "database file.")),
    sqlite3.SQLITE_CANTOPEN: (
        "The database cannot be opened",
        ("{db} cannot be opened: check that its folder exists and that the app may write "
         "there.")),
    sqlite3.SQLITE_IOERR: (
        "The disk failed",
        "The disk failed while reading or writing {db}: check the disk, then try again."),
    sqlite3.SQLITE_BUSY: (
        "The database is busy",
        "{db} is busy (another program is writing to it): try again in a moment."),
}

#: The page for a request to a host name the app does not serve. It stands alone: Flask
#: binds no URL adapter for such a request, so base.html's url_for() calls would fail.
REFUSED_HOST_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Unknown address · UNO companion</title></head>
<body><h1>Unknown address</h1><p>{{ message }}</p></body></html>
"""

#: The largest id SQLite can store (a signed 64-bit integer).
MAX_ID = 2**63 - 1


class StartupError(Exception):
    """What keeps the app from starting, in one line (the command line prints it, exits 2)."""


class IdConverter(IntegerConverter):
    """``<id:game_id>``: a row id, so an id SQLite cannot hold is a 404, not an overflow."""

    # At most 19 digits and no leading zero in the pattern itself: an id that cannot
    # match is a plain 404 for every method (a failed conversion alone made Werkzeug
    # answer 405 where another method's rule shares the path).
    regex = r"[1-9][0-9]{0,18}"

    def __init__(self, map, *args, **kwargs):  # type: ignore[no-untyped-def]
        super().__init__(map, min=1, max=MAX_ID)


class SmallNumberConverter(IntegerConverter):
    """``<small:seat>``: a seat or a place in a short list, at most four digits, so a number
    SQLite cannot hold is a 404, not an overflow (the view answers 404 past its own end)."""

    regex = r"0|[1-9][0-9]{0,3}"


def row_id(value: object) -> int | None:
    """A row id from a query string or form field; None for anything else (junk, 0, too big)."""
    text = str(value).strip() if value is not None else ""
    if not text.isascii() or not text.isdigit() or len(text) > 19:
        return None
    number = int(text)
    return number if 1 <= number <= MAX_ID else None


def database_problem(exc: sqlite3.Error, db: str) -> tuple[str, str] | None:
    """A title and a sentence naming ``db`` for an SQLite failure one can fix; None for others."""
    code = getattr(exc, "sqlite_errorcode", None)
    if not isinstance(code, int):
        return None
    # Extended codes (SQLITE_IOERR_WRITE, SQLITE_READONLY_DBMOVED...) keep the primary
    # code in their low byte.
    problem = DATABASE_PROBLEMS.get(code & 0xFF)
    if problem is None:
        return None
    title, sentence = problem
    text = sentence.format(db=db)
    return title, text[:1].upper() + text[1:]


def error_page(message: str, status: int, title: str | None = None) -> tuple[ResponseValue, int]:
    """A plain page explaining what went wrong, with its status; the same sentence as JSON
    to a request that asks for JSON."""
    if htmx.answer_format() == "json":
        return jsonify({"error": message, "fields": {}}), status
    title = title or TITLES.get(status, "That did not work")
    return render_template("error.html", title=title, message=message, status=status), status


def _http_error(exc: HTTPException) -> tuple[ResponseValue, int, dict[str, str]]:
    messages = {
        404: "Page not found.",
        405: "That address does not take this kind of request.",
        413: "That request was too large to accept: nothing was saved.",
    }
    code = exc.code or 500
    description = exc.description
    # Werkzeug's stock descriptions are written for developers; ours are set by abort().
    if description == type(exc).description:
        description = messages.get(code, description)
    # Keep what the refusal must say in its headers (a 405's Allow), not its body's type.
    headers = {k: v for k, v in exc.get_headers() if k.lower() != "content-type"}
    return (*error_page(str(description), code), headers)


def _database_error(exc: sqlite3.DatabaseError) -> tuple[ResponseValue, int]:
    # The app's writes let SQLite's errors through (sqlite-utils, db.writing()); those
    # the person at the table can fix get a page, and the rest stay a 500, as bugs.
    db_broken()  # the connection is closed after this request, not lent again
    problem = database_problem(exc, "the database file")
    if problem is None:
        raise exc
    current_app.logger.error("%s: %s", current_app.config["DATABASE"], exc)
    title, message = problem
    return error_page(message, 503, title)


def _refused_host(exc: SecurityError) -> tuple[str, int]:
    host = request.headers.get("Host", "")
    message = (f"This server does not answer to the name “{host}”. Open it at the address "
               "that uno-companion serve printed, or let it answer to this name: "
               "uno-companion serve --allow-host NAME, or UNO_COMPANION_ALLOWED_HOSTS.")
    return render_template_string(REFUSED_HOST_PAGE, message=message), 400


def host_name(host: str) -> str:
    """The name in a Host header, without its port: "[::1]:5000" -> "[::1]"."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[:host.find("]") + 1] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _refuse_unknown_host() -> None:
    # Checked here rather than with Flask's TRUSTED_HOSTS: Werkzeug's own matching
    # reads an IPv6 name such as [::1] up to its first colon, and refused it from 3.1.9.
    # Runs before any other hook (the CSRF check renders a page).
    allowed = current_app.config["ALLOWED_HOSTS"]
    if host_name(request.headers.get("Host", "")) not in {h.lower() for h in allowed}:
        raise SecurityError("unknown host")


def init_app(app: Flask) -> None:
    """Register the error pages, the host refusal and the ``id`` URL converter."""
    app.url_map.converters["id"] = IdConverter
    app.url_map.converters["small"] = SmallNumberConverter
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(SecurityError, _refused_host)
    app.register_error_handler(sqlite3.DatabaseError, _database_error)
    app.before_request_funcs.setdefault(None, []).insert(0, _refuse_unknown_host)
