"""Pages are sent gzipped to a phone that asks for it (issue 21): a page is most of a first
load's bytes on a slow network. Static files have their own (companion/assets.py)."""

from __future__ import annotations

import gzip

import pytest


@pytest.mark.parametrize("path", ["/", "/games/new", "/rules/classic", "/referee"])
def test_a_page_is_gzipped_when_the_phone_accepts_it(client, path):
    plain = client.get(path)
    packed = client.get(path, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert packed.status_code == plain.status_code == 200
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert gzip.decompress(packed.get_data()).decode().count("<main") == 1
    assert len(packed.get_data()) < 0.6 * len(plain.get_data())
    assert "Content-Encoding" not in plain.headers
    assert "Accept-Encoding" in plain.headers["Vary"]  # a cache must tell the two apart


def test_a_live_page_keeps_its_tag_when_gzipped(client, game_id):
    plain = client.get(f"/games/{game_id}")
    packed = client.get(f"/games/{game_id}", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip"
    # The tag is the game's revision, not the bytes: the poll front compares it.
    assert packed.headers["ETag"] == plain.headers["ETag"]


def test_a_poll_that_changed_nothing_is_still_an_empty_304(client, game_id):
    first = client.get(f"/games/{game_id}", headers={"Accept-Encoding": "gzip"})
    again = client.get(f"/games/{game_id}", headers={
        "Accept-Encoding": "gzip", "If-None-Match": first.headers["ETag"], "HX-Request": "true"})
    assert again.status_code == 304
    assert again.get_data() == b"" and "Content-Encoding" not in again.headers


def test_a_tiny_answer_is_sent_as_it_is(client):
    response = client.get("/games/999", headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 404
    assert "Content-Encoding" not in response.headers


def test_json_and_static_files_keep_their_own_ways(client):
    css = client.get("/static/app.css", headers={"Accept-Encoding": "gzip"})
    assert css.headers["Content-Encoding"] == "gzip"  # compressed once, at start (assets.py)
    assert gzip.decompress(css.get_data()).startswith(b"/*")
