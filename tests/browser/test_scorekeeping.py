"""A real table's flows on a phone-sized headless Chromium."""

from __future__ import annotations

import re

from browser_steps import record_hand, start_game, tap_cards, totals
from playwright.sync_api import Page, expect


def test_classic_three_players_two_tapped_hands_then_undo(page: Page) -> None:
    start_game(page, "classic", ["Ann", "Bob", "Cy"])
    # Hand 1: Ann out; Bob holds two red 7s and a Skip (34), Cy a Wild (50).
    record_hand(page, "Ann", {1: {"red-7": 2, "blue-skip": 1}, 2: {"wild": 1}},
                {1: "34", 2: "50"})
    assert totals(page) == ["84", "0", "0"]
    # Hand 2: Cy out; Ann holds a green 3 and a Wild Draw 4 (53), Bob a yellow 9 (9).
    record_hand(page, "Cy", {0: {"green-3": 1, "wild-draw4": 1}, 1: {"yellow-9": 1}},
                {0: "53", 1: "9"})
    assert totals(page) == ["84", "0", "62"]
    expect(page.get_by_text("2 hands played")).to_be_visible()

    page.get_by_role("button", name="Undo last hand").click()
    expect(page.get_by_text("1 hand played")).to_be_visible()
    assert totals(page) == ["84", "0", "0"]
    # The undo itself can be taken back.
    page.get_by_role("button", name="Undo", exact=True).click()
    expect(page.get_by_text("2 hands played")).to_be_visible()
    assert totals(page) == ["84", "0", "62"]


def test_pizza_pizza_finishes_at_250_with_a_winner(page: Page) -> None:
    start_game(page, "pizza-pizza", ["Dee", "Eli"])
    expect(page.get_by_text("to 250")).to_be_visible()
    # Eli holds all three wilds and a Skip: 170 a hand.
    record_hand(page, "Dee", {1: {"wild": 1, "wild-dip": 1, "wild-draw2": 1, "red-skip": 1}},
                {1: "170"})
    assert totals(page) == ["170", "0"]
    record_hand(page, "Dee", {1: {"wild": 1, "wild-dip": 1, "blue-9": 1, "green-1": 1}},
                {1: "110"})
    assert totals(page) == ["280", "0"]
    winner = page.locator("#winner")
    expect(winner).to_contain_text("Dee wins!")
    expect(page.get_by_role("link", name=re.compile("Record hand"))).to_have_count(0)
    # A rematch keeps the seats.
    page.get_by_role("button", name="Rematch, same seats").click()
    expect(page.get_by_role("link", name="Record hand 1")).to_be_visible()  # the new game
    expect(page.locator("#standings .name")).to_have_text(["Dee", "Eli"])
    assert totals(page) == ["0", "0"]


def test_back_button_keeps_tapped_cards(page: Page) -> None:
    start_game(page, "classic", ["Ann", "Bob"])
    page.get_by_role("link", name="Record hand 1").click()
    page.get_by_role("button", name="Ann", exact=True).click()
    tap_cards(page, 1, {"blue-5": 2})
    expect(page.locator("#pts-1")).to_have_text("10")
    page.go_back()
    page.go_back()
    expect(page.locator("#standings")).to_be_visible()
    page.get_by_role("link", name="Record hand 1").click()
    expect(page.get_by_text("What you entered so far is kept")).to_be_visible()
    expect(page.locator("input[name='cards-1']")).to_have_value("blue-5 blue-5")


def test_someone_else_went_out_keeps_the_tapped_cards(page: Page) -> None:
    start_game(page, "classic", ["Ann", "Bob", "Cy"])
    page.get_by_role("link", name="Record hand 1").click()
    page.get_by_role("button", name="Ann", exact=True).click()
    tap_cards(page, 2, {"red-4": 1, "wild": 1})
    expect(page.locator("#pts-2")).to_have_text("54")
    page.get_by_text("Someone else went out?").tap()
    page.locator(".change-out").get_by_role("button", name="Bob", exact=True).tap()
    expect(page.get_by_role("heading", name="Hand 1: Bob went out")).to_be_visible()
    assert "csrf" not in page.url and "cards-2" not in page.url
    expect(page.locator("#pts-2")).to_have_text("54")
    expect(page.locator("input[name='cards-2']")).to_have_value("red-4 wild")


def test_remove_mode_takes_a_card_back(page: Page) -> None:
    start_game(page, "classic", ["Ann", "Bob"])
    page.get_by_role("link", name="Record hand 1").click()
    page.get_by_role("button", name="Ann", exact=True).click()
    tap_cards(page, 1, {"green-8": 2})
    expect(page.locator("#pts-1")).to_have_text("16")
    page.locator("#seat-1").get_by_role("button", name="Remove").tap()
    tap_cards(page, 1, {"green-8": 1})
    expect(page.locator("#pts-1")).to_have_text("8")


def test_names_are_shown_as_text(page: Page) -> None:
    evil = "<img src=x onerror=alert(1)>"
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    start_game(page, "classic", [evil, "Bob"])
    expect(page.locator("#standings .name").first).to_have_text(evil)
    assert page.locator("#standings img").count() == 0
    assert dialogs == []


def test_screen_wake_lock_is_requested_on_game_pages(page: Page) -> None:
    # Headless Chromium has no screen to keep on: record the request instead.
    page.add_init_script("""
        window.__wakeRequests = [];
        Object.defineProperty(navigator, 'wakeLock', { value: { request: async (kind) => {
            window.__wakeRequests.push(kind);
            return { addEventListener() {}, release: async () => {} };
        } } });
    """)
    page.goto("/")
    assert page.evaluate("window.__wakeRequests") == []
    start_game(page, "classic", ["Ann", "Bob"])
    expect(page.locator("body")).to_have_attribute("data-awake", "yes")
    assert page.evaluate("window.__wakeRequests") == ["screen"]


def test_changing_variant_keeps_typed_names(page: Page) -> None:
    page.goto("/games/new")
    page.get_by_label("Player 1", exact=True).fill("Ann")
    page.get_by_label("Player 2", exact=True).fill("Bob")
    with page.expect_response(lambda r: "/games/new" in r.url):
        page.get_by_label("Variant").select_option("pizza-pizza")
    expect(page.locator("input[name=target]")).to_have_value("250")
    expect(page.get_by_text("2 to 5 players")).to_be_visible()
    expect(page.get_by_label("Player 1", exact=True)).to_have_value("Ann")
    expect(page.get_by_label("Player 2", exact=True)).to_have_value("Bob")
