"""A background request that fails is said on the page, in the server's words where it sent
some: live points that stop updating, or a phone off the network, never fail silently."""

from __future__ import annotations

import re

from browser_steps import start_game, tap_cards, violations, wait_for_htmx, wait_for_page
from playwright.sync_api import Page, Route, expect

PREVIEW = re.compile(r".*/hands/preview$")
READ_ONLY_PAGE = """<!doctype html><html lang="en"><head><title>x</title></head><body><main>
<section class="panel error"><h1>The database is read-only</h1>
<p>The database file is read-only, so the scores can be read but not changed.</p></section>
</main></body></html>"""


def open_picker(page: Page) -> None:
    start_game(page, "classic", ["Ann", "Bob", "Cy"])
    page.get_by_role("link", name="Record hand 1").click()
    page.get_by_role("button", name="Ann", exact=True).click()
    wait_for_page(page, page.get_by_role("heading", name="Hand 1: Ann went out"))


def test_live_points_that_fail_say_why_and_clear_when_they_work_again(page: Page) -> None:
    open_picker(page)
    trouble = page.locator("#trouble")
    expect(trouble).to_be_hidden()
    page.route(PREVIEW, lambda route: route.fulfill(status=503, body=READ_ONLY_PAGE,
                                                    content_type="text/html"))
    tap_cards(page, 1, {"red-7": 1})
    expect(trouble).to_be_visible()
    expect(trouble).to_have_text(re.compile(
        r"^The database is read-only: The database file is read-only, so the scores can be "
        r"read but not changed\. What is on this page is not lost: try again\.$"))
    assert violations(page) == []
    page.unroute(PREVIEW)
    tap_cards(page, 2, {"blue-9": 1})
    expect(page.locator("#pts-2")).to_have_text("9")
    expect(trouble).to_be_hidden()


def test_a_phone_off_the_network_is_told_so(page: Page) -> None:
    open_picker(page)

    def unreachable(route: Route) -> None:
        route.abort("internetdisconnected")

    page.route(PREVIEW, unreachable)
    tap_cards(page, 1, {"red-7": 1})
    expect(page.locator("#trouble")).to_have_text(re.compile(r"^The app could not be reached"))


def test_a_refusal_shown_in_place_is_no_trouble(page: Page) -> None:
    page.goto("/referee/challenge?variant=classic&seats=Ann,+Bob,+Cy")
    wait_for_htmx(page)  # htmx listens: the refusal comes back in place
    page.get_by_role("button", name="Decide").click()  # nobody named: refused, in place
    expect(page.locator("#refusal")).to_be_visible()
    expect(page.locator("#trouble")).to_be_hidden()
