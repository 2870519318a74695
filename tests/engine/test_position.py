"""One :class:`engine.Position` for every moment of a hand: taken from a game, set up again,
written as text and as JSON, it goes on exactly as the game it was taken from.

Games are driven by the simulator's random player from fixed seeds, every variant (and
classic with the house rules that add decisions), and stopped at every action: each
special card's phase, pending draws and the end of the hand included.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import VARIANTS, Game, Phase, Position, SetupError, TableOptions, find_variant
from engine.simulate import chooser_for, eager_choice, seats_for, uniform_choice

#: (variant, options, seeds): every variant, and classic with the house rules that open
#: more decisions (stacking, 7-0, jump-in; progressive draws, drawing until playable).
TABLES = [*((v.name, None, range(3)) for v in VARIANTS),
          ("classic", TableOptions(stacking=True, seven_o=True, jump_in=True), range(2)),
          ("classic", TableOptions(progressive_uno=True, draw_until_playable=True,
                                   forced_play=True, uno_penalty=0), range(2))]
#: Actions played on from a position, on both games, at each point set up again.
AHEAD = 4


def moments(variant: str, options: TableOptions | None, seed: int) -> Iterator[Game]:
    """The game at each moment of a hand played by the simulator's eager player."""
    cls = find_variant(variant)
    game = cls.new(seats_for(cls, 3 + seed % 3, clamp=True), seed=seed, options=options)
    chooser = chooser_for(seed)
    for _ in range(300):
        yield game
        actions = game.legal_actions()
        if not actions:
            return
        game.apply(eager_choice(actions, chooser))


def goes_on_the_same(game: Game, again: Game, seed: int) -> None:
    """Both games give the same legal actions, events and positions for the same actions."""
    chooser = chooser_for(seed + 1000)
    for _ in range(AHEAD):
        actions = game.legal_actions()
        assert again.legal_actions() == actions
        if not actions:
            return
        action = uniform_choice(actions, chooser)
        assert again.apply(action) == game.apply(action)
        assert again.position() == game.position()
        assert again.to_json()["state"] == game.to_json()["state"]


@pytest.mark.parametrize("variant, options, seeds", TABLES,
                         ids=[f"{v}-{i}" for i, (v, _, _) in enumerate(TABLES)])
def test_every_moment_round_trips_and_goes_on_the_same(variant, options, seeds):
    phases = set()
    for seed in seeds:
        for k, game in enumerate(moments(variant, options, seed)):
            p = game.position()
            phases.add(p.phase)
            again = Position.parse(p.text)
            assert again == p
            assert Position.from_json(json.loads(json.dumps(p.to_json())), variant) == p
            # Set up again at every special phase and pending draw, and every tenth action.
            if p.phase not in (Phase.TURN, Phase.OVER) or k % 10 == 0:
                data = json.loads(json.dumps(game.to_json()))
                assert Game.from_json(data).to_json() == data
                assert p.reseeded(0) == Position.parse(p.reseeded(0).text)
                goes_on_the_same(game.copy(), Game.from_position(again), seed)
    assert Phase.TURN in phases and (Phase.OVER in phases or options is not None)
    special = {ph for t in find_variant(variant).special_phases for ph in t.phases}
    assert special - {Phase.NAME_COLOR} <= phases  # a Wild turned up first: below


@pytest.mark.parametrize("variant", [v.name for v in VARIANTS])
def test_a_wild_turned_up_first_is_a_position_too(variant):
    # R8, R19, R23: the first player names the color (Wild Jackpot: chooses first, R19).
    cls = find_variant(variant)
    for seed in range(400):
        game = cls.new(3, seed=seed)
        if game.phase in (Phase.NAME_COLOR, Phase.CHOOSE):
            p = game.position()
            assert Position.parse(p.text) == p
            goes_on_the_same(game.copy(), Game.from_position(Position.parse(p.text)), seed)
            return
    pytest.skip(f"{variant}: no wild is ever turned up first")


def test_the_phases_seen_cover_pending_draws_drawn_cards_and_the_last_draw():
    seen = set()
    for seed in range(8):
        for game in moments("classic", TableOptions(stacking=True), seed):
            p = game.position()
            seen.add((p.phase, p.final))
    assert {(Phase.PENDING, False), (Phase.DRAWN, False), (Phase.OVER, False)} <= seen


def test_a_pending_draw_is_held_whole_in_the_text():
    game = Game.from_position(Position("classic", ("Ann", "Bea"), (("wild-draw4", "red-1"),
                                       ("blue-3",)), ("red-5",), ("yellow-1",) * 1))
    game.apply("play wild-draw4 green")
    p = game.position()
    assert (p.phase, p.pending_draw, p.pending_from, p.guilty) == (Phase.PENDING, 4, 0, True)
    assert "guilty=1" in p.text and "phase" not in p.text  # the phase follows from the draw
    again = Game.from_position(Position.parse(p.text))
    assert again.apply("challenge") == game.apply("challenge")  # R10: Ann bluffed


def test_a_game_set_up_from_a_position_writes_its_setup_only_when_asked():
    p = Position("classic", (), (("red-7", "red-2"), ("blue-3",)), ("red-5",), ("yellow-1",))
    game = Game.from_position(p)
    setup = game.setup
    assert setup["position"] == game.position().to_json()
    game.apply("play red-7")
    assert Game.replay(setup, game.history).to_json()["state"] == game.to_json()["state"]


@pytest.mark.parametrize("text, words", [
    ("variant=classic;players=A,B;hands=red-1/red-2;discard=red-5;phase=droid",
     "classic has no 'droid' phase"),
    ("variant=classic;players=A,B;hands=red-1/red-2;discard=red-5;phase=drawn", "drawn card"),
    ("variant=classic;players=A,B;hands=red-1/red-2;discard=red-5;phase=over",
     "gone out"),
    ("variant=classic;players=A,B;hands=red-1/red-2;discard=red-5;rng=3:1:abc",
     "random generator"),
    ("variant=star-wars;players=A,B;hands=red-1/red-2;discard=red-5;droid=%7B%22by%22:1%7D",
     "Droid"),
    ("variant=classic;players=A,B;hands=red-1/red-2;discard=red-5;winner=0", "gone out"),
    ("variant=star-wars;players=A,B;hands=red-1/red-2;discard=red-5;phase=droid",
     "a droid is built once a player has played it"),
])
def test_a_position_no_hand_can_be_in_is_refused(text, words):
    with pytest.raises(SetupError, match=words):
        Game.from_position(Position.parse(text))


#: Games saved by the engine before it had a Position, each stopped in a phase (the droid,
#: the lever and its discard, the Dip's give, a pending draw, a drawn card), with the
#: legal actions, the action taken and its events for the next few actions, as that
#: engine played them.
SAVES = json.loads((Path(__file__).parent / "golden" / "saves-before-position.json")
                   .read_text(encoding="utf-8"))


@pytest.mark.parametrize("saved", SAVES, ids=[s["phase"] for s in SAVES])
def test_a_game_saved_before_positions_loads_and_plays_on_as_it_did(saved):
    game = Game.from_json(saved["save"])
    assert game.phase.value == saved["phase"]
    for step in saved["then"]:
        assert [a.text for a in game.legal_actions()] == step["legal"]
        assert [e.text for e in game.apply(step["action"])] == step["events"]
