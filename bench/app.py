"""How fast and how small the app's pages are, with a lot of history behind them.

Prints, for each page, the mean time per request through Flask's test client,
its size in bytes, and the time as a ratio of a baseline measured in the same
run: serving the static stylesheet (the framework's own floor).

    python bench/app.py [--games 100] [--hands 200] [--repeat 30]
"""

from __future__ import annotations

import argparse
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
from companion.db import open_db


def build_history(path: str, games: int, hands: int, seed: int) -> int:
    """Fill a database with finished and running games; return one big game's id."""
    rng = random.Random(seed)
    db = open_db(path)
    classic = engine.find_variant("classic")
    deck = classic.deck()
    big = 0
    for g in range(games):
        game_id = store.create_game(
            db, variant=classic, mode=engine.ScoringMode.LOWEST_WINS, target=10**6,
            options=classic.default_options(), players=["Ann", "Bob", "Cy", "Dee"], dealer=0,
        )
        n = hands if g == 0 else 3
        for _ in range(n):
            record = store.load_game(db, game_id)
            assert record is not None
            out = rng.randrange(4)
            rng.shuffle(deck)
            held = [store.Holding(s, tuple(deck[s * 5:(s + 1) * 5]),
                                  classic.hand_points(deck[s * 5:(s + 1) * 5]), False)
                    for s in range(4) if s != out]
            store.record_hand(db, record, out, held)
        big = big or game_id
    db.close()
    return big


def timed(client, method: str, url: str, repeat: int, **kwargs) -> tuple[float, int]:
    """Mean seconds per request, and the response size."""
    size = 0
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        response = getattr(client, method)(url, **kwargs)
        samples.append(time.perf_counter() - start)
        assert response.status_code == 200, (url, response.status_code)
        size = len(response.data)
        response.close()
    return statistics.mean(samples), size


def main() -> None:
    """Build the history, then time each page against the baseline."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp())
    path = str(folder / "bench.sqlite3")
    app = create_app({"DATABASE": path, "SECRET_KEY": "bench"})
    started = time.perf_counter()
    big = build_history(path, args.games, args.hands, seed=1)
    print(f"history: {args.games} games, {args.hands} hands in the biggest "
          f"(built in {time.perf_counter() - started:.1f} s)")

    client = app.test_client()
    page = client.get(f"/games/{big}/hands/new?out=0").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    preview_form = {"out": "0", "c-1-red-7": "2", "c-2-wild": "1", "pts-3": "12"}

    baseline, _ = timed(client, "get", "/static/app.css", args.repeat)
    pages = [
        ("home (all games)", "get", "/", {}),
        ("scoreboard", "get", f"/games/{big}", {}),
        ("history", "get", f"/games/{big}/hands", {}),
        ("card picker, 3 opponents", "get", f"/games/{big}/hands/new?out=0", {}),
        ("live points (htmx)", "post", f"/games/{big}/hands/preview",
         {"data": preview_form, "headers": {"X-CSRF-Token": token, "HX-Request": "true"}}),
    ]
    print(f"baseline: static stylesheet {baseline * 1000:.2f} ms/request")
    print(f"{'page':28} {'ms/request':>10} {'bytes':>8} {'x baseline':>10}")
    for name, method, url, kwargs in pages:
        seconds, size = timed(client, method, url, args.repeat, **kwargs)
        print(f"{name:28} {seconds * 1000:10.2f} {size:8d} {seconds / baseline:10.1f}")


if __name__ == "__main__":
    main()
