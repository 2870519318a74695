"""The referee's table (issue 20): every table option the engine lists, set on any check
and kept in its links; a verdict's address that holds its question (a GET, pushed by
htmx), so Back, a reload or a shared link shows the same verdict; seat names matched as
the games match them; the lever asked only where the variant has one; and the referee a
tap from the home page and every rules page, for any variant and seat count.

Every answer is compared with the referee's own (engine.referee), as in
test_referee_pages.py: the app never decides a rule.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from referee_steps import outcome, refusal
from werkzeug.datastructures import MultiDict

import companion.forms
import engine
import engine.names
from engine import TableOptions, find_variant, table_options
from engine.referee import RefereeError, Scene
from engine.referee import keywords as referee

JSON = {"Accept": "application/json"}
HTMX = {"HX-Request": "true", "HX-Target": "answer"}
VARIANTS = [v.name for v in engine.VARIANTS]
S3 = "Ann, Bea, Cy"
L3 = ["Ann", "Bea", "Cy"]


def get(table, slug: str, query: list[tuple[str, str]] | dict[str, str],
        headers: dict[str, str] | None = None):
    """A check's page, or its verdict with ``ask=1``, at the address holding the query."""
    return table.client.get(f"/referee/{slug}?" + urlencode(query), headers=headers or {})


def asked(query: dict[str, str]) -> dict[str, str]:
    return {**query, "ask": "1"}


def verdict_json(verdict: Any) -> Any:
    return json.loads(json.dumps(verdict.to_dict()))


def other_value(o: engine.TableOption) -> tuple[str, bool | int]:
    """A value of ``o`` that is not the variant's own, as a query sends it, and as read."""
    if o.kind == "bool":
        return ("0" if o.default else "1"), not o.default
    value = o.default + 1 if o.default < o.high else o.default - 1
    return str(value), value


def option_query(o: engine.TableOption) -> tuple[tuple[str, str], bool | int]:
    """The query pair that sets ``o`` to another value (a house rule ticked), and the value."""
    text, value = other_value(o)
    return ((("house", o.name) if o.house_rule else (o.name, text)), value)


# -- every table option, from the engine's own list -------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_table_form_offers_every_option_the_engine_lists(table, variant):
    page = table.page(table.client.get(f"/referee?variant={variant}&seats={S3}"))
    form = page.select_one("form#table-form")
    ticks = [i["value"] for i in form.select("input[type=checkbox][name=house]")]
    others = [e["name"] for e in form.select("input[type=number], select")
              if e["name"] != "variant"]
    listed = table_options(find_variant(variant))
    assert ticks == [o.name for o in listed if o.house_rule]
    assert others == [o.name for o in listed if not o.house_rule]
    # A number is asked within the engine's bounds.
    for o in listed:
        if o.kind == "int":
            box = form.select_one(f"input[name={o.name}]")
            assert (box["min"], box["max"]) == (str(o.low), str(o.high))


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_json_of_a_check_lists_the_options_and_their_bounds(table, variant):
    described = get(table, "uno", {"variant": variant, "seats": S3}, JSON).get_json()
    listed = table_options(find_variant(variant))
    assert [o["name"] for o in described["table_options"]] == [o.name for o in listed]
    assert described["options"] == {o.name: o.default for o in listed}
    penalty = described["table_options"][0]
    assert penalty == {"name": "uno_penalty", "label": "Cards drawn for a missed UNO call",
                       "kind": "int", "default": find_variant(variant).default_uno_penalty,
                       "ruling": "R6", "house_rule": False, "sends": "uno_penalty",
                       "low": 0, "high": 20}


def test_the_house_rules_ticked_are_the_engines_list_not_the_apps():
    # The app's list of house rules is the engine's (no list kept by hand in companion/).
    from companion.referee_checks import HOUSE_RULES
    assert HOUSE_RULES == tuple((o.name, o.label) for o in table_options() if o.house_rule)
    assert {o.name for o in table_options()} | {"rule_cards"} == {
        f for f in TableOptions().to_dict()}


@pytest.mark.parametrize("variant, option", [
    (v.name, o.name) for v in engine.VARIANTS for o in table_options(v)])
def test_every_option_reaches_the_check_and_round_trips_in_its_links(table, variant, option):
    o = {x.name: x for x in table_options(find_variant(variant))}[option]
    pair, value = option_query(o)
    query = [("variant", variant), ("seats", S3), pair]
    described = get(table, "next", query, JSON).get_json()
    assert described["options"][option] == value
    # The page's links carry it (the checks, the special cards, the table's hidden fields)...
    page = table.client.get("/referee?" + urlencode(query))
    assert page.status_code == 200
    href = next(h for h, _ in table.links(page) if h.startswith("/referee/next?"))
    assert pair in parse_qsl(urlsplit(href).query)
    # ...and following one finds the same table.
    followed = table.client.get(href, headers=JSON).get_json()
    assert followed["options"] == described["options"]
    check_page = table.client.get(href)
    hidden = table.page(check_page).select("form#check-form input[type=hidden]")
    assert pair in [(i["name"], i["value"]) for i in hidden]


@pytest.mark.parametrize("query, options, call", [
    # R6: the penalty for a missed UNO call is the table's (classic's 4 by default).
    ({"variant": "classic", "uno_penalty": "2", "player": "Ann"}, TableOptions(uno_penalty=2),
     lambda o: referee.uno_catch("classic", L3, "Ann", options=o)),
    # R13: another variant's table may turn the classic two-player rule on...
    ({"variant": "star-wars", "seats": "Ann, Bea", "two_player_reverse_skips": "1",
      "turn": "Ann", "card": "red-reverse"}, TableOptions(two_player_reverse_skips=True),
     lambda o: referee.whos_next("star-wars", ["Ann", "Bea"], "Ann", "red-reverse", options=o)),
    # ...and classic's may turn it off.
    ({"variant": "classic", "seats": "Ann, Bea", "two_player_reverse_skips": "0",
      "turn": "Ann", "card": "red-reverse"}, TableOptions(two_player_reverse_skips=False),
     lambda o: referee.whos_next("classic", ["Ann", "Bea"], "Ann", "red-reverse", options=o)),
    # R7, R14: blank cards in the deck, and what one scores when caught in a hand.
    ({"variant": "classic", "blank_cards": "2", "blank_value": "30", "went_out": "Ann",
      "last_card": "red-3", "hands-1": "blank", "hands-2": "blank red-1"},
     TableOptions(blank_cards=2, blank_value=30),
     lambda o: referee.end_of_hand("classic", L3, "Ann", "red-3",
                                   {"Bea": "blank", "Cy": "blank red-1"}, options=o)),
    # A house rule, ticked.
    ({"variant": "classic", "house": "stacking", "turn": "Ann", "card": "red-draw2"},
     TableOptions(stacking=True),
     lambda o: referee.whos_next("classic", L3, "Ann", "red-draw2", options=o)),
])
def test_the_tables_options_reach_the_referees_scene(table, query, options, call):
    slug = ("uno" if "player" in query else "end" if "went_out" in query else "next")
    full = {"seats": S3, **query}
    variant = find_variant(full["variant"])
    expected = call(variant.default_options().replace(**{
        k: v for k, v in options.to_dict().items() if v != TableOptions().to_dict()[k]}))
    try:  # the option changes the answer (a deck without blanks refuses them)
        assert call(variant.default_options()).outcome != expected.outcome
    except RefereeError:
        pass
    page = get(table, slug, asked(full))
    assert page.status_code == 200, table.text(page)[:1500]
    assert outcome(table, page) == expected.outcome
    assert get(table, slug, asked(full), JSON).get_json() == verdict_json(expected)


def test_a_deck_without_the_swap_card_has_no_swap_check(table):
    special = table.client.get(f"/referee/special?variant=classic&seats={S3}&wild_swap=0")
    titles = [table.text(a) for a in table.page(special).select("a.check-link strong")]
    assert "Swap Hands" not in titles and "7-0" in titles
    played = get(table, "play", asked({"variant": "classic", "wild_swap": "0", "top": "red-5",
                                       "card": "wild-swap"}))
    assert played.status_code == 400
    assert "Wild Swap Hands is not in the classic deck" in refusal(table, played)


@pytest.mark.parametrize("query, message", [
    ({"uno_penalty": "21"}, "Cards drawn for a missed UNO call: a whole number from 0 to 20 (R6)."),
    ({"uno_penalty": "-1"}, "Cards drawn for a missed UNO call: a whole number from 0 to 20"),
    ({"uno_penalty": "two"}, "Cards drawn for a missed UNO call: a whole number from 0 to 20"),
    ({"uno_penalty": "9" * 5000}, "Cards drawn for a missed UNO call: a whole number"),
    ({"blank_cards": "5"}, "Blank cards shuffled in: a whole number from 0 to 4 (R7)."),
    ({"blank_value": "10001"}, "Points a blank card scores: a whole number from 0 to 10000"),
    ({"wild_swap": "maybe"}, "The Wild Swap Hands card is in the deck: on or off (R7)."),
    ({"two_player_reverse_skips": "2"}, "With two players a Reverse works like a Skip: on or off"),
    # Each in bounds, but more table cards than the box holds (R7), as the engine says.
    ({"blank_cards": "4"}, "Classic takes 0-4 table cards in all"),
])
def test_an_option_out_of_bounds_is_refused_with_a_clear_message(table, query, message):
    for path in ("/referee", "/referee/special", "/referee/uno", "/referee/replay"):
        full = {"variant": "classic", "seats": S3, **query}
        page = table.client.get(f"{path}?" + urlencode(full))
        assert page.status_code == 400, path
        assert message in table.text(page), path
        data = table.client.get(f"{path}?" + urlencode(full), headers=JSON)
        if path == "/referee/uno":  # the check's JSON says which field
            assert data.status_code == 400 and message in data.get_json()["error"]
            assert data.get_json()["fields"]
    answer = get(table, "uno", asked({"variant": "classic", "seats": S3, "player": "Ann",
                                      **query}), JSON)
    assert answer.status_code == 400 and message in answer.get_json()["error"]


def test_an_option_another_variant_does_not_have_is_left_out(table):
    # Blank cards are classic's (R7): a form left from a classic table sends them to
    # another variant's, which does not read them; forced play means nothing in One (R29).
    page = table.client.get(f"/referee?variant=star-wars&seats={S3}&blank_cards=3"
                            "&wild_swap=0&uno_penalty=&two_player_reverse_skips=")
    assert page.status_code == 200
    assert not table.page(page).select("input[name=blank_cards], select[name=wild_swap]")
    href = next(h for h, _ in table.links(page) if h.startswith("/referee/next?"))
    assert href == "/referee/next?variant=star-wars&seats=Ann,+Bea,+Cy"
    # A house rule One does not play, ticked: refused, saying why (issue 27).
    one = table.client.get(f"/referee/next?variant=one&seats={S3}&house=forced_play",
                           headers=JSON)
    assert one.status_code == 400 and "R29" in one.get_json()["fields"]["house"]


def test_a_table_form_sent_as_a_browser_sends_it(table):
    # The table's own form: empty numbers and "as the rules have it" keep the variant's.
    page = table.client.get(f"/referee/uno?variant=one&seats={S3}&uno_penalty="
                            "&two_player_reverse_skips=&house=jump_in")
    form = table.page(page).select_one("form#table-form")
    assert form.select_one("input[name=uno_penalty]")["value"] == ""
    chosen = form.select_one("select[name=two_player_reverse_skips] option[selected]")
    assert chosen["value"] == "" and table.text(chosen) == "No, as the rules have it"
    assert form.select_one("input[name=house][value=jump_in]").has_attr("checked")
    set_page = table.client.get(f"/referee/uno?variant=one&seats={S3}&uno_penalty=3")
    assert table.page(set_page).select_one("input[name=uno_penalty]")["value"] == "3"
    assert "One · Ann → Bea → Cy · own setup" in table.text(
        table.page(set_page).select_one("details.table-setup summary"))


# -- a verdict's address holds its question ---------------------------------------------------

CHALLENGE = {"variant": "classic", "seats": "Ann, Bea, Cy, Dan", "by": "Bea",
             "hand": "red-3 blue-7", "color": "red"}
GUILTY = "Bea's Wild Draw 4 was illegal: Bea draws 4, then Cy plays"


def test_asking_is_a_get_that_answers_with_the_form_filled(table):
    page = get(table, "challenge", asked(CHALLENGE))
    assert page.status_code == 200
    assert outcome(table, page) == GUILTY
    assert table.page(page).select_one("input[name=by][value=Bea]").has_attr("checked")
    assert table.page(page).select_one("input[name=color][value=red]").has_attr("checked")
    assert table.field(page, "hand") == "red-3 blue-7"
    form = table.page(page).select_one("form#check-form")
    assert form["method"] == "get" and form["action"] == "/referee/challenge#answer"
    # The form that asks carries no CSRF token: it would end up in the address.
    assert not form.select("input[name=csrf_token]")
    assert ("ask", "1") in [(i["name"], i["value"]) for i in form.select("input[type=hidden]")]
    # Without ask=1 the same address is only the form, filled.
    form_only = get(table, "challenge", CHALLENGE)
    assert table.page(form_only).select_one("#outcome") is None
    assert table.field(form_only, "hand") == "red-3 blue-7"


def test_the_same_address_shows_the_same_verdict_as_json(table):
    expected = referee.challenge("classic", ["Ann", "Bea", "Cy", "Dan"], "Bea", "red-3 blue-7",
                                 "red")
    answer = get(table, "challenge", asked(CHALLENGE), JSON)
    assert answer.status_code == 200 and answer.get_json() == verdict_json(expected)
    # The old POST asks the same question and gets the same verdict.
    posted = table.post("/referee/challenge", CHALLENGE, headers=JSON)
    assert posted.get_json() == answer.get_json()
    # An htmx POST that asks (an older page's form) is shown at the question's address too.
    pushed = table.post("/referee/challenge", CHALLENGE, headers=HTMX).headers["HX-Push-Url"]
    assert pushed.startswith("/referee/challenge?variant=classic&") and "csrf" not in pushed
    described = get(table, "challenge", CHALLENGE, JSON).get_json()
    assert described["check"] == "challenge" and "guilty" not in described


def test_htmx_gets_the_answer_and_the_address_to_show(table):
    # As htmx sends the form: every field, the empty ones too.
    sent = {**CHALLENGE, "top": "", "named": "", "hand_count": "", "direction": "clockwise",
            "ask": "1"}
    answer = get(table, "challenge", sent, HTMX)
    assert answer.status_code == 200 and "<html" not in table.html(answer)
    assert outcome(table, answer) == GUILTY
    pushed = answer.headers["HX-Push-Url"]
    # The question only (the table, then each field given, in the order sent): no empty
    # field, no CSRF token.
    assert pushed == ("/referee/challenge?variant=classic&seats=Ann,+Bea,+Cy,+Dan&by=Bea"
                      "&hand=red-3+blue-7&color=red&direction=clockwise&ask=1#answer"
                      ).replace(",", "%2C")
    # That address, opened again (Back, a reload, a link shared), shows the same verdict.
    again = table.client.get(pushed.removesuffix("#answer"))
    assert again.status_code == 200 and outcome(table, again) == GUILTY
    assert table.field(again, "hand") == "red-3 blue-7"


def test_a_refusal_has_its_address_too(table):
    sent = asked({**CHALLENGE, "by": ""})
    page = get(table, "challenge", sent)
    assert page.status_code == 400
    assert "Tap who played the wild." in refusal(table, page)
    answer = get(table, "challenge", sent, HTMX)
    assert answer.status_code == 400 and answer.headers["X-Answer"] == "in-place"
    assert "ask=1" in answer.headers["HX-Push-Url"]


@pytest.mark.parametrize("field, value, message", [
    ("hand", "red-3 " * 400, "That is far too long for this field."),
    ("hand", "red-3 " * 121, "That is more cards than a deck holds."),
    ("by", "B" * 300, "That is far too long for this field."),
    ("hand_count", "12345", "give a number of cards, like 3"),
])
def test_a_question_in_an_address_is_read_with_the_same_limits(table, field, value, message):
    query = asked({**CHALLENGE, field: value} if field != "hand_count"
                  else {**CHALLENGE, "hand": "", field: value})
    page = get(table, "challenge", query)
    assert page.status_code == 400 and message in refusal(table, page)
    data = get(table, "challenge", query, JSON)
    assert data.status_code == 400 and message in data.get_json()["error"]


def test_a_get_never_keeps_a_ruling_the_answers_post_does(table, game_id):
    query = {"game": str(game_id), "by": "Bob", "hand": "red-3 blue-7", "color": "red"}
    answer = get(table, "challenge", {**asked(query), "save": "1", "submission": "k"})
    assert answer.status_code == 200
    assert table.rows("select count(*) from rulings") == [(0,)]
    # The answer's own form keeps it: a POST with the CSRF token, a one-time key, and the
    # question again (the check's fields, nothing else).
    save = table.page(answer).select_one("#answer form.save-ruling")
    assert save["method"] == "post" and save["action"] == "/referee/challenge"
    hidden = [(i["name"], i["value"]) for i in save.select("input[type=hidden]")]
    names = [n for n, _ in hidden]
    assert names[0] == "csrf_token" and hidden[-1][0] == "submission"
    assert hidden[1:-1] == [("game", str(game_id)), ("by", "Bob"), ("hand", "red-3 blue-7"),
                            ("color", "red")]
    kept = table.client.post("/referee/challenge", data=MultiDict([*hidden, ("save", "1")]))
    assert kept.status_code == 303 and kept.headers["Location"] == f"/games/{game_id}/rulings"
    assert table.rows("select count(*) from rulings") == [(1,)]
    # Without the token it is refused.
    bare = table.client.post("/referee/challenge", data={**query, "save": "1"})
    assert bare.status_code in (400, 403)


def test_a_save_by_htmx_answers_in_place_and_pushes_no_address(table, game_id):
    form = {"game": str(game_id), "by": "Bob", "hand": "red-3", "color": "red", "save": "1",
            "submission": "key-h"}
    saved = table.post("/referee/challenge", form, headers=HTMX)
    assert saved.status_code == 200 and "Saved to this game's rulings." in table.text(saved)
    assert "HX-Push-Url" not in saved.headers


# -- seat names matched as the games match them -----------------------------------------------

ZOE = "Zo\u00eb"            # as typed on most phones (composed)
ZOE_APART = "Zoe\u0308"     # the same name, decomposed
BIDI = "\u200fBea\u200e"    # a name with bidirectional marks around it


def test_the_games_and_the_referee_share_one_name_key():
    assert companion.forms.clean_name is engine.names.clean_name
    scene = Scene("classic", [ZOE, "Bea", "Cy"])
    assert scene.seat(ZOE_APART) == 0 and scene.seat("zoË") == 0 and scene.seat(BIDI) == 1
    # And the table's names themselves, typed in another form, are the same seat.
    assert Scene("classic", [ZOE_APART, BIDI]).seats == (ZOE, "Bea")


@pytest.mark.parametrize("seats, by", [
    (f"{ZOE}, Bea, Cy", ZOE_APART),
    (f"{ZOE_APART}, Bea, Cy", ZOE),
    (f"{ZOE}, Bea, Cy", f"\u2066{ZOE}\u2069"),
])
def test_a_seat_typed_in_another_unicode_form_is_at_the_table(table, seats, by):
    query = asked({"variant": "classic", "seats": seats, "by": by, "hand": "red-3",
                   "color": "red"})
    expected = referee.challenge("classic", [ZOE, "Bea", "Cy"], ZOE, "red-3", "red")
    page = get(table, "challenge", query)
    assert page.status_code == 200, table.text(page)[:1500]
    assert outcome(table, page) == expected.outcome
    assert get(table, "challenge", query, JSON).get_json() == verdict_json(expected)


def test_a_games_seat_typed_with_a_bidi_mark_is_that_seat(table):
    game_id = table.create_game([ZOE, "Bea", "Cy"])
    query = asked({"game": str(game_id), "player": BIDI, "catcher": ZOE_APART})
    expected = referee.uno_catch("classic", [ZOE, "Bea", "Cy"], "Bea", catcher=ZOE)
    assert get(table, "uno", query, JSON).get_json() == verdict_json(expected)
    assert outcome(table, get(table, "uno", query)) == expected.outcome


def test_the_replay_editor_finds_whose_turn_by_the_same_key(table):
    form = {"seats": f"{ZOE}, Bea", "hand-0": "red-7", "hand-1": "blue-3", "top": "red-5",
            "to_act": ZOE_APART, "fill": "1"}
    started = table.post("/referee/replay", form, headers=JSON)
    assert started.status_code == 200 and started.get_json()["to_act"] == ZOE


# -- the lever only where the variant has one -------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_lever_is_asked_only_where_the_variant_has_one(table, variant):
    has = find_variant(variant).has_lever()
    assert has == (variant == "wild-jackpot")
    described = get(table, "next", {"variant": variant, "seats": S3}, JSON).get_json()
    assert ("lever" in [f["name"] for f in described["fields"]]) == has
    page = get(table, "next", {"variant": variant, "seats": S3})
    assert bool(table.page(page).select("select[name=lever]")) == has
    assert ("What the Jackpot lever showed" in table.text(page)) == has


def test_a_lever_sent_to_a_classic_table_is_not_read(table):
    query = asked({"variant": "classic", "seats": S3, "turn": "Ann", "card": "red-7",
                   "lever": "draw4"})
    expected = referee.whos_next("classic", L3, "Ann", "red-7")
    assert get(table, "next", query, JSON).get_json() == verdict_json(expected)


# -- the referee one tap from the home page and every rules page --------------------------------


def test_the_referee_is_one_tap_away_and_stands_alone(client, table):
    for page in ("/", "/rules"):
        assert ("/referee", "Settle a dispute") in table.links(client.get(page)), page
    for v in engine.VARIANTS:
        links = table.links(client.get(f"/rules/{v.name}"))
        assert (f"/referee?variant={v.name}", f"Settle a dispute in {v.title}") in links
        # Any seat count the variant has, with no game in the app.
        for n in (v.min_players, v.max_players):
            names = [f"P{i}" for i in range(n)]
            query = asked({"variant": v.name, "seats": ", ".join(names), "turn": "P0",
                           "card": "red-5"})
            expected = referee.whos_next(v.name, names, "P0", "red-5")
            assert get(table, "next", query, JSON).get_json() == verdict_json(expected)
