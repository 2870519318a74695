"""The referee's pages (companion/referee.py): the list of checks, each check in every
variant where its answer differs, refusals, JSON, htmx and plain form posts, the rulings
log and the replay links.

The app never decides a rule, so every answer is compared with the referee's own: the
page must show exactly the Verdict that the same engine.referee call gives.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from referee_steps import HTMX, JSON, answers_as_the_referee_does, ask, outcome, refusal

import companion.referee
import companion.store
from engine import TableOptions
from engine.referee import Replay
from engine.referee import keywords as referee

S2 = "Ann, Bea"
S3 = "Ann, Bea, Cy"
S4 = "Ann, Bea, Cy, Dan"
L2 = ["Ann", "Bea"]
L3 = ["Ann", "Bea", "Cy"]
L4 = ["Ann", "Bea", "Cy", "Dan"]
SEVEN_O = TableOptions(seven_o=True)
JUMP_IN = TableOptions(jump_in=True)
STACKING = TableOptions(stacking=True)


# -- every check, in every variant where its answer differs -----------------------------------
# (variant, check, the form's fields, the same question put to engine.referee directly)

CASES: list[tuple[str, str, dict[str, Any], Any]] = [
    # Challenge: guilty and innocent, a Wild Draw 2 judged by the card under it too, a wild
    # that counts as a card of the color in play, an unshown hand, and One's "no challenge".
    ("classic", "challenge", {"seats": S4, "by": "Bea", "hand": "red-3 blue-7", "color": "red"},
     lambda: referee.challenge("classic", L4, "Bea", "red-3 blue-7", "red")),
    ("classic", "challenge", {"seats": S4, "by": "Bea", "hand": "blue-3 green-7", "color": "red"},
     lambda: referee.challenge("classic", L4, "Bea", "blue-3 green-7", "red")),
    ("wild-jackpot", "challenge", {"seats": S3, "by": "Ann", "hand": "wild-jackpot blue-1",
                                   "color": "red"},
     lambda: referee.challenge("wild-jackpot", L3, "Ann", "wild-jackpot blue-1", "red")),
    ("star-wars", "challenge", {"seats": S3, "by": "Ann", "hand": "wild blue-1", "color": "red"},
     lambda: referee.challenge("star-wars", L3, "Ann", "wild blue-1", "red")),
    ("pizza-pizza", "challenge", {"seats": S3, "by": "Ann", "hand": "blue-5", "color": "red",
                                  "top": "red-5"},
     lambda: referee.challenge("pizza-pizza", L3, "Ann", "blue-5", "red", "red-5")),
    ("pizza-pizza", "challenge", {"seats": S3, "by": "Ann", "hand": "blue-5", "color": "red"},
     lambda: referee.challenge("pizza-pizza", L3, "Ann", "blue-5", "red")),
    ("one", "challenge", {"seats": S4, "by": "Bea", "hand": "red-1", "color": "red"},
     lambda: referee.challenge("one", L4, "Bea", "red-1", "red")),
    ("classic", "challenge", {"seats": S3, "by": "Bea", "hand_count": "3", "color": "red"},
     lambda: referee.challenge("classic", L3, "Bea", 3, "red")),
    ("classic", "challenge", {"seats": S3, "by": "Ann", "hand_count": "0", "color": "red"},
     lambda: referee.challenge("classic", L3, "Ann", 0, "red")),
    ("classic", "challenge", {"seats": S4, "by": "Bea", "hand": "blue-1", "color": "red",
                              "direction": "counter-clockwise"},
     lambda: referee.challenge("classic", L4, "Bea", "blue-1", "red",
                               direction="counter-clockwise")),
    # Can I play this?
    ("classic", "play", {"top": "blue-7", "card": "red-7"},
     lambda: referee.can_play("classic", "blue-7", None, "red-7")),
    ("classic", "play", {"top": "blue-7", "card": "red-2", "player": "Cy", "seats": S3},
     lambda: referee.can_play("classic", "blue-7", None, "red-2", player="Cy")),
    ("classic", "play", {"top": "wild", "color": "green", "card": "green-3"},
     lambda: referee.can_play("classic", "wild", "green", "green-3")),
    ("pizza-pizza", "play", {"top": "red-5", "card": "wild-draw2", "hand": "wild-draw2 blue-5"},
     lambda: referee.can_play("pizza-pizza", "red-5", None, "wild-draw2", "wild-draw2 blue-5")),
    ("one", "play", {"top": "red-5", "card": "wild-draw4", "hand": "wild-draw4 red-1"},
     lambda: referee.can_play("one", "red-5", None, "wild-draw4", "wild-draw4 red-1")),
    ("star-wars", "play", {"top": "red-5", "card": "wild-draw4"},
     lambda: referee.can_play("star-wars", "red-5", None, "wild-draw4")),
    # First card: a Reverse in classic and in Wild Jackpot, a Wild, a Wild Draw 4 sent back,
    # two cards turned in a row.
    ("classic", "first-card", {"seats": S4, "dealer": "Ann", "cards": "red-reverse"},
     lambda: referee.first_card("classic", L4, "Ann", "red-reverse")),
    ("wild-jackpot", "first-card", {"seats": S4, "dealer": "Ann", "cards": "red-reverse"},
     lambda: referee.first_card("wild-jackpot", L4, "Ann", "red-reverse")),
    ("classic", "first-card", {"seats": S4, "dealer": "Ann", "cards": "wild"},
     lambda: referee.first_card("classic", L4, "Ann", "wild")),
    ("classic", "first-card", {"seats": S4, "dealer": "Ann", "cards": "wd4"},
     lambda: referee.first_card("classic", L4, "Ann", "wild-draw4")),
    ("star-wars", "first-card", {"seats": S4, "dealer": "Ann", "cards": "red-skip blue-3"},
     lambda: referee.first_card("star-wars", L4, "Ann", ["red-skip", "blue-3"])),
    ("pizza-pizza", "first-card", {"seats": S3, "dealer": "Cy", "cards": "blue-draw1"},
     lambda: referee.first_card("pizza-pizza", L3, "Cy", "blue-draw1")),
    # Who's next: the two-player Reverse differs by variant; house rules; the lever.
    ("classic", "next", {"seats": S2, "turn": "Ann", "card": "red-reverse"},
     lambda: referee.whos_next("classic", L2, "Ann", "red-reverse")),
    ("star-wars", "next", {"seats": S2, "turn": "Ann", "card": "red-reverse"},
     lambda: referee.whos_next("star-wars", L2, "Ann", "red-reverse")),
    ("classic", "next", {"seats": S3, "turn": "Ann", "card": "red-draw2"},
     lambda: referee.whos_next("classic", L3, "Ann", "red-draw2")),
    ("classic", "next", {"seats": S4, "turn": "Ann", "card": "red-draw2", "house": "stacking"},
     lambda: referee.whos_next("classic", L4, "Ann", "red-draw2", options=STACKING)),
    ("pizza-pizza", "next", {"seats": S3, "turn": "Ann", "card": "red-draw1"},
     lambda: referee.whos_next("pizza-pizza", L3, "Ann", "red-draw1")),
    ("wild-jackpot", "next", {"seats": S3, "turn": "Ann", "card": "red-jackpot",
                              "lever": "draw4"},
     lambda: referee.whos_next("wild-jackpot", L3, "Ann", "red-jackpot", lever="draw4")),
    ("classic", "next", {"seats": S3, "turn": "Ann", "card": "red-skip",
                         "direction": "counter-clockwise"},
     lambda: referee.whos_next("classic", L3, "Ann", "red-skip", "counter-clockwise")),
    # UNO: the penalty differs by variant; One needs no call.
    ("classic", "uno", {"seats": S3, "player": "Ann"},
     lambda: referee.uno_catch("classic", L3, "Ann")),
    ("wild-jackpot", "uno", {"seats": S3, "player": "Ann", "catcher": "Cy"},
     lambda: referee.uno_catch("wild-jackpot", L3, "Ann", catcher="Cy")),
    ("classic", "uno", {"seats": S3, "player": "Ann", "called": "1"},
     lambda: referee.uno_catch("classic", L3, "Ann", called=True)),
    ("classic", "uno", {"seats": S3, "player": "Ann", "card": "red-skip"},
     lambda: referee.uno_catch("classic", L3, "Ann", card="red-skip")),
    ("one", "uno", {"seats": S3, "player": "Ann"}, lambda: referee.uno_catch("one", L3, "Ann")),
    # End of hand: points in classic, none in One; a final draw card.
    ("classic", "end", {"seats": S3, "went_out": "Ann", "last_card": "blue-draw2",
                        "hands-1": "red-7 wild", "hands-2": "green-skip",
                        "drawn": "blue-1 blue-2"},
     lambda: referee.end_of_hand("classic", L3, "Ann", "blue-draw2",
                                 {"Bea": "red-7 wild", "Cy": "green-skip"},
                                 drawn="blue-1 blue-2")),
    ("one", "end", {"seats": S2, "went_out": "Ann", "last_card": "red-3", "hands-1": "red-7"},
     lambda: referee.end_of_hand("one", L2, "Ann", "red-3", {"Bea": "red-7"})),
    ("pizza-pizza", "end", {"seats": S3, "went_out": "Ann", "last_card": "red-3",
                            "hands-1": "wild-dip", "hands-2_count": "2"},
     lambda: referee.end_of_hand("pizza-pizza", L3, "Ann", "red-3", {"Bea": "wild-dip", "Cy": 2})),
    # The special cards, and the house rules that make 7-0 and jump-in.
    ("pizza-pizza", "special/wild-dip", {"seats": S3, "player": "Ann", "named": "blue",
                                         "drawn": "red-9", "give": "red-9"},
     lambda: referee.wild_dip("pizza-pizza", L3, "Ann", "blue", drawn="red-9", give="red-9")),
    ("classic", "special/swap-hands", {"seats": S3, "player": "Ann", "swap_with": "Cy",
                                       "named": "red", "counts-0_count": "4",
                                       "counts-2_count": "2"},
     lambda: referee.swap_hands("classic", L3, "Ann", "Cy", "red", counts={"Ann": 4, "Cy": 2})),
    ("classic", "special/seven-zero", {"seats": S3, "player": "Ann", "card": "red-0",
                                       "house": "seven_o", "counts-0_count": "2",
                                       "counts-1_count": "5", "counts-2_count": "6"},
     lambda: referee.seven_zero("classic", L3, "Ann", "red-0", options=SEVEN_O,
                                counts={"Ann": 2, "Bea": 5, "Cy": 6})),
    ("classic", "special/seven-zero", {"seats": S3, "player": "Ann", "card": "red-0"},
     lambda: referee.seven_zero("classic", L3, "Ann", "red-0")),
    ("classic", "special/jump-in", {"seats": S4, "turn": "Bea", "top": "red-5", "jumper": "Dan",
                                    "house": "jump_in"},
     lambda: referee.jump_in("classic", L4, "Bea", "red-5", "Dan", options=JUMP_IN)),
    ("classic", "special/jump-in", {"seats": S4, "turn": "Bea", "top": "red-5", "jumper": "Dan"},
     lambda: referee.jump_in("classic", L4, "Bea", "red-5", "Dan")),
    ("star-wars", "special/droid", {"seats": S3, "player": "Ann", "named": "red",
                                    "hands-0": "blue-1", "hands-1": "green-2",
                                    "hands-2": "red-3"},
     lambda: referee.build_droid("star-wars", L3, "Ann", "red",
                                 {"Ann": "blue-1", "Bea": "green-2", "Cy": "red-3"})),
]


def _id(case: tuple[str, str, dict[str, Any], Any]) -> str:
    variant, slug, data, _ = case
    return f"{slug}-{variant}-" + "-".join(str(v) for v in data.values())[:60]


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_every_check_answers_as_the_referee_does(table, case):
    answers_as_the_referee_does(table, *case)


def test_the_answers_differ_where_the_variants_do(table):
    # A sample of the table above, said in words: the same form, another variant.
    reverse = {"seats": S2, "turn": "Ann", "card": "red-reverse"}
    assert outcome(table, ask(table, "next", {"variant": "classic", **reverse})) == (
        "Ann plays again: play now goes counter-clockwise")
    assert outcome(table, ask(table, "next", {"variant": "star-wars", **reverse})).endswith(
        "then Bea plays")
    shown = {"seats": S4, "by": "Bea", "hand": "red-3 blue-7", "color": "red"}
    assert outcome(table, ask(table, "challenge", {"variant": "classic", **shown})) == (
        "Bea's Wild Draw 4 was illegal: Bea draws 4, then Cy plays")
    assert outcome(table, ask(table, "challenge", {"variant": "one", **shown})).startswith(
        "Nobody can challenge a Wild Draw 4 in One")


# -- the page: outcome first, then the steps, then the sources ------------------------------


def test_an_answer_shows_the_outcome_then_the_steps_then_the_sources(table):
    page = ask(table, "challenge", {"variant": "classic", "seats": S4, "by": "Bea",
                                    "hand": "red-3 blue-7", "color": "red"})
    verdict = table.page(page).select_one("#answer .verdict")
    assert verdict is not None
    order = [el.get("class", [""])[0] if el.name != "h3" else table.text(el)
             for el in verdict.find_all(["p", "h3", "ol", "ul"], recursive=False)]
    assert order[:5] == ["outcome", "Step by step", "steps", "Sources", "sources"]
    steps = [table.text(li) for li in verdict.select("ol.steps li")]
    # Plain steps: the rules are cited once, under them (Sources).
    assert steps[0] == "Cy challenges Bea's Wild Draw 4"
    links = [(a["href"], table.text(a)) for a in verdict.select("ul.sources a")]
    # A ruling's code is shown beside its name (issue 21).
    assert links == [("/rules/classic#wild-draw-4", "Wild Draw 4 (R10)"),
                     ("/rules/classic#wild-draw-4", "classic sheet, Wild Draw 4 Card"),
                     ("/rules/classic#wild-draw-4", "Wild Draw 4 (R4)")]


def test_an_answer_that_hangs_on_an_unknown_shows_each_case(table):
    page = ask(table, "challenge", {"variant": "star-wars", "seats": S4, "by": "Bea",
                                    "hand_count": "3", "color": "red"})
    text = table.text(table.page(page).select_one("#answer"))
    assert "It depends on whether Bea holds a red card or a wild card" in text
    assert ("If Bea holds a red card or a wild card: Bea's Wild Draw 4 was illegal: Bea draws "
            "4, then Cy plays") in text
    assert "If Bea holds none of these: Bea's Wild Draw 4 was legal" in text


@pytest.mark.parametrize("variant, citation, anchor", [
    ("classic", "R10", "wild-draw-4"),
    ("classic", "classic sheet, Wild Draw 4 Card", "wild-draw-4"),
    ("pizza-pizza", "R25", "wild-draw-2"),
    # A house rule is no part of the sheet: its place is the rules' house-rules section.
    ("classic", "house rule: 7-0", "house-rules"),
    ("star-wars", "house rule: jump-in", "house-rules"),
    ("wild-jackpot", "house rule: stacking", "house-rules"),
])
def test_a_citation_links_to_the_rule_it_names(app, client, variant, citation, anchor):
    from companion.referee_checks import citation_path

    with app.test_request_context():
        path = citation_path(variant, citation)
    assert path == f"/rules/{variant}#{anchor}"
    assert client.get(path.split("#")[0]).status_code == 200
    assert f'id="{anchor}"' in client.get(path.split("#")[0]).get_data(as_text=True)


# -- htmx, a plain form post, JSON ----------------------------------------------------------

CHALLENGE = {"variant": "classic", "seats": S4, "by": "Bea", "hand": "red-3 blue-7",
             "color": "red"}


def test_htmx_gets_the_answer_alone(table):
    answer = ask(table, "challenge", CHALLENGE, HTMX)
    assert answer.status_code == 200 and answer.headers["X-Answer"] == "in-place"
    html = table.html(answer)
    assert "<html" not in html and "<form" not in html
    assert outcome(table, answer) == "Bea's Wild Draw 4 was illegal: Bea draws 4, then Cy plays"


def test_a_plain_form_post_gets_the_whole_page_with_the_form_kept(table):
    page = ask(table, "challenge", CHALLENGE)
    assert page.status_code == 200
    assert "<html" in table.html(page)
    form = table.page(page).select_one("form#check-form")
    assert form["action"] == "/referee/challenge#answer"
    # Asking is a GET: the address holds the question (tests/browser: htmx swaps the
    # answer in and shows that address).
    assert form["method"] == "get"
    # What was entered is still there, to change and ask again.
    assert table.page(page).select_one("input[name=by][value=Bea]").has_attr("checked")
    assert table.page(page).select_one("input[name=color][value=red]").has_attr("checked")
    assert table.field(page, "hand") == "red-3 blue-7"
    assert outcome(table, page).startswith("Bea's Wild Draw 4 was illegal")


def test_the_form_page_works_without_javascript(table):
    page = table.client.get("/referee/challenge?variant=classic&seats=Ann,Bea,Cy")
    assert page.status_code == 200
    # Every card list is a text field (the grid is drawn by app.js); seats and colors are
    # radio buttons; the default button is Decide.
    assert table.page(page).select_one("input[type=text][name=hand]") is not None
    assert [i["value"] for i in table.page(page).select("input[name=by]")] == L3
    buttons = table.page(page).select("form#check-form button[type=submit]")
    assert table.text(buttons[0]) == "Decide"


def test_json_answers_carry_the_verdict_and_refusals_an_error(table):
    good = ask(table, "challenge", CHALLENGE, JSON)
    assert good.status_code == 200 and good.is_json
    assert good.get_json()["guilty"] is True and good.get_json()["next_player"] == "Cy"
    bad = ask(table, "challenge", {**CHALLENGE, "hand": "red-3 purple-9"}, JSON)
    assert bad.status_code == 400
    assert bad.get_json() == {"error": "Bea's hand: 'purple-9' is not a card (try e.g. red-7, "
                                       "blue-skip, wild-draw4).", "fields": {}}
    missing = ask(table, "challenge", {**CHALLENGE, "by": ""}, JSON)
    assert missing.status_code == 400
    assert missing.get_json() == {"error": "Tap who played the wild.",
                                  "fields": {"by": "Tap who played the wild."}}


def question(table, check: str, query: str = "") -> str:
    """The question a check asks at a classic table of three, as its JSON gives it."""
    return table.client.get(f"/referee/{check}?variant=classic&seats={S3}{query}",
                            headers=JSON).get_json()["question"]


def test_seven_zero_says_up_front_whether_the_house_rule_is_on(table):
    assert "7-0 house rule is not on at this table" in question(table, "special/seven-zero")
    assert "not on" not in question(table, "special/seven-zero", "&house=seven_o")
    page = ask(table, "special/seven-zero", {"variant": "classic", "seats": S3,
                                             "player": "Ann", "card": "red-7",
                                             "swap_with": "Cy"})
    assert page.status_code == 400
    assert "7-0 house rule is not on at this table" in refusal(table, page)


def test_jump_in_says_up_front_whether_the_house_rule_is_on(table):
    assert "jump-in house rule is not on at this table" in question(table, "special/jump-in")
    assert "not on" not in question(table, "special/jump-in", "&house=jump_in")
    page = table.client.get(f"/referee/special/jump-in?variant=classic&seats={S3}")
    assert "The jump-in house rule is not on at this table" in table.text(page)


def test_json_lists_the_checks_and_describes_each(table):
    listed = table.client.get("/referee?variant=pizza-pizza&seats=Ann,Bea", headers=JSON)
    data = listed.get_json()
    assert data["variant"] == "pizza-pizza" and data["seats"] == L2
    assert [c["check"] for c in data["checks"]] == [
        "challenge", "play", "first-card", "next", "uno", "end", "special/wild-dip",
        "special/seven-zero", "special/jump-in"]
    assert data["checks"][0]["question"] == "Was that Wild Draw 2 legal, or a bluff?"
    assert data["csrf_token"]
    described = table.client.get("/referee/challenge?seats=Ann,Bea", headers=JSON).get_json()
    assert [f["name"] for f in described["fields"]] == [
        "by", "color", "hand", "top", "direction", "named", "draw_pile"]
    assert described["fields"][2]["sends"] == ["hand", "hand_count"]


# -- bad or impossible input: a clear message and a 4xx, never a 500 ------------------------


@pytest.mark.parametrize("slug, data, message", [
    ("challenge", {"by": "Zed"}, "Who played the wild: 'Zed' is not at this table"),
    ("challenge", {"hand": "red-3 red-99"}, "'red-99' is not a card"),
    ("challenge", {"hand": "", "hand_count": "lots"}, "give a number of cards, like 3"),
    ("challenge", {"color": ""}, "Tap the color in play before the wild."),
    ("challenge", {"by": ""}, "Tap who played the wild."),
    ("challenge", {"seats": "Ann"}, "classic is for 2-10 players, not 1"),
    ("challenge", {"seats": "Ann, ann, Bea"}, "Two players have the same name"),
    ("challenge", {"seats": ""}, "Name the players first, in clockwise order."),
    ("challenge", {"hand": "red-3 " * 5 + "red-3"}, "red 3 is named 6 times"),
    ("challenge", {"direction": "sideways"}, "direction is 1 or 'clockwise'"),
    ("play", {"top": "red-5", "card": "red-0", "variant": "pizza-pizza"},
     "red 0 is not in the pizza-pizza deck"),
    ("play", {"top": "", "card": "red-0"}, "Tap the card on top."),
    ("play", {"top": "wild", "card": "red-0"}, "give the color in play"),
    ("first-card", {"dealer": "Ann", "cards": "red-5 blue-3"}, "red 5 stays on the discard pile"),
    # The lever is asked only where the variant has one (classic ignores a lever sent).
    ("next", {"variant": "wild-jackpot", "turn": "Ann", "card": "red-7", "lever": "draw4"},
     "cannot 'lever' now"),
    ("next", {"variant": "wild-jackpot", "turn": "Ann", "card": "red-7", "lever": "jackpot!"},
     "not a lever outcome"),
    ("uno", {"player": "Ann", "catcher": "Nobody"}, "the catcher: 'Nobody' is not at this table"),
    ("end", {"went_out": "Ann", "last_card": "red-3", "mode": "golf"},
     "'golf' is not a scoring mode"),
    ("special/wild-dip", {"player": "Ann"}, "Wild Dip Into The Deck is not in this classic deck"),
    ("special/droid", {"player": "Ann"}, "is not in this classic deck"),
    ("special/wild-dip", {"variant": "pizza-pizza", "player": "Ann", "named": "blue",
                          "drawn": "red-9", "give": "green-3", "hand": "blue-1 red-2"},
     "green 3"),
    # The seats are capped as a game's are (issue 18), and so are the cards laid for a droid.
    ("next", {"seats": "Ann, " + "B" * 41, "turn": "Ann", "card": "red-7"},
     "Names can be at most 40 characters."),
    ("next", {"seats": ", ".join(f"P{i}" for i in range(11)), "turn": "P0", "card": "red-7"},
     "UNO (classic) is for 2 to 10 players; you entered 11."),
    ("next", {"seats": ", ".join(["Ann"] * 200), "turn": "Ann", "card": "red-7"},
     "UNO (classic) is for 2 to 10 players."),
    ("special/droid", {"variant": "star-wars", "player": "Ann", "named": "red",
                       "lays": "red-1 blue-1 " * 7}, "up to 12 cards"),
    ("first-card", {"dealer": "Ann", "cards": "wd4 " * 120 + "red-5"},
     "That is more cards than a deck holds."),
])
def test_bad_input_is_refused_with_a_clear_message(table, slug, data, message):
    form = {**CHALLENGE, **data} if slug == "challenge" else {"variant": "classic",
                                                                "seats": S4, **data}
    said = message.lower()  # the referee's sentences are shown starting with a capital
    page = ask(table, slug, form)
    assert page.status_code == 400
    assert said in refusal(table, page).lower()
    # The form is still there, for the fix.
    assert table.page(page).select_one("form#check-form") is not None
    partial = ask(table, slug, form, HTMX)
    assert partial.status_code == 400 and partial.headers["X-Answer"] == "in-place"
    assert said in refusal(table, partial).lower()
    answer = ask(table, slug, form, JSON)
    assert answer.status_code == 400 and said in answer.get_json()["error"].lower()


def test_a_question_too_open_to_follow_says_so_on_the_page_and_in_json(table):
    # Issue 18: a droid at ten unknown hands with long names answered 18 MB of JSON.
    names = [f"{chr(65 + i)}{'x' * 38}{i}" for i in range(10)]
    form = {"variant": "star-wars", "seats": ", ".join(names), "house": ["stacking", "jump_in"],
            "player": names[0], "named": "red"}
    expected = referee.build_droid("star-wars", names, names[0], "red",
                                   options=TableOptions(stacking=True, jump_in=True))
    assert expected.too_open
    answer = ask(table, "special/droid", form, JSON)
    assert answer.status_code == 200 and answer.get_json() == expected.to_dict()
    assert len(answer.data) < 256_000
    page = ask(table, "special/droid", form)
    assert page.status_code == 200 and len(page.data) < 256_000
    assert (f"To settle the rest, tell it {expected.too_open}."
            in table.text(table.page(page).select_one("#too-open")))


def test_a_field_error_is_shown_beside_its_field(table):
    page = ask(table, "challenge", {**CHALLENGE, "by": ""})
    field = table.page(page).select_one("#field-by")
    assert "Tap who played the wild." in table.text(field)
    assert table.page(page).select_one("#refusal a[href='#field-by']") is not None


JUNK = ["", "💥", "red-99", "-1", "0", "99999", "x" * 3000, "Ann", "wild", "\x00", "<b>",
        "counter-clockwise", "red", "1", "r7 r7 r7 r7 r7", "None"]


@pytest.mark.parametrize("slug", ["challenge", "play", "first-card", "next", "uno", "end",
                                  "special/wild-dip", "special/swap-hands",
                                  "special/seven-zero", "special/jump-in", "special/droid"])
@pytest.mark.parametrize("variant", ["classic", "pizza-pizza", "star-wars"])
def test_junk_in_every_field_is_a_4xx_never_a_500(table, slug, variant):
    described = table.client.get(f"/referee/{slug}?variant={variant}&seats=Ann,Bea,Cy",
                                 headers=JSON).get_json()
    names = [n for f in described["fields"] for n in f["sends"]]
    for i, junk in enumerate(JUNK):
        form = {"variant": variant, "seats": S3}
        form.update({name: JUNK[(i + k) % len(JUNK)] for k, name in enumerate(names)})
        form[names[0]] = junk
        response = ask(table, slug, form)
        assert response.status_code in (200, 400), (form, table.text(response)[:500])


@pytest.mark.parametrize("path", ["/referee/nothing", "/referee/special/nothing",
                                  "/referee/challenge?game=999", "/referee?game=0",
                                  "/referee?game=abc"])
def test_unknown_checks_and_games_are_not_found(table, path):
    assert table.client.get(path).status_code == 404


def test_a_post_without_the_csrf_token_is_refused(table):
    response = table.client.post("/referee/challenge", data=CHALLENGE)
    assert response.status_code == 400
    assert "expired" in table.text(response)


def test_checks_change_nothing_stored(table, game_id):
    before = table.snapshot()
    ask(table, "challenge", {"game": game_id, "by": "Bob", "hand": "red-1", "color": "red"})
    assert table.snapshot() == before


# -- the list of checks, from a game or for any table ---------------------------------------


def test_the_scoreboard_links_to_the_referee_for_its_game(table, game_id):
    links = table.links(table.scoreboard(game_id))
    assert (f"/referee?game={game_id}", "Settle a dispute") in links


def test_the_list_is_prefilled_from_a_game(table):
    game = table.create_game(["Ann", "Bob", "Cy"], "pizza-pizza", dealer="1")
    page = table.client.get(f"/referee?game={game}")
    assert page.status_code == 200
    text = table.text(page)
    assert "UNO Pocket Pizza Pizza" in text and "Ann → Bob → Cy" in text and "dealer: Bob" in text
    hrefs = [href for href, _ in table.links(page)]
    assert f"/referee/challenge?game={game}" in hrefs
    assert f"/referee/special?game={game}" in hrefs
    assert f"/games/{game}/rulings" in hrefs
    titles = [table.text(a) for a in table.page(page).select("a.check-link strong")]
    assert titles[0] == "Challenge!"
    assert "Was that Wild Draw 2 legal, or a bluff?" in text
    # The game's own rules, in the engine's words.
    assert "A player caught not calling UNO at one card draws 2 cards." in text


def test_a_check_from_a_game_uses_its_seats_and_dealer(table):
    game = table.create_game(["Ann", "Bob", "Cy"], "classic", dealer="2")
    page = table.client.get(f"/referee/first-card?game={game}")
    assert [i["value"] for i in table.page(page).select("input[name=dealer]")] == [
        "Ann", "Bob", "Cy"]
    assert table.page(page).select_one("input[name=dealer][value=Cy]").has_attr("checked")
    # The seats come from the game, whatever the form says.
    answer = ask(table, "first-card", {"game": game, "seats": "Xi, Yu", "cards": "red-skip"})
    assert outcome(table, answer) == referee.first_card(
        "classic", ["Ann", "Bob", "Cy"], "Cy", "red-skip").outcome


def test_a_game_after_a_hand_has_its_next_dealer(table, game_id):
    table.record(game_id, 0, {1: 5, 2: 3})
    page = table.client.get(f"/referee/first-card?game={game_id}")
    assert table.page(page).select_one("input[name=dealer][value=Bob]").has_attr("checked")


def test_any_variant_can_be_chosen_with_its_house_rules(table):
    page = table.client.get("/referee?variant=star-wars&seats=Ann,Bea,Cy&house=jump_in"
                            "&house=nonsense")
    hrefs = [href for href, _ in table.links(page)]
    assert "/referee/challenge?variant=star-wars&seats=Ann,+Bea,+Cy&house=jump_in" in hrefs
    special = table.client.get("/referee/special?variant=star-wars&seats=Ann,Bea,Cy")
    titles = [table.text(a) for a in table.page(special).select("a.check-link strong")]
    assert titles == ["7-0", "Jump-in", "Build a Droid", "All checks"]


@pytest.mark.parametrize("variant, special", [
    ("classic", "Swap Hands"), ("pizza-pizza", "Wild Dip"), ("star-wars", "Build a Droid")])
def test_the_special_cards_offered_are_the_decks(table, variant, special):
    page = table.client.get(f"/referee/special?variant={variant}&seats=Ann,Bea")
    titles = [table.text(a) for a in table.page(page).select("a.check-link strong")]
    assert special in titles
    others = {"Swap Hands", "Wild Dip", "Build a Droid"} - {special}
    assert not others & set(titles)


def test_a_classic_game_without_swap_hands_is_not_offered_it(table):
    game = table.create_game(["Ann", "Bob"], "classic", wild_swap="")
    page = table.client.get(f"/referee/special?game={game}")
    titles = [table.text(a) for a in table.page(page).select("a.check-link strong")]
    assert "Swap Hands" not in titles


def test_a_deleted_game_has_no_referee(table, game_id):
    table.submit(table.client.get(f"/games/{game_id}/delete"), f"/games/{game_id}/delete")
    assert table.client.get(f"/referee?game={game_id}").status_code == 404


# -- replay: the position in the link -------------------------------------------------------

START = ("variant=classic;players=Ann,Bea;hands=red-7.wild/blue-3.green-5;discard=red-5;"
         "draw=yellow-1.yellow-2")


def replay_page(table, text: str, **query: Any):
    return table.client.get("/referee/replay?" + urlencode({**query, "p": text}))


def test_a_replay_link_shows_the_legal_actions_as_links(table):
    page = replay_page(table, START)
    assert page.status_code == 200
    expected = Replay.parse(START).choices()
    shown = [(a["href"], table.text(a)) for a in table.page(page).select("#choices a")]
    assert [label for _, label in shown] == [c.label for c in expected]
    # Each link is the replay with that action played: the whole state, no server storage.
    first = dict(parse_qsl(urlsplit(shown[0][0]).query))["p"]
    assert first == Replay.parse(START).play(expected[0].action).text
    assert table.page(page).select_one("#undo") is None
    share = table.page(page).select_one("#share-link")["value"]
    assert share.startswith("http://") and urlsplit(share).path == "/referee/replay"
    assert dict(parse_qsl(urlsplit(share).query)) == {"p": START}


def test_playing_and_undoing_follow_the_links(table):
    played = Replay.parse(START).play("play red-7")
    page = replay_page(table, played.text)
    steps = [table.text(li) for li in table.page(page).select("#steps > li")]
    assert steps == ["Ann plays red 7 Ann plays red 7 (R3; classic sheet, Gameplay)"]
    assert "Bea to act" in table.text(page)
    undo = table.page(page).select_one("#undo")["href"]
    assert dict(parse_qsl(urlsplit(undo).query))["p"] == START


def test_a_replay_as_json(table):
    played = Replay.parse(START).play("play red-7")
    data = table.client.get("/referee/replay?" + urlencode({"p": played.text}),
                            headers=JSON).get_json()
    assert data["replay"] == played.text and data["to_act"] == "Bea"
    assert data["hands"] == {"Ann": ["wild"], "Bea": ["blue-3", "green-5"]}
    assert data["steps"][0]["events"][0]["text"] == "Ann plays red 7 (R3; classic sheet, Gameplay)"
    assert [c["label"] for c in data["choices"]] == [c.label for c in played.choices()]


def test_the_editor_sets_a_position_out_and_starts_it(table):
    form = {"variant": "classic", "seats": S2, "hand-0": "r7 wild", "hand-1": "b3 g5",
            "top": "red-5", "to_act": "Ann", "draw": "yellow-1 yellow-2"}
    # The table's options ride along: classic's own UNO penalty, written out.
    link = START + ";options=uno_penalty:4"
    started = table.post("/referee/replay", form)
    assert started.status_code == 303
    assert dict(parse_qsl(urlsplit(started.headers["Location"]).query))["p"] == link
    answer = table.post("/referee/replay", form, headers=JSON)
    assert answer.status_code == 200 and answer.get_json()["replay"] == link


def test_the_editor_can_shuffle_in_the_rest_of_the_deck(table):
    form = {"variant": "classic", "seats": S2, "hand-0": "r7", "hand-1": "b3", "top": "red-5",
            "to_act": "Bea", "fill": "1"}
    data = table.post("/referee/replay", form, headers=JSON).get_json()
    assert data["to_act"] == "Bea"
    assert data["draw_pile"] == 109 - 3  # classic with Wild Swap Hands: 109 cards


@pytest.mark.parametrize("p, message", [
    ("variant=classic;players=Ann", "a position needs its hands"),
    ("variant=nope;players=Ann,Bea;hands=red-1/red-2;discard=red-5", "nope"),
    (START + ";actions=play_blue-3", "blue 3"),
    ("x" * 9000, "far too long"),
    # A seat the table does not have (issue 18: these were 500s).
    (START + ";actions=catch_9_9", "seat 9 is not at this table"),
    (START + ";actions=uno_7", "seat 7 is not at this table"),
    (START + ";actions=choose_5", "cannot 'choose' now"),
    (START + ";actions=play_red-7_9", "does not name a seat"),
])
def test_a_broken_replay_link_is_refused(table, p, message):
    page = replay_page(table, p)
    assert page.status_code == 400
    assert message in refusal(table, page).lower()
    answer = table.client.get("/referee/replay?" + urlencode({"p": p}), headers=JSON)
    assert answer.status_code == 400 and message in answer.get_json()["error"].lower()


def test_a_replay_answer_stays_small(table, monkeypatch):
    # Issue 18: each choice links the whole replay, so a long link at a position of many
    # moves is refused (set out again from there), as is a link of too many actions.
    many = START + ";actions=" + ",".join(["draw"] * 151)
    page = replay_page(table, many)
    assert page.status_code == 400 and "more than 150 actions" in refusal(table, page)
    monkeypatch.setattr(companion.referee, "MAX_CHOICE_LINKS", 1_000)
    for answer in (replay_page(table, START),
                   table.client.get("/referee/replay?" + urlencode({"p": START}),
                                    headers=JSON)):
        assert answer.status_code == 400
        assert "too long for a position with this many moves" in answer.get_data(as_text=True)


@pytest.mark.parametrize("data, message", [
    ({"to_act": ""}, "Tap whose turn it is."),
    ({"top": ""}, "Tap the card on top."),
    ({"hand-0": "red-7 purple-2"}, "purple-2"),
    ({"top": "wild"}, "color"),
])
def test_the_editor_refuses_what_cannot_be_set_up(table, data, message):
    form = {"variant": "classic", "seats": S2, "hand-0": "r7", "hand-1": "b3", "top": "red-5",
            "to_act": "Ann", **data}
    page = table.post("/referee/replay", form)
    assert page.status_code == 400
    assert message.lower() in refusal(table, page).lower()


# -- the rulings log ----------------------------------------------------------------------

def game_challenge(game: int, **extra: str) -> dict[str, str]:
    return {"game": str(game), "by": "Bob", "hand": "red-3 blue-7", "color": "red",
            "submission": "key-1", **extra}


def rulings_kept(table, game: int) -> list[tuple[Any, ...]]:
    return table.rows("select check_name, outcome, submission from rulings where game_id = ?"
                      " order by id", [game])


def test_an_answer_in_a_game_offers_to_keep_the_ruling(table, game_id):
    answer = ask(table, "challenge", game_challenge(game_id), HTMX)
    save = table.page(answer).select_one("button[name=save]")
    assert save is not None and table.text(save) == "Save this ruling to the game"
    assert table.page(answer).select_one("input[name=submission]")["value"]
    # Without a game there is nowhere to keep it.
    loose = ask(table, "challenge", CHALLENGE, HTMX)
    assert table.page(loose).select_one("button[name=save]") is None


def test_a_ruling_is_kept_once_and_listed_with_its_time(table, game_id):
    version = table.rows("select version from games where id = ?", [game_id])
    saved = ask(table, "challenge", game_challenge(game_id, save="1"), HTMX)
    assert saved.status_code == 200
    assert "Saved to this game's rulings." in table.text(saved)
    again = ask(table, "challenge", game_challenge(game_id, save="1"), HTMX)
    assert "Already saved" in table.text(again)
    said = "Bob's Wild Draw 4 was illegal: Bob draws 4, then Cy plays"
    assert rulings_kept(table, game_id) == [("challenge", said, "key-1")]
    # A ruling is not a change to the scores: open score forms stay valid.
    assert table.rows("select version from games where id = ?", [game_id]) == version
    log = table.client.get(f"/games/{game_id}/rulings")
    assert log.status_code == 200
    article = table.page(log).select_one("article.ruling")
    assert table.text(article).startswith(f"Ruling: {said} Challenge! · ")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00",
                        article.select_one("time")["datetime"])


def test_a_key_spent_on_another_question_is_out_of_date(table, game_id):
    # A page kept by Back, its key spent on a ruling, asks to keep another: refused, never
    # read as "already saved"; the answer comes again with a fresh key, to tap again.
    ask(table, "challenge", game_challenge(game_id, save="1"), HTMX)
    other = game_challenge(game_id, save="1", color="blue", hand="red-3")
    stale = ask(table, "challenge", other, HTMX)
    assert stale.status_code == 409 and stale.headers["X-Answer"] == "in-place"
    assert "HX-Push-Url" not in stale.headers
    assert table.page(stale).select_one("#stale") is not None
    fresh = table.page(stale).select_one("form.save-ruling input[name=submission]")["value"]
    assert fresh != "key-1"
    assert ask(table, "challenge", other).status_code == 409
    refused = ask(table, "challenge", other, JSON)
    assert refused.status_code == 409 and refused.get_json()["error"]
    assert len(rulings_kept(table, game_id)) == 1
    kept = ask(table, "challenge", {**other, "submission": fresh}, HTMX)
    assert kept.status_code == 200 and len(rulings_kept(table, game_id)) == 2


def test_the_games_history_shows_the_rulings_kept(table, game_id):
    history = table.client.get(f"/games/{game_id}/hands")
    assert not table.page(history).select("#rulings")
    ask(table, "challenge", game_challenge(game_id, save="1"), HTMX)
    history = table.client.get(f"/games/{game_id}/hands")
    section = table.page(history).select_one("#rulings")
    assert section is not None
    assert ("Ruling: Bob's Wild Draw 4 was illegal: Bob draws 4, then Cy plays"
            in table.text(section))
    assert section.select_one(f'a[href="/games/{game_id}/rulings"]')


def test_without_javascript_saving_goes_to_the_log(table, game_id):
    saved = ask(table, "challenge", game_challenge(game_id, save="1"))
    assert saved.status_code == 303
    assert saved.headers["Location"] == f"/games/{game_id}/rulings"
    assert len(rulings_kept(table, game_id)) == 1


def test_a_ruling_saved_as_json(table, game_id):
    first = ask(table, "challenge", game_challenge(game_id, save="1"), JSON)
    assert first.status_code == 201
    ruling = first.get_json()
    assert ruling["check"] == "challenge" and ruling["game"] == game_id
    assert ruling["verdict"]["guilty"] is True
    assert ["by", "Bob"] in ruling["dispute"]
    assert not any(k in ("csrf_token", "save", "submission") for k, _ in ruling["dispute"])
    repeat = ask(table, "challenge", game_challenge(game_id, save="1"), JSON)
    assert repeat.status_code == 200 and repeat.get_json()["id"] == ruling["id"]
    listed = table.client.get(f"/games/{game_id}/rulings", headers=JSON).get_json()
    assert listed == {"game": game_id, "rulings": [ruling], "older": False, "older_url": None}


def test_a_ruling_keeps_only_the_fields_its_check_reads(table, game_id):
    # Issue 18: every extra field was kept (40 saves of junk made a 10 MB log).
    junk = {f"junk-{i}": "x" * 1000 for i in range(40)}
    form = {**game_challenge(game_id, save="1"), **junk, "variant": "one", "seats": "Zed, Yan",
            "top": "red-5", "hands-0": "red-1", "hand_count": "  3 "}
    ruling = ask(table, "challenge", form, JSON).get_json()
    assert ruling["dispute"] == [["game", str(game_id)], ["by", "Bob"], ["hand", "red-3 blue-7"],
                                 ["color", "red"], ["top", "red-5"], ["hand_count", "3"]]
    stored = table.rows("select length(dispute) from rulings")[0][0]
    assert stored < 200


def test_a_long_log_lists_the_newest_rulings_it_can_hold(table, game_id, monkeypatch):
    # Issue 18: the log's answer is bounded by the text it reads, not only by a count.
    for key in ("k1", "k2", "k3"):
        ask(table, "challenge", game_challenge(game_id, save="1", submission=key), JSON)
    size = table.rows("select length(verdict) + length(dispute) from rulings")[0][0]
    monkeypatch.setattr(companion.store.rulings, "RULINGS_TEXT", 2 * size)
    listed = table.client.get(f"/games/{game_id}/rulings", headers=JSON).get_json()
    assert len(listed["rulings"]) == 2 and listed["older"] is True
    page = table.client.get(f"/games/{game_id}/rulings")
    assert len(table.page(page).select("article.ruling")) == 2
    assert table.page(page).select_one("#older-rulings") is not None
    # The next page lists the rest: every ruling is reachable, a page at a time.
    rest = table.client.get(listed["older_url"], headers=JSON).get_json()
    assert [r["id"] for r in rest["rulings"]] == [1] and rest["older"] is False
    link = table.page(page).select_one("#older-rulings a")["href"]
    assert len(table.page(table.client.get(link)).select("article.ruling")) == 1
    monkeypatch.setattr(companion.store.rulings, "RULINGS_TEXT", 1)  # the newest is always listed
    listed = table.client.get(f"/games/{game_id}/rulings", headers=JSON).get_json()
    assert len(listed["rulings"]) == 1 and listed["older"] is True


def test_rulings_are_listed_newest_first_and_can_be_asked_again(table, game_id):
    ask(table, "challenge", game_challenge(game_id, save="1"), HTMX)
    ask(table, "uno", {"game": game_id, "player": "Ann", "save": "1", "submission": "key-2"},
        HTMX)
    log = table.client.get(f"/games/{game_id}/rulings")
    lines = [table.text(p) for p in table.page(log).select(".ruling-line")]
    assert lines == [
        ("Ruling: Yes: Bob or Cy can catch Ann until Bob begins their turn (plays or draws); "
         "a caught Ann draws 4"),
        "Ruling: Bob's Wild Draw 4 was illegal: Bob draws 4, then Cy plays"]
    again = table.page(log).select("article.ruling a")[1]["href"]
    form = table.client.get(again)
    assert form.status_code == 200
    assert table.page(form).select_one("input[name=by][value=Bob]").has_attr("checked")
    assert table.field(form, "hand") == "red-3 blue-7"
    # ...answered at once, as it was ruled.
    assert "Bob's Wild Draw 4 was illegal" in table.text(form)


def test_a_refused_question_keeps_nothing(table, game_id):
    refused = ask(table, "challenge", game_challenge(game_id, save="1", hand="nonsense"), HTMX)
    assert refused.status_code == 400
    assert rulings_kept(table, game_id) == []


def test_the_referee_pages_link_to_the_log(table, game_id):
    page = table.client.get(f"/referee/challenge?game={game_id}")
    assert (f"/games/{game_id}/rulings", "Rulings kept for this game") in table.links(page)
    empty = table.client.get(f"/games/{game_id}/rulings")
    assert "No ruling kept yet." in table.text(empty)
    assert (f"/referee?game={game_id}", "Settle a dispute") in table.links(empty)


def test_no_log_for_a_game_that_is_not_there(table):
    assert table.client.get("/games/999/rulings").status_code == 404


def test_a_deleted_game_keeps_no_more_rulings(table, game_id):
    table.submit(table.client.get(f"/games/{game_id}/delete"), f"/games/{game_id}/delete")
    gone = ask(table, "challenge", game_challenge(game_id, save="1"), HTMX)
    assert gone.status_code == 404
    assert rulings_kept(table, game_id) == []


def test_the_rulings_table_comes_from_a_migration_after_the_earlier_ones():
    # Added at the end when it was written: the migrations before it keep their order
    # (another branch's migration may come after it).
    from companion.schema import migrations

    names = [m.name for m in migrations._migrations]
    assert names[:7] == ["create_tables", "add_submissions", "add_game_versions",
                         "add_starting_scores", "add_listing_state",
                         "bump_versions_on_any_change", "add_rulings"]


def test_a_player_out_of_the_game_has_no_seat_at_the_referee(table):
    # Challenge UNO: reaching the target eliminates (R15d); the referee seats those still in.
    game = table.create_game(["Ann", "Bob", "Cy", "Dan"], "classic", mode="challenge",
                             target="500")
    assert table.record(game, 0, {1: 600, 2: 0, 3: 0}).status_code == 303
    page = table.client.get(f"/referee/challenge?game={game}")
    assert [i["value"] for i in table.page(page).select("input[name=by]")] == [
        "Ann", "Cy", "Dan"]
    answer = ask(table, "challenge", {"game": game, "by": "Ann", "hand": "blue-1",
                                      "color": "red"}, JSON)
    assert answer.get_json()["next_player"] == "Dan"  # Cy draws and misses the turn
