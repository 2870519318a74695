"""What a phone keyboard, a double tap, Back or a second tab must never do at the table.

Enter never changes who went out nor starts a game; a hand saved and sent again is
recorded once; an undo aimed at a hand the table did not see is refused; names cannot
hide control characters.
"""

from __future__ import annotations

import re
import sqlite3
import threading
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing
from typing import Any
from urllib.parse import urlsplit

import pytest
from browser_steps import phone_page, record_hand, start_game, tap_cards
from flask import Flask
from playwright.sync_api import Error, Locator, Page, expect


@pytest.fixture()
def page(browser, base_url) -> Iterator[Page]:
    """The phone with its service worker, as a phone has it: Back, a resend and a second
    tab go through it too."""
    yield from phone_page(browser, base_url, "the page", service_workers="allow")


def _query(live_app: Flask, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """Rows read straight from the app's SQLite file."""
    with closing(sqlite3.connect(live_app.config["DATABASE"])) as db:
        return db.execute(sql, params).fetchall()


def live_hands(live_app: Flask) -> int:
    """How many hands are recorded (not undone or deleted), over all games."""
    return int(_query(live_app, "SELECT count(*) FROM hands WHERE deleted_at IS NULL")[0][0])


def games_stored(live_app: Flask) -> int:
    return int(_query(live_app, "SELECT count(*) FROM games")[0][0])


def pick_went_out(page: Page, name: str) -> None:
    """From the scoreboard: "Record hand N", then who went out."""
    page.get_by_role("link", name=re.compile(r"Record hand")).click()
    page.get_by_role("button", name=name, exact=True).click()
    expect(page.get_by_role("heading", name=re.compile(r"went out$"))).to_contain_text(name)


def typed_total(page: Page, name: str) -> Locator:
    """The "…or type X's total" field of an opponent."""
    return page.get_by_label(re.compile(rf"or type {re.escape(name)}'s total"))


def open_someone_else(page: Page) -> None:
    """Open "Someone else went out?": its buttons are what Enter must never press."""
    page.get_by_text("Someone else went out?").tap()
    expect(page.locator(".change-out").get_by_role("button").first).to_be_visible()


# -- 1. Enter never changes who went out ------------------------------------------------


def test_enter_in_a_typed_total_keeps_who_went_out(page: Page, live_app: Flask) -> None:
    start_game(page, "classic", ["Ann", "Bob", "Cy"])
    pick_went_out(page, "Ann")
    open_someone_else(page)
    # Bob's total typed, then the keyboard's "Go": Cy is still missing, so the picker
    # comes back with the error, Ann still out and Bob's 25 kept.
    typed_total(page, "Bob").tap()
    page.keyboard.type("25")
    with page.expect_navigation() as nav:
        page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Hand 1: Ann went out")).to_be_visible()
    expect(page.get_by_role("alert")).to_contain_text("Enter Cy's cards, or type their total")
    expect(typed_total(page, "Bob")).to_have_value("25")
    assert nav.value is not None and nav.value.status == 400
    # Cy's total, Enter again: the review, with Ann out and both totals.
    typed_total(page, "Cy").tap()
    page.keyboard.type("0")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Review hand 1")).to_be_visible()
    expect(page.locator("p.lead")).to_have_text("Ann went out.")
    expect(page.locator("ul.held")).to_contain_text("Bob: 25 pts (typed)")
    expect(page.locator("ul.held")).to_contain_text("Cy: 0 pts (typed)")
    assert live_hands(live_app) == 0  # Enter reviews; only "Save hand" records


def test_enter_in_a_card_count_keeps_who_went_out(page: Page, live_app: Flask) -> None:
    start_game(page, "classic", ["Ann", "Bob", "Cy"])
    pick_went_out(page, "Ann")
    tap_cards(page, 2, {"wild": 1})
    open_someone_else(page)
    # On the grid, Enter adds the focused card (the button's own click): never a submit.
    page.focus("#seat-1 .cell[data-card='red-7']")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    expect(page.locator("input[name='cards-1']")).to_have_value("red-7 red-7")
    expect(page.get_by_role("heading", name="Hand 1: Ann went out")).to_be_visible()
    page.get_by_role("button", name="Review hand").click()
    expect(page.get_by_role("heading", name="Review hand 1")).to_be_visible()
    expect(page.locator("p.lead")).to_have_text("Ann went out.")
    expect(page.locator("ul.held")).to_contain_text("Bob: 14 pts")
    expect(page.locator("ul.held")).to_contain_text("Cy: 50 pts")
    assert live_hands(live_app) == 0


def test_enter_on_the_edit_page_keeps_who_went_out(page: Page, live_app: Flask) -> None:
    start_game(page, "classic", ["Ann", "Bob", "Cy"])
    record_hand(page, "Ann", {1: {"red-7": 2}, 2: {"wild": 1}}, {1: "14", 2: "50"})
    page.get_by_role("link", name="History", exact=True).click()
    page.locator("#hand-1").get_by_role("link", name="Edit").click()
    expect(page.get_by_role("heading", name="Hand 1 (editing): Ann went out")).to_be_visible()
    open_someone_else(page)
    # Enter on one of Bob's cards adds one; Backspace takes it back; Ann is still out.
    page.focus("#seat-1 .cell[data-card='blue-5']")
    page.keyboard.press("Enter")
    expect(page.locator("input[name='cards-1']")).to_have_value("red-7 red-7 blue-5")
    page.keyboard.press("Backspace")
    expect(page.locator("input[name='cards-1']")).to_have_value("red-7 red-7")
    expect(page.get_by_role("heading", name="Hand 1 (editing): Ann went out")).to_be_visible()
    # Cy's cards cleared and a total typed instead, then Enter.
    page.locator("#seat-2").get_by_role("button", name="Clear").tap()
    expect(page.locator("input[name='cards-2']")).to_have_value("")
    expect(page.locator("#running")).to_contain_text("Cy –")
    typed_total(page, "Cy").tap()
    page.keyboard.type("30")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Review hand 1")).to_be_visible()
    expect(page.locator("p.lead")).to_have_text("Ann went out.")
    expect(page.locator("ul.held")).to_contain_text("Cy: 30 pts (typed)")
    page.get_by_role("button", name="Save changes").click()
    expect(page.get_by_role("heading", name="Hand 1: Ann went out")).to_be_visible()
    expect(page.locator("#hand-1")).to_contain_text("Cy held 30 points (typed)")
    assert _query(live_app, "SELECT went_out FROM hands WHERE deleted_at IS NULL") == [(0,)]


# -- 2. Save, Back and resend record once -----------------------------------------------


def test_save_then_back_and_resend_records_once(page: Page, live_app: Flask) -> None:
    start_game(page, "classic", ["Ann", "Bob", "Cy"])
    record_hand(page, "Ann", {1: {"red-7": 1}, 2: {"wild": 1}}, {1: "7", 2: "50"})
    assert live_hands(live_app) == 1
    try:
        page.go_back()  # to the review page, which was the answer to a POST
    except Error as exc:
        # Chromium does not keep that answer: its "Confirm Form Resubmission" page comes
        # up (ERR_CACHE_MISS), and its reload button sends the review's POST again.
        if "ERR_CACHE_MISS" not in str(exc):
            raise
        page.wait_for_url(lambda url: url.startswith("chrome-error:"))
        expect(page.get_by_text("Confirm Form Resubmission")).to_be_visible()
        response = page.reload()
    else:
        # The review page is shown again: Save on it once more.
        expect(page.get_by_role("heading", name="Review hand 1")).to_be_visible()
        with page.expect_navigation() as nav:
            page.get_by_role("button", name="Save hand").click()
        response = nav.value
    assert response is not None and response.request.method == "POST"
    assert response.status == 409
    expect(page.get_by_role("alert")).to_contain_text("Already saved")
    expect(page.get_by_text("1 hand played")).to_be_visible()
    assert live_hands(live_app) == 1


def test_double_tap_on_save_records_one_hand(page: Page, live_app: Flask) -> None:
    start_game(page, "classic", ["Ann", "Bob", "Cy"])
    pick_went_out(page, "Ann")
    typed_total(page, "Bob").fill("5")
    typed_total(page, "Cy").fill("6")
    page.get_by_role("button", name="Review hand").click()
    expect(page.get_by_role("heading", name="Review hand 1")).to_be_visible()
    page.get_by_role("button", name="Save hand").dblclick()
    expect(page.locator("#standings")).to_be_visible()
    expect(page.get_by_text("1 hand played")).to_be_visible()
    assert live_hands(live_app) == 1


def test_double_tap_on_a_slow_save_records_one_hand(page: Page, live_app: Flask) -> None:
    start_game(page, "classic", ["Ann", "Bob", "Cy"])
    pick_went_out(page, "Ann")
    typed_total(page, "Bob").fill("5")
    typed_total(page, "Cy").fill("6")
    page.get_by_role("button", name="Review hand").click()
    expect(page.get_by_role("heading", name="Review hand 1")).to_be_visible()
    # A slow network: the first Save is recorded, but its answer reaches the phone only
    # once the second tap has been sent, so both taps reach the server.
    first_saved, second_sent = threading.Event(), threading.Event()
    saves: list[str] = []
    app = live_app.wsgi_app

    def slow_saves(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ["REQUEST_METHOD"] != "POST" or not re.fullmatch(r"/games/[0-9]+/hands",
                                                                   environ["PATH_INFO"]):
            return app(environ, start_response)
        saves.append(environ["PATH_INFO"])
        if len(saves) > 1:
            second_sent.set()
            return app(environ, start_response)
        answer = list(app(environ, start_response))
        first_saved.set()
        second_sent.wait(10)
        return answer

    live_app.wsgi_app = slow_saves  # type: ignore[method-assign]
    save = page.get_by_role("button", name="Save hand")
    save.scroll_into_view_if_needed()
    box = save.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    assert first_saved.wait(10), "the first tap on Save hand sent nothing"
    page.touchscreen.tap(x, y)  # Playwright's own tap would wait for the first answer
    expect(page.get_by_role("alert")).to_contain_text("Already saved")
    expect(page.get_by_text("1 hand played")).to_be_visible()
    assert len(saves) == 2
    assert live_hands(live_app) == 1


def test_the_same_entry_saved_from_a_second_tab_records_once(page: Page, live_app: Flask) -> None:
    start_game(page, "classic", ["Ann", "Bob", "Cy"])
    board = page.url
    pick_went_out(page, "Ann")
    typed_total(page, "Bob").fill("5")
    typed_total(page, "Cy").fill("6")
    page.get_by_role("button", name="Review hand").click()
    expect(page.get_by_role("heading", name="Review hand 1")).to_be_visible()
    # A second tab picks up the kept entry and reviews it too.
    other = page.context.new_page()
    other.goto(board)
    other.get_by_role("link", name="Record hand 1").click()
    expect(other.get_by_text("What you entered so far is kept")).to_be_visible()
    other.get_by_role("button", name="Review hand").click()
    expect(other.get_by_role("heading", name="Review hand 1")).to_be_visible()
    # Saved in the first tab, then in the second: the second reaches the server, refused.
    page.get_by_role("button", name="Save hand").click()
    expect(page.get_by_text("1 hand played")).to_be_visible()
    with other.expect_navigation() as nav:
        other.get_by_role("button", name="Save hand").click()
    assert nav.value is not None and nav.value.status == 409
    expect(other.get_by_role("alert")).to_contain_text("Already saved")
    expect(other.get_by_text("1 hand played")).to_be_visible()
    assert live_hands(live_app) == 1


# -- 3. An undo of the wrong hand is refused --------------------------------------------


def record_two_hands(page: Page) -> None:
    start_game(page, "classic", ["Ann", "Bob", "Cy"])
    record_hand(page, "Ann", {1: {"red-7": 1}, 2: {"wild": 1}}, {1: "7", 2: "50"})
    record_hand(page, "Bob", {0: {"blue-3": 1}, 2: {"green-9": 1}}, {0: "3", 2: "9"})
    expect(page.get_by_text("2 hands played")).to_be_visible()


def test_undo_from_a_stale_tab_is_refused(page: Page, live_app: Flask) -> None:
    record_two_hands(page)
    # Tab A has not heard of the change yet: its live poll (which would bring the new Undo,
    # issue 26) has not come.
    page.evaluate("document.getElementById('live').remove()")
    tab_b = page.context.new_page()
    tab_b.goto(page.url)
    tab_b.get_by_role("button", name="Undo last hand").click()
    expect(tab_b.get_by_text("1 hand played")).to_be_visible()
    assert live_hands(live_app) == 1
    # Tab A still shows hand 2 as the last one.
    expect(page.get_by_text("2 hands played")).to_be_visible()
    with page.expect_navigation() as nav:
        page.get_by_role("button", name="Undo last hand").click()
    assert nav.value is not None and nav.value.status == 409
    expect(page.get_by_role("alert")).to_contain_text("nothing was undone")
    expect(page.get_by_role("alert")).to_contain_text("The last hand is now hand 1")
    expect(page.get_by_text("1 hand played")).to_be_visible()
    assert live_hands(live_app) == 1
    assert _query(live_app, "SELECT went_out FROM hands WHERE deleted_at IS NULL") == [(0,)]


def test_a_crafted_undo_is_refused(page: Page, live_app: Flask) -> None:
    record_two_hands(page)
    board = page.url
    undo_id = "form[action$='/hands/undo'] input[name=hand_id]"
    page.eval_on_selector(undo_id, "input => { input.value = 'junk'; }")
    with page.expect_navigation() as nav:
        page.get_by_role("button", name="Undo last hand").click()
    assert nav.value is not None and nav.value.status == 400
    expect(page.get_by_role("alert")).to_contain_text("nothing was changed")
    assert live_hands(live_app) == 2
    # Naming hand 1 while hand 2 is the last one: refused too.
    page.goto(board)
    expect(page.get_by_text("2 hands played")).to_be_visible()
    first_id = _query(live_app, "SELECT min(id) FROM hands")[0][0]
    page.eval_on_selector(undo_id, f"input => {{ input.value = '{first_id}'; }}")
    with page.expect_navigation() as nav:
        page.get_by_role("button", name="Undo last hand").click()
    assert nav.value is not None and nav.value.status == 409
    expect(page.get_by_role("alert")).to_contain_text("nothing was undone")
    expect(page.get_by_text("2 hands played")).to_be_visible()
    assert live_hands(live_app) == 2


# -- 4. The new-game form: only its button starts a game --------------------------------


def test_enter_in_names_moves_on_and_never_starts_a_game(page: Page, live_app: Flask) -> None:
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.goto("/games/new")
    page.wait_for_load_state()

    def seat(n: int) -> Locator:
        return page.get_by_label(f"Player {n}", exact=True)

    seat(1).tap()
    page.keyboard.type("Ann")
    page.keyboard.press("Enter")
    expect(seat(2)).to_be_focused()
    page.keyboard.type("Bob")
    page.keyboard.press("Enter")
    expect(seat(3)).to_be_focused()
    page.keyboard.type("Cy")
    # Enter in the last visible name (seat 4) shows seat 5 and moves there.
    expect(seat(5)).to_be_hidden()
    seat(4).tap()
    page.keyboard.press("Enter")
    expect(seat(5)).to_be_focused()
    # On to the very last seat; Enter there stays put.
    seats = page.locator(".seat input[type=text]").count()
    for n in range(5, seats):
        page.keyboard.press("Enter")
        expect(seat(n + 1)).to_be_focused()
    page.keyboard.press("Enter")
    expect(seat(seats)).to_be_focused()
    assert urlsplit(page.url).path == "/games/new"
    assert games_stored(live_app) == 0
    for n, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
        expect(seat(n)).to_have_value(name)
    # The game is started by its button, and that was the page's first POST.
    page.get_by_role("button", name="Start game").click()
    expect(page.locator("#standings .name")).to_have_text(["Ann", "Bob", "Cy"])
    assert [urlsplit(u).path for u in posts] == ["/games"]
    assert games_stored(live_app) == 1


def test_without_javascript_enter_and_use_this_variant_only_show_the_form(
        page_without_js: Page, live_app: Flask) -> None:
    page = page_without_js
    page.goto("/games/new")
    page.get_by_label("Player 1", exact=True).fill("Ann")
    page.get_by_label("Player 2", exact=True).fill("Bob")
    with page.expect_navigation() as nav:
        page.get_by_label("Player 2", exact=True).press("Enter")
    assert nav.value is not None and nav.value.request.method == "POST"
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    assert urlsplit(page.url).path == "/games/new"
    expect(page.get_by_label("Player 1", exact=True)).to_have_value("Ann")
    expect(page.get_by_label("Player 2", exact=True)).to_have_value("Bob")
    assert games_stored(live_app) == 0
    # "Use this variant" shows the variant's settings, the token staying out of the URL.
    page.get_by_label("Variant").select_option("pizza-pizza")
    with page.expect_navigation() as nav:
        page.get_by_role("button", name="Use this variant").click()
    expect(page.get_by_text("is for 2 to 5 players")).to_be_visible()
    expect(page.locator("input[name=target]")).to_have_value("250")
    expect(page.get_by_label("Player 1", exact=True)).to_have_value("Ann")
    assert "csrf_token" not in page.url and urlsplit(page.url).query == ""
    assert nav.value is not None and "csrf_token" not in nav.value.request.url
    assert games_stored(live_app) == 0


# -- 5. Names cannot hide control characters --------------------------------------------


def test_a_right_to_left_override_is_dropped_from_a_name(page: Page, live_app: Flask) -> None:
    start_game(page, "classic", ["\u202eevil", "Bob"])
    expect(page.locator("#standings .name")).to_have_text(["evil", "Bob"])
    assert "\u202e" not in page.locator("#standings").inner_text()
    stored = [name for (name,) in _query(live_app, "SELECT name FROM players ORDER BY seat")]
    assert stored == ["evil", "Bob"]
    assert not any(unicodedata.category(c).startswith("C") for name in stored for c in name)


def test_a_zero_width_space_does_not_make_another_name(page: Page, live_app: Flask) -> None:
    page.goto("/games/new")
    page.get_by_label("Player 1", exact=True).fill("Ana")
    page.get_by_label("Player 2", exact=True).fill("Ana\u200b")
    with page.expect_navigation() as nav:
        page.get_by_role("button", name="Start game").click()
    assert nav.value is not None and nav.value.status == 400
    expect(page.get_by_role("alert")).to_contain_text(
        "Two players have the same name: add an initial to tell them apart.")
    assert games_stored(live_app) == 0
