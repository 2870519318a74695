"""The second look at the table (issue 21), measured in the browser at 360x640, light and
dark: the picker fits a screen with its footer, the lever is in the first screen, card
faces stand out, Start game is in reach, saves say what they did, times are the phone's,
no ruling code where players read, every target 44px and every text 14px, and a first
load on a phone network.

Each test walks one screen (or two) and measures everything the issue asks of it there,
with axe on each page: one game per test, no waiting beyond what a page needs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import urlparse

import pytest
from browser_steps import (
    MIN_TARGET,
    a_game_and_its_keeper,
    first_loads,
    phone_page,
    start_game,
    tap_cards,
    violations,
    wait_for_page,
)
from playwright.sync_api import Page, expect

SCHEMES = ["light", "dark"]
#: A zone far from UTC, so a time shown in UTC cannot pass for the phone's.
ZONE = "Pacific/Auckland"
#: The picker's footer (running points and Review) takes at most this much of the screen.
FOOTER_MAX = 100
#: The smallest text, in CSS pixels.
MIN_TEXT = 14

#: Words broken across lines inside a control's label ("Rem|ove"): each word of each text
#: in a button, link or label is a Range; more than one line box means it was broken.
BROKEN_WORDS = """() => {
  const found = [];
  const shown = (el) => el.offsetParent !== null || getComputedStyle(el).position === 'fixed';
  document.querySelectorAll('button, a, label, summary, .cell').forEach((el) => {
    if (!shown(el) || el.closest('.visually-hidden, [aria-hidden=true]')) return;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest('.visually-hidden')) continue;
      for (const m of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set(Array.from(range.getClientRects())
          .filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1) found.push(m[0] + ' in ' + el.textContent.trim().slice(0, 30));
      }
    }
  });
  return found;
}"""

#: Text under the smallest size: every element showing text of its own.
SMALL_TEXT = f"""() => Array.from(document.querySelectorAll('body *'))
  .filter((el) => el.offsetParent !== null && !el.closest('.visually-hidden, svg')
    && Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.data.trim()))
  .filter((el) => parseFloat(getComputedStyle(el).fontSize) < {MIN_TEXT})
  .map((el) => el.textContent.trim().slice(0, 30) + ' ' + getComputedStyle(el).fontSize)"""

#: Tap targets under 44x44: every control and every link shown (a link inside a sentence
#: included, unless it is a word of running text: the picker's own links are targets).
SMALL_TARGETS = f"""() => Array.from(document.querySelectorAll(
    'a[href], button, input:not([type=hidden]), select, textarea, summary, label.tap span, .cell'))
  .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
  .filter((el) => !el.closest('[aria-hidden=true], .tap input, .hide-toggle input'))
  .filter((el) => !(el.matches('.tap input, .choice input, .deals input')))
  .map((el) => [el, el.getBoundingClientRect()])
  .filter(([el, r]) => r.width < {MIN_TARGET} - 0.5 || r.height < {MIN_TARGET} - 0.5)
  .map(([el, r]) => (el.textContent.trim().slice(0, 30) || el.name || el.tagName)
    + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))"""

#: WCAG contrast of each card face: its edge (border, else fill) against the panel behind
#: it (3:1, non-text contrast), and its text against its fill (4.5:1).
CARD_CONTRAST = """(selector) => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => { const [x, y] = [lum(rgb(a)), lum(rgb(b))].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05); };
  const opaque = (c) => { const v = rgb(c); return v.length === 3 || v[3] > 0; };
  const behind = (el) => { for (let p = el.parentElement; p; p = p.parentElement) {
    const bg = getComputedStyle(p).backgroundColor; if (opaque(bg)) return bg; }
    return 'rgb(255, 255, 255)'; };
  return Array.from(document.querySelectorAll(selector)).map((el) => {
    const s = getComputedStyle(el);
    const edged = parseFloat(s.borderTopWidth) >= 1 && opaque(s.borderTopColor);
    return { card: el.dataset.card || el.title,
             edge: ratio(edged ? s.borderTopColor : s.backgroundColor, behind(el)),
             text: ratio(s.color, s.backgroundColor) };
  });
}"""


@pytest.fixture()
def phone(browser, base_url) -> Iterator[Page]:
    """A 360x640 touch phone in a far time zone (its pages checked light and dark:
    :func:`checked`)."""
    yield from phone_page(browser, base_url, "the phone", timezone_id=ZONE)


def checked(page: Page, name: str) -> None:
    """The page as it is now, in light and in dark: axe clean, no broken word, no small
    text or target, no sideways scroll. (Both schemes on the one page: a flow is walked
    once, not once per scheme.)"""
    page.wait_for_load_state()
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        problems = {
            "axe": violations(page),
            "words broken": page.evaluate(BROKEN_WORDS),
            f"text under {MIN_TEXT}px": page.evaluate(SMALL_TEXT),
            f"targets under {MIN_TARGET}px": page.evaluate(SMALL_TARGETS),
        }
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"{name} ({scheme}): scrolls sideways ({width}px)"
        problems = {k: v for k, v in problems.items() if v}
        assert not problems, f"{name} ({scheme}): {problems}"
    page.emulate_media(color_scheme=None)  # back to the phone's own


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


def in_first_screen(page: Page, selector: str) -> bool:
    """Whether the element is whole inside the screen, the page scrolled to its top."""
    page.evaluate("window.scrollTo(0, 0)")
    b = box(page, selector)
    return b["y"] >= 0 and b["y"] + b["height"] <= 640 + 0.5


def ruling_codes(page: Page) -> list[str]:
    """Ruling codes ("R18") shown where players read: the page's text, less the referee's
    steps (where the codes cite)."""
    text = page.evaluate("""() => { const main = document.querySelector('main').cloneNode(true);
        main.querySelectorAll('.steps, .visually-hidden').forEach((el) => el.remove());
        return main.innerText; }""")
    return re.findall(r"\bR\d{1,2}\b", text)


def test_one_opponents_cards_fit_one_screen_with_the_footer(phone: Page) -> None:
    page = phone
    start_game(page, "classic", ["Ann", "Bob", "Cy", "Dee"])
    page.get_by_role("link", name="Record hand 1").click()
    page.get_by_role("button", name="Ann", exact=True).click()
    wait_for_page(page, page.get_by_role("heading", name="Hand 1: Ann went out"))
    tap_cards(page, 1, {"wild-draw4": 1, "red-7": 2, "wild-swap": 1})
    expect(page.locator("#pts-1")).to_have_text("114")
    # Bob's cards scrolled to the top of the screen: all of them above the footer.
    page.evaluate("window.scrollTo(0, document.querySelector('#seat-1').getBoundingClientRect().top + scrollY)")
    seat, footer = box(page, "#seat-1"), box(page, ".sticky-actions")
    print(f"\none opponent: {seat['height']:.0f}px, footer {footer['height']:.0f}px")
    assert footer["height"] <= FOOTER_MAX
    assert footer["y"] + footer["height"] <= 640 + 0.5
    assert seat["y"] >= -0.5 and seat["y"] + seat["height"] <= footer["y"] + 0.5
    # A picked "Wild +4" keeps its words and puts its count under them.
    wild = page.locator("#seat-1 .cell[data-card='wild-draw4']")
    assert wild.evaluate("el => getComputedStyle(el, '::after').content") == '"×1"'
    checked(page, "card picker")
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        contrast = page.evaluate(CARD_CONTRAST, "#seat-1 .cell")
        assert len(contrast) > 50
        assert not [c for c in contrast if c["edge"] < 3 or c["text"] < 4.5], (scheme, contrast)
    # At twice the text size, the words still break only between words.
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    assert page.evaluate(BROKEN_WORDS) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_the_lever_is_in_the_first_screen_and_a_long_rule_card_is_whole(phone: Page) -> None:
    page = phone
    names = ["Ana", "Ben", "Cy", "Dee"]  # issue 26's table
    start_game(page, "wild-jackpot", names)
    game = urlparse(page.url).path
    last = page.locator("#jackpot button.puller").last
    expect(last).to_have_text(f"{names[-1]} pulls")
    # Under the standings (issue 26), the first pull still in the first screen.
    assert in_first_screen(page, "#jackpot button.puller >> nth=0")
    # "Write the rule cards" keeps its distance from the lever's buttons above it.
    write, above = box(page, "#write-rule-cards"), box(page, "#jackpot fieldset >> nth=-1")
    assert write["y"] - (above["y"] + above["height"]) >= 8
    assert ruling_codes(page) == []
    checked(page, "Wild Jackpot scoreboard")

    page.goto(f"{game}/jackpot/cards/0")
    bar = box(page, ".bar")
    assert bar["height"] <= 48.5, bar  # one line
    rule = ("Whenever anyone says the word 'seven', every player except the dealer must "
            "stand up, turn round once and sit down again before the next card is played")
    card = page.locator(".rule-text").first
    assert card.evaluate("el => el.tagName") == "TEXTAREA"
    card.fill(rule)
    size = card.evaluate("el => [el.scrollHeight, el.clientHeight]")
    assert size[0] <= size[1] + 1, size  # the whole rule shows, no scrolling inside
    checked(page, "rule cards")
    page.get_by_role("button", name="Save and pass the phone on").click()
    expect(page.locator("#saved")).to_be_visible()


def test_a_player_added_before_htmx_arrives_stays(phone: Page) -> None:
    # htmx comes after the page's load event; when it does, it sets the page up again
    # (htmx:load), and that once hid a seat a quick thumb had just added.
    page = phone
    page.goto("/games/new")
    fifth = page.get_by_label("Player 5", exact=True)
    expect(fifth).to_be_hidden()
    page.get_by_role("button", name="Add a player").click()
    expect(fifth).to_be_visible()
    page.evaluate("document.body.dispatchEvent(new CustomEvent('htmx:load', {bubbles: true}))")
    expect(fifth).to_be_visible()


def test_a_variant_chosen_before_htmx_arrives_is_shown_when_it_does(phone: Page) -> None:
    # On a slow network htmx comes well after the page: a variant picked before it did is
    # sent as soon as it has, so the form never shows one variant's settings under another.
    page = phone
    held: list = []
    page.route("**/htmx*.js", lambda route: held.append(route))  # held back: the choice first
    page.goto("/games/new")
    while not held:
        page.wait_for_timeout(20)
    page.get_by_label("Variant").select_option("pizza-pizza")
    held[0].continue_()
    expect(page.locator("input[name=target]")).to_have_value("250")
    expect(page.get_by_text("2 to 5 players")).to_be_visible()


def test_start_game_is_always_in_reach(phone: Page) -> None:
    page = phone
    page.goto("/games/new")
    for i, name in enumerate(["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"]):
        field = page.get_by_label(f"Player {i + 1}", exact=True)
        if not field.is_visible():
            page.get_by_role("button", name="Add a player").click()
        field.fill(name)
    start = page.get_by_role("button", name="Start game")
    height = page.evaluate("document.documentElement.scrollHeight")
    for y in (0, height // 3, 2 * height // 3):  # wherever the form is scrolled to
        page.evaluate(f"window.scrollTo(0, {y})")
        expect(start).to_be_in_viewport(ratio=1)
    assert ruling_codes(page) == []
    checked(page, "new game")
    start.click()
    expect(page.locator("#standings")).to_be_visible()


def test_every_save_says_what_it_did_in_the_phones_own_time(phone: Page) -> None:
    page = phone
    start_game(page, "classic", ["Ann", "Bob", "Cy"])
    game = urlparse(page.url).path
    for number in (1, 2):
        page.get_by_role("link", name=f"Record hand {number}").click()
        page.get_by_role("button", name="Ann", exact=True).click()
        page.locator("input[name='pts-1']").fill(str(10 * number))
        page.locator("input[name='pts-2']").fill("5")
        page.get_by_role("button", name="Review hand").click()
        page.get_by_role("button", name="Save hand").click()
        expect(page.locator("#saved")).to_have_text(
            f"Hand {number} saved: the standings count it.")
        assert in_first_screen(page, "#saved")
    checked(page, "scoreboard, a hand saved")
    # An edited hand: saved, said so beside it, in view.
    page.goto(f"{game}/hands")
    page.locator("#hand-1").get_by_role("link", name="Edit").click()
    wait_for_page(page, page.get_by_role("heading", name="Hand 1 (editing): Ann went out"))
    page.locator("input[name='pts-1']").fill("12")
    page.get_by_role("button", name="Review hand").click()
    page.get_by_role("button", name="Save changes").click()
    saved = page.locator("#hand-1 #saved")
    expect(saved).to_have_text("Your change to hand 1 is saved: the totals count it.")
    expect(saved).to_be_in_viewport(ratio=1)
    # A ruling kept: its time in the phone's zone, and the links to it full targets.
    page.goto(f"/referee/challenge?game={game.rsplit('/', 1)[1]}")
    page.locator("#field-by label.tap").filter(has_text=re.compile("^Bob$")).tap()
    page.locator("#field-color label.blue").tap()
    page.locator("#field-hand .cell[data-card='blue-1']").tap()
    page.get_by_role("button", name="Decide").tap()
    page.get_by_role("button", name="Save this ruling to the game").tap()
    expect(page.locator("#answer #saved")).to_be_visible()
    assert page.locator("#answer ul.sources li").count()
    # A ruling's code only beside its name ("Wild Draw 4 (R10)").
    for source in page.locator("#answer ul.sources a").all_inner_texts():
        assert not re.search(r"\bR\d", source) or re.fullmatch(r".+ \(R\d+\)", source), source
    # A wrapped source link keeps its bullet on its first line.
    for item in page.locator("#answer ul.sources li").all():
        marker, link = item.evaluate("""li => { const a = li.querySelector('a');
            const r = a.getClientRects()[0]; const l = li.getBoundingClientRect();
            return [l.top, r.top]; }""")
        assert abs(marker - link) <= 1
    checked(page, "a verdict, kept")
    page.goto(f"{game}/hands")
    stamp = page.locator("#rulings time").first
    expect(stamp).to_have_attribute("data-local", "yes")
    local = stamp.evaluate("""t => new Intl.DateTimeFormat(undefined, {dateStyle: 'medium',
        timeStyle: 'short'}).format(new Date(t.getAttribute('datetime')))""")
    expect(stamp).to_have_text(local)
    assert "UTC" not in stamp.inner_text()
    checked(page, "history, a ruling kept")
    page.get_by_role("link", name="All the rulings").click()
    wait_for_page(page, page.get_by_role("heading", name="Rulings"))
    checked(page, "rulings")
    # Two games of the same players, told apart on the home page by when they were played.
    start_game(page, "classic", ["Ann", "Bob", "Cy"])
    page.goto("/")
    listed = page.locator(".game-link")
    expect(listed).to_have_count(2)
    texts = [t.replace("\n", " ") for t in listed.all_inner_texts()]
    assert texts[0] != texts[1]
    assert all("Started" in t and "UTC" not in t for t in texts)
    assert "last change" in texts[1]
    checked(page, "home, two games")


def test_no_ruling_code_where_players_read(phone: Page) -> None:
    page = phone
    for path in ("/rules/classic", "/rules/wild-jackpot", "/jackpot?players=Ann,Bob,Cy"):
        page.goto(path)
        assert ruling_codes(page) == [], path
        checked(page, path)
    # A pull's answer names its rule, without codes.
    page.locator("button.puller").first.click()
    expect(page.locator("#spin-outcome")).to_be_visible()
    assert ruling_codes(page) == []


@pytest.fixture()
def a_phone_with_a_game(browser, base_url) -> tuple[str, object]:
    return a_game_and_its_keeper(browser, base_url)


def test_a_first_load_on_fast_3g(browser, base_url, a_phone_with_a_game) -> None:
    # What does not hang on the machine's speed: every page comes compressed, a phone's first
    # page needs no second round trip (its stylesheet and app.js inline), and the pages after
    # it take both from the phone's cache. The times are bench/first_load.py's to print.
    # The network, not the colours, decides this: one scheme is enough, and one try of each.
    game, storage = a_phone_with_a_game
    pages = ["/", "/rules/classic", "/games/new", game, f"{game}/hands/new?out=0"]
    found = first_loads(browser, base_url, pages, storage, phones=1, warm_tries=1)
    for path, load in found.items():
        assert load["compressed"], f"{path}: sent uncompressed"
        assert load["cold fetched"] == 0, f"{path}: a first load fetched more before drawing"
        assert load["warm fetched"] == 0, f"{path}: a later load fetched the stylesheet or app.js"
