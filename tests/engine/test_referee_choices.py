"""The referee explores the choices still open to the players (issue 20): which cards a
lever's discard throws (R18), which color a wild names, whether to challenge, catch or
jump in, whom to swap with. An answer is settled only when every choice agrees; an
unsettled one names the choice, and each case carries it as data (``Case.choice``).

Seats are named as at a table: Ann, Bea, Cy and Dan.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from engine import Color, EventKind, TableOptions
from engine.referee import (
    Case,
    Scene,
    Verdict,
    build_droid,
    can_play,
    challenge,
    end_of_hand,
    jump_in,
    swap_hands,
    uno_catch,
    whos_next,
    wild_dip,
)

S2 = ["Ann", "Bea"]
S3 = ["Ann", "Bea", "Cy"]
S4 = ["Ann", "Bea", "Cy", "Dan"]
JUMP_IN = TableOptions(jump_in=True)
KINDS = {"holds", "under", "lever", "discard", "color", "challenge", "take", "stack", "catch",
         "jump_in", "target", "lay"}


def every_case(v: Verdict) -> Iterator[Case]:
    for c in v.cases:
        yield c
        yield from every_case(c.verdict)


def by_when(v: Verdict) -> dict[str, Verdict]:
    return {c.when: c.verdict for c in v.cases}


def by_choice(v: Verdict, key: str) -> dict[object, Verdict]:
    out: dict[object, Verdict] = {}
    for c in v.cases:
        value = c.choice[key]
        out[tuple(map(tuple, value)) if isinstance(value, list) and value
            and isinstance(value[0], list) else
            tuple(value) if isinstance(value, list) else value] = c.verdict
    return out


def lever_discard(hand: str, seats: list[str] = S3, **kw: object) -> Verdict:
    scene = Scene("wild-jackpot", seats, top="red-5", hands={"Ann": hand})
    return whos_next(scene, "Ann", "wild-jackpot", lever="discard", named="red", **kw)


# -- every case carries its choice as data -------------------------------------------------


UNSETTLED = {
    "a hand not shown": lambda: challenge(Scene("classic", S3, color="red"), "Bea", hand=3),
    "the card under": lambda: challenge(Scene("pizza-pizza", S3, color="red"), "Bea", hand=3),
    "the lever": lambda: whos_next(Scene("wild-jackpot", S3, hands={"Ann": "wild-jackpot blue-3"}),
                                   "Ann", "red-jackpot"),
    "the discard": lambda: lever_discard("wild-jackpot red-skip blue-3 wild"),
    "take or challenge": lambda: whos_next(Scene("classic", S3, top="red-5"), "Ann",
                                           "wild-draw4"),
    "pass it on": lambda: whos_next(Scene("classic", S3, top="red-5",
                                          options=TableOptions(stacking=True)), "Ann",
                                    "red-draw2"),
    "a catch": lambda: whos_next(Scene("classic", S3, top="red-5", hands={"Ann": 2}), "Ann",
                                 "red-3"),
    "a jump-in": lambda: whos_next(Scene("classic", S3, top="red-5", options=JUMP_IN), "Ann",
                                   "red-3"),
    "whom to swap with": lambda: swap_hands(Scene("classic", S3), "Ann", named="red"),
    "a droid": lambda: build_droid(Scene("star-wars", S3, hands={"Ann": "red-1", "Bea": 2,
                                                                 "Cy": "green-4"}),
                                   "Ann", named="red"),
    "a last draw wild": lambda: end_of_hand(Scene("classic", S3, top="red-5",
                                                  hands={"Bea": "red-1", "Cy": "blue-2"}),
                                            "Ann", "wild-draw4", named="red"),
}


@pytest.mark.parametrize("ask", list(UNSETTLED.values()), ids=list(UNSETTLED))
def test_every_case_of_every_check_carries_its_choice(ask):
    v = ask()
    assert not v.settled and v.cases
    for case in every_case(v):
        assert case.choice["kind"] in KINDS, case.when
        assert "seat" in case.choice
        assert set(case.choice) - {"kind", "seat"}, case.when  # and the option taken
    data = json.loads(json.dumps(v.to_dict()))
    assert list(data["cases"][0]) == ["when", "choice", "verdict"]
    assert data["cases"][0]["choice"] == dict(v.cases[0].choice)


def test_a_hand_not_shown_is_a_holds_choice_naming_the_cards():
    v = challenge(Scene("classic", S3, color="red"), "Bea", hand=3)
    held, none = v.cases
    assert held.choice["kind"] == "holds" and held.choice["seat"] == "Bea"
    assert held.choice["yes"] is True and none.choice["yes"] is False
    assert "red-3" in held.choice["cards"] and "blue-3" not in held.choice["cards"]
    assert held.verdict.guilty is True and none.verdict.guilty is False


# -- the lever's discard (R18) -------------------------------------------------------------


def test_a_discard_with_a_skip_shown_is_not_one_next_player():
    # The dispute: the Skip in the hand shown may hit the next player.
    v = lever_discard("wild-jackpot red-skip blue-3 wild wild")
    assert not v.settled and v.next_player is None
    assert v.depends_on.startswith("what Ann discards")
    cases = by_choice(v, "cards")
    assert cases[()].next_player == "Bea" and cases[()].skipped == ()
    assert cases[("red-skip",)].next_player == "Cy" and cases[("red-skip",)].skipped == ("Bea",)
    # A blue 3 changes no turn: it is said with throwing nothing.
    assert v.cases[0].choice["options"] == [[], ["blue-3"]]
    assert v.cases[0].when == "Ann discards nothing or blue 3"


def test_a_discard_down_to_one_card_may_be_caught_and_of_every_card_goes_out():
    v = lever_discard("wild-jackpot red-skip blue-3 wild")
    cases = by_choice(v, "cards")
    # Down to her wild: she owes an UNO call (R6), and may be caught.
    both = cases[("red-skip", "blue-3")]
    # Whoever catches her, the same: nobody, or anyone (Bea or Cy).
    assert [c.choice["kind"] for c in both.cases] == ["catch"] * 2
    assert both.cases[1].choice["seats"] == ["Bea", "Cy"]
    assert both.cases[1].verdict.draws == {"Ann": 2}
    # Throwing every card ends her hand.
    v = lever_discard("wild-jackpot red-skip blue-draw2")
    out = by_choice(v, "cards")[("red-skip", "blue-draw2")]
    assert out.next_player is None and out.draws == {"Bea": 2}


@pytest.mark.parametrize("seats, reverse_next", [(S3, "Cy"), (S2, "Bea")])
def test_a_discarded_reverse_turns_play_round(seats, reverse_next):
    # Three players: the Reverse sends play the other way. Two: it only reverses (R13).
    v = lever_discard("wild-jackpot red-reverse green-2 wild wild", seats)
    reverse = by_choice(v, "cards")[("red-reverse",)]
    assert reverse.next_player == reverse_next and reverse.direction == "counter-clockwise"


def test_discarded_draw_twos_add_up():
    v = lever_discard("wild-jackpot red-draw2 blue-draw2 green-2 wild wild")
    cases = by_choice(v, "cards")
    assert cases[("red-draw2",)].draws == {"Bea": 2}
    assert cases[("red-draw2", "blue-draw2")].draws == {"Bea": 4}
    assert cases[("red-draw2", "blue-draw2")].next_player == "Cy"


def test_a_discard_of_number_cards_only_is_settled_but_names_no_color():
    # Whatever Ann throws, Bea plays next; but a blue 3 thrown sets blue in play.
    v = lever_discard("wild-jackpot blue-3 green-4 wild wild")
    assert v.settled and v.next_player == "Bea" and v.color is None


def test_a_hand_with_no_colored_card_discards_nothing():
    v = lever_discard("wild-jackpot wild wild-draw4")
    assert v.settled and v.next_player == "Bea" and v.color is Color.RED


def test_a_discard_from_a_hand_nobody_saw_is_never_settled():
    # Answered by the kinds of cards thrown (issue 27), not too open.
    v = whos_next(Scene("wild-jackpot", S3, top="red-5"), "Ann", "red-jackpot", lever="discard")
    assert not v.settled and v.too_open is None and v.next_player is None


def test_a_discard_from_a_hand_of_one_unknown_card_is_explored():
    # Ann holds one card nobody saw after her Jackpot (and may be caught: R6).
    v = whos_next(Scene("wild-jackpot", S3, top="red-5", hands={"Ann": 2}), "Ann", "red-jackpot",
                  lever="discard")
    assert not v.settled and v.next_player is None
    uncaught = v.cases[0]
    assert uncaught.choice == {"kind": "catch", "seat": None, "target": "Ann", "yes": False}
    discards = {tuple(c.choice["cards"]): c.verdict for c in uncaught.verdict.cases}
    assert discards[()].next_player == "Bea"
    # Her one card thrown ends her hand, with what it does to Bea (a Draw Two: 2 cards).
    thrown = [v for cards, v in discards.items() if cards]
    assert thrown and all(v.next_player is None for v in thrown)
    assert {tuple(sorted(v.draws.items())) for v in thrown} >= {(), (("Bea", 2),)}


def test_the_lever_unspecified_includes_the_discard_choices():
    v = whos_next(Scene("wild-jackpot", S3, top="red-5",
                        hands={"Ann": "wild-jackpot red-skip wild"}), "Ann", "wild-jackpot",
                  named="red")
    lever = by_choice(v, "outcome")
    assert set(lever) == {"choose", "right", "left", "everyone", "discard", "draw4"}
    assert lever["discard"].depends_on.startswith("what Ann discards")
    assert lever["draw4"].next_player == "Bea"
    assert v.next_player is None  # a thrown Skip makes it Cy


# -- the color named ------------------------------------------------------------------------


@pytest.mark.parametrize("variant, card", [("classic", "wild-draw4"), ("classic", "wild"),
                                           ("wild-jackpot", "wild-draw4"),
                                           ("star-wars", "wild-draw4"), ("one", "wild-draw4"),
                                           ("pizza-pizza", "wild-draw2"), ("pizza-pizza", "wild")])
def test_a_wild_with_no_color_named_claims_no_color(variant, card):
    # The dispute: answered as if red were named. Its answer does not hang on the
    # color, so it names none, in the verdict or in its steps.
    v = whos_next(Scene(variant, S3, top="red-5"), "Ann", card)
    assert v.color is None
    assert all(c.verdict.color is None for c in every_case(v))
    play = next(e for e in v.steps if e.kind is EventKind.PLAY)
    assert play.color is None and "names" not in play.text
    named = whos_next(Scene(variant, S3, top="red-5"), "Ann", card, named="blue")
    assert next(e for e in named.steps if e.kind is EventKind.PLAY).color is Color.BLUE
    assert named.outcome == v.outcome


def test_a_color_the_answer_hangs_on_is_a_case_for_each_color():
    # No question of the tests hangs on the color named yet (the engine's rules read it
    # only once someone plays on it): the cases are made as they would be.
    from engine.referee.branch import play_branch
    from engine.referee.checks import by_color

    scene = Scene("classic", S3, top="red-5")
    t = scene.seated()
    branch, plays = play_branch(t, 0, t.card("wild", "card"), others={}, direction=1,
                                top=scene.top, color=scene.color)
    v = by_color(t, branch, t.card("wild", "card"), plays,
                 lambda ps: Verdict(f"{ps[0].color.value} is in play", color=ps[0].color))
    assert v.depends_on == "which color Ann names"
    assert [c.choice for c in v.cases] == [{"kind": "color", "seat": "Ann", "color": c}
                                           for c in ("red", "yellow", "green", "blue")]
    assert [c.verdict.color for c in v.cases] == list(Color)
    same = by_color(t, branch, t.card("wild", "card"), plays, lambda ps: Verdict("Bea plays"))
    assert same.settled and same.color is None


def test_a_named_color_is_the_color_in_play():
    v = whos_next(Scene("classic", S3, top="red-5"), "Ann", "wild", named="green")
    assert v.settled and v.color is Color.GREEN and v.next_player == "Bea"


def test_the_other_checks_claim_no_color_nobody_named():
    assert can_play(Scene("classic", top="red-5"), "wild").color is None
    assert can_play(Scene("classic", top="red-5"), "wild", named="blue").color is Color.BLUE
    assert swap_hands(Scene("classic", S3), "Ann", target="Bea").color is None
    assert wild_dip(Scene("pizza-pizza", S3), "Ann").color is None
    assert wild_dip(Scene("pizza-pizza", S3), "Ann", named="blue").color is Color.BLUE
    caught = uno_catch(Scene("classic", S3, top="red-5"), "Ann", card="wild")
    assert all(e.color is None for e in caught.steps)


def test_a_wild_color_the_budget_cannot_follow_says_to_name_it():
    # A Jackpot lever after a wild: Ann's hand of twelve shown cards is many discards.
    hand = ("wild-jackpot red-skip red-3 red-draw2 blue-3 blue-reverse blue-draw2 "
            "green-draw2 green-1 green-skip yellow-1 yellow-skip yellow-reverse")
    v = whos_next(Scene("wild-jackpot", S3, top="red-5", hands={"Ann": hand}), "Ann",
                  "wild-jackpot")
    assert not v.settled and v.too_open is not None


# -- whether to challenge ---------------------------------------------------------------------


@pytest.mark.parametrize("variant, card", [("classic", "wild-draw4"), ("star-wars", "wild-draw4"),
                                           ("wild-jackpot", "wild-draw4"),
                                           ("pizza-pizza", "wild-draw2")])
def test_the_victim_chooses_to_take_or_challenge(variant, card):
    v = whos_next(Scene(variant, S3, top="red-5"), "Ann", card)
    take, challenged = v.cases
    assert take.choice == {"kind": "challenge", "seat": "Bea", "yes": False}
    assert challenged.choice == {"kind": "challenge", "seat": "Bea", "yes": True}
    assert take.verdict.next_player == "Cy"
    assert not challenged.verdict.settled  # it hangs on Ann's hand


def test_one_has_no_challenge_so_no_choice():
    v = whos_next(Scene("one", S3, top="red-5"), "Ann", "wild-draw4")
    assert v.settled and v.draws == {"Bea": 4} and v.next_player == "Cy"


def test_a_last_draw_wild_is_taken_or_challenged_before_the_count():
    v = end_of_hand(Scene("classic", S3, top="red-5", hands={"Bea": "red-1", "Cy": "blue-2"}),
                    "Ann", "wild-draw4", named="red")
    cases = by_choice(v, "yes")
    assert cases[False].draws == {"Bea": 4} and cases[True].draws == {"Bea": 6}


# -- whether to catch (R6) --------------------------------------------------------------------


def test_a_player_down_to_one_card_may_be_caught_on_the_way():
    v = whos_next(Scene("classic", S3, top="red-5", hands={"Ann": 2}), "Ann", "red-3")
    assert not v.settled and v.next_player == "Bea"  # every case agrees on that
    # The answer first; then two cases: nobody catches Ann, or anyone does (to the same
    # effect, whoever it is).
    assert v.outcome == ("Bea plays next. (If Ann did not call UNO, whoever catches them "
                         "first makes them draw 4.)")
    free, caught = v.cases
    assert free.choice == {"kind": "catch", "seat": None, "target": "Ann", "yes": False}
    assert free.verdict.draws == {}
    assert caught.when == "anyone catches Ann"
    assert caught.choice == {"kind": "catch", "seat": None, "target": "Ann", "yes": True,
                             "seats": ["Bea", "Cy"]}
    assert caught.verdict.draws == {"Ann": 4}


@pytest.mark.parametrize("variant, penalty", [("wild-jackpot", 2), ("pizza-pizza", 2),
                                              ("star-wars", 2)])
def test_the_catch_costs_the_variants_penalty(variant, penalty):
    v = whos_next(Scene(variant, S3, top="red-5", hands={"Ann": 2}), "Ann", "red-3")
    assert by_when(v)["anyone catches Ann"].draws == {"Ann": penalty}


def test_in_one_nobody_is_caught():
    v = whos_next(Scene("one", S3, top="red-5", hands={"Ann": 2}), "Ann", "red-3")
    assert v.settled and v.next_player == "Bea"


def test_a_late_uno_call_is_answered_with_its_steps():
    v = uno_catch(Scene("classic", S3, top="red-5"), "Ann", card="red-3", called=True)
    assert v.catchable is False
    assert [e.kind for e in v.steps] == [EventKind.PLAY, EventKind.UNO]
    assert "R6" in v.citations and "a late call" in v.outcome
    picked = uno_catch(Scene("classic", S3, top="red-5"), "Ann", called=True)
    assert [e.kind for e in picked.steps] == [EventKind.UNO] and "R6" in picked.citations


# -- a jump-in (house rule) -------------------------------------------------------------------


def test_a_jump_in_from_a_hand_shown_is_a_case():
    scene = Scene("classic", S3, top="red-5", options=JUMP_IN, hands={"Cy": "red-3 blue-4"})
    v = whos_next(scene, "Ann", "red-3")
    jumped = by_choice(v, "seat")
    assert jumped["Cy"].next_player == "Ann" and jumped[None].next_player == "Bea"
    assert v.cases[1].choice == {"kind": "jump_in", "seat": "Cy", "cards": ["red-3"], "yes": True}


def test_no_jump_in_without_the_house_rule_or_a_copy_left():
    scene = Scene("classic", S3, top="red-5", hands={"Cy": "red-3 blue-4"})
    assert whos_next(scene, "Ann", "red-3").settled
    # Cy shows the other red 3: Bea cannot hold one.
    scene = Scene("classic", S3, top="red-5", options=JUMP_IN, hands={"Cy": "blue-3 blue-4"})
    v = whos_next(scene, "Ann", "red-3")
    # Bea is next anyway: her red 3 would be a play, not a jump-in; Ann may hold the other.
    assert [c.choice["seat"] for c in v.cases] == [None, "Ann"]
    scene = Scene("classic", S3, top="red-5", options=JUMP_IN,
                  hands={"Ann": "red-3 blue-1 blue-2", "Cy": "red-3 blue-4"})
    assert [c.choice["seat"] for c in whos_next(scene, "Ann", "red-3").cases] == [None, "Cy"]


def test_jump_in_check_lists_the_targets_of_a_swap():
    scene = Scene("classic", S3, top="red-7", options=TableOptions(jump_in=True, seven_o=True))
    v = jump_in(scene, "Bea", "Cy")
    assert v.playable and {c.choice["target"] for c in v.cases} == {"Ann", "Bea"}


# -- whom to swap with ------------------------------------------------------------------------


def test_whom_to_swap_with_is_a_target_choice():
    v = swap_hands(Scene("classic", S3, hands={"Ann": 4, "Bea": 3, "Cy": 2}), "Ann",
                   named="red")
    targets = by_choice(v, "target")
    assert targets["Bea"].hand_sizes == {"Ann": 3, "Bea": 3, "Cy": 2}
    assert targets["Cy"].hand_sizes == {"Ann": 2, "Bea": 3, "Cy": 3}
