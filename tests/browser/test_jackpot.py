"""The Wild Jackpot on a phone (360x640, touch): rule cards written with the phone passed
round the table, the lever pulled from the scoreboard and on its own page (htmx), a dealt
card shown only to the player it is for, a Wild Jackpot turned up first, the spinner for
any table, reduced motion, the lever without JavaScript, and axe on every jackpot page.

The lever draws from a generator seeded here (the app's ``JACKPOT_RANDOM``), so every
pull's outcome is known before the test taps.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlparse

import pytest
from browser_steps import (
    MIN_TARGET,
    Taps,
    assert_fits_phone,
    same_browser,
    start_game,
    violations,
    wait_for_htmx,
)
from playwright.sync_api import Page, expect

# A long file: handed to a worker first (tests/engine/conftest.py).
pytestmark = pytest.mark.starts_first

#: With this seed, a game's first pull stops on "left" and its second on "right"; after
#: the rule cards below are written (their shuffles draw first) it stops on "everyone".
SEED = 7
NAMES = ["Ann", "Bob", "Cy"]
#: Two rule cards each: a Wild Jackpot box's eight shared among three (R17).
CARDS = {
    "Ann": ["Talk like a robot until your next turn.", "Hop on one foot while you play."],
    "Bob": ["Sing the name of your next card.", "Clap twice before you play."],
    "Cy": ["Speak only in questions.", "Hold your cards behind your back."],
}
WRITTEN = [text for texts in CARDS.values() for text in texts]
#: The goal: from the scoreboard to a dealt card in this many taps at most (the pull, a
#: choice of player when the lever asks for one, and the reveal).
TAP_GOAL = 3

#: A check of the page as it is now, by the name of the step that reached it.
Check = Callable[[str], None]


@pytest.fixture()
def app_config() -> dict[str, Any]:
    """The lever's generator, seeded (a new one for each test's app)."""
    return {"JACKPOT_RANDOM": random.Random(SEED)}


def start_jackpot_game(page: Page) -> str:
    """A Wild Jackpot game for Ann, Bob and Cy (Ann deals); its path, on its scoreboard."""
    start_game(page, "wild-jackpot", NAMES)
    return urlparse(page.url).path


def write_rule_cards(page: Page, game: str) -> None:
    """Each player writes their two cards (straight to each seat's page: the passing of
    the phone is the first test's)."""
    for seat, texts in enumerate(CARDS.values()):
        page.goto(f"{game}/jackpot/cards/{seat}")
        for box, text in zip(page.locator(".rule-text").all(), texts, strict=True):
            box.fill(text)
        page.get_by_role("button", name="Save and pass the phone on").click()
        expect(page.locator("#saved")).to_be_visible()


def on_screen(texts: Iterable[str]) -> list[re.Pattern[str]]:
    """Texts as a page shows them, to compare with elements' innerText: spaces exactly as
    written (a plain string would have Playwright fold a line break into a space, and miss
    a name that runs into the next word, or sits on a line of its own)."""
    return [re.compile(f"^{re.escape(text)}$") for text in texts]


def computed(page: Page, selector: str, prop: str) -> str:
    """A computed style of the element, as it is at this moment (no waiting)."""
    return str(page.locator(selector).evaluate(f"el => getComputedStyle(el)['{prop}']"))


def running_animations(page: Page) -> list[str]:
    """The CSS animations playing on the page at this moment."""
    return list(page.evaluate("""() => document.getAnimations()
        .filter(a => a.playState === 'running').map(a => a.animationName)"""))


def test_rule_cards_go_round_the_table_and_a_pull_deals_them(page: Page) -> None:
    page.emulate_media(reduced_motion="reduce")  # the wheel's turn is the next tests' part
    game = start_jackpot_game(page)
    panel = page.locator("#jackpot")
    expect(panel.get_by_role("heading")).to_have_text("Wild Jackpot lever")
    expect(panel.locator("button.puller")).to_have_text(on_screen(f"{name} pulls" for name in NAMES),
                                                        use_inner_text=True)
    # Its links sit side by side on one line: each must still be a whole tap target.
    for link in panel.get_by_role("link").all():
        box = link.bounding_box()
        assert box and box["height"] >= MIN_TARGET, f"{link.inner_text()}: {box}"

    panel.get_by_role("link", name="Write the rule cards").tap()
    expect(page.locator("#unit-state")).to_have_text("0 written; 0 in the unit, 0 used.")
    page.get_by_role("link", name="Write Ann's cards").tap()
    for name, texts in CARDS.items():
        expect(page.get_by_role("heading", level=1)).to_have_text(f"{name}'s rule cards")
        expect(page.locator(".rule-text")).to_have_count(2)
        first, second = page.locator(".rule-text").all()
        first.fill(texts[0])
        expect(first).to_have_css("-webkit-text-security", "none")
        # Whoever sits next to the writer should not read it: the toggle masks the text.
        page.locator("label.hide-toggle").tap()
        expect(page.get_by_label("Hide what I type")).to_be_checked()
        expect(first).to_have_css("-webkit-text-security", "disc")
        second.fill(texts[1])
        expect(second).to_have_css("-webkit-text-security", "disc")
        page.get_by_role("button", name="Save and pass the phone on").tap()
        saved = page.locator("#saved")
        expect(saved).to_contain_text(f"{name}'s cards are saved")
        if name != "Cy":
            following = NAMES[NAMES.index(name) + 1]
            expect(saved).to_contain_text(f"Pass the phone to {following}.")
            page.get_by_role("link", name=f"{following}: write my cards").tap()
    expect(page.locator("#saved")).to_have_text(
        "Cy's cards are saved. Every rule card is written: the unit is loaded.")
    expect(page.locator("#unit-state")).to_have_text("6 written; 6 in the unit, 0 used.")
    expect(page.locator("#writers tbody td.num")).to_have_text(["2 of 2"] * 3)

    page.goto(game)
    tap = Taps()
    tap(page.locator("#jackpot").get_by_role("button", name="Ann pulls"))
    expect(page).to_have_url(re.compile(rf"{game}/jackpot/spins/\d+\?new=1$"))
    expect(page.locator("#spin-outcome")).to_have_text(
        "Everyone gets a rule card, starting with Ann, then Bob, Cy.")
    # The cards stay face down until each player taps for their own.
    page.wait_for_load_state()  # the whole page read
    assert not any(text in page.locator("main").inner_text() for text in WRITTEN)
    expect(page.locator(".pass")).to_have_text("Pass the phone to Ann.")
    expect(page.locator("#reveal-first")).to_have_text(on_screen(["Ann: show my rule card"]),
                                                       use_inner_text=True)
    tap(page.get_by_role("link", name="Ann: show my rule card"))
    shown = []
    for name, after in (("Ann", "Bob"), ("Bob", "Cy"), ("Cy", None)):
        expect(page.get_by_role("heading", level=1)).to_have_text(f"{name}, your rule card")
        page.wait_for_load_state()  # the whole card, in its own type size
        card = page.locator("#rule-card")
        expect(card).to_be_in_viewport()
        size = card.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
        assert size >= 24, f"a rule card in {size}px type is hard to read at arm's length"
        shown.append(card.inner_text())
        if name == "Ann":
            print(f"\ntaps from the scoreboard to a dealt rule card: {tap.count}")
            assert tap.count <= TAP_GOAL
        if after:
            expect(page.locator(".pass")).to_have_text(f"Then pass the phone to {after}.")
            page.get_by_role("link", name=f"{after}: show my rule card").tap()
    assert len(set(shown)) == 3 and set(shown) <= set(WRITTEN), shown
    expect(page.locator(".then")).to_have_text("Then Bob plays.")
    page.get_by_role("link", name="Back to the lever").tap()
    expect(page.locator("#unit-state")).to_contain_text("6 written, 3 in the unit.")


def test_with_reduced_motion_the_result_shows_at_once(page: Page) -> None:
    page.emulate_media(reduced_motion="reduce")
    start_jackpot_game(page)
    page.locator("#jackpot").get_by_role("button", name="Ann pulls").tap()
    expect(page.locator("#spin-outcome")).to_have_text("Bob (on your left) performs a rule card.")
    page.wait_for_load_state()  # the stylesheet applied, or nothing would turn anyway
    # Right away: no turning wheel, no fade, the wheel already at its stop.
    assert computed(page, ".spin-words", "opacity") == "1"
    assert computed(page, ".wheel-disc", "animationName") == "none"
    assert running_animations(page) == []
    expect(page.locator(".wheel")).to_have_class(re.compile(r"\bstop-2\b"))  # Left


def test_the_wheel_turns_then_the_result_appears(page: Page) -> None:
    page.emulate_media(reduced_motion="no-preference")
    start_jackpot_game(page)
    # The page's animations play at a tenth of their speed while the turning wheel is read
    # (1.6 s would be too short a window on a busy machine), then at their own again.
    animations = page.context.new_cdp_session(page)
    animations.send("Animation.enable")
    animations.send("Animation.setPlaybackRate", {"playbackRate": 0.1})
    page.locator("#jackpot").get_by_role("button", name="Ann pulls").tap()
    expect(page.locator("#spin-outcome")).to_have_text("Bob (on your left) performs a rule card.")
    # Waited for: the new page's stylesheet applies a moment after its words are there.
    expect(page.locator(".wheel-disc")).to_have_css("animation-name", "wheel-spin")
    assert "wheel-spin" in running_animations(page)
    assert computed(page, ".spin-words", "opacity") != "1"  # the words wait for the wheel
    animations.send("Animation.setPlaybackRate", {"playbackRate": 1})
    expect(page.locator(".spin-words")).to_have_css("opacity", "1")
    assert running_animations(page) == []


def spin_id(page: Page, game: str) -> int:
    """The pull whose page the browser is on (as its address bar says)."""
    expect(page).to_have_url(re.compile(rf"{game}/jackpot/spins/\d+$"))
    return int(page.url.rsplit("/", 1)[1])


def test_the_lever_page_swaps_each_result_in_place(page: Page) -> None:
    game = start_jackpot_game(page)
    write_rule_cards(page, game)
    page.goto(game)
    page.locator("#lever-links").get_by_role("link", name="First card, and more").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("The Wild Jackpot lever")
    wait_for_htmx(page)  # htmx listens: the pulls below are swapped in, not loaded
    expect(page.locator("#spin-result")).to_have_attribute("aria-live", "polite")
    page.evaluate("window.samePage = true")  # gone if the page were loaded again
    key = page.locator("#lever-submission")
    first_key = key.input_value()
    lever = page.locator("#lever-form")

    lever.get_by_role("button", name="Ann pulls").tap()
    expect(page.locator("#spin-outcome")).to_have_text(
        "Everyone gets a rule card, starting with Ann, then Bob, Cy.")
    first = spin_id(page, game)
    expect(page.locator("#spin-result #spin-answer")).to_have_count(1)
    # One live region holds the pull (a screen reader announces it once), nothing twice.
    expect(page.locator("[aria-live]:has(#spin-outcome)")).to_have_count(1)
    expect(page.locator("#spin-outcome, #lever-submission, #unit-state")).to_have_count(3)
    expect(key).not_to_have_value(first_key)  # a new one-time key for the next pull
    expect(page.locator("#unit-state")).to_contain_text("6 written, 3 in the unit.")

    lever.get_by_role("button", name="Bob pulls").tap()
    expect(page.locator("#spin-outcome")).to_have_text(
        "Everyone gets a rule card, starting with Bob, then Cy, Ann.")
    second = spin_id(page, game)
    assert second != first
    expect(page.locator("#unit-state")).to_contain_text("6 written, 0 in the unit.")
    assert page.evaluate("window.samePage") is True
    expect(page.locator("h1")).to_have_count(1)

    page.get_by_role("link", name="Every pull so far, and how fair the lever is").tap()
    expect(page.locator(".spin-line")).to_have_count(2)
    expect(page.locator(".spin-line").first).to_contain_text("Bob pulled: Everyone")
    expect(page.locator(".spin-line").last).to_contain_text("Ann pulled: Everyone")
    expect(page.locator("#fairness-words")).to_contain_text("2 pulls.")


def test_a_wild_jackpot_turned_up_first_lets_the_dealers_left_choose(page: Page) -> None:
    game = start_jackpot_game(page)
    write_rule_cards(page, game)
    page.goto(f"{game}/jackpot")
    page.get_by_text("A Jackpot turned up as the first card?").tap()
    expect(page.locator("#first-card")).to_contain_text("Ann deals this hand.")
    page.get_by_role("button", name="A Wild Jackpot was turned up").tap()
    expect(page.locator("#spin-outcome")).to_have_text(
        "Bob, choose any player (yourself too) to perform a rule card.")
    expect(page.locator(".then")).to_have_text("Then Bob names the color and plays first.")

    page.locator(".choose-form").get_by_role("button", name="Cy", exact=True).tap()
    expect(page.locator("#spin-outcome")).to_have_text("Cy performs a rule card.")
    expect(page.locator(".pass")).to_have_text("Pass the phone to Cy.")
    expect(page.locator(".then")).to_have_text("Then Bob names the color and plays first.")
    page.get_by_role("link", name="Cy: show my rule card").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Cy, your rule card")
    page.wait_for_load_state()  # the whole card
    assert page.locator("#rule-card").inner_text() in WRITTEN
    expect(page.locator(".then")).to_have_text("Then Bob names the color and plays first.")


def test_the_spinner_for_any_table(page: Page) -> None:
    page.goto("/jackpot")
    page.get_by_label(re.compile("^Players")).fill("Ann, Bob, Cy")
    page.get_by_role("button", name="Seat them").tap()
    expect(page.locator("button.puller")).to_have_text(on_screen(f"{name} pulls" for name in NAMES),
                                                       use_inner_text=True)
    page.get_by_role("button", name="Ann pulls").tap()
    expect(page.locator("#spin-outcome")).to_have_text("Bob (on your left) performs a rule card.")
    expect(page.locator("#spin-result .then")).to_have_text("Then Bob plays.")


def test_a_pull_without_javascript(page: Page, page_without_js: Page) -> None:
    game = start_jackpot_game(page)
    no_js = page_without_js
    same_browser(page, no_js)
    no_js.goto(game)
    no_js.locator("#jackpot").get_by_role("button", name="Cy pulls").click()
    expect(no_js).to_have_url(re.compile(rf"{game}/jackpot/spins/\d+\?new=1$"))
    expect(no_js.locator("#spin-outcome")).to_have_text("Ann (on your left) performs a rule card.")
    expect(no_js.locator(".then")).to_have_text("Then Ann plays.")


def spinner_pages(page: Page, check: Check) -> None:
    """The spinner for any table: empty, with the players seated, and a result."""
    page.goto("/jackpot")
    check("spinner")
    page.get_by_label(re.compile("^Players")).fill("Ann, Bob, Cy")
    page.get_by_role("button", name="Seat them").tap()
    expect(page.locator("button.puller")).to_have_count(3)
    check("spinner, seated")
    page.get_by_role("button", name="Ann pulls").tap()
    expect(page.locator("#spin-outcome")).to_be_visible()
    check("spinner, a result")


def rule_card_pages(page: Page, check: Check) -> None:
    """The rule cards: who writes how many, a player writing, the phone passed on."""
    start_jackpot_game(page)
    page.locator("#lever-links").get_by_role("link", name="Rule cards", exact=True).tap()
    expect(page.locator("#writers")).to_be_visible()
    check("rule cards")
    page.get_by_role("link", name="Write Ann's cards").tap()
    page.locator(".rule-text").first.fill(CARDS["Ann"][0])
    page.get_by_text("Short of ideas?").tap()
    expect(page.locator(".suggestions")).to_have_attribute("open", "")
    check("writing rule cards")
    page.get_by_role("button", name="Save and pass the phone on").tap()
    expect(page.locator("#saved")).to_be_visible()
    check("rule cards, saved")


def lever_pages(page: Page, check: Check) -> None:
    """The lever, a result, a dealt card, and the history with its chart."""
    game = start_jackpot_game(page)
    write_rule_cards(page, game)
    page.goto(f"{game}/jackpot")
    check("lever")
    page.locator("#lever-form").get_by_role("button", name="Ann pulls").tap()
    expect(page.locator("#reveal-first")).to_be_visible()
    check("lever, a result")
    page.locator("#reveal-first").tap()
    expect(page.locator("#rule-card")).to_be_visible()
    check("a rule card")
    page.goto(f"{game}/jackpot/history")
    expect(page.locator(".chart-bar")).to_have_count(6)
    check("history")
    page.goto(f"{game}/for-you")  # the address each page polls for its banner, as a page
    expect(page.get_by_role("heading", level=1)).to_have_text("For this phone")
    check("for this phone")


def first_card_pages(page: Page, check: Check) -> None:
    """A Jackpot turned up first: the form, the choice, and a choice with no card written."""
    start_jackpot_game(page)
    page.locator("#lever-links").get_by_role("link", name="First card, and more").tap()
    page.get_by_text("A Jackpot turned up as the first card?").tap()
    expect(page.locator("#first-card")).to_have_attribute("open", "")
    check("lever, first card")
    page.get_by_role("button", name="A Jackpot was turned up").tap()
    expect(page.locator(".choose-form")).to_be_visible()
    check("choose who performs")
    page.locator(".choose-form").get_by_role("button", name="Ann", exact=True).tap()
    expect(page.locator("#spin-result .notice")).to_be_visible()
    check("chosen, no card written")


@pytest.mark.parametrize("walk", [spinner_pages, rule_card_pages, lever_pages, first_card_pages],
                         ids=lambda walk: walk.__name__)
def test_the_jackpot_pages_fit_a_phone_and_pass_axe(page: Page,
                                                    walk: Callable[[Page, Check], None]) -> None:
    # Each page checked light and dark on one walk. Reduced motion: axe reads the result's
    # colors with no fade under way.
    page.emulate_media(reduced_motion="reduce")
    found: list[str] = []

    def check(name: str) -> None:
        assert_fits_phone(page)
        for scheme in ("light", "dark"):
            page.emulate_media(reduced_motion="reduce", color_scheme=scheme)
            found.extend(f"{name} ({scheme}): {line}" for line in violations(page))

    walk(page, check)
    assert not found, "\n".join(found)
