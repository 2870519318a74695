"""The referee's JSON at a house-rules table (issue 27): a house rule the variant does not
play is refused, naming it; the choices of a stacked draw come as data ("take" where
nobody may challenge); and the cases an answer folds."""

from __future__ import annotations

from referee_steps import JSON, ask, refusal

S3 = "Ann, Bea, Cy"


def test_a_house_rule_the_variant_does_not_play_is_refused(table):
    data = {"variant": "one", "seats": S3, "turn": "Ann", "card": "red-3",
            "house": "forced_play"}
    answer = ask(table, "next", data, JSON)
    assert answer.status_code == 400
    body = answer.get_json()
    assert "house" in body["fields"] and "no effect in one" in body["fields"]["house"]
    assert "R29" in body["error"]
    # The same rule where it may matter is read.
    assert ask(table, "next", {**data, "variant": "classic"}, JSON).status_code == 200


def test_stacking_a_known_draw_card_is_a_case_taking_it_is_a_take(table):
    data = {"variant": "classic", "seats": S3, "turn": "Ann", "card": "red-draw2",
            "top": "red-5", "house": "stacking", "counts-1": "red-draw2 yellow-1"}
    v = ask(table, "next", data, JSON).get_json()
    assert [c["choice"]["kind"] for c in v["cases"]] == ["take", "stack"]
    assert v["cases"][0]["choice"] == {"kind": "take", "seat": "Bea", "amount": 2}
    assert v["cases"][1]["choice"]["cards"] == ["red-draw2"]


def test_rule_cards_have_bounds_and_are_refused_without_a_unit(table):
    fields = table.client.get("/referee/next?variant=wild-jackpot&seats=Ann,Bea,Cy",
                              headers=JSON).get_json()["fields"]
    rule_cards = next(f for f in fields if f["name"] == "rule_cards")
    assert (rule_cards["low"], rule_cards["high"]) == (0, 8)
    pile = next(f for f in fields if f["name"] == "draw_pile")
    assert (pile["low"], pile["high"]) == (0, 108)  # the Wild Jackpot deck
    data = {"variant": "classic", "seats": S3, "turn": "Ann", "card": "red-3",
            "rule_cards": "3"}
    answer = ask(table, "next", data, JSON)
    assert answer.status_code == 400
    assert "no rule-card unit" in answer.get_json()["error"]


def test_every_form_that_takes_names_refuses_ann_and_ann(table):
    same = "Two players have the same name"
    # The new-game form.
    form = table.new_game_form(["Ann", "ann", "Cy"], "classic")
    page = table.post("/games", form)
    assert page.status_code == 400 and same in table.text(page)
    # The referee's form (its table), in JSON.
    answer = ask(table, "next", {"variant": "classic", "seats": "Ann, ann, Cy", "turn": "Ann",
                                 "card": "red-3"}, JSON)
    assert answer.status_code == 400 and same in answer.get_json()["error"]
    # The Jackpot's spinner.
    page = table.client.get("/jackpot?players=Ann,ann,Cy")
    assert same + ": add an initial" in table.text(page)


def test_steps_with_no_name_start_as_sentences(table):
    # "Can I play this?" names no player: its steps still begin with a capital.
    page = ask(table, "play", {"variant": "classic", "top": "red-5", "card": "wild-draw4",
                               "hand": "wild-draw4 red-1"})
    steps = [table.text(li) for li in table.page(page).select("#answer ol.steps li")]
    assert steps[0] == "The player plays Wild Draw 4"
    assert all(s[:1].isupper() for s in steps), steps


def test_a_question_no_case_can_follow_is_refused_saying_what_to_tell(table):
    # Item 9: every set of cards Ann may discard from this hand (four kinds in each color)
    # is past the budget, so no case at all is followed: refused, as api.md says.
    hand = " ".join(f"{c}-{k}" for c in ("red", "blue", "green", "yellow")
                    for k in ("skip", "reverse", "draw2", "3"))
    data = {"variant": "wild-jackpot", "seats": S3, "turn": "Ann", "card": "wild-jackpot",
            "color": "red", "lever": "discard", "counts-0": hand}
    answer = ask(table, "next", data, JSON)
    assert answer.status_code == 400
    body = answer.get_json()
    assert body["too_open"] == "which cards Ann discards"
    assert body["error"] == ("This question is too open to settle: "
                             "tell the referee which cards Ann discards.")
    assert body["fields"] == {}
    page = ask(table, "next", data)
    assert page.status_code == 400
    assert refusal(table, page).endswith(body["error"])
    assert table.page(page).select_one("#outcome") is None  # no answer shown with it


def test_what_every_case_agrees_on_leads_the_json_and_the_page(table):
    # Ana plays a Skip from two cards: whoever catches her, Ben misses a turn and Cleo plays.
    data = {"variant": "classic", "seats": "Ana, Ben, Cleo", "turn": "Ana",
            "card": "red-skip", "counts-0_count": "2"}
    said = ("Ben misses a turn, then Cleo plays. (If Ana did not call UNO, whoever catches "
            "them first makes them draw 4.)")
    v = ask(table, "next", data, JSON).get_json()
    assert v["outcome"] == said
    assert v["depends_on"] == "whether someone catches Ana not calling UNO"
    top = {k: v[k] for k in ("next_player", "skipped", "draws", "color", "direction")}
    assert top == {"next_player": "Cleo", "skipped": ["Ben"], "draws": {}, "color": "red",
                   "direction": "clockwise"}
    assert [c["choice"] for c in v["cases"]] == [
        {"kind": "catch", "seat": None, "target": "Ana", "yes": False},
        {"kind": "catch", "seat": None, "target": "Ana", "yes": True, "seats": ["Ben", "Cleo"]}]
    # A Draw Two: Ben's 2 cards are drawn in every case (Ana's 4 only when caught).
    two = ask(table, "next", {**data, "card": "red-draw2"}, JSON).get_json()
    assert two["draws"] == {"Ben": 2} and two["next_player"] == "Cleo"
    # The page: the answer first, then the two cases.
    page = table.page(ask(table, "next", data))
    answer = page.select_one("#answer")
    assert answer is not None
    assert table.text(answer.select_one("#outcome")) == said
    cases = answer.select("ul.cases > li.case")
    assert len(cases) == 2
    assert table.text(cases[1]).startswith("If anyone catches Ana:")
    shown = table.text(answer)
    assert shown.index("Cleo plays") < shown.index("If anyone catches Ana")
