"""The questions a table asks that no check could pose before (issue 20), put to the
referee directly: a draw pile running out (R2), what the rule-card unit still holds (R17),
a player caught already (R6), the color a wild named as the next-to-last card, whom the
lever's "choose" picked (R18, R19), and what may be played after a draw (R12, R29, the
draw house rules); each in every variant where the answer differs."""

from __future__ import annotations

import pytest

from engine import EventKind, Position, SetupError, TableOptions, find_variant
from engine.referee import (
    BadCountError,
    ImpossibleSituationError,
    RefereeError,
    Scene,
    Verdict,
    can_play,
    challenge,
    end_of_hand,
    first_card,
    uno_catch,
    whos_next,
)

L2 = ["Ann", "Bea"]
L3 = ["Ann", "Bea", "Cy"]


def kinds(v: Verdict) -> list[EventKind]:
    return [e.kind for e in v.steps]


# -- a draw pile running out (R2) -------------------------------------------------------------


@pytest.mark.parametrize("pile", [None, 40, 2])
def test_a_draw_pile_that_holds_enough_is_drawn_from(pile):
    v = whos_next(Scene("classic", L3, top="red-5", draw_pile=pile), "Ann", "red-draw2")
    assert v.outcome == "Bea draws 2 and misses a turn, then Cy plays"
    assert EventKind.RESHUFFLE not in kinds(v) and "R2" not in v.citations


@pytest.mark.parametrize("pile", [0, 1])
def test_a_draw_pile_that_runs_out_is_made_again_from_the_discard_pile(pile):
    v = whos_next(Scene("classic", L3, top="red-5", draw_pile=pile), "Ann", "red-draw2")
    assert v.outcome == ("The discard pile but its top card is shuffled into a new draw pile, "
                         "Bea draws 2 and misses a turn, then Cy plays")
    assert kinds(v).count(EventKind.RESHUFFLE) == 1 and "R2" in v.citations
    assert v.draws == {"Bea": 2}


def test_with_both_piles_exhausted_a_player_draws_what_there_is():
    # Pizza Pizza's 51 cards: 25 in each hand and the red 5 on top. After the Wild Draw 2
    # the discard pile holds two cards, so one comes back: Bea draws 1, not 2 (R2).
    scene = Scene("pizza-pizza", L2, top="red-5", hands={"Ann": 25, "Bea": 25}, draw_pile=0)
    v = whos_next(scene, "Ann", "wild-draw2", named="red")
    taken = v.cases[0].verdict
    assert v.cases[0].when == "Bea takes the 2 cards"
    assert "the piles are empty, so Bea gets only 1" in taken.outcome
    assert taken.draws == {"Bea": 1} and EventKind.SHORT in kinds(taken)


def test_a_uno_penalty_and_a_challenge_draw_from_a_pile_run_out():
    caught = uno_catch(Scene("classic", L3, draw_pile=0), "Ann", catcher="Bea")
    assert caught.catchable and EventKind.RESHUFFLE in kinds(caught)
    assert caught.draws == {"Ann": 4}
    guilty = challenge(Scene("classic", L3, color="red", draw_pile=3), "Ann", hand="red-1")
    assert guilty.guilty and EventKind.RESHUFFLE in kinds(guilty) and guilty.draws == {"Ann": 4}
    plenty = challenge(Scene("classic", L3, color="red"), "Ann", hand="red-1")
    assert EventKind.RESHUFFLE not in kinds(plenty)


def test_a_final_draw_card_draws_from_a_pile_run_out():
    scene = Scene("classic", L3, hands={"Bea": "red-7", "Cy": "green-skip"}, draw_pile=0)
    v = end_of_hand(scene, "Ann", "blue-draw2")
    assert EventKind.RESHUFFLE in kinds(v) and v.uncounted == {"Bea": 2}
    with pytest.raises(ImpossibleSituationError, match="2 cards drawn are given, but the draw "
                                                       "pile holds only 1"):
        end_of_hand(Scene("classic", L3, draw_pile=1), "Ann", "blue-draw2", drawn="red-1 red-2")


@pytest.mark.parametrize("pile, error, message", [
    (-1, BadCountError, "the draw pile holds 0 to 109 cards, not -1"),
    (110, BadCountError, "the draw pile holds 0 to 109 cards, not 110"),
    (True, BadCountError, "give how many cards"),
    ("3", BadCountError, "give how many cards"),
])
def test_a_draw_pile_out_of_bounds_is_refused(pile, error, message):
    with pytest.raises(error, match=message):
        Scene("classic", L3, draw_pile=pile)


def test_a_draw_pile_the_deck_cannot_fill_beside_the_hands_is_refused():
    with pytest.raises(BadCountError, match="a draw pile of 100 need"):
        whos_next(Scene("classic", L3, top="red-5", draw_pile=100), "Ann", "red-draw2")


# -- what the rule-card unit still holds (R17) ------------------------------------------------


def test_from_position_leaves_the_rule_cards_asked_in_the_unit():
    jackpot = find_variant("wild-jackpot")
    hands = (("red-1",), ("red-2",), ("red-3",))
    game = jackpot.from_position(Position("wild-jackpot", (), hands, ("red-5",), ("blue-1",),
                                          rule_cards_left=2))
    unit = game.rule_dispenser
    assert len(unit.loaded) == 2 and len(unit.used) == 4  # 8 // 3 = 2 each: 6 written
    with pytest.raises(SetupError, match="the unit holds 0 to 6 rule cards"):
        jackpot.from_position(Position("wild-jackpot", (), hands, ("red-5",),
                                       rule_cards_left=7))
    with pytest.raises(SetupError, match="classic has no rule-card unit"):
        find_variant("classic").from_position(Position("classic", (), hands[:2], ("red-5",),
                                                       rule_cards_left=0))


@pytest.mark.parametrize("left, before", [(None, None), (3, None), (1, 1), (0, 0)])
def test_the_unit_running_out_brings_the_used_cards_back(left, before):
    # "Everyone" deals a card to each of three players: a unit holding fewer is refilled
    # from the used pile just before the card it lacks (R17).
    scene = Scene("wild-jackpot", L3, top="red-5", rule_cards=left)
    v = whos_next(scene, "Ann", "red-jackpot", lever="everyone")
    steps = [k for k in kinds(v) if k in (EventKind.RULE_CARD, EventKind.RULES_RESHUFFLE)]
    assert steps.count(EventKind.RULE_CARD) == 3
    if before is None:
        assert EventKind.RULES_RESHUFFLE not in steps and "R17" not in v.citations
    else:
        assert steps.index(EventKind.RULES_RESHUFFLE) == before and "R17" in v.citations
        assert "the used rule cards are shuffled back into the empty unit" in v.outcome


def test_a_unit_left_empty_still_gives_a_single_rule_card():
    v = whos_next(Scene("wild-jackpot", L3, top="red-5", rule_cards=0), "Ann", "red-jackpot",
                  lever="left")
    assert kinds(v).count(EventKind.RULE_CARD) == 1 and EventKind.RULES_RESHUFFLE in kinds(v)


def test_the_unit_is_only_wild_jackpots_and_holds_only_the_cards_written():
    with pytest.raises(ImpossibleSituationError, match="classic has no rule-card unit"):
        Scene("classic", L3, rule_cards=0)
    with pytest.raises(ImpossibleSituationError, match="the unit holds 0 to 6 rule cards"):
        whos_next(Scene("wild-jackpot", L3, top="red-5", rule_cards=7), "Ann", "red-jackpot",
                  lever="left")
    with pytest.raises(BadCountError, match="holds 0 to 8 cards"):
        Scene("wild-jackpot", L3, rule_cards=9)


# -- a player caught already (R6) ---------------------------------------------------------------


@pytest.mark.parametrize("variant, penalty", [("classic", 4), ("wild-jackpot", 2),
                                              ("star-wars", 2), ("pizza-pizza", 2)])
def test_a_player_caught_already_cannot_be_caught_again(variant, penalty):
    scene = Scene(variant, L3)
    before = uno_catch(scene, "Ann")
    assert before.catchable
    v = uno_catch(scene, "Ann", caught_by="Cy")
    assert not v.catchable and v.penalty == penalty
    assert v.outcome.startswith("No: Cy has caught Ann already, so Ann does not owe an UNO call")
    assert kinds(v)[-2:] == [EventKind.CATCH, EventKind.DRAW] and v.steps[-1].amount == penalty
    assert "R6" in v.citations
    again = uno_catch(scene, "Ann", caught_by="Cy", catcher="Bea")
    assert not again.catchable and again.outcome == v.outcome


@pytest.mark.parametrize("variant, options", [("one", None),
                                              ("classic", TableOptions(uno_penalty=0))])
def test_nobody_is_caught_where_no_call_is_needed(variant, options):
    with pytest.raises(ImpossibleSituationError, match="Ann cannot have been caught by Cy: no "
                                                       "UNO call is needed at this table"):
        uno_catch(Scene(variant, L3, options=options), "Ann", caught_by="Cy")


def test_a_player_catches_nobody_but_another():
    with pytest.raises(ImpossibleSituationError, match="Ann cannot have been caught by Ann"):
        uno_catch(Scene("classic", L3), "Ann", caught_by="Ann")


# -- the color a wild named as the next-to-last card ------------------------------------------


@pytest.mark.parametrize("variant, wild", [("classic", "wild"), ("classic", "wild-draw4"),
                                           ("pizza-pizza", "wild"), ("one", "wild")])
@pytest.mark.parametrize("named", ["blue", "green"])
def test_the_color_a_next_to_last_wild_named(variant, wild, named):
    v = uno_catch(Scene(variant, L3, top="red-5"), "Ann", card=wild, named=named)
    assert v.color is not None and v.color.value == named
    play = next(e for e in v.steps if e.kind is EventKind.PLAY)
    assert play.color is not None and play.color.value == named
    assert v.catchable is (variant != "one")


def test_a_next_to_last_wild_claims_no_color_unless_told():
    # Nobody said what it named, and the catch does not hang on it.
    v = uno_catch(Scene("classic", L3, top="red-5"), "Ann", card="wild")
    assert v.color is None and v.catchable


# -- whom the lever's "choose" picked (R18, R19) ----------------------------------------------


@pytest.mark.parametrize("chosen", ["Ann", "Cy"])
def test_whom_the_levers_choose_picked_performs_the_rule_card(chosen):
    scene = Scene("wild-jackpot", L3, top="red-5")
    open_ = whos_next(scene, "Ann", "red-jackpot", lever="choose")
    assert "Ann chooses a player to perform a rule card" in open_.outcome
    v = whos_next(scene, "Ann", "red-jackpot", lever="choose", chosen=chosen)
    assert f"Ann chooses {chosen}, {chosen} performs a rule card, then Bea plays" in v.outcome
    choose = next(e for e in v.steps if e.kind is EventKind.CHOOSE)
    rule = next(e for e in v.steps if e.kind is EventKind.RULE_CARD)
    assert choose.target == L3.index(chosen) and rule.seat == L3.index(chosen)
    # Given alone, "chosen" says the lever showed "choose".
    assert whos_next(scene, "Ann", "red-jackpot", chosen=chosen).outcome == v.outcome


def test_only_a_choose_lever_lets_its_player_choose():
    scene = Scene("wild-jackpot", L3, top="red-5")
    with pytest.raises(ImpossibleSituationError, match="only a lever that shows 'choose'"):
        whos_next(scene, "Ann", "red-jackpot", lever="left", chosen="Cy")
    with pytest.raises(RefereeError):
        whos_next(Scene("classic", L3, top="red-5"), "Ann", "red-7", chosen="Cy")


def test_whom_a_jackpot_turned_up_first_picked():
    scene = Scene("wild-jackpot", L3)
    v = first_card(scene, "Ann", "red-jackpot", chosen="Cy")
    assert v.outcome == "Red Jackpot turned up first: Bea chooses Cy, Cy performs a rule card, then Bea plays"
    assert first_card(scene, "Ann", "red-jackpot").outcome != v.outcome


# -- what may be played after a draw (R12, R29) -----------------------------------------------


@pytest.mark.parametrize("variant", ["classic", "wild-jackpot", "pizza-pizza", "star-wars"])
def test_after_a_draw_only_the_drawn_card_may_be_played(variant):
    scene = Scene(variant, top="red-5")
    drawn = can_play(scene, "red-3", drawn="red-3", hand="blue-5 green-1")
    assert drawn.playable and drawn.outcome == ("After drawing red 3: yes, the player can play "
                                                "red 3 on red 5")
    assert drawn.steps[0].kind is EventKind.DRAW
    other = can_play(scene, "red-1", drawn="red-3", hand="red-1 green-1")
    assert not other.playable and "R12" in other.citations
    assert other.outcome == "No: after drawing only the drawn card (red 3) may be played"
    kept = can_play(scene, "blue-3", drawn="blue-3", hand="red-1")
    assert not kept.playable and kept.next_player == "the next player"
    assert kept.outcome == "No: the player keeps blue 3 and the turn passes to the next player"


def test_in_one_a_drawn_card_is_never_played_that_turn():
    v = can_play(Scene("one", top="red-5"), "red-3", drawn="red-3", player="Ann")
    assert not v.playable and "R29" in v.citations
    assert v.outcome == "No: Ann keeps red 3 and the turn passes to the next player"


def test_forced_play_makes_the_drawn_card_played():
    scene = Scene("classic", top="red-5", options=TableOptions(forced_play=True))
    v = can_play(scene, "red-3", drawn="red-3")
    assert v.playable and "Keeping it is not allowed: forced play (house rule)" in v.outcome
    assert "Keeping it" not in can_play(Scene("classic", top="red-5"), "red-3",
                                        drawn="red-3").outcome


def test_draw_until_playable_draws_past_a_card_that_cannot_go():
    scene = Scene("classic", top="red-5", options=TableOptions(draw_until_playable=True))
    assert can_play(scene, "red-3", drawn="red-3").playable
    with pytest.raises(ImpossibleSituationError, match="would draw on past blue 3"):
        can_play(scene, "blue-3", drawn="blue-3")


def test_a_draw_wild_drawn_is_judged_as_a_bluff_too():
    scene = Scene("classic", top="red-5")
    bluff = can_play(scene, "wild-draw4", drawn="wild-draw4", hand="red-1 blue-2")
    assert bluff.playable and bluff.guilty
    fair = can_play(scene, "wild-draw4", drawn="wild-draw4", hand="blue-2")
    assert fair.playable and fair.guilty is False
    open_ = can_play(scene, "wild-draw4", drawn="wild-draw4", hand=3)
    assert open_.depends_on == "whether the player holds a red card"
    # The hand given may hold the drawn card already: it is the one drawn.
    assert can_play(scene, "wild-draw4", drawn="wild-draw4",
                    hand="wild-draw4 blue-2").guilty is False
