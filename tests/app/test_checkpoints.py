"""The stored checkpoints of a game's standings (companion/store/checkpoints.py) always give what
scoring every hand from the first gives, whatever was added, changed, deleted, undone
or restored, in every scoring mode."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from companion import store
from companion.db import open_db
from companion.schema import migrations
from companion.store import checkpoints
from engine import HandOutcome, ScoringMode

#: (mode, seats, target): every scoring mode, the tally open-ended and to a target.
GAMES = [
    (ScoringMode.STANDARD, 3, 150),
    (ScoringMode.LOWEST_WINS, 3, 150),
    (ScoringMode.PARTNERS, 4, 150),
    (ScoringMode.CHALLENGE, 4, 100),
    (ScoringMode.WIN_TALLY, 3, None),
    (ScoringMode.WIN_TALLY, 3, 6),
]
ACTIONS = ["new", "new", "new", "edit", "delete", "undo", "restore", "play on", "end", "reopen"]


@pytest.fixture
def small_checkpoints(monkeypatch):
    # A checkpoint every 3 hands: short histories cross several of them.
    monkeypatch.setattr(checkpoints, "CHECKPOINT_EVERY", 3)


def new_db():
    db = open_db(":memory:")
    migrations.apply(db)
    return db


def random_holdings(rng: random.Random, game: store.GameRecord, went_out: int) -> list[store.Holding]:
    """What the opponents held, as the app would accept it (or now and then not)."""
    seats = (game.standings.scored_seats(went_out) if rng.random() > 0.1
             else range(len(game.players)))
    return [store.Holding(s, (), rng.choice([0, 5, 20, 45, 70]), True) for s in seats
            if s != went_out]


def act(db, rng: random.Random, game_id: int, action: str, deleted: list[int]) -> None:
    """One change, as a phone would make it; one the game refuses changes nothing."""
    try:
        with store.changing(db, game_id) as game:
            hands = store.history_page(db, game, 1, 10**6)
            if action == "new":
                out = rng.randrange(len(game.players))
                store.record_hand(db, game, out, random_holdings(rng, game, out))
            elif action == "edit" and hands:
                hand = store.load_hand(db, game, rng.choice(hands)[0].id)
                assert hand is not None
                out = rng.randrange(len(game.players))
                store.update_hand(db, game, hand, out, random_holdings(rng, game, out))
            elif action in ("delete", "undo") and hands:
                hand_id = hands[0][0].id if action == "undo" else rng.choice(hands)[0].id
                store.set_hand_deleted(db, game, hand_id, True)
                deleted.append(hand_id)
            elif action == "restore" and deleted:
                store.set_hand_deleted(db, game, deleted.pop(rng.randrange(len(deleted))), False)
            elif action == "play on":
                store.set_play_on(db, game)
            elif action in ("end", "reopen"):
                store.end_open_game(db, game, ended=action == "end")
    except (store.ConflictError, engine.ScoringError):
        pass


def rescored(db, game_id: int, upto: int | None = None
             ) -> tuple[engine.Standings, str | None, list[int]]:
    """The standings of every live hand (or the first ``upto``) scored from the first,
    straight from the rows."""
    game = db.execute("select mode, target from games where id = ?", [game_id]).fetchone()
    seats = db.execute("select count(*) from players where game_id = ?", [game_id]).fetchone()[0]
    standings = engine.new_standings(ScoringMode(game[0]), seats, game[1])
    ids = [r[0] for r in db.execute("select id from hands where game_id = ? and deleted_at "
                                    "is null order by id", [game_id])]
    for number, hand_id in enumerate(ids[:upto], 1):
        out = db.execute("select went_out from hands where id = ?", [hand_id]).fetchone()[0]
        held = dict(db.execute("select seat, points from holdings where hand_id = ?", [hand_id]))
        try:
            standings = engine.score_hand(standings, HandOutcome(out, held))
        except engine.ScoringError as exc:
            return standings, f"Hand {number} cannot be scored: {exc}", ids
    return standings, None, ids


def assert_as_rescored(db, game_id: int, cache: store.GameCache) -> None:
    expected, problem, ids = rescored(db, game_id)
    for game in (store.load_game(db, game_id), store.load_game(db, game_id, cache)):
        assert game is not None
        assert game.scored.to_dict() == expected.to_dict()
        assert game.problem == problem
        assert (game.hand_count, game.last_hand and game.last_hand.id) == (
            len(ids), ids[-1] if ids else None)
        assert game.next_dealer == expected.next_dealer(game.dealer)
    page = store.history_page(db, game, 1, 10**6)
    assert [h.id for h, _ in page] == ids[::-1]
    assert all(h.number == len(ids) - k for k, (h, _) in enumerate(page))
    for hand, score in page:
        assert score == expected.score_of(hand.number)
    # Pages of two: each scored from the checkpoint before it, the same.
    pages = -(-len(ids) // 2)
    assert [x for n in range(1, pages + 1) for x in store.history_page(db, game, n, 2)] == page
    for hand_id in {*ids[:2], *ids[-3:]}:
        hand = store.load_hand(db, game, hand_id)
        assert hand is not None and hand.number == ids.index(hand_id) + 1
        then, then_problem, _ = rescored(db, game_id, hand.number - 1)
        earlier = store.before(db, game, hand)
        assert (earlier.scored.to_dict(), earlier.problem) == (then.to_dict(), then_problem)


@pytest.mark.usefixtures("small_checkpoints")
@pytest.mark.parametrize("mode, seats, target", GAMES, ids=lambda v: getattr(v, "value", v))
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), actions=st.lists(st.sampled_from(ACTIONS), max_size=25))
def test_checkpoints_give_what_scoring_every_hand_gives(mode, seats, target, seed, actions):
    db = new_db()
    rng = random.Random(seed)
    classic = engine.find_variant("classic")
    game_id = store.create_game(db, store.GameSetup(
        variant=classic, mode=mode, target=target, options=classic.default_options(),
        players=tuple(f"P{s}" for s in range(seats)), dealer=rng.randrange(seats)))
    cache = store.GameCache()
    deleted: list[int] = []
    for action in actions:
        act(db, rng, game_id, action, deleted)
        assert_as_rescored(db, game_id, cache)


def test_a_change_behind_the_apps_back_drops_the_checkpoints_it_makes_stale(small_checkpoints):
    db = new_db()
    classic = engine.find_variant("classic")
    game_id = store.create_game(db, store.GameSetup(
        variant=classic, mode=ScoringMode.STANDARD, target=10**6,
        options=classic.default_options(), players=("Ann", "Bob"), dealer=0))
    for points in range(1, 8):
        with store.changing(db, game_id) as game:
            store.record_hand(db, game, 0, [store.Holding(1, (), points, True)])
    kept = [r[0] for r in db.execute("select hands from checkpoints order by hands")]
    assert kept == [3, 6, 7]
    # A hand changed by hand: only the checkpoints that counted it go.
    fifth = db.execute("select id from hands order by id limit 1 offset 4").fetchone()[0]
    db.execute("update holdings set points = 100 where hand_id = ?", [fifth])
    assert [r[0] for r in db.execute("select hands from checkpoints order by hands")] == [3]
    game = store.load_game(db, game_id)
    assert game is not None and game.standings.totals == (1 + 2 + 3 + 4 + 100 + 6 + 7, 0)
    # A setting the hands are scored by: all of them go.
    db.execute("update games set target = 500 where id = ?", [game_id])
    assert not db.execute("select * from checkpoints").fetchall()


def test_a_checkpoint_of_another_version_of_the_app_is_not_used(monkeypatch):
    db = new_db()
    classic = engine.find_variant("classic")
    game_id = store.create_game(db, store.GameSetup(
        variant=classic, mode=ScoringMode.STANDARD, target=500,
        options=classic.default_options(), players=("Ann", "Bob"), dealer=0))
    with store.changing(db, game_id) as game:
        store.record_hand(db, game, 0, [store.Holding(1, (), 20, True)])
    # As if its point values had changed: the hands are scored again, not read back.
    db.execute("update checkpoints set standings = replace(standings, '20', '99')")
    monkeypatch.setattr(checkpoints, "SCORED_BY", "another version")
    game = store.load_game(db, game_id)
    assert game is not None and game.standings.totals == (20, 0)


def test_a_game_read_without_its_checkpoints_gets_them_where_the_database_can_be_written(
        tmp_path, small_checkpoints):
    # Hands stored without checkpoints (a bulk import, an older version of the app).
    path = str(tmp_path / "games.sqlite3")
    db = open_db(path)
    migrations.apply(db)
    classic = engine.find_variant("classic")
    game_id = store.create_game(db, store.GameSetup(
        variant=classic, mode=ScoringMode.STANDARD, target=10**6,
        options=classic.default_options(), players=("Ann", "Bob"), dealer=0))
    for _ in range(8):
        db.execute("insert into hands (game_id, went_out, created_at) values (?, 0, '')",
                   [game_id])
        db.execute("insert into holdings (hand_id, seat, points, typed) values "
                   "(last_insert_rowid(), 1, 5, 1)")
    read_only = open_db(path, read_only=True)
    try:
        game = store.load_game(read_only, game_id)
        assert game is not None and game.standings.totals == (40, 0)
    finally:
        read_only.close()
    assert not db.execute("select * from checkpoints").fetchall()
    game = store.load_game(db, game_id)
    assert game is not None and game.standings.totals == (40, 0)
    assert [r[0] for r in db.execute("select hands from checkpoints order by hands")] == [3, 6, 8]
    db.close()


def test_start_up_scores_games_stored_under_another_scoring_once(tmp_path):
    # An upgrade that changed scoring: the games are scored again before serving, each
    # once, so no phone's first read of a long game pays for it; one that did not
    # change scoring keeps every checkpoint.
    from companion.startup import migrate
    path = str(tmp_path / "games.sqlite3")
    db = open_db(path)
    migrations.apply(db)
    classic = engine.find_variant("classic")
    ids = [store.create_game(db, store.GameSetup(
        variant=classic, mode=ScoringMode.STANDARD, target=500,
        options=classic.default_options(), players=("Ann", "Bob"), dealer=0)) for _ in range(3)]
    for game_id in ids[:2]:
        with store.changing(db, game_id) as game:
            store.record_hand(db, game, 0, [store.Holding(1, (), 20, True)])
    kept = db.execute("select * from checkpoints order by game_id").fetchall()
    migrate(path)
    assert db.execute("select * from checkpoints order by game_id").fetchall() == kept
    db.execute("update checkpoints set scored_by = 'scoring-0', standings = "
               "replace(standings, '20', '99')")
    db.conn.commit()
    assert checkpoints.stale_games(db) == ids[:2]  # the game without hands needs none
    migrate(path)
    assert checkpoints.stale_games(db) == []
    for game_id in ids[:2]:
        game = store.load_game(db, game_id)
        assert game is not None and game.standings.totals == (20, 0)
    db.close()


@pytest.mark.parametrize("cached", [True, False])
def test_a_save_reads_the_game_once_before_its_write_and_once_after(app, table, cached):
    # The game's hands are read once to decide the write (none when the cache holds this
    # version) and once for the standings it leads to, which are checkpointed from that same
    # read: not read again for the checkpoints, nor through sqlite-utils' table look-ups.
    from companion import db as connections

    game_id = table.create_game(["Ann", "Bob", "Cy"])
    table.record(game_id, 0, {1: "red-7", 2: "wild"})
    review = table.review(game_id, 0, {1: "red-7 red-7", 2: "wild"})
    if not cached:
        app.extensions["uno_games"] = store.GameCache()  # another worker, new to the game
    with app.app_context():
        connections.get_pool().close()
    said: list[str] = []
    opened = connections.open_db

    def traced(*args, **kwargs):
        db = opened(*args, **kwargs)
        db.conn.set_trace_callback(said.append)
        return db

    connections.open_db = traced
    try:
        assert table.save(review).status_code == 303
    finally:
        connections.open_db = opened
    reads = [s for s in said if re.match(r'select \* from "?hands"? ', s, re.IGNORECASE)]
    assert len(reads) == (1 if cached else 2), reads
