"""The questions no check could pose before (issue 20), asked through the app: a draw pile
running out (R2), what the rule-card unit still holds (R17), a player caught already
(R6), a next-to-last wild's color, whom the lever's "choose" picked (R18, R19) and what
may be played after a draw (R12, R29). Each is asked on its check's page and in its JSON,
in every variant where the answer differs, and must be the referee's own answer; each new
field is described in the check's JSON, offered only where the variant has what it asks
about, and read within bounds.
"""

from __future__ import annotations

from typing import Any

import pytest
from referee_steps import JSON, answers_as_the_referee_does, ask, outcome

from engine import TableOptions
from engine.referee import Scene, can_play, first_card, uno_catch, whos_next
from engine.referee import challenge as challenge_check
from engine.referee import end_of_hand as end_check

S2 = "Ann, Bea"
S3 = "Ann, Bea, Cy"
L2 = ["Ann", "Bea"]
L3 = ["Ann", "Bea", "Cy"]


# (variant, check, the form's fields, the same question put to engine.referee directly)
CASES: list[tuple[str, str, dict[str, Any], Any]] = [
    # A draw pile running out (R2): enough, run out, both piles exhausted; in each check
    # that draws from it.
    *[("classic", "next", {"seats": S3, "turn": "Ann", "card": "red-draw2", "top": "red-5",
                           "draw_pile": pile},
       lambda pile=pile: whos_next(Scene("classic", L3, top="red-5", draw_pile=int(pile)),
                                   "Ann", "red-draw2"))
      for pile in ("40", "1", "0")],
    ("pizza-pizza", "next", {"seats": S2, "turn": "Ann", "card": "wild-draw2", "top": "red-5",
                             "named": "red", "counts-0_count": "25", "counts-1_count": "25",
                             "draw_pile": "0"},
     lambda: whos_next(Scene("pizza-pizza", L2, top="red-5", hands={"Ann": 25, "Bea": 25},
                             draw_pile=0), "Ann", "wild-draw2", named="red")),
    ("classic", "uno", {"seats": S3, "player": "Ann", "catcher": "Bea", "draw_pile": "0"},
     lambda: uno_catch(Scene("classic", L3, draw_pile=0), "Ann", catcher="Bea")),
    ("classic", "challenge", {"seats": S3, "by": "Ann", "color": "red", "hand": "red-1",
                              "draw_pile": "3"},
     lambda: challenge_check(Scene("classic", L3, color="red", draw_pile=3), "Ann",
                             hand="red-1")),
    ("classic", "end", {"seats": S3, "went_out": "Ann", "last_card": "blue-draw2",
                        "hands-1": "red-7", "hands-2": "green-skip", "draw_pile": "0"},
     lambda: end_check(Scene("classic", L3, hands={"Bea": "red-7", "Cy": "green-skip"},
                             draw_pile=0), "Ann", "blue-draw2")),
    # What the rule-card unit still holds (R17): enough for everyone, or refilled.
    *[("wild-jackpot", "next", {"seats": S3, "turn": "Ann", "card": "red-jackpot",
                                "top": "red-5", "lever": "everyone", "rule_cards": left},
       lambda left=left: whos_next(Scene("wild-jackpot", L3, top="red-5",
                                         rule_cards=int(left)),
                                   "Ann", "red-jackpot", lever="everyone"))
      for left in ("3", "1", "0")],
    # A player caught already (R6), in variants of different penalties.
    *[(variant, "uno", {"seats": S3, "player": "Ann", "caught_by": "Cy"},
       lambda variant=variant: uno_catch(Scene(variant, L3), "Ann", caught_by="Cy"))
      for variant in ("classic", "wild-jackpot")],
    ("classic", "uno", {"seats": S3, "player": "Ann", "caught_by": "Cy", "catcher": "Bea"},
     lambda: uno_catch(Scene("classic", L3), "Ann", caught_by="Cy", catcher="Bea")),
    # The color a next-to-last wild named; in one nobody is caught whatever it named.
    *[(variant, "uno", {"seats": S3, "player": "Ann", "card": "wild", "top": "red-5",
                        "named": named},
       lambda variant=variant, named=named: uno_catch(Scene(variant, L3, top="red-5"), "Ann",
                                                      card="wild", named=named))
      for variant in ("classic", "one") for named in ("blue", "green")],
    # Whom the lever's "choose" picked (R18), and a Jackpot turned up first (R19).
    *[("wild-jackpot", "next", {"seats": S3, "turn": "Ann", "card": "red-jackpot",
                                "top": "red-5", "lever": "choose", "chosen": chosen},
       lambda chosen=chosen: whos_next(Scene("wild-jackpot", L3, top="red-5"), "Ann",
                                       "red-jackpot", lever="choose", chosen=chosen))
      for chosen in ("Ann", "Cy")],
    ("wild-jackpot", "first-card", {"seats": S3, "dealer": "Ann", "cards": "red-jackpot",
                                    "chosen": "Cy"},
     lambda: first_card(Scene("wild-jackpot", L3), "Ann", "red-jackpot", chosen="Cy")),
    # What may be played after a draw: the drawn card (R12), another card, a card that
    # cannot go, one's drawn card (R29), forced play, a drawn draw wild's bluff.
    *[(variant, "play", {"top": "red-5", "card": card, "drawn": "red-3", "hand": "red-1"},
       lambda variant=variant, card=card: can_play(Scene(variant, top="red-5"), card,
                                                   drawn="red-3", hand="red-1"))
      for variant in ("classic", "pizza-pizza", "one") for card in ("red-3", "red-1")],
    ("classic", "play", {"top": "red-5", "card": "blue-3", "drawn": "blue-3"},
     lambda: can_play(Scene("classic", top="red-5"), "blue-3", drawn="blue-3")),
    ("classic", "play", {"top": "red-5", "card": "red-3", "drawn": "red-3",
                         "house": "forced_play"},
     lambda: can_play(Scene("classic", top="red-5", options=TableOptions(forced_play=True)),
                      "red-3", drawn="red-3")),
    ("classic", "play", {"top": "red-5", "card": "wild-draw4", "drawn": "wild-draw4",
                         "hand": "red-1 blue-2"},
     lambda: can_play(Scene("classic", top="red-5"), "wild-draw4", drawn="wild-draw4",
                      hand="red-1 blue-2")),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}")
def test_every_question_answers_as_the_referee_does(table, case):
    answers_as_the_referee_does(table, *case)


def test_the_answers_differ_where_the_question_does(table):
    # A sample of the table above, said in words: the same form, one field changed.
    red_draw2 = {"variant": "classic", "seats": S3, "turn": "Ann", "card": "red-draw2",
                 "top": "red-5"}
    plenty = outcome(table, ask(table, "next", {**red_draw2, "draw_pile": "40"}))
    run_out = outcome(table, ask(table, "next", {**red_draw2, "draw_pile": "0"}))
    assert plenty == "Bea draws 2 and misses a turn, then Cy plays"
    assert run_out.startswith("The discard pile but its top card is shuffled into a new draw pile")
    uno = {"variant": "classic", "seats": S3, "player": "Ann"}
    assert outcome(table, ask(table, "uno", uno)).startswith("Yes")
    assert outcome(table, ask(table, "uno", {**uno, "caught_by": "Cy"})).startswith(
        "No: Cy has caught Ann already")
    named = {**uno, "card": "wild", "top": "red-5"}
    assert ask(table, "uno", {**named, "named": "blue"}, JSON).get_json()["color"] == "blue"
    assert ask(table, "uno", {**named, "named": "green"}, JSON).get_json()["color"] == "green"
    drawn = {"top": "red-5", "card": "red-3", "drawn": "red-3"}
    assert ask(table, "play", {"variant": "classic", **drawn}, JSON).get_json()["playable"]
    assert not ask(table, "play", {"variant": "one", **drawn}, JSON).get_json()["playable"]
    jackpot = {"variant": "wild-jackpot", "seats": S3, "turn": "Ann", "card": "red-jackpot",
               "top": "red-5", "lever": "left"}
    assert "shuffled back" not in outcome(table, ask(table, "next", jackpot))
    assert "shuffled back" in outcome(table, ask(table, "next", {**jackpot, "rule_cards": "0"}))


def test_each_check_describes_its_new_fields(table):
    def described(slug: str, query: str) -> dict[str, dict[str, Any]]:
        reply = table.client.get(f"/referee/{slug}?{query}", headers=JSON)
        assert reply.status_code == 200
        return {f["name"]: f for f in reply.get_json()["fields"]}

    jackpot = described("next", "variant=wild-jackpot&seats=Ann,Bea,Cy")
    assert jackpot["draw_pile"] == {"name": "draw_pile", "kind": "count",
                                    "label": "Cards left on the draw pile", "required": False,
                                    "sends": ["draw_pile"], "low": 0, "high": 108}
    assert jackpot["rule_cards"]["kind"] == "count" and jackpot["chosen"]["kind"] == "seat"
    classic = described("next", "variant=classic&seats=Ann,Bea,Cy")
    assert "draw_pile" in classic and "rule_cards" not in classic and "chosen" not in classic
    assert "chosen" in described("first-card", "variant=wild-jackpot&seats=Ann,Bea,Cy")
    assert "chosen" not in described("first-card", "variant=classic&seats=Ann,Bea,Cy")
    uno = described("uno", "variant=classic&seats=Ann,Bea,Cy")
    assert uno["caught_by"]["kind"] == "seat" and uno["named"]["kind"] == "color"
    assert "draw_pile" in uno
    assert described("play", "variant=one")["drawn"]["kind"] == "card"
    for slug in ("challenge", "end"):
        assert "draw_pile" in described(slug, "variant=classic&seats=Ann,Bea,Cy")


def test_each_new_field_is_on_its_checks_page(table):
    page = table.page(table.client.get("/referee/next?variant=wild-jackpot&seats=Ann,Bea,Cy"))
    for name in ("draw_pile", "rule_cards"):
        box = page.select_one(f"input[name={name}]")
        assert box is not None and box["type"] == "number"
        label = page.select_one(f"label[for={name}]")
        assert label is not None
    assert page.select("input[name=chosen][value=Cy]")
    classic = table.page(table.client.get("/referee/next?variant=classic&seats=Ann,Bea,Cy"))
    assert classic.select_one("input[name=rule_cards]") is None
    assert classic.select_one("input[name=chosen]") is None
    uno = table.page(table.client.get("/referee/uno?variant=classic&seats=Ann,Bea,Cy"))
    assert uno.select("input[name=caught_by][value=Cy]") and uno.select("input[name=named]")
    play = table.page(table.client.get("/referee/play?variant=classic"))
    assert play.select_one("input[name=drawn]") is not None
    # A question asked is shown again in its fields.
    again = table.page(ask(table, "next", {"variant": "wild-jackpot", "seats": S3, "turn": "Ann",
                                           "card": "red-jackpot", "top": "red-5",
                                           "lever": "left", "rule_cards": "2",
                                           "draw_pile": "7"}))
    assert again.select_one("input[name=rule_cards]")["value"] == "2"
    assert again.select_one("input[name=draw_pile]")["value"] == "7"


@pytest.mark.parametrize("slug, data, message", [
    ("next", {"draw_pile": "lots"}, "Cards left on the draw pile: give a number of cards"),
    ("next", {"draw_pile": "-1"}, "Cards left on the draw pile: give a number of cards"),
    ("next", {"draw_pile": "123456"}, "Cards left on the draw pile: give a number of cards"),
    ("next", {"draw_pile": "9999"}, "The draw pile holds 0 to 109 cards, not 9999"),
    ("next", {"draw_pile": "100"}, "These hands and a draw pile of 100 need"),
    ("next", {"variant": "wild-jackpot", "card": "red-jackpot", "lever": "left",
              "rule_cards": "7"}, "The unit holds 0 to 6 rule cards"),
    ("next", {"variant": "wild-jackpot", "card": "red-jackpot", "lever": "left",
              "chosen": "Cy"}, "Only a lever that shows 'choose'"),
    ("next", {"variant": "wild-jackpot", "card": "red-jackpot", "chosen": "Zed"},
     "'Zed' is not at this table"),
    ("uno", {"player": "Ann", "caught_by": "Ann"}, "Ann cannot have been caught by Ann"),
    ("uno", {"variant": "one", "player": "Ann", "caught_by": "Cy"},
     "no UNO call is needed at this table"),
    ("uno", {"player": "Ann", "card": "wild", "named": "purple"}, "'purple' is not a color"),
    ("play", {"top": "red-5", "card": "red-3", "drawn": "red-99"}, "'red-99' is not a card"),
    ("play", {"top": "red-5", "card": "blue-3", "drawn": "blue-3",
              "house": "draw_until_playable"}, "would draw on past blue 3"),
    ("end", {"went_out": "Ann", "last_card": "blue-draw2", "top": "blue-5",
             "drawn": "red-1 red-2", "draw_pile": "1"}, "2 cards drawn are given, but the draw pile holds only 1"),
])
def test_bad_answers_to_the_new_fields_are_refused_clearly(table, slug, data, message):
    form = {"variant": "classic", "seats": S3, "turn": "Ann", "card": "red-draw2",
            "top": "red-5", **data}
    page = ask(table, slug, form)
    assert page.status_code == 400
    assert message in table.text(page)
    answer = ask(table, slug, form, JSON)
    assert answer.status_code == 400 and message in answer.get_json()["error"]


def test_a_verdicts_address_keeps_the_new_fields(table):
    # Asked with htmx, the address pushed holds the question, the new fields included.
    form = {"variant": "wild-jackpot", "seats": S3, "turn": "Ann", "card": "red-jackpot",
            "top": "red-5", "lever": "choose", "chosen": "Cy", "rule_cards": "0",
            "draw_pile": "5"}
    reply = ask(table, "next", form, {"HX-Request": "true", "HX-Target": "answer"})
    pushed = reply.headers.get("HX-Push-Url", "")
    for part in ("chosen=Cy", "rule_cards=0", "draw_pile=5"):
        assert part in pushed, pushed
    again = table.client.get(pushed.split("#")[0])
    assert outcome(table, again) == whos_next(
        Scene("wild-jackpot", L3, top="red-5", rule_cards=0, draw_pile=5), "Ann", "red-jackpot",
        lever="choose", chosen="Cy").outcome
