"""The rulebook: every variant's topics, stable anchors, real citations, and facts that
agree with the engine (docs/rulings.md; engine/rulebook.py)."""

from __future__ import annotations

import dataclasses
import re

import pytest
from scenario import play, position

from engine import VARIANTS, Card, TableOptions, card, card_name, find_variant
from engine.cards import Rank
from engine.jackpot import LEVER_OUTCOMES
from engine.rulebook import Section, UnknownSectionError, rulebook, section

ALL = [v.name for v in VARIANTS]

#: The anchors other pages link to (/rules/<variant>#<anchor>): changing one breaks links.
ANCHORS = {
    "classic": [
        "setup", "first-card", "turn", "number-cards", "skip", "reverse", "draw-2", "wild",
        "wild-draw-4", "wild-swap-hands", "blank-cards", "uno", "challenges", "two-players",
        "going-out", "scoring", "house-rules"],
    "wild-jackpot": [
        "setup", "first-card", "turn", "number-cards", "draw-2", "reverse", "skip", "jackpot",
        "wild", "wild-draw-4", "wild-jackpot", "jackpot-lever", "uno", "challenges",
        "two-players", "going-out", "scoring", "house-rules"],
    "pizza-pizza": [
        "setup", "first-card", "turn", "number-cards", "draw-1", "skip", "reverse", "wild",
        "wild-dip", "wild-draw-2", "uno", "challenges", "two-players", "going-out", "scoring",
        "house-rules"],
    "one": [
        "setup", "first-card", "turn", "number-cards", "skip", "reverse", "draw-2", "wild",
        "wild-draw-4", "uno", "challenges", "two-players", "going-out", "scoring",
        "house-rules"],
    "star-wars": [
        "setup", "first-card", "turn", "number-cards", "skip", "reverse", "draw-2", "wild",
        "wild-draw-4", "wild-droid", "uno", "challenges", "two-players", "going-out", "scoring",
        "house-rules"],
}
#: Topics every variant's rules cover.
TOPICS = {"setup", "first-card", "turn", "number-cards", "uno", "challenges", "two-players",
          "going-out", "scoring", "house-rules"}
#: Each variant's own rulings (docs/rulings.md); R1-R6 hold everywhere, and so do R11 (no
#: stacking), R12 (after drawing; the engine's events cite it in every variant that may
#: play a drawn card) and R13 (two players).
OWN_RULINGS = {"classic": range(7, 16), "wild-jackpot": range(16, 22),
               "pizza-pizza": range(22, 27), "one": range(27, 33), "star-wars": range(33, 38)}
SHARED_RULINGS = {*(f"R{n}" for n in range(1, 7)), "R11", "R12", "R13"}


def spoken(c: Card) -> str:
    """A card's name without its color: "Skip", "Wild Draw 4"."""
    return card_name(c).split(" ", 1)[1] if c.color else card_name(c)


def text_of(s: Section) -> str:
    return " ".join([*s.text, *s.items])


@pytest.mark.parametrize("variant", ALL)
def test_anchors_are_pinned_and_unique(variant):
    anchors = [s.anchor for s in rulebook(variant)]
    assert anchors == ANCHORS[variant]
    assert len(set(anchors)) == len(anchors)
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", a) for a in anchors)


@pytest.mark.parametrize("variant", ALL)
def test_every_topic_that_applies_is_there(variant):
    assert TOPICS <= {s.anchor for s in rulebook(variant)}


@pytest.mark.parametrize("variant", ALL)
def test_every_kind_of_card_in_the_deck_has_its_section(variant):
    v = find_variant(variant)
    # Classic's table cards are in the box even when a table leaves them out (R7).
    deck = v.deck_counts(TableOptions(blank_cards=1) if v.max_table_cards else None)
    expected = {"Number cards" if c.is_number else "Blank cards" if c.rank is Rank.BLANK
                else spoken(c) for c in deck}
    cards = [s.title for s in rulebook(v) if s.anchor not in TOPICS - {"number-cards"} | {"jackpot-lever"}]
    assert sorted(cards) == sorted(expected)


@pytest.mark.parametrize("variant", ALL)
def test_no_section_is_empty(variant):
    for s in rulebook(variant):
        assert s.title and s.text, s.anchor
        for sentence in [*s.text, *s.items]:
            assert sentence.strip() == sentence and not sentence[:1].islower(), (s.anchor, sentence)
            assert sentence[-1] in ".:!", (s.anchor, sentence)


@pytest.mark.parametrize("variant", ALL)
def test_every_section_cites_real_rulings_and_its_own_sheet(variant):
    v = find_variant(variant)
    for s in rulebook(v):
        assert s.sources or s.rulings, s.anchor
        for source in s.sources:
            assert source.startswith(f"{v.sheet}, ") and len(source) > len(v.sheet) + 2
        for ruling in s.rulings:
            assert re.fullmatch(r"R([1-9]|[12][0-9]|3[0-7])", ruling), (s.anchor, ruling)
            assert ruling in SHARED_RULINGS or int(ruling[1:]) in OWN_RULINGS[variant], \
                (s.anchor, ruling)
        assert s.citation.startswith(s.sources[0] if s.sources else s.rulings[0])


def test_a_citation_names_the_sheet_section_then_the_rulings():
    assert section("classic", "wild-draw-4").citation == "classic sheet, Wild Draw 4 Card; R10, R4"
    assert section("one", "house-rules").citation == "R11"
    assert section("star-wars", "wild-droid").citation == \
        "star-wars sheet, Action Cards, Wild Let's Build a Droid; R36"


@pytest.mark.parametrize("variant", ALL)
def test_setup_agrees_with_the_engine(variant):
    v = find_variant(variant)
    setup = text_of(section(v, "setup"))
    assert f"{v.title} is for {v.min_players} to {v.max_players} players." in setup
    assert f"each player {v.hand_size} cards" in setup
    standard = v.deck(v.default_options().replace(wild_swap=False, blank_cards=0))
    assert f"{len(standard)} " in setup


def test_pizza_pizza_is_for_two_to_five():
    assert section("pizza-pizza", "setup").text[0] == \
        "UNO Pocket Pizza Pizza is for 2 to 5 players."


@pytest.mark.parametrize("variant", ALL)
def test_scoring_agrees_with_the_engine(variant):
    v = find_variant(variant)
    scoring = text_of(section(v, "scoring"))
    if not v.has_points():
        assert "no points" in scoring and "first player to go out wins" in scoring
        assert "Left in a hand" not in text_of(section(v, "number-cards"))
        return
    assert f"Whoever reaches {v.default_target} points first wins" in scoring
    worth = {}
    for item in section(v, "scoring").items:
        names, _, points = item.partition(": ")
        worth.update(dict.fromkeys(re.split(r", | and ", names), points))
    for c in v.deck_counts():
        if not c.is_number:
            assert worth[spoken(c)] == f"{v.points_for(c)} points each.", c
    assert worth["Number cards"] == "the number on the card."


@pytest.mark.parametrize("variant", ALL)
def test_uno_penalty_agrees_with_the_engine(variant):
    v = find_variant(variant)
    uno = text_of(section(v, "uno"))
    penalty = v.default_uno_penalty
    if penalty:
        assert f"you draw {penalty} cards" in uno
    else:
        assert "nobody needs to call UNO" in uno


@pytest.mark.parametrize("variant", ALL)
def test_challenges_agree_with_the_engine(variant):
    v = find_variant(variant)
    challenges = text_of(section(v, "challenges"))
    assert ("Nobody can challenge" in challenges) is (not v.challenges)


@pytest.mark.parametrize("variant, wild", [
    ("classic", "wild-draw4"), ("wild-jackpot", "wild-draw4"), ("pizza-pizza", "wild-draw2"),
    ("star-wars", "wild-draw4")])
def test_challenge_penalties_are_what_the_engine_plays(variant, wild):
    innocent = position(variant, [f"{wild} green-1 green-3", "blue-5 green-6", "yellow-7 red-6"],
                        "red-5", "yellow-1 yellow-2 yellow-3 yellow-4 yellow-5 yellow-6 blue-1")
    play(innocent, f"play {wild} blue", "challenge")
    failed = len(innocent.hands[1]) - 2
    guilty = position(variant, [f"{wild} red-1 blue-3", "blue-5 green-6"], "red-5",
                      "yellow-1 yellow-2 yellow-3 yellow-4 yellow-5 yellow-6")
    play(guilty, f"play {wild} blue", "challenge")
    caught = len(guilty.hands[0]) - 2
    text = text_of(section(variant, "challenges"))
    assert f"they draw the {caught} cards instead" in text
    assert f"the challenger draws {failed} cards" in text


@pytest.mark.parametrize("variant", ALL)
def test_two_players_follow_the_variants_reverse_rule(variant):
    v = find_variant(variant)
    text = text_of(section(v, "two-players"))
    assert ("A Reverse works like a Skip" in text) is v.two_player_reverse_skips


@pytest.mark.parametrize("variant", ALL)
def test_house_rules_are_the_options_sentences(variant):
    v = find_variant(variant)
    every = TableOptions(stacking=True, seven_o=True, jump_in=True, draw_until_playable=True,
                         forced_play=True).describe(v)
    progressive = TableOptions(progressive_uno=True).describe(v)
    items = section(v, "house-rules").items
    assert items and set(items) <= set(every) | set(progressive)
    assert all("(house rule)" in item for item in items)


def test_the_number_cards_are_counted_from_the_deck():
    assert section("classic", "number-cards").text[0] == \
        "There are 76 number cards. In each color: one 0 and two of each number from 1 to 9."
    assert section("pizza-pizza", "number-cards").text[0] == \
        "There are 36 number cards. In each color: one of each number from 1 to 9."
    assert section("wild-jackpot", "number-cards").text[0].startswith("There are 60 ")


def test_the_first_card_follows_each_variants_rule():
    assert "dealer's right starts" in text_of(section("classic", "first-card"))  # R9
    assert "the dealer starts" in text_of(section("pizza-pizza", "first-card"))  # R23
    assert "until a number card shows" in text_of(section("one", "first-card"))  # R28
    assert "Wild Draw 4 or blank card: put it back" in text_of(section("classic", "first-card"))


def test_sections_are_frozen_values():
    s = section("classic", "uno")
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.title = "changed"  # type: ignore[misc]
    assert rulebook("classic") is rulebook(find_variant("classic"))  # built once


def test_names_and_aliases_find_the_same_rulebook():
    assert rulebook("uno") == rulebook("classic") == rulebook(find_variant("Classic"))


def test_an_unknown_anchor_or_variant_is_refused():
    with pytest.raises(UnknownSectionError, match="no section 'wild-draw-5'"):
        section("classic", "wild-draw-5")
    assert issubclass(UnknownSectionError, ValueError)
    with pytest.raises(ValueError, match="unknown variant"):
        rulebook("chess")
    with pytest.raises(UnknownSectionError):
        section("pizza-pizza", "wild-draw-4")  # not in that deck


def test_the_wild_jackpot_lever_lists_every_outcome():
    items = section("wild-jackpot", "jackpot-lever").items
    assert len(items) == len(LEVER_OUTCOMES) == 6
    assert "six pictures" in text_of(section("wild-jackpot", "jackpot-lever"))


def test_blank_cards_score_the_tables_value():
    classic = find_variant("classic")
    assert f"{classic.points_for(card(Rank.BLANK))} points" in \
        text_of(section(classic, "blank-cards"))
