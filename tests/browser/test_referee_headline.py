"""The referee's headline on a phone (issue 27): an answer that hangs only on a catch says
its answer first, in the first screen, with two cases under it; the steps are plain
sentences, the rules cited once under them; light and dark, axe clean."""

from __future__ import annotations

import pytest
from browser_steps import phone_page, violations
from playwright.sync_api import expect

#: Ana plays a Skip from two cards: whoever catches her, Cleo plays next.
SKIP = ("/referee/next?variant=classic&seats=Ana,+Ben,+Cleo&turn=Ana&card=red-skip"
        "&counts-0_count=2&ask=1#answer")  # as a verdict's link opens it


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_answer_comes_first_and_fits_the_first_screen(browser, base_url, scheme, tmp_path):
    for page in phone_page(browser, base_url, f"the {scheme} page", color_scheme=scheme):
        page.goto(SKIP)
        outcome = page.locator("#outcome")
        expect(outcome).to_have_text("Ben misses a turn, then Cleo plays. (If Ana did not "
                                     "call UNO, whoever catches them first makes them draw 4.)")
        cases = page.locator("#answer ul.cases > li.case")
        expect(cases).to_have_count(2)
        expect(cases.nth(1)).to_contain_text("If anyone catches Ana:")
        # The first screen holds the answer and both cases.
        for part in (outcome, cases.nth(0), cases.nth(1)):
            box = part.bounding_box()
            assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 640, box
        steps = page.locator("#answer .verdict > ol.steps li")
        expect(steps.first).to_have_text("Ana plays red Skip")
        expect(page.locator("#answer ol.steps li").filter(has_text="(R")).to_have_count(0)
        page.screenshot(path=str(tmp_path / f"headline-{scheme}.png"))
        assert violations(page) == []
