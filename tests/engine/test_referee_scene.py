"""The referee's Scene: what the table knows, read and checked once when it is built; every
check is a question asked of it, and gives the verdict of the check's keyword form."""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine import Card, Color, Game, TableOptions
from engine.referee import (
    BadCountError,
    ImpossibleSituationError,
    NoSuchSeatError,
    Position,
    Scene,
    TooManyCopiesError,
    UnknownCardError,
    UnknownVariantError,
    build_droid,
    can_play,
    challenge,
    end_of_hand,
    filled,
    first_card,
    jump_in,
    seven_zero,
    swap_hands,
    uno_catch,
    whos_next,
    wild_dip,
)
from engine.referee import keywords as kw

S3 = ["Ann", "Bea", "Cy"]
S4 = ["Ann", "Bea", "Cy", "Dan"]


def test_a_scene_reads_what_the_table_gave():
    scene = Scene("classic", S3, top="wild", color="Blue", direction="counter-clockwise",
                  hands={"bea": "red-1 red-2", 2: 4})
    assert scene.seats == tuple(S3) and scene.variant is engine.find_variant("classic")
    assert (scene.top, scene.color, scene.direction) == (Card.parse("wild"), Color.BLUE, -1)
    assert scene.hand("Bea") == ([Card.parse("red-1"), Card.parse("red-2")], 2)
    assert scene.hand("Cy") == ([], 4) and scene.hand("Ann") is None
    assert scene.options == engine.find_variant("classic").default_options()


@pytest.mark.parametrize("build, error, words", [
    (lambda: Scene("nope", S3), UnknownVariantError, "unknown variant"),
    (lambda: Scene("classic", ["Ann"]), ImpossibleSituationError, "2-10 players"),
    (lambda: Scene("classic", S3, top="purple-5"), UnknownCardError, "the top card: "),
    (lambda: Scene("classic", S3, top="purple-5", top_is="the card under the wild"),
     UnknownCardError, "the card under the wild: "),
    (lambda: Scene("classic", S3, top="wild"), ImpossibleSituationError, "give the color"),
    (lambda: Scene("classic", S3, top="red-5", color="blue"), ImpossibleSituationError,
     r"the top card's \(red\)"),
    (lambda: Scene("classic", S3, direction=2), ImpossibleSituationError, "direction"),
    (lambda: Scene("classic", S3, hands={"Zed": 2}), NoSuchSeatError, "hands: 'Zed'"),
    (lambda: Scene("classic", S3, hands={"Zed": 2}, hands_are="counts"), NoSuchSeatError,
     "counts: 'Zed'"),
    (lambda: Scene("classic", S3, hands={"Bea": -1}), BadCountError, "-1 cards"),
    (lambda: Scene("classic", S3, hands={"Bea": "red-jackpot"}), UnknownCardError, "Jackpot"),
    (lambda: Scene("classic", S3).seat("Dan"), NoSuchSeatError, "'Dan' is not at this table"),
])
def test_a_scene_refuses_what_cannot_be_when_it_is_built(build, error, words):
    with pytest.raises(error, match=words):
        build()


def test_copies_are_counted_when_the_question_adds_its_cards():
    # The scene names two red 5s, as many as the deck holds; Ann's play makes it three.
    scene = Scene("classic", S3, top="red-5", hands={"Bea": "red-5"})
    with pytest.raises(TooManyCopiesError, match="red 5 is named 3 times"):
        whos_next(scene, "Ann", "red-5")


def test_a_scene_without_seats_answers_only_what_needs_none():
    scene = Scene("classic", top="blue-7")
    assert can_play(scene, "red-7", player="Cy").outcome == "Yes, Cy can play red 7 on blue 7"
    with pytest.raises(ImpossibleSituationError, match="2-10 players, not 0"):
        whos_next(scene, "Ann", "blue-2")


SEVEN_O = TableOptions(seven_o=True)
JUMP_IN = TableOptions(jump_in=True)


@pytest.mark.parametrize("asked, keyword_form", [
    (lambda: challenge(Scene("pizza-pizza", S3, color="red", top="red-5"), "Ann",
                       hand="blue-5"),
     lambda: kw.challenge("pizza-pizza", S3, "Ann", "blue-5", "red", "red-5")),
    (lambda: challenge(Scene("classic", S4, color="red", hands={"Cy": 2}), "Bea", hand=3),
     lambda: kw.challenge("classic", S4, "Bea", 3, "red", counts={"Cy": 2})),
    (lambda: can_play(Scene("star-wars", top="red-5"), "wild-draw4"),
     lambda: kw.can_play("star-wars", "red-5", None, "wild-draw4")),
    (lambda: first_card(Scene("star-wars", S4), "Ann", "red-skip blue-3"),
     lambda: kw.first_card("star-wars", S4, "Ann", ["red-skip", "blue-3"])),
    (lambda: whos_next(Scene("classic", S3, direction=-1, hands={"Bea": 1}), "Ann",
                       "red-draw2"),
     lambda: kw.whos_next("classic", S3, "Ann", "red-draw2", -1, counts={"Bea": 1})),
    (lambda: uno_catch(Scene("wild-jackpot", S3), "Ann", catcher="Cy"),
     lambda: kw.uno_catch("wild-jackpot", S3, "Ann", catcher="Cy")),
    (lambda: end_of_hand(Scene("classic", S3, hands={"Bea": "red-7 wild", "Cy": 2}), "Ann",
                         "blue-draw2", drawn="blue-1"),
     lambda: kw.end_of_hand("classic", S3, "Ann", "blue-draw2", {"Bea": "red-7 wild", "Cy": 2},
                            drawn="blue-1")),
    (lambda: wild_dip(Scene("pizza-pizza", S3), "Ann", named="blue", drawn="red-9"),
     lambda: kw.wild_dip("pizza-pizza", S3, "Ann", "blue", drawn="red-9")),
    (lambda: swap_hands(Scene("classic", S3, hands={"Ann": 3}), "Ann", named="red"),
     lambda: kw.swap_hands("classic", S3, "Ann", None, "red", counts={"Ann": 3})),
    (lambda: seven_zero(Scene("classic", S3, options=SEVEN_O), "Ann", "red-7", target="Cy"),
     lambda: kw.seven_zero("classic", S3, "Ann", "red-7", target="Cy", options=SEVEN_O)),
    (lambda: jump_in(Scene("classic", S4, top="red-5", options=JUMP_IN), "Bea", "Dan"),
     lambda: kw.jump_in("classic", S4, "Bea", "red-5", "Dan", options=JUMP_IN)),
    (lambda: build_droid(Scene("star-wars", S3, hands={"Ann": "red-1", "Bea": 2}), "Ann",
                         named="red"),
     lambda: kw.build_droid("star-wars", S3, "Ann", "red", {"Ann": "red-1", "Bea": 2})),
])
def test_a_check_asked_of_a_scene_gives_its_keyword_forms_verdict(asked, keyword_form):
    assert asked().to_dict() == keyword_form().to_dict()


@pytest.mark.parametrize("variant", [v.name for v in engine.VARIANTS])
def test_a_filled_position_holds_the_whole_deck_once(variant):
    cls = engine.find_variant(variant)
    hands = (("red-7",), ("blue-3", "green-5"))
    position = Position(variant, ("Ann", "Bea"), hands, ("red-5",), ("yellow-1",), seed=3)
    whole = filled(position)
    assert whole.draw[:1] == (Card.parse("yellow-1"),) and whole == filled(position)
    every = Counter((*(Card.parse(c) for h in hands for c in h), Card.parse("red-5"),
                     *whole.draw))
    assert every == Counter(cls.deck_counts(position.options))
    assert Game.from_position(whole).to_act == 0  # the engine sets it up
