"""Speed benchmark: complete random hands per second, our engine against RLCard's UNO.

Run from the repository root (see bench/README.md)::

    pip install -e '.[bench]'
    python bench/engine.py                 # every variant at 2, 4 and 6 players
    python bench/engine.py --games 200 --variants classic --players 4

Both sides play whole hands, each from a fixed seed, choosing at random among
the legal actions with a seeded ``random.Random``, in the same process, taking
turns. The time covers the deal and every action, nothing else. Our players use
the ``eager`` policy of :mod:`engine.simulate` by default: like RLCard's random
agent, they play a card whenever one can be played (``--policy uniform`` times
the every-action-alike player instead).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

if __name__ == "__main__":
    # Run as a script, this file's folder leads the path, and this file is called
    # engine.py: take the folder out so that `engine` is the package as installed (the
    # compiled build, or the source under an editable install), and put the repository
    # last, for a clone that was never installed.
    _BENCH = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _BENCH] + [str(_BENCH.parent)]

from engine.simulate import DEFAULT_MAX_ACTIONS, POLICIES, chooser_for, pick, play_out
from engine.variants import VARIANTS, find_variant

#: The goal set in issue 3: classic with 4 players at least this many times RLCard's speed.
TARGET_RATIO = 3.0


@dataclass(frozen=True)
class Timing:
    """How long some number of complete hands took."""

    games: int
    seconds: float
    #: Actions (RLCard: steps) over all the hands.
    actions: int
    #: Hands that did not end normally (ours: hit the action cap; RLCard: crashed).
    unfinished: int = 0

    @property
    def games_per_second(self) -> float:
        """Hands completed per second of wall-clock time."""
        return self.games / self.seconds if self.seconds else float("inf")

    @property
    def actions_per_game(self) -> float:
        """Mean actions per hand."""
        return self.actions / self.games

    @property
    def actions_per_second(self) -> float:
        """Actions applied per second, the deal's time included."""
        return self.actions / self.seconds if self.seconds else float("inf")


def time_ours(variant: str, players: int, games: int, seed: int,
              policy: str = "eager") -> Timing:
    """Play ``games`` random hands of ``variant`` with our engine, seeds ``seed``, ``seed + 1``..."""
    cls, choose = find_variant(variant), POLICIES[policy]
    actions = unfinished = 0
    start = time.perf_counter()
    for i in range(games):
        game = cls.new(players, seed=seed + i)
        actions += play_out(game, chooser_for(seed + i), choose)
        unfinished += not game.is_over
    return Timing(games, time.perf_counter() - start, actions, unfinished)


def engine_build() -> tuple[str, Path]:
    """How the engine timed was built ("interpreted" or "compiled with mypyc", see
    setup.py) and the folder it is loaded from."""
    import engine.game

    file = Path(engine.game.__file__ or "")
    compiled = file.name.endswith(tuple(EXTENSION_SUFFIXES))
    return ("compiled with mypyc" if compiled else "interpreted"), file.parent


def rlcard_available() -> bool:
    """True when RLCard (the ``bench`` extra) is installed."""
    try:
        import rlcard.games.uno.game  # noqa: F401
    except ImportError:
        return False
    return True


def time_rlcard(players: int, games: int, seed: int) -> Timing:
    """Play ``games`` random hands of RLCard's UNO, driving ``UnoGame`` directly.

    RLCard draws from a ``numpy.random.RandomState`` (its shuffles, a wild's
    colour when flipped or drawn); we seed it per hand, and pick actions with a
    seeded ``random.Random`` and :func:`engine.simulate.pick`, as for our engine. RLCard can crash with
    IndexError when every card is in a hand and someone must draw; such hands
    count as unfinished (and their time stays in the total).
    """
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=players)
    actions = unfinished = 0
    start = time.perf_counter()
    for i in range(games):
        game.np_random = np.random.RandomState(seed + i)
        chooser = random.Random(seed + i)
        game.init_game()
        try:
            for _ in range(DEFAULT_MAX_ACTIONS):
                if game.is_over():
                    break
                game.step(pick(game.get_legal_actions(), chooser))
                actions += 1
            else:
                unfinished += 1
        except IndexError:
            unfinished += 1
    return Timing(games, time.perf_counter() - start, actions, unfinished)


@dataclass(frozen=True)
class Row:
    """One line of the results table."""

    variant: str
    players: int
    ours: Timing
    rlcard: Timing | None

    @property
    def ratio(self) -> float | None:
        """Our hands per second over RLCard's at the same player count."""
        if self.rlcard is None:
            return None
        return self.ours.games_per_second / self.rlcard.games_per_second

    @property
    def action_ratio(self) -> float | None:
        """Our actions per second over RLCard's steps per second."""
        if self.rlcard is None:
            return None
        return self.ours.actions_per_second / self.rlcard.actions_per_second


def faster(a: Timing | None, b: Timing) -> Timing:
    """The quicker of two timings of the same work (``a`` may be missing)."""
    return b if a is None or b.seconds < a.seconds else a


def total(timings: Sequence[Timing | None]) -> Timing:
    """One timing for several batches of hands, timed apart (batches never timed left out)."""
    parts = [t for t in timings if t is not None]
    return Timing(sum(t.games for t in parts), sum(t.seconds for t in parts),
                  sum(t.actions for t in parts), sum(t.unfinished for t in parts))


def batches(games: int, seed: int, size: int) -> list[tuple[int, int]]:
    """``games`` hands from ``seed`` on, as (first seed, hands) batches of at most ``size``."""
    return [(seed + k, min(size, games - k)) for k in range(0, games, size)]


def run(variants: Sequence[str], player_counts: Sequence[int], games: int, seed: int,
        repeat: int, with_rlcard: bool, policy: str = "eager",
        progress: Callable[[str], Any] = print, batch: int = 50) -> list[Row]:
    """Time every variant at every player count it seats, each against RLCard.

    The hands are timed in batches of ``batch``; each batch of a variant is timed
    right after the same batch of RLCard, so each variant is compared with RLCard
    measured next to it. The whole round is done ``repeat`` times and each batch
    keeps its fastest time: a busy spell on the machine spoils a batch of one run,
    not a whole side of the comparison.
    """
    rows = []
    for players in player_counts:
        seated = [find_variant(name) for name in variants]
        seated = [cls for cls in seated if cls.min_players <= players <= cls.max_players]
        parts = batches(games, seed, batch)
        # Per variant: the best time of each batch, ours and RLCard's beside it.
        ours_best: dict[str, list[Timing | None]] = {c.name: [None] * len(parts) for c in seated}
        rlcard_best: dict[str, list[Timing | None]] = {c.name: [None] * len(parts)
                                                       for c in seated}
        for _ in range(repeat):
            for i, (first, count) in enumerate(parts):
                for cls in seated:
                    if with_rlcard:
                        theirs = rlcard_best[cls.name]
                        theirs[i] = faster(theirs[i], time_rlcard(players, count, first))
                    best = ours_best[cls.name]
                    best[i] = faster(best[i], time_ours(cls.name, players, count, first, policy))
        for cls in seated:
            timing = total(ours_best[cls.name])
            rlcard = total(rlcard_best[cls.name]) if with_rlcard else None
            progress(f"  {cls.name:<12} {players}p  {timing.games_per_second:9.1f} games/s"
                     + (f"  (rlcard {rlcard.games_per_second:.1f})" if rlcard else ""))
            rows.append(Row(cls.name, players, timing, rlcard))
    return rows


def format_table(rows: Sequence[Row]) -> str:
    """The results as a fixed-width table."""
    head = (f"{'variant':<13}{'players':>7}{'games':>7}{'actions/game':>14}{'games/s':>10}"
            f"{'rlcard games/s':>16}{'rlcard actions/game':>21}{'ratio':>8}"
            f"{'actions/s ratio':>17}")
    lines = [head, "-" * len(head)]
    for row in rows:
        rl, ratio, action_ratio = row.rlcard, row.ratio, row.action_ratio
        lines.append(
            f"{row.variant:<13}{row.players:>7}{row.ours.games:>7}"
            f"{row.ours.actions_per_game:>14.1f}{row.ours.games_per_second:>10.1f}"
            + (f"{rl.games_per_second:>16.1f}{rl.actions_per_game:>21.1f}{ratio:>7.2f}x"
               f"{action_ratio:>16.2f}x"
               if rl is not None and ratio is not None and action_ratio is not None
               else f"{'-':>16}{'-':>21}{'-':>8}{'-':>17}")
            + (f"  ({row.ours.unfinished} unfinished)" if row.ours.unfinished else "")
            + (f"  (rlcard: {rl.unfinished} crashed)" if rl is not None and rl.unfinished else ""))
    return "\n".join(lines)


def verdict(rows: Sequence[Row]) -> str:
    """Whether classic with 4 players meets the goal of issue 3."""
    for row in rows:
        if row.variant == "classic" and row.players == 4 and row.ratio is not None:
            met = "met" if row.ratio >= TARGET_RATIO else "NOT met"
            return (f"goal (classic, 4 players, >= {TARGET_RATIO:g}x RLCard): {met}"
                    f" at {row.ratio:.2f}x, engine {engine_build()[0]}")
    return "goal not measured: run with classic, 4 players and RLCard installed"


def build_parser() -> argparse.ArgumentParser:
    """The benchmark's command-line arguments. With UNO_BENCH_SMOKE=1 (tests/test_bench.py)
    every variant and player count is played, 5 hands each, once."""
    smoke = os.environ.get("UNO_BENCH_SMOKE") == "1"
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5 if smoke else 500,
                        help="hands per variant and player count (default 500)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 6],
                        help="player counts (default 2 4 6; a variant skips counts it cannot seat)")
    parser.add_argument("--variants", nargs="+", default=[v.name for v in VARIANTS],
                        help="variants to time (default all)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first hand (default 1)")
    parser.add_argument("--repeat", type=int, default=1 if smoke else 3,
                        help="time each batch this many times and keep the fastest (default 3)")
    parser.add_argument("--batch", type=int, default=50,
                        help="hands per batch, RLCard and ours taking turns (default 50)")
    parser.add_argument("--policy", choices=sorted(POLICIES), default="eager",
                        help="how our random players choose (default eager, as RLCard's)")
    parser.add_argument("--no-rlcard", action="store_true", help="time our engine only")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print the table; return the exit status."""
    args = build_parser().parse_args(argv)
    with_rlcard = not args.no_rlcard and rlcard_available()
    if not args.no_rlcard and not with_rlcard:
        print("RLCard is not installed (pip install -e '.[bench]'): timing our engine only")
    print(f"{args.games} hands per case, seeds {args.seed}..{args.seed + args.games - 1},"
          f" in batches of {args.batch}, each the best of {args.repeat},"
          f" our players {args.policy}, Python {sys.version.split()[0]}")
    kind, folder = engine_build()
    print(f"engine {kind}, from {folder}")
    rows = run(args.variants, args.players, args.games, args.seed, args.repeat, with_rlcard,
               args.policy, batch=args.batch)
    print()
    print(format_table(rows))
    if with_rlcard:
        print()
        print(verdict(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
