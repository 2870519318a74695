"""Classic sheet (rules/classic.md), section by section, and rulings R7-R14."""

from __future__ import annotations

from collections import Counter

import pytest
from scenario import card, deal, filler, hand, kinds, legal, play, position, rules, texts

from engine import (
    BadChoiceError,
    Color,
    NotYourTurnError,
    Phase,
    TableOptions,
    UnplayableCardError,
    find_variant,
)
from engine.events import EventKind

CLASSIC = find_variant("classic")
FOUR_HANDS = [
    "red-1 red-2 red-3 red-4 red-5 red-6 blue-1",
    "yellow-1 yellow-2 yellow-3 yellow-4 yellow-5 yellow-6 blue-2",
    "green-1 green-2 green-3 green-4 green-5 green-6 blue-3",
    "red-7 yellow-7 green-7 blue-7 red-8 yellow-8 blue-4",
]
DRAW = "green-8 green-9 blue-8 blue-9 red-9 yellow-9"


# -- Setup: the deal and R7's deck ---------------------------------------------------------


@pytest.mark.parametrize("blanks, swap, size", [(0, True, 109), (0, False, 108), (2, True, 111),
                                                (4, False, 112)])
def test_r7_the_deck_dealt_holds_the_table_cards(blanks, swap, size):
    game = CLASSIC.new(4, seed=5, options=TableOptions(blank_cards=blanks, wild_swap=swap))
    cards = Counter(c for h in game.hands for c in h) + Counter(game.draw_pile) + Counter(
        game.discard_pile)
    assert sum(cards.values()) == size
    assert cards[card("blank")] == blanks and cards[card("wild-swap")] == int(swap)
    assert all(len(h) == 7 for h in game.hands)


def test_setup_first_number_card_starts_left_of_dealer():
    game = deal("classic", FOUR_HANDS, "blue-5", DRAW, dealer=1)
    assert game.to_act == 2 and game.current_color is Color.BLUE
    assert texts(game.opening_events)[0] == "Bea deals 7 cards to each player (classic sheet, Setup)"


# -- First card: R8 (wilds), R9 (reverse), skip and draw two --------------------------------


def test_r8_first_wild_first_player_names_color_then_plays():
    game = deal("classic", FOUR_HANDS, "wild", DRAW)
    assert game.phase is Phase.NAME_COLOR and game.to_act == 1
    assert game.current_color is None
    assert legal(game) == ["color red", "color yellow", "color green", "color blue"]
    events = play(game, "color blue")
    assert rules(events) == ["R8"] and game.current_color is Color.BLUE
    assert game.phase is Phase.TURN and game.to_act == 1
    assert legal(game) == ["play blue-2", "draw"]


def test_r8_first_wild_draw4_goes_back_and_another_card_is_turned():
    game = deal("classic", FOUR_HANDS, "wild-draw4", "blue-5 " + DRAW)
    assert game.top_card is card("blue-5") and game.to_act == 1
    assert card("wild-draw4") in game.draw_pile
    returned = [e.rule for e in game.opening_events if e.kind is EventKind.RETURNED]
    assert returned and set(returned) == {"R8"}  # shuffled back in: it may come up again


def test_r8_first_wild_swap_hands_names_color_may_swap_then_plays():
    game = deal("classic", FOUR_HANDS, "wild-swap", DRAW)
    assert game.phase is Phase.NAME_COLOR
    assert "color green 3" in legal(game) and "color green 1" not in legal(game)
    play(game, "color green 3")
    assert hand(game, 1) == FOUR_HANDS[3] and hand(game, 3) == FOUR_HANDS[1]
    assert game.to_act == 1 and game.current_color is Color.GREEN
    assert legal(game) == ["play green-7", "draw"]


def test_r8_first_wild_swap_hands_swap_is_optional():
    game = deal("classic", FOUR_HANDS, "wild-swap", DRAW)
    play(game, "color red")
    assert hand(game, 1) == FOUR_HANDS[1] and game.to_act == 1


def test_r8_only_a_wild_swap_lets_the_first_player_swap():
    game = deal("classic", FOUR_HANDS, "wild", DRAW)
    with pytest.raises(BadChoiceError, match="R8"):
        game.apply("color red 2")


@pytest.mark.parametrize("players, dealer, first", [(4, 0, 3), (4, 2, 1), (2, 0, 1), (2, 1, 0),
                                                    (3, 0, 2)])
def test_r9_first_reverse_dealer_right_plays_first_counter_clockwise(players, dealer, first):
    cards = filler("classic", 7 * players + 2)
    hands = [" ".join(cards[i * 7:(i + 1) * 7]) for i in range(players)]
    game = deal("classic", hands, "red-reverse", " ".join(cards[-2:]), dealer=dealer)
    assert game.to_act == first and game.direction == -1
    start = next(e for e in game.opening_events if e.kind is EventKind.START)
    assert start.rule == "R9" and "counter-clockwise" in start.text


def test_first_skip_skips_the_first_player():
    game = deal("classic", FOUR_HANDS, "red-skip", DRAW)
    assert game.to_act == 2
    assert EventKind.LOSE_TURN in kinds(game.opening_events)


def test_first_draw_two_first_player_draws_two_and_loses_turn():
    game = deal("classic", FOUR_HANDS, "red-draw2", DRAW)
    assert game.to_act == 2 and len(game.hands[1]) == 9
    assert hand(game, 1).endswith("green-8 green-9")


# -- Gameplay: drawing (R12) ----------------------------------------------------------------


def test_r12_only_the_drawn_card_may_be_played():
    game = position("classic", ["red-2 blue-3", "yellow-3 yellow-4"], "red-5", "red-9 green-1")
    play(game, "draw")
    assert game.phase is Phase.DRAWN and game.drawn_card is card("red-9")
    assert legal(game) == ["play red-9", "pass"]
    with pytest.raises(UnplayableCardError, match="R12"):
        game.apply("play red-2")
    play(game, "play red-9")
    assert game.to_act == 1


def test_r12_a_playable_drawn_card_may_be_kept():
    game = position("classic", ["red-2 blue-3", "yellow-3 yellow-4"], "red-5", "red-9 green-1")
    events = play(game, "draw", "pass")
    assert rules(events)[-1] == "R12" and game.to_act == 1 and len(game.hands[0]) == 3


def test_r12_an_unplayable_drawn_card_ends_the_turn():
    game = position("classic", ["red-2 blue-3", "yellow-3 yellow-4"], "red-5", "green-1")
    events = play(game, "draw")
    assert kinds(events) == [EventKind.DRAW, EventKind.KEEP]
    assert rules(events) == ["", "R12"] and game.to_act == 1


def test_declining_a_playable_card_means_drawing():
    game = position("classic", ["red-2", "yellow-3 yellow-4"], "red-5", "green-1")
    assert legal(game) == ["play red-2", "draw"]
    play(game, "draw")
    assert hand(game, 0) == "red-2 green-1" and game.to_act == 1


# -- Skip, Reverse, Draw 2, Wild --------------------------------------------------------------


def test_skip_card_next_player_loses_their_turn():
    game = position("classic", ["red-skip red-1", "red-2", "red-3 red-4"], "red-5")
    events = play(game, "play red-skip")
    assert game.to_act == 2
    assert texts(events)[1] == "Bea loses their turn (classic sheet, Skip Card)"


def test_reverse_card_turns_play_counter_clockwise():
    game = position("classic", ["red-reverse red-1", "red-2", "red-3 red-4"], "red-5")
    events = play(game, "play red-reverse")
    assert game.direction == -1 and game.to_act == 2
    assert texts(events)[1] == "Play now goes counter-clockwise (classic sheet, Reverse Card)"


def test_draw_two_card_next_player_draws_two_and_loses_turn():
    game = position("classic", ["red-draw2 red-1", "red-2", "red-3 red-4"], "red-5",
                    "blue-1 blue-2 blue-3")
    play(game, "play red-draw2")
    assert hand(game, 1) == "red-2 blue-1 blue-2" and game.to_act == 2


def test_wild_card_may_be_played_holding_a_playable_card():
    game = position("classic", ["wild red-1", "red-2"], "red-5")
    assert "play wild yellow" in legal(game) and "play red-1" in legal(game)
    play(game, "play wild yellow")
    assert game.current_color is Color.YELLOW and game.to_act == 1


def test_a_wild_must_name_a_color():
    game = position("classic", ["wild red-1", "red-2"], "red-5")
    with pytest.raises(BadChoiceError):
        game.apply("play wild")
    with pytest.raises(BadChoiceError):
        game.apply("play red-1 blue")


# -- Wild Draw 4 and its challenge: R10, R11 -----------------------------------------------


@pytest.mark.parametrize("rest, guilty", [
    ("red-1", True), ("red-skip", True), ("blue-5", False), ("blue-skip", False),
    ("wild", False), ("wild-draw4", False), ("green-2 red-draw2", True), ("", False)])
def test_r10_wild_draw4_is_illegal_only_holding_the_color_in_play(rest, guilty):
    game = position("classic", [f"wild-draw4 green-9 {rest}".strip(), "blue-3 yellow-4"],
                    "red-5", "yellow-1 yellow-2 yellow-3 yellow-5 yellow-6 yellow-7 blue-1")
    play(game, "play wild-draw4 blue")
    events = play(game, "challenge")
    drawn = len(game.hands[0]) - 1 - len(rest.split())
    if guilty:
        assert EventKind.GUILTY in kinds(events) and drawn == 4 and len(game.hands[1]) == 2
        assert ("Ann draws 4 cards: their Wild Draw 4 was illegal (R10; classic sheet, Wild Draw 4"
                " Card)") in texts(events)
    else:
        assert EventKind.INNOCENT in kinds(events) and drawn == 0 and len(game.hands[1]) == 8
        assert "Bea draws 6 cards: their challenge failed (R10; classic sheet, Wild Draw 4 Card)" in (
            texts(events))
    assert set(rules(events)) <= {"R10", "R4", "R13"}


def test_r10_accepting_the_draw_four_loses_the_turn():
    game = position("classic", ["wild-draw4 green-9", "blue-3 yellow-4", "red-6"], "red-5",
                    "yellow-1 yellow-2 yellow-3 yellow-5")
    play(game, "play wild-draw4 blue")
    assert game.phase is Phase.PENDING and game.pending_draw == 4
    play(game, "accept")
    assert len(game.hands[1]) == 6 and game.to_act == 2


def test_r10_only_the_player_who_must_draw_can_challenge():
    game = position("classic", ["wild-draw4 green-9", "blue-3 yellow-4", "red-6"], "red-5",
                    "yellow-1 yellow-2 yellow-3 yellow-5")
    play(game, "play wild-draw4 blue", "accept")  # Bea took it; now Cal is to play
    assert "challenge" not in legal(game)
    with pytest.raises(NotYourTurnError):
        game.apply("challenge")


def test_r11_no_stacking_on_a_draw_two():
    game = position("classic", ["red-draw2 red-1", "blue-draw2 yellow-4", "red-6"], "red-5",
                    "yellow-1 yellow-2 yellow-3 yellow-5")
    play(game, "play red-draw2")
    assert len(game.hands[1]) == 4 and game.to_act == 2  # drawn at once, no chance to stack


def test_r11_no_stacking_on_a_wild_draw_four():
    game = position("classic", ["wild-draw4 green-9 green-8", "wild-draw4 yellow-4", "red-6"],
                    "red-5",
                    "yellow-1 yellow-2 yellow-3 yellow-5")
    play(game, "play wild-draw4 blue")
    assert legal(game) == ["accept", "challenge"]
    with pytest.raises(UnplayableCardError, match="R11"):
        game.apply("play wild-draw4 red")


# -- Two players: R13 -------------------------------------------------------------------------


@pytest.mark.parametrize("card_text", ["red-reverse", "red-skip", "red-draw2"])
def test_r13_two_players_same_player_plays_again(card_text):
    game = position("classic", [f"{card_text} red-1", "blue-2 blue-3"], "red-5",
                    "yellow-1 yellow-2")
    events = play(game, f"play {card_text}")
    assert game.to_act == 0
    assert "R13" in rules(events)


def test_r13_two_players_after_wild_draw4_same_player_again():
    game = position("classic", ["wild-draw4 green-1", "blue-2 blue-3"], "red-5",
                    "yellow-1 yellow-2 yellow-3 yellow-4")
    play(game, "play wild-draw4 green", "accept")
    assert game.to_act == 0 and len(game.hands[1]) == 6


# -- Wild Swap Hands and blank cards: R14 ----------------------------------------------------


def test_r14_wild_swap_hands_swaps_with_the_chosen_player():
    game = position("classic", ["wild-swap red-1 red-2", "blue-2", "green-3 green-4 green-5"],
                    "red-5")
    assert "play wild-swap blue 1" in legal(game) and "play wild-swap blue 0" not in legal(game)
    with pytest.raises(BadChoiceError):
        game.apply("play wild-swap blue")
    events = play(game, "play wild-swap blue 1")
    assert hand(game, 0) == "blue-2" and hand(game, 1) == "red-1 red-2"
    assert EventKind.SWAP in kinds(events) and "R14" in rules(events)
    assert game.to_act == 1 and game.uno_owed == (0,)  # Ann now holds one card (R6)


def test_r14_wild_swap_hands_as_last_card_ends_the_hand_without_swap():
    game = position("classic", ["wild-swap", "blue-2 blue-3"], "red-5")
    assert legal(game) == ["play wild-swap red", "play wild-swap yellow", "play wild-swap green",
                           "play wild-swap blue"]
    with pytest.raises(BadChoiceError, match="R14"):
        game.apply("play wild-swap red 1")
    play(game, "play wild-swap red")
    assert game.is_over and game.winner == 0 and hand(game, 1) == "blue-2 blue-3"


def test_r14_scores_wild_swap_50_and_blanks_the_table_value():
    options = TableOptions(blank_cards=2, blank_value=30)
    game = position("classic", ["red-2", "blank wild-swap blue-7"], "red-5", options=options)
    play(game, "play red-2")
    result = game.hand_result()
    assert result.points == {1: 30 + 50 + 7}
    assert result.outcome.went_out == 0 and result.outcome.held == {1: 87}


def test_blank_card_is_played_like_a_wild():
    options = TableOptions(blank_cards=1)
    game = position("classic", ["blank red-1", "blue-2"], "green-5", options=options)
    assert "play blank yellow" in legal(game)
    events = play(game, "play blank yellow")
    assert game.current_color is Color.YELLOW and game.to_act == 1
    assert texts(events)[0] == "Ann plays blank card and names yellow (R3; classic sheet, Gameplay)"


def test_blank_card_turned_up_first_goes_back():
    game = deal("classic", FOUR_HANDS, "blank", "blue-5 " + DRAW,
                options=TableOptions(blank_cards=1))
    assert game.top_card is card("blue-5") and card("blank") in game.draw_pile


def test_blank_cards_only_when_the_table_adds_them():
    with pytest.raises(ValueError, match="blank"):
        position("classic", ["blank red-1", "blue-2"], "green-5")


# -- Scoring ------------------------------------------------------------------------------------


def test_scoring_winner_scores_opponents_cards():
    game = position("classic", ["red-2", "blue-skip wild", "green-4 wild-draw4 yellow-9"],
                    "red-5")
    play(game, "play red-2")
    result = game.hand_result()
    assert result.went_out == 0
    assert result.points == {1: 70, 2: 63}
    assert result.held[2] == tuple(card(t) for t in ("green-4", "wild-draw4", "yellow-9"))


@pytest.mark.parametrize("mode", ["standard", "lowest-wins", "partners", "challenge"])
def test_r15_a_hand_result_feeds_every_scoring_mode(mode):
    from engine import ScoringMode, score_game

    game = position("classic", ["red-2", "blue-skip", "green-4 wild", "yellow-9"], "red-5")
    play(game, "play red-2")
    standings = score_game(ScoringMode(mode), 4, [game.hand_result().outcome], target=500)
    assert standings.hands[0].went_out == 0
    if mode == "standard":
        assert standings.totals == (20 + 54 + 9, 0, 0, 0)
    elif mode == "partners":
        assert standings.totals == (20 + 9, 0, 20 + 9, 0)
    else:
        assert standings.totals == (0, 20, 54, 9)
