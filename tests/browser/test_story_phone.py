"""The table's story on a phone (issue 29), light and dark at 360x640: the score grid and
the race with 2 and 10 players (the page never scrolls sideways, the grid does, its hand
column staying put), axe clean; the grid printed on one A4 page for 20 hands; the result
copied to send; the records page; and the grid following the game live."""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import pairwise

import pytest
from browser_steps import phone_page, start_game, violations
from playwright.sync_api import Page, expect
from story_steps import phone_key, seeded_game


@pytest.fixture
def phone(browser, base_url) -> Iterator[Page]:
    yield from phone_page(browser, base_url, "the story")


def axe_clean(page: Page) -> None:
    """axe finds nothing on the page as it is, in light and in dark."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert violations(page) == [], scheme


def pdf_pages(page: Page) -> int:
    """How many A4 pages the page prints on."""
    page.emulate_media(media="print")
    pages = len(re.findall(rb"/Type\s*/Page[^s]", page.pdf(format="A4")))
    page.emulate_media(media="screen")
    return pages


def test_the_grid_and_the_race_with_2_and_10_players(phone: Page, live_app) -> None:
    page = phone
    start_game(page, "classic", ["Ana", "Ben"])
    two = int(page.url.rsplit("/", 1)[1].split("?")[0])
    device = phone_key(live_app)
    seeded_game(live_app, device, 2, 20, game_id=two, target=500)
    ten = seeded_game(live_app, device, 10, 20, target=500)
    for game, players in ((two, 2), (ten, 10)):
        page.goto(f"/games/{game}/story")
        expect(page.locator("#grid tbody tr[id^=grid-hand-]")).to_have_count(20)
        expect(page.locator("svg.race g.series")).to_have_count(players)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        axe_clean(page)
        # The hands scroll sideways inside the grid; the hand column stays where it was.
        region = page.locator(".grid-scroll")
        first = page.locator("#grid-hand-1 th")
        left = first.bounding_box()["x"]
        region.evaluate("el => el.scrollLeft = el.scrollWidth")
        if players == 10:
            assert region.evaluate("el => el.scrollLeft") > 100
        assert first.bounding_box()["x"] == pytest.approx(left, abs=1)
        region.evaluate("el => el.scrollLeft = 0")
        # Each line's end label is inside the chart, readable: none on top of another.
        labels = [page.locator("svg.race text.end-label").nth(i).bounding_box()
                  for i in range(players)]
        tops = sorted(b["y"] for b in labels)
        assert all(b - a >= 8 for a, b in pairwise(tops)), tops
        assert pdf_pages(page) == 1, f"{players} players' 20 hands print on more than one page"


def test_the_result_is_copied_to_send_and_the_records_are_the_phones(phone: Page, live_app,
                                                                      browser) -> None:
    page = phone
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    start_game(page, "classic", ["Ana", "Ben", "Cy"], target="150")
    game = int(page.url.rsplit("/", 1)[1].split("?")[0])
    device = phone_key(live_app)
    seeded_game(live_app, device, 3, 100, game_id=game)  # it ends on the way
    page.goto(f"/games/{game}/story")
    share = page.locator("[data-share]")
    expect(share).to_have_text("Copy the result")  # no share sheet in a desktop Chromium
    share.tap()
    expect(page.locator("[data-share-status]")).to_have_text(re.compile("Copied"))
    copied = page.evaluate("navigator.clipboard.readText()")
    assert re.match(r"(Ana|Ben|Cy) won UNO \(classic\) in \d+ hands\.\n1\. ", copied), copied
    assert copied == page.locator("#result-text").input_value()
    axe_clean(page)
    page.get_by_role("link", name="UNO companion").click()
    page.get_by_role("link", name="Records").click()
    expect(page.locator("#players tbody tr")).to_have_count(3)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    axe_clean(page)


#: A phone's share sheet, as Android's Chrome has it: what it was given is kept to read.
SHARE_SHEET = """
Object.defineProperty(navigator, "share", {configurable: true,
  value: async (data) => { window.shared = data; }});
Object.defineProperty(navigator, "canShare", {configurable: true,
  value: (data) => (data.files || []).every((f) => f.type === "image/png")});
"""

#: What the share sheet was given: the text, the files, and the picture's size and how many
#: of its pixels are not white (the race drawn, not a blank page).
SHARED = """async () => {
  const given = window.shared, file = (given.files || [])[0];
  const out = {text: given.text, files: (given.files || []).map((f) => [f.name, f.type])};
  if (file) {
    const bitmap = await createImageBitmap(file);
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const pen = canvas.getContext("2d");
    pen.drawImage(bitmap, 0, 0);
    const px = pen.getImageData(0, 0, bitmap.width, bitmap.height).data;
    let ink = 0;
    for (let i = 0; i < px.length; i += 4) if (px[i] + px[i + 1] + px[i + 2] < 600) ink++;
    Object.assign(out, {size: [bitmap.width, bitmap.height], ink});
  }
  return out;
}"""


def test_a_share_sheet_gets_the_result_and_the_race_as_a_png(phone: Page, live_app) -> None:
    page = phone
    page.add_init_script(SHARE_SHEET)
    start_game(page, "classic", ["Ana", "Ben", "Cy"], target="150")
    game = int(page.url.rsplit("/", 1)[1].split("?")[0])
    seeded_game(live_app, phone_key(live_app), 3, 100, game_id=game)  # it ends on the way
    page.goto(f"/games/{game}/story")
    share = page.locator("[data-share]")
    expect(share).to_have_text("Share the result")
    share.tap()
    page.wait_for_function("window.shared !== undefined")
    shared = page.evaluate(SHARED)
    assert shared["text"] == page.locator("#result-text").input_value()
    assert shared["files"] == [[f"uno-game-{game}.png", "image/png"]]
    svg = page.request.get(f"/games/{game}/result.svg").text()
    width, height = (int(re.search(rf' {k}="(\d+)"', svg).group(1)) for k in ("width", "height"))
    assert shared["size"] == [width, height]
    assert shared["ink"] > 2000, shared["ink"]


def test_the_grid_follows_the_game_live(page: Page, live_app) -> None:
    start_game(page, "classic", ["Ana", "Ben"])
    game = int(page.url.rsplit("/", 1)[1].split("?")[0])
    page.goto(f"/games/{game}/story")
    expect(page.get_by_text("No hand yet")).to_be_visible()
    seeded_game(live_app, phone_key(live_app), 2, 1, game_id=game)  # another phone's hand
    expect(page.locator("#grid-hand-1")).to_be_visible(timeout=6000)
    expect(page.locator("svg.race g.series")).to_have_count(2)
