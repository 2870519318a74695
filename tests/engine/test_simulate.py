"""The random-play simulator: reproducible hands, honest statistics, a working command line."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from engine import VARIANTS, find_variant
from engine.simulate import (
    GameStats,
    chooser_for,
    eager_choice,
    format_summary,
    main,
    parse_option,
    play_out,
    play_random_game,
    random_steps,
    rule_sort_key,
    simulate,
    summarize,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("variant", [v.name for v in VARIANTS])
def test_random_game_ends_with_a_winner(variant: str) -> None:
    game, stats = play_random_game(variant, 3, seed=11, policy="eager")
    assert game.is_over and stats.finished
    assert stats.winner == game.winner is not None
    assert stats.cards_left == tuple(len(hand) for hand in game.hands)
    assert stats.cards_left[stats.winner] == 0
    assert stats.actions >= stats.turns >= 1


def test_random_game_is_reproducible_from_its_seed() -> None:
    first, first_stats = play_random_game("classic", 4, seed=5)
    again, again_stats = play_random_game("classic", 4, seed=5)
    assert first.to_json() == again.to_json()
    assert first_stats == again_stats


def test_different_seeds_play_different_hands() -> None:
    hands = {json.dumps(play_random_game("classic", 4, seed=s)[0].to_json()) for s in range(5)}
    assert len(hands) == 5


def test_rule_counts_cover_every_event() -> None:
    cls = find_variant("classic")
    game = cls.new(4, seed=3)
    events = list(game.opening_events)
    for step in random_steps(game, chooser_for(3)):
        events.extend(step.events)
    _, stats = play_random_game(cls, 4, seed=3)
    assert stats.rule_counts == Counter(event.rule for event in events)
    assert stats.event_counts == Counter(event.kind.value for event in events)
    assert stats.event_counts["deal"] == stats.event_counts["out"] == 1


def test_uniform_player_tries_everything() -> None:
    _, uniform = play_random_game("classic", 4, seed=1, max_actions=3000)
    _, eager = play_random_game("classic", 4, seed=1, policy="eager")
    assert uniform.actions > 2 * eager.actions  # it draws when it could play
    assert uniform.event_counts["catch"] > 0 and eager.event_counts["catch"] == 0


def test_policy_can_be_a_function() -> None:
    _, stats = play_random_game("one", 2, seed=4, policy=lambda actions, rng: actions[-1],
                                max_actions=50)
    assert stats.actions > 0


def test_action_cap_leaves_hand_unfinished() -> None:
    game, stats = play_random_game("classic", 4, seed=2, max_actions=3)
    assert not game.is_over and not stats.finished
    assert stats.actions == 3 and stats.winner is None


def test_summary_adds_up() -> None:
    summary = simulate("pizza-pizza", 3, games=20, seed=1, policy="eager")
    assert summary.games == 20 and summary.unfinished == 0
    assert sum(summary.wins_by_seat) == 20
    assert summary.median_turns >= 1 and summary.mean_actions >= summary.mean_turns
    assert summary.mean_cards_left > 0
    assert len(summary.mean_cards_by_seat) == 3


def test_summarize_counts_only_finished_winners() -> None:
    done = GameStats("classic", 2, 1, actions=10, turns=8, winner=1, finished=True,
                     cards_left=(4, 0), rule_counts=Counter({"R3": 5}))
    stuck = GameStats("classic", 2, 2, actions=20, turns=12, winner=None, finished=False,
                      cards_left=(3, 5), rule_counts=Counter({"R3": 2, "R2": 1}))
    summary = summarize([done, stuck])
    assert summary.wins_by_seat == (0, 1)
    assert summary.unfinished == 1
    assert summary.mean_turns == 10 and summary.median_actions == 15
    assert summary.mean_cards_left == 4  # (4 + 3 + 5) / 3 losing hands
    assert summary.rule_counts == Counter({"R3": 7, "R2": 1})
    report = format_summary(summary)
    assert "1 hit the action cap" in report
    assert report.index("R2 ") < report.index("R3 ")


def test_simulate_needs_a_game() -> None:
    with pytest.raises(ValueError):
        simulate("classic", 2, games=0, seed=1)


def test_rules_sort_by_number() -> None:
    rules = ["R10", "", "R2", "R37", "house"]
    assert sorted(rules, key=rule_sort_key) == ["R2", "R10", "R37", "", "house"]


def test_parse_option() -> None:
    assert parse_option("uno-penalty=2") == ("uno_penalty", 2)
    assert parse_option("wild_swap=false") == ("wild_swap", False)
    assert parse_option("name=text") == ("name", "text")


def test_cli_prints_statistics(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["classic", "--games", "5", "--players", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "classic, 3 players: 5 random hands (eager)" in out
    assert "turns mean" in out and "wins" in out and "per hand" in out


def test_cli_all_variants_fit_their_seats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["all", "--games", "2", "--players", "10"]) == 0
    out = capsys.readouterr().out
    for cls in VARIANTS:
        assert f"{cls.name}, {cls.max_players} players" in out


def test_cli_plays_uniform_hands(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["one", "--games", "2", "--players", "2", "--policy", "uniform", "--max-actions", "50"]
    assert main(argv) == 0
    assert "one, 2 players: 2 random hands (uniform) (2 hit the action cap)" in capsys.readouterr().out


def test_cli_takes_table_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["classic", "--games", "2", "--option", "uno_penalty=2"]) == 0
    assert main(["classic", "--games", "2", "--option", "no_such_rule=1"]) == 2
    assert "unknown table options" in capsys.readouterr().err


@pytest.mark.parametrize("args", [["nosuchgame"], ["pizza-pizza", "--players", "6"]])
def test_cli_refuses_bad_input(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args + ["--games", "1"]) == 2
    assert "error:" in capsys.readouterr().err


def load_bench() -> ModuleType:
    """bench/engine.py is a script, not a package: load it by path."""
    spec = importlib.util.spec_from_file_location("bench_engine", ROOT / "bench" / "engine.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_bench_runs(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_bench()
    argv = ["--games", "2", "--repeat", "1", "--players", "2", "--variants", "classic", "one"]
    assert bench.main(argv + ["--no-rlcard"]) == 0
    out = capsys.readouterr().out
    assert "classic" in out and "one" in out and "games/s" in out


def test_bench_batches_cover_every_hand_once() -> None:
    bench = load_bench()
    assert bench.batches(120, 7, 50) == [(7, 50), (57, 50), (107, 20)]
    assert bench.batches(3, 1, 50) == [(1, 3)]
    parts = [bench.Timing(2, 0.5, 10, 1), bench.Timing(3, 1.5, 20)]
    assert bench.total(parts) == bench.Timing(5, 2.0, 30, 1)


def test_bench_verdict_names_the_ratio_and_the_engine_build() -> None:
    bench = load_bench()
    kind, folder = bench.engine_build()
    import engine.game

    assert folder == Path(engine.game.__file__).parent
    rows = [bench.Row("classic", 4, bench.Timing(300, 1.0, 100), bench.Timing(100, 1.0, 90))]
    assert bench.verdict(rows) == (
        f"goal (classic, 4 players, >= 3x RLCard): met at 3.00x, engine {kind}")
    rows = [bench.Row("classic", 4, bench.Timing(290, 1.0, 100), bench.Timing(100, 1.0, 90))]
    assert "NOT met at 2.90x" in bench.verdict(rows)
    assert bench.verdict(rows[:0]).startswith("goal not measured")


def test_bench_times_rlcard_when_installed() -> None:
    pytest.importorskip("rlcard.games.uno.game")
    bench = load_bench()
    timing = bench.time_rlcard(players=4, games=3, seed=1)
    assert timing.games == 3 and timing.unfinished == 0 and timing.actions > 0
    rows = bench.run(["classic"], [4], games=2, seed=1, repeat=1, with_rlcard=True,
                     progress=lambda line: None)
    assert rows[0].ratio is not None and rows[0].ratio > 0
    assert "goal (classic, 4 players" in bench.verdict(rows)


@pytest.mark.parametrize("name", [v.name for v in VARIANTS])
@pytest.mark.parametrize("options", [None, {"seven_o": True, "jump_in": True},
                                     {"stacking": True, "forced_play": True}])
def test_eager_hands_play_the_same_as_eager_choice_step_by_step(name, options):
    # play_random_game takes a shortcut for lists in legal_actions() order; it must pick
    # exactly what eager_choice picks.
    from engine import TableOptions
    table = TableOptions.from_dict(options) if options else None
    cls = find_variant(name)
    for seed in range(15):
        game, stats = play_random_game(cls, cls.min_players + seed % 2, seed, options=table,
                                       policy="eager")
        again = cls.new(cls.min_players + seed % 2, seed=seed, options=table)
        steps = list(random_steps(again, chooser_for(seed), policy=eager_choice))
        assert [s.action for s in steps] == game.history and stats.actions == len(steps)


@pytest.mark.parametrize("name", [v.name for v in VARIANTS])
def test_play_out_plays_the_hand_play_random_game_plays(name):
    # The benchmark times play_out: it must be the same hand, action for action.
    cls = find_variant(name)
    for seed in range(10):
        players = cls.min_players + seed % 3
        game, stats = play_random_game(cls, players, seed, policy="eager")
        again = cls.new(players, seed=seed)
        assert play_out(again, chooser_for(seed), eager_choice) == stats.actions
        assert again.history == game.history and again.is_over


def test_play_out_stops_at_the_action_cap():
    game = find_variant("classic").new(4, seed=2)
    assert play_out(game, chooser_for(2), max_actions=3) == 3
    assert len(game.history) == 3 and not game.is_over
