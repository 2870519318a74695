"""axe-core on every page the app has, as a phone shows it, light and dark, with and
without JavaScript: no violation of any rule axe checks (WCAG 2.x A and AA included).

axe-core is evaluated in the page through Playwright (browser_steps.violations).
"""

from __future__ import annotations

from browser_steps import start_game, tap_cards, violations, wait_for_page
from playwright.sync_api import Page, expect

from companion.assets import KEPT_COOKIE


def every_page(page: Page, schemes: tuple[str, ...] = ("light",)) -> list[tuple[str, list[str]]]:
    """Walk the app as a table does, and check each page on the way, in each colour scheme
    (one walk: the page is the same, its colours change)."""
    found: list[tuple[str, list[str]]] = []

    def check(name: str) -> None:
        for scheme in schemes:
            page.emulate_media(color_scheme=scheme)
            assert page.evaluate(f"matchMedia('(prefers-color-scheme: {scheme})').matches")
            found.append((f"{name} ({scheme})", violations(page)))

    page.goto("/")
    check("home, empty")
    page.goto("/games/new")
    check("new game")
    start_game(page, "classic", ["Ann", "Bob", "Cy"], target="100")
    check("scoreboard")
    # Each step waits for the page it leads to (a click does not) before axe checks it.
    page.get_by_role("link", name="Record hand 1").click()
    wait_for_page(page, page.get_by_role("heading", name="Hand 1: who went out?"))
    check("who went out")
    page.get_by_role("button", name="Ann", exact=True).click()
    wait_for_page(page, page.get_by_role("heading", name="Hand 1: Ann went out"))
    if page.locator(".grid-slot .cell").count():  # the grids, drawn by the app's script
        tap_cards(page, 1, {"red-7": 2, "wild": 1})
        expect(page.locator("#pts-1")).to_have_text("64")  # htmx has swapped the points in
    else:
        page.get_by_role("textbox", name="Bob's cards").fill("r7 r7 w")
    check("card picker")
    page.get_by_role("button", name="Review hand").click()
    wait_for_page(page, page.get_by_role("alert").filter(has_text="Enter Cy's cards"))
    check("review, refused (Cy's cards missing)")
    page.locator("input[name='pts-2']").fill("5")
    page.get_by_role("button", name="Review hand").click()
    wait_for_page(page, page.get_by_role("heading", name="Review hand 1"))
    check("review")
    page.get_by_role("button", name="Save hand").click()
    wait_for_page(page, page.get_by_text("1 hand played"))
    check("scoreboard after a hand")
    page.get_by_role("link", name="History & corrections").click()
    wait_for_page(page, page.get_by_role("heading", name="Hands", exact=True))
    check("history")
    page.locator("#hand-1").get_by_role("link", name="Edit").click()
    wait_for_page(page, page.get_by_role("heading", name="Hand 1 (editing): Ann went out"))
    check("edit a hand")
    page.get_by_role("link", name="Scoreboard").click()
    page.get_by_role("link", name="Delete game…").click()
    wait_for_page(page, page.get_by_role("heading", name="Delete this game?"))
    check("confirm delete")
    page.get_by_role("button", name="Delete game").click()
    wait_for_page(page, page.get_by_text("Game deleted."))
    check("home, with the undo notice")
    page.goto("/games/999")
    check("not found")
    page.goto("/")
    check("home, a game listed")
    return found


def test_no_page_has_an_accessibility_violation_light_or_dark(browser, base_url) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 640}, base_url=base_url,
                                  has_touch=True, is_mobile=True)
    page = context.new_page()
    found = every_page(page, ("light", "dark"))
    context.close()
    problems = [f"{name}: {line}" for name, lines in found for line in lines]
    assert not problems, "\n".join(problems)
    assert len(found) == 28


def test_no_page_has_an_accessibility_violation_without_the_apps_scripts(browser, base_url,
                                                                         live_app) -> None:
    # A phone without JavaScript gets other markup (typed card lists, every seat shown).
    # axe itself needs JavaScript, so the page runs with it but without the app's own
    # scripts (htmx and app.js are refused), which is what such a phone renders.
    context = browser.new_context(viewport={"width": 360, "height": 640}, base_url=base_url)
    context.route("**/*.js", lambda route: route.abort())
    # A phone that says it holds app.js is sent a link to it (a first page carries it
    # inline), which is refused here.
    context.add_cookies([{"name": KEPT_COOKIE, "value": live_app.extensions["uno_assets"].kept,
                          "url": base_url}])
    page = context.new_page()
    found = every_page(page)
    context.close()
    problems = [f"{name}: {line}" for name, lines in found for line in lines]
    assert not problems, "\n".join(problems)
    assert len(found) == 14
