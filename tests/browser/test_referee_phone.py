"""The referee on a phone (360x640, touch): from a game's scoreboard to a verdict by taps,
with the taps counted; a ruling kept; a refusal shown in place; one card fields; a
replay played and taken back; and a check with JavaScript turned off."""

from __future__ import annotations

import re

from browser_steps import Taps, seat, start_game, violations, violations_light_and_dark
from playwright.sync_api import Page, expect

from companion.assets import KEPT_COOKIE

#: The goal: at most this many taps from the scoreboard to the answer of a challenge.
TAP_GOAL = 10


def test_challenge_from_the_scoreboard_in_at_most_ten_taps(page: Page) -> None:
    start_game(page, "classic", ["Ann", "Bea", "Cy", "Dan"])
    tap = Taps()
    tap(page.get_by_role("link", name="Settle a dispute"))
    tap(page.get_by_role("link", name=re.compile("^Challenge!")))
    expect(page.get_by_role("heading", name="Challenge!")).to_be_visible()
    expect(page.get_by_text("Was that Wild Draw 4 legal, or a bluff?")).to_be_visible()
    tap(seat(page, "by", "Bea"))
    tap(page.locator("#field-color label.red"))
    hand = ["red-3", "blue-7", "green-1", "yellow-2", "blue-9"]
    for card in hand:
        tap(page.locator(f"#field-hand .cell[data-card='{card}']"))
    expect(page.locator("#hand")).to_have_value(" ".join(hand))
    expect(page.locator("#field-hand .cell.picked")).to_have_count(5)
    tap(page.get_by_role("button", name="Decide"))
    outcome = page.locator("#outcome")
    expect(outcome).to_have_text("Bea's Wild Draw 4 was illegal: Bea draws 4, then Cy plays")
    expect(outcome).to_be_in_viewport()
    expect(page.locator("#answer ol.steps li").first).to_contain_text("Cy challenges")
    expect(page.locator("#answer ul.sources a").first).to_have_attribute("href",
                                                                          "/rules/classic#wild-draw-4")
    print(f"\ntaps from the scoreboard to the answer: {tap.count}")
    assert tap.count <= TAP_GOAL

    # The table keeps the ruling on the game (one more tap), and finds it on the log.
    page.get_by_role("button", name="Save this ruling to the game").tap()
    expect(page.locator("#saved")).to_contain_text("Saved to this game's rulings.")
    page.get_by_role("link", name="See the rulings").tap()
    expect(page.locator(".ruling-line")).to_have_text(
        "Ruling: Bea's Wild Draw 4 was illegal: Bea draws 4, then Cy plays")


def test_a_refusal_is_shown_in_place_of_the_answer(page: Page) -> None:
    page.goto("/referee/challenge?variant=classic&seats=Ann,Bea,Cy")
    page.locator("#field-color label.red").tap()
    page.get_by_role("button", name="Decide").tap()
    expect(page.locator("#refusal")).to_contain_text("Tap who played the wild.")
    expect(page).to_have_url(re.compile(r"/referee/challenge\?"))  # htmx: no page load


def test_one_card_fields_take_one_card(page: Page) -> None:
    page.goto("/referee/play?variant=classic")
    page.locator("#field-top .cell[data-card='blue-7']").tap()
    page.locator("#field-top .cell[data-card='blue-8']").tap()  # changing one's mind
    expect(page.locator("#top")).to_have_value("blue-8")
    expect(page.locator("#field-top .cell.picked")).to_have_count(1)
    page.locator("#field-card .cell[data-card='red-8']").tap()
    page.get_by_role("button", name="Decide").tap()
    expect(page.locator("#outcome")).to_have_text("Yes, the player can play red 8 on blue 8")
    page.locator("#field-card .cell[data-card='red-8']").tap()  # a second tap takes it back
    expect(page.locator("#card")).to_have_value("")


def test_a_replay_is_played_and_taken_back_by_links(page: Page) -> None:
    start = ("variant=classic;players=Ann,Bea;hands=red-7.wild/blue-3.green-5;discard=red-5;"
             "draw=yellow-1.yellow-2")
    page.goto("/referee/replay?p=" + start)
    page.get_by_role("link", name="Ann plays red 7", exact=True).tap()
    expect(page.locator("#steps")).to_contain_text("Ann plays red 7")
    expect(page.get_by_role("heading", name="Bea to act")).to_be_visible()
    assert "actions=play_red-7" in page.url.replace("%3D", "=")
    page.get_by_role("link", name="Undo").tap()
    expect(page.locator("#steps")).to_have_count(0)
    expect(page.get_by_role("heading", name="Ann to act")).to_be_visible()


def test_a_check_without_javascript(page_without_js: Page) -> None:
    page = page_without_js
    page.goto("/referee/first-card?variant=wild-jackpot&seats=Ann,Bea,Cy,Dan")
    seat(page, "dealer", "Ann").click()
    page.get_by_label("The card turned up (type them)").fill("r-rev")
    page.get_by_role("button", name="Decide").click()
    # The address holds the question (a GET), and the answer is where it lands.
    expect(page).to_have_url(re.compile(r"/referee/first-card\?.*&ask=1#answer$"))
    expect(page.locator("#outcome")).to_have_text(
        "Red Reverse turned up first: Ann plays first, going counter-clockwise")
    expect(page.locator("#outcome")).to_be_in_viewport()
    # The form is kept as it was sent, to change and ask again.
    expect(page.get_by_label("The card turned up (type them)")).to_have_value("r-rev")


def test_the_referee_pages_have_no_accessibility_violation(browser, base_url) -> None:
    # One walk, each page checked light and dark.
    context = browser.new_context(viewport={"width": 360, "height": 640},
                                  base_url=base_url, has_touch=True, is_mobile=True)
    page = context.new_page()
    found = []

    def check(name: str) -> None:
        found.append((name, violations_light_and_dark(page)))

    start_game(page, "classic", ["Ann", "Bea", "Cy"])
    page.get_by_role("link", name="Settle a dispute").tap()
    expect(page.get_by_role("heading", name="Settle a dispute")).to_be_visible()
    check("list")
    page.get_by_role("link", name=re.compile("^Challenge!")).tap()
    expect(page.get_by_role("heading", name="Challenge!")).to_be_visible()
    check("challenge")
    page.get_by_role("button", name="Decide").tap()
    expect(page.locator("#refusal")).to_be_visible()
    check("refused")
    seat(page, "by", "Bea").tap()
    page.locator("#field-color label.blue").tap()
    page.locator("#field-hand .cell[data-card='blue-1']").tap()
    page.get_by_role("button", name="Decide").tap()
    expect(page.locator("#outcome")).to_be_visible()
    check("answer")
    page.get_by_role("button", name="Save this ruling to the game").tap()
    page.get_by_role("link", name="See the rulings").tap()
    expect(page.get_by_role("heading", name="Rulings")).to_be_visible()
    check("rulings")
    page.goto("/referee/replay?seats=Ann,Bea")
    check("replay editor")
    page.goto("/referee/replay?p=variant=classic;players=Ann,Bea;hands=red-7/blue-3;"
              "discard=red-5")
    check("replay")
    page.goto("/referee/special?variant=star-wars&seats=Ann,Bea")
    check("special")
    context.close()
    assert [(name, v) for name, v in found if v] == []



def test_the_referee_pages_without_the_apps_scripts_have_no_violation(browser, base_url,
                                                                      live_app) -> None:
    # As a phone without JavaScript renders them: typed card lists, full-page answers.
    context = browser.new_context(viewport={"width": 360, "height": 640}, base_url=base_url)
    context.route("**/*.js", lambda route: route.abort())
    # A phone that says it holds app.js is sent a link to it (a first page carries it
    # inline), which is refused here.
    context.add_cookies([{"name": KEPT_COOKIE, "value": live_app.extensions["uno_assets"].kept,
                          "url": base_url}])
    page = context.new_page()
    page.goto("/referee/challenge?variant=classic&seats=Ann,Bea,Cy")
    found = [("challenge", violations(page))]
    page.get_by_role("button", name="Decide").click()
    expect(page.locator("#refusal")).to_be_visible()
    found.append(("refused", violations(page)))
    seat(page, "by", "Bea").click()
    page.locator("#field-color label.red").click()
    page.get_by_label("The hand they show after it (type them)").fill("r3 b7")
    page.get_by_role("button", name="Decide").click()
    expect(page.locator("#outcome")).to_be_visible()
    found.append(("answer", violations(page)))
    context.close()
    assert [(name, v) for name, v in found if v] == []


def test_the_referee_is_one_tap_from_the_home_page_and_from_a_rules_page(page: Page) -> None:
    # A table without a game in the app: from the home page, one tap to the checks.
    page.goto("/")
    tap = Taps()
    tap(page.get_by_role("link", name="Settle a dispute"))
    expect(page.get_by_role("link", name=re.compile("^Challenge!"))).to_be_visible()
    assert tap.count == 1
    # From a variant's rules, one tap to the checks for that variant's table.
    page.goto("/rules/wild-jackpot")
    tap(page.get_by_role("link", name="Settle a dispute in UNO Wild Jackpot"))
    expect(page.locator("select[name=variant]")).to_have_value("wild-jackpot")
    assert tap.count == 2
