"""Random play: complete hands with random legal actions, and their statistics.

Used by the property tests, the speed benchmark (``bench/engine.py``) and the
simulator command line::

    python -m engine.simulate classic --games 1000 --players 4 --seed 1

Every hand is reproducible: the game is dealt from ``seed`` and the choices
come from a separate generator seeded from it, so the same seed always plays
the same hand.

Two random players are built in (``--policy``):

- ``uniform``: every legal action equally likely, out-of-turn UNO calls and
  catches included. It reaches every corner of the rules, which is what the
  property tests want, but it declines a playable card for a draw as often as
  it plays one, so hands run to a thousand turns and more (and with the
  draw-until-playable house rule need not end in any fixed number of actions).
  The default of :func:`play_random_game`.
- ``eager``: plays a card whenever one can be played, calls UNO as soon as it
  may, and otherwise chooses at random (which card, color, seat, whether to
  challenge); the play that leaves one card calls UNO with it. Hands last a few dozen turns, as at a real table. RLCard's random
  agent plays like this (its legal actions never include a draw while a card
  can be played), so the speed benchmark uses it, and so does the command line
  unless told otherwise: its hand lengths are the ones a table would see.

>>> game, stats = play_random_game("classic", 3, seed=7, policy="eager")
>>> game.is_over and stats.finished and stats.winner == game.winner
True
>>> stats.event_counts["deal"], stats.event_counts["out"]
(1, 1)
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from math import floor
from operator import itemgetter
from typing import Any, NamedTuple, TypeVar

from .actions import Action, ActionKind
from .events import Event
from .game import Game
from .options import TableOptions
from .variants import VARIANTS, find_variant

T = TypeVar("T")

#: Actions after which a random hand counts as unfinished: far above any eager hand
#: (a few thousand actions at worst), yet it bounds a runaway loop.
DEFAULT_MAX_ACTIONS = 20_000


class SimulatedStep(NamedTuple):
    """One applied action: who was to act, what was done and what happened."""

    to_act: int
    action: Action
    events: list[Event]


@dataclass(frozen=True)
class GameStats:
    """What happened in one random hand."""

    variant: str
    players: int
    seed: int
    #: Actions applied, out-of-turn ones (UNO calls, catches) included.
    actions: int = 0
    #: Turns: how many times the decision passed to a seat (the first one counts).
    turns: int = 0
    #: The seat that went out, None if the hand did not finish.
    winner: int | None = None
    #: False when the hand hit the action cap before ending.
    finished: bool = False
    #: Cards in each hand at the end.
    cards_left: tuple[int, ...] = ()
    #: Events fired, the deal's included, counted by the rule they cite ("" for none).
    rule_counts: Counter[str] = field(default_factory=Counter)
    #: Events fired, the deal's included, counted by kind ("play", "draw", "challenge"...).
    event_counts: Counter[str] = field(default_factory=Counter)


#: How a random player picks one of the legal actions.
Policy = Callable[[Sequence[Action], random.Random], Action]

_UNO, _DRAW, _PASS = ActionKind.UNO, ActionKind.DRAW, ActionKind.PASS


def pick(items: Sequence[T], chooser: random.Random) -> T:
    """One of ``items``, all equally likely.

    Scales one ``random()`` float, like :func:`engine.chance.shuffle`: about
    twice as fast as ``chooser.choice``, whose integer draws are Python code, and
    a random player picks once per action. The benchmark drives RLCard with it too.
    """
    return items[floor(chooser.random() * len(items))]


def uniform_choice(actions: Sequence[Action], chooser: random.Random) -> Action:
    """Any legal action, all equally likely."""
    return pick(actions, chooser)


def eager_choice(actions: Sequence[Action], chooser: random.Random) -> Action:
    """Call UNO when owed, else play rather than draw or pass, else anything, at random.

    A play that may call UNO with it (``play CARD uno``, the next-to-last card) does.
    """
    doing = []
    calling = []
    for action in actions:
        kind = action.kind
        if kind is _UNO:
            return action
        if action.uno:
            calling.append(action)
        elif kind is not _DRAW and kind is not _PASS:
            doing.append(action)
    return pick(calling or doing or actions, chooser)


POLICIES: dict[str, Policy] = {"uniform": uniform_choice, "eager": eager_choice}


def _eager_on_legal(actions: Sequence[Action], chooser: random.Random) -> Action:
    """:func:`eager_choice` for a list in :meth:`Game.legal_actions` order, picking the same.

    There a draw or pass comes after the plays, and calling plays, jump-ins, UNO calls and
    catches after it; so with a draw or pass last, everything before it is a play (or
    another decision) and the eager player picks among those alone, no scan needed.
    """
    kind = actions[-1].kind
    if (kind is _DRAW or kind is _PASS) and len(actions) > 1:
        return actions[floor(chooser.random() * (len(actions) - 1))]
    return eager_choice(actions, chooser)


def _for_legal_lists(policy: Policy) -> Policy:
    """The policy to use on lists straight from :meth:`Game.legal_actions` (same picks)."""
    return _eager_on_legal if policy is eager_choice else policy


def chooser_for(seed: int) -> random.Random:
    """The generator that picks random actions for the hand dealt from ``seed``.

    Kept apart from the game's own generator so choosing never disturbs the
    shuffles and the lever, and a replay from seed + actions needs no chooser.
    """
    return random.Random(f"choices:{seed}")


def random_steps(game: Game, chooser: random.Random, max_actions: int = DEFAULT_MAX_ACTIONS,
                 policy: Policy = uniform_choice) -> Iterator[SimulatedStep]:
    """Apply random legal actions until the hand ends or ``max_actions`` are done."""
    for _ in range(max_actions):
        to_act = game.to_act
        if to_act is None:
            return
        action = policy(game.legal_actions(), chooser)
        yield SimulatedStep(to_act, action, game.apply(action))


def play_out(game: Game, chooser: random.Random, policy: Policy = uniform_choice,
             max_actions: int = DEFAULT_MAX_ACTIONS,
             step: Callable[[Action], object] | None = None) -> int:
    """Apply random legal actions until the hand ends; return how many were applied.

    The one play loop. Bare, it keeps nothing (the events :meth:`Game.apply` returns
    are dropped): what the speed benchmark times. ``step``, when given, applies each
    action instead of ``game.apply`` (:func:`play_random_game` counts and keeps with
    it). ``game.is_over`` says whether the hand ended or ``max_actions`` ran out.

    >>> game = find_variant("classic").new(4, seed=3)
    >>> play_out(game, chooser_for(3), eager_choice) > 0 and game.is_over
    True
    """
    legal_actions = game.legal_actions
    apply = game.apply if step is None else step
    policy = _for_legal_lists(policy)
    for done in range(max_actions):
        actions = legal_actions()
        if not actions:  # only once the hand is over
            return done
        apply(policy(actions, chooser))
    return max_actions


#: An event's kind and rule (fields 0 and 2 of the tuple), read in C.
_KIND_AND_RULE = itemgetter(0, 2)


def play_random_game(variant: str | type[Game], players: int, seed: int, *,
                     options: TableOptions | None = None, policy: str | Policy = "uniform",
                     max_actions: int = DEFAULT_MAX_ACTIONS) -> tuple[Game, GameStats]:
    """Deal a hand from ``seed`` and play it out with random legal actions.

    ``policy`` is a name from :data:`POLICIES` or a function choosing an action.
    """
    cls = find_variant(variant) if isinstance(variant, str) else variant
    choose = POLICIES[policy] if isinstance(policy, str) else policy
    game = cls.new(players, seed=seed, options=options)
    events = list(game.opening_events)
    turns = 0
    last_to_act: int | None = None

    def step(action: Action) -> None:
        # A turn begins whenever the decision passes to another seat.
        nonlocal turns, last_to_act
        to_act = game.to_act
        if to_act != last_to_act:
            turns += 1
            last_to_act = to_act
        events.extend(game.apply(action))

    actions = play_out(game, chooser_for(seed), choose, max_actions, step)
    # Counted once at the end: map and Counter run in C, a Python loop per event would not;
    # one pass over (kind, rule) pairs, then the few distinct pairs split by kind and by rule.
    kinds: Counter[str] = Counter()
    rules: Counter[str] = Counter()
    for (kind, rule), n in Counter(map(_KIND_AND_RULE, events)).items():
        kinds[kind.value] += n
        rules[rule] += n
    over = game.is_over
    return game, GameStats(
        cls.name, players, seed, actions=actions, turns=turns,
        winner=game.winner if over else None, finished=over,
        cards_left=tuple(len(hand) for hand in game.hands),
        rule_counts=rules, event_counts=kinds,
    )


# -- many hands ----------------------------------------------------------------


@dataclass(frozen=True)
class Summary:
    """Statistics over many random hands of one variant and player count."""

    variant: str
    players: int
    games: int
    unfinished: int
    mean_turns: float
    median_turns: float
    mean_actions: float
    median_actions: float
    #: Mean cards held at the end by the players who did not go out.
    mean_cards_left: float
    #: Mean cards held at the end by each seat (the winner's 0 included).
    mean_cards_by_seat: tuple[float, ...]
    wins_by_seat: tuple[int, ...]
    rule_counts: Counter[str]
    event_counts: Counter[str]
    policy: str = "uniform"


def simulate(variant: str | type[Game], players: int, games: int, seed: int, *,
             options: TableOptions | None = None, policy: str = "uniform",
             max_actions: int = DEFAULT_MAX_ACTIONS) -> Summary:
    """Play ``games`` random hands dealt from seeds ``seed``, ``seed + 1``, ... and sum them up."""
    if games < 1:
        raise ValueError("simulate at least one game")
    results = [play_random_game(variant, players, seed + i, options=options, policy=policy,
                                max_actions=max_actions)[1] for i in range(games)]
    return summarize(results, policy)


def summarize(results: Sequence[GameStats], policy: str = "uniform") -> Summary:
    """Sum up the statistics of several hands of one variant and player count."""
    first = results[0]
    turns = [s.turns for s in results]
    actions = [s.actions for s in results]
    losers_cards = [n for s in results for seat, n in enumerate(s.cards_left)
                    if seat != s.winner]
    wins = [0] * first.players
    rules: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for s in results:
        if s.winner is not None:
            wins[s.winner] += 1
        rules.update(s.rule_counts)
        kinds.update(s.event_counts)
    return Summary(
        variant=first.variant, players=first.players, games=len(results),
        unfinished=sum(not s.finished for s in results),
        mean_turns=statistics.fmean(turns), median_turns=statistics.median(turns),
        mean_actions=statistics.fmean(actions), median_actions=statistics.median(actions),
        mean_cards_left=statistics.fmean(losers_cards) if losers_cards else 0.0,
        mean_cards_by_seat=tuple(statistics.fmean(s.cards_left[seat] for s in results)
                                 for seat in range(first.players)),
        wins_by_seat=tuple(wins), rule_counts=rules, event_counts=kinds, policy=policy,
    )


def rule_sort_key(rule: str) -> tuple[str, int, str]:
    """Order rules as people read them: R2 before R10, citations without a number last."""
    match = re.match(r"([A-Za-z]*)(\d+)", rule)
    if not match:
        return ("~", 0, rule)
    return (match.group(1), int(match.group(2)), rule)


def format_summary(summary: Summary) -> str:
    """The summary as a plain-text report."""
    n = summary.games
    lines = [
        f"{summary.variant}, {summary.players} players: {n} random hands ({summary.policy})"
        + (f" ({summary.unfinished} hit the action cap)" if summary.unfinished else ""),
        (f"  hand length: {summary.mean_turns:.1f} turns mean, {summary.median_turns:g} median"
         f" ({summary.mean_actions:.1f} actions mean, {summary.median_actions:g} median)"),
        f"  cards left per losing hand at the end: {summary.mean_cards_left:.2f} mean",
        "  seat   wins   share  cards at end",
    ]
    for seat, wins in enumerate(summary.wins_by_seat):
        lines.append(f"  {seat:>4} {wins:>6} {wins / n:>7.1%} {summary.mean_cards_by_seat[seat]:>13.2f}")
    lines.append("  rule cited       events  per hand")
    for rule in sorted(summary.rule_counts, key=rule_sort_key):
        count = summary.rule_counts[rule]
        lines.append(f"  {rule or '(sheet only)':<14} {count:>8} {count / n:>9.2f}")
    lines.append("  event            events  per hand")
    for kind, count in sorted(summary.event_counts.items(), key=lambda kc: (-kc[1], kc[0])):
        lines.append(f"  {kind:<14} {count:>8} {count / n:>9.2f}")
    return "\n".join(lines)


# -- command line --------------------------------------------------------------


def parse_option(text: str) -> tuple[str, Any]:
    """``name=value`` from the command line; the value is read as JSON, else kept as text."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"{text!r}: write an option as name=value")
    try:
        return name.strip().replace("-", "_"), json.loads(value)
    except json.JSONDecodeError:
        return name.strip().replace("-", "_"), value


def build_parser() -> argparse.ArgumentParser:
    """The simulator's command-line arguments."""
    parser = argparse.ArgumentParser(
        prog="python -m engine.simulate",
        description="Play random hands of a variant and print statistics.")
    names = ", ".join(v.name for v in VARIANTS)
    parser.add_argument("variant", help=f"one of {names}, or 'all'")
    parser.add_argument("--games", type=int, default=1000, help="hands to play (default 1000)")
    parser.add_argument("--players", type=int, default=4, help="seats at the table (default 4)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first hand (default 1)")
    parser.add_argument("--policy", choices=sorted(POLICIES), default="eager",
                        help="how the random players choose (default eager; see the module doc)")
    parser.add_argument("--max-actions", type=int, default=DEFAULT_MAX_ACTIONS,
                        help="give up on a hand after this many actions")
    parser.add_argument("--option", action="append", type=parse_option, default=[],
                        metavar="NAME=VALUE", help="a table option, e.g. uno_penalty=2")
    return parser


def seats_for(cls: type[Game], players: int, *, clamp: bool = False) -> int:
    """``players`` if the variant seats that many, else the nearest count (``clamp``) or an error."""
    if clamp:
        return min(max(players, cls.min_players), cls.max_players)
    if not cls.min_players <= players <= cls.max_players:
        raise ValueError(f"{cls.name} seats {cls.min_players}-{cls.max_players} players, not {players}")
    return players


def main(argv: Sequence[str] | None = None) -> int:
    """Run the simulator; return the process exit status."""
    args = build_parser().parse_args(argv)
    try:
        variants = VARIANTS if args.variant == "all" else [find_variant(args.variant)]
        options = TableOptions.from_dict(dict(args.option)) if args.option else None
        reports = []
        for cls in variants:
            players = seats_for(cls, args.players, clamp=args.variant == "all")
            summary = simulate(cls, players, args.games, args.seed, options=options,
                               policy=args.policy, max_actions=args.max_actions)
            reports.append(format_summary(summary))
    except (ValueError, TypeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print("\n\n".join(reports))
    return 0


if __name__ == "__main__":
    sys.exit(main())
