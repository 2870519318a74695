"""Sharing a game with the other phones at the table, as phones at 360x640 do it: the
scorekeeper shows a QR code, a second phone opens the viewer's link and watches, a third
that was given nothing sees nothing; a renewed link shuts the old one out."""

from __future__ import annotations

import re

from browser_steps import assert_fits_phone, join, share_link, start_game, violations
from playwright.sync_api import Page, expect


def scoreboard(page: Page) -> str:
    """The path of the scoreboard ``page`` shows."""
    return re.sub(r"^https?://[^/]+", "", page.url)


def test_the_share_page_is_one_tap_from_the_scoreboard_and_fits_the_phone(page: Page):
    start_game(page, "classic", ["Ann", "Bob", "Cy"])
    page.get_by_role("link", name="Share: the other phones").tap()
    expect(page.get_by_role("heading", name="The other phones")).to_be_visible()
    # The viewer's code is drawn at once, the scorekeeper's behind one more tap.
    expect(page.locator("#share-viewer svg.qr")).to_be_visible()
    expect(page.locator("#share-keeper svg.qr")).to_be_hidden()
    box = page.locator("#share-viewer .qr-box").bounding_box()
    assert box is not None and box["width"] >= 200  # big enough to scan across a table
    assert_fits_phone(page)
    assert violations(page) == []
    page.get_by_text("Show the scorekeeper's QR code").tap()
    expect(page.locator("#share-keeper svg.qr")).to_be_visible()
    page.emulate_media(color_scheme="dark")
    assert violations(page) == []


def test_a_viewer_watches_and_a_stranger_sees_nothing(page: Page, other_phone: Page,
                                                      browser, base_url):
    start_game(page, "classic", ["Ann", "Bob", "Cy"])
    game = scoreboard(page)
    join(other_phone, page, game, "viewer")
    expect(other_phone.locator("#watching")).to_be_visible()
    expect(other_phone.get_by_role("link", name=re.compile("Record hand"))).to_have_count(0)
    expect(other_phone.get_by_role("link", name=re.compile("Delete game"))).to_have_count(0)
    assert violations(other_phone) == []
    other_phone.goto("/")
    expect(other_phone.locator(".game-link")).to_have_count(1)

    stranger = browser.new_context(viewport={"width": 360, "height": 640}, base_url=base_url)
    try:
        lost = stranger.new_page()
        lost.goto("/")
        expect(lost.locator(".game-link")).to_have_count(0)
        response = lost.goto(game)
        assert response is not None and response.status == 404
    finally:
        stranger.close()


def test_a_renewed_link_shuts_the_old_one_out(page: Page, other_phone: Page):
    start_game(page, "classic", ["Ann", "Bob"])
    game = scoreboard(page)
    old = share_link(page, game, "viewer")
    join(other_phone, page, game, "viewer")
    page.locator("#share-viewer").get_by_role("link", name="Lock this link out…").tap()
    page.get_by_role("button", name="Lock it out: new viewer's link").tap()
    expect(page.locator("#renewed")).to_be_visible()
    assert page.locator("#link-viewer").input_value() != old
    response = other_phone.goto(game)
    assert response is not None and response.status == 404
    response = other_phone.goto(old)
    assert response is not None and response.status == 404
    expect(other_phone.get_by_text("opens no game")).to_be_visible()


def test_a_phone_forgets_a_game(page: Page, other_phone: Page):
    start_game(page, "classic", ["Ann", "Bob"])
    game = scoreboard(page)
    join(other_phone, page, game, "viewer")
    other_phone.goto("/")
    other_phone.get_by_role("link", name=re.compile("^Forget")).tap()
    expect(other_phone.get_by_role("heading", name="Forget this game on this phone?")).to_be_visible()
    assert violations(other_phone) == []
    other_phone.get_by_role("button", name="Forget it").tap()
    expect(other_phone.locator("#forgot")).to_be_visible()
    expect(other_phone.locator(".game-link")).to_have_count(0)
    page.goto("/")
    expect(page.locator(".game-link")).to_have_count(1)
