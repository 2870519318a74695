"""House rules (table options, all off by default): each one played, not just named."""

from __future__ import annotations

import pytest
from scenario import choices, hand, legal, play, position, rules

from engine import (
    BadChoiceError,
    NotYourTurnError,
    Phase,
    TableOptions,
    UnplayableCardError,
    find_variant,
)
from engine.events import EventKind

STACKING = TableOptions(stacking=True)
PROGRESSIVE = TableOptions(progressive_uno=True)
SEVEN_O = TableOptions(seven_o=True)
JUMP_IN = TableOptions(jump_in=True)
UNTIL = TableOptions(draw_until_playable=True)
FORCED = TableOptions(forced_play=True)
DRAW = "yellow-1 yellow-2 yellow-3 yellow-4 yellow-5 yellow-6 yellow-7 yellow-8 yellow-9"


def table(hands, options, discard="red-5", draw=DRAW, variant="classic", **kwargs):
    return position(variant, hands, discard, draw, options=options, **kwargs)


# -- stacking and progressive UNO (R11 is the default) --------------------------------------


def test_stacking_draw_two_on_draw_two_passes_the_total_on():
    game = table(["red-draw2 red-1", "blue-draw2 blue-1", "green-1 green-2"], STACKING)
    events = play(game, "play red-draw2")
    assert game.phase is Phase.PENDING and game.to_act == 1 and game.pending_draw == 2
    assert choices(game) == ["accept", "play blue-draw2", "play blue-draw2 uno"]
    events += play(game, "play blue-draw2")
    assert game.to_act == 2 and game.pending_draw == 4
    events += play(game, "accept")
    assert len(game.hands[2]) == 6 and game.to_act == 0
    assert "house" in rules(events)


def test_stacking_wild_draw4_on_draw_two_but_not_back():
    game = table(["red-draw2 red-1", "wild-draw4 blue-1", "green-draw2 green-2"], STACKING)
    play(game, "play red-draw2", "play wild-draw4 green")
    assert game.pending_draw == 6 and game.to_act == 2
    assert choices(game) == ["accept", "challenge"]  # a Draw Two cannot answer a Wild Draw 4
    with pytest.raises(UnplayableCardError, match="bigger draw"):
        game.apply("play green-draw2")


def test_stacking_guilty_stacker_takes_the_whole_draw():
    game = table(["red-draw2 red-1", "wild-draw4 red-9 blue-1", "green-1 green-2"], STACKING)
    play(game, "play red-draw2", "play wild-draw4 green", "challenge")
    assert len(game.hands[1]) == 2 + 6 and game.to_act == 2  # R4: the challenger plays


def test_stacking_innocent_stacker_challenger_draws_the_total_and_two():
    game = table(["red-draw2 red-1", "wild-draw4 blue-1", "green-1 green-2", "blue-2"],
                 STACKING)
    play(game, "play red-draw2", "play wild-draw4 green", "challenge")
    assert len(game.hands[2]) == 2 + 8 and game.to_act == 3


def test_stacking_last_card_draw_two_is_taken_whole():
    game = table(["red-draw2 red-1", "blue-draw2", "green-draw2 green-2"], STACKING)
    play(game, "play red-draw2", "play blue-draw2")
    assert game.is_over and len(game.hands[2]) == 2 + 4


def test_stacking_in_pizza_wild_draw2_on_draw_one():
    game = table(["red-draw1 red-1", "wild-draw2 blue-1", "green-draw1 green-2"], STACKING,
                 variant="pizza-pizza", draw="yellow-7 yellow-8 yellow-9 blue-9")
    play(game, "play red-draw1", "play wild-draw2 green")
    assert game.pending_draw == 3
    assert "play green-draw1" not in legal(game)


def test_progressive_uno_only_the_same_card():
    game = table(["red-draw2 red-1", "wild-draw4 blue-draw2 blue-1", "green-1 green-2"],
                 PROGRESSIVE)
    play(game, "play red-draw2")
    assert choices(game) == ["accept", "play blue-draw2"]
    with pytest.raises(UnplayableCardError, match="progressive"):
        game.apply("play wild-draw4 red")


def test_progressive_uno_wild_draw4_on_wild_draw4():
    game = table(["wild-draw4 red-1", "wild-draw4 blue-1", "green-1 green-2"], PROGRESSIVE)
    play(game, "play wild-draw4 blue", "play wild-draw4 red", "accept")
    assert len(game.hands[2]) == 10


def test_r11_stays_the_default():
    game = table(["red-draw2 red-1", "blue-draw2 blue-1", "green-1"], TableOptions())
    play(game, "play red-draw2")
    assert game.to_act == 2 and len(game.hands[1]) == 4


# -- 7-0 -------------------------------------------------------------------------------------


def test_seven_swaps_hands_with_a_chosen_player():
    game = table(["red-7 red-1 red-2", "blue-1", "green-1 green-2"], SEVEN_O)
    assert [a for a in legal(game) if "red-7" in a] == ["play red-7 1", "play red-7 2"]
    with pytest.raises(BadChoiceError):
        game.apply("play red-7")
    events = play(game, "play red-7 1")
    assert hand(game, 0) == "blue-1" and hand(game, 1) == "red-1 red-2"
    assert game.uno_owed == (0,) and game.to_act == 1
    assert "house" in rules(events)


def test_zero_passes_every_hand_in_the_direction_of_play():
    game = table(["red-0 red-1", "blue-1 blue-2", "green-1"], SEVEN_O, direction=-1)
    play(game, "play red-0")
    assert [hand(game, s) for s in range(3)] == ["blue-1 blue-2", "green-1", "red-1"]
    assert game.to_act == 2


def test_seven_as_last_card_needs_no_swap():
    game = table(["red-7", "blue-1"], SEVEN_O)
    play(game, "play red-7")
    assert game.is_over and hand(game, 1) == "blue-1"


def test_seven_is_a_plain_number_without_the_house_rule():
    game = table(["red-7 red-1", "blue-1"], TableOptions())
    assert "play red-7" in legal(game) and not game.is_legal("play red-7 1")


# -- jump-in ---------------------------------------------------------------------------------


def test_jump_in_with_an_identical_card_play_carries_on_from_the_jumper():
    game = table(["red-1 blue-9", "blue-2 blue-3", "red-5 green-2", "yellow-5"], JUMP_IN)
    assert "jump 2 red-5" in legal(game)
    events = play(game, "jump 2 red-5")
    assert hand(game, 2) == "green-2" and game.to_act == 3
    assert events[0].kind is EventKind.JUMP and "house" in rules(events)


def test_jump_in_needs_the_same_color_and_number():
    game = table(["red-1", "blue-5 blue-3", "green-2"], JUMP_IN)
    assert not [a for a in legal(game) if a.startswith("jump")]
    with pytest.raises(UnplayableCardError, match="identical"):
        game.apply("jump 1 blue-5")


def test_jump_in_only_before_the_player_begins():
    game = table(["red-1 blue-9", "blue-2", "red-5 green-2"], JUMP_IN, draw="red-9 green-1")
    play(game, "draw")  # Ann drew a playable card and is deciding
    with pytest.raises(NotYourTurnError):
        game.apply("jump 2 red-5")


def test_jump_in_by_the_player_to_act_is_just_a_play():
    game = table(["red-5 blue-9", "blue-2"], JUMP_IN)
    assert not game.is_legal("jump 0 red-5") and game.is_legal("play red-5")


def test_jump_in_is_off_by_default():
    game = table(["red-1", "blue-2", "red-5 green-2"], TableOptions())
    assert not game.is_legal("jump 2 red-5")


# -- draw until playable, forced play -----------------------------------------------------------


def test_draw_until_playable():
    game = table(["blue-1 blue-2", "green-1"], UNTIL, draw="yellow-1 green-7 red-9 yellow-2")
    events = play(game, "draw")
    assert hand(game, 0) == "blue-1 blue-2 yellow-1 green-7 red-9"
    assert events[0].amount == 3 and game.drawn_card is not None
    assert legal(game) == ["play red-9", "pass"]


def test_draw_until_playable_stops_when_the_piles_run_out():
    game = table(["blue-1 blue-2", "green-1"], UNTIL, draw="yellow-1 green-7")
    play(game, "draw")
    assert len(game.hands[0]) == 4 and game.to_act == 1


def test_forced_play_of_a_playable_drawn_card():
    game = table(["blue-1", "green-1"], FORCED, draw="red-9 yellow-2")
    play(game, "draw")
    assert legal(game) == ["play red-9", "play red-9 uno"]
    with pytest.raises(UnplayableCardError, match="forced"):
        game.apply("pass")


def test_forced_play_an_unplayable_drawn_card_is_kept():
    game = table(["blue-1", "green-1"], FORCED, draw="yellow-2")
    play(game, "draw")
    assert game.to_act == 1


# -- two-player classic rules for the other variants (R13) ----------------------------------------


@pytest.mark.parametrize("variant", ["wild-jackpot", "pizza-pizza", "star-wars", "one"])
@pytest.mark.parametrize("option, again", [(None, False), (True, True)])
def test_r13_two_player_reverse_option(variant, option, again):
    game = table(["red-reverse red-1", "blue-1 blue-2"], TableOptions(
        two_player_reverse_skips=option), variant=variant, draw="yellow-6 yellow-7")
    play(game, "play red-reverse")
    assert game.to_act == (0 if again else 1)


def test_r13_classic_table_may_turn_its_two_player_reverse_off():
    game = table(["red-reverse red-1", "blue-1 blue-2"],
                 TableOptions(two_player_reverse_skips=False))
    play(game, "play red-reverse")
    assert game.to_act == 1


# -- options in words ---------------------------------------------------------------------------


def test_describe_says_every_rule_in_words():
    options = TableOptions(stacking=True, seven_o=True, jump_in=True, draw_until_playable=True,
                           forced_play=True, blank_cards=2, uno_penalty=3)
    text = " ".join(options.describe(find_variant("classic")))
    for words in ("Stacking", "7-0", "Jump-in", "Draw until playable", "Forced play",
                  "2 blank cards", "draws 3 cards", "Wild Swap Hands card is in the deck",
                  "Reverse works like a Skip"):
        assert words in text


def test_describe_defaults_per_variant():
    one = find_variant("one")
    lines = TableOptions().describe(one)
    assert "Nobody needs to call UNO." in lines
    assert "No stacking: a player hit by a draw card draws and misses their turn." in lines
    assert not any("house rule" in line for line in lines)
    assert any("Progressive UNO" in line
               for line in TableOptions(progressive_uno=True).describe(one))


def test_game_describes_its_options():
    game = find_variant("star-wars").new(3, seed=1)
    assert "A player caught not calling UNO at one card draws 2 cards." in game.describe_options()
