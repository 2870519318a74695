"""When the Wi-Fi drops: the companion as an installed app (a manifest, a service worker
controlling its pages), a game opened on the phone going on offline (its last copy, a hand
kept on the phone and sent once when the network is back), the screen kept awake and the
control that lets it sleep, and a share link answered without a redirect."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest
from browser_steps import (
    phone_page,
    record_hand,
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
#: been open: the scoreboard, its history, "who went out", each of the three card
#: pickers, and the phone's list of games.
KEPT_PAGES = 7
KEPT = "caches.open('pages-1').then(c => c.keys()).then(keys => keys.length)"


class Server:
    """The app on one port, which can be stopped and started again on the same database
    and port (the same origin: the phone's service worker and what it keeps stay)."""

    def __init__(self, database: Path):
        self.database = database
        self.port = 0
        self.start()

    def start(self) -> None:
        self.app = create_app({"DATABASE": str(self.database), "SECRET_KEY": "browser-tests"})
        self.server = make_server("127.0.0.1", self.port, self.app, threaded=True)
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
    yield from phone_page(browser, f"http://127.0.0.1:{server.port}", "the phone",
                          service_workers="allow")


@pytest.fixture()
def second_phone(browser, server: Server) -> Iterator[Page]:
    yield from phone_page(browser, f"http://127.0.0.1:{server.port}", "the second phone",
                          service_workers="allow")


def a_game_kept_on(phone: Page) -> str:
    """Start a game on ``phone`` and wait until its service worker controls the page and
    keeps what recording a hand offline needs; the game's path."""
    start_game(phone, "classic", ["Ann", "Bob", "Cy"])
    keeps_pages(phone)
    return urlparse(phone.url).path


def no_violations(phone: Page) -> None:
    """axe finds nothing on the page as it is, light and dark."""
    for scheme in ("light", "dark"):
        phone.emulate_media(color_scheme=scheme)
        assert violations(phone) == [], scheme
    phone.emulate_media(color_scheme="light")


def record_offline(phone: Page, check: bool = False) -> None:
    """With no network: "Record hand 1", Ann went out, Bob holds a red 7 and a Wild, Cy a
    blue 2; reviewed and saved on the phone (``check``: axe on the review, too)."""
    phone.get_by_role("link", name="Record hand 1").click()
    wait_for_page(phone, phone.get_by_role("heading", name="Hand 1: who went out?"))
    phone.get_by_role("button", name="Ann", exact=True).click()
    wait_for_page(phone, phone.get_by_role("heading", name="Hand 1: Ann went out"))
    tap_cards(phone, 1, {"red-7": 1, "wild": 1})
    tap_cards(phone, 2, {"blue-2": 1})
    phone.get_by_role("button", name="Review hand").click()
    review = phone.locator("#offline-review")
    expect(review.get_by_role("heading")).to_have_text("Review hand 1 (offline)")
    expect(review).to_contain_text("Bob: red 7, Wild")
    expect(review).to_contain_text("Cy: blue 2")
    if check:
        no_violations(phone)
    review.get_by_role("button", name="Save hand on this phone").click()
    wait_for_page(phone, phone.locator("#waiting"))


def test_a_hand_recorded_offline_is_sent_once_when_the_network_is_back(
        phone: Page, second_phone: Page, server: Server) -> None:
    game = a_game_kept_on(phone)
    second_phone.goto(share_link(phone, game))
    phone.goto(game)
    wait_for_htmx(phone)
    # No network, and the app out of reach too (the browser's offline mode may let a
    # request from a page its service worker served through): nothing leaves the phone.
    server.stop()
    phone.context.set_offline(True)
    record_offline(phone, check=True)
    expect(phone.locator("#waiting")).to_contain_text("Hand 1 (Ann went out)")
    expect(phone.locator("#waiting")).to_contain_text("waiting to be sent")
    expect(phone.locator("#copy")).to_contain_text("as this phone last saw it")
    no_violations(phone)
    phone.get_by_role("link", name="History").first.click()  # read offline too
    wait_for_page(phone, phone.locator("#copy"))
    expect(phone.get_by_role("heading", name="Hands")).to_be_visible()
    phone.go_back()
    phone.reload()
    expect(phone.locator("#waiting")).to_contain_text("waiting to be sent")
    # A hand said to be for one game but addressed to another is never sent.
    phone.evaluate("""() => localStorage.setItem('uno-queue', JSON.stringify([
        {game: '1', url: '/games/2/hands', fields: [['out', '0']], number: '1', out: 'Ann',
         key: 'forged', at: new Date().toISOString()},
        ...JSON.parse(localStorage.getItem('uno-queue'))]))""")
    posted: list[str] = []
    phone.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)
    server.start()
    phone.context.set_offline(False)
    expect(phone.locator("#waiting")).to_have_count(0)
    expect(phone.locator("#copy")).to_have_count(0)
    expect(phone.locator(".meta")).to_contain_text("1 hand played")
    assert [urlparse(url).path for url in posted] == [f"{game}/hands"]
    second_phone.reload()
    expect(second_phone.locator(".meta")).to_contain_text("1 hand played")
    assert totals(second_phone) == ["59", "0", "0"]


def test_a_hand_entered_while_the_app_is_out_of_reach_is_kept_and_sent(
        phone: Page, server: Server) -> None:
    # The Wi-Fi is up (the phone says it is online) but the app's machine is gone: the
    # hand is kept on the phone, as with no network, not lost on the browser's error page.
    game = a_game_kept_on(phone)
    phone.goto(game)
    wait_for_htmx(phone)
    server.stop()
    assert phone.evaluate("navigator.onLine")
    record_offline(phone)
    expect(phone.locator("#waiting")).to_contain_text("Hand 1 (Ann went out)")
    server.start()
    phone.reload()  # the queue is tried on every page (and every 10 s)
    expect(phone.locator("#sent")).to_contain_text("Hand 1, saved on this phone offline, was sent")
    expect(phone.locator(".meta")).to_contain_text("1 hand played")
    assert totals(phone) == ["59", "0", "0"]


def test_a_hand_sent_again_is_recorded_once(
        phone: Page, second_phone: Page, server: Server) -> None:
    # The server restarts while the hand waits; then the answer to its first sending is
    # lost, so the phone sends it again: the app says it was recorded once, and it was.
    game = a_game_kept_on(phone)
    second_phone.goto(share_link(phone, game))
    phone.goto(game)
    wait_for_htmx(phone)
    phone.context.set_offline(True)
    record_offline(phone)
    kept = phone.evaluate("localStorage.getItem('uno-queue')")
    server.stop()
    server.start()
    phone.reload()
    expect(phone.locator("#waiting")).to_contain_text("waiting to be sent")
    phone.context.set_offline(False)
    expect(phone.locator(".meta")).to_contain_text("1 hand played")
    phone.evaluate("kept => localStorage.setItem('uno-queue', kept)", kept)
    phone.evaluate("window.dispatchEvent(new Event('online'))")
    expect(phone.locator("#notice")).to_contain_text("Already saved")
    # The queue was emptied before the form went: the page the form opened may read the
    # storage a moment before that write reaches it (another renderer), so wait for it.
    phone.wait_for_function("localStorage.getItem('uno-queue') === '[]'", timeout=5000)
    second_phone.goto(f"{game}/hands")
    expect(second_phone.locator(".hand")).to_have_count(1)
    expect(second_phone.locator(".hand")).to_contain_text("Ann")


def test_a_hand_kept_offline_that_clashes_ends_on_the_clash_page(
        phone: Page, second_phone: Page, server: Server) -> None:
    # This phone's page does not poll in the test's time: it must not hear of the other
    # phone's hand before the network goes (on a busy machine a poll came in between).
    server.app.config["LIVE_POLL"] = "3600s"
    game = a_game_kept_on(phone)
    second_phone.goto(share_link(phone, game, "keeper"))
    phone.goto(game)
    wait_for_htmx(phone)
    # Another phone saves hand 1; then this one, its copies made before, records its own
    # hand 1 with no network (and the app out of reach).
    record_hand(second_phone, "Bob", {0: {"red-1": 1}, 2: {"red-2": 1}}, {0: "1", 2: "2"})
    server.stop()
    phone.context.set_offline(True)
    record_offline(phone)
    server.start()
    phone.context.set_offline(False)
    expect(phone.get_by_role("heading", name="Another phone saved hand 1 first")).to_be_visible()
    assert phone.evaluate("localStorage.getItem('uno-queue')") == "[]"



def keeps_pages(phone: Page) -> None:
    """Wait until ``phone``'s service worker controls the page and keeps what recording a
    hand offline needs (a scorekeeper's scoreboard asks it to)."""
    phone.wait_for_function("() => navigator.serviceWorker.controller !== null")
    for _ in range(100):  # (the answer is a promise: evaluated, not waited for as a function)
        if phone.evaluate(KEPT) >= KEPT_PAGES:
            return
        phone.wait_for_timeout(100)
    raise AssertionError(f"the phone kept {phone.evaluate(KEPT)} pages, not {KEPT_PAGES}")


def test_a_phone_that_lost_its_role_stops_sending(
        phone: Page, second_phone: Page, server: Server) -> None:
    start_game(phone, "classic", ["Ann", "Bob", "Cy"])
    game = urlparse(phone.url).path
    second_phone.goto(share_link(phone, game, "keeper"))
    keeps_pages(second_phone)
    # The scorekeeper renews the scorekeeper's link: the second phone loses it, unaware.
    phone.locator("#share-keeper").get_by_role("link", name="Lock this link out…").tap()
    phone.locator("form:has(input[name=role][value=keeper]) button").tap()
    expect(phone.locator("#renewed")).to_be_visible()
    # Then it records a hand with no network (the app out of reach, too: nothing can leave
    # the phone until it is back).
    server.stop()
    second_phone.context.set_offline(True)
    record_offline(second_phone)
    server.start()
    second_phone.context.set_offline(False)
    expect(second_phone.locator("#not-sent")).to_contain_text(
        "Hand 1 (Ann went out), saved on this phone offline, was not sent")
    assert second_phone.evaluate("localStorage.getItem('uno-queue')") == "[]"
    # The game refused, its copies go: with the app out of reach, the phone no longer
    # shows it.
    assert second_phone.goto(game).status == 404
    server.stop()
    second_phone.goto(game)
    expect(second_phone.get_by_role("heading", name="No network")).to_be_visible()
    server.start()
    phone.goto(game)
    expect(phone.locator(".meta")).to_contain_text("0 hands played")


def test_the_app_installs_and_says_plainly_what_needs_the_network(phone: Page) -> None:
    game = a_game_kept_on(phone)
    cdp = phone.context.new_cdp_session(phone)
    # A test browser's context is a private window, where nothing installs: that aside,
    # nothing stands in the way.
    refused = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [e["errorId"] for e in refused if e["errorId"] != "in-incognito"] == []
    manifest = cdp.send("Page.getAppManifest")["manifest"]
    origin = phone.evaluate("location.origin")
    assert manifest["startUrl"] == manifest["scope"] == origin + "/"
    assert manifest["display"] == "kStandalone"
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in manifest["icons"]}
    assert phone.evaluate("navigator.serviceWorker.controller.scriptURL") == origin + "/sw.js"

    phone.context.set_offline(True)
    phone.goto("/")  # where the installed app opens: this phone's games, as last seen
    expect(phone.locator(".game-link")).to_contain_text("Ann")
    expect(phone.locator("#copy")).to_contain_text("as this phone last saw it")
    no_network = phone.get_by_role("heading", name="No network")
    for link in ("New game", "Settle a dispute"):
        phone.get_by_role("link", name=link).click()
        expect(no_network).to_be_visible()
        expect(phone.locator("#offline")).to_contain_text("cannot reach the app now")
        if link == "New game":
            no_violations(phone)
        phone.get_by_role("link", name="The games on this phone").click()
        expect(phone.locator("#copy")).to_be_visible()
    phone.locator(".game-link").click()
    wait_for_page(phone, phone.locator("#standings"))
    phone.get_by_role("link", name="Share: the other phones").click()
    expect(no_network).to_be_visible()
    phone.get_by_role("link", name="This game's scoreboard, as last seen").click()
    wait_for_page(phone, phone.locator("#copy"))
    expect(phone.locator("#standings")).to_contain_text("Ann")
    assert urlparse(phone.url).path == game


def test_the_screen_stays_awake_until_told_not_to(phone: Page) -> None:
    # Headless Chromium has no screen to keep on: a stand-in records what is asked of it,
    # in the tab's session storage (so that what a page asks as it is left is kept too).
    phone.add_init_script("""
        const said = (call) => sessionStorage.setItem('wake',
            JSON.stringify([...JSON.parse(sessionStorage.getItem('wake') || '[]'), call]));
        Object.defineProperty(navigator, 'wakeLock', { value: { request: async (kind) => {
            said('request ' + kind);
            const heard = [];
            const lock = { released: false, addEventListener: (name, fn) => heard.push(fn),
                release: async () => {
                    if (lock.released) return;
                    lock.released = true;
                    said('release');
                    heard.forEach((fn) => fn());
                } };
            window.lastLock = lock;
            return lock;
        } } });
    """)

    def calls() -> list[str]:
        return list(phone.evaluate("JSON.parse(sessionStorage.getItem('wake') || '[]')"))

    start_game(phone, "classic", ["Ann", "Bob"])
    awake = phone.locator("#awake")
    expect(awake).to_contain_text("The screen stays on while this game is open.")
    assert calls() == ["request screen"]
    # The browser lets go of the lock when the page is hidden; shown again, it is taken again.
    phone.evaluate("window.lastLock.release()")
    phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(awake).to_contain_text("The screen stays on")
    assert calls() == ["request screen", "release", "request screen"]

    awake.get_by_role("button", name="Let the screen sleep").tap()
    expect(awake).to_contain_text("The screen may go dark as usual on this phone.")
    assert calls()[-1] == "release"
    phone.reload()  # remembered on this phone
    expect(awake).to_contain_text("The screen may go dark")
    assert calls() == ["request screen", "release", "request screen", "release"]
    no_violations(phone)

    awake.get_by_role("button", name="Keep the screen on").tap()
    expect(awake).to_contain_text("The screen stays on")
    assert calls()[-1] == "request screen"
    phone.get_by_role("link", name="UNO companion").click()  # leaving the game
    expect(phone.locator(".game-link")).to_be_visible()
    assert calls()[-1] == "release"


def test_a_share_link_opens_its_game_in_one_round_trip(phone: Page, second_phone: Page) -> None:
    start_game(phone, "classic", ["Ann", "Bob"])
    game = urlparse(phone.url).path
    link = share_link(phone, game)
    pages: list[str] = []
    second_phone.on("request", lambda r: pages.append(r.url) if r.resource_type == "document"
                    else None)
    response = second_phone.goto(link)
    assert response is not None and response.status == 200
    # One request for the page before it is drawn: the link answers with the game itself.
    assert pages == [link]
    assert second_phone.evaluate(
        "performance.getEntriesByType('navigation')[0].redirectCount") == 0
    expect(second_phone.locator("#standings")).to_contain_text("Ann")
    expect(second_phone.locator("#watching")).to_be_visible()
    # The game's own address in the bar, the link's token out of it and out of the history.
    second_phone.wait_for_function(f"() => location.pathname === '{game}'")
    second_phone.go_back()
    assert second_phone.url == "about:blank"
    second_phone.go_forward()
    expect(second_phone.locator("#standings")).to_contain_text("Ann")
    assert urlparse(second_phone.url).path == game
    second_phone.reload()
    expect(second_phone.locator("#standings")).to_contain_text("Ann")
    assert urlparse(second_phone.url).path == game
    assert pages[-1].endswith(game)
