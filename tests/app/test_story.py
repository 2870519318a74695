"""The table's story (companion/store/stats.py, companion/story.py): the records of one
phone's games against figures worked out by hand for a scripted set of games, one per
scoring mode; the score grid and the race chart read for what they show."""

from __future__ import annotations

import random

import pytest

import engine
from companion import store
from companion.db import open_db
from companion.schema import migrations
from engine import ScoringMode
from engine.jackpot import OPENING_RANKS

PHONE = "phone-a"

#: (variant, mode, target, players, hands): each hand is (who went out, {seat: held}).
GAMES = [
    # Ann +50, Ann +15, Bob +40, Ann +45: Ann 110 wins, Bob 40, Cy 0.
    ("classic", ScoringMode.STANDARD, 100, ("Ann", "Bob", "Cy"),
     [(0, {1: 30, 2: 20}), (0, {1: 10, 2: 5}), (1, {0: 40, 2: 0}), (0, {1: 25, 2: 20})]),
    # Charged: Ann 30, Cy 10; then Ann 25, Bob 5: Ann 55 ends it, Bob lowest (5) wins.
    ("classic", ScoringMode.LOWEST_WINS, 50, ("Ann", "Bob", "Cy"),
     [(1, {0: 30, 2: 10}), (2, {0: 25, 1: 5})]),
    # Ann & Cy against Bob & Dee: +70, Dee +30, Cy +35: Ann & Cy 105 win, 30 to them.
    ("classic", ScoringMode.PARTNERS, 100, ("Ann", "Bob", "Cy", "Dee"),
     [(0, {1: 30, 3: 40}), (3, {0: 10, 2: 20}), (2, {1: 20, 3: 15})]),
    # Charged: Bob 60, Cy 30; Ann 20, Cy 80 (Cy out at 110); Bob 50 (out at 110): Ann wins.
    ("classic", ScoringMode.CHALLENGE, 100, ("Ann", "Bob", "Cy"),
     [(0, {1: 60, 2: 30}), (1, {0: 20, 2: 80}), (0, {1: 50})]),
    # Wins: Ann, Ann, Bob, Ann: Ann has 3.
    ("one", ScoringMode.WIN_TALLY, 3, ("Ann", "Bob"), [(0, {}), (0, {}), (1, {}), (0, {})]),
]


def play(db, variant: str, mode: ScoringMode, target: int | None, players, hands,
         phone: str = PHONE) -> int:
    """Store a game kept by ``phone`` and record its hands as the app does."""
    kind = engine.find_variant(variant)
    game_id = store.create_game(db, store.GameSetup(
        variant=kind, mode=mode, target=target, options=kind.default_options(),
        players=tuple(players), dealer=0), keeper=phone)
    for out, held in hands:
        with store.changing(db, game_id) as game:
            store.record_hand(db, game, out, [store.Holding(s, (), p, True)
                                              for s, p in held.items()])
    return game_id


@pytest.fixture
def db():
    database = open_db(":memory:")
    migrations.apply(database)
    for game in GAMES:
        play(database, *game)
    return database


def test_each_players_records_are_the_figures_worked_out_by_hand(db):
    found = {p.name: p for p in store.stats.player_records(db, PHONE)}
    assert list(found) == ["Ann", "Bob", "Cy", "Dee"]  # most games first, then most won
    # name: games, won, hands won, points a hand won, biggest, left in hand, longest run
    assert {n: (p.games, p.won, p.hands_won, p.per_hand_won, p.biggest, p.left_per_hand,
                p.longest_run) for n, p in found.items()} == {
        # Won 110 (G1) + 70 (G3) + 140 (G4) in 6 point-scoring hands; held 40+55+10+20 in 5.
        "Ann": (5, 4, 9, 320 / 6, 90, 125 / 5, 2),
        # Won 40 (G1) + 40 (G2) + 100 (G4) in 3; held 65 + 5 + 50 + 110 in 3+1+2+2 hands.
        "Bob": (5, 1, 4, 60.0, 100, 230 / 8, 1),
        # Won 30 (G2) + 35 (G3); held 45 + 10 + 20 + 110 in 4+1+1+2 hands.
        "Cy": (4, 1, 2, 32.5, 35, 185 / 8, 1),
        "Dee": (1, 0, 1, 30.0, 30, 27.5, 1),
    }


def test_records_per_variant_count_only_that_variants_games(db):
    assert store.stats.variants_played(db, PHONE) == ["classic", "one"]
    one = {p.name: (p.games, p.won, p.hands_won, p.per_hand_won, p.longest_run)
           for p in store.stats.player_records(db, PHONE, "one")}
    # A tally counts no points: nothing to average.
    assert one == {"Ann": (1, 1, 3, None, 2), "Bob": (1, 0, 1, None, 1)}
    classic = {p.name: (p.games, p.won) for p in store.stats.player_records(db, PHONE, "classic")}
    assert classic == {"Ann": (4, 3), "Bob": (4, 1), "Cy": (4, 1), "Dee": (1, 0)}


def test_the_tables_records_and_head_to_head(db):
    table = store.stats.table_records(db, PHONE)
    # Game ids are 1..5 in GAMES' order.
    assert (table["biggest"].value, table["biggest"].name, table["biggest"].game_id,
            table["biggest"].hand) == (100, "Bob", 4, 2)
    assert (table["shortest"].value, table["shortest"].game_id) == (2, 2)
    assert (table["longest"].value, table["longest"].game_id) == (4, 5)  # the newest of two
    assert (table["closest"].value, table["closest"].game_id) == (5, 2)  # Bob 5, Cy 10
    versus = store.stats.head_to_head(db, PHONE, "ann", "BOB")  # names compared as the engine does
    assert versus == store.stats.HeadToHead(games=5, first_ahead=4, second_ahead=1,
                                            first_won=4, second_won=1)


def test_records_are_the_phones_own_and_follow_every_change(db):
    # Another phone's game counts on that phone only; a stranger has no records.
    play(db, "classic", ScoringMode.STANDARD, 50, ("Zed", "Ann"), [(0, {1: 60})], phone="phone-b")
    assert [p.name for p in store.stats.player_records(db, "phone-b")] == ["Zed", "Ann"]
    assert "Zed" not in {p.name for p in store.stats.player_records(db, PHONE)}
    assert store.stats.player_records(db, None) == []
    assert store.stats.table_records(db, "nobody") == {}
    # A game in progress counts once it is over; a deleted one no more; an edit is followed.
    game_id = play(db, "classic", ScoringMode.STANDARD, 100, ("Ann", "Eve"), [(1, {0: 60})])
    assert "Eve" not in {p.name for p in store.stats.player_records(db, PHONE)}
    with store.changing(db, game_id) as game:
        store.record_hand(db, game, 1, [store.Holding(0, (), 70, True)])
    eve = {p.name: p for p in store.stats.player_records(db, PHONE)}["Eve"]
    assert (eve.games, eve.won, eve.biggest) == (1, 1, 70)
    with store.changing(db, game_id) as game:
        hand = store.hand_numbered(db, game, 2)
        assert hand is not None
        store.update_hand(db, game, hand, 1, [store.Holding(0, (), 90, True)])
    eve = {p.name: p for p in store.stats.player_records(db, PHONE)}["Eve"]
    assert eve.biggest == 90 and store.stats.table_records(db, PHONE)["biggest"].value == 100
    with store.changing(db, game_id) as game:
        store.set_game_deleted(db, game, True)
    assert "Eve" not in {p.name for p in store.stats.player_records(db, PHONE)}


def test_results_are_filled_in_for_games_finished_before_they_were_kept(db):
    db.execute("delete from player_results")
    db.execute("delete from game_results")
    assert store.stats.player_records(db, PHONE) == []
    store.stats.fill_results(db)
    assert [p.name for p in store.stats.player_records(db, PHONE)] == ["Ann", "Bob", "Cy", "Dee"]


def test_the_regulars_are_this_phones_names_most_frequent_first(db):
    play(db, "classic", ScoringMode.STANDARD, 500, ("dee", "Fay"), [], phone=PHONE)
    play(db, "classic", ScoringMode.STANDARD, 500, ("Gus", "Hal"), [], phone="phone-b")
    # Ann and Bob 5 games, Cy 4, Dee 2 (spelt as in the latest game), Fay 1.
    assert store.stats.regulars(db, PHONE) == ["Ann", "Bob", "Cy", "dee", "Fay"]
    assert store.stats.regulars(db, None) == []


def chart_value(svg, y: float) -> float:
    """The value at height ``y`` on the chart, read off its labelled axis (two ticks)."""
    ticks = [(float(t["y"]) - 4, int(t.text)) for t in svg.select("g.ink > text[text-anchor=end]")
             if t.text.isdigit()]
    (y0, v0), (y1, v1) = ticks[0], ticks[-1]
    return v0 + (y - y0) * (v1 - v0) / (y1 - y0)


def test_the_race_has_a_line_per_player_ending_at_each_total_and_the_target(table):
    game_id = table.create_game(["Ann", "Bob", "Cy"], target="100")
    for out, held in GAMES[0][4]:
        table.record(game_id, out, held)
    page = table.page(table.client.get(f"/games/{game_id}/story"))
    svg = page.select_one("svg.race")
    lines = svg.select("g.series")
    assert len(lines) == 3
    totals = {"Ann": 110, "Bob": 40, "Cy": 0}
    for line in lines:
        name, total = line.select_one("text.end-label").text.split()
        assert int(total) == totals[name]
        points = [tuple(map(float, p.split(","))) for p in line.polyline["points"].split()]
        assert len(points) == 5  # the start, then each of the 4 hands
        assert chart_value(svg, points[-1][1]) == pytest.approx(totals[name], abs=0.5)
        assert len(line.select(".mark")) == 5  # a marker on every point: told apart in grey
    target = svg.select_one("g.target")
    assert target.select_one("text").text == "Target 100"
    assert chart_value(svg, float(target.line["y1"])) == pytest.approx(100, abs=0.5)
    # The same figures as a picture to send: a standalone SVG with the standings.
    picture = table.client.get(f"/games/{game_id}/result.svg")
    assert picture.mimetype == "image/svg+xml"
    text = picture.get_data(as_text=True)
    assert 'xmlns="http://www.w3.org/2000/svg"' in text and "1. Ann: 110" in text
    assert "<script" not in text and "<style" not in text


def test_the_grid_shows_each_hand_who_went_out_the_dealer_and_the_totals(table):
    game_id = table.create_game(["Ann", "Bob", "Cy"], target="100")
    for number, (out, held) in enumerate(GAMES[0][4], 1):
        table.record(game_id, out, held)
        # Each change shown at once (a page is kept drawn only for one version of the game).
        shown = table.page(table.client.get(f"/games/{game_id}/story"))
        assert len(shown.select("#grid tbody tr[id^=grid-hand-]")) == number
    page = table.page(table.client.get(f"/games/{game_id}/story"))
    grid = page.select_one("table#grid")
    rows = grid.select("tbody tr[id^=grid-hand-]")
    assert len(rows) == 4
    cells = [[table.text(td) for td in row.select("td")] for row in rows]
    # Hand 3: Bob went out (+40); Ann dealt the first hand, so Cy deals the third.
    assert cells[2] == ["– 65", "★ +40 40", "◆ – 0"]  # the others score nothing
    assert cells[0][0] == "★ ◆ +50 50"
    assert [table.text(td) for td in grid.select("tfoot td")] == ["110 won", "40", "0"]
    assert "Target 100 reached: Ann wins" in table.text(grid.select_one("tr.target-row"))
    # The result to share: who won, in how many hands, the standings, the biggest hand.
    result = page.select_one("#result-text").text
    assert result.splitlines() == ["Ann won UNO (classic) in 4 hands.", "1. Ann: 110",
                                   "2. Bob: 40", "3. Cy: 0",
                                   "Biggest hand: Ann, 50 points (hand 1)."]
    # From the scoreboard, one tap.
    assert (f"/games/{game_id}/story" in
            [href for href, _ in table.links(table.scoreboard(game_id))])


@pytest.mark.parametrize("mode, players, target, hands, lead, marks", [
    # Lowest-wins: the lowest total is the one highlighted.
    ("lowest-wins", ["Ann", "Bob", "Cy"], "50", GAMES[1][4], ["Bob"], []),
    # Partners: each column says its team; the team that won both highlighted.
    ("partners", ["Ann", "Bob", "Cy", "Dee"], "100", GAMES[2][4], ["Ann", "Cy"],
     ["Team Ann & Cy", "Team Bob & Dee"]),
    # Challenge UNO: the eliminated marked, then out.
    ("challenge", ["Ann", "Bob", "Cy"], "100", GAMES[3][4], ["Ann"], ["out of the game", "out"]),
    # A tally: the wins.
    ("win-tally", ["Ann", "Bob"], "3", GAMES[4][4], ["Ann"], ["3 wins"]),
])
def test_the_grid_in_each_scoring_mode(table, mode, players, target, hands, lead, marks):
    game_id = table.create_game(players, mode=mode, target=target)
    for out, held in hands:
        table.record(game_id, out, held or None)
    page = table.page(table.client.get(f"/games/{game_id}/story"))
    grid = page.select_one("table#grid")
    names = [table.text(th).split("Team")[0].strip() for th in grid.select("thead th")[1:]]
    assert [names[i] for i, td in enumerate(grid.select("tfoot td"))
            if "leader" in td.get("class", [])] == lead
    shown = table.text(grid)
    for mark in marks:
        assert mark in shown
    assert len(page.select("svg.race g.series")) == len(players)


def test_the_new_game_form_offers_this_phones_regulars_a_tap_each(table, client):
    table.create_game(["Ann", "Bob", "Cy"])
    table.create_game(["Bob", "Dee"])
    page = table.page(client.get("/games/new"))
    # Most games first; as many: the latest game's first.
    assert [b["value"] for b in page.select("#regulars button")] == ["Bob", "Dee", "Ann", "Cy"]
    # A tap seats the name in the first empty seat, and it is offered no more.
    form = {**table.new_game_form(["Eve", "", ""]), "regular": "Bob"}
    page = table.page(table.post("/games/new", form))
    assert [i["value"] for i in page.select("input[name=player]")][:3] == ["Eve", "Bob", ""]
    assert [b["value"] for b in page.select("#regulars button")] == ["Dee", "Ann", "Cy"]
    # Another phone has its own memory; given a game's link, it is offered its players too.
    other = table.phone(role=None)
    assert not table.page(other.client.get("/games/new")).select("#regulars")
    shared = table.phone(role="viewer", game_id=1)
    assert [b["value"] for b in table.page(shared.client.get("/games/new")).select(
        "#regulars button")] == ["Ann", "Bob", "Cy"]


def test_the_records_page_shows_this_phones_figures(table, client):
    game_id = table.create_game(["Ann", "Bob", "Cy"], target="100")
    for out, held in GAMES[0][4]:
        table.record(game_id, out, held)
    page = table.page(client.get("/records"))
    rows = {table.text(r.th): [table.text(td) for td in r.select("td")]
            for r in page.select("#players tbody tr")}
    assert rows["Ann"] == ["1", "1", "3", "36.7", "50", "40.0", "2"]  # 110 / 3; held 40 once
    assert rows["Cy"] == ["1", "0", "0", "–", "–", "11.2", "0"]  # 45 in 4 hands
    assert "Biggest hand 50 points, Ann (hand 1" in table.text(page.select_one("#table-records"))
    page = table.page(client.get("/records?first=Ann&second=Bob"))
    assert "finished ahead 1 time, Bob 0" in table.text(page.select_one("#versus"))
    stranger = table.phone(role=None)
    assert table.page(stranger.client.get("/records")).select_one("#no-records")
    # Kept computed while nothing changed, and computed again when anything does: another
    # game over, then a game forgotten by this phone.
    other = table.create_game(["Ann", "Zoe"], target="50")
    table.record(other, 1, {0: 60})
    page = table.page(client.get("/records"))
    # Most games first (Ann 2), then most won (Zoe won hers).
    assert [table.text(r.th) for r in page.select("#players tbody tr")] == ["Ann", "Zoe", "Bob",
                                                                           "Cy"]
    table.submit(table.client.get(f"/games/{other}/forget"), f"/games/{other}/forget")
    page = table.page(client.get("/records"))
    assert [table.text(r.th) for r in page.select("#players tbody tr")] == ["Ann", "Bob", "Cy"]


def test_a_long_games_grid_and_race_come_a_page_at_a_time(table, app):
    game_id = table.create_game(["Ann", "Bob"], target="1000")
    db = open_db(app.config["DATABASE"])
    size = store.stats.GRID_HANDS
    for n in range(2 * size + 5):
        with store.changing(db, game_id) as game:
            store.record_hand(db, game, n % 2, [store.Holding(1 - n % 2, (), 10, True)])
    db.close()
    last = table.page(table.client.get(f"/games/{game_id}/story"))
    numbers = [int(r["id"].rsplit("-", 1)[1]) for r in last.select("#grid tbody tr[id]")]
    assert numbers == list(range(2 * size + 1, 2 * size + 6))
    # The race starts where the earlier hands left it: as many hands won each, 10 points each.
    for line in last.select("svg.race g.series"):
        points = line.polyline["points"].split()
        assert len(points) == 6
        assert chart_value(last.select_one("svg.race"), float(points[0].split(",")[1])) == \
            pytest.approx(size * 10, abs=1)
    first = table.page(table.client.get(last.select_one("a:-soup-contains('Earlier hands')")["href"]))
    assert len(first.select("#grid tbody tr[id]")) == size
    assert table.text(first.select_one(f"#grid-hand-{2 * size}")).split()[0] == str(2 * size)


def test_the_jackpots_outcomes_per_player_over_the_phones_games(db):

    kind = engine.find_variant("wild-jackpot")
    rng = random.Random(1)
    pulls = [(0, "left"), (0, "left"), (1, "discard"), (0, "everyone")]
    for phone in (PHONE, "phone-b"):
        game_id = store.create_game(db, store.GameSetup(
            variant=kind, mode=ScoringMode.STANDARD, target=500,
            options=kind.default_options(), players=("Ann", "Bob", "Cy"), dealer=0),
            keeper=phone)
        with store.changing(db, game_id) as game:
            store.write_rule_cards(db, game, 0, ["Sing", "Clap"], rng, device=phone, passed_round=True)
            for puller, outcome in pulls:
                store.pull_lever(db, game, engine.LeverCall(engine.LeverOutcome(outcome),
                                                            puller, 3, 1), rng, None)
            # A first card's call is not a pull of the lever: not counted.
            store.pull_lever(db, game, engine.LeverCall.first_card(
                OPENING_RANKS[-1], dealer=0, players=3), rng, None)
    found = store.stats.jackpot_outcomes(db, PHONE)
    assert {name: {o.value: n for o, n in counts.items() if n}
            for name, counts in found.items()} == {"Ann": {"left": 2, "everyone": 1},
                                                   "Bob": {"discard": 1}}
    assert store.stats.jackpot_outcomes(db, None) == {}


def test_names_are_escaped_in_the_grid_the_race_and_the_picture(table):
    game_id = table.create_game(["<b>Ann</b>", "Bob"], target="50")
    table.record(game_id, 0, {1: 60})
    page = table.client.get(f"/games/{game_id}/story").get_data(as_text=True)
    picture = table.client.get(f"/games/{game_id}/result.svg").get_data(as_text=True)
    for text in (page, picture):
        assert "<b>Ann" not in text and "&lt;b&gt;Ann" in text
