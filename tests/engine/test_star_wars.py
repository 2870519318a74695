"""UNO Star Wars sheet (rules/star-wars.md) and rulings R33-R37."""

from __future__ import annotations

from collections import Counter

import pytest
from scenario import card, deal, hand, legal, play, position, rules

from engine import Color, Phase, UnplayableCardError, find_variant
from engine.events import EventKind

STAR_WARS = find_variant("star-wars")
HANDS = ["red-1 red-2 red-3 red-4 red-5 red-6 blue-1",
         "yellow-1 yellow-2 yellow-3 yellow-4 yellow-5 yellow-6 blue-2",
         "green-1 green-2 green-3 green-4 green-5 green-6 blue-3"]
DRAW = "blue-5 blue-6 blue-7 blue-8 blue-9 green-7 green-8 green-9 yellow-7 yellow-8"


def conserved(game):
    return Counter(c for h in game.hands for c in h) + Counter(game.draw_pile) + Counter(
        game.discard_pile) + Counter(c for h in game.laid_aside for c in h)


def test_r33_deck_has_one_droid():
    game = STAR_WARS.new(4, seed=9)
    cards = conserved(game)
    assert sum(cards.values()) == 109 and cards[card("wild-droid")] == 1


@pytest.mark.parametrize("first", ["red-skip", "wild-droid", "wild", "blue-draw2"])
def test_r34_first_action_card_is_ignored(first):
    game = deal("star-wars", HANDS, first, DRAW)
    assert game.top_card.is_number and game.to_act == 1
    assert {e.rule for e in game.opening_events if e.kind is EventKind.RETURNED} == {"R34"}


@pytest.mark.parametrize("rest, guilty", [
    ("red-1", True), ("wild", True), ("wild-droid", True), ("wild-draw4", True),
    ("blue-5", False), ("blue-skip green-2", False)])
def test_r35_any_wild_also_counts_as_a_match(rest, guilty):
    game = position("star-wars", [f"wild-draw4 {rest} yellow-9", "yellow-3 yellow-4", "green-1"],
                    "red-5", DRAW)
    play(game, "play wild-draw4 green")
    events = play(game, "challenge")
    assert game.current_color is Color.GREEN  # named whatever the outcome
    if guilty:
        assert len(game.hands[0]) == len(rest.split()) + 1 + 4 and len(game.hands[1]) == 2
        assert game.to_act == 1
    else:
        assert len(game.hands[1]) == 8 and game.to_act == 2
    assert "R35" in rules(events)


def droid_table(hands=("wild-droid red-1 blue-1 yellow-5", "blue-2 green-2", "red-3 red-4",
                       "green-3 yellow-3"), **kwargs):
    return position("star-wars", list(hands), "red-5", DRAW, **kwargs)


def test_r36_droid_lay_different_colors_until_someone_cannot():
    game = droid_table()
    events = play(game, "play wild-droid yellow")
    assert game.phase is Phase.DROID and game.to_act == 0
    assert legal(game) == ["lay red-1", "lay blue-1", "lay yellow-5"]
    events += play(game, "lay red-1")
    assert game.to_act == 1 and legal(game) == ["lay blue-2", "lay green-2"]
    events += play(game, "lay blue-2")
    # Cal holds only red: a red card is allowed after a blue one
    assert game.to_act == 2 and legal(game) == ["lay red-3", "lay red-4"]
    events += play(game, "lay red-3")
    assert game.laid_aside == ((card("red-1"),), (card("blue-2"),), (card("red-3"),), ())
    assert conserved(game) == conserved(droid_table())
    events += play(game, "lay green-3")  # Dan
    # Ann again: red-1 is laid, so she holds blue-1 yellow-5; both differ from green
    events += play(game, "lay blue-1")
    # Bea holds only green-2: allowed after blue
    events += play(game, "lay green-2")
    # Cal holds red-4: allowed after green
    events += play(game, "lay red-4")
    # Dan holds yellow-3: allowed after red
    events += play(game, "lay yellow-3")
    # Ann holds yellow-5 only: the last card laid is yellow, so she cannot
    assert EventKind.DROID_FAIL in [e.kind for e in events]
    assert hand(game, 0).startswith("yellow-5") and len(game.hands[0]) == 1 + 3 + 2
    assert game.laid_aside == ((), (), (), ())
    assert sorted(hand(game, 2).split()) == ["red-3", "red-4"]
    assert game.phase is Phase.TURN and game.to_act == 1  # after the droid's player
    assert game.current_color is Color.YELLOW
    assert set(rules(events)) <= {"R3", "R36"}
    assert conserved(game) == conserved(droid_table())


def test_r36_droid_player_with_no_colored_card_fails_at_once():
    game = droid_table(hands=("wild-droid wild", "blue-2 green-2", "red-3", "green-3"))
    events = play(game, "play wild-droid blue")
    assert hand(game, 0) == "wild blue-5 blue-6 blue-7"
    assert game.to_act == 1 and EventKind.DROID_FAIL in [e.kind for e in events]


def test_r36_wild_cards_cannot_be_laid():
    game = droid_table(hands=("wild-droid red-1 wild", "blue-2", "red-3", "green-3"))
    play(game, "play wild-droid blue")
    with pytest.raises(UnplayableCardError, match="R36"):
        game.apply("lay wild")


def test_r36_same_color_cannot_follow():
    game = droid_table()
    play(game, "play wild-droid blue", "lay blue-1")
    with pytest.raises(UnplayableCardError, match="R36"):
        game.apply("lay blue-2")


def test_r36_droid_follows_the_direction_of_play():
    game = droid_table(direction=-1)
    play(game, "play wild-droid blue", "lay red-1")
    assert game.to_act == 3


def test_r36_droid_as_last_card_ends_the_hand():
    game = droid_table(hands=("wild-droid", "blue-2", "red-3", "green-3"))
    play(game, "play wild-droid blue")
    assert game.is_over and game.winner == 0


def test_r37_scores():
    game = position("star-wars", ["red-1", "wild-droid red-skip blue-reverse green-draw2 blue-9"],
                    "red-5")
    play(game, "play red-1")
    assert game.hand_result().points == {1: 50 + 20 + 20 + 20 + 9}
    assert STAR_WARS.default_target == 500
    assert game.opening_events == []  # a position has no deal
