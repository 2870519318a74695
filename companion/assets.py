"""Static files: content-hashed names cached for a year, compressed, and the app's icons.

Pages ask for ``asset("app.js")``, which names the file with a hash of its content
(``/static/app.3f2a9c1e0b.js``). A browser may keep such a file for good: a changed
file gets a new name. The plain name still works, revalidated on every use. Text
files are gzipped once, when the app starts, and sent compressed to browsers that
accept it. Pages are gzipped as they are sent (:func:`compress_page`).

A phone's first page carries the stylesheet and app.js inline (the stylesheet's comments
left out), so it is drawn and set up as soon as it arrives, without a second round trip
first. Once that page has loaded, app.js fetches both files into the phone's cache and sets
the ``kept`` cookie (:data:`KEPT_COOKIE`) to their hash; the pages after it link the cached
files (``kept()``) and are that much shorter. The Content-Security-Policy allows the inline
``<style>`` and ``<script>`` by their hashes (:attr:`Assets.inline_hashes`), and no other.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, abort, request
from markupsafe import Markup
from werkzeug.wrappers import Response

from .urls import fixed_url

#: Served compressed: text formats (images are compressed already).
COMPRESSED = {".css", ".js", ".svg", ".webmanifest", ".html", ".txt"}
#: A page shorter than this is sent as it is: gzip's own header and the work would cost
#: more than they save.
COMPRESS_FROM = 512
#: Fast, and within a few percent of gzip's best on a page of markup.
PAGE_LEVEL = 6
#: A year: the longest cache lifetime browsers honour.
FOREVER = 365 * 24 * 3600
#: The stylesheet and the script a phone's first page carries inline.
INLINE_STYLE, INLINE_SCRIPT = "app.css", "app.js"
#: The service worker's file in the static folder (served at the root: :func:`init_app`).
SERVICE_WORKER = "sw.js"
#: The cookie by which a phone says it holds both files: a hash of their contents.
KEPT_COOKIE = "kept"
_HASHED = re.compile(r"^(?P<stem>.+)\.(?P<digest>[0-9a-f]{10})(?P<suffix>\.[A-Za-z0-9]+)$")
_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
#: What would end a <style> or <script> element early, or change how its text is read.
_NOT_INLINE = re.compile(r"</|<!--", re.IGNORECASE)


def _csp_hash(text: str) -> str:
    """An inline element's text as a Content-Security-Policy source names it."""
    digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")
    return f"'sha256-{digest}'"


mimetypes.add_type("application/manifest+json", ".webmanifest")


@dataclass(frozen=True)
class Asset:
    """One static file, read once: its bytes, compressed bytes, type and hashed name."""

    body: bytes
    gzipped: bytes | None
    mimetype: str
    hashed: str
    etag: str


class Assets:
    """The app's static folder, read when the app starts."""

    def __init__(self, folder: str):
        self.files: dict[str, Asset] = {}
        self.by_hash: dict[str, str] = {}
        root = Path(folder)
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            name = path.relative_to(root).as_posix()
            body = path.read_bytes()
            digest = hashlib.sha256(body).hexdigest()[:10]
            hashed = f"{name[:-len(path.suffix)]}.{digest}{path.suffix}" if path.suffix else name
            mimetype = mimetypes.guess_type(name)[0] or "application/octet-stream"
            if mimetype.startswith("text/") or mimetype.endswith(("javascript", "json", "xml")):
                mimetype += "; charset=utf-8"
            packed = gzip.compress(body, 9, mtime=0) if path.suffix in COMPRESSED else None
            self.files[name] = Asset(body, packed if packed and len(packed) < len(body) else None,
                                     mimetype, hashed, f'"{digest}"')
            self.by_hash[hashed] = name
        css = _COMMENT.sub("", self.files[INLINE_STYLE].body.decode("utf-8"))
        js = self.files[INLINE_SCRIPT].body.decode("utf-8")
        for name, text in ((INLINE_STYLE, css), (INLINE_SCRIPT, js)):
            if _NOT_INLINE.search(text):
                raise ValueError(f"{name} cannot be inlined: it holds '</' or '<!--'")
        #: The two files as a first page carries them (the app's own, checked above), the
        #: policy's sources for them, and the cookie's value once a phone holds them.
        self.inline_style, self.inline_script = Markup(css), Markup(js)
        self.inline_hashes = {"style": _csp_hash(css), "script": _csp_hash(js)}
        both = "".join(self.files[name].etag for name in (INLINE_STYLE, INLINE_SCRIPT))
        self.kept = hashlib.sha256(both.encode()).hexdigest()[:10]

    def url_name(self, name: str) -> str:
        """The content-hashed name of a static file (the plain name if there is none)."""
        asset = self.files.get(name)
        return asset.hashed if asset else name

    def response(self, filename: str) -> Response:
        """A static file: hashed names cached for good, plain ones revalidated."""
        name = self.by_hash.get(filename)
        forever = name is not None and name != filename
        asset = self.files.get(name or filename)
        if asset is None:
            abort(404)
        response = Response(content_type=asset.mimetype)
        response.set_etag(asset.etag.strip('"'))
        response.headers["Vary"] = "Accept-Encoding"
        response.headers["Cache-Control"] = (f"public, max-age={FOREVER}, immutable" if forever
                                             else "no-cache")
        if request.if_none_match.contains(asset.etag.strip('"')):
            response.status_code = 304
            return response
        if asset.gzipped is not None and request.accept_encodings["gzip"]:
            response.data = asset.gzipped
            response.headers["Content-Encoding"] = "gzip"
        else:
            response.data = asset.body
        return response


#: What is sent compressed as it goes: pages and their htmx parts, the JSON answers and
#: a game's exports (a long game's export is 1,000 hands of text).
PAGE_TYPES = frozenset({"text/html", "application/json", "text/csv"})


def compress_page(response: Response) -> Response:
    """A page (HTML, a whole page or an htmx part; JSON; an export) gzipped for a browser
    that accepts it.

    Only a 200 with its whole body in hand: a 304 has none, and a poll that changed
    nothing is answered before Flask (companion/live.py) and never comes here. The ETag
    stays the page's own (the game's revision, not the bytes): the poll front compares it.
    """
    if (response.status_code != 200 or response.direct_passthrough or response.is_streamed
            or response.mimetype not in PAGE_TYPES or "Content-Encoding" in response.headers):
        return response
    response.vary.add("Accept-Encoding")
    if not request.accept_encodings["gzip"]:
        return response
    body = response.get_data()
    if len(body) < COMPRESS_FROM:
        return response
    response.set_data(gzip.compress(body, PAGE_LEVEL, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    return response


def init_app(app: Flask) -> None:
    """Serve the static folder this way, give templates ``asset(name)`` and what a first
    page carries inline (``kept()``, ``inline_style()``, ``inline_script()``,
    ``kept_value``), and send pages compressed."""
    assert app.static_folder is not None
    assets = Assets(app.static_folder)
    app.extensions["uno_assets"] = assets
    app.add_url_rule("/static/<path:filename>", endpoint="static", view_func=assets.response)
    app.add_url_rule("/favicon.ico", endpoint="favicon",
                     view_func=lambda: assets.response(assets.url_name("icon.svg")))
    # The service worker (static/sw.js), at the root: a worker controls only the pages
    # under the folder it is served from, and the app's pages are all under "/". Its
    # plain name, revalidated on every check: a changed worker is taken up at once.
    app.add_url_rule("/sw.js", endpoint="service_worker",
                     view_func=lambda: assets.response(SERVICE_WORKER))

    def asset(name: str) -> str:
        return fixed_url("static", filename=assets.url_name(name))

    app.jinja_env.globals["asset"] = asset
    app.jinja_env.globals["inline_style"] = lambda: assets.inline_style
    app.jinja_env.globals["inline_script"] = lambda: assets.inline_script
    app.jinja_env.globals["kept_value"] = assets.kept
    app.jinja_env.globals["kept"] = lambda: request.cookies.get(KEPT_COOKIE) == assets.kept
    app.after_request(compress_page)
