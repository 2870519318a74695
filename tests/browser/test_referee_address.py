"""A verdict's address on a phone (360x640, touch; issue 20): the referee's answer is a
GET whose address holds the question, so opening a rule it cites and pressing Back, or
reloading, shows the same verdict with the cards that were tapped; and the table's own
options (the UNO penalty, house rules) set on the phone reach the answer. Checked with
axe as the phone shows each page, light and dark."""

from __future__ import annotations

import re

from browser_steps import (
    assert_fits_phone,
    card_cell,
    seat,
    start_game,
    violations_light_and_dark,
)
from playwright.sync_api import Page, expect

HAND = ["red-3", "blue-7", "green-1"]
GUILTY = "Bea's Wild Draw 4 was illegal: Bea draws 4, then Cy plays"


def ask_a_challenge(page: Page) -> None:
    """Tap a challenge at a table of four and read the verdict."""
    seat(page, "by", "Bea").tap()
    page.locator("#field-color label.red").tap()
    for card in HAND:
        card_cell(page, "hand", card).tap()
    page.get_by_role("button", name="Decide").tap()
    expect(page.locator("#outcome")).to_have_text(GUILTY)


def expect_the_challenge_as_asked(page: Page) -> None:
    """The verdict and everything tapped for it, as the page shows them."""
    expect(page.locator("#outcome")).to_have_text(GUILTY)
    expect(seat(page, "by", "Bea").locator("input")).to_be_checked()
    expect(page.locator("#field-color label.red input")).to_be_checked()
    expect(page.locator("#hand")).to_have_value(" ".join(HAND))
    expect(page.locator("#field-hand .cell.picked")).to_have_count(len(HAND))


def test_a_verdict_survives_its_cited_rule_and_back_and_a_reload(page: Page) -> None:
    start_game(page, "classic", ["Ann", "Bea", "Cy", "Dan"])
    page.get_by_role("link", name="Settle a dispute").tap()
    page.get_by_role("link", name=re.compile("^Challenge!")).tap()
    ask_a_challenge(page)
    # htmx answered in place, and the address bar now holds the question.
    expect(page).to_have_url(re.compile(r"/referee/challenge\?game=1&by=Bea&.*&ask=1#answer$"))
    asked = page.url
    assert "csrf_token" not in asked

    # The rule the verdict cites, then Back: the same verdict, the same cards.
    page.locator("#answer ul.sources a").first.tap()
    expect(page).to_have_url(re.compile(r"/rules/classic#"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("UNO (classic)")
    page.go_back()
    expect(page).to_have_url(asked)
    expect_the_challenge_as_asked(page)

    # A reload shows it again.
    page.reload()
    expect_the_challenge_as_asked(page)
    expect(page.locator("#outcome")).to_be_in_viewport()

    # The ruling is kept by the answer's own button (a POST), once.
    page.get_by_role("button", name="Save this ruling to the game").tap()
    expect(page.locator("#saved")).to_contain_text("Saved to this game's rulings.")
    expect(page).to_have_url(asked)  # keeping it is no new question


def test_a_shared_verdict_opens_on_another_phone(page: Page, other_phone: Page) -> None:
    page.goto("/referee/challenge?variant=classic&seats=Ann,Bea,Cy,Dan")
    ask_a_challenge(page)
    expect(page).to_have_url(re.compile(r"&ask=1#answer$"))
    other_phone.goto(page.url)
    expect_the_challenge_as_asked(other_phone)
    expect(other_phone.locator("#outcome")).to_be_in_viewport()  # opened at the answer


def test_the_tables_options_set_on_the_phone_reach_the_answer(page: Page) -> None:
    # R6: classic's penalty for a missed UNO call is 4 cards; this table plays 2.
    page.goto("/referee?variant=classic&seats=Ann,Bea,Cy")
    page.get_by_text("(change)").tap()
    page.get_by_label("Cards drawn for a missed UNO call").fill("2")
    page.get_by_label("Jump-in").tap()
    page.get_by_role("button", name="Use this table").tap()
    expect(page).to_have_url(re.compile(r"[?&]uno_penalty=2(&|$)"))
    expect(page).to_have_url(re.compile(r"[?&]house=jump_in(&|$)"))
    page.get_by_role("link", name=re.compile("^UNO!")).tap()
    seat(page, "player", "Ann").tap()
    page.get_by_role("button", name="Decide").tap()
    expect(page.locator("#outcome")).to_have_text(
        "Yes: Bea or Cy can catch Ann until Bea begins their turn (plays or draws); "
        "a caught Ann draws 2")
    expect(page).to_have_url(re.compile(r"uno_penalty=2&house=jump_in&player=Ann&.*ask=1#answer$"))
    page.reload()
    expect(page.locator("#outcome")).to_contain_text("a caught Ann draws 2")


def test_a_verdict_by_its_address_without_javascript(page_without_js: Page) -> None:
    page = page_without_js
    page.goto("/referee/challenge?variant=classic&seats=Ann,Bea,Cy,Dan")
    seat(page, "by", "Bea").click()
    page.locator("#field-color label.red").click()
    page.get_by_label("The hand they show after it (type them)").fill(" ".join(HAND))
    page.get_by_role("button", name="Decide").click()
    expect(page).to_have_url(re.compile(r"&ask=1#answer$"))
    expect(page.locator("#outcome")).to_have_text(GUILTY)
    page.locator("#answer ul.sources a").first.click()
    expect(page).to_have_url(re.compile(r"/rules/classic#"))
    page.go_back()
    expect(page.locator("#outcome")).to_have_text(GUILTY)
    expect(page.get_by_label("The hand they show after it (type them)")).to_have_value(
        " ".join(HAND))


def test_the_pages_of_a_verdicts_address_have_no_accessibility_violation(browser,
                                                                         base_url) -> None:
    # One walk, each page checked light and dark.
    context = browser.new_context(viewport={"width": 360, "height": 640},
                                  base_url=base_url, has_touch=True, is_mobile=True)
    page = context.new_page()
    found = []

    def check(name: str) -> None:
        found.append((name, violations_light_and_dark(page)))

    page.goto("/referee/challenge?variant=classic&seats=Ann,Bea,Cy,Dan")
    page.get_by_text("(change)").tap()
    expect(page.get_by_label("Cards drawn for a missed UNO call")).to_be_visible()
    check("table options")
    assert_fits_phone(page)
    ask_a_challenge(page)
    check("verdict")
    page.locator("#answer ul.sources a").first.tap()
    expect(page).to_have_url(re.compile(r"/rules/classic#"))
    page.go_back()
    expect_the_challenge_as_asked(page)
    check("verdict after Back")
    page.goto("/referee/uno?variant=one&seats=Ann,Bea&uno_penalty=99")
    check("an option out of bounds")
    context.close()
    assert [(name, v) for name, v in found if v] == []

