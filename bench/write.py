"""What a write and the scoreboard cost in a long game, as a server process without it
in its cache sees them (issue 18: "the cost of a write is flat in the game's history").

For a game of few hands and one of many (built in bulk, as bench/app.py builds its
history) it times, through Flask's test client and with the app's cache of games
emptied before every request (another gunicorn worker, or a restart):

- saving a new hand (the reviewed form posted: the write and its transaction);
- the scoreboard page;
- changing the oldest hand that can still be changed (store.CHANGEABLE_HANDS back: a
  change scores again every later hand, from the checkpoint before it);
- undoing the last hand (then saved again, untimed), which scores again the hands
  after the checkpoint before it.

It prints the median milliseconds of each and the ratio long/short; the goal is within
2x. The first request after the bulk load (a scoreboard) is printed apart, as "first
read": the game has no checkpoint of its standings yet, so that one scores every hand and
writes them, as after an upgrade.

A game keeps at most store.MAX_GAME_HANDS hands (1,000), so the long game is built just
short of it, with room for the hands the bench saves.

    python bench/write.py [--hands 10 980] [--repeat 15]
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Run as a script, this folder comes first on sys.path, and bench/engine.py would
# shadow the engine package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]

from companion import create_app, store

GOAL = 2.0
#: What changing the oldest hand that can be changed may cost (the request budget).
EDIT_BUDGET_MS = 50.0

_spec = importlib.util.spec_from_file_location("bench_app", HERE / "app.py")
assert _spec and _spec.loader
bench_app = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_app)


def save_form(client, game_id: int, hand_id: int = 0) -> dict[str, str]:
    """A complete hand's form, new or a change to ``hand_id``, as the review page posts it
    (fresh key and version)."""
    url = (f"/games/{game_id}/hands/{hand_id}/edit?out=0" if hand_id
           else f"/games/{game_id}/hands/new?out=0")
    picker = client.get(url).get_data(as_text=True)
    found = {k: re.search(rf'name="{k}" value="([^"]+)"', picker).group(1)  # type: ignore[union-attr]
             for k in ("csrf_token", "entry", "version")}
    return {**found, "out": "0", "cards-1": "red-7 red-7", "cards-2": "wild", "pts-3": "12",
            "hand_id": str(hand_id)}


class Table:
    """One fresh database (in ``folder``) holding one game of ``hands`` hands, and the app's
    phone on it."""

    def __init__(self, folder: Path, hands: int):
        path = str(folder / f"bench-{hands}.sqlite3")
        self.app = create_app({"DATABASE": path, "SECRET_KEY": "bench"})
        self.game = bench_app.build_history(path, 1, hands, seed=1)
        self.hands = hands
        self.client = bench_app.phone(self.app)

    def cold(self, method: str, url: str, status: int, **kwargs: object) -> float:
        """Milliseconds of one request, the cache emptied first (a worker new to the game)."""
        self.app.extensions["uno_games"] = store.GameCache()
        start = time.perf_counter()
        response = getattr(self.client, method)(url, **kwargs)
        took = time.perf_counter() - start
        assert response.status_code == status, (url, response.status_code)
        return took * 1000

    def save(self) -> float:
        return self.cold("post", f"/games/{self.game}/hands", 303,
                         data=save_form(self.client, self.game))

    def edit(self) -> float:
        """Change the oldest hand that can still be changed (store.CHANGEABLE_HANDS back),
        which scores every later hand again from the checkpoint before it."""
        with self.app.app_context():
            from companion.db import get_db
            hand_id = get_db().execute(
                "select id from hands where game_id = ? and deleted_at is null order by id desc "
                "limit 1 offset ?", [self.game, min(store.CHANGEABLE_HANDS, self.hands) - 1]
            ).fetchone()[0]
        return self.cold("post", f"/games/{self.game}/hands/{hand_id}", 303,
                         data=save_form(self.client, self.game, hand_id))

    def scoreboard(self) -> float:
        return self.cold("get", f"/games/{self.game}", 200)

    def undo(self) -> float:
        """Undo the last hand (timed), then save one again (not timed)."""
        board = self.client.get(f"/games/{self.game}").get_data(as_text=True)
        last = re.search(r'name="hand_id" value="(\d+)"', board).group(1)  # type: ignore[union-attr]
        token = re.search(r'name="csrf_token" value="([^"]+)"', board).group(1)  # type: ignore[union-attr]
        took = self.cold("post", f"/games/{self.game}/hands/undo", 303,
                         data={"hand_id": last, "csrf_token": token})
        self.save()
        return took


WHAT = ("save", "edit", "scoreboard", "undo")


def measure(sizes: list[int], repeat: int) -> list[dict[str, float]]:
    """Median milliseconds of each request per size; the sizes' requests taken in turn, so
    that all see the same load on the machine."""
    with bench_app.scratch_folder() as folder:
        return measure_in(folder, sizes, repeat)


def measure_in(folder: Path, sizes: list[int], repeat: int) -> list[dict[str, float]]:
    """measure(), its databases in ``folder``."""
    tables = [Table(folder, n) for n in sizes]
    figures = [{"first read": t.scoreboard()} for t in tables]
    times: list[dict[str, list[float]]] = [{w: [] for w in WHAT} for _ in tables]
    for _ in range(repeat):
        for what in WHAT:
            for table, timed in zip(tables, times):
                timed[what].append(getattr(table, what)())
    for figure, timed in zip(figures, times):
        figure.update({w: statistics.median(timed[w]) for w in WHAT})
    return figures


def main() -> None:
    """Measure both sizes and print the table and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, nargs=2, default=[10, 980])
    parser.add_argument("--repeat", type=int, default=1 if bench_app.SMOKE else 15)
    args = parser.parse_args()
    if max(args.hands) + args.repeat > store.MAX_GAME_HANDS:
        parser.error(f"a game keeps at most {store.MAX_GAME_HANDS} hands: leave room for "
                     f"the {args.repeat} the bench saves")
    short, long = measure(args.hands, args.repeat)
    print(f"{'empty cache, ms':20} {args.hands[0]:>10} hands {args.hands[1]:>10} hands "
          f"{'ratio':>8}")
    for what in ("first read", *WHAT):
        ratio = long[what] / short[what]
        print(f"{what:20} {short[what]:16.2f} {long[what]:16.2f} {ratio:8.2f}")
    # A change to a past hand rescores the hands after it: bounded by the window of hands
    # that can be changed (store.CHANGEABLE_HANDS), not flat; its goal is the budget.
    worst = max(long[w] / short[w] for w in WHAT if w != "edit")
    print(f"\nworst ratio (save, scoreboard, undo): {worst:.2f} (goal: within {GOAL:.0f}x)")
    print(f"a change {store.CHANGEABLE_HANDS} hands back: {long['edit']:.1f} ms "
          f"(goal: within {EDIT_BUDGET_MS:.0f} ms, whatever the history)")


if __name__ == "__main__":
    main()
