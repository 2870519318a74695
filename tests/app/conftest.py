"""Fixtures for the app tests: a fresh app over a temporary SQLite file, and table actions.

Modelled on flaskr's tests: ``app``, ``client`` and ``runner`` fixtures, and an actions
class (flaskr's ``AuthActions``) for the steps most tests share: reading the CSRF token
off a page, starting a game, recording a hand through review and save, and reading
back what a page shows or the database holds. The helpers live on the class, so test
modules need no import from this file. Pages are read as parsed HTML (BeautifulSoup over
Python's html.parser, queried with CSS selectors), each page parsed once.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jinja2
import pytest
import sqlite_utils
from bs4 import BeautifulSoup, SoupStrainer
from bs4.element import PreformattedString, Tag
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from werkzeug.datastructures import MultiDict
from werkzeug.test import TestResponse

from companion import create_app
from engine import Card

#: What a hand holds, by seat: a typed total, or cards as text ("red-7 red-7 wild").
Held = Mapping[int, int | str]


class _CompiledTemplates(jinja2.BytecodeCache):
    """Templates compiled once per test run rather than once per app (it halves the run)."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


_TEMPLATES = _CompiledTemplates()


#: Where test databases go: memory-backed /dev/shm where there is one, since on a disk
#: the fsync of every commit made the whole run three times slower.
FAST_TMP = Path("/dev/shm")


@pytest.fixture
def data_dir(tmp_path: Path) -> Iterator[Path]:
    """A new, empty folder for the app's data, removed after the test."""
    if not (FAST_TMP.is_dir() and os.access(FAST_TMP, os.W_OK)):
        yield tmp_path
        return
    with tempfile.TemporaryDirectory(dir=FAST_TMP, prefix="uno-app-test-") as folder:
        yield Path(folder)


@pytest.fixture
def app(data_dir: Path) -> Flask:
    """The app over a new database file in a temporary folder."""
    app = create_app({
        "TESTING": True,
        "DATABASE": str(data_dir / "companion.sqlite3"),
        "SECRET_KEY": "test-secret",
    })
    app.jinja_env.bytecode_cache = _TEMPLATES
    return app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A browser without JavaScript (tests add htmx's headers where htmx would)."""
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    """The app's `flask` command line."""
    return app.test_cli_runner()


@pytest.fixture
def table(client: FlaskClient) -> TableActions:
    """Table actions on the test client."""
    return TableActions(client)


@pytest.fixture
def game_id(table: TableActions) -> int:
    """A classic game for Ann, Bob and Cy; Ann deals."""
    return table.create_game(["Ann", "Bob", "Cy"])


#: Elements a browser lays out inline: their text runs into the text around them.
INLINE = frozenset({"a", "abbr", "b", "bdi", "code", "em", "i", "label", "output", "small",
                    "span", "strong"})
#: Elements whose content is never shown as text.
UNSEEN = frozenset({"script", "style", "template"})
#: What is parsed of a page fetched only for its hidden fields (a picker is 30-50 KB of HTML).
HIDDEN_INPUTS = SoupStrainer("input", attrs={"type": "hidden"})


#: An inline stylesheet or script element, with what it holds.
INLINE_ASSETS = re.compile(r"<(style|script)\b[^>]*>.*?</\1>", re.DOTALL)


@lru_cache(maxsize=16)
def _parse(source: str) -> BeautifulSoup:
    """A page's HTML source parsed (once: the helpers that read the same page share it)."""
    return BeautifulSoup(source, features="html.parser")


def _seen_text(element: Tag, parts: list[str]) -> None:
    """Append the text a reader sees in ``element``, a space either side of each block."""
    for child in element.children:
        if isinstance(child, Tag):
            if child.name in INLINE:
                _seen_text(child, parts)
            elif child.name not in UNSEEN:
                parts.append(" ")
                _seen_text(child, parts)
                parts.append(" ")
        elif not isinstance(child, PreformattedString):  # comments, the doctype
            parts.append(child)


def _hidden_inputs(element: Tag) -> list[tuple[str, str]]:
    """The hidden inputs in ``element`` (a page or a form), in order, as a browser sends them."""
    return [(str(field["name"]), str(field.get("value", "")))
            for field in element.select("input[type=hidden][name]")]


def _saves_a_hand(action: str) -> bool:
    """Whether a form's action saves a hand: .../hands (a new one) or .../hands/<id>."""
    path, _, last = action.rpartition("/")
    return last == "hands" or (last.isdigit() and path.endswith("/hands"))


class TableActions:
    """The steps a table takes, through the same pages and forms a phone would use."""

    #: Tables whose rows a refused request must leave alone (drafts are kept on purpose).
    STORED = ("games", "players", "hands", "holdings")

    def __init__(self, client: FlaskClient):
        self.client = client
        self.app = client.application
        self._token: str | None = None

    # -- forms ---------------------------------------------------------------

    def token(self, url: str = "/") -> str:
        """The CSRF token a page carries (every page sets it for htmx on <body>)."""
        body = self.page(self.client.get(url)).body
        assert body is not None and body.has_attr("hx-headers"), f"no CSRF token on {url}"
        self._token = str(json.loads(str(body["hx-headers"]))["X-CSRF-Token"])
        return self._token

    def post(self, url: str, data: Mapping[str, Any] | None = None, **kwargs: Any) -> TestResponse:
        """POST a form with the session's CSRF token, as the app's own forms do."""
        # The token lasts as long as the session: read it off a page once.
        token = self._token or self.token()
        return self.client.post(url, data={"csrf_token": token, **(data or {})}, **kwargs)

    def new_game_form(self, players: Sequence[str] = ("Ann", "Bob", "Cy"),
                      variant: str = "classic", **fields: Any) -> dict[str, Any]:
        """A filled new-game form, with the token and submission id the page gave."""
        form = self._hidden_fields_at(f"/games/new?variant={variant}")
        # What a browser sends untouched: hidden fields, and classic's Wild Swap box (checked).
        return {**dict(form), **({"wild_swap": "1"} if variant == "classic" else {}),
                "variant": variant, "player": list(players), **fields}

    def create_game(self, players: Sequence[str] = ("Ann", "Bob", "Cy"),
                    variant: str = "classic", **fields: Any) -> int:
        """Start a game and return its id."""
        response = self.client.post("/games", data=self.new_game_form(players, variant, **fields))
        assert response.status_code == 303, self.text(response)
        return int(response.headers["Location"].rsplit("/", 1)[1])

    def review(self, game_id: int, out: int, held: Held | None = None,
               hand_id: int | None = None) -> TestResponse:
        """Send the picker's form to the review page (a new hand, or an edit of ``hand_id``)."""
        url = (f"/games/{game_id}/hands/{hand_id}/review" if hand_id
               else f"/games/{game_id}/hands/review")
        return self.post(url, {**self.entry_fields(game_id, out, hand_id),
                               **self.hand_fields(out, held), "hand_id": str(hand_id or 0)})

    def entry_fields(self, game_id: int, out: int, hand_id: int | None = None) -> dict[str, str]:
        """The entry's key, game version and hand number, as the picker page for ``out``
        carries them."""
        url = (f"/games/{game_id}/hands/{hand_id}/edit?out={out}" if hand_id
               else f"/games/{game_id}/hands/new?out={out}")
        return {name: value for name, value in self._hidden_fields_at(url)
                if name in ("entry", "version", "number")}

    def _hidden_fields_at(self, url: str) -> list[tuple[str, str]]:
        """The hidden inputs of the page at ``url``, fetched for them alone (so only they
        are parsed)."""
        page = BeautifulSoup(self.client.get(url).get_data(as_text=True),
                             features="html.parser", parse_only=HIDDEN_INPUTS)
        return _hidden_inputs(page)

    def undo(self, game_id: int) -> TestResponse:
        """Press "Undo last hand" on the scoreboard."""
        return self.submit(self.scoreboard(game_id), f"/games/{game_id}/hands/undo")

    def save(self, review: TestResponse) -> TestResponse:
        """Press Save on a review page: its form, its hidden fields, as a browser sends them."""
        assert review.status_code == 200, self.text(review)
        forms = [form for form in self.page(review).select("form.actions.column[method=post]")
                 if _saves_a_hand(str(form.get("action", "")))]
        assert forms, "no save form on the review page"
        return self.client.post(str(forms[0]["action"]), data=MultiDict(_hidden_inputs(forms[0])))

    def record(self, game_id: int, out: int, held: Held | None = None,
               hand_id: int | None = None) -> TestResponse:
        """Review a hand (or an edit of one), then save it; returns the save's response."""
        return self.save(self.review(game_id, out, held, hand_id))

    def submit(self, response: TestResponse, action: str) -> TestResponse:
        """Press the button of the page's POST form to ``action``, sending its hidden fields."""
        form = self.page(response).find("form", attrs={"method": "post", "action": action})
        assert isinstance(form, Tag), f"no form to {action} on the page"
        return self.client.post(action, data=MultiDict(_hidden_inputs(form)))

    # -- sharing -------------------------------------------------------------

    def share_links(self, game_id: int) -> dict[str, str]:
        """The game's share links as its share page shows them (this phone's role decides
        which), by role ("keeper", "viewer"): each the path a phone opens."""
        page = self.page(self.client.get(f"/games/{game_id}/share"))
        return {str(box["id"]).removeprefix("link-"): urlsplit(box.get_text().strip()).path
                for box in page.select("textarea.link-text[id^=link-]")}

    def join(self, link: str) -> TestResponse:
        """Open a share link on this phone (the game is then on its list)."""
        return self.client.get(link)

    def phone(self, client: FlaskClient | None = None, role: str | None = "keeper",
              game_id: int | None = None) -> TableActions:
        """Another phone (a new client of this app, or ``client``); with ``game_id``, given
        that game's ``role`` link by this phone."""
        other = TableActions(client or self.app.test_client())
        if game_id is not None and role is not None:
            response = other.join(self.share_links(game_id)[role])
            assert response.status_code == 200, self.text(response)
        return other

    def same_phone(self, client: FlaskClient) -> TableActions:
        """This phone's browser on another client (the app restarted): its cookies carried."""
        cookie = self.client.get_cookie("session")
        assert cookie is not None, "this phone has no session yet"
        client.set_cookie("session", cookie.value)
        return TableActions(client)

    def scoreboard(self, game_id: int) -> TestResponse:
        """The game's scoreboard page."""
        response = self.client.get(f"/games/{game_id}")
        assert response.status_code == 200, self.text(response)
        return response

    # -- reading pages -------------------------------------------------------

    @staticmethod
    def html(response: TestResponse) -> str:
        """The page's HTML source."""
        return response.get_data(as_text=True)

    @staticmethod
    def markup(response: TestResponse) -> str:
        """The page's own HTML: its source without the stylesheet and app.js a first page
        carries inline (companion/assets.py), whose words are not the page's."""
        return INLINE_ASSETS.sub("", response.get_data(as_text=True))

    @staticmethod
    def page(response: TestResponse | str) -> BeautifulSoup:
        """The page (a response, or its HTML source) parsed: read it with ``select`` and
        ``find``, and do not change it, since the helpers reading the same page share it."""
        return _parse(response if isinstance(response, str) else response.get_data(as_text=True))

    @classmethod
    def text(cls, response: TestResponse | Tag) -> str:
        """The words a reader sees on the page (or in one of its elements), as a browser lays
        them out: block elements apart, inline ones (a name in <bdi>, a link) run into the
        text around them."""
        parts: list[str] = []
        _seen_text(response if isinstance(response, Tag) else cls.page(response), parts)
        return " ".join("".join(parts).split())

    @classmethod
    def field(cls, source: str | TestResponse, name: str) -> str:
        """The value of the first input called ``name`` in an HTML source (or a response)."""
        found = cls.page(source).find("input", attrs={"name": name})
        assert isinstance(found, Tag), f"no {name} field"
        return str(found.get("value", ""))

    @classmethod
    def hidden_fields(cls, response: TestResponse) -> list[tuple[str, str]]:
        """The hidden inputs of a page, in order."""
        return _hidden_inputs(cls.page(response))

    @classmethod
    def links(cls, response: TestResponse) -> list[tuple[str, str]]:
        """The page's links: where each goes, and its text, in order."""
        return [(str(link["href"]), cls.text(link)) for link in cls.page(response).select("a[href]")]

    @classmethod
    def shows(cls, response: TestResponse, element: str) -> bool:
        """Whether the page holds an element equal to ``element``, given as HTML: the same
        tag, attributes and content, however the page's markup spells them."""
        wanted = BeautifulSoup(element, features="html.parser").find()
        assert isinstance(wanted, Tag), f"no element in {element!r}"
        return wanted in cls.page(response).find_all(wanted.name)

    @classmethod
    def _standings(cls, response: TestResponse) -> dict[int, Tag]:
        """The scoreboard's rows, by seat."""
        return {int(str(row["data-seat"])): row
                for row in cls.page(response).select("#standings tr[data-seat]")}

    @classmethod
    def totals(cls, response: TestResponse) -> tuple[int, ...]:
        """The scoreboard's totals, seat by seat (the rows themselves are ranked)."""
        rows = cls._standings(response)
        return tuple(int(rows[seat].select_one("td.total").get_text()) for seat in sorted(rows))

    @classmethod
    def standings_rows(cls, response: TestResponse) -> dict[int, str]:
        """Each scoreboard row's HTML, by seat."""
        return {seat: row.decode_contents() for seat, row in cls._standings(response).items()}

    @classmethod
    def badged(cls, response: TestResponse, badge: str) -> list[int]:
        """Seats whose scoreboard row carries ``badge`` ("deals next", "winner", "out"...)."""
        return [seat for seat, row in cls._standings(response).items()
                if any(cls.text(found) == badge for found in row.select(".badge"))]

    @classmethod
    def next_dealer(cls, response: TestResponse) -> int:
        """The seat marked as dealing the next hand."""
        (seat,) = cls.badged(response, "deals next")
        return seat

    @classmethod
    def out_buttons(cls, response: TestResponse) -> list[str]:
        """Names on the "who went out?" buttons."""
        return [cls.text(button) for button in cls.page(response).select("button[name=out]")]

    @classmethod
    def picker_seats(cls, response: TestResponse) -> list[int]:
        """Seats the card picker asks about."""
        return [int(str(seat["id"]).removeprefix("seat-"))
                for seat in cls.page(response).select("fieldset.opponent")]

    @staticmethod
    def hand_fields(out: int, held: Held | None = None) -> dict[str, str]:
        """The picker's fields: who went out, then cards tapped or a typed total per seat."""
        data = {"out": str(out)}
        for seat, value in (held or {}).items():
            if isinstance(value, int):
                data[f"pts-{seat}"] = str(value)
            else:
                data[f"cards-{seat}"] = " ".join(Card.parse(t).text for t in value.split())
        return data

    @classmethod
    def held(cls, source: str, seat: int) -> Counter[str]:
        """How many of each card the picker's list for ``seat`` holds, in an HTML source."""
        return Counter(cls.field(source, f"cards-{seat}").split())

    # -- reading the database ------------------------------------------------

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run a query on the app's database file, from outside the app."""
        db = sqlite_utils.Database(self.app.config["DATABASE"])
        try:
            return list(db.execute(sql, list(params)).fetchall())
        finally:
            db.close()

    def counts(self) -> dict[str, int]:
        """Rows in each stored table."""
        return {t: self.rows(f"select count(*) from {t}")[0][0] for t in self.STORED}

    def hand_ids(self, game_id: int) -> list[int]:
        """Ids of the game's live hands, oldest first."""
        return [r[0] for r in self.rows(
            "select id from hands where game_id = ? and deleted_at is null order by id",
            [game_id])]

    def snapshot(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table the app writes, drafts included."""
        return {t: self.rows(f"select * from {t} order by rowid")
                for t in (*self.STORED, "drafts")}

    def drafts(self, game_id: int) -> int:
        """Entries in progress kept for a game."""
        return int(self.rows("select count(*) from drafts where game_id = ?", [game_id])[0][0])
