"""When the Wi-Fi drops: the companion as an installed app (a manifest, a service worker
controlling its pages), a game opened on the phone going on offline (its last copy, a hand
kept on the phone and sent once when the network is back), the screen kept awake and the
control that lets it sleep, and a share link answered without a redirect."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest
from browser_steps import (
    phone_page,
    share_link,
    start_game,
    tap_cards,
    totals,
    violations,
    wait_for_htmx,
    wait_for_page,
)
from playwright.sync_api import Page, expect
from werkzeug.serving import make_server

from companion import create_app

#: The pages a scorekeeper's phone keeps of a three-player game once its scoreboard has
#: been open: the scoreboard, "who went out", and each of the three card pickers.
KEPT_PAGES = 5
KEPT = """n => caches.open('pages-1').then(c => c.keys()).then(keys => keys.length >= n)"""


class Server:
    """The app on one port, which can be stopped and started again on the same database
    and port (the same origin: the phone's service worker and what it keeps stay)."""

    def __init__(self, database: Path):
        self.database = database
        self.port = 0
        self.start()

    def start(self) -> None:
        app = create_app({"DATABASE": str(self.database), "SECRET_KEY": "browser-tests"})
        self.server = make_server("127.0.0.1", self.port, app, threaded=True)
        self.port = self.server.server_port
        self.thread = threading.Thread(target=self.server.serve_forever,
                                       kwargs={"poll_interval": 0.02}, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "offline.sqlite3")
    yield running
    running.stop()


@pytest.fixture()
def phone(browser, server: Server) -> Iterator[Page]:
    yield from phone_page(browser, f"http://127.0.0.1:{server.port}", "the phone")


@pytest.fixture()
def second_phone(browser, server: Server) -> Iterator[Page]:
    yield from phone_page(browser, f"http://127.0.0.1:{server.port}", "the second phone")


def a_game_kept_on(phone: Page) -> str:
    """Start a game on ``phone`` and wait until its service worker controls the page and
    keeps what recording a hand offline needs; the game's path."""
    start_game(phone, "classic", ["Ann", "Bob", "Cy"])
    game = urlparse(phone.url).path
    phone.wait_for_function("() => navigator.serviceWorker.controller !== null")
    phone.wait_for_function(KEPT, arg=KEPT_PAGES)
    return game


def record_offline(phone: Page) -> None:
    """With no network: "Record hand 1", Ann went out, Bob holds a red 7 and a Wild, Cy a
    blue 2; reviewed and saved on the phone."""
    phone.get_by_role("link", name="Record hand 1").click()
    phone.get_by_role("button", name="Ann", exact=True).click()
    tap_cards(phone, 1, {"red-7": 1, "wild": 1})
    tap_cards(phone, 2, {"blue-2": 1})
    phone.get_by_role("button", name="Review hand").click()
    review = phone.locator("#offline-review")
    expect(review.get_by_role("heading")).to_have_text("Review hand 1 (offline)")
    expect(review).to_contain_text("Bob: red 7, Wild")
    expect(review).to_contain_text("Cy: blue 2")
    review.get_by_role("button", name="Save hand on this phone").click()
    wait_for_page(phone, phone.locator("#waiting"))


def test_a_hand_recorded_offline_is_sent_once_when_the_network_is_back(
        phone: Page, second_phone: Page) -> None:
    game = a_game_kept_on(phone)
    second_phone.goto(share_link(phone, game))
    phone.goto(game)
    wait_for_htmx(phone)
    phone.context.set_offline(True)
    record_offline(phone)
    expect(phone.locator("#waiting")).to_contain_text("Hand 1 (Ann went out)")
    expect(phone.locator("#waiting")).to_contain_text("waiting to be sent")
    expect(phone.locator("#copy")).to_contain_text("as this phone last saw it")
    phone.reload()
    expect(phone.locator("#waiting")).to_contain_text("waiting to be sent")
    phone.context.set_offline(False)
    expect(phone.locator("#waiting")).to_have_count(0)
    expect(phone.locator("#copy")).to_have_count(0)
    expect(phone.locator(".meta")).to_contain_text("1 hand played")
    second_phone.reload()
    expect(second_phone.locator(".meta")).to_contain_text("1 hand played")
    assert totals(second_phone) == ["59", "0", "0"]
