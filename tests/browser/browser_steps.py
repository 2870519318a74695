"""Steps a person takes at the table, shared by the browser tests."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect


class Taps:
    """Taps on the screen, counted (scrolling is not a tap)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, target: Locator) -> None:
        target.tap()
        self.count += 1


def seat(page: Page, field: str, name: str) -> Locator:
    """A seat's button in one of the referee form's questions."""
    return page.locator(f"#field-{field} label.tap").filter(has_text=re.compile(f"^{name}$"))


def card_cell(page: Page, field: str, card: str) -> Locator:
    """A card's cell on the card picker of one of the referee form's questions."""
    return page.locator(f"#field-{field} .cell[data-card='{card}']")


def start_game(page: Page, variant: str, names: list[str], target: str | None = None) -> None:
    """Fill in the new-game form from the home page and start."""
    page.goto("/")
    page.get_by_role("link", name="New game").click()
    page.wait_for_load_state()  # htmx must be listening before the variant changes
    if page.get_by_label("Variant").input_value() != variant:
        # The form refreshes itself for the variant (htmx): wait for the swap to be done
        # before typing, or the new form would replace what was typed meanwhile.
        with page.expect_response(lambda r: "/games/new" in r.url):
            page.get_by_label("Variant").select_option(variant)
        expect(page.locator("input[name=shown_variant]")).to_have_value(variant)
        page.wait_for_load_state("networkidle")
    for i, name in enumerate(names):
        box = page.get_by_label(f"Player {i + 1}", exact=True)
        if not box.is_visible():
            page.get_by_role("button", name="Add a player").click()
        box.fill(name)
    if target is not None:
        page.locator("input[name=target]").fill(target)
    page.get_by_role("button", name="Start game").click()
    expect(page.locator("#standings")).to_be_visible()


def tap_cards(page: Page, seat: int, cards: dict[str, int]) -> None:
    """Tap each card on the picker as many times as the opponent holds it."""
    for text, n in cards.items():
        cell = page.locator(f"#seat-{seat} .cell[data-card='{text}']")
        for _ in range(n):
            cell.tap()


def record_hand(page: Page, went_out: str, cards: dict[int, dict[str, int]],
                expect_points: dict[int, str]) -> None:
    """Record a hand by tapping cards, checking the live running points, then review and save."""
    page.get_by_role("link", name=re.compile(r"Record hand")).click()
    page.get_by_role("button", name=went_out, exact=True).click()
    for seat, held in cards.items():
        tap_cards(page, seat, held)
    for seat, points in expect_points.items():
        expect(page.locator(f"#pts-{seat}")).to_have_text(points)
    page.get_by_role("button", name="Review hand").click()
    expect(page.get_by_role("heading", name=re.compile("Review hand"))).to_be_visible()
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#standings")).to_be_visible()


def totals(page: Page) -> list[str]:
    """The scoreboard's totals, in seat order (the rows themselves are ranked)."""
    rows = page.locator("#standings tbody tr")
    by_seat = {int(rows.nth(i).get_attribute("data-seat") or 0):
               rows.nth(i).locator("td.total").inner_text() for i in range(rows.count())}
    return [by_seat[seat] for seat in sorted(by_seat)]
