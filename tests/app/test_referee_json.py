"""The referee's JSON for another client, through the test client: every referee address
answers JSON when asked; every key is always there (null or empty when it has nothing to
say); each step carries its kind, seat, cards and amount beside its sentence; an
unsettled answer's cases are verdicts in full; a replay whose hand ends names the winner
and the points, as the engine scores them; and no seat field holds a phrase standing in
for a name ("the next player")."""

from __future__ import annotations

from dataclasses import fields
from typing import Any
from urllib.parse import urlsplit

import pytest
from referee_steps import JSON

import engine
from companion.referee_checks import CHECKS
from engine.referee import Verdict
from engine.referee.verdict import UNNAMED_SEATS

S3 = "Ann, Bea, Cy"
S4 = "Ann, Bea, Cy, Dan"

#: The keys of every verdict, at the top and in each case.
VERDICT_KEYS = {f.name for f in fields(Verdict)}
#: The keys of every step (a verdict's steps, a replay's events).
STEP_KEYS = {"kind", "text", "rule", "source", "seat", "target", "amount", "cards", "color"}
#: The keys of every replay.
REPLAY_KEYS = {"replay", "players", "phase", "to_act", "top", "color", "direction", "hands",
               "draw_pile", "steps", "choices", "winner", "points", "scores"}

#: A question per check that the referee answers settled.
SETTLED = {
    "challenge": {"variant": "classic", "seats": S4, "by": "Bea", "hand": "red-3 blue-7",
                  "color": "red"},
    "play": {"variant": "pizza-pizza", "top": "red-5", "card": "wild-draw2",
             "hand": "wild-draw2 blue-5"},
    "first-card": {"variant": "classic", "seats": S3, "dealer": "Ann", "cards": "red-skip"},
    "next": {"variant": "classic", "seats": S3, "turn": "Ann", "card": "red-draw2"},
    "uno": {"variant": "classic", "seats": S3, "player": "Ann", "catcher": "Cy"},
    "end": {"variant": "classic", "seats": S3, "went_out": "Ann", "last_card": "blue-draw2",
            "hands-1": "red-7 wild", "hands-2": "green-skip", "drawn": "blue-1 blue-2"},
    "special/wild-dip": {"variant": "pizza-pizza", "seats": S3, "player": "Ann",
                         "named": "blue", "drawn": "red-9", "give": "red-9"},
    "special/swap-hands": {"variant": "classic", "seats": S3, "player": "Ann",
                           "swap_with": "Cy", "named": "red"},
    "special/seven-zero": {"variant": "classic", "seats": S3, "house": "seven_o",
                           "player": "Ann", "card": "red-0"},
    "special/jump-in": {"variant": "classic", "seats": S4, "house": "jump_in", "jumper": "Dan",
                        "top": "red-5", "turn": "Bea"},
    "special/droid": {"variant": "star-wars", "seats": S3, "player": "Ann", "named": "red",
                      "hands-0": "blue-1", "hands-1": "green-2", "hands-2": "red-3"},
}

#: A question per check that can hang on something, and what it hangs on.
UNSETTLED = {
    "challenge": ({"variant": "classic", "seats": S4, "by": "Bea", "color": "red"},
                  "whether Bea holds a red card"),
    "play": ({"variant": "classic", "top": "red-5", "card": "wild-draw4", "hand_count": "3"},
             "whether the player holds a red card"),
    "next": ({"variant": "classic", "seats": S4, "turn": "Ann", "card": "wild-swap",
              "named": "blue"}, "whom Ann swaps hands with"),
    "end": ({"variant": "classic", "seats": S3, "went_out": "Ann", "last_card": "wild-draw4",
             "hands-1": "red-7", "hands-2": "green-skip"},
            "what Bea does: take the cards or challenge"),
    "special/swap-hands": ({"variant": "classic", "seats": S3, "player": "Ann", "named": "red"},
                           "whom Ann swaps hands with"),
    "special/seven-zero": ({"variant": "classic", "seats": S3, "house": "seven_o",
                            "player": "Ann", "card": "red-7"}, "whom Ann swaps hands with"),
    "special/jump-in": ({"variant": "classic", "seats": S3, "house": ["jump_in", "seven_o"],
                         "jumper": "Cy", "top": "red-7", "turn": "Ann"},
                        "whom Cy swaps hands with"),
    "special/droid": ({"variant": "star-wars", "seats": S3, "player": "Ann", "named": "red",
                       "hands-0": "blue-1", "hands-1_count": "1", "hands-2": "red-3"},
                      "whether Bea can lay a card that is not blue, and which"),
}


def answer(table, slug: str, form: dict[str, Any], status: int = 200) -> dict[str, Any]:
    """A check's JSON answer (its status checked)."""
    reply = table.post(f"/referee/{slug}", form, headers=JSON)
    assert reply.status_code == status and reply.is_json, (slug, reply.status_code,
                                                           reply.get_data(as_text=True)[:300])
    body: dict[str, Any] = reply.get_json()
    return body


def get_json(table, url: str, status: int = 200) -> Any:
    reply = table.client.get(url, headers=JSON)
    assert reply.status_code == status and reply.is_json, (url, reply.status_code,
                                                           reply.get_data(as_text=True)[:300])
    return reply.get_json()


def verdicts(v: dict[str, Any]) -> list[dict[str, Any]]:
    """A verdict and every verdict in its cases, at any depth."""
    found = [v]
    for case in v["cases"]:
        found += verdicts(case["verdict"])
    return found


def seat_values(v: dict[str, Any]) -> list[Any]:
    """Every value of a verdict that names a seat, its cases' included: single seats,
    lists of seats, the keys of what is counted by seat, and each step's seats."""
    out: list[Any] = []
    for each in verdicts(v):
        out += [each["next_player"], each["color_chooser"], each["until"]]
        out += [*each["skipped"], *each["catchers"], *(who for who, _ in each["laid"])]
        for name in ("draws", "hand_sizes", "uncounted", "points", "scores"):
            out += list(each[name] or {})
        for step in each["steps"]:
            out += [step["seat"], step["target"]]
    return out


def check_shape(v: dict[str, Any]) -> None:
    """Every key of a verdict, its steps and its cases is there, at every depth."""
    for each in verdicts(v):
        assert set(each) == VERDICT_KEYS
        for step in each["steps"]:
            assert set(step) == STEP_KEYS
        for case in each["cases"]:
            assert {"when", "verdict"} <= set(case) and isinstance(case["when"], str)


# -- every address answers JSON ---------------------------------------------------------------


def test_every_check_has_a_settled_question_here():
    assert set(SETTLED) == {c.slug for c in CHECKS}


def test_the_lists_answer_json(table):
    main = get_json(table, f"/referee?variant=pizza-pizza&seats={S3}")
    special = get_json(table, f"/referee/special?variant=pizza-pizza&seats={S3}")
    assert main["csrf_token"] and special["csrf_token"] == main["csrf_token"]
    listed = [c["check"] for c in special["checks"]]
    assert listed and all(c.startswith("special/") for c in listed)
    assert "special/wild-dip" in listed and "special/droid" not in listed  # not its deck
    assert set(listed) <= {c["check"] for c in main["checks"]}
    for body in (main, special):
        assert set(body) == {"variant", "seats", "checks", "replay", "csrf_token"}
        assert body["seats"] == ["Ann", "Bea", "Cy"]
        assert urlsplit(body["replay"]).path == "/referee/replay"
        get_json(table, body["replay"])  # the replay's address answers JSON too


@pytest.mark.parametrize("slug", sorted(SETTLED))
def test_each_check_describes_itself_and_answers_in_json(table, slug):
    described = get_json(table, f"/referee/{slug}?variant=classic&seats={S3}")
    assert described["check"] == slug and described["fields"] and described["csrf_token"]
    v = answer(table, slug, SETTLED[slug])
    check_shape(v)
    assert v["depends_on"] is None and v["cases"] == [] and v["outcome"]


def test_the_replay_answers_json_at_every_address(table):
    fields_ = get_json(table, f"/referee/replay?variant=classic&seats={S3}")
    assert fields_["check"] == "replay" and fields_["csrf_token"]
    names = [f["name"] for f in fields_["fields"]]
    assert names[:3] == ["hand-0", "hand-1", "hand-2"] and {"to_act", "top"} <= set(names)
    form = {"variant": "classic", "seats": S3, "hand-0": "red-7", "hand-1": "blue-3",
            "hand-2": "wild", "top": "red-5", "to_act": "Ann", "draw": "yellow-1"}
    posted = table.post("/referee/replay", form, headers=JSON)
    assert posted.status_code == 200 and posted.is_json
    started = posted.get_json()
    assert set(started) == REPLAY_KEYS
    linked = get_json(table, started["choices"][0]["url"])
    assert set(linked) == REPLAY_KEYS and len(linked["steps"]) == 1


def test_the_rulings_answer_json(table, game_id):
    listed = get_json(table, f"/games/{game_id}/rulings")
    assert listed == {"game": game_id, "rulings": [], "older": False, "older_url": None}


# -- every key, always ---------------------------------------------------------------------------


def test_refusals_always_carry_their_fields(table):
    unknown_card = answer(table, "challenge", {**SETTLED["challenge"], "hand": "purple-9"}, 400)
    missing = answer(table, "challenge", {**SETTLED["challenge"], "by": ""}, 400)
    assert set(unknown_card) == set(missing) == {"error", "fields"}
    assert unknown_card["fields"] == {} and "purple-9" in unknown_card["error"]
    assert missing["fields"] == {"by": "Tap who played the wild."}
    bad_replay = get_json(table, "/referee/replay?p=variant=classic;players=Ann", 400)
    assert set(bad_replay) == {"error", "fields"} and bad_replay["error"]


def test_the_app_s_own_refusals_answer_json_when_asked(table, game_id):
    """A client asking for JSON gets the refusals the app makes before any check is asked
    (no such check, a viewer keeping a ruling, a method, a size, a missing token) as JSON
    too, each saying what went wrong, and nothing is kept."""
    challenge = {**SETTLED["challenge"], "by": "Bob", "seats": "", "game": str(game_id),
                 "save": "1", "submission": "j1"}
    viewer = table.phone(role="viewer", game_id=game_id)
    viewer.token(f"/games/{game_id}")
    refused = {
        404: table.client.get("/referee/no-such-check", headers=JSON),
        403: viewer.post("/referee/challenge", challenge, headers=JSON),
        405: table.client.put("/referee/challenge",
                              headers={**JSON, "X-CSRF-Token": table.token()}),
        413: table.post("/referee/challenge", {"hand": "red-1 " * 70_000}, headers=JSON),
        400: table.client.post("/referee/challenge", data=challenge, headers=JSON),
    }
    for status, response in refused.items():
        assert response.status_code == status, response.get_data(as_text=True)[:300]
        assert response.mimetype == "application/json", status
        body = response.get_json()
        assert set(body) == {"error", "fields"} and body["error"] and body["fields"] == {}, status
    assert "security token" in refused[400].get_json()["error"]
    assert table.client.get("/referee/no-such-check").mimetype == "text/html"
    assert get_json(table, f"/games/{game_id}/rulings")["rulings"] == []


def test_a_replay_has_every_key_before_and_after_its_end(table):
    p = "variant=classic;players=Ann,Bea;hands=red-7.red-2/blue-3;discard=red-5;draw=yellow-1"
    going = get_json(table, f"/referee/replay?p={p}")
    assert set(going) == REPLAY_KEYS
    assert (going["winner"], going["points"], going["scores"]) == (None, None, None)


# -- steps carry their parts --------------------------------------------------------------------


def test_a_verdicts_steps_carry_seat_cards_and_amount(table):
    v = answer(table, "challenge", SETTLED["challenge"])
    draw = next(s for s in v["steps"] if s["kind"] == "draw")
    assert draw["seat"] == "Bea" and draw["amount"] == 4 and len(draw["cards"]) == 4
    assert draw["text"].startswith("Bea draws 4 cards")
    challenge = next(s for s in v["steps"] if s["kind"] == "challenge")
    assert (challenge["seat"], challenge["target"], challenge["cards"]) == (
        "Cy", "Bea", ["wild-draw4"])


def test_a_replays_events_carry_seat_cards_and_amount(table):
    p = "variant=classic;players=Ann,Bea;hands=blue-7/red-3;discard=red-5;draw=yellow-1.green-2"
    drew = get_json(table, f"/referee/replay?p={p};actions=draw")
    [step] = drew["steps"]
    assert step["action"] == "draw" and step["label"] == "Ann draws a card"
    event = next(e for e in step["events"] if e["kind"] == "draw")
    assert set(event) == STEP_KEYS
    assert (event["seat"], event["amount"], event["cards"]) == ("Ann", 1, ["yellow-1"])
    played = get_json(table, f"/referee/replay?p={p};actions=draw,play_red-3")
    last = played["steps"][-1]["events"][0]
    assert (last["kind"], last["seat"], last["cards"]) == ("play", "Bea", ["red-3"])


# -- a replay's end: the winner and the points, as the engine scores them -------------------------


def ended(table, variant: str, last: str, others: tuple[str, ...], draw: str = "") -> Any:
    """A replay of ``variant`` in which Ann plays her last card, ``last``, on a red 5."""
    hands = "/".join((last, *others))
    players = ",".join(["Ann", "Bea", "Cy"][:len(others) + 1])
    p = (f"variant={variant};players={players};hands={hands};discard=red-5"
         f";draw={draw or 'yellow-1'}")
    before = get_json(table, f"/referee/replay?p={p}")
    assert before["winner"] is None
    action = next(c for c in before["choices"] if c["action"].startswith(f"play {last}"))
    return get_json(table, action["url"])


@pytest.mark.parametrize("variant", [v.name for v in engine.VARIANTS])
def test_a_replayed_hand_that_ends_names_the_winner_and_the_points(table, variant):
    cls = engine.find_variant(variant)
    reply = ended(table, variant, "red-7", ("blue-3.green-5", "red-2"))
    assert reply["phase"] == "over" and reply["to_act"] is None and reply["choices"] == []
    assert reply["winner"] == "Ann"
    if cls.has_points():
        held = {"Bea": ["blue-3", "green-5"], "Cy": ["red-2"]}
        expected = {name: cls.hand_points(engine.parse_cards(" ".join(cards)))
                    for name, cards in held.items()}
        assert reply["points"] == expected == {"Bea": 8, "Cy": 2}
        assert reply["scores"] == {"Ann": 10}  # R15a: the cards the others hold
    else:  # R32: no points, a win
        assert reply["points"] is None and reply["scores"] == {"Ann": 1}


def test_the_points_count_the_cards_drawn_for_a_last_draw_card(table):
    # R5: the next player draws for the last card first, and those cards count.
    reply = ended(table, "classic", "red-draw2", ("blue-3",), draw="wild.green-9.yellow-1")
    assert reply["winner"] == "Ann"
    assert reply["hands"]["Bea"] == ["blue-3", "wild", "green-9"]
    assert reply["points"] == {"Bea": 3 + 50 + 9} and reply["scores"] == {"Ann": 62}


# -- unsettled answers --------------------------------------------------------------------------


@pytest.mark.parametrize("slug", sorted(UNSETTLED))
def test_an_unsettled_answer_gives_each_case_as_a_full_verdict(table, slug):
    form, depends_on = UNSETTLED[slug]
    v = answer(table, slug, form)
    check_shape(v)
    assert v["depends_on"] == depends_on and len(v["cases"]) >= 2
    whens = [c["when"] for c in v["cases"]]
    assert len(set(whens)) == len(whens)
    assert all(c["verdict"]["outcome"] for c in v["cases"])
    # The top keeps only what holds in every case: whatever differs is left null.
    if len({c["verdict"]["next_player"] for c in v["cases"]}) > 1:
        assert v["next_player"] is None


# -- no phrase stands in for a seat -------------------------------------------------------------


@pytest.mark.parametrize("form", [
    SETTLED["play"], UNSETTLED["play"][0],
    {"variant": "classic", "top": "blue-7", "card": "red-7"},
    {"variant": "classic", "top": "red-5", "card": "wild-draw4", "hand": "wild-draw4 blue-1"},
])
def test_can_i_play_this_gives_unnamed_seats_by_number(table, form):
    v = answer(table, "play", form)
    seats = [s for s in seat_values(v) if s is not None]
    assert seats, "every one of these answers names a seat"
    assert not set(map(str, seats)) & set(UNNAMED_SEATS)
    assert {str(s) for s in seats} <= {"0", "1", "2"}
    # The sentences still read as sentences ("the player", or "you" where it is asked of them).
    assert "the player" in v["outcome"] or v["outcome"].startswith("Only if you hold")


def test_can_i_play_this_numbers_the_seats_from_the_player(table):
    v = answer(table, "play", SETTLED["play"])
    assert v["draws"] == {"0": 2} and v["next_player"] == 1
    assert [(s["kind"], s["seat"], s["target"]) for s in v["steps"][:2]] == [
        ("play", 0, None), ("challenge", 1, 0)]
    unsettled = answer(table, "play", UNSETTLED["play"][0])
    assert [c["verdict"]["draws"] for c in unsettled["cases"]] == [{"0": 4}, {"1": 6}]


def test_a_player_named_keeps_their_name_and_the_others_their_numbers(table):
    v = answer(table, "play", {**SETTLED["play"], "player": "Ann"})
    assert v["draws"] == {"Ann": 2} and v["next_player"] == 1
    assert v["outcome"].startswith("Yes, Ann can play")


def test_a_table_with_names_keeps_them_everywhere(table):
    for slug, form in SETTLED.items():
        if slug == "play":
            continue
        seats = [s for s in seat_values(answer(table, slug, form)) if s is not None]
        assert all(isinstance(s, str) and s in form["seats"] for s in seats), (slug, seats)
