"""One rule for htmx, app-wide (htmx's contact-app): a route answers with its page, or,
when htmx asks for one part of it, with the partial template the page includes for that
part. Every page therefore works without JavaScript and on reload, and the partial is
never a page of its own with its own URL.

htmx says which part it will swap by the ``HX-Target`` header (the id of the element it
swaps into); a request that names another target (a live page's poller, ``#live``) gets
the page. The exceptions, kept for what the phones and the tests rely on, are listed in
docs/decisions.md ("htmx: one rule").
"""

from __future__ import annotations

from typing import Any

from flask import Flask, render_template, request
from werkzeug.wrappers import Response

#: A refusal (4xx) marked to be swapped in where the answer goes, as a page without
#: JavaScript would show it (static/app.js; htmx leaves other 4xx unswapped).
IN_PLACE = {"X-Answer": "in-place"}


def is_htmx() -> bool:
    """Whether htmx sent this request (not a plain page load or form post)."""
    return bool(request.headers.get("HX-Request"))


def asks_for(target: str) -> bool:
    """Whether htmx asks for the part of the page it swaps into ``#target``: an htmx
    request naming that target, or naming none."""
    return is_htmx() and request.headers.get("HX-Target", target) == target


def page_or_part(page: str, part: str, target: str, **context: Any) -> str:
    """``page`` rendered, or ``part`` (the partial the page includes for ``#target``) when
    htmx asks for that part."""
    return render_template(part if asks_for(target) else page, **context)


def mark_in_place(response: Response) -> Response:
    """An htmx request's refusal (4xx), marked to be shown where its answer goes."""
    if is_htmx() and 400 <= response.status_code < 500:
        response.headers.update(IN_PLACE)
    return response


def init_app(app: Flask) -> None:
    """Let templates ask whether htmx sent the request (a partial's out-of-band parts)."""
    app.jinja_env.globals["is_htmx"] = is_htmx
