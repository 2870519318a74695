"""Two phones (360x640, touch) on one game, and Back on the lever: nothing lost, no replay.

The second phone joins by the scorekeeper's link read off the first phone's share page.
Two phones recording hand 1 at once end with both hands recorded, the second having
chosen to keep its hand as hand 2; pulling the lever, going Back and pulling again for
the next player records every pull (Back fetches the page afresh, never a kept copy
holding a spent one-time key).
"""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing
from typing import Any
from urllib.parse import urlsplit

from browser_steps import (
    assert_fits_phone,
    join,
    start_game,
    violations,
    wait_for_htmx,
    wait_for_page,
)
from flask import Flask
from playwright.sync_api import Page, expect


def _query(live_app: Flask, sql: str) -> list[tuple[Any, ...]]:
    with closing(sqlite3.connect(live_app.config["DATABASE"])) as db:
        return db.execute(sql).fetchall()


def type_totals(page: Page, totals: dict[str, str]) -> None:
    """Type each opponent's total; the live points keep the entry (a draft) as it goes."""
    for name, points in totals.items():
        with page.expect_response(lambda r: r.url.endswith("/hands/preview")):
            page.get_by_label(re.compile(rf"or type {name}'s total")).fill(points)


def test_two_phones_recording_hand_1_at_once_keep_both_hands(
        page: Page, other_phone: Page, live_app: Flask) -> None:
    bob = other_phone
    start_game(page, "classic", ["Ann", "Bob", "Cy"])
    game = urlsplit(page.url).path
    join(bob, page, game, "keeper")
    page.goto(game)
    page.get_by_role("link", name="Record hand 1").click()
    page.get_by_role("button", name="Ann", exact=True).click()
    wait_for_page(page, page.get_by_role("heading", name="Hand 1: Ann went out"))
    type_totals(page, {"Bob": "5", "Cy": "6"})

    # Bob's phone starts its own entry, told that another phone is at it.
    bob.get_by_role("link", name="Record hand 1").click()
    wait_for_page(bob, bob.get_by_role("heading", name="Hand 1: who went out?"))
    expect(bob.locator("#entering")).to_contain_text("Another phone is entering hand 1")
    bob.get_by_role("button", name="Bob", exact=True).click()
    wait_for_page(bob, bob.get_by_role("heading", name="Hand 1: Bob went out"))
    expect(bob.get_by_label(re.compile("or type Cy's total"))).to_have_value("")
    type_totals(bob, {"Ann": "7", "Cy": "8"})
    bob.get_by_role("button", name="Review hand").click()
    wait_for_page(bob, bob.get_by_role("heading", name="Review hand 1"))

    page.get_by_role("button", name="Review hand").click()
    wait_for_page(page, page.get_by_role("heading", name="Review hand 1"))
    page.get_by_role("button", name="Save hand").click()
    wait_for_page(page, page.get_by_text("1 hand played"))

    # Bob saves second: shown both hands, he keeps his as hand 2.
    bob.get_by_role("button", name="Save hand").click()
    wait_for_page(bob, bob.get_by_role("heading", name="Another phone saved hand 1 first"))
    expect(bob.locator("#theirs")).to_contain_text("Ann went out")
    expect(bob.locator("#mine")).to_contain_text("Bob went out")
    assert violations(bob) == []
    assert_fits_phone(bob)
    bob.get_by_role("button", name="Keep mine as hand 2").click()
    wait_for_page(bob, bob.get_by_text("2 hands played"))
    assert _query(live_app, "select went_out from hands where deleted_at is null "
                            "order by id") == [(0,), (1,)]


def test_pull_back_and_pull_for_the_next_player_records_every_pull(
        page: Page, live_app: Flask) -> None:
    start_game(page, "wild-jackpot", ["Ann", "Bob", "Cy"])
    game = urlsplit(page.url).path
    page.goto(f"{game}/jackpot")
    pulls = 0
    for _ in range(5):
        for name in ("Ann", "Bob"):
            page.get_by_role("button", name=f"{name} pulls").click()
            pulls += 1
            page.wait_for_url(re.compile(rf"/jackpot/spins/{pulls}$"))
            expect(page.locator("#spin-result")).to_contain_text(f"{name} pulled the lever")
            if name == "Ann":
                # Back: the page comes from the server again, with a key of its own.
                page.evaluate("window.beforeBack = true")
                page.go_back()
                page.wait_for_function("() => !window.beforeBack")
                wait_for_htmx(page)
    assert _query(live_app, "select count(*) from spins") == [(10,)]
    assert [p for (p,) in _query(live_app, "select puller from spins order by id")] == [0, 1] * 5
