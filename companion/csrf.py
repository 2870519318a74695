"""CSRF protection: every state-changing request carries the session's token.

Forms send it as a hidden field, htmx requests as the X-CSRF-Token header
(set once on <body> with hx-headers).
"""

from __future__ import annotations

import hmac
import secrets

from flask import Flask, request, session
from flask.typing import ResponseValue

from .errors import error_page

FIELD = "csrf_token"
HEADER = "X-CSRF-Token"


def token() -> str:
    """The session's token, created on first use."""
    if FIELD not in session:
        session[FIELD] = secrets.token_urlsafe(32)
    return str(session[FIELD])


def check() -> tuple[ResponseValue, int] | None:
    """Refuse unsafe requests whose token is missing or wrong."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return None
    sent = request.headers.get(HEADER) or request.form.get(FIELD, "")
    expected = session.get(FIELD)
    # Compared as bytes: compare_digest refuses text with non-ASCII characters (a TypeError),
    # and a token anyone can type must be refused, not crash the request.
    if expected and sent and hmac.compare_digest(str(sent).encode(), str(expected).encode()):
        return None
    return error_page(
        "The form was sent without a valid security token (perhaps the page was open for a "
        "long time or the app restarted). Go back, reload the page and try again: anything "
        "you were entering for a hand is kept as a draft.", 400, title="This page has expired")


def init_app(app: Flask) -> None:
    """Check every request and make the token available to templates."""
    app.before_request(check)
    app.jinja_env.globals["csrf_token"] = token
