"""The players' choices the referee plays out (issue 20), asked as a table asks them:
through a check's page and its JSON, each answer unsettled where the choice decides it,
each case carrying its choice as data, and the same answer either way."""

from __future__ import annotations

from typing import Any

import pytest
from referee_steps import HTMX, JSON

SEATS = "Ann, Bea, Cy"

#: (what the table asks, check, form, the choice's kind, a fact the cases differ on).
CHOICES: list[tuple[str, str, dict[str, Any], str, str]] = [
    ("a lever discard with a Skip in the hand shown", "next",
     {"variant": "wild-jackpot", "seats": SEATS, "turn": "Ann", "card": "wild-jackpot",
      "color": "red", "lever": "discard", "counts-0": "red-skip blue-3 wild"},
     "discard", "next_player"),
    ("a Wild Draw 4 the next player may take or challenge", "next",
     {"variant": "classic", "seats": SEATS, "turn": "Ann", "card": "wild-draw4",
      "color": "red", "named": "blue"},
     "challenge", "draws"),
    ("a Draw Two left on one card: caught or not", "next",
     {"variant": "classic", "seats": SEATS, "turn": "Ann", "card": "red-draw2",
      "counts-0": "red-draw2 blue-3"},
     "catch", "draws"),
    ("a Wild Draw 4 with stacking on: stack or take", "next",
     {"variant": "classic", "seats": SEATS, "house": "stacking", "turn": "Ann",
      "card": "wild-draw4", "color": "red", "named": "blue"},
     "stack", "draws"),
    ("a red 5 with jump-in on", "next",
     {"variant": "classic", "seats": SEATS, "house": "jump_in", "turn": "Ann",
      "card": "red-5", "top": "red-2"},
     "jump_in", "next_player"),
]


def kinds(verdict: dict[str, Any]) -> set[str]:
    """Every choice's kind in an answer, its cases' cases included."""
    found = set()
    for case in verdict["cases"]:
        found.add(case["choice"]["kind"])
        found |= kinds(case["verdict"])
    return found


@pytest.mark.parametrize(("check", "form", "kind", "differs"),
                         [c[1:] for c in CHOICES], ids=[c[0] for c in CHOICES])
def test_a_choice_left_to_a_player_is_played_out_on_the_page_and_in_json(
        table, check, form, kind, differs):
    reply = table.post(f"/referee/{check}", form, headers=JSON)
    assert reply.status_code == 200, reply.get_data(as_text=True)
    v = reply.get_json()
    assert v["depends_on"] and len(v["cases"]) >= 2  # never a settled answer
    assert kind in kinds(v)
    assert all(c["choice"]["kind"] and c["verdict"]["outcome"] for c in v["cases"])
    # The page says the same: the outcome, then each case.
    page = table.post(f"/referee/{check}", form, headers=HTMX)
    text = table.text(page)
    assert v["outcome"] in text
    for case in v["cases"]:
        assert case["when"][:1].upper() + case["when"][1:] in text or case["when"] in text
    # The address holds the question: asked again by its GET, the same answer.
    again = table.client.get(f"/referee/{check}", query_string={**form, "ask": "1"},
                             headers=JSON)
    assert again.get_json() == v


def test_the_same_question_with_the_choice_made_is_settled(table):
    # Told the color named, the referee no longer plays out each color.
    form = dict(CHOICES[1][2])
    open_ = table.post("/referee/next", {**form, "named": ""}, headers=JSON).get_json()
    told = table.post("/referee/next", form, headers=JSON).get_json()
    assert told["color"] is None or told["color"] == "blue"
    assert "color" not in {c["choice"]["kind"] for c in told["cases"]}
    assert open_["outcome"]
