"""Each referee check on a phone (360x640, touch): the situation entered by tapping, as a
person at the table would, then the one-line answer read, with a step or a source.

Each situation is one where the answer is worth asking for: a rule that differs by
variant, a card that changes who plays, a penalty that depends on timing. The expected
sentences are the referee's own, checked against the rule sheets and RULINGS.md.
"""

from __future__ import annotations

import re

from browser_steps import card_cell, seat, start_game
from playwright.sync_api import Page, expect


def open_check(page: Page, title: str) -> None:
    """From a game's scoreboard, the referee's list, then one of its checks."""
    page.get_by_role("link", name="Settle a dispute").tap()
    page.get_by_role("link", name=re.compile(f"^{re.escape(title)}")).tap()
    expect(page.get_by_role("heading", name=title)).to_be_visible()


def open_special(page: Page, title: str) -> None:
    """From the referee's list, the special cards' page, then one of its checks."""
    page.get_by_role("link", name=re.compile("^Special cards")).tap()
    page.get_by_role("link", name=re.compile(f"^{re.escape(title)}")).tap()
    expect(page.get_by_role("heading", name=title)).to_be_visible()


def tap_cards(page: Page, field: str, cards: list[str]) -> None:
    """Tap each card on one question's card picker, and see them all taken."""
    for card in cards:
        card_cell(page, field, card).tap()
    expect(page.locator(f"#{field}")).to_have_value(" ".join(cards))


def more_about_the_situation(page: Page) -> None:
    """Open the optional details (the form keeps them folded away)."""
    page.get_by_text("More about the situation").tap()


def decide(page: Page, outcome: str) -> None:
    """Ask the referee, and read its one-line answer where the phone shows it."""
    page.get_by_role("button", name="Decide").tap()
    expect(page.locator("#outcome")).to_have_text(outcome)
    expect(page.locator("#outcome")).to_be_in_viewport()


def expect_step(page: Page, text: str) -> None:
    """One of the answer's steps says ``text``."""
    expect(page.locator("#answer ol.steps li").filter(has_text=text)).to_have_count(1)


def expect_source(page: Page, name: str, href: str) -> None:
    """The answer cites ``name``, linked to where the rules explain it (a ruling's code
    beside its name: "Wild Draw 4 (R35)")."""
    shown = re.compile(rf"^(.+ \()?{re.escape(name)}\)?$")
    expect(page.locator("#answer ul.sources").get_by_role("link", name=shown)
           ).to_have_attribute("href", href)


def test_can_i_play_a_wild_draw_4_holding_another_wild_in_star_wars(page: Page) -> None:
    # R35: in star-wars a Wild held counts as a match, so the Wild Draw 4 is a bluff
    # (in classic the same hand would make it legal, R10).
    start_game(page, "star-wars", ["Ann", "Bea", "Cy"])
    open_check(page, "Can I play this?")
    card_cell(page, "top", "red-5").tap()
    card_cell(page, "card", "wild-draw4").tap()
    seat(page, "player", "Bea").tap()
    more_about_the_situation(page)
    tap_cards(page, "hand", ["wild-draw4", "wild", "blue-7"])
    decide(page, "Yes, Bea can play Wild Draw 4, but it is a bluff: they held a card of "
                 "the color in play or another wild, so a challenge would make them draw 4")
    expect_step(page, "The challenge succeeds: Bea held a card of the color in play or "
                      "another wild")
    expect_source(page, "R35", "/rules/star-wars#wild-draw-4")


def test_first_card_a_reverse_after_a_wild_draw_4_went_back(page: Page) -> None:
    # R8: a Wild Draw 4 turned up goes back; R9: a Reverse then starts with the dealer's
    # right (Dan, as Ann deals the first hand), counter-clockwise.
    start_game(page, "classic", ["Ann", "Bea", "Cy", "Dan"])
    open_check(page, "First card")
    expect(seat(page, "dealer", "Ann").locator("input")).to_be_checked()  # the game's dealer
    tap_cards(page, "cards", ["wild-draw4", "red-reverse"])
    decide(page, "Red Reverse turned up first: Dan plays first, going counter-clockwise")
    expect_step(page, "Wild Draw 4 turned up first goes back into the deck and another card "
                      "is turned")
    expect_step(page, "Dan plays first, counter-clockwise")
    expect_source(page, "R9", "/rules/classic#first-card")


def test_whos_next_after_a_skip_with_two_players(page: Page) -> None:
    # R13: with two players a Skip gives the same player another turn.
    start_game(page, "classic", ["Ann", "Bea"])
    open_check(page, "Who's next?")
    seat(page, "turn", "Ann").tap()
    card_cell(page, "card", "red-skip").tap()
    decide(page, "Ann plays again: Bea misses a turn")
    expect_step(page, "Ann plays again")
    expect_source(page, "R13", "/rules/classic#two-players")


def test_uno_a_skipped_player_can_still_catch(page: Page) -> None:
    # R6: a player down to one card can be caught until the next player begins a turn;
    # after a Skip that is the player after the skipped one. Classic's penalty is 4.
    start_game(page, "classic", ["Ann", "Bea", "Cy", "Dan"])
    open_check(page, "UNO!")
    seat(page, "player", "Bea").tap()
    more_about_the_situation(page)
    card_cell(page, "card", "red-skip").tap()
    decide(page, "Yes: Ann, Cy or Dan can catch Bea until Dan begins their turn "
                 "(plays or draws); a caught Bea draws 4")
    expect_source(page, "R6", "/rules/classic#uno")

    seat(page, "catcher", "Cy").tap()
    decide(page, "Yes: Cy misses a turn, Cy catches Bea, Bea draws 4, then Dan plays")
    expect_step(page, "Bea draws 4 cards: the penalty for not calling UNO")


def test_end_of_hand_on_a_draw_two(page: Page) -> None:
    # R5: the next player draws for a last Draw Two, and those cards count.
    start_game(page, "classic", ["Ann", "Bea", "Cy"])
    open_check(page, "End of hand")
    seat(page, "went_out", "Ann").tap()
    card_cell(page, "last_card", "red-draw2").tap()
    tap_cards(page, "hands-1", ["blue-7", "wild"])
    tap_cards(page, "hands-2", ["green-skip"])
    decide(page, "Ann goes out, Bea draws 2, the hand is over: count the 2 cards Bea drew "
                 "(so far: Bea 57, Cy 20)")
    expect_step(page, "Bea draws 2 cards")

    # The two cards Bea drew, tapped: now the points are whole (7 + 50 + 9 + 1, and 20).
    more_about_the_situation(page)
    tap_cards(page, "drawn", ["yellow-9", "red-1"])
    decide(page, "Ann goes out, Bea draws 2, the hand is over: Ann scores 87 (Bea 67, Cy 20)")
    expect_source(page, "R5", "/rules/classic#going-out")


def test_special_build_a_droid_its_player_runs_out_of_parts(page: Page) -> None:
    # R36: Bea must lay green 2 (blue 4 is the same color as Ann's blue 1); Ann, whose
    # only card is laid, is the first who cannot lay, and draws 3; then Bea plays.
    page.goto("/referee?variant=star-wars&seats=Ann,Bea,Cy")
    open_special(page, "Build a Droid")
    seat(page, "player", "Ann").tap()
    page.locator("#field-named label.red").tap()
    tap_cards(page, "hands-0", ["blue-1"])
    tap_cards(page, "hands-1", ["green-2", "blue-4"])
    tap_cards(page, "hands-2", ["blue-3"])
    decide(page, "Ann cannot lay a card of a different color, Ann draws 3, every card laid "
                 "goes back to its owner, then Bea plays")
    expect_step(page, "Bea lays green 2 for the droid")
    expect_step(page, "Ann draws 3 cards")
    expect_source(page, "R36", "/rules/star-wars#wild-droid")


def test_special_wild_dip_gives_to_the_next_player_counter_clockwise(page: Page) -> None:
    # R24: the card goes to the next player in the direction of play, who still plays.
    start_game(page, "pizza-pizza", ["Ann", "Bea", "Cy"])
    page.get_by_role("link", name="Settle a dispute").tap()
    open_special(page, "Wild Dip")
    seat(page, "player", "Ann").tap()
    page.locator("#field-named label.green").tap()
    card_cell(page, "drawn", "blue-9").tap()
    card_cell(page, "give", "blue-9").tap()
    more_about_the_situation(page)
    page.locator("#field-direction label.tap").filter(has_text="Counter-clockwise").tap()
    decide(page, "Ann draws 1, Ann gives blue 9 to Cy, then Cy plays")
    expect_step(page, "Ann gives a card to Cy")
    expect_source(page, "R24", "/rules/pizza-pizza#wild-dip")


def test_special_seven_zero_as_a_house_rule(page: Page) -> None:
    # A 0 under the 7-0 house rule passes every hand on; the table ticks the rule first.
    page.goto("/referee?variant=classic&seats=Ann,Bea,Cy")
    page.get_by_text("(change)").tap()
    page.get_by_label("7-0 (a 7 swaps hands, a 0 passes them on)").tap()
    page.get_by_role("button", name="Use this table").tap()
    expect(page).to_have_url(re.compile(r"[?&]house=seven_o\b"))  # the new table's page
    open_special(page, "7-0")
    seat(page, "player", "Ann").tap()
    card_cell(page, "card", "red-0").tap()
    decide(page, "Every hand moves one seat clockwise, then Bea plays")
    expect_step(page, "Every hand passes to the next player clockwise")
