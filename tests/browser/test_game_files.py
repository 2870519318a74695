"""A game taken away as a file and brought back, as a phone at 360x640 does it: the
scoreboard's export link downloads the game, the new-game page imports it as a new game
with the same standings, and a file that is not an export is refused where it was sent."""

from __future__ import annotations

import re

from browser_steps import assert_fits_phone, start_game, totals, violations
from playwright.sync_api import Page, expect


def test_a_game_exported_and_imported_comes_back_whole(page: Page, tmp_path):
    start_game(page, "classic", ["Ann", "Bob", "Cy"])
    first = page.url
    with page.expect_download() as download:
        page.get_by_role("link", name="the whole game (JSON)").click()
    saved = tmp_path / "game.json"
    download.value.save_as(saved)
    assert violations(page) == []

    page.goto("/games/new")
    expect(page.get_by_role("heading", name="Carry on an exported game")).to_be_visible()
    assert_fits_phone(page)
    assert violations(page) == []
    # Something else first: refused on the same page, which says why.
    page.get_by_label("Or its text, pasted").fill("not a game")
    page.get_by_role("button", name="Import the game").click()
    expect(page.locator("#import-error")).to_contain_text("Nothing was imported")
    assert violations(page) == []

    page.get_by_label("The exported file (.json)").set_input_files(saved)
    page.get_by_role("button", name="Import the game").click()
    expect(page).not_to_have_url(first)
    expect(page).to_have_url(re.compile(r"/games/\d+$"))
    assert totals(page) == ["0", "0", "0"]
    expect(page.locator("#watching")).to_have_count(0)  # this phone keeps the new game
