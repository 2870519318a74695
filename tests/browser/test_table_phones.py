"""A Wild Jackpot table with its own phones (issue 26), at 360x640, touch: Ana's phone starts
the game and is passed round, Cleo says on her phone who she is and Ana's phone says yes,
Ben keeps the score on his own phone. A card the lever deals reaches its phone on any page
of the game (a banner, one tap to read it, a vibration); Ben's phone reads nobody's card;
the lever's buttons keep long names whole; a rematch keeps Cleo's phone hers."""

from __future__ import annotations

import random
import re
from typing import Any
from urllib.parse import urlparse

import pytest
from browser_steps import assert_fits_phone, join, start_game, violations, wait_for_page
from playwright.sync_api import Page, expect
from test_second_look import BROKEN_WORDS

from engine import LeverOutcome
from engine.jackpot import LEVER_OUTCOMES

NAMES = ["Ana", "Ben", "Cleo", "Dev"]
CLEOS = ["Talk like a robot.", "Clap before you play."]

#: navigator.vibrate, counted (headless Chromium has no motor to ask).
COUNT_VIBRATIONS = """window.vibrations = [];
navigator.vibrate = (pattern) => { window.vibrations.push(pattern); return true; };"""


class Left(random.Random):
    """Every pull stops on "the player on your left" (shuffles still vary, seeded)."""

    def __init__(self) -> None:
        super().__init__(3)

    def randrange(self, *args: Any, **kwargs: Any) -> int:
        return LEVER_OUTCOMES.index(LeverOutcome.LEFT)


@pytest.fixture()
def app_config() -> dict[str, Any]:
    return {"JACKPOT_RANDOM": Left()}


def axe_both_ways(page: Page, found: list[str], name: str) -> None:
    """axe on the page as it is, light and dark, and no sideways scroll or small target."""
    assert_fits_phone(page)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        found.extend(f"{name}, {scheme}: {line}" for line in violations(page))
    page.emulate_media(color_scheme="light")


def take_seat(player: Page, keeper: Page, name: str) -> None:
    """``player`` taps its name; the phone passed round (``keeper``) says yes where it is."""
    player.get_by_role("button", name=name, exact=True).tap()
    expect(player.locator("#asking")).to_contain_text(f"this phone is {name}'s")
    keeper.get_by_role("button", name=f"Yes, {name}'s").tap()
    expect(keeper.locator("#for-you .seat-ask")).to_have_count(0)


def test_a_dealt_card_reaches_its_players_phone_on_any_page(page: Page, other_phone: Page,
                                                             third_phone: Page) -> None:
    ana, cleo, ben = page, other_phone, third_phone
    for phone in (ana, cleo, ben):
        phone.emulate_media(reduced_motion="reduce")
    cleo.add_init_script(COUNT_VIBRATIONS)
    found: list[str] = []
    start_game(ana, "wild-jackpot", NAMES)
    game = urlparse(ana.url).path

    # Cleo says who she is; Ana's phone, busy on the rule cards page, says yes there.
    join(cleo, ana, game)
    join(ben, ana, game, role="keeper")
    ana.goto(f"{game}/jackpot/cards")
    cleo.get_by_role("button", name="Cleo", exact=True).tap()
    wait_for_page(cleo, cleo.locator("#asking"))
    axe_both_ways(cleo, found, "Cleo's phone, asking")
    expect(ana.locator("#seat-ask-2")).to_contain_text("Another phone says it is Cleo's own")
    axe_both_ways(ana, found, "the phone passed round, asked")
    ana.get_by_role("button", name="Yes, Cleo's").tap()
    expect(ana.locator("#seat-ask-2")).to_have_count(0)
    expect(ana.get_by_role("heading", name="The rule cards")).to_be_visible()  # still there

    # Cleo's phone, on the scoreboard: who she is, her row, her cards in the first screen.
    expect(cleo.locator("#you-are")).to_contain_text("You are Cleo.")
    expect(cleo.locator("#standings tr.mine")).to_contain_text("Cleo")
    expect(cleo.locator("#standings tr.mine .badge.you")).to_have_text("you")
    mine = cleo.get_by_role("link", name="My rule cards", exact=True)
    assert mine.bounding_box()["y"] + mine.bounding_box()["height"] <= 640
    mine.tap()
    wait_for_page(cleo, cleo.get_by_role("heading", name="Cleo's rule cards"))
    for box, text in zip(cleo.locator(".rule-text").all(), CLEOS, strict=True):
        box.fill(text)
    cleo.get_by_role("button", name="Save my cards").tap()
    wait_for_page(cleo, cleo.locator("#saved"))

    # Cleo's phone sits on the scoreboard. A change that is not hers (Ana writes her cards)
    # leaves what is hers alone: a screen reader does not hear "You are Cleo" again.
    cleo.goto(game)
    wait_for_page(cleo, cleo.locator("#you-are"))
    cleo.evaluate("document.getElementById('you-are').seen = true")  # on this element only
    with cleo.expect_response(lambda r: "/for-you" in r.url and r.status == 200):
        ana.goto(f"{game}/jackpot/cards/0")
        for k, box in enumerate(ana.locator(".rule-text").all()):
            box.fill(f"Ana's rule {k + 1}.")
        ana.get_by_role("button", name="Save and pass the phone on").tap()
        wait_for_page(ana, ana.locator("#saved"))
    cleo.wait_for_timeout(100)  # the poll's answer handled
    assert cleo.evaluate("document.getElementById('you-are').seen === true")
    expect(cleo.locator("#dealt-banner")).to_have_count(0)

    # Ben's phone pulls: the lever deals Cleo a card.
    ben.goto(game)
    ben.locator("#jackpot").get_by_role("button", name="Ben pulls").tap()
    expect(ben.locator("#spin-outcome")).to_have_text("Cleo (on your left) performs a rule card.")
    banner = cleo.locator("#dealt-banner")
    expect(banner).to_contain_text("Cleo, the lever dealt you a rule card.")
    assert cleo.evaluate("window.vibrations.length") == 1
    cleo.goto(f"{game}/hands")  # another page: the banner too, the phone buzzed once only
    expect(cleo.locator("#dealt-banner")).to_contain_text("Cleo, the lever dealt you a rule card.")
    assert cleo.evaluate("window.vibrations.length") == 0
    axe_both_ways(cleo, found, "Cleo's phone, a card dealt")
    cleo.get_by_role("link", name="Read my rule card").tap()
    wait_for_page(cleo, cleo.get_by_role("heading", name="Cleo, your rule card"))
    dealt = cleo.locator("#rule-card").inner_text()
    cleo.goto(game)
    expect(cleo.locator("#you-are")).to_be_visible()
    expect(cleo.locator("#dealt-banner")).to_have_count(0)

    # Dev pulls on Ben's phone: Ana's card (no phone of her own) waits on Ana's phone, the
    # one passed round; Ben's phone, a second scorekeeper's, shows no card, only where.
    ben.goto(game)
    ben.locator("#jackpot").get_by_role("button", name="Dev pulls").tap()
    expect(ben.locator("#dealt-elsewhere")).to_have_text(
        "Ana: your rule card shows on the phone passed round.")
    expect(ben.locator("#reveal-first")).to_have_count(0)
    axe_both_ways(ben, found, "a second scorekeeper's phone, a card for Ana")
    assert not [t for t in ("Ana's rule 1.", "Ana's rule 2.", *CLEOS) if t != dealt
                and t in ben.content()]
    expect(ana.locator("#dealt-banner")).to_contain_text(
        "The lever dealt Ana a rule card: pass the phone to Ana.")
    ana.get_by_role("link", name="Ana: show my rule card").tap()
    wait_for_page(ana, ana.get_by_role("heading", name="Ana, your rule card"))
    # Ana's phone pulls on the lever page: its answer offers Dev's card; the banner does
    # not say it again.
    ana.goto(f"{game}/jackpot")
    wait_for_page(ana, ana.get_by_role("heading", name="The Wild Jackpot lever"))
    with ana.expect_response(lambda r: "/for-you" in r.url and r.status == 200):
        ana.get_by_role("button", name="Cleo pulls").tap()
        expect(ana.locator("#reveal-first")).to_have_text("Dev: show my rule card")
    ana.wait_for_timeout(100)  # the poll's answer settled
    expect(ana.locator("#dealt-banner")).to_be_hidden()
    ana.goto(f"{game}/jackpot/history")
    expect(ana.locator("#fairness-words")).to_contain_text("times in a hundred.")
    expect(ana.locator("#fairness-words")).not_to_contain_text("chi-square")
    axe_both_ways(ana, found, "the lever's history")
    assert cleo.evaluate("window.vibrations.length") == 0  # Ana's card: not Cleo's phone
    assert not found, "\n".join(found)


def test_long_names_keep_their_words_on_the_lever_buttons(page: Page) -> None:
    long_name = "Maximiliana Alexandrovna Konstantinopolsk"
    assert len(long_name) == 41
    start_game(page, "wild-jackpot", [long_name[:40], "Ben", "Cleo", "Dev"])
    buttons = page.locator("#jackpot .puller")
    expect(buttons.first).to_have_text(re.compile("^Maximiliana"))
    assert_fits_phone(page)
    broken = [w for w in page.evaluate(BROKEN_WORDS) if " pulls" in w or "Maxim" in w]
    assert broken == []


def test_a_rematch_keeps_a_players_phone_and_cards(page: Page, other_phone: Page) -> None:
    ana, cleo = page, other_phone
    start_game(ana, "wild-jackpot", ["Ana", "Cleo"], target="10")
    game = urlparse(ana.url).path
    join(cleo, ana, game)
    take_seat(cleo, ana, "Cleo")
    found: list[str] = []
    cleo.goto(f"{game}/seat")  # a wrong tap can be undone here
    wait_for_page(cleo, cleo.locator("#this-phone"))
    expect(cleo.locator("#this-phone")).to_contain_text("You are Cleo.")
    expect(cleo.get_by_role("button", name="I am not Cleo")).to_be_visible()
    axe_both_ways(cleo, found, "Cleo's seat page")
    ana.goto(f"{game}/seat")
    wait_for_page(ana, ana.get_by_role("button", name="Stop passing this phone round"))
    axe_both_ways(ana, found, "the seat page of the phone passed round")
    assert not found, "\n".join(found)
    cleo.get_by_role("link", name="My rule cards", exact=True).tap()
    wait_for_page(cleo, cleo.get_by_role("heading", name="Cleo's rule cards"))
    boxes = cleo.locator(".rule-text").all()
    for box, text in zip(boxes, CLEOS * len(boxes), strict=False):
        box.fill(text)
    cleo.get_by_role("button", name="Save my cards").tap()
    wait_for_page(cleo, cleo.locator("#saved"))
    cleo.goto(game)
    ana.goto(game)
    ana.get_by_role("link", name=re.compile("Record hand")).click()
    ana.get_by_role("button", name="Ana", exact=True).click()
    ana.locator("input[name='pts-1']").fill("20")
    ana.get_by_role("button", name="Review hand").click()
    ana.get_by_role("button", name="Save hand").click()
    ana.get_by_role("button", name="Rematch, same seats").click()
    expect(ana.locator("#standings")).to_contain_text("0")
    cleo.get_by_role("button", name="The rematch has started: open it").tap()
    wait_for_page(cleo, cleo.locator("#you-are"))
    expect(cleo.locator("#you-are")).to_contain_text("You are Cleo.")
    cleo.get_by_role("link", name="My rule cards", exact=True).tap()
    wait_for_page(cleo, cleo.get_by_role("heading", name="Cleo's rule cards"))
    assert [b.input_value() for b in cleo.locator(".rule-text").all()] == [
        CLEOS[k % 2] for k in range(len(boxes))]
