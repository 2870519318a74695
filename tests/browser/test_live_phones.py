"""Live pages on two phones (360x640): what one phone changes shows on the other within two
seconds, without a reload, and without touching what the other phone's user chose."""

from __future__ import annotations

from urllib.parse import urlparse

from browser_steps import join, record_hand, start_game, wait_for_page
from playwright.sync_api import Page, expect

#: A change must show within two seconds: the poll's period, plus the request's time.
SHOWN_WITHIN = 3_000
#: The poll's period where a test checks what a poll does, not how soon it comes.
FAST_POLL = "300ms"
#: What a poll does is seen by the next poll or two (behaviour, not speed, is tested there).
POLL_SEEN = 8_000
#: Set on a page's window: still there later, the page was never reloaded or left.
MARKER = "window.__notReloaded = true"


def test_a_viewer_s_scoreboard_shows_the_keeper_s_new_hand_without_a_reload(
        page: Page, other_phone: Page) -> None:
    start_game(page, "classic", ["Ann", "Bob", "Cy"])
    game = urlparse(page.url).path
    viewer = other_phone
    join(viewer, page, game, "viewer")
    expect(viewer.locator("#watching")).to_be_visible()
    viewer.evaluate(MARKER)
    # Nothing changed yet: the poll is answered "not modified", and nothing is swapped.
    with viewer.expect_response(lambda r: r.url.endswith(game) and r.status == 304,
                                timeout=SHOWN_WITHIN):
        pass
    page.goto(game)
    record_hand(page, "Ann", {1: {"red-7": 1}, 2: {"blue-1": 1}}, {1: "7", 2: "1"})
    expect(viewer.locator("#standings tr[data-seat='0'] td.total")).to_have_text(
        "8", timeout=SHOWN_WITHIN)
    expect(viewer.locator("#scores .meta")).to_contain_text("1 hand played")
    assert viewer.evaluate("window.__notReloaded") is True
    expect(viewer.locator("#trouble")).to_be_hidden()


def test_a_viewer_s_lever_history_shows_a_pull_without_a_reload(page: Page,
                                                               other_phone: Page) -> None:
    start_game(page, "wild-jackpot", ["Ann", "Bob", "Cy"])
    game = urlparse(page.url).path
    viewer = other_phone
    join(viewer, page, game, "viewer")
    viewer.goto(f"{game}/jackpot/history")
    wait_for_page(viewer, viewer.locator("#spins"))
    expect(viewer.locator("#fairness-words")).to_have_text("No pulls yet.")
    viewer.evaluate(MARKER)
    page.goto(game)
    page.locator("#jackpot").get_by_role("button", name="Bob pulls").tap()
    wait_for_page(page, page.locator("#spin-outcome"))
    expect(viewer.locator("#spins .spin-line")).to_have_count(1, timeout=SHOWN_WITHIN)
    expect(viewer.locator("#spins .spin-line")).to_contain_text("Bob pulled")
    expect(viewer.locator("#fairness-words")).to_contain_text("1 pull.")
    assert viewer.evaluate("window.__notReloaded") is True
    # On the lever page, a watching phone is shown each pull as it is made.
    viewer.goto(f"{game}/jackpot")
    expect(viewer.locator("#spin-answer")).to_contain_text("Bob pulled")
    wait_for_page(viewer, viewer.locator("#spin-answer"))
    page.goto(game)
    page.locator("#jackpot").get_by_role("button", name="Cy pulls").tap()
    wait_for_page(page, page.locator("#spin-outcome"))
    expect(viewer.locator("#spin-answer")).to_contain_text("Cy pulled", timeout=SHOWN_WITHIN)


def test_a_direction_chosen_on_the_lever_page_survives_a_pull_from_another_phone(
        page: Page, other_phone: Page, live_app) -> None:
    live_app.config["LIVE_POLL"] = FAST_POLL  # what a live update keeps, not how soon
    start_game(page, "wild-jackpot", ["Ann", "Bob", "Cy"])
    game = urlparse(page.url).path
    other = other_phone
    join(other, page, game, "keeper")
    page.goto(f"{game}/jackpot")
    wait_for_page(page, page.locator("#lever-form"))
    page.get_by_text("Counter-clockwise").tap()
    expect(page.locator("input[value=counter-clockwise]")).to_be_checked()
    page.evaluate(MARKER)
    # This phone's own pull is answered in place; its poll follows that change too.
    tag = page.locator("#live").get_attribute("data-etag")
    page.locator("#lever-form").get_by_role("button", name="Ann pulls").tap()
    expect(page.locator("#spin-answer")).to_contain_text("Ann pulled")
    expect(page.locator("#live")).not_to_have_attribute("data-etag", tag or "",
                                                        timeout=POLL_SEEN)
    tag = page.locator("#live").get_attribute("data-etag")
    # The other phone pulls clockwise (its own choice): a change this page follows.
    other.locator("#jackpot").get_by_role("button", name="Cy pulls").tap()
    wait_for_page(other, other.locator("#spin-outcome"))
    expect(page.locator("#live")).not_to_have_attribute("data-etag", tag or "",
                                                        timeout=SHOWN_WITHIN)
    expect(page.locator("input[value=counter-clockwise]")).to_be_checked()
    # ...and this phone's answer stays the one its own pull brought (not swapped out).
    expect(page.locator("#spin-answer")).to_contain_text("Ann pulled")
    assert page.evaluate("window.__notReloaded") is True


def test_a_failing_poll_says_so_once_and_a_renewed_link_stops_the_polling(
        page: Page, other_phone: Page, live_app) -> None:
    live_app.config["LIVE_POLL"] = FAST_POLL  # what a poll does, not how soon, is tested
    start_game(page, "classic", ["Ann", "Bob", "Cy"])
    game = urlparse(page.url).path
    viewer = other_phone
    join(viewer, page, game, "viewer")
    trouble = viewer.locator("#trouble")

    def broken(route) -> None:  # the server fails the polls, not the pages
        if route.request.headers.get("hx-request"):
            route.fulfill(status=500, body="<main><h1>Broken</h1></main>")
        else:
            route.continue_()

    viewer.route(f"**{game}", broken)
    expect(trouble).to_contain_text("could not say what changed", timeout=POLL_SEEN)
    viewer.unroute(f"**{game}")
    expect(trouble).to_be_hidden(timeout=POLL_SEEN)  # the next poll that works
    # The scorekeeper renews the viewer's link: this phone may no longer open the game.
    page.goto(f"{game}/share")
    page.locator("#share-viewer").get_by_role("link", name="Lock this link out…").tap()
    page.locator("form:has(input[name=role][value=viewer]) button").tap()
    wait_for_page(page, page.locator("#renewed"))
    expect(trouble).to_contain_text("can no longer be opened on this phone",
                                    timeout=POLL_SEEN)
    expect(viewer.locator("#live")).to_have_count(0)  # no more polls
