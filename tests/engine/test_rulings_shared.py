"""Scenario tests for the rulings that hold in every variant: R1-R6."""

from __future__ import annotations

from collections import Counter

import pytest
from scenario import card, deal, filler, hand, legal, play, position, rules, texts

from engine import (
    VARIANTS,
    Action,
    ActionKind,
    Color,
    GameOverError,
    TableOptions,
    UnplayableCardError,
    find_variant,
)
from engine.events import EventKind

ALL = [v.name for v in VARIANTS]
#: Variants where a draw wild can be challenged, with that card and its draw (R10, R20, R25, R35).
CHALLENGED = [("classic", "wild-draw4", 4), ("wild-jackpot", "wild-draw4", 4),
              ("pizza-pizza", "wild-draw2", 2), ("star-wars", "wild-draw4", 4)]
#: UNO penalty per variant (R6).
PENALTY = {"classic": 4, "wild-jackpot": 2, "pizza-pizza": 2, "one": 0, "star-wars": 2}


# -- R1: seats clockwise, play starts clockwise from the dealer's left ---------------------


@pytest.mark.parametrize("variant", ALL)
@pytest.mark.parametrize("dealer", [0, 2])
def test_r1_play_starts_left_of_dealer_and_goes_clockwise(variant, dealer):
    cls = find_variant(variant)
    n = 4
    cards = filler(variant, cls.hand_size * n + 4)
    hands = [" ".join(cards[i * cls.hand_size:(i + 1) * cls.hand_size]) for i in range(n)]
    game = deal(variant, hands, cards[-4], " ".join(cards[-3:]), dealer=dealer)
    assert game.direction == 1
    assert game.to_act == (dealer + 1) % n
    assert [hand(game, s) for s in range(n)] == hands


def test_r1_a_number_card_passes_play_to_the_left():
    game = position("classic", ["red-7 red-1", "blue-2 blue-3", "green-4 green-5"], "red-5")
    play(game, "play red-7")
    assert game.to_act == 1


# -- R2: reshuffling, and both piles exhausted -------------------------------------------


@pytest.mark.parametrize("variant", ALL)
def test_r2_empty_draw_pile_reshuffles_all_but_the_top_card(variant):
    game = position(variant, ["blue-1 blue-2", "yellow-3 yellow-4"],
                    "green-1 green-2 green-3 red-5")
    events = play(game, "draw")
    assert EventKind.RESHUFFLE in [e.kind for e in events]
    assert "R2" in rules(events)
    assert [c.text for c in game.discard_pile] == ["red-5"]
    assert len(game.draw_pile) == 2 and len(game.hands[0]) == 3
    greens = Counter(card(t) for t in ("green-1", "green-2", "green-3"))
    assert Counter(game.draw_pile) + Counter(game.hands[0][2:]) == greens


@pytest.mark.parametrize("variant", ALL)
def test_r2_nothing_to_draw_and_no_play_means_pass(variant):
    game = position(variant, ["blue-1 blue-2", "yellow-3 yellow-4"], "red-5")
    assert legal(game) == ["pass"]
    why = game.why_illegal("draw")
    assert why is not None and "R2" in why
    events = play(game, "pass")
    assert rules(events) == ["R2"] and game.to_act == 1


@pytest.mark.parametrize("variant", ALL)
def test_r2_nothing_to_draw_with_a_play_means_play(variant):
    game = position(variant, ["red-1 blue-2", "yellow-3 yellow-4"], "red-5")
    calling = ["play red-1 uno"] if game.uno_penalty else []  # R6: called with the play
    assert legal(game) == ["play red-1", *calling]
    with pytest.raises(UnplayableCardError, match="R2"):
        game.apply("pass")


@pytest.mark.parametrize("variant, wild, draw", CHALLENGED)
def test_r2_a_draw_takes_only_what_exists(variant, wild, draw):
    game = position(variant, [f"{wild} red-1 red-2", "yellow-3 yellow-4"], "red-5")
    play(game, f"play {wild} blue")
    events = play(game, "accept")
    drew = [e for e in events if e.kind is EventKind.DRAW]
    assert drew[0].amount == 1  # only red-5, reshuffled from under the wild
    assert EventKind.SHORT in [e.kind for e in events] and "R2" in rules(events)
    assert len(game.hands[1]) == 3 and not game.draw_pile


# -- R3: matching the color in play or the top card's symbol -----------------------------


@pytest.mark.parametrize("variant", ALL)
@pytest.mark.parametrize("card, ok", [("red-2", True), ("blue-7", True), ("blue-2", False),
                                      ("wild", True)])
def test_r3_match_color_or_number(variant, card, ok):
    game = position(variant, [f"{card} green-3", "yellow-3 yellow-4"], "red-7", "green-1")
    action = f"play {card} blue" if card == "wild" else f"play {card}"
    assert game.is_legal(action) is ok
    if not ok:
        assert "R3" in (game.why_illegal(action) or "")


@pytest.mark.parametrize("variant", ALL)
def test_r3_on_a_wild_only_the_named_color_matches(variant):
    other_wild = "wild-dip" if variant == "pizza-pizza" else "wild"  # pizza has one Wild
    game = position(variant, [f"green-4 red-4 {other_wild}", "yellow-3 yellow-4"],
                    "yellow-5 wild", "green-1", color="green")
    assert game.is_legal("play green-4")
    assert not game.is_legal("play red-4")  # a red card on a green-named wild
    assert game.is_legal(f"play {other_wild} blue")  # a wild goes on anything


def test_r3_symbols_match_across_colors():
    game = position("classic", ["blue-skip blue-draw2", "yellow-3 yellow-4"], "red-skip",
                    "green-1")
    assert legal(game) == ["play blue-skip", "draw", "play blue-skip uno"]


def test_r3_the_wrong_card_is_refused_and_nothing_changes():
    game = position("classic", ["blue-2 green-3", "yellow-3 yellow-4"], "red-7", "green-1")
    before = game.to_json()
    with pytest.raises(UnplayableCardError, match="R3"):
        game.apply("play blue-2")
    assert game.to_json() == before


# -- R4: a successful challenge does not cost the challenger their turn --------------------


@pytest.mark.parametrize("variant, wild, draw", CHALLENGED)
def test_r4_guilty_player_draws_and_challenger_plays_with_named_color(variant, wild, draw):
    game = position(variant, [f"{wild} red-1 blue-3", "blue-5 green-6"], "red-5",
                    "yellow-1 yellow-2 yellow-3 yellow-4 yellow-5 yellow-6")
    play(game, f"play {wild} blue")  # Ann still held red-1: a card of the color in play
    events = play(game, "challenge")
    assert EventKind.GUILTY in [e.kind for e in events]
    assert len(game.hands[0]) == 2 + draw and len(game.hands[1]) == 2
    assert game.to_act == 1 and game.current_color is Color.BLUE
    assert "R4" in rules(events)
    assert game.is_legal("play blue-5")


@pytest.mark.parametrize("variant, wild, draw", CHALLENGED)
def test_r4_failed_challenge_costs_the_penalty_and_the_turn(variant, wild, draw):
    game = position(variant, [f"{wild} green-1 green-3", "blue-5 green-6", "yellow-7 red-6"],
                    "red-5", "yellow-1 yellow-2 yellow-3 yellow-4 yellow-5 yellow-6 blue-1")
    play(game, f"play {wild} blue")  # Ann held no red card: innocent
    events = play(game, "challenge")
    assert EventKind.INNOCENT in [e.kind for e in events]
    assert len(game.hands[1]) == 2 + draw + 2
    assert game.to_act == 2 and game.current_color is Color.BLUE


# -- R5: a draw card as the last card still makes the next player draw ---------------------


@pytest.mark.parametrize("variant, last, draw", [
    ("classic", "red-draw2", 2), ("wild-jackpot", "red-draw2", 2), ("pizza-pizza", "red-draw1", 1),
    ("star-wars", "red-draw2", 2), ("one", "red-draw2", 2)])
def test_r5_final_colored_draw_card_is_drawn_before_counting(variant, last, draw):
    game = position(variant, [last, "blue-5 green-6"], "red-5", "yellow-1 yellow-2 yellow-3")
    events = play(game, f"play {last}")
    assert game.is_over and game.winner == 0
    assert len(game.hands[1]) == 2 + draw
    assert "R5" in rules(events)
    if game.has_points():
        result = game.hand_result()
        assert result.held[1] == game.hands[1]
        assert result.points == {1: game.hand_points(game.hands[1])}


@pytest.mark.parametrize("variant, wild, draw", CHALLENGED)
def test_r5_final_draw_wild_waits_for_the_draw(variant, wild, draw):
    game = position(variant, [wild, "blue-5 green-6"], "red-5",
                    "yellow-1 yellow-2 yellow-3 yellow-4 yellow-5 yellow-6")
    play(game, f"play {wild} green")
    assert not game.is_over and game.winner == 0 and game.to_act == 1
    assert legal(game) == ["accept", "challenge"]
    play(game, "accept")
    assert game.is_over and len(game.hands[1]) == 2 + draw


@pytest.mark.parametrize("variant, wild, draw", CHALLENGED)
def test_r5_challenging_a_final_draw_wild_always_fails(variant, wild, draw):
    game = position(variant, [wild, "blue-5 green-6"], "red-5",
                    "yellow-1 yellow-2 yellow-3 yellow-4 yellow-5 yellow-6")
    play(game, f"play {wild} green")
    events = play(game, "challenge")
    assert EventKind.INNOCENT in [e.kind for e in events]
    assert game.is_over and len(game.hands[1]) == 2 + draw + 2
    assert game.hand_result().points == {1: game.hand_points(game.hands[1])}
    with pytest.raises(GameOverError):
        game.apply("draw")


def test_r5_one_final_wild_draw4_is_drawn_at_once():
    game = position("one", ["wild-draw4", "blue-5 green-6"], "red-5",
                    "yellow-1 yellow-2 yellow-3 yellow-4")
    play(game, "play wild-draw4 green")
    assert game.is_over and len(game.hands[1]) == 6


# -- R6: calling UNO, catching, the window and the penalty ---------------------------------

UNO_VARIANTS = [v for v in ALL if PENALTY[v]]


@pytest.mark.parametrize("variant", UNO_VARIANTS)
def test_r6_caught_without_calling_draws_the_variant_penalty(variant):
    game = position(variant, ["red-7 red-2", "blue-3 green-5", "yellow-3 yellow-4"], "red-5",
                    "yellow-1 yellow-2 yellow-5 yellow-6 green-1 green-2")
    play(game, "play red-7")
    assert "uno 0" in legal(game) and "catch 1 0" in legal(game) and "catch 2 0" in legal(game)
    events = play(game, "catch 2 0")
    assert len(game.hands[0]) == 1 + PENALTY[variant]
    assert rules(events) == ["R6", "R6"]
    assert texts(events)[0].startswith("Cal catches Ann")
    assert game.to_act == 1  # a catch is out of turn: Bea is still to play


@pytest.mark.parametrize("variant", UNO_VARIANTS)
def test_r6_a_late_call_before_anyone_catches_is_safe(variant):
    game = position(variant, ["red-7 red-2", "blue-3 green-5"], "red-5", "yellow-1 yellow-2")
    play(game, "play red-7", "uno 0")
    assert game.uno_owed == ()
    assert not game.is_legal("catch 1 0")


@pytest.mark.parametrize("variant", UNO_VARIANTS)
@pytest.mark.parametrize("begin", ["draw", "play blue-7"])
def test_r6_window_closes_when_the_next_player_begins(variant, begin):
    game = position(variant, ["red-7 red-2", "blue-3 blue-7", "yellow-3 yellow-4"], "red-5",
                    "yellow-1 yellow-2")
    play(game, "play red-7", begin)
    assert "catch 2 0" not in legal(game) and 0 not in game.uno_owed
    why = game.why_illegal("catch 2 0")
    assert why is not None and "R6" in why


def test_r6_nobody_is_caught_before_their_second_to_last_card_is_down():
    game = position("classic", ["red-7 red-2", "blue-3 green-5"], "red-5", "yellow-1")
    assert not [a for a in legal(game) if a.startswith(("uno", "catch"))]
    assert not game.is_legal("catch 1 0")


def test_r6_owed_again_after_drawing_back_up():
    game = position("classic", ["red-7 red-2", "blue-3 green-5"], "red-5",
                    "yellow-1 red-9 yellow-4 yellow-6")
    play(game, "play red-7", "uno 0", "draw")  # Bea draws yellow-1, keeps it
    play(game, "draw", "play red-9")  # Ann draws red-9 and plays it: one card again
    assert game.uno_owed == (0,)
    assert "catch 1 0" in legal(game)


@pytest.mark.parametrize("penalty", [1, 3])
def test_r6_penalty_is_a_table_option(penalty):
    game = position("classic", ["red-7 red-2", "blue-3 green-5"], "red-5",
                    "yellow-1 yellow-2 yellow-4 yellow-6", options=TableOptions(uno_penalty=penalty))
    play(game, "play red-7", "catch 1 0")
    assert len(game.hands[0]) == 1 + penalty


def test_r6_one_needs_no_call():
    game = position("one", ["red-7 red-2", "blue-3 green-5"], "red-5", "yellow-1 yellow-2")
    play(game, "play red-7")
    assert game.uno_owed == () and not [a for a in legal(game) if a.startswith("catch")]
    assert "R6" in (game.why_illegal("uno 0") or "")


def test_r6_one_table_may_still_play_with_a_penalty():
    game = position("one", ["red-7 red-2", "blue-3 green-5"], "red-5", "yellow-1 yellow-2",
                    options=TableOptions(uno_penalty=2))
    play(game, "play red-7", "catch 1 0")
    assert len(game.hands[0]) == 3


def test_r6_giving_down_to_one_card_owes_uno():
    # R24's give alone: Ann called UNO with the Dip (one card left), owed nothing, drew back
    # up to two, and giving one leaves her one card again, so she owes the call afresh.
    game = position("pizza-pizza", ["wild-dip red-2", "green-3 green-4"], "red-5",
                    "yellow-7 yellow-8 green-8")
    play(game, "play wild-dip blue uno")
    assert game.uno_owed == () and hand(game, 0) == "red-2 yellow-7"
    play(game, "give yellow-7")
    assert game.uno_owed == (0,) and "catch 1 0" in legal(game)


def test_r6_no_catching_yourself():
    game = position("classic", ["red-7 red-2", "blue-3 green-5"], "red-5", "yellow-1")
    play(game, "play red-7")
    assert not game.is_legal("catch 0 0")


# -- R6: calling UNO with the play that leaves one card -----------------------------------


@pytest.mark.parametrize("variant", UNO_VARIANTS)
def test_r6_call_with_the_next_to_last_card(variant):
    game = position(variant, ["red-7 red-2", "blue-3 green-5"], "red-5", "yellow-1 yellow-2")
    assert "play red-7 uno" in legal(game)
    events = play(game, "play red-7 uno")
    assert [e.kind for e in events] == [EventKind.PLAY, EventKind.UNO]
    assert events[1].seat == 0 and events[1].rule == "R6"
    assert game.uno_owed == () and hand(game, 0) == "red-2"
    assert not [a for a in legal(game) if a.startswith(("uno", "catch"))]
    assert not game.is_legal("catch 1 0") and not game.is_legal("uno 0")


@pytest.mark.parametrize("variant", UNO_VARIANTS)
def test_r6_call_with_a_play_only_when_it_leaves_one_card(variant):
    game = position(variant, ["red-7 red-2 red-3", "blue-3 green-5"], "red-5", "yellow-1")
    assert not [a for a in legal(game) if a.endswith(" uno")]
    why = game.why_illegal("play red-7 uno")
    assert why is not None and "R6" in why
    last = position(variant, ["red-7", "blue-3 green-5"], "red-5", "yellow-1")
    assert legal(last) == ["play red-7", "draw"] and not last.is_legal("play red-7 uno")


def test_r6_only_a_play_calls_with_it():
    game = position("classic", ["red-7 red-2", "blue-3 green-5"], "red-5", "yellow-1")
    assert not game.is_legal("play blue-3 uno")  # not held: the play itself is illegal
    assert not game.is_legal(Action(ActionKind.DRAW, uno=True))
    assert not game.is_legal(Action(ActionKind.UNO, seat=0, uno=True))


def test_r6_one_has_no_call_with_a_play():
    game = position("one", ["red-7 red-2", "blue-3 green-5"], "red-5", "yellow-1 yellow-2")
    assert "play red-7 uno" not in legal(game)
    assert "R6" in (game.why_illegal("play red-7 uno") or "")


def test_r6_a_wild_calls_with_its_color():
    game = position("classic", ["wild red-2", "blue-3 green-5"], "red-5", "yellow-1")
    assert "play wild blue uno" in legal(game)
    play(game, "play wild blue uno")
    assert game.current_color is Color.BLUE and game.uno_owed == ()


def test_r6_the_separate_call_still_works_after_a_plain_play():
    game = position("classic", ["red-7 red-2", "blue-3 green-5"], "red-5", "yellow-1 yellow-2")
    play(game, "play red-7")
    assert game.uno_owed == (0,) and "uno 0" in legal(game) and "catch 1 0" in legal(game)
    play(game, "uno 0")
    assert game.uno_owed == () and not game.is_legal("catch 1 0")


def test_r6_calling_play_replays_from_its_text():
    game = position("classic", ["red-7 red-2", "blue-3 green-5"], "red-5", "yellow-1 yellow-2")
    play(game, "play red-7 uno")
    assert [a.text for a in game.history] == ["play red-7 uno"]
    assert [a.text for a in type(game).replay(game.to_json()["setup"], game.history).history] \
        == ["play red-7 uno"]
