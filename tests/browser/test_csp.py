"""The Content-Security-Policy on a real phone-sized Chromium: every page of a table's evening
loads with it, nothing on them is refused, and htmx still works under it."""

from __future__ import annotations

import re

from browser_steps import start_game, tap_cards, totals, wait_for_htmx
from playwright.sync_api import Page, expect

#: Reports every refusal to the test: the event fires on the document as it is refused.
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.reportViolation(`${event.violatedDirective} refused ${event.blockedURI || "inline"}`);
}, true);
"""


def test_a_table_evening_breaks_no_rule_of_the_policy(page: Page) -> None:
    refused: list[str] = []
    policies: dict[str, str | None] = {}
    page.on("console", lambda message: refused.append(message.text)
            if "Content Security Policy" in message.text else None)
    page.expose_function("reportViolation", lambda text: refused.append(text))
    page.add_init_script(REPORT_VIOLATIONS)
    page.on("response", lambda response: policies.__setitem__(
        response.url, response.headers.get("content-security-policy"))
        if response.request.resource_type == "document" else None)

    page.goto("/")
    page.get_by_role("link", name="New game").click()
    page.wait_for_url("**/games/new")
    wait_for_htmx(page)  # htmx listens before the variant changes
    # htmx swaps in another variant's settings (hx-get)...
    with page.expect_response(lambda r: "/games/new" in r.url):
        page.get_by_label("Variant").select_option("pizza-pizza")
    expect(page.locator("input[name=shown_variant]")).to_have_value("pizza-pizza")

    start_game(page, "classic", ["Ann", "Bob", "Cy"])
    page.get_by_role("link", name=re.compile("Record hand")).click()
    page.get_by_role("button", name="Ann", exact=True).click()
    # ...and posts each tap for the running points (hx-post, out-of-band swaps).
    tap_cards(page, 1, {"red-7": 2, "blue-skip": 1})
    tap_cards(page, 2, {"wild": 1})
    expect(page.locator("#pts-1")).to_have_text("34")
    expect(page.locator("#pts-2")).to_have_text("50")
    # No style but the stylesheet a phone's first page carries (htmx added none of its own).
    assert page.evaluate("[document.querySelectorAll('style').length, "
                         "document.querySelectorAll('[style]').length]") == [
        page.locator("script[data-keep]").count(), 0]

    page.get_by_role("button", name="Review hand").click()
    expect(page.get_by_role("heading", name=re.compile("Review hand"))).to_be_visible()
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#standings")).to_be_visible()
    assert totals(page) == ["84", "0", "0"]
    page.get_by_role("link", name="History", exact=True).click()
    expect(page.get_by_role("heading", name="Hands")).to_be_visible()

    assert refused == []
    assert len(policies) >= 7
    assert all(policy and "script-src 'self'" in policy and "style-src 'self'" in policy
               for policy in policies.values()), policies
