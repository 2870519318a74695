"""Fuzzing every form route: random and malformed ids, query strings and bodies, mixed with
a table's real steps (new games, hands picked and saved, edits, undo, deletions) so that
deep states are reached: finished games, eliminated players, drafts, deleted hands.

Every request carries the session's valid CSRF token, so that it reaches the route itself.
Two things must hold: no reply is ever a 5xx (an exception escaping the app fails the test
just the same), and after each example every stored game still opens: the home page, its
scoreboard and its history answer 200. The app must never store a row that it would then
refuse to show or score.

Each example starts from a new database, so that a failure replays from its draws alone.
"""

from __future__ import annotations

import re
import shutil
import urllib.parse
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from live_server import ENTRY_PREFIXES, SAVE_ACTION, Form, find_form, forms
from werkzeug.datastructures import MultiDict

import engine
from companion import create_app

# A long file: handed to a worker first (tests/engine/conftest.py).
pytestmark = pytest.mark.starts_first

Pairs = list[tuple[str, str]]

VARIANTS = [v.name for v in engine.VARIANTS]
CARDS = sorted({c.text for v in engine.VARIANTS for c in v.deck_counts(v.default_options())})

#: Ids a URL or a form might carry besides real ones.
JUNK_IDS = ["0", "-1", "-0", "00", "1.0", "1e3", "0x1", " 1", "1 ", "+1", "abc", "", "١", "１",
            "²", str(2**31), "1\x00", "%00", "null", "[]"]
#: Ids SQLite cannot hold (or only just).
HUGE_IDS = [str(2**63 - 1), str(2**63), str(2**64), str(2**70), "9" * 40, "-" + str(2**70)]
#: Values beside random text: numbers at and past every limit, odd digits, NUL, long ones.
JUNK_VALUES = ["", "0", "1", "2", "3", "-1", "7", "50", "100", "250", "500", "10000",
               "10001", "100000", "100001", str(2**63), str(2**70), "9" * 5000, "1.5", "1e2",
               "²", "٣", "１", " 7 ", "\x00", "7\x00", "on", "true", "None", "-0",
               "x" * 20000, "Ann", "ann", "😀", "\u202e", "<b>", "\"'&"]
FIELD_NAMES = ["out", "new_out", "hand_id", "submission", "entry", "version", "player",
               "variant", "shown_variant", "mode", "target", "dealer", "blank_cards",
               "blank_value", "wild_swap", "restore", "deleted", "csrf_token"]

#: GET routes, with the query parameters each reads.
GET_ROUTES = {
    "/": ["deleted"], "/games/new": ["variant", "player", "player", "mode", "target",
                                     "dealer", "shown_variant", "blank_cards", "wild_swap"],
    "/games/{g}": ["restore"], "/games/{g}/hands": ["restore"],
    "/games/{g}/hands/new": ["out", "new_out", "pts-1", "c-1-red-7", "cards-1"],
    "/games/{g}/hands/{h}/edit": ["out", "new_out", "pts-0", "c-2-wild", "cards-2"],
    "/games/{g}/end": [], "/games/{g}/delete": [], "/games/{g}/hands/{h}/delete": [],
}
#: Fields and parameters that hold an id or a seat.
ID_FIELDS = {"deleted", "restore", "out", "new_out", "hand_id", "dealer"}
POST_ROUTES = ["/games", "/games/new", "/games/{g}/play-on", "/games/{g}/end",
               "/games/{g}/reopen", "/games/{g}/rematch", "/games/{g}/delete",
               "/games/{g}/restore", "/games/{g}/hands", "/games/{g}/hands/review",
               "/games/{g}/hands/preview", "/games/{g}/hands/switch",
               "/games/{g}/hands/draft/discard", "/games/{g}/hands/undo",
               "/games/{g}/hands/{h}", "/games/{g}/hands/{h}/review",
               "/games/{g}/hands/{h}/delete", "/games/{g}/hands/{h}/restore"]
GAME_POSTS = ["play-on", "end", "reopen", "rematch", "delete", "restore"]

seats = st.sampled_from(["0", "1", "2", "3", "4", "9", "-1", "99999999999999999999", "x", ""])
hand_keys = st.one_of(
    st.builds(lambda s, c: f"c-{s}-{c}", seats,
              st.one_of(st.sampled_from(CARDS), st.sampled_from(
                  ["purple-7", "RED-7", "red-7 ", "r7", "", "-", "wild-draw9", "blank"]))),
    st.builds(lambda s: f"pts-{s}", seats),
    st.builds(lambda s: f"cards-{s}", seats),
)
keys = st.one_of(st.sampled_from(FIELD_NAMES), hand_keys, st.text(max_size=12))
values = st.one_of(st.sampled_from(JUNK_VALUES), st.integers(-3, 300).map(str),
                   st.text(max_size=30))
bodies = st.lists(st.tuples(keys, values), max_size=8)


class Table:
    """One phone on a new database, taking random steps; ``TableActions`` does the reading."""

    def __init__(self, actions: Any, data: st.DataObject):
        self.t = actions
        self.client = actions.client
        self.data = data
        self.token = actions.token()
        self._stored: tuple[list[tuple[int, bool]], list[tuple[int, int, bool]]] | None = None

    def draw(self, strategy: st.SearchStrategy[Any]) -> Any:
        return self.data.draw(strategy)

    # -- requests, each checked -------------------------------------------------------------

    def get(self, url: str) -> Any:
        return self.checked("GET", url)

    def checked(self, method: str, url: str, **kwargs: Any) -> Any:
        """One request; a 5xx, or an exception out of the app (a 500 when served), fails."""
        try:
            response = self.client.open(url, method=method, **kwargs)
        except Exception as exc:
            raise AssertionError(f"{method} {url!r} {kwargs.get('data')!r} raised "
                                 f"{type(exc).__name__}: {exc}") from exc
        assert response.status_code < 500, \
            f"{method} {url!r} {kwargs.get('data')!r}: {response.status_code}"
        return response

    def post(self, url: str, pairs: Pairs) -> Any:
        """POST with the session's token (as a field, or as htmx's header) and ``pairs``."""
        as_header = self.draw(st.booleans())
        sent = [(k, v) for k, v in pairs if k != "csrf_token"]
        headers = {"X-CSRF-Token": self.token} if as_header else {}
        if not as_header:
            sent.insert(0, ("csrf_token", self.token))
        self._stored = None
        return self.checked("POST", url, data=MultiDict(sent), headers=headers)

    def submit(self, form: Form, button: tuple[str, str] | None = None) -> Any:
        """Send a served form, sometimes altered: a field dropped, changed or added."""
        return self.post(form.action, self.mutate(form.pairs(button)))

    def mutate(self, pairs: Pairs) -> Pairs:
        how = self.draw(st.sampled_from(["as served"] * 5 + ["drop", "change", "add"]))
        if how == "as served" or not pairs:
            return pairs if how == "as served" else pairs + self.draw(bodies)
        i = self.draw(st.integers(0, len(pairs) - 1))
        if how == "drop":
            return pairs[:i] + pairs[i + 1:]
        if how == "change":
            return pairs[:i] + [(pairs[i][0], self.draw(values))] + pairs[i + 1:]
        return pairs + self.draw(bodies)

    # -- what is stored ---------------------------------------------------------------------

    def stored(self) -> tuple[list[tuple[int, bool]], list[tuple[int, int, bool]]]:
        """Games (id, live) and hands (game, id, live) as stored; read again after a POST."""
        if self._stored is None:
            self._stored = (
                [(r[0], bool(r[1])) for r in self.t.rows(
                    "select id, deleted_at is null from games order by id")],
                [(r[0], r[1], bool(r[2])) for r in self.t.rows(
                    "select game_id, id, deleted_at is null from hands order by id")])
        return self._stored

    def games(self, live: bool = False) -> list[int]:
        return [g for g, alive in self.stored()[0] if alive or not live]

    def hands(self, deleted: bool | None = None) -> list[tuple[int, int]]:
        return [(g, h) for g, h, alive in self.stored()[1] if deleted is None or alive != deleted]

    def an_id(self, known: Sequence[int]) -> str:
        """A real id, or junk: past SQLite's integers, zero, negative, not a number."""
        choices = [st.sampled_from(HUGE_IDS), st.sampled_from(JUNK_IDS),
                   st.integers(-3, 40).map(str)]
        if known:
            choices.insert(0, st.sampled_from(list(known)).map(str))
        return str(self.draw(st.one_of(*choices)))

    def url(self, template: str) -> str:
        hands = self.hands()
        game = self.an_id(self.games())
        hand = self.an_id([h for g, h in hands if str(g) == game] or [h for _, h in hands])
        return template.format(g=urllib.parse.quote(game, safe=""),
                               h=urllib.parse.quote(hand, safe=""))

    def a_value(self, id_like: bool) -> str:
        """A field's value: for an id or a seat, mostly ids (real and junk); else anything."""
        if id_like and self.draw(st.integers(0, 3)):
            return self.an_id([*self.games(), *(h for _, h in self.hands())])
        return str(self.draw(values))

    def query(self, names: Sequence[str]) -> str:
        """A query string: some of the route's own parameters, sometimes others."""
        pairs = [(n, self.a_value(n in ID_FIELDS)) for n in names if self.draw(st.booleans())]
        pairs += self.draw(st.lists(st.tuples(keys, values), max_size=2))
        return "?" + urllib.parse.urlencode(pairs) if pairs else ""

    def fields(self) -> Pairs:
        """A form body: fields hand forms and game forms read, with odd values, and others."""
        pairs = [(n, self.a_value(n in ID_FIELDS)) for n in FIELD_NAMES if n != "csrf_token"
                 and self.draw(st.integers(0, 3)) >= (2 if n == "hand_id" else 3)]
        return pairs + self.draw(st.lists(st.tuples(hand_keys, values), max_size=4)) \
            + self.draw(bodies)

    # -- steps ------------------------------------------------------------------------------

    def random_get(self) -> None:
        route = self.draw(st.sampled_from(list(GET_ROUTES)))
        self.get(self.url(route) + self.query(GET_ROUTES[route]))

    def random_post(self) -> None:
        route = self.draw(st.sampled_from(POST_ROUTES))
        self.post(self.url(route) + self.query(["out", "restore", "deleted"]), self.fields())

    def new_game(self) -> None:
        """The new-game form as served, filled in; most often right, else with one bad part."""
        variant = self.draw(st.sampled_from(VARIANTS + ["classic"] * 3 + ["", "nope"]))
        page = self.get(f"/games/new?variant={urllib.parse.quote(variant)}")
        form = find_form(page.get_data(as_text=True), form_id="new-game")
        bad = self.draw(st.sampled_from([None, None, None, "names", "target", "blanks"]))
        names = ["Ann", "Bob", "Cy", "Dee", "Eve"][:self.draw(st.integers(2, 5))]
        if bad == "names":
            names = self.draw(st.sampled_from([
                ["Ann", "ann"], ["Ann", ""], ["", "Bob"], ["x" * 41, "Bob"], ["A\x00n", "\u202eB"],
                ["Ann"], ["<b>", "&amp;", "\"'"], ["😀", "  Bob  "], ["Ann"] * 11]))
        form.fill_all("player", names[:len([n for n in form.names() if n == "player"])])
        modes = [c.value for c in form.controls if c.name == "mode"]
        form.fill("mode", self.draw(st.sampled_from(modes)))
        form.fill("target", self.draw(st.sampled_from(
            ["0", "-5", "abc", "1.5", str(2**70), "100001"] if bad == "target"
            else ["", "1", "30", "50", "100", "200"])))
        if bad == "blanks" and "blank_cards" in form.names():
            form.fill("blank_cards", self.draw(st.sampled_from(["1", "2", "4", "5", "x", "-1"])))
            form.fill("blank_value", self.draw(st.sampled_from(["0", "50", "10001", "", "y"])))
        self.submit(form)

    def record(self) -> None:
        """A hand through the real pages: who went out, the picker, review, save."""
        live = self.games(live=True)
        if not live:
            return self.new_game()
        game = self.draw(st.sampled_from(live))
        for _ in range(self.draw(st.integers(1, 3))):
            self.enter(f"/games/{game}/hands/new", f"/games/{game}/hands/new?out=")

    def edit(self) -> None:
        hands = self.hands(deleted=False)
        if not hands:
            return self.record()
        game, hand = self.draw(st.sampled_from(hands))
        base = f"/games/{game}/hands/{hand}/edit"
        self.enter(base, base + "?out=")

    def enter(self, first: str, with_out: str) -> None:
        page = self.get(first)
        if page.status_code != 200:
            return
        text = page.get_data(as_text=True)
        if 'id="hand-form"' not in text or self.draw(st.booleans()):
            # Who went out: a tally's buttons post to review; a scored game's open the picker.
            buttons = _button_values(text, "out")
            out = self.draw(st.sampled_from(buttons) if buttons else st.sampled_from(
                ["0", "1", "2", "5", "-1", "x", str(2**70)]))
            posting = [f for f in forms(text) if f.method == "post"
                       and "out-buttons" in f.attrs.get("class", "")]
            if posting:
                return self.review_and_save(self.submit(posting[0], ("out", out)))
            page = self.get(with_out + urllib.parse.quote(out))
            if page.status_code != 200:
                return
            text = page.get_data(as_text=True)
        picker = [f for f in forms(text) if f.attrs.get("id") == "hand-form"]
        if not picker:
            return
        form = picker[0].clear(ENTRY_PREFIXES)
        names = form.names()
        # The deck's cards, as the picker names them (its cells, or its grid's buttons).
        deck = sorted({n.split("-", 2)[2] for n in names if n.startswith("c-")}
                      | set(re.findall(r'data-card="([^"]+)"', text))) or CARDS
        for seat in [n[4:] for n in names if n.startswith("pts-")]:
            picked = st.lists(st.sampled_from(deck), min_size=1, max_size=4)
            if self.draw(st.booleans()):
                form.fill(f"pts-{seat}", str(self.draw(st.integers(0, 120))))
            elif f"cards-{seat}" in names:  # one list of cards per opponent
                form.fill(f"cards-{seat}", " ".join(self.draw(picked)))
            else:  # a count per card
                for card, count in Counter(self.draw(picked)).items():
                    if f"c-{seat}-{card}" in names:
                        form.fill(f"c-{seat}-{card}", str(count))
        step = self.draw(st.sampled_from(["review"] * 6 + ["preview", "switch", "discard"]))
        if step == "review":
            return self.review_and_save(self.submit(form))
        if step == "preview":
            self.post(form.action.rsplit("/hands", 1)[0] + "/hands/preview",
                      self.mutate(form.pairs()))
        elif step == "switch":
            others = _button_values(text, "new_out")
            if others:
                self.post(form.action.rsplit("/hands", 1)[0] + "/hands/switch",
                          self.mutate(form.pairs(("new_out", self.draw(st.sampled_from(others))))))
        else:
            discard = [f for f in forms(text) if f.action.endswith("/draft/discard")]
            if discard:
                self.submit(discard[0])

    def review_and_save(self, review: Any) -> None:
        if review.status_code != 200:
            return
        text = review.get_data(as_text=True)
        saves = [f for f in forms(text) if f.method == "post" and _fullmatch(SAVE_ACTION, f.action)]
        if not saves:
            return
        for _ in range(self.draw(st.sampled_from([1, 1, 1, 2]))):  # a double tap, sometimes
            self.submit(saves[0])

    def scoreboard_form(self) -> None:
        """Press a button of a scoreboard: undo, restore, rematch, play on, reopen."""
        games = self.games()
        if not games:
            return self.new_game()
        game = self.draw(st.sampled_from(games))
        # After a deletion the scoreboard offers to restore the hand (?restore=<hand id>).
        gone = [h for g, h in self.hands(deleted=True) if g == game]
        restore = self.draw(st.sampled_from(["", "?restore="]))
        restore += self.an_id(gone) if restore else ""
        page = self.get(f"/games/{game}{restore}")
        posting = [f for f in forms(page.get_data(as_text=True)) if f.method == "post"]
        if posting:
            self.submit(self.draw(st.sampled_from(posting)))

    def hand_change(self) -> None:
        """Delete a live hand (through its confirm page) or restore a deleted one."""
        deleted = self.draw(st.booleans())
        hands = self.hands(deleted=deleted)
        if not hands:
            return
        game, hand = self.draw(st.sampled_from(hands))
        if deleted:
            self.post(f"/games/{game}/hands/{hand}/restore", [])
        else:
            page = self.get(f"/games/{game}/hands/{hand}/delete")
            posting = [f for f in forms(page.get_data(as_text=True)) if f.method == "post"]
            if posting:
                self.submit(posting[0])

    def game_change(self) -> None:
        """End, reopen, play on, rematch, delete or restore a game: mostly a real one, through
        the button its page offers (or, when none is offered, the bare POST); else junk."""
        action = self.draw(st.sampled_from(GAME_POSTS))
        games = self.games()
        if not games or not self.draw(st.integers(0, 3)):
            game = urllib.parse.quote(self.an_id(games), safe="")
            self.post(f"/games/{game}/{action}", self.draw(st.one_of(st.just([]), bodies)))
            return
        game = self.draw(st.sampled_from(games))
        page = {"end": f"/games/{game}/end", "delete": f"/games/{game}/delete",
                "restore": f"/?deleted={game}"}.get(action, f"/games/{game}")
        target = f"/games/{game}/{action}"
        offered = [f for f in forms(self.get(page).get_data(as_text=True))
                   if f.method == "post" and f.action == target]
        if offered:
            self.submit(offered[0])
        else:
            self.post(target, [])

    def seed(self) -> None:
        """Something to aim at: a game with a hand (through the served forms), a tally."""
        game = self.t.create_game(["Ann", "Bob", "Cy"])
        picker = find_form(self.get(f"/games/{game}/hands/new?out=0").get_data(as_text=True),
                           form_id="hand-form").clear(ENTRY_PREFIXES)
        for name, value in self.t.hand_fields(0, {1: 5, 2: "red-7"}).items():
            if name != "out":
                picker.fill(name, value)
        review = self.client.post(picker.action, data=MultiDict(picker.pairs()))
        save = find_form(review.get_data(as_text=True), action=SAVE_ACTION)
        assert self.client.post(save.action, data=MultiDict(save.pairs())).status_code == 303
        self.t.create_game(["Ann", "Bob"], "one")

    # -- the invariant ----------------------------------------------------------------------

    def every_game_opens(self) -> None:
        home = self.client.get("/")
        assert home.status_code == 200, f"the home page: {home.status_code}"
        for game in self.games():
            if game in self.games(live=True):
                for url in (f"/games/{game}", f"/games/{game}/hands"):
                    page = self.client.get(url)
                    assert page.status_code == 200, f"{url}: {page.status_code}"
            else:
                page = self.client.get(f"/?deleted={game}")
                assert page.status_code == 200, f"/?deleted={game}: {page.status_code}"


def _button_values(page: str, name: str) -> list[str]:
    return re.findall(rf'<button[^>]*\sname="{name}"\s+value="([^"]*)"', page)


def _fullmatch(pattern: str, text: str) -> bool:
    return re.fullmatch(pattern, text) is not None


STEPS = {
    "new game": Table.new_game, "record": Table.record, "edit": Table.edit,
    "scoreboard": Table.scoreboard_form, "hand change": Table.hand_change,
    "game change": Table.game_change, "get": Table.random_get, "post": Table.random_post,
}


@pytest.fixture
def fresh_table(app, table, data_dir: Path):
    """Make a ``TableActions`` over a new app and database, as many times as asked."""

    def make() -> Any:
        folder = data_dir / "fuzz"
        shutil.rmtree(folder, ignore_errors=True)  # the last example's database
        folder.mkdir()
        fresh = create_app({"TESTING": True, "DATABASE": str(folder / "fuzz.sqlite3"),
                            "SECRET_KEY": "fuzz-secret"})
        fresh.jinja_env.bytecode_cache = app.jinja_env.bytecode_cache
        return type(table)(fresh.test_client())

    return make


#: No shrinking: a failure names the request that failed (and the draws before it), and
#: shrinking a run of requests can take minutes. Each test runs its @given function itself
#: (the pytest item is a plain test): a new app per example needs no function-scoped
#: fixture inside Hypothesis, and Hypothesis' pytest plugin then does not import libcst to
#: offer a patch on failure, whose DeprecationWarning (filterwarnings = error) would turn
#: the failure into an INTERNALERROR.
FUZZ = settings(deadline=None, database=None,
                phases=[Phase.explicit, Phase.reuse, Phase.generate],
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def test_random_requests_to_every_route_never_fail(fresh_table):
    @settings(FUZZ, max_examples=60)
    @given(data=st.data())
    def fuzz(data: st.DataObject) -> None:
        table = Table(fresh_table(), data)
        table.seed()
        for _ in range(data.draw(st.integers(1, 10))):
            step = data.draw(st.sampled_from([Table.random_get, Table.random_post,
                                              Table.game_change, Table.hand_change]))
            step(table)
        table.every_game_opens()

    fuzz()


def test_random_table_sessions_keep_every_game_readable(fresh_table):
    weights = ["new game", *["record"] * 6, "edit", "edit", "scoreboard", "scoreboard",
               "hand change", "game change", "game change", "get", "post"]

    @settings(FUZZ, max_examples=60)
    @given(data=st.data())
    def fuzz(data: st.DataObject) -> None:
        table = Table(fresh_table(), data)
        for _ in range(data.draw(st.integers(1, 15))):
            STEPS[data.draw(st.sampled_from(weights))](table)
        table.every_game_opens()

    fuzz()
