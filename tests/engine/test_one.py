"""The "One" sheet (rules/one.txt) and rulings R27-R32."""

from __future__ import annotations

import pytest
from scenario import deal, hand, legal, play, position, rules

from engine import NoPointsError, TableOptions, UnplayableCardError, find_variant
from engine.events import EventKind

ONE = find_variant("one")
HANDS = ["red-1 red-2 red-3 red-4 red-5 red-6 blue-1",
         "yellow-1 yellow-2 yellow-3 yellow-4 yellow-5 yellow-6 blue-2"]


def test_r27_deck_and_deal():
    game = ONE.new(10, seed=3)
    assert all(len(h) == 7 for h in game.hands)
    assert sum(map(len, game.hands)) + len(game.draw_pile) + len(game.discard_pile) == 107


@pytest.mark.parametrize("first", ["red-skip", "blue-reverse", "green-draw2", "wild",
                                   "wild-draw4"])
def test_r28_first_card_must_be_a_number(first):
    game = deal("one", HANDS, first, "green-5 green-6 green-7")
    assert game.top_card.is_number
    assert {e.rule for e in game.opening_events if e.kind is EventKind.RETURNED} == {"R28"}
    assert game.to_act == 1


def test_r29_no_play_draw_one_and_the_turn_passes():
    game = position("one", ["blue-1 blue-2", "yellow-3 yellow-4"], "red-5", "red-9 green-1")
    assert legal(game) == ["draw"]
    events = play(game, "draw")
    assert hand(game, 0) == "blue-1 blue-2 red-9"  # playable, yet not this turn
    assert game.to_act == 1 and rules(events) == ["R29", "R29"]


def test_r29_declining_a_legal_play_means_drawing():
    game = position("one", ["red-1 blue-2", "yellow-3 yellow-4"], "red-5", "green-1")
    assert legal(game) == ["play red-1", "draw"]
    play(game, "draw")
    assert game.to_act == 1 and hand(game, 0) == "red-1 blue-2 green-1"


def test_r29_forced_play_cannot_force_a_drawn_card_in_one():
    game = position("one", ["blue-1", "yellow-3 yellow-4"], "red-5", "red-9",
                    options=TableOptions(forced_play=True))
    play(game, "draw")
    assert game.to_act == 1


def test_r30_reverse_reverses():
    game = position("one", ["red-reverse red-1", "red-2", "red-3"], "red-5")
    play(game, "play red-reverse")
    assert game.direction == -1 and game.to_act == 2


def test_r30_two_players_reverse_has_no_further_effect():
    game = position("one", ["red-reverse red-1", "red-2 red-3"], "red-5")
    events = play(game, "play red-reverse")
    assert game.to_act == 1 and "R30" in rules(events)


def test_r30_two_players_table_may_use_classic_reverse():
    game = position("one", ["red-reverse red-1", "red-2 red-3"], "red-5",
                    options=TableOptions(two_player_reverse_skips=True))
    play(game, "play red-reverse")
    assert game.to_act == 0


def test_r31_wild_draw4_any_time_no_challenge():
    game = position("one", ["wild-draw4 red-1 red-2", "yellow-3 yellow-4", "green-1"], "red-5",
                    "blue-1 blue-2 blue-3 blue-4")
    assert "play wild-draw4 blue" in legal(game)  # holding red: still allowed
    events = play(game, "play wild-draw4 blue")
    assert len(game.hands[1]) == 6 and game.to_act == 2
    assert "R31" in rules(events)
    assert game.uno_owed == ()


def test_r31_nothing_to_challenge():
    game = position("one", ["yellow-3 yellow-4", "green-1"], "red-5 wild-draw4",
                    color="green", pending_draw=4, to_act=0, pending_from=1,
                    options=TableOptions(stacking=True))
    with pytest.raises(UnplayableCardError, match="R31"):
        game.apply("challenge")


def test_r32_first_out_wins_and_there_are_no_points():
    game = position("one", ["red-1", "yellow-3 yellow-4"], "red-5")
    play(game, "play red-1")
    result = game.hand_result()
    assert result.went_out == 0 and result.points is None
    assert result.outcome.held == {}
    with pytest.raises(NoPointsError, match="R32"):
        ONE.hand_points(game.hands[1])
