"""A game exported as JSON (and its standings as CSV) and imported back as a new game.

The round trip, in every variant: the imported game's scoreboard, history, rulings and
Wild Jackpot pages read exactly as the original's. An import refuses anything wrong
whole, with a 400, writing nothing. An export never carries a rule card's text the
exporting phone may not read.
"""

from __future__ import annotations

import csv
import io
import json
import random

import pytest

import engine
from engine import ALL_CARDS, LeverOutcome
from engine.jackpot import LEVER_OUTCOMES

PLAYERS = ("Ann", "Bob", "Cy")


@pytest.fixture(autouse=True)
def seeded_lever(app):
    app.config["JACKPOT_RANDOM"] = random.Random(5)


def cards_of(variant: type[engine.Game], n: int) -> str:
    """``n`` cards of the variant's deck, for a hand's holding (the picker's text)."""
    deck = variant.deck_counts(variant.default_options())
    return " ".join([c.text for c in ALL_CARDS if deck.get(c)][:n])


def play(table, variant: type[engine.Game]) -> int:
    """A game with hands of tapped cards and typed totals, a ruling and, where the
    variant has the lever, rule cards and pulls."""
    game_id = table.create_game(PLAYERS, variant.name)
    for out, held in ((0, {1: cards_of(variant, 3), 2: 7}), (1, {0: 12, 2: cards_of(variant, 1)})):
        if not variant.has_points():
            held = {}
        assert table.record(game_id, out, held).status_code == 303
    kept = table.post("/referee/next", {"game": str(game_id), "turn": "Ann",
                                        "card": "red-reverse", "save": "1",
                                        "submission": f"ruling-{game_id}"})
    assert kept.status_code == 303, table.text(kept)[:500]
    if variant.rule_cards:
        for seat, texts in enumerate([("Sing", "Hop"), ("Clap", "Bark"), ("Spin", "Wink")]):
            written = table.post(f"/games/{game_id}/jackpot/cards/{seat}", {"card": list(texts)})
            assert written.status_code == 303
        for puller in (0, 1, 2, 0):
            pulled = table.post(f"/games/{game_id}/jackpot/spins", {
                "puller": str(puller), "direction": "clockwise",
                "submission": f"pull-{game_id}-{puller}-{random.random()}"})
            assert pulled.status_code == 303
    return game_id


def import_text(table, text: str | bytes, *, upload: bool = False):
    """Import an export through the new-game page's form (a file, or the text pasted)."""
    data = ({"file": (io.BytesIO(text if isinstance(text, bytes) else text.encode()),
                      "game.json")} if upload else {"json": text})
    return table.post("/games/import", data,
                      content_type="multipart/form-data" if upload else None)


def seen(table, url: str) -> str:
    """A page's text, as a reader sees it (no ids, no links)."""
    page = table.client.get(url)
    assert page.status_code == 200, url
    return table.text(page)


def pages(game_id: int, variant: type[engine.Game]) -> list[str]:
    urls = [f"/games/{game_id}", f"/games/{game_id}/hands", f"/games/{game_id}/rulings"]
    if variant.rule_cards:
        urls += [f"/games/{game_id}/jackpot/history", f"/games/{game_id}/jackpot/cards",
                 f"/games/{game_id}/jackpot/cards/1"]
    return urls


@pytest.mark.parametrize("variant", engine.VARIANTS, ids=lambda v: v.name)
def test_a_game_comes_back_identical_in_every_variant(table, variant):
    game_id = play(table, variant)
    exported = table.client.get(f"/games/{game_id}/export.json")
    assert exported.status_code == 200
    assert "attachment" in exported.headers["Content-Disposition"]
    data = exported.get_json()
    assert data["withheld"] is None  # the only phone wrote every card: it reads them all

    imported = import_text(table, exported.get_data(as_text=True), upload=True)
    assert imported.status_code == 303, table.text(imported)[:600]
    copy = int(imported.headers["Location"].rsplit("/", 1)[1])
    assert copy != game_id
    for original, again in zip(pages(game_id, variant), pages(copy, variant)):
        assert seen(table, again) == seen(table, original), original
    assert table.totals(table.scoreboard(copy)) == table.totals(table.scoreboard(game_id))
    # Exported again, it is the same game.
    again = table.client.get(f"/games/{copy}/export.json").get_json()
    assert {**again, "exported_at": None} == {**data, "exported_at": None}

    rows = list(csv.reader(io.StringIO(
        table.client.get(f"/games/{copy}/standings.csv").get_data(as_text=True))))
    board = table.page(table.scoreboard(game_id)).select("#standings tbody tr")
    assert rows[0][:3] == ["place", "player", "points" if variant.has_points() else "wins"]
    assert [(r[0], r[1], r[2]) for r in rows[1:]] == [
        (table.text(tr.select_one("td.place")).lstrip("="), table.text(tr.select_one(".name")),
         table.text(tr.select_one("td.total"))) for tr in board]


def test_the_importing_phone_keeps_the_game_and_a_viewer_may_export(table):
    game_id = play(table, engine.find_variant("classic"))
    viewer = table.phone(role="viewer", game_id=game_id)
    exported = viewer.client.get(f"/games/{game_id}/export.json")
    assert exported.status_code == 200
    assert table.phone().client.get(f"/games/{game_id}/export.json").status_code == 404
    imported = import_text(viewer, exported.get_data(as_text=True))
    assert imported.status_code == 303, viewer.text(imported)[:600]
    copy = int(imported.headers["Location"].rsplit("/", 1)[1])
    assert viewer.rows("select role from access where game_id = ?", [copy]) == [("keeper",)]
    assert viewer.page(viewer.scoreboard(copy)).select_one("#watching") is None


class AlwaysLeft(random.Random):
    """A lever that always stops on "the player on your left" (shuffles still seeded)."""

    def randrange(self, *args: object, **kwargs: object) -> int:
        return LEVER_OUTCOMES.index(LeverOutcome.LEFT)


def test_an_export_carries_no_card_text_the_phone_may_not_read(table, app):
    game_id = play(table, engine.find_variant("wild-jackpot"))
    # Bob's own phone writes his cards anew: the scorekeeper's phone may not read them,
    # nor a card dealt to Bob that Bob has not seen.
    bob = table.phone(role="viewer", game_id=game_id)
    assert bob.post(f"/games/{game_id}/seat", {"seat": "1"}).status_code == 303
    assert table.post(f"/games/{game_id}/seats/1/answer", {"answer": "yes"}).status_code == 303
    assert bob.post(f"/games/{game_id}/jackpot/cards/1/tear-up").status_code == 303
    secret = "Bob's secret rule"
    assert bob.post(f"/games/{game_id}/jackpot/cards/1",
                    {"card": [secret, "Bark"]}).status_code == 303
    # A pull deals Bob (on Ann's left) a card: until Bob sees it, only his phone may.
    app.config["JACKPOT_RANDOM"] = AlwaysLeft(3)
    assert table.post(f"/games/{game_id}/jackpot/spins", {
        "puller": "0", "direction": "clockwise", "submission": "to-bob"}).status_code == 303
    text = table.client.get(f"/games/{game_id}/export.json").get_data(as_text=True)
    data = json.loads(text)
    assert secret not in text
    assert data["withheld"] and "text" in data["withheld"]
    assert [c["text"] for c in data["rule_cards"] if c["seat"] == 1] == [None, None]
    assert data["spins"][-1]["cards"] == [{"seat": 1, "text": None, "revealed": False}]
    # Bob's own phone may read his cards, so its export carries them.
    assert secret in bob.client.get(f"/games/{game_id}/export.json").get_data(as_text=True)
    # Imported, the cards are there without their text, readable by no phone.
    imported = import_text(table, text)
    assert imported.status_code == 303, table.text(imported)[:600]
    copy = int(imported.headers["Location"].rsplit("/", 1)[1])
    assert table.rows("select count(*) from rule_cards where game_id = ? and seat = 1",
                      [copy]) == [(2,)]
    assert "written on another phone" in seen(table, f"/games/{copy}/jackpot/cards/1")


def refused(table, text: str | bytes, said: str) -> None:
    before = table.snapshot()
    response = import_text(table, text)
    assert response.status_code == 400
    assert said in table.text(response), table.text(response)[:800]
    assert table.snapshot() == before, "a refused import wrote something"


def test_an_import_refuses_bad_input_whole(table):
    game_id = play(table, engine.find_variant("wild-jackpot"))
    good = table.client.get(f"/games/{game_id}/export.json").get_json()

    def changed(path: str, value: object) -> str:
        data = json.loads(json.dumps(good))
        *parents, last = path.split(".")
        at = data
        for key in parents:
            at = at[int(key)] if isinstance(at, list) else at[key]
        if isinstance(at, list):
            at[int(last)] = value
        else:
            at[last] = value
        return json.dumps(data)

    refused(table, "", "Choose an exported game's file")
    refused(table, "not json", "not JSON")
    refused(table, "[]", "the file: expected an object")
    refused(table, changed("format", "other"), "not a game exported")
    refused(table, changed("game.variant", "uno-flip"), "game:")
    refused(table, changed("game.mode", "golf"), "game:")
    refused(table, changed("game.players", ["Ann", "ann", "Cy"]), "same name")
    refused(table, changed("game.options.blank_cards", 9), "game.options")
    refused(table, changed("game.options.wild_swap", 1), "game.options.wild_swap")
    refused(table, changed("game.options.sneaky", True), "game.options.sneaky")
    refused(table, changed("hands.0.holdings.0.cards", "purple-12"), "is not a card")
    refused(table, changed("hands.0.holdings.1.points", -5), "holdings.points")
    refused(table, changed("hands.0.went_out", 7), "went_out")
    refused(table, changed("hands", [{"went_out": 0}] * 1_001), "hands: at most 1000")
    refused(table, changed("rule_cards.0.text", "x" * 1_000), "rule_cards[0].text")
    refused(table, changed("spins.0.outcome", "jackpot-for-me"), "spins[0]")
    refused(table, changed("spins.0.cards", [{"seat": 2, "text": "Hop", "revealed": True}] * 2),
            "spins[0].cards")
    refused(table, changed("rulings.0.verdict", "yes"), "rulings[0].verdict")
    refused(table, changed("game.ended", True), "cannot be imported")
    # Past the app's request limit: refused before it is read.
    too_big = table.post("/games/import", {"json": " " * (300 * 1024)})
    assert too_big.status_code == 413


def test_an_import_sent_twice_makes_one_game(table):
    game_id = play(table, engine.find_variant("classic"))
    text = table.client.get(f"/games/{game_id}/export.json").get_data(as_text=True)
    key = table.field(table.client.get("/games/new"), "submission")
    form = table.page(table.client.get("/games/new")).select_one("#import-form")
    assert form.select_one("input[name=submission]")["value"]
    first = table.post("/games/import", {"json": text, "submission": key})
    assert first.status_code == 303
    games = table.counts()["games"]
    again = table.post("/games/import", {"json": text, "submission": key})
    assert again.status_code == 409 and "Already imported" in table.text(again)
    other = table.post("/games/import", {"json": text.replace('"Cy"', '"Cyd"'),
                                         "submission": key})
    assert other.status_code == 409  # the key came back with another file: a page out of date
    assert table.counts()["games"] == games


def test_a_game_holds_at_most_a_thousand_hands_and_its_export_stays_small(table, app, client):
    # Nobody can pad a game for ever, and the longest game's export (compressed as it is
    # sent) stays far under the 256 KB any request may answer; it comes back whole.
    from companion.db import get_db
    from companion.store import MAX_GAME_HANDS
    game_id = table.create_game(target="100000")
    with app.app_context():
        db = get_db()
        with db.conn:
            for n in range(MAX_GAME_HANDS):
                hand = db.table("hands").insert({"game_id": game_id, "went_out": n % 3,
                                                 "created_at": "2026-11-26T12:00:00"}).last_rowid
                db.table("holdings").insert_all(
                    [{"hand_id": hand, "seat": s, "cards": "red-1 blue-2 green-9",
                      "points": 12, "typed": 0} for s in range(3) if s != n % 3])
    board = table.scoreboard(game_id)
    assert not table.page(board).select(f'a[href="/games/{game_id}/hands/new"]')
    response = client.get(f"/games/{game_id}/hands/new?out=0")
    assert response.status_code == 409
    assert "1,000 hands, the most one game keeps" in table.text(response)
    packed = client.get(f"/games/{game_id}/export.json", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert len(packed.data) < 64 * 1024
    text = client.get(f"/games/{game_id}/export.json").get_data(as_text=True)
    assert len(json.loads(text)["hands"]) == MAX_GAME_HANDS
    copy = import_text(table, text)
    assert copy.status_code == 303
    new_id = int(copy.headers["Location"].rsplit("/", 1)[1])
    assert table.totals(table.scoreboard(new_id)) == table.totals(board)
