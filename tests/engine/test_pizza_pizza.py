"""UNO Pocket Pizza Pizza sheet (rules/pizza-pizza.txt) and rulings R22-R26."""

from __future__ import annotations

from collections import Counter

import pytest
from scenario import card, deal, hand, legal, play, position, rules, texts

from engine import Color, Phase, SetupError, find_variant
from engine.events import EventKind

PIZZA = find_variant("pizza-pizza")
HANDS = ["red-1 red-2 red-3 red-4 red-5", "yellow-1 yellow-2 yellow-3 yellow-4 yellow-5",
         "green-1 green-2 green-3 green-4 green-5"]
DRAW = "blue-1 blue-2 blue-3 blue-4 blue-5"
#: A draw pile for positions, clear of the cards their hands use.
POS_DRAW = "yellow-7 yellow-8 yellow-9 green-8 green-9 blue-6 blue-7"


# -- R22: deck, players, hand size ----------------------------------------------------------


def test_r22_five_cards_each_from_51():
    game = PIZZA.new(5, seed=4)
    assert [len(h) for h in game.hands] == [5] * 5
    total = sum(len(h) for h in game.hands) + len(game.draw_pile) + len(game.discard_pile)
    assert total == 51


@pytest.mark.parametrize("players", [1, 6])
def test_r22_two_to_five_players(players):
    with pytest.raises(SetupError, match="2-5"):
        PIZZA.new(players, seed=1)


# -- R23: the first card -----------------------------------------------------------------------


def test_r23_first_skip_skips_the_first_player():
    assert deal("pizza-pizza", HANDS, "red-skip", DRAW).to_act == 2


def test_r23_first_draw_one_first_player_draws_one_and_loses_turn():
    game = deal("pizza-pizza", HANDS, "red-draw1", DRAW)
    assert hand(game, 1) == HANDS[1] + " blue-1" and game.to_act == 2


def test_r23_first_reverse_dealer_plays_first_counter_clockwise():
    game = deal("pizza-pizza", HANDS, "red-reverse", DRAW, dealer=1)
    assert game.to_act == 1 and game.direction == -1


def test_r23_first_wild_first_player_names_the_color():
    game = deal("pizza-pizza", HANDS, "wild", DRAW)
    assert game.phase is Phase.NAME_COLOR and game.to_act == 1


@pytest.mark.parametrize("first", ["wild-draw2", "wild-dip"])
def test_r23_first_wild_draw2_and_dip_go_back(first):
    game = deal("pizza-pizza", HANDS, first, DRAW)
    assert game.top_card is not card(first) and card(first) in game.draw_pile
    assert {e.rule for e in game.opening_events if e.kind is EventKind.RETURNED} == {"R23"}


# -- Draw One, playing and drawing ----------------------------------------------------------------


def test_draw_one_next_player_draws_one_and_loses_turn():
    game = position("pizza-pizza", ["red-draw1 red-2", "blue-3", "green-3 green-4"], "red-5",
                    POS_DRAW)
    play(game, "play red-draw1")
    assert hand(game, 1) == "blue-3 yellow-7" and game.to_act == 2


def test_players_may_draw_instead_and_play_the_drawn_card():
    game = position("pizza-pizza", ["red-2 blue-3", "green-3"], "red-5", "red-9 " + POS_DRAW)
    assert "draw" in legal(game)
    play(game, "draw")
    assert legal(game) == ["play red-9", "pass"]


# -- R24: Wild Dip Into The Deck -------------------------------------------------------------------


def test_r24_dip_draw_one_then_give_any_card_to_the_next_player():
    game = position("pizza-pizza", ["wild-dip red-2 blue-3", "green-3 green-4", "yellow-3"],
                    "red-5", "red-9 " + POS_DRAW)
    events = play(game, "play wild-dip yellow")
    assert game.phase is Phase.GIVE and game.to_act == 0
    assert hand(game, 0) == "red-2 blue-3 red-9"
    assert legal(game) == ["give red-2", "give blue-3", "give red-9"]
    events += play(game, "give red-9")  # the drawn card may be given
    assert hand(game, 1) == "green-3 green-4 red-9" and hand(game, 0) == "red-2 blue-3"
    assert game.to_act == 1 and game.phase is Phase.TURN  # Bea does not lose her turn
    assert game.current_color is Color.YELLOW
    assert "R24" in rules(events)
    assert texts(events)[-1] == "Ann gives a card to Bea (R24; pizza-pizza sheet, Wild Dip Into The Deck)"


def test_r24_dip_as_the_last_card_ends_the_hand():
    game = position("pizza-pizza", ["wild-dip", "green-3 green-4"], "red-5", POS_DRAW)
    play(game, "play wild-dip blue")
    assert game.is_over and game.winner == 0 and hand(game, 1) == "green-3 green-4"


# -- R25: Wild Draw 2 and its challenge -------------------------------------------------------------


@pytest.mark.parametrize("rest, guilty", [
    ("red-1", True), ("blue-5", True), ("wild", True), ("wild-dip", True), ("blue-2", False),
    ("blue-2 green-skip", False), ("blue-skip", False)])
def test_r25_guilty_if_any_other_card_was_playable(rest, guilty):
    game = position("pizza-pizza", [f"wild-draw2 {rest}", "yellow-3 yellow-4", "green-6"],
                    "red-5", POS_DRAW)
    play(game, "play wild-draw2 blue")
    events = play(game, "challenge")
    kinds = [e.kind for e in events]
    if guilty:
        assert EventKind.GUILTY in kinds and len(game.hands[0]) == len(rest.split()) + 2
        assert game.to_act == 1
    else:
        assert EventKind.INNOCENT in kinds and len(game.hands[1]) == 2 + 4
        assert game.to_act == 2
    assert "R25" in rules(events)


def test_r25_accepting_wild_draw2():
    game = position("pizza-pizza", ["wild-draw2 red-1", "yellow-3 yellow-4", "green-6"], "red-5",
                    POS_DRAW)
    play(game, "play wild-draw2 green", "accept")
    assert len(game.hands[1]) == 4 and game.to_act == 2


# -- R26: scores ---------------------------------------------------------------------------------------


def test_r26_scores():
    game = position("pizza-pizza", ["red-1", "red-skip red-draw1 wild-dip blue-9", "wild-draw2"],
                    "red-5")
    play(game, "play red-1")
    assert game.hand_result().points == {1: 20 + 20 + 50 + 9, 2: 50}
    assert PIZZA.default_target == 250
    assert Counter(PIZZA.deck()) == Counter(PIZZA.deck_counts())  # sanity: counts are the deck
