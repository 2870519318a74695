"""Fixtures for the app tests: a fresh app over a temporary SQLite file, and table actions.

Modelled on flaskr's tests: ``app``, ``client`` and ``runner`` fixtures, and an actions
class (flaskr's ``AuthActions``) for the steps most tests share: reading the CSRF token
off a page, starting a game, recording a hand through review and save, and reading
back what a page shows or the database holds. The helpers live on the class, so test
modules need no import from this file.
"""

from __future__ import annotations

import html
import os
import re
import tempfile
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import jinja2
import pytest
import sqlite_utils
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


class _PageText(HTMLParser):
    """Collects a page's visible text (script and style left out)."""

    INLINE = frozenset({"a", "abbr", "b", "bdi", "code", "em", "i", "label", "output",
                        "small", "span", "strong"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "template"):
            self._hidden += 1
        elif tag not in self.INLINE:
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "template"):
            self._hidden = max(0, self._hidden - 1)
        elif tag not in self.INLINE:
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


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
        found = re.search(r'"X-CSRF-Token": "([^"]+)"', self.html(self.client.get(url)))
        assert found, f"no CSRF token on {url}"
        self._token = found.group(1)
        return self._token

    def post(self, url: str, data: Mapping[str, Any] | None = None, **kwargs: Any) -> TestResponse:
        """POST a form with the session's CSRF token, as the app's own forms do."""
        # The token lasts as long as the session: read it off a page once.
        token = self._token or self.token()
        return self.client.post(url, data={"csrf_token": token, **(data or {})}, **kwargs)

    def new_game_form(self, players: Sequence[str] = ("Ann", "Bob", "Cy"),
                      variant: str = "classic", **fields: Any) -> dict[str, Any]:
        """A filled new-game form, with the token and submission id the page gave."""
        form = self.client.get(f"/games/new?variant={variant}")
        # What a browser sends untouched: hidden fields, and classic's Wild Swap box (checked).
        return {**dict(self.hidden_fields(form)), **({"wild_swap": "1"} if variant == "classic"
                                                     else {}),
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
        """The entry's key and game version, as the picker page for ``out`` carries them."""
        url = (f"/games/{game_id}/hands/{hand_id}/edit?out={out}" if hand_id
               else f"/games/{game_id}/hands/new?out={out}")
        page = self.html(self.client.get(url))
        return {name: html.unescape(value) for name, value in re.findall(
            r'<input type="hidden" name="(entry|version)" value="([^"]*)">', page)}

    def undo(self, game_id: int) -> TestResponse:
        """Press "Undo last hand" on the scoreboard."""
        return self.submit(self.scoreboard(game_id), f"/games/{game_id}/hands/undo")

    def save(self, review: TestResponse) -> TestResponse:
        """Press Save on a review page: its form, its hidden fields, as a browser sends them."""
        assert review.status_code == 200, self.text(review)
        action = re.search(r'<form method="post" action="([^"]+)" class="actions column">',
                           self.html(review))
        assert action, "no save form on the review page"
        return self.client.post(action.group(1), data=MultiDict(self.hidden_fields(review)))

    def record(self, game_id: int, out: int, held: Held | None = None,
               hand_id: int | None = None) -> TestResponse:
        """Review a hand (or an edit of one), then save it; returns the save's response."""
        return self.save(self.review(game_id, out, held, hand_id))

    def submit(self, response: TestResponse, action: str) -> TestResponse:
        """Press the button of the page's POST form to ``action``, sending its hidden fields."""
        found = re.search(rf'<form method="post" action="{re.escape(action)}"[^>]*>(.*?)</form>',
                          self.html(response), re.DOTALL)
        assert found, f"no form to {action} on the page"
        fields = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', found.group(1))
        return self.client.post(action, data=MultiDict(
            [(name, html.unescape(value)) for name, value in fields]))

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
    def text(response: TestResponse) -> str:
        """The words a reader sees on the page, as a browser lays them out: block elements
        apart, inline ones (a name in <bdi>, a link) run into the text around them."""
        reader = _PageText()
        reader.feed(response.get_data(as_text=True))
        reader.close()
        return " ".join("".join(reader.parts).split())

    @staticmethod
    def field(source: str, name: str) -> str:
        """The value of the first input called ``name`` in an HTML source."""
        found = re.search(rf'<input[^>]*\sname="{name}"[^>]*\svalue="([^"]*)"', source)
        assert found, f"no {name} field"
        return html.unescape(found.group(1))

    @classmethod
    def hidden_fields(cls, response: TestResponse) -> list[tuple[str, str]]:
        """The hidden inputs of a page, in order."""
        return [(name, html.unescape(value)) for name, value in
                re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">',
                           cls.html(response))]

    @classmethod
    def totals(cls, response: TestResponse) -> tuple[int, ...]:
        """The scoreboard's totals, seat by seat (the rows themselves are ranked)."""
        rows = cls.standings_rows(response)
        return tuple(int(re.search(r'<td class="num total">(-?\d+)</td>', rows[seat]).group(1))
                     for seat in sorted(rows))

    @classmethod
    def standings_rows(cls, response: TestResponse) -> dict[int, str]:
        """Each scoreboard row's HTML, by seat."""
        found = re.findall(r'<tr class="[^"]*" data-seat="(\d+)">(.*?)</tr>',
                           cls.html(response), re.DOTALL)
        return {int(seat): row for seat, row in found}

    @classmethod
    def badged(cls, response: TestResponse, badge: str) -> list[int]:
        """Seats whose scoreboard row carries ``badge`` ("deals next", "winner", "out"...)."""
        return [s for s, row in cls.standings_rows(response).items() if f">{badge}<" in row]

    @classmethod
    def next_dealer(cls, response: TestResponse) -> int:
        """The seat marked as dealing the next hand."""
        (seat,) = cls.badged(response, "deals next")
        return seat

    @classmethod
    def out_buttons(cls, response: TestResponse) -> list[str]:
        """Names on the "who went out?" buttons."""
        return [html.unescape(re.sub(r"<[^>]+>", "", n)) for n in re.findall(
            r'<button type="submit" name="out" value="\d+" class="big">(.*?)</button>',
            cls.html(response))]

    @classmethod
    def picker_seats(cls, response: TestResponse) -> list[int]:
        """Seats the card picker asks about."""
        return [int(s) for s in re.findall(r'<fieldset class="opponent[^"]*" id="seat-(\d+)"',
                                           cls.html(response))]

    @staticmethod
    def hand_fields(out: int, held: Held | None = None) -> dict[str, str]:
        """The picker's fields: who went out, then cards tapped or a typed total per seat."""
        data = {"out": str(out)}
        for seat, value in (held or {}).items():
            if isinstance(value, int):
                data[f"pts-{seat}"] = str(value)
            else:
                for card, n in Counter(Card.parse(t).text for t in value.split()).items():
                    data[f"c-{seat}-{card}"] = str(n)
        return data

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
