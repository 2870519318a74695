"""Phone-first layout: no sideways scrolling, big enough touch targets, works without JS."""

from __future__ import annotations

import re

import pytest
from browser_steps import assert_fits_phone, start_game, totals, wait_for_page
from playwright.sync_api import Page, expect


@pytest.mark.parametrize("variant", ["classic", "wild-jackpot", "pizza-pizza", "star-wars"])
def test_every_page_fits_a_360px_phone(page: Page, variant: str) -> None:
    # Each step waits for the page it leads to (a click does not) before measuring it.
    page.goto("/")
    assert_fits_phone(page)
    page.get_by_role("link", name="New game").click()
    wait_for_page(page, page.get_by_role("heading", name="New game", exact=True))
    assert_fits_phone(page)
    start_game(page, variant, ["Ann", "Bob", "Cy", "Dee"])
    assert_fits_phone(page)
    page.get_by_role("link", name="Record hand 1").click()
    wait_for_page(page, page.get_by_role("heading", name="Hand 1: who went out?"))
    assert_fits_phone(page)
    page.get_by_role("button", name="Ann", exact=True).click()
    wait_for_page(page, page.get_by_role("heading", name="Hand 1: Ann went out"))
    assert_fits_phone(page)
    for seat in (1, 2, 3):
        page.locator(f"input[name='pts-{seat}']").fill("10")
    page.get_by_role("button", name="Review hand").click()
    wait_for_page(page, page.get_by_role("heading", name="Review hand 1"))
    assert_fits_phone(page)
    page.get_by_role("button", name="Save hand").click()
    wait_for_page(page, page.get_by_text("1 hand played"))
    assert_fits_phone(page)
    page.get_by_role("link", name="History & corrections").click()
    wait_for_page(page, page.get_by_role("heading", name="Hands", exact=True))
    assert_fits_phone(page)


def test_basic_flow_without_javascript(page_without_js: Page) -> None:
    page = page_without_js
    page.goto("/games/new")
    page.get_by_label("Player 1", exact=True).fill("Ann")
    page.get_by_label("Player 2", exact=True).fill("Bob")
    page.get_by_role("button", name="Start game").click()
    expect(page.locator("#standings")).to_be_visible()
    page.get_by_role("link", name="Record hand 1").click()
    page.get_by_role("button", name="Ann", exact=True).click()
    # Without JS the cards are typed, short forms accepted.
    page.get_by_role("textbox", name="Bob's cards").fill("r9 red-9 wild")
    page.get_by_role("button", name="Review hand").click()
    expect(page.get_by_text("Bob: 68 pts")).to_be_visible()
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#standings")).to_be_visible()
    assert totals(page) == ["68", "0"]
    # Errors come back on the page, with nothing saved.
    page.get_by_role("link", name="Record hand 2").click()
    page.get_by_role("button", name="Bob", exact=True).click()
    page.get_by_role("button", name="Review hand").click()  # Ann's cards left out
    expect(page.locator(".errors")).to_contain_text(re.compile("Enter Ann's cards"))
    page.get_by_role("link", name="Scoreboard").click()
    expect(page.locator("#standings")).to_be_visible()
    assert totals(page) == ["68", "0"]
