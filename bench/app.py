"""How fast and how small the app's pages are, with little or a lot of history behind them.

For each size of history (stored games x hands in the biggest game, and as many pulls
of a Wild Jackpot game's lever as hands) it fills a fresh
database, then prints, per page, the median time per request through Flask's test
client, the page's size in bytes, and the time as a ratio of a baseline measured in
the same run, its requests taken in turn with the page's: serving the static
stylesheet (the framework's own floor). The goal is
every page within 10x that floor, flat from 10 to 1,000 hands and games.

    python bench/app.py [--games 10 1000] [--hands 10 999] [--repeat 30]

The first request of each page is printed apart, as "cold": the history here is built in
bulk, without the checkpoints of its standings a change writes (bench/write.py times
writes), so the first load scores every hand; later ones use the cache, kept per version
of the game. The answer
a live page's poll gets when nothing changed (a 304, companion/live.py) is timed too, and
compared with the scoreboard page it spares.

The bench's client is one phone (a ``device`` in its session), the scorekeeper of every
game the bench stores: a phone that was given no link gets 404 on a game's pages.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

# Run as a script, this folder comes first on sys.path, and bench/engine.py would
# shadow the engine package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import engine
from companion import create_app, store
from companion.assets import KEPT_COOKIE
from companion.db import open_db
from companion.store import access
from engine.jackpot import spin
from engine.referee import Replay

GOAL = 10.0
#: UNO_BENCH_SMOKE=1 (tests/test_bench.py): every default size and page, each timed once.
SMOKE = os.environ.get("UNO_BENCH_SMOKE") == "1"
#: The bench's phone: the scorekeeper of every game it stores.
DEVICE = access.new_device()
#: The card picker's HTML, by opponents: the goals the phone set (issue: fits the phone).
PICKER_GOALS = {3: 20_000, 9: 50_000}


def phone(app):
    """The app's test client as the bench's phone (its session names DEVICE)."""
    client = app.test_client()
    with client.session_transaction() as session:
        session["device"] = DEVICE
    # A phone past its first page: it keeps the stylesheet and app.js, so pages link them
    # rather than carry them inline (companion/assets.py), as nearly every page is served.
    client.set_cookie(KEPT_COOKIE, app.extensions["uno_assets"].kept)
    return client


def build_history(path: str, games: int, hands: int, seed: int) -> int:
    """Fill a database with games of three hands and one of ``hands``; return its id.

    Hands are written as the app stores them (a hand row, a holdings row per opponent),
    in bulk: recording 1,000 hands one by one through the forms would take minutes.
    The target is out of reach even after 30,000 hands (bench/write.py): the game goes on.
    """
    rng = random.Random(seed)
    db = open_db(path)
    classic = engine.find_variant("classic")
    deck = classic.deck()
    big = 0
    for _ in range(games):
        game_id = store.create_game(db, store.GameSetup(
            variant=classic, mode=engine.ScoringMode.LOWEST_WINS, target=10**9,
            options=classic.default_options(), players=("Ann", "Bob", "Cy", "Dee"), dealer=0),
            keeper=DEVICE)
        big = big or game_id
        with db.atomic():
            for _ in range(hands if game_id == big else 3):
                out = rng.randrange(4)
                rng.shuffle(deck)
                hand_id = db["hands"].insert({"game_id": game_id, "went_out": out,
                                              "created_at": store.now()}).last_pk
                db["holdings"].insert_all(
                    {"hand_id": hand_id, "seat": s, "cards": engine.cards_text(held),
                     "points": classic.hand_points(held), "typed": 0}
                    for s, held in ((s, deck[s * 5:s * 5 + 5]) for s in range(4)) if s != out)
    db.execute("update games set in_progress = null")  # worked out below, as on an upgrade
    store.fill_listing_state(db)
    db.close()
    return big


@contextlib.contextmanager
def scratch_folder():
    """A temporary folder for the bench's databases, removed afterwards: in memory
    (/dev/shm, building is then quick) unless TMPDIR names another place."""
    shm = Path("/dev/shm")
    memory = shm if shm.is_dir() and "TMPDIR" not in os.environ else None
    with tempfile.TemporaryDirectory(prefix="uno-bench-", dir=memory) as folder:
        yield Path(folder)


def build_finished(path: str, games: int, seed: int) -> None:
    """Add ``games`` finished games (standard, to 100, four players) kept by the bench's
    phone, their hands written in bulk up to the winner's; then their results, as an
    upgrade fills them in (companion/store/stats.py): what the records page reads."""
    rng = random.Random(seed)
    db = open_db(path)
    classic = engine.find_variant("classic")
    deck = classic.deck()
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    for _ in range(games):
        players = tuple(rng.sample(names, 4))
        game_id = store.create_game(db, store.GameSetup(
            variant=classic, mode=engine.ScoringMode.STANDARD, target=100,
            options=classic.default_options(), players=players, dealer=0), keeper=DEVICE)
        standings = engine.new_standings(engine.ScoringMode.STANDARD, 4, 100)
        with db.atomic():
            while not standings.finished:
                out = rng.randrange(4)
                rng.shuffle(deck)
                held = {s: deck[s * 3:s * 3 + 3] for s in range(4) if s != out}
                standings = engine.score_hand(standings, engine.HandOutcome(
                    out, {s: classic.hand_points(h) for s, h in held.items()}))
                hand_id = db["hands"].insert({"game_id": game_id, "went_out": out,
                                              "created_at": store.now()}).last_pk
                db["holdings"].insert_all(
                    {"hand_id": hand_id, "seat": s, "cards": engine.cards_text(h),
                     "points": classic.hand_points(h), "typed": 0} for s, h in held.items())
    db.execute("update games set in_progress = null")
    store.fill_listing_state(db)
    store.stats.fill_results(db)
    db.close()


def timed(client, method: str, url: str, repeat: int, status: int = 200,
          **kwargs) -> tuple[float, float, float, int]:
    """Seconds for the first request; then the median seconds per request of the page and
    of the baseline (the static stylesheet), their requests taken in turn; response size.

    Taken in turn, both see the same load on the machine, so the ratio holds steady when
    another process comes and goes; the median leaves out a request that a pause of the
    machine (or a garbage collection) fell on.
    """
    page: list[float] = []
    static: list[float] = []
    size = 0
    for _ in range(repeat + 1):
        start = time.perf_counter()
        response = getattr(client, method)(url, **kwargs)
        page.append(time.perf_counter() - start)
        assert response.status_code == status, (url, response.status_code)
        size = len(response.data)
        response.close()
        start = time.perf_counter()
        client.get(BASELINE).close()
        static.append(time.perf_counter() - start)
    return page[0], statistics.median(page[1:]), statistics.median(static[1:]), size


#: The floor every page is compared with: a static file served from memory.
BASELINE = "/static/app.css"
#: The row of a live scoreboard's poll when nothing changed.
UNCHANGED = "scoreboard, nothing changed (304)"


SEATS = "Ann, Bob, Cy, Dee"
#: The referee's answers timed: (page, check, the table it is asked at, the dispute): the
#: usual question, and for a draw wild the one that hangs on the most unknowns. The
#: table is the bench's game (classic) unless named; each check's form is timed too.
CHECK_DISPUTES: list[tuple[str, str, dict[str, str | list[str]] | None, dict[str, str]]] = [
    ("challenge answer", "challenge", None,
     {"by": "Bob", "hand": "red-3 blue-7 green-2 yellow-5 wild", "color": "red"}),
    ("challenge answer, hand unseen", "challenge", None,
     {"by": "Bob", "hand_count": "5", "color": "red"}),
    ("play answer", "play", None, {"top": "blue-7", "card": "red-7"}),
    ("play answer, WD4, hand unseen", "play", None,
     {"top": "red-5", "card": "wild-draw4"}),
    ("first-card answer", "first-card", None, {"dealer": "Ann", "cards": "red-reverse"}),
    ("next answer", "next", None, {"turn": "Ann", "card": "red-draw2"}),
    ("next answer, WD4, colors given", "next", None,
     {"turn": "Ann", "card": "wild-draw4", "color": "red", "named": "blue"}),
    ("uno answer", "uno", None, {"player": "Ann"}),
    ("end answer", "end", None,
     {"went_out": "Ann", "last_card": "blue-draw2", "hands-1": "red-7 wild",
      "hands-2": "green-skip", "hands-3_count": "3", "drawn": "blue-1 blue-2"}),
    ("wild-dip answer", "special/wild-dip", {"variant": "pizza-pizza", "seats": SEATS},
     {"player": "Ann", "named": "blue", "drawn": "red-9", "give": "red-9"}),
    ("swap-hands answer", "special/swap-hands", None,
     {"player": "Ann", "swap_with": "Cy", "named": "red"}),
    ("seven-zero answer", "special/seven-zero",
     {"variant": "classic", "seats": SEATS, "house": "seven_o"},
     {"player": "Ann", "card": "red-7", "swap_with": "Cy"}),
    ("jump-in answer", "special/jump-in",
     {"variant": "classic", "seats": SEATS, "house": "jump_in"},
     {"turn": "Bob", "top": "red-5", "jumper": "Dee"}),
    ("droid answer", "special/droid", {"variant": "star-wars", "seats": SEATS},
     {"player": "Ann", "named": "red", "hands-0": "blue-1 green-2",
      "hands-1": "red-3 yellow-4", "hands-2": "green-5", "hands-3": "blue-6 red-7"}),
]

#: Ten seats, every house rule on (bench of issue 27's request budget).
HOUSE_TEN: dict[str, str | list[str]] = {
    "variant": "classic", "seats": ", ".join(f"P{i}" for i in range(1, 11)),
    "house": ["stacking", "progressive_uno", "seven_o", "jump_in", "draw_until_playable",
              "forced_play"]}

#: The most open questions: every color Ann may name, every set of cards a lever discard
#: may throw, each played out. Their goal is the request budget (issue 18: a few tens of
#: milliseconds, GOAL_OPEN_MS), not 10x a static file: they are timed and printed apart.
OPEN_DISPUTES: list[tuple[str, str, dict[str, str | list[str]] | None, dict[str, str]]] = [
    ("next answer, WD4, no color named", "next", None,
     {"turn": "Ann", "card": "wild-draw4", "color": "red"}),
    ("next answer, WD4, no color named, stacking and jump-in", "next",
     {"variant": "classic", "seats": SEATS, "house": ["stacking", "jump_in"]},
     {"turn": "Ann", "card": "wild-draw4", "counts-0_count": "2"}),
    ("next answer, lever discard, hand shown", "next", {"variant": "wild-jackpot", "seats": SEATS},
     {"turn": "Ann", "card": "wild-jackpot", "color": "red", "lever": "discard",
      "counts-0": "red-skip blue-reverse green-draw2 yellow-7 red-3 wild", "counts-1_count": "4"}),
    # Issue 27: a lever's discard from a hand nobody knows (answered by kinds of cards), and
    # ten seats with every house rule on, a draw passed on to the end of the stack.
    ("next answer, lever discard, hand unknown", "next",
     {"variant": "wild-jackpot", "seats": SEATS},
     {"turn": "Ann", "card": "wild-jackpot", "color": "red", "lever": "discard"}),
    ("next answer, 10 seats, every house rule, Draw Two", "next", HOUSE_TEN,
     {"turn": "P1", "card": "red-draw2", "counts-0_count": "2"}),
    ("next answer, 10 seats, every house rule, WD4, no color named", "next", HOUSE_TEN,
     {"turn": "P1", "card": "wild-draw4", "color": "red"}),
    ("next answer, 10 seats, every house rule, a 7", "next", HOUSE_TEN,
     {"turn": "P1", "card": "red-7", "color": "red", "counts-1_count": "2"}),
]
#: What an open question may cost, in milliseconds a request.
GOAL_OPEN_MS = 50.0
#: The page name an open question's row starts with.
OPEN = "referee (open): "


def referee_pages(big: int, token: str) -> list[tuple[str, str, str, dict]]:
    """The referee's pages and the rules' (name, method, address, request arguments): the
    lists of checks, each check's form and answers, a replayed position, the rulings log,
    the rules."""
    htmx = {"X-CSRF-Token": token, "HX-Request": "true"}
    pages: list[tuple[str, str, str, dict]] = [
        ("referee: the checks", "get", f"/referee?game={big}", {}),
        ("referee: the special cards", "get", f"/referee/special?game={big}", {}),
    ]
    formed = set()
    disputes = [("referee: ", d) for d in CHECK_DISPUTES] + [(OPEN, d) for d in OPEN_DISPUTES]
    for label, (name, check, table, dispute) in disputes:
        table = table or {"game": str(big)}
        if check not in formed:
            formed.add(check)
            pages.append((f"referee: {check.removeprefix('special/')} form", "get",
                          f"/referee/{check}", {"query_string": table}))
        pages.append((f"{label}{name}", "post", f"/referee/{check}",
                      {"data": {**table, **dispute}, "headers": htmx}))
    replay = Replay(engine.find_variant("classic").new(
        ["Ann", "Bob", "Cy", "Dee"], seed=1).position().reseeded(0))
    for _ in range(4):
        replay = replay.play(replay.choices()[0].action)
    return [
        *pages,
        ("referee: replay editor", "get", f"/referee/replay?game={big}", {}),
        ("referee: a replayed position", "get", "/referee/replay",
         {"query_string": {"game": str(big), "p": replay.text}}),
        ("referee: rulings log", "get", f"/games/{big}/rulings", {}),
        ("rules: the variants", "get", "/rules", {}),
        *((f"rules of {v.name}", "get", f"/rules/{v.name}", {}) for v in engine.VARIANTS),
    ]


def build_jackpot(path: str, pulls: int, seed: int) -> tuple[int, int]:
    """A Wild Jackpot game with its 8 rule cards written and ``pulls`` pulls of the lever
    recorded, as the app records them; return the game's id and its last pull's."""
    rng = random.Random(seed)
    db = open_db(path)
    variant = engine.find_variant("wild-jackpot")
    game_id = store.create_game(db, store.GameSetup(
        variant=variant, mode=engine.ScoringMode.STANDARD, target=500,
        options=variant.default_options(), players=("Ann", "Bob", "Cy", "Dee"), dealer=0),
        keeper=DEVICE)
    last = 0
    with store.changing(db, game_id) as game:
        for seat in range(4):
            store.write_rule_cards(db, game, seat, [f"Rule {seat}.{k}" for k in range(2)], rng,
                                   device=DEVICE, passed_round=True)
        for k in range(pulls):
            call = engine.LeverCall(spin(rng), k % 4, 4, 1)
            last = store.pull_lever(db, game, call, rng, None)
    db.close()
    return game_id, last


def jackpot_pages(game: int, last: int, token: str) -> list[tuple[str, str, str, dict]]:
    """The Wild Jackpot's pages: the lever on the scoreboard and its own page, a pull
    (htmx, recorded each time), a result, a dealt card, the history and its chart, the
    rule cards, and the spinner for any table."""
    headers = {"X-CSRF-Token": token}
    return [
        ("jackpot: scoreboard with the lever", "get", f"/games/{game}", {}),
        ("jackpot: lever page", "get", f"/games/{game}/jackpot", {}),
        ("jackpot: a pull (htmx)", "post", f"/games/{game}/jackpot/spins",
         {"data": {"puller": "1", "direction": "clockwise"},
          "headers": {**headers, "HX-Request": "true"}}),
        ("jackpot: a pull's result", "get", f"/games/{game}/jackpot/spins/{last}", {}),
        ("jackpot: history and chart", "get", f"/games/{game}/jackpot/history", {}),
        ("jackpot: rule cards", "get", f"/games/{game}/jackpot/cards", {}),
        ("jackpot: writing rule cards", "get", f"/games/{game}/jackpot/cards/0", {}),
        ("jackpot: spinner for any table", "post", "/jackpot",
         {"data": {"players": "Ann, Bob, Cy, Dee", "puller": "2"}, "headers": headers}),
    ]


def measure(games: int, hands: int, repeat: int,
            only_referee: bool = False) -> list[dict[str, float | int | str]]:
    """Time every page (or only the referee's and the rules') over a fresh history of this
    size."""
    with scratch_folder() as folder:
        return measure_in(str(folder / "bench.sqlite3"), games, hands, repeat, only_referee)


def measure_in(path: str, games: int, hands: int, repeat: int,
               only_referee: bool) -> list[dict[str, float | int | str]]:
    """measure(), its database at ``path``."""
    app = create_app({"DATABASE": path, "SECRET_KEY": "bench"})
    big = build_history(path, games, hands, seed=1)
    build_finished(path, games, seed=3)
    client = phone(app)
    # What the scoreboard's poller sends once it has the page: nothing changed since.
    unchanged = {"If-None-Match": client.get(f"/games/{big}").headers["ETag"],
                 "HX-Request": "true"}
    picker = client.get(f"/games/{big}/hands/new?out=0").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', picker).group(1)
    entry = {k: re.search(rf'name="{k}" value="([^"]+)"', picker).group(1)
             for k in ("entry", "version")}
    form = {"out": "0", "cards-1": "red-7 red-7", "cards-2": "wild", "pts-3": "12", "hand_id": "0"}
    htmx = {"X-CSRF-Token": token, "HX-Request": "true"}
    pages = [
        ("home", "get", "/", {}),
        ("scoreboard", "get", f"/games/{big}", {}),
        (UNCHANGED, "get", f"/games/{big}", {"headers": unchanged, "status": 304}),
        ("history", "get", f"/games/{big}/hands", {}),
        ("score grid and race", "get", f"/games/{big}/story", {}),
        ("score grid and race, a finished game", "get", f"/games/{big + 1}/story", {}),
        ("records (this phone's finished games)", "get", "/records", {}),
        ("records, head to head", "get", "/records",
         {"query_string": {"first": "Ann", "second": "Bob"}}),
        ("new game (the regulars offered)", "get", "/games/new", {}),
        ("card picker, 3 opponents", "get", f"/games/{big}/hands/new?out=0", {}),
        ("live points (htmx)", "post", f"/games/{big}/hands/preview",
         {"data": form, "headers": htmx}),
        ("review", "post", f"/games/{big}/hands/review",
         {"data": {**form, **entry}, "headers": {"X-CSRF-Token": token}}),
        *referee_pages(big, token),
        *jackpot_pages(*build_jackpot(path, hands, seed=2), token),
    ]
    if only_referee:
        pages = [page for page in pages if page[0].startswith(("referee", "rules"))]
    rows: list[dict[str, float | int | str]] = []
    floors = []
    for name, method, url, kwargs in pages:
        cold, ms, floor, size = timed(client, method, url, repeat, **kwargs)
        floors.append(floor)
        rows.append({"page": name, "cold": cold * 1000, "ms": ms * 1000, "bytes": size,
                     "ratio": ms / floor})
    baseline = {"page": "static stylesheet (baseline)", "cold": 0.0,
                "ms": statistics.median(floors) * 1000, "bytes": 0, "ratio": 1.0}
    return [baseline, *rows]


def picker_sizes() -> dict[int, int]:
    """Bytes of the card picker's HTML for 3 opponents (4 players) and 9 (10 players)."""
    with scratch_folder() as folder:
        app = create_app({"DATABASE": str(folder / "sizes.sqlite3"), "SECRET_KEY": "bench"})
        db = open_db(app.config["DATABASE"])
        classic = engine.find_variant("classic")
        sizes = {}
        for opponents in PICKER_GOALS:
            game_id = store.create_game(db, store.GameSetup(
                variant=classic, mode=engine.ScoringMode.STANDARD, target=500,
                options=classic.default_options(),
                players=tuple(f"Player {n}" for n in range(opponents + 1)), dealer=0),
                keeper=DEVICE)
            with phone(app) as client:
                sizes[opponents] = len(client.get(f"/games/{game_id}/hands/new?out=0").data)
        db.close()
    return sizes


def main() -> None:
    """Measure each history size and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10, 1000])
    # The biggest game one hand short of the cap: the card picker is for one more hand.
    parser.add_argument("--hands", type=int, nargs="+", default=[10, store.MAX_GAME_HANDS - 1])
    parser.add_argument("--repeat", type=int, default=1 if SMOKE else 30)
    parser.add_argument("--referee", action="store_true",
                        help="time only the referee's and the rules' pages")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if max(args.hands) >= store.MAX_GAME_HANDS:
        parser.error(f"a game keeps at most {store.MAX_GAME_HANDS} hands: the card picker "
                     f"times one more, so --hands goes up to {store.MAX_GAME_HANDS - 1}")

    results = {}
    for games in args.games:
        for hands in args.hands:
            results[f"{games} games, {hands} hands"] = measure(games, hands, args.repeat,
                                                               args.referee)
    if args.json:
        print(json.dumps(results, indent=1))
        return
    worst = slowest = 0.0
    for size, rows in results.items():
        print(f"\n{size} in the biggest game")
        print(f"{'page':40} {'cold ms':>8} {'ms/req':>8} {'bytes':>8} {'x baseline':>10}")
        for row in rows:
            print(f"{row['page']:40} {row['cold']:8.2f} {row['ms']:8.2f} {row['bytes']:8d} "
                  f"{row['ratio']:10.1f}")
            if str(row["page"]).startswith(OPEN):
                slowest = max(slowest, float(row["ms"]))
            else:
                worst = max(worst, float(row["ratio"]))
    print(f"\nworst page: {worst:.1f}x the static stylesheet (goal: within {GOAL:.0f}x)")
    print(f"slowest open question: {slowest:.1f} ms (goal: within {GOAL_OPEN_MS:.0f} ms)")
    for size, rows in results.items():
        ms = {row["page"]: float(row["ms"]) for row in rows}
        if UNCHANGED in ms:
            share = ms[UNCHANGED] / ms["scoreboard"]
            print(f"{size}: a poll when nothing changed takes {share:.2f} of the scoreboard "
                  "page's time")
    if args.referee:
        return
    for opponents, size in picker_sizes().items():
        print(f"card picker, {opponents} opponents: {size:,} bytes "
              f"(goal: under {PICKER_GOALS[opponents]:,})")


if __name__ == "__main__":
    main()
