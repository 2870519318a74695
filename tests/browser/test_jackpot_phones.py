"""The Wild Jackpot with a player on their own phone (two phones, 360x640, touch): Bob
opens the viewer's link the scorekeeper's share page shows, says which player he is,
and writes his rule cards there; the scorekeeper's phone never shows them, and when the
lever deals one to Bob, only Bob's phone shows it until he has seen it."""

from __future__ import annotations

import random
from typing import Any
from urllib.parse import urlparse

import pytest
from browser_steps import assert_fits_phone, start_game, violations, wait_for_page
from playwright.sync_api import Page, expect

from engine import LeverOutcome
from engine.jackpot import LEVER_OUTCOMES

NAMES = ["Ann", "Bob", "Cy"]
BOBS = ["Bark like a dog until your next turn.", "Stand up while you play."]


class Left(random.Random):
    """Every pull stops on "the player on your left" (shuffles still vary, seeded)."""

    def __init__(self) -> None:
        super().__init__(7)

    def randrange(self, *args: Any, **kwargs: Any) -> int:  # the lever's spin draws this
        return LEVER_OUTCOMES.index(LeverOutcome.LEFT)


@pytest.fixture()
def app_config() -> dict[str, Any]:
    return {"JACKPOT_RANDOM": Left()}


def shows_none(page: Page, texts: list[str]) -> None:
    """Neither the page's words nor its HTML hold any of ``texts``."""
    page.wait_for_load_state()
    html = page.content()
    assert not [t for t in texts if t in html], page.url


def checked(page: Page, found: list[str], name: str) -> None:
    assert_fits_phone(page)
    found.extend(f"{name}: {line}" for line in violations(page))


def test_a_player_writes_and_sees_their_own_cards_on_their_own_phone(page: Page,
                                                                     other_phone: Page) -> None:
    page.emulate_media(reduced_motion="reduce")
    bob = other_phone
    bob.emulate_media(reduced_motion="reduce")
    found: list[str] = []
    start_game(page, "wild-jackpot", NAMES)
    game = urlparse(page.url).path

    # The scorekeeper's share page gives the viewer's link; Bob's phone opens it.
    page.goto(f"{game}/share")
    link = page.locator("#link-viewer").input_value()
    bob.goto(link)
    wait_for_page(bob, bob.get_by_role("heading", name="Which player are you?"))
    checked(bob, found, "which player")
    bob.get_by_role("button", name="Bob", exact=True).tap()
    wait_for_page(bob, bob.locator("#standings"))
    # The scorekeeper's phone (passed round: Bob's cards showed there) says yes, in place.
    page.get_by_role("button", name="Yes, Bob's").tap()
    expect(page.locator("#seat-ask-1")).to_have_count(0)
    expect(page.locator("#share-viewer")).to_be_visible()
    bob.get_by_role("link", name="My rule cards").tap()
    wait_for_page(bob, bob.get_by_role("heading", name="Bob's rule cards"))
    for box, text in zip(bob.locator(".rule-text").all(), BOBS, strict=True):
        box.fill(text)
    checked(bob, found, "writing on Bob's phone")
    bob.get_by_role("button", name="Save my cards").tap()
    wait_for_page(bob, bob.locator("#saved"))
    expect(bob.locator("#saved")).to_have_text("Bob's cards are saved.")

    # The scorekeeper's phone: Bob's share counted, his cards nowhere.
    page.goto(f"{game}/share")
    expect(page.locator("#own-phones")).to_contain_text("Bob's own phone")
    checked(page, found, "share, a seat on its own phone")
    page.goto(f"{game}/jackpot/cards")
    expect(page.locator("#writers tbody td.num")).to_have_text(["0 of 2", "2 of 2", "0 of 2"])
    expect(page.get_by_role("link", name="Free Bob's seat…")).to_be_visible()
    checked(page, found, "rule cards, a seat on its own phone")
    shows_none(page, BOBS)
    page.goto(f"{game}/jackpot/cards/1")
    expect(page.locator("#hidden-cards")).to_contain_text("2 written on Bob's phone: hidden here")
    expect(page.locator(".rule-text")).to_have_count(0)
    checked(page, found, "Bob's cards on the scorekeeper's phone")
    shows_none(page, BOBS)

    # The lever deals Bob a card: the scorekeeper's phone says where it is.
    page.goto(game)
    page.locator("#jackpot").get_by_role("button", name="Ann pulls").tap()
    expect(page.locator("#spin-outcome")).to_have_text("Bob (on your left) performs a rule card.")
    expect(page.locator("#dealt-elsewhere")).to_have_text("Bob: your rule card is on your phone.")
    expect(page.locator("#reveal-first")).to_have_count(0)
    checked(page, found, "a result, the card on Bob's phone")
    shows_none(page, BOBS)
    page.goto(f"{game}/jackpot/history")
    expect(page.locator(".dealt")).to_have_text("Dealt to Bob (not yet revealed)")
    shows_none(page, BOBS)

    # Only Bob's phone shows it.
    bob.goto(f"{game}/jackpot/history")
    checked(bob, found, "the history on Bob's phone, his card not yet seen")
    bob.get_by_role("link", name="Bob: show my rule card").tap()
    wait_for_page(bob, bob.locator("#rule-card"))
    expect(bob.get_by_role("heading", level=1)).to_have_text("Bob, your rule card")
    shown = bob.locator("#rule-card").inner_text()
    assert shown in BOBS
    checked(bob, found, "Bob's rule card on his phone")

    # Seen and performed aloud: now the history says what it was, the other card stays hidden.
    page.reload()
    expect(page.locator(".dealt")).to_have_text(f"Bob: “{shown}”")
    shows_none(page, [t for t in BOBS if t != shown])
    assert not found, "\n".join(found)
