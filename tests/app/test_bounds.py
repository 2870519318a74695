"""Every request bounded (issue 18): random requests to every route, as a page, as htmx and
as JSON, never answer a 5xx nor more than MAX_ANSWER bytes; nor do replay links with random
actions naming random seats, nor the referee's checks asked of big tables whose hands
nobody knows.

The time a request takes is not asserted (it depends on the machine): the referee's search
is bounded by a budget counted in positions (engine/referee/scene.py, SEARCH_BUDGET), and
its answer's size, asserted here, follows from it. See the issue's figures in
docs/api.md ("Limits").
"""

from __future__ import annotations

import re
import urllib.parse
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

import engine
from companion.referee_checks import CHECKS, HOUSE_RULES, read_table
from engine.referee import Replay

#: The most a response may hold: a page or a JSON answer, whatever was asked.
MAX_ANSWER = 256 * 1024

VARIANTS = [v.name for v in engine.VARIANTS]
CARDS = sorted({c.text for v in engine.VARIANTS for c in v.deck_counts(v.default_options())})
NAMES = ["Ann", "Bea", "Cy", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim"]
LONG_NAMES = [f"{n}{'x' * (40 - len(n))}" for n in NAMES]
JUNK = ["", "0", "-1", "7", "99999", "x" * 3000, "é", "\x00", "😀", "\u202e", "<b>", "on",
        "clockwise", "counter-clockwise", "red", "wild", "1e3", "²"]
START = ("variant=classic;players=Ann,Bea;hands=red-7.wild/blue-3.green-5;discard=red-5;"
         "draw=yellow-1.yellow-2")
ACTION_KINDS = ["play", "draw", "pass", "uno", "catch", "choose", "color", "give", "lay",
                "jump", "lever", "discard", "done", "accept", "challenge", "nope"]
#: A referee check's fields, every name any check sends (hands-<i> up to ten seats).
TEN = read_table({"seats": ", ".join(NAMES)}, None)
FIELDS = sorted({n for c in CHECKS for f in c.fields for n in f.names(TEN)}
                | {"game", "variant", "seats", "house", "save", "submission", "p", "top",
                   "to_act", "fill", "draw", *(f"hand-{i}" for i in range(11))})

FUZZ = settings(deadline=None, database=None, derandomize=True,
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

seats_text = st.one_of(
    st.lists(st.sampled_from(NAMES), min_size=0, max_size=11).map(", ".join),
    st.lists(st.sampled_from(LONG_NAMES), min_size=2, max_size=11).map(", ".join),
    st.text(max_size=60),
)
cards_text = st.lists(st.sampled_from(CARDS + ["r7", "purple-2", "wd4"]), max_size=12).map(
    " ".join)
values = st.one_of(st.sampled_from(NAMES + LONG_NAMES + CARDS + JUNK), cards_text,
                   st.integers(-2, 120).map(str), st.text(max_size=20))


def _routes(app: Any) -> list[tuple[str, str]]:
    """Every route the app serves (but its static files), with each method it takes."""
    out = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            out.append((method, rule.rule))
    return out


class Phone:
    """The test's phone, keeper of a game of ten long names to aim at, sending what it is
    asked to. (One app for all the examples: these requests change little, and a new app
    each time would make the test ten times slower.)"""

    def __init__(self, table: Any) -> None:
        self.client = table.client
        # Deleting or leaving the game would leave the rest of the run nothing to aim at
        # (both are fuzzed with the game's other posts in test_fuzz.py).
        self.routes = [r for r in _routes(table.app) if not r[1].endswith(("/delete", "/forget"))
                       or r[0] == "GET"]
        self.token = table.token()
        self.game = str(table.create_game(LONG_NAMES[:10], "star-wars"))

    def send(self, method: str, url: str, pairs: list[tuple[str, str]],
             headers: dict[str, str]) -> Any:
        """One request: no 5xx (an exception out of the app fails too), and a small answer."""
        try:
            response = self.client.open(url, method=method, data=MultiDict(pairs),
                                        headers=headers)
        except Exception as exc:  # the test client raises what the app did not catch
            raise AssertionError(f"{method} {url!r} {pairs!r} raised {exc!r}") from exc
        assert response.status_code < 500, f"{method} {url!r} {pairs!r}: {response.status_code}"
        size = len(response.get_data())
        assert size <= MAX_ANSWER, f"{method} {url!r} {pairs!r}: {size} bytes"
        return response


def _headers(data: st.DataObject, token: str, method: str) -> dict[str, str]:
    headers = {}
    if data.draw(st.booleans()):
        headers["Accept"] = "application/json"
    if data.draw(st.booleans()):
        headers["HX-Request"] = "true"
    if method == "POST" and data.draw(st.booleans()):
        headers["X-CSRF-Token"] = data.draw(st.sampled_from([token, "é", "nope", ""]))
    return headers


def _url(data: st.DataObject, rule: str, game: str) -> str:
    def fill(match: re.Match[str]) -> str:
        name = match.group(1).split(":")[-1]
        if name == "slug":
            return data.draw(st.sampled_from([c.slug for c in CHECKS] + ["nope", "special/x"]))
        if name == "variant":
            return data.draw(st.sampled_from(VARIANTS + ["nope"]))
        if name == "token":
            return data.draw(st.sampled_from(["x", "a" * 200]))
        return data.draw(st.sampled_from([game, game, "0", "1", "2", "99", str(2**63)]))

    return re.sub(r"<([^>]+)>", fill, rule)


#: Positions to replay from: two seats, ten long names with a deck's worth in hand, junk.
POSITIONS = [
    START, START + ";to_act=9", "",
    engine.find_variant("star-wars").new(LONG_NAMES[:10], seed=3).position().reseeded(0).text,
]
#: Any action at all: a kind, then seats (real, past the table, negative), cards, colors.
junk_actions = st.builds(
    lambda kind, args: "_".join([kind, *args]), st.sampled_from(ACTION_KINDS),
    st.lists(st.one_of(st.integers(-2, 12).map(str),
                       st.sampled_from(CARDS + ["red", "blue", "x", "uno"])), max_size=3))


def _replay_link(data: st.DataObject) -> str:
    """A replay link: legal actions from a position, then (mostly) some of anything."""
    base = data.draw(st.sampled_from(POSITIONS))
    actions: list[str] = []
    if base:
        replay = Replay.parse(base) if "to_act=9" not in base else None
        for _ in range(data.draw(st.integers(0, 8)) if replay else 0):
            choices = replay.choices()  # type: ignore[union-attr]
            if not choices:
                break
            replay = replay.play(data.draw(st.sampled_from(choices)).action)  # type: ignore[union-attr]
        actions = [a.replace(" ", "_") for a in (replay.actions if replay else ())]
    actions += data.draw(st.lists(junk_actions, max_size=3))
    return base + (";actions=" + ",".join(actions) if actions else "")


def test_random_requests_to_every_route_are_bounded(table):
    phone = Phone(table)

    @settings(FUZZ, max_examples=120)
    @given(data=st.data())
    def fuzz(data: st.DataObject) -> None:
        method, rule = data.draw(st.sampled_from(phone.routes))
        url = _url(data, rule, phone.game)
        pairs = data.draw(st.lists(st.tuples(st.sampled_from(FIELDS), values), max_size=10))
        if data.draw(st.booleans()):
            pairs.append(("game", phone.game))
        if data.draw(st.booleans()):
            pairs.append(("seats", data.draw(seats_text)))
        pairs += [("house", h) for h, _ in HOUSE_RULES if data.draw(st.booleans())]
        if data.draw(st.booleans()):
            pairs.append(("p", _replay_link(data)))
        if method == "POST":
            pairs.insert(0, ("csrf_token", data.draw(st.sampled_from(
                [phone.token] * 4 + ["é", "", "x" * 100]))))
        if method == "GET":
            url += "?" + urllib.parse.urlencode(pairs)
            pairs = []
        phone.send(method, url, pairs, _headers(data, phone.token, method))

    fuzz()


def test_replay_links_with_random_actions_and_seats_are_bounded(table):
    phone = Phone(table)

    @settings(FUZZ, max_examples=60)
    @given(data=st.data())
    def fuzz(data: st.DataObject) -> None:
        query = {"p": _replay_link(data)}
        headers = {"Accept": "application/json"} if data.draw(st.booleans()) else {}
        answer = phone.send("GET", "/referee/replay?" + urllib.parse.urlencode(query), [],
                            headers)
        assert answer.status_code in (200, 400)

    fuzz()


def test_the_checks_at_big_tables_of_unknown_hands_are_bounded(table):
    # Ten seats of long names, every hand unknown, house rules on: the most open questions.
    phone = Phone(table)

    @settings(FUZZ, max_examples=40)
    @given(data=st.data())
    def fuzz(data: st.DataObject) -> None:
        check = data.draw(st.sampled_from(CHECKS))
        variant = data.draw(st.sampled_from([v for v in engine.VARIANTS if check.card is None
                                             or check.card in v.deck_counts(
                                                 v.default_options())]))
        deck = sorted(c.text for c in variant.deck_counts(variant.default_options()))
        seats = LONG_NAMES[:data.draw(st.integers(2, variant.max_players))]
        pairs = [("csrf_token", phone.token), ("variant", variant.name),
                 ("seats", ", ".join(seats))]
        pairs += [("house", h) for h, _ in HOUSE_RULES if data.draw(st.booleans())]
        for f in check.fields:
            if f.more and data.draw(st.integers(0, 4)) != 0:
                continue  # the details "More about the situation" asks: mostly not given
            if f.kind == "seat":
                pairs.append((f.name, data.draw(st.sampled_from(seats))))
            elif f.kind == "card":
                special = [c for c in deck if check.card and c == check.card.text]
                pairs.append((f.name, data.draw(st.sampled_from(special + deck))))
            elif f.kind == "color":
                pairs.append((f.name, data.draw(st.sampled_from(["red", "blue", "green"]))))
        headers = {"Accept": "application/json"} if data.draw(st.booleans()) else {}
        phone.send("POST", f"/referee/{check.slug}", pairs, headers)

    fuzz()
