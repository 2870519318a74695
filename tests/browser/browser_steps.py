"""Steps a person takes at the table, and checks of what a page shows them, shared by
the browser tests."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from importlib.resources import files

from playwright.sync_api import Locator, Page, expect

#: The phone every browser test is: CSS pixels, as the pages are laid out.
PHONE = {"width": 360, "height": 640}

#: axe-core, from the ``axe-playwright-python`` package (the test extra), which ships its
#: minified source; it is evaluated in the page through Playwright, which the pages'
#: Content-Security-Policy does not apply to.
AXE = (files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")

#: The smallest tap target, in CSS pixels, both ways.
MIN_TARGET = 44


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
    # The new-game page, loaded: htmx must be listening before the variant changes (a
    # click does not wait for the page it leads to, so the home page's own load will not do).
    page.wait_for_url("**/games/new")
    wait_for_htmx(page)
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
    wait_for_htmx(page)  # the whole scoreboard, for whatever the test does next


def share_link(page: Page, game: str, role: str = "viewer") -> str:
    """A game's share link (``game`` its scoreboard path), read off ``page``'s share page."""
    page.goto(f"{game}/share")
    return page.locator(f"#link-{role}").input_value()


def join(other: Page, page: Page, game: str, role: str = "viewer") -> None:
    """Another phone opens the link ``page`` shares: it lands on the game's scoreboard (or,
    a viewer of a game with rule cards, on "which player are you?")."""
    other.goto(share_link(page, game, role))
    wait_for_page(other, other.locator("#standings, #just-watching").first)


def same_browser(source: Page, other: Page) -> None:
    """Give ``other`` (another context) ``source``'s cookies: the same phone's browser."""
    other.context.add_cookies(source.context.cookies())


#: Whether htmx is in, on a page that brings it: static/app.js adds it after the load
#: event (templates/base.html, data-htmx), and htmx sets itself up as it runs. Once the
#: page has loaded, a page whose app.js has not run (no "js" class) brings none.
HTMX_IN = """() => !document.querySelector('script[data-htmx]') || 'htmx' in window
  || !document.documentElement.classList.contains('js')"""


def wait_for_htmx(page: Page) -> None:
    """Wait for the page to load (the rest of it parsed, its scripts run: the card grids
    drawn) and then for htmx, where the page uses it, to be listening: until then a tap is a
    plain link or form, as without JavaScript."""
    page.wait_for_load_state()
    page.wait_for_function(HTMX_IN)


def wait_for_page(page: Page, proof: Locator) -> None:
    """Wait for the page a click or a key press led to, before reading it: a click does not
    wait for the navigation it starts. ``proof`` is something that page shows and the one
    before it did not; then the page is waited for to load and htmx to listen."""
    expect(proof).to_be_visible()
    wait_for_htmx(page)


def tap_cards(page: Page, seat: int, cards: dict[str, int]) -> None:
    """Tap each card on the picker as many times as the opponent holds it, once the picker's
    page is in and htmx listens (each tap posts for the running points)."""
    expect(page.locator(f"#seat-{seat} .cell").first).to_be_attached()
    wait_for_htmx(page)
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
    """The scoreboard's totals, in seat order (the rows themselves are ranked).

    Read at once, not waited for: call it once the page shown is the scoreboard to read
    (after a click, wait for something only that scoreboard shows)."""
    page.wait_for_load_state()
    rows = page.locator("#standings tbody tr")
    by_seat = {int(rows.nth(i).get_attribute("data-seat") or 0):
               rows.nth(i).locator("td.total").inner_text() for i in range(rows.count())}
    return [by_seat[seat] for seat in sorted(by_seat)]


def violations(page: Page) -> list[str]:
    """What axe finds on the page as it is now, one line per rule and element (after a
    click, wait for the page it leads to first: wait_for_page)."""
    page.wait_for_load_state()
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE)
    result = page.evaluate("async () => JSON.stringify((await axe.run(document)).violations)")
    return [f"{v['id']} ({v['impact']}): {node['target']} {v['help']}"
            for v in json.loads(result) for node in v["nodes"]]


def violations_light_and_dark(page: Page) -> list[str]:
    """What axe finds on the page as it is, in light and in dark (one walk of a flow
    checks both schemes), each line saying its scheme."""
    found = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        found.extend(f"({scheme}) {line}" for line in violations(page))
    return found


def assert_fits_phone(page: Page) -> None:
    """No horizontal scroll, and every visible control is at least 44px in both directions,
    on the page as it is now (after a click, wait for the page it leads to first)."""
    page.wait_for_load_state()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"{page.url} scrolls sideways ({width}px)"
    small = page.evaluate(f"""() => Array.from(document.querySelectorAll(
            'button, a.button, .game-link, .cell, input[type=text], input[type=number], select, summary, .bar a'))
        .filter(el => el.offsetParent !== null && getComputedStyle(el).opacity !== '0')
        // a form's hidden default button (what Enter presses) is no tap target
        .filter(el => el.getAttribute('aria-hidden') !== 'true')
        .map(el => [el.textContent.trim().slice(0, 30) || el.name, el.getBoundingClientRect()])
        .filter(([, r]) => r.height < {MIN_TARGET} - 0.5 || r.width < {MIN_TARGET} - 0.5)
        .map(([name, r]) => name + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))""")
    assert not small, f"touch targets under {MIN_TARGET}px on {page.url}: {small}"


def phone_context(browser, **extra):
    # CSS pixels are what the pages are laid out and measured in; a second device pixel
    # per CSS pixel only made every frame four times the work to draw.
    # The service worker (static/sw.js) is the offline tests' and the Back-and-resend
    # tests' (they pass service_workers="allow"); elsewhere its fetching ahead of each
    # game's pages was a tenth of the browser tests' CPU, for nothing they look at.
    extra.setdefault("service_workers", "block")
    return browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True,
                               device_scale_factor=1, **extra)


def phone_page(browser, base_url: str, name: str, **extra) -> Iterator:
    """A phone-sized page (360x640, touch) in a browser context of its own (its own
    cookies: its own phone; ``extra``: more of the context, a colour scheme, a time
    zone), closed after the test, which fails on a JavaScript error."""
    context = phone_context(browser, base_url=base_url, **extra)
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on {name}: {errors}"


#: Fast 3G, as Chrome's DevTools define it: 150 ms latency, 1.6 Mbps down, 750 kbps up.
FAST_3G = {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8,
           "uploadThroughput": 750e3 / 8}
#: The load just made: ms from its start to the load event's end (the page drawn with its
#: stylesheet, app.js run), to the first paint with content and to htmx arrived (app.js
#: brings it after the load event, where the page uses it; 0 where it does not); whether
#: the page came compressed; and how many stylesheets and scripts came over the network
#: (not from the phone's cache) before the load event: none is one round trip.
LOAD_TIMES = """() => { const n = performance.getEntriesByType('navigation')[0];
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  const resources = performance.getEntriesByType('resource');
  const htmx = resources.find((r) => r.name.includes('/htmx-'));
  const fetched = resources.filter((r) => r.startTime < n.loadEventStart
    && /[.](css|js)$/.test(new URL(r.name).pathname) && r.transferSize > 0).length;
  return [Math.round(n.loadEventEnd), Math.round(paint ? paint.startTime : 0),
          Math.round(htmx ? htmx.responseEnd : 0), n.encodedBodySize < n.decodedBodySize,
          fetched]; }"""


def first_loads(browser, base_url: str, paths: list[str], storage, *, phones: int = 2,
                warm_tries: int = 3) -> dict[str, dict[str, int]]:
    """Each page loaded on Fast 3G by a phone with an empty cache (cold, once on each of
    ``phones`` new phones), then again on the first (warm, ``warm_tries`` times): ms to the
    load event, to the first paint and to htmx arrived; whether the page came compressed;
    the stylesheets and scripts fetched before the load event, cold and warm.

    The best of the tries counts: the machine's other work only ever adds time (a test that
    reads no time needs one try of each). The server
    has sent each page once before (a phone's first visit is not the server's: its
    templates are compiled by then). ``storage`` is the phones' cookies."""
    from companion.assets import KEPT_COOKIE

    server = browser.new_context(base_url=base_url, storage_state=storage)
    for path in paths:
        assert server.request.get(path).ok, path
    server.close()
    found: dict[str, dict[str, int]] = {}
    for path in paths:
        cold: list[list[int]] = []
        warm: list[list[int]] = []
        for phone in range(phones):
            context = browser.new_context(viewport=PHONE, base_url=base_url,
                                          storage_state=storage)
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.emulateNetworkConditions", FAST_3G)
            for tries in (cold, *([warm] * warm_tries * (phone == 0))):
                page.goto(path, wait_until="load")
                wait_for_htmx(page)  # and in the cache for the warm loads
                tries.append(page.evaluate(LOAD_TIMES))
                # The phone keeps app.js and the stylesheet once a page has been open for a
                # moment (its cookie says so): the warm loads link them.
                page.wait_for_function(f"() => document.cookie.includes('{KEPT_COOKIE}=')")
            context.close()
        best = min(cold)
        found[path] = {"cold": best[0], "cold paint": best[1], "cold htmx": best[2],
                       "warm": min(t[0] for t in warm), "compressed": all(t[3] for t in cold),
                       "cold fetched": max(t[4] for t in cold),
                       "warm fetched": max(t[4] for t in warm)}
    return found


def a_game_and_its_keeper(browser, base_url: str) -> tuple[str, object]:
    """A classic game's path, and the cookies of the phone that started it: its key to the
    game, not the one saying it holds app.js and the stylesheet (the phones it is given to
    have an empty cache)."""
    from urllib.parse import urlparse

    from companion.assets import KEPT_COOKIE

    context = browser.new_context(viewport=PHONE, base_url=base_url)
    page = context.new_page()
    start_game(page, "classic", ["Ann", "Bob", "Cy"])
    game = urlparse(page.url).path
    storage = context.storage_state()
    context.close()
    storage["cookies"] = [c for c in storage["cookies"] if c["name"] != KEPT_COOKIE]
    return game, storage
