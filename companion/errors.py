"""Error pages: every refusal is a page that says what happened, with its status.

Views refuse with ``abort(status, description=message)``; the handlers here turn
that (and Werkzeug's own refusals) into the same plain page, app-wide. What keeps
the app from starting is a ``StartupError``, which the command line prints.
"""

from __future__ import annotations

from flask import Flask, render_template
from werkzeug.exceptions import HTTPException
from werkzeug.routing import IntegerConverter

TITLES = {
    400: "That did not work", 404: "Not found", 405: "That did not work",
    409: "That did not work", 413: "Too much at once",
}

#: The largest id SQLite can store (a signed 64-bit integer).
MAX_ID = 2**63 - 1


class StartupError(Exception):
    """What keeps the app from starting, in one line (the command line prints it, exits 2)."""


class IdConverter(IntegerConverter):
    """``<id:game_id>``: a row id, so an id SQLite cannot hold is a 404, not an overflow."""

    def __init__(self, map, *args, **kwargs):  # type: ignore[no-untyped-def]
        super().__init__(map, min=1, max=MAX_ID)


def row_id(value: object) -> int | None:
    """A row id from a query string or form field; None for anything else (junk, 0, too big)."""
    text = str(value).strip() if value is not None else ""
    if not text.isascii() or not text.isdigit() or len(text) > 19:
        return None
    number = int(text)
    return number if 1 <= number <= MAX_ID else None


def error_page(message: str, status: int, title: str | None = None) -> tuple[str, int]:
    """A plain page explaining what went wrong, with its status."""
    title = title or TITLES.get(status, "That did not work")
    return render_template("error.html", title=title, message=message, status=status), status


def _http_error(exc: HTTPException) -> tuple[str, int]:
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
    return error_page(str(description), code)


def init_app(app: Flask) -> None:
    """Register the error pages and the ``id`` URL converter."""
    app.url_map.converters["id"] = IdConverter
    app.register_error_handler(HTTPException, _http_error)
