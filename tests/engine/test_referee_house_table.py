"""The referee at a house-rules table (issue 27): stacking offered from the hands the table
knows and followed to the end of the stack, a draw wild passed on naming no color by
itself, 7-0 with jump-in, the end of a hand tallied by wins, and taking a draw that
nobody may challenge.

Seats are named as at a table: Ann, Bea, Cy and Dan.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from engine import Color, TableOptions, find_variant
from engine.referee import Case, Scene, Verdict, end_of_hand, whos_next

S3 = ["Ann", "Bea", "Cy"]
STACKING = TableOptions(stacking=True)
PROGRESSIVE = TableOptions(progressive_uno=True)


def every_case(v: Verdict) -> Iterator[Case]:
    for c in v.cases:
        yield c
        yield from every_case(c.verdict)


def leaves(v: Verdict) -> Iterator[Verdict]:
    if not v.cases:
        yield v
    for c in v.cases:
        yield from leaves(c.verdict)


def house(variant: str, **rules: bool) -> TableOptions:
    return find_variant(variant).default_options().replace(**rules)


# -- 1. stacking offered where the table says what the next player holds -------------------


@pytest.mark.parametrize("options", [STACKING, PROGRESSIVE], ids=["stacking", "progressive"])
def test_a_draw_card_the_next_player_is_shown_to_hold_passes_the_draw_on(options):
    scene = Scene("classic", S3, top="red-5", hands={"Bea": "red-draw2 yellow-1"},
                  options=options)
    v = whos_next(scene, "Ann", "red-draw2")
    assert v.depends_on == "what Bea does: take the cards or pass the draw on"
    kinds = {c.choice["kind"]: c for c in v.cases}
    assert kinds["stack"].choice["cards"] == ["red-draw2"]
    assert kinds["take"].verdict.outcome == "Bea draws 2 and misses a turn, then Cy plays"
    # Shown to hold no draw card: settled.
    scene = Scene("classic", S3, top="red-5", hands={"Bea": "blue-3 yellow-1"},
                  options=options)
    v = whos_next(scene, "Ann", "red-draw2")
    assert v.settled and v.outcome == "Bea draws 2 and misses a turn, then Cy plays"


@pytest.mark.parametrize("variant, card, held", [
    ("one", "red-draw2", "blue-draw2 red-3"),
    ("pizza-pizza", "red-draw1", "wild-draw2 red-3"),
    ("pizza-pizza", "red-draw1", "blue-draw1 red-3"),
    ("star-wars", "red-draw2", "blue-draw2 red-3"),
    ("wild-jackpot", "red-draw2", "blue-draw2 red-3"),
])
def test_every_variant_that_allows_a_stack_offers_it_from_a_known_hand(variant, card, held):
    options = house(variant, stacking=True)
    scene = Scene(variant, S3, top="red-5", color="red", hands={"Bea": held}, options=options)
    v = whos_next(scene, "Ann", card, named="red")
    stacks = [c for c in v.cases if c.choice["kind"] == "stack"]
    assert stacks and stacks[0].choice["cards"] == [held.split()[0]]


# -- 2. a stacked draw is followed to its end ------------------------------------------------


def test_a_stacked_draw_is_followed_until_someone_takes_it():
    v = whos_next(Scene("classic", S3, top="red-5", options=STACKING), "Ann", "red-draw2")
    passed = next(c for c in v.cases if c.choice["kind"] == "stack").verdict
    # Cy decides in turn: take the 4 cards (then Ann plays) or pass them on again.
    assert passed.depends_on == "what Cy does: take the cards or pass the draw on"
    taken = next(c for c in passed.cases if c.choice["kind"] == "take").verdict
    assert (taken.outcome, taken.next_player) == ("Cy draws 4 and misses a turn, then Ann plays",
                                                  "Ann")
    # Every leaf is an answer: someone plays next, the hand is over, or the budget ran out
    # (and the case says so); no leaf stops at a draw still waiting.
    for leaf in leaves(v):
        assert leaf.next_player or leaf.too_open or "the hand is over" in leaf.outcome, \
            leaf.outcome


# -- 3. a draw wild passed on names no color by itself ---------------------------------------


def test_a_wild_draw_4_passed_on_claims_no_color():
    scene = Scene("classic", S3, top="red-5", hands={"Bea": "wild-draw4 yellow-1"},
                  options=STACKING)
    v = whos_next(scene, "Ann", "red-draw2")
    passed = next(c for c in v.cases if c.choice["kind"] == "stack")
    assert passed.choice["cards"] == ["wild-draw4"]
    assert all(x.verdict.color is None for x in every_case(passed.verdict))
    assert passed.verdict.color is None
    named = [s for s in passed.verdict.steps if s.kind.value == "play"]
    assert named and all(s.color is None for s in named)


# -- 8. taking a draw is no challenge where there is none ------------------------------------


@pytest.mark.parametrize("variant, card", [("classic", "red-draw2"), ("one", "red-draw2"),
                                           ("pizza-pizza", "red-draw1")])
def test_taking_a_draw_nobody_may_challenge_is_a_take(variant, card):
    v = whos_next(Scene(variant, S3, top="red-5", options=house(variant, stacking=True)),
                  "Ann", card)
    first = v.cases[0]
    assert first.choice == {"kind": "take", "seat": "Bea", "amount": DRAW[card]}
    # Where a challenge may be made, taking the cards is declining it.
    v = whos_next(Scene("classic", S3, top="red-5", options=STACKING), "Ann", "wild-draw4",
                  named="blue")
    assert v.cases[0].choice == {"kind": "challenge", "seat": "Bea", "yes": False}


DRAW = {"red-draw2": 2, "red-draw1": 1}


# -- 5. a tally of wins needs no hands ------------------------------------------------------


def test_a_win_tally_ends_the_hand_without_the_hands():
    v = end_of_hand(Scene("star-wars", S3), "Ann", "red-3", mode="win-tally")
    assert v.settled and not v.uncounted and v.points is None
    assert v.scores == {"Ann": 1}
    assert v.outcome.endswith("Ann wins the hand (a tally of wins counts no points)")


# -- partners: the team and what it scores ---------------------------------------------------


def test_partners_say_the_team_and_leave_the_partners_cards_out():
    scene = Scene("classic", ["Ann", "Bea", "Cy", "Dan"],
                  hands={"Bea": "red-9", "Cy": "wild-draw4", "Dan": "red-1 blue-5 green-3"})
    v = end_of_hand(scene, "Ann", "red-3", mode="partners")
    assert v.team == ("Ann", "Cy") and v.scores == {"Ann": 18}
    assert v.outcome.endswith("Ann and Cy score 18 as a team (Bea 9, Dan 9)")
    assert v.to_dict()["team"] == ["Ann", "Cy"]


# -- 4. 7-0 with jump-in: a case per seat the jumping 7 may swap with ------------------------


def test_a_seven_jumped_in_under_7_0_follows_every_target():
    options = TableOptions(seven_o=True, jump_in=True)
    scene = Scene("classic", ["Ann", "Bea", "Cy", "Dan"], top="red-5", options=options,
                  hands={"Cy": "red-7 blue-1 blue-2"})
    v = whos_next(scene, "Ann", "red-7", target="Bea")
    jumped = next(c for c in v.cases if c.choice["kind"] == "jump_in" and c.choice["yes"])
    # Every seat Cy may swap with was played out; they agree on all the question asks, so
    # the answer names none of them (not Ann alone, as it did).
    assert jumped.verdict.next_player == "Dan"
    assert "Cy swaps hands with another player, then Dan plays" in jumped.verdict.outcome
    # Where the swap leaves someone on one card, the targets differ: a case each.
    scene = Scene("classic", ["Ann", "Bea", "Cy", "Dan"], top="red-5", options=options,
                  hands={"Cy": "red-7 blue-1", "Dan": 1})
    v = whos_next(scene, "Ann", "red-7", target="Bea")
    jumped = next(c for c in v.cases if c.choice["kind"] == "jump_in" and c.choice["yes"])
    found = jumped.verdict
    while found.depends_on != "whom Cy swaps hands with":
        found = found.cases[0].verdict
    assert {c.choice.get("target") for c in found.cases} >= {"Dan"}


# -- 9. a question no case can follow is refused (api.md: 400) -------------------------------


def test_an_answer_is_followed_unless_every_case_was_cut_short():
    from engine.referee.resolve import cut_short
    from engine.referee.verdict import Case as C

    followed = whos_next(Scene("classic", S3, top="red-5", hands={"Ann": 2}), "Ann", "red-3")
    assert followed.followed
    short = cut_short("Bea's hand")
    assert not short.followed
    some = Verdict("It depends", depends_on="x", too_open="Bea's hand",
                   cases=(C("a", short), C("b", followed)))
    assert some.followed and not replace(some, cases=(C("a", short),)).followed


# -- 11. one rule for names: "Ann" and "ann" are one name, in the game and the referee ------


def test_the_game_and_the_referee_refuse_the_same_name_twice():
    from engine import SetupError, find_variant
    from engine.referee import ImpossibleSituationError

    same = "Two players have the same name: add an initial to tell them apart."
    with pytest.raises(SetupError, match=same):
        find_variant("classic").new(["Ann", "ann", "Cy"], seed=1)
    with pytest.raises(ImpossibleSituationError, match=same):
        Scene("classic", ["Ann", "ann", "Cy"])
    # Cleaned the same way: a stray mark is no name of its own.
    game = find_variant("classic").new([" Zoe\u0308 \u200e", "Bea"], seed=1)
    assert game.players[0] == "Zoë"


# -- issue 28: one Direction, read the same by the referee and the app ------------------------


def test_one_direction_reads_every_way_a_table_gives_it():
    from engine import Direction
    from engine.card_facts import DIRECTION_WORDS

    assert Direction.parse("ccw") is Direction.COUNTER_CLOCKWISE
    assert DIRECTION_WORDS == {int(d): d.words for d in Direction}
    scene = Scene("classic", S3, direction="anticlockwise")
    assert scene.direction == -1
    v = whos_next(scene, "Ann", "red-reverse")
    assert v.direction == Direction.CLOCKWISE.words


# -- 6. the lever's discard from a hand nobody knows: answered by kinds of cards -------------


def test_a_discard_from_an_unknown_hand_is_answered_by_the_kinds_of_cards():
    scene = Scene("wild-jackpot", S3, top="red-5")
    v = whos_next(scene, "Ann", "wild-jackpot", named="red", lever="discard")
    assert not v.too_open
    by_when = {c.when: c.verdict for c in v.cases}
    assert by_when["Ann discards nothing"].next_player == "Bea"
    # A Skip thrown moves play on (R18): Cy is named as a possible next player.
    assert by_when["Ann discards a Skip"].next_player == "Cy"
    assert by_when["Ann discards a Reverse"].direction == "counter-clockwise"
    two = next(w for w in by_when if w.startswith("Ann discards two Draw Twos"))
    assert by_when[two].draws == {"Bea": 4}
    # The colors thrown only decide the color left in play: no case claims one.
    assert all(c.verdict.color is None for c in v.cases if c.when != "Ann discards nothing")


# -- hedging: what every case agrees on leads the answer, at most two catch cases -------------

ANA = ["Ana", "Ben", "Cleo"]


@pytest.mark.parametrize("card, draws", [("red-skip", {}), ("red-draw2", {"Ben": 2})])
def test_an_answer_that_hangs_only_on_a_catch_says_the_answer_first(card, draws):
    v = whos_next(Scene("classic", ANA, top="red-5", hands={"Ana": 2}), "Ana", card)
    # Cleo is named before any case is: the answer first, the catch in brackets after it.
    said = "Ben draws 2 and misses a turn" if draws else "Ben misses a turn"
    assert v.outcome == (f"{said}, then Cleo plays. (If Ana did not call UNO, whoever "
                         "catches them first makes them draw 4.)")
    # The facts every case agrees on are the answer's own; Ana's 4 (caught only) is not.
    assert (v.next_player, v.skipped, v.draws) == ("Cleo", ("Ben",), draws)
    assert (v.color, v.direction) == (Color.RED, "clockwise")
    # Two cases: caught or not, whoever catches.
    assert [(c.choice["kind"], c.choice["yes"], c.choice["seat"]) for c in v.cases] == [
        ("catch", False, None), ("catch", True, None)]
    assert v.cases[1].choice["seats"] == ["Ben", "Cleo"]


def test_where_more_than_a_catch_differs_the_next_player_still_leads():
    scene = Scene("classic", ["Ana", "Ben", "Cleo", "Dee"], top="red-5", hands={"Ana": 2},
                  options=TableOptions(seven_o=True))
    v = whos_next(scene, "Ana", "red-7")
    assert v.outcome.startswith("Ben plays next in every case; what else happens depends on "
                                "whom Ana swaps hands with")
    assert (v.next_player, v.color, v.direction) == ("Ben", Color.RED, "clockwise")
    assert len(v.cases) == 3 and all(c.verdict.next_player == "Ben" for c in v.cases)
