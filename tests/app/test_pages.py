"""Every page: its status, no request outside the app, htmx from /static, names shown as text."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from pathlib import Path

import pytest

HTMX = "/static/vendor/htmx-2.0.11.min.js"
NASTY = '<script>alert("x")</script>'
STATIC = Path(__file__).resolve().parents[2] / "static"
#: Attributes that make a browser (or htmx) fetch or go somewhere.
URL_ATTRIBUTES = ("src", "href", "action", "formaction", "hx-get", "hx-post")


@pytest.fixture
def played(table):
    """A game with two live hands and one deleted, a deleted game, and the ids of each."""
    gone_game = table.create_game(["Zed", "Yan"])
    table.post(f"/games/{gone_game}/delete")
    game_id = table.create_game([NASTY, "<b>Bob</b>", "Cy & Co"])
    table.record(game_id, 0, {1: "red-7 wild", 2: 12})
    table.record(game_id, 1, {0: "blue-skip", 2: 0})
    table.record(game_id, 2, {0: 1, 1: 1})
    first, second, last = table.hand_ids(game_id)
    table.undo(game_id)
    return {"g": game_id, "h": first, "h2": second, "gone": last, "gone_game": gone_game}


GET_PAGES = [
    "/", "/?deleted={gone_game}", "/games/new", "/games/new?variant=pizza-pizza",
    "/games/{g}", "/games/{g}?restore={gone}", "/games/{g}/delete", "/games/{g}/hands",
    "/games/{g}/hands/new", "/games/{g}/hands/new?out=0", "/games/{g}/hands/{h}/edit",
    "/games/{g}/hands/{h}/delete",
]


def rendered_pages(table, client, played):
    """Every page the app renders for this table: GET pages, then pages answering a POST."""
    for path in GET_PAGES:
        yield path, client.get(path.format(**played))
    g = played["g"]
    yield "review", table.review(g, 0, {1: "red-1", 2: 2})
    yield "review edit", table.review(g, 1, {0: 2, 2: 2}, hand_id=played["h2"])
    yield "refused hand", table.review(g, 0, {1: -1, 2: 2})
    yield "refused game", table.post("/games", {"player": [NASTY, NASTY.upper()]})
    yield "conflict", table.post(f"/games/{g}/play-on")
    yield "expired", client.post(f"/games/{g}/delete")
    yield "not found", client.get("/games/999")
    yield "preview", client.post(f"/games/{g}/hands/preview",
                                 data=table.hand_fields(0, {1: "red-1", 2: 4}),
                                 headers={"HX-Request": "true", "X-CSRF-Token": table.token()})


@pytest.mark.parametrize("path", GET_PAGES)
def test_every_page_is_served(table, client, played, path):
    response = client.get(path.format(**played))
    assert response.status_code == 200
    assert response.mimetype == "text/html"


def test_no_page_requests_anything_outside_the_app(table, client, played):
    for name, response in rendered_pages(table, client, played):
        source = table.html(response)
        links = [str(element[attribute]) for element in table.page(response).find_all(True)
                 for attribute in URL_ATTRIBUTES if element.has_attr(attribute)]
        outside = [u for u in links if re.match(r"(?i)(https?:)?//", u)]
        assert outside == [], name
        assert "http://" not in source and "https://" not in source, name


def hashed(name: str) -> str:
    """A static file's URL with its content's hash in the name, as pages link it."""
    digest = hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:10]
    stem, _, suffix = name.rpartition(".")
    return f"/static/{stem}.{digest}.{suffix}"


def test_every_full_page_loads_htmx_from_static(table, client, played):
    for name, response in rendered_pages(table, client, played):
        if name != "preview":
            page = table.page(response)
            # A page that sends nothing in the background leaves htmx out (a lighter first
            # load, issue 21: the home page, the rules); a page with an hx- attribute has
            # app.js bring it in once the page has loaded (data-htmx). app.js is inline on
            # a phone's first page, which these are (no cookie says the phone holds it).
            uses_htmx = bool(page.select("[hx-get], [hx-post], [hx-trigger]"))
            scripts = page.select("script")
            assert [script.string for script in scripts] == [
                (STATIC / "app.js").read_text()], name
            assert scripts[0]["data-keep"].split() == [hashed("app.css"), hashed("app.js")]
            brought = scripts[0].get("data-htmx")
            assert brought == hashed(HTMX.removeprefix("/static/")) or (
                brought is None and not uses_htmx), name


@pytest.mark.parametrize("name", ["app.css", "app.js", "icon.svg", "icon-180.png",
                                  "manifest.webmanifest", HTMX.removeprefix("/static/")])
def test_static_files_are_cached_for_good_under_hashed_names(client, name):
    body = (STATIC / name).read_bytes()
    with client.get(hashed(name), headers={"Accept-Encoding": "gzip, br"}) as response:
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        data = response.get_data()
    if name.endswith(".png"):
        assert data == body and "Content-Encoding" not in response.headers
    else:  # text is sent compressed to a browser that takes it
        assert response.headers["Content-Encoding"] == "gzip" and gzip.decompress(data) == body
    with client.get(hashed(name)) as plain:  # and plain to one that does not
        assert plain.get_data() == body and "Content-Encoding" not in plain.headers


def test_plain_static_names_are_revalidated(client):
    with client.get("/static/app.css") as response:
        assert response.headers["Cache-Control"] == "no-cache"
        etag = response.headers["ETag"]
    with client.get("/static/app.css", headers={"If-None-Match": etag}) as again:
        assert again.status_code == 304 and not again.get_data()


def test_every_page_names_its_icons(table, client):
    page = table.page(client.get("/"))
    assert page.select_one('link[rel="icon"]')["href"] == hashed("icon.svg")
    assert page.select_one('link[rel="apple-touch-icon"]')["href"] == hashed("icon-180.png")
    assert page.select_one('link[rel="manifest"]')["href"] == hashed("manifest.webmanifest")
    with client.get("/favicon.ico") as favicon:
        assert favicon.status_code == 200 and favicon.mimetype == "image/svg+xml"
    manifest = json.loads((STATIC / "manifest.webmanifest").read_text())
    for icon in manifest["icons"]:
        assert (STATIC / icon["src"]).is_file()


@pytest.mark.parametrize("path", [HTMX, "/static/app.js", "/static/app.css"])
def test_static_files_are_served_from_the_app(client, path):
    with client.get(path) as response:
        assert response.status_code == 200
        body = response.get_data()
    assert body == (STATIC / path.removeprefix("/static/")).read_bytes()


def test_stylesheet_and_script_request_nothing_outside(client):
    for name in ("app.css", "app.js"):
        source = (STATIC / name).read_text()
        assert not re.search(r"https?://", source), name


def test_player_names_are_shown_as_text(table, client, played):
    for name, response in rendered_pages(table, client, played):
        source = table.html(response)
        assert "<script>alert" not in source and "<b>Bob</b>" not in source, name
        if name not in ("/games/new", "/games/new?variant=pizza-pizza", "expired", "not found",
                        "conflict", "/"):
            assert "&lt;script&gt;alert(" in source or "&lt;b&gt;Bob&lt;/b&gt;" in source, name
    scoreboard = client.get(f"/games/{played['g']}")
    assert '<span class="name"><bdi>&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;</bdi></span>' in \
        table.html(scoreboard)
    assert "Cy &amp; Co" in table.html(scoreboard)


def test_unknown_page_is_not_found(table, client):
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert "Not found" in table.text(response)


@pytest.mark.parametrize("path", ["/games", "/games/1/play-on", "/games/1/hands/undo",
                                  "/games/1/hands/preview"])
def test_a_form_address_opened_as_a_page_says_so(table, client, path):
    table.create_game()
    response = client.get(path)
    assert response.status_code == 405
    assert "That address does not take this kind of request." in table.text(response)


def test_pages_that_must_be_fetched_again_are_not_stored(table, client, played):
    g, h = played["g"], played["h"]
    for path in (f"/games/{g}/hands/new", f"/games/{g}/hands/new?out=0",
                 f"/games/{g}/hands/{h}/edit"):
        assert client.get(path).headers["Cache-Control"] == "no-store", path
    assert table.review(g, 0, {1: 1, 2: 2}).headers["Cache-Control"] == "no-store"
