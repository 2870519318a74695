"""Scratch exploration (will be replaced)."""

from __future__ import annotations

import re

from browser_steps import record_hand, start_game
from playwright.sync_api import Page, expect


def test_explore_back(page: Page) -> None:
    start_game(page, "classic", ["Ann", "Bob", "Cy"])
    record_hand(page, "Ann", {1: {"red-7": 1}, 2: {"wild": 1}}, {1: "7", 2: "50"})
    print("after save", page.url)
    try:
        r = page.go_back()
        print("go_back ->", r and r.status, page.url)
    except Exception as exc:
        print("go_back raised", exc)
    page.wait_for_load_state()
    print(page.url, page.locator("body").inner_text()[:300])
    try:
        r = page.reload()
        print("reload ->", r and r.status, r and r.request.method, page.url)
    except Exception as exc:
        print("reload raised", exc)
    print(page.locator("body").inner_text()[:500])


def test_explore_dbl(page: Page) -> None:
    posts = []
    page.on("request", lambda r: posts.append((r.method, r.url)) if r.method == "POST" else None)
    start_game(page, "classic", ["Ann", "Bob", "Cy"])
    page.get_by_role("link", name=re.compile(r"Record hand")).click()
    page.get_by_role("button", name="Ann", exact=True).click()
    page.get_by_label(re.compile("type Bob's total")).fill("5")
    page.get_by_label(re.compile("type Cy's total")).fill("6")
    page.get_by_role("button", name="Review hand").click()
    expect(page.get_by_role("heading", name=re.compile("Review hand"))).to_be_visible()
    posts.clear()
    page.get_by_role("button", name="Save hand").dblclick()
    expect(page.locator("#standings")).to_be_visible()
    print(posts)
    print(page.locator("body").inner_text()[:500])
