"""The gaps left in issue 20's referee: a droid's color is its player's choice like any
wild's; cases merge only when they agree on every fact, not only the sentence; a seat left
on one card may be caught after a swap, a 7-0, a Wild Dip or a jump-in (R6); a late UNO
call that was never owed is answered, not refused.

Seats are named as at a table: Ann, Bea, Cy and Dan.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import replace

import pytest

from engine import Color, EventKind, TableOptions
from engine.referee import (
    Case,
    Scene,
    Verdict,
    build_droid,
    jump_in,
    seven_zero,
    swap_hands,
    uno_catch,
    whos_next,
    wild_dip,
)
from engine.referee.verdict import answer_key
from engine.referee.wording import depends_clause

S3 = ["Ann", "Bea", "Cy"]
S4 = ["Ann", "Bea", "Cy", "Dan"]
TEN = ["Ann", "Bea", "Cy", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]
JUMP_IN = TableOptions(jump_in=True)
SEVEN_O = TableOptions(seven_o=True)


def every_case(v: Verdict) -> Iterator[Case]:
    for c in v.cases:
        yield c
        yield from every_case(c.verdict)


def catch_cases(v: Verdict) -> list[Case]:
    return [c for c in every_case(v) if c.choice.get("kind") == "catch"]


# -- 1. the droid's color is its player's choice ------------------------------------------------


DROID_HANDS = {"Ann": "red-1", "Bea": "green-1", "Cy": "green-4"}


def test_a_droid_with_no_color_named_claims_none():
    # Before: answered as if the color in play (red) were named.
    scene = Scene("star-wars", S3, top="red-5", hands=DROID_HANDS)
    v = build_droid(scene, "Ann")
    assert v.settled and v.color is None and v.next_player == "Bea"
    play = next(e for e in v.steps if e.kind is EventKind.PLAY)
    assert play.color is None and "names" not in play.text
    # Whichever color is named, the walk is the same: only the color in play differs.
    for color in Color:
        named = build_droid(scene, "Ann", named=color)
        assert named.color is color
        assert named.outcome == v.outcome and named.laid == v.laid and named.draws == v.draws


def test_a_droid_named_green_on_blue_says_green():
    v = build_droid(Scene("star-wars", S3, top="blue-5", color="blue", hands=DROID_HANDS),
                    "Ann", named="green")
    assert v.color is Color.GREEN


def test_an_open_droid_with_no_color_named_keeps_its_cases_and_names_no_color():
    v = build_droid(Scene("star-wars", S3, hands={"Ann": "red-1", "Bea": 2, "Cy": "green-4"}),
                    "Ann")
    assert v.depends_on == "whether Bea can lay a card that is not red, and which"
    assert all(c.verdict.color is None for c in every_case(v)) and v.color is None


def test_a_droid_too_open_to_follow_says_so_for_every_color():
    # Ten hands nobody saw: past the budget with the first color, the others are not
    # followed (they would only be cut shorter), and none is said settled.
    v = build_droid(Scene("star-wars", TEN), "Ann")
    assert not v.settled and v.too_open == "Ann's and Bea's hands"
    assert v.depends_on == "which color Ann names"
    assert [c.choice["color"] for c in v.cases] == ["red", "yellow", "green", "blue"]
    assert all(c.verdict.too_open for c in v.cases)
    assert len(json.dumps(v.to_dict())) < 120_000


# -- 2. cases merge only when every fact agrees -------------------------------------------------


def test_a_droid_laying_red_or_blue_is_two_cases_though_they_read_alike():
    # The example: Ann may lay red or blue; Cy fails either way, but the cards
    # laid differ, so the answer is not settled on the first.
    scene = Scene("star-wars", S3, top="red-5",
                  hands={"Ann": "red-1 blue-2", "Bea": "green-1", "Cy": "green-4"})
    v = build_droid(scene, "Ann", named="red")
    assert not v.settled and v.depends_on == "which color Ann lays"
    laid = {c.choice["color"]: [x.text for _, x in c.verdict.laid] for c in v.cases}
    assert laid == {"red": ["red-1", "green-1"], "blue": ["blue-2", "green-1"]}
    assert {c.verdict.outcome for c in v.cases} == {v.cases[0].verdict.outcome}
    assert v.next_player == "Bea"  # what every case agrees on is still said
    assert all(c.verdict.draws == {"Cy": 3} for c in v.cases)


def test_cases_merge_only_when_every_fact_agrees():
    t = Scene("star-wars", S3).seated()
    same = Verdict("Bea plays", next_player="Bea", draws={"Cy": 3})
    cases = [Case("Ann lays a red card", same), Case("Ann lays a blue card", same)]
    merged = depends_clause(t, (), "which color Ann lays", cases)
    assert merged.settled and merged.draws == {"Cy": 3}
    for change in ({"hand_sizes": {"Ann": 1}}, {"color": Color.BLUE}, {"points": {"Bea": 3}},
                   {"direction": "counter-clockwise"}, {"skipped": ("Cy",)}):
        other = Case("Ann lays a blue card", replace(same, **change))
        kept = depends_clause(t, (), "which color Ann lays", [cases[0], other])
        assert not kept.settled and len(kept.cases) == 2, change
        assert kept.next_player == "Bea"


def test_the_answer_key_sees_every_fact():
    v = build_droid(Scene("star-wars", S3, top="red-5", hands=DROID_HANDS), "Ann", named="red")
    for change in ({"laid": ()}, {"hand_sizes": {"Ann": 1}}, {"points": {"Bea": 3}},
                   {"color": Color.BLUE}, {"direction": "counter-clockwise"},
                   {"skipped": ("Cy",)}, {"draws": {"Bea": 3}}, {"next_player": "Cy"},
                   {"last_color": Color.RED}, {"too_open": "Bea's hand"}):
        assert answer_key(replace(v, **change)) != answer_key(v), change
    # Steps and citations are how the engine got there, not what the answer says.
    assert answer_key(replace(v, steps=(), citations=())) == answer_key(v)
