"""htmx, app-wide, in two rules (docs/decisions.md, "htmx: two rules"); every hx- use
follows one of them.

1. **A part** (htmx's contact-app): a route answers with its page, or, when htmx asks for
   one part of it, with the partial template the page includes for that part; the
   partial alone (``as_part``) carries out of band (``hx-swap-oob``) what the same answer
   changed elsewhere on the page. htmx names the part by ``HX-Target`` (the id of the
   element it swaps into). So every page works without JavaScript and on reload, and a
   partial is never a page of its own. The referee's answer, the spinner's and the
   lever's pull, the new-game form's variant settings, the running points, and what
   waits for this phone (its banner) follow it.
2. **The page again** (the live poller, ``_macros.live_poller``): a page whose game may
   change elsewhere asks for itself (HX-Target ``live``, none of its parts) and gets the
   page as a load gets it, or a 304 while nothing changed; it takes its live regions from
   it by id (``hx-select-oob``) and swaps nothing else. A part per region would mean a
   template per page repeating its layout and a request per region, for no lighter
   answer: the 304 has no body, and a change sends the page once, compressed.

How a view answers, JSON included, is chosen in one place: :func:`answer_format`.
"""

from __future__ import annotations

from typing import Any, Literal

from flask import Flask, render_template, request
from werkzeug.wrappers import Response

#: A refusal (4xx) marked to be swapped in where the answer goes, as a page without
#: JavaScript would show it (static/app.js; htmx leaves other 4xx unswapped).
IN_PLACE = {"X-Answer": "in-place"}


def is_htmx() -> bool:
    """Whether htmx sent this request (not a plain page load or form post)."""
    return bool(request.headers.get("HX-Request"))


def _asks_for(target: str) -> bool:
    """Whether htmx asks for the part of the page it swaps into ``#target``: an htmx
    request naming that target, or naming none."""
    return is_htmx() and request.headers.get("HX-Target", target) == target


#: The three ways a view of the app answers (:func:`answer_format`).
Format = Literal["json", "part", "page"]


def answer_format(target: str | None = None) -> Format:
    """How to answer this request, for every view that answers in several formats:
    ``"json"`` when it asks for JSON, ``"part"`` when htmx asks for the part of the page
    it swaps into ``#target``, else ``"page"``."""
    # Accept: application/json asks for JSON; */* (curl) or none asks for the page.
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    if best == "application/json":
        return "json"
    if target is not None and _asks_for(target):
        return "part"
    return "page"


def page_or_part(page: str, part: str, target: str, **context: Any) -> str:
    """``page`` rendered, or ``part`` (the partial the page includes for ``#target``) when
    htmx asks for that part. A part rendered alone has ``as_part`` set: the elements
    elsewhere on the page that the same answer changed go with it, out of band
    (``hx-swap-oob``), and only then (the page itself, polled, must not carry them twice)."""
    if answer_format(target) == "part":
        return render_template(part, as_part=True, **context)
    return render_template(page, as_part=False, **context)


def mark_in_place(response: Response) -> Response:
    """An htmx request's refusal (4xx), marked to be shown where its answer goes."""
    if is_htmx() and 400 <= response.status_code < 500:
        response.headers.update(IN_PLACE)
    return response


def init_app(app: Flask) -> None:
    """Let templates ask whether htmx sent the request (base.html leaves a first load's
    inline assets out of an htmx answer)."""
    app.jinja_env.globals["is_htmx"] = is_htmx
