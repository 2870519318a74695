"""The referee's shortcuts give the verdicts of playing every case out, and a replay's
game is the engine's replay.

Where a challenge hangs on a hand nobody saw, the referee asks the engine's challenge
test (the variant's ``bluff_card`` hook) of each card the hand may hold, instead of playing
out a game for each; and of the cards that may have been under the draw wild, it plays
out once each group the test says the same of. Here every dispute is settled both ways:
as the referee does, and with every card held and every card under the wild played out
as a game of its own. The verdicts must be the same to the letter.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import engine
from engine import Action, ActionKind, Card, Event, Game
from engine.referee import Replay, branch, resolve
from engine.referee.branch import Branch, Budget, neutral_order
from engine.referee.keywords import can_play, challenge, whos_next
from engine.referee.resolve import BluffTest, guilt
from engine.referee.wording import describe_case

S2 = ["Ann", "Bea"]
S3 = ["Ann", "Bea", "Cy"]
S4 = ["Ann", "Bea", "Cy", "Dan"]
DRAW_WILD = {"classic": "wild-draw4", "wild-jackpot": "wild-draw4", "star-wars": "wild-draw4",
             "pizza-pizza": "wild-draw2", "one": "wild-draw4"}
CHALLENGE = Action(ActionKind.CHALLENGE)


class _OnItsOwn(BluffTest):
    """A test result equal to no other, so that each card under a wild is played out on
    its own."""

    __eq__ = object.__eq__
    __hash__ = object.__hash__


def run(scene: Branch) -> tuple[Game, list[Event]]:
    """The scene played on a budget of its own: the long way is not the referee's search."""
    return replace(scene, budget=Budget()).run()


def played_out(scene: Branch, accused: int, universe: object = None,
               on: Card | None = None) -> BluffTest:
    """The challenge test worked out the long way: a game played out for each card
    (``on``: the card under the wild, set up in the scene)."""
    if on is not None:
        scene = replace(scene, discard=(on,))
    challenged = replace(scene, prelude=(scene.prelude[0], CHALLENGE))
    game, _ = run(replace(scene, prelude=scene.prelude[:1]))
    if not game.is_legal(CHALLENGE):  # One (R31): nothing to test
        return _OnItsOwn(False)
    hand = scene.hands[accused]
    if hand.unknown <= 0:
        return _OnItsOwn(bool(guilt(run(challenged)[1])))
    every = sorted(scene.remaining(), key=neutral_order(scene.table, frozenset()).__getitem__)
    size = len(hand.known) + 1
    bluffs = tuple(c for c in every
                   if guilt(run(challenged.with_hand(accused, [c], size=size))[1]))
    if not bluffs or len(bluffs) == len(every):
        return _OnItsOwn(bool(bluffs))
    return _OnItsOwn(None, describe_case(bluffs, tuple(every)), bluffs)


DISPUTES = [
    *((f"challenge {variant} {hand!r} {top}",
       lambda variant=variant, hand=hand, top=top, seats=seats:
       challenge(variant, seats, "Bea", hand, "red", top))
      for variant in DRAW_WILD
      for hand, seats in ((3, S3), (1, S4), ("green-7 blue-2", S3), ("red-1", S2), ("", S3))
      for top in (None, "red-5", "red-skip")),
    *((f"can_play {variant} {hand!r}",
       lambda variant=variant, hand=hand: can_play(variant, "red-5", None, DRAW_WILD[variant],
                                                   hand))
      for variant in DRAW_WILD for hand in (None, 3)),
    *((f"whos_next {variant} {given}",
       lambda variant=variant, given=given: whos_next(variant, S3, "Ann", DRAW_WILD[variant],
                                                      **given))
      for variant in DRAW_WILD for given in ({"color": "red"}, {"top": "red-5"})),
]


@pytest.mark.parametrize("dispute", [call for _, call in DISPUTES],
                         ids=[name for name, _ in DISPUTES])
def test_the_shortcuts_give_the_verdict_of_playing_every_case_out(dispute, monkeypatch):
    quick = dispute().to_dict()
    monkeypatch.setattr(resolve, "_bluff_test", played_out)
    # The long way plays a case for each card under the wild: far past the referee's budget.
    monkeypatch.setattr(branch, "SEARCH_BUDGET", 10_000)
    assert quick == dispute().to_dict()


def test_the_long_way_is_the_one_the_referee_takes():
    # The comparison above means something only if the referee asks the test it replaces.
    calls = []

    def spy(scene: Branch, accused: int, universe: object = None,
            on: Card | None = None) -> BluffTest:
        calls.append(on if on is not None else scene.discard[-1])
        return played_out(scene, accused, on=on)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(resolve, "_bluff_test", spy)
        patch.setattr(branch, "SEARCH_BUDGET", 10_000)
        challenge("pizza-pizza", S3, "Bea", 3, "red")
    assert len(set(calls)) > 10  # each card that may have been under the Wild Draw 2


@pytest.mark.parametrize("variant", [v.name for v in engine.VARIANTS])
def test_a_replay_plays_the_game_the_engine_replays(variant):
    # Replay.game applies the actions to the position it sets up, rather than going
    # through Game.replay and its copies of the setup: the same game, generator and all
    # (a Wild Jackpot lever spins it).
    rng = random.Random(7)
    replay = Replay(engine.find_variant(variant).new(S4, seed=1).position().reseeded(0))
    for _ in range(40):
        choices = replay.choices()
        if not choices:
            break
        replay = replay.play(rng.choice(choices).action)
    assert variant != "wild-jackpot" or "lever" in replay.actions  # the generator spun
    start = Game.from_position(replay.position)
    assert replay.game().to_json() == Game.replay(start.setup, replay.actions).to_json()
