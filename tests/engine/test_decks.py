"""Each variant's deck, hand size, players, target and card points, checked
against the hand-written golden files in ``golden/`` (one per variant)."""

import json
from collections import Counter
from pathlib import Path

import pytest

from engine import ALL_CARDS, VARIANTS, Card, ScoringMode, TableOptions, find_variant, parse_cards
from engine.game import NoPointsError

GOLDEN_DIR = Path(__file__).parent / "golden"
NAMES = ["classic", "wild-jackpot", "pizza-pizza", "one", "star-wars"]
GOLDEN = {name: json.loads((GOLDEN_DIR / f"{name}.json").read_text()) for name in NAMES}
SCORED = [name for name in NAMES if GOLDEN[name]["points"] is not None]


def _texts(counts):
    return {c.text: n for c, n in counts.items()}


def _table_cases():
    """(variant, options, expected deck counts, expected points, hands) for each
    golden table-options case, the expected deck being the golden default deck
    with the case's changes applied."""
    for name in NAMES:
        golden = GOLDEN[name]
        for case in golden["table_options"]:
            deck = {**golden["deck"], **case["deck_changes"]}
            deck = {text: n for text, n in deck.items() if n}
            points = {**(golden["points"] or {}), **case["points"]}
            points = {text: v for text, v in points.items() if text in deck}
            yield pytest.param(
                name,
                case["options"],
                deck,
                case["deck_size"],
                points,
                case["hands"],
                id=f"{name}: {case['name']}",
            )


TABLE_CASES = list(_table_cases())


# -- the golden files themselves ------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_golden_file_is_consistent(name):
    golden = GOLDEN[name]
    assert golden["variant"] == name
    assert sum(golden["deck"].values()) == golden["deck_size"]
    for text in golden["deck"]:
        assert Card.parse(text).text == text
    if golden["points"] is not None:
        assert set(golden["points"]) == set(golden["deck"])


@pytest.mark.parametrize("name, options, deck, size, points, hands", TABLE_CASES)
def test_golden_table_case_is_consistent(name, options, deck, size, points, hands):
    assert sum(deck.values()) == size
    assert set(points) == set(deck)


# -- lookup ----------------------------------------------------------------


def test_the_five_variants_in_order():
    assert [v.name for v in VARIANTS] == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_find_variant_by_name(name):
    variant = find_variant(name)
    assert variant.name == name
    assert find_variant(f"  {name.upper()} ") is variant


@pytest.mark.parametrize(
    "alias, name",
    [
        ("Pizza", "pizza-pizza"),
        ("jackpot", "wild-jackpot"),
        ("STARWARS", "star-wars"),
        ("star wars", "star-wars"),
        ("uno", "classic"),
    ],
)
def test_find_variant_by_alias(alias, name):
    assert find_variant(alias).name == name


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_every_alias_finds_its_own_variant(variant):
    for alias in variant.aliases:
        assert find_variant(alias) is variant


def test_no_alias_is_shared_or_shadows_a_name():
    keys = [v.name for v in VARIANTS] + [a for v in VARIANTS for a in v.aliases]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize(
    "unknown", ["", "uno flip", "classic2", "pizza pizza pizza", "wild_jackpot"]
)
def test_find_variant_rejects_unknown_names(unknown):
    with pytest.raises(ValueError, match="unknown variant") as raised:
        find_variant(unknown)
    for name in NAMES:  # the message lists what would have worked
        assert name in str(raised.value)


@pytest.mark.parametrize("not_a_name", [None, 7])
def test_find_variant_rejects_non_text(not_a_name):
    with pytest.raises(ValueError, match="unknown variant"):
        find_variant(not_a_name)


# -- deck composition: R7, R16, R22, R27, R33 ---------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_deck_counts_default_options(name):
    variant = find_variant(name)
    assert _texts(variant.deck_counts()) == GOLDEN[name]["deck"]
    assert _texts(variant.deck_counts(variant.default_options())) == GOLDEN[name]["deck"]


@pytest.mark.parametrize("name", NAMES)
def test_deck_lists_every_copy(name):
    deck = find_variant(name).deck()
    assert len(deck) == GOLDEN[name]["deck_size"]
    assert {c.text: n for c, n in Counter(deck).items()} == GOLDEN[name]["deck"]


@pytest.mark.parametrize("name, options, deck, size, points, hands", TABLE_CASES)
def test_deck_with_table_options(name, options, deck, size, points, hands):
    variant = find_variant(name)
    opts = TableOptions(**options)
    variant.check_options(opts)
    assert _texts(variant.deck_counts(opts)) == deck
    assert len(variant.deck(opts)) == size


def test_r7_classic_default_is_108_plus_the_wild_swap():
    counts = _texts(find_variant("classic").deck_counts())
    assert counts["wild-swap"] == 1
    assert "blank" not in counts
    assert sum(counts.values()) == 108 + 1


def test_r33_star_wars_has_one_droid_and_no_foil_duplicate():
    counts = _texts(find_variant("star-wars").deck_counts())
    assert counts["wild-droid"] == 1
    assert sum(counts.values()) == 109


def test_r16_wild_jackpot_rule_cards_are_not_dealt():
    variant = find_variant("wild-jackpot")
    assert variant.rule_cards == 8
    assert len(variant.deck()) == 108


# -- hand size, players, target, UNO penalty --------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_hand_size(name):
    assert find_variant(name).hand_size == GOLDEN[name]["hand_size"]


@pytest.mark.parametrize("name", NAMES)
def test_player_range(name):
    variant = find_variant(name)
    assert (variant.min_players, variant.max_players) == (
        GOLDEN[name]["min_players"],
        GOLDEN[name]["max_players"],
    )


@pytest.mark.parametrize("name", NAMES)
def test_everyone_can_be_dealt_a_hand_at_the_most_players(name):
    variant = find_variant(name)
    assert variant.max_players * variant.hand_size < len(variant.deck())


@pytest.mark.parametrize("name", NAMES)
def test_default_target(name):
    assert find_variant(name).default_target == GOLDEN[name]["default_target"]


@pytest.mark.parametrize("name", NAMES)
def test_r6_default_uno_penalty(name):
    variant = find_variant(name)
    assert variant.default_uno_penalty == GOLDEN[name]["default_uno_penalty"]
    assert variant.default_options().uno_penalty == GOLDEN[name]["default_uno_penalty"]


@pytest.mark.parametrize("name", NAMES)
def test_scoring_modes_offered(name):
    """The variant offers at least the golden modes, the sheet's own first."""
    offered = find_variant(name).scoring_modes
    wanted = [ScoringMode(m) for m in GOLDEN[name]["scoring_modes"]]
    assert offered[0] is wanted[0]
    assert set(wanted) <= set(offered)


def test_r32_one_only_tallies_wins():
    variant = find_variant("one")
    assert variant.scoring_modes == (ScoringMode.WIN_TALLY,)
    assert not variant.has_points()


def test_r37_star_wars_scores_or_tallies():
    variant = find_variant("star-wars")
    assert variant.has_points()
    assert {ScoringMode.STANDARD, ScoringMode.WIN_TALLY} <= set(variant.scoring_modes)


# -- points: R14, R21, R26, R37 ----------------------------------------------


@pytest.mark.parametrize("name", SCORED)
def test_points_for_every_card_in_the_deck(name):
    variant = find_variant(name)
    got = {text: variant.points_for(Card.parse(text)) for text in GOLDEN[name]["deck"]}
    assert got == GOLDEN[name]["points"]


@pytest.mark.parametrize("name, options, deck, size, points, hands", TABLE_CASES)
def test_points_with_table_options(name, options, deck, size, points, hands):
    variant = find_variant(name)
    opts = TableOptions(**options)
    got = {text: variant.points_for(Card.parse(text), opts) for text in deck}
    assert got == points


def _hand_cases():
    for name in SCORED:
        for hand in GOLDEN[name]["hands"]:
            yield pytest.param(
                name, {}, hand["cards"], hand["points"], id=f"{name}: {hand['cards']}"
            )
    for param in TABLE_CASES:
        name, options, *_, hands = param.values
        for hand in hands:
            yield pytest.param(
                name, options, hand["cards"], hand["points"], id=f"{param.id}: {hand['cards']}"
            )


@pytest.mark.parametrize("name, options, cards, points", list(_hand_cases()))
def test_hand_points(name, options, cards, points):
    variant = find_variant(name)
    opts = TableOptions(**options) if options else None
    assert variant.hand_points(parse_cards(cards), opts) == points


@pytest.mark.parametrize("name", SCORED)
def test_hand_points_of_the_whole_deck(name):
    variant = find_variant(name)
    golden = GOLDEN[name]
    expected = sum(n * golden["points"][text] for text, n in golden["deck"].items())
    assert variant.hand_points(variant.deck()) == expected


@pytest.mark.parametrize("blank_value", [0, 1, 50, 75, 100])
def test_r14_blank_scores_the_table_value(blank_value):
    classic = find_variant("classic")
    options = TableOptions(blank_cards=2, blank_value=blank_value)
    blank = Card.parse("blank")
    assert classic.points_for(blank, options) == blank_value
    assert classic.hand_points([blank, blank, Card.parse("red-3")], options) == 2 * blank_value + 3


def test_r14_blank_default_is_50():
    assert TableOptions().blank_value == 50
    assert (
        find_variant("classic").points_for(Card.parse("blank"), TableOptions(blank_cards=1)) == 50
    )


def test_r14_wild_swap_scores_50():
    assert find_variant("classic").points_for(Card.parse("wild-swap")) == 50


@pytest.mark.parametrize("text", ["red-7", "wild", "wild-draw4", "blue-skip"])
def test_r32_one_has_no_card_points(text):
    one = find_variant("one")
    with pytest.raises(NoPointsError, match="R32"):
        one.points_for(Card.parse(text))
    with pytest.raises(NoPointsError):
        one.hand_points(parse_cards(text))


# Cards that are not in a variant's deck under any table options: Wild Jackpot
# 8s and 9s (R16: numbers are 0-7), Pizza Pizza 0s (R22: numbers are 1-9),
# blanks outside classic (R7: blanks are a classic table card) and every rank a
# variant never has.


def _not_in_deck():
    for name in SCORED:
        in_some_deck = set(GOLDEN[name]["deck"])
        for case in GOLDEN[name]["table_options"]:
            in_some_deck |= {t for t, n in case["deck_changes"].items() if n}
        for c in ALL_CARDS:
            if c.text not in in_some_deck:
                yield pytest.param(name, c.text, id=f"{name}: {c.text}")


@pytest.mark.parametrize("name, text", list(_not_in_deck()))
def test_points_for_refuses_a_card_not_in_the_deck(name, text):
    with pytest.raises(ValueError, match=text):
        find_variant(name).points_for(Card.parse(text))


# -- table options: R6, R7, R14 ------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_default_options_pass_their_own_check(name):
    variant = find_variant(name)
    variant.check_options(variant.default_options())
    variant.check_options(TableOptions())


@pytest.mark.parametrize(
    "blank_cards, wild_swap",
    [(0, True), (0, False), (3, True), (4, False), (1, True), (2, False)],
)
def test_r7_classic_accepts_up_to_four_table_cards(blank_cards, wild_swap):
    find_variant("classic").check_options(
        TableOptions(blank_cards=blank_cards, wild_swap=wild_swap)
    )


@pytest.mark.parametrize(
    "blank_cards, wild_swap",
    [(4, True), (5, False), (5, True), (10, False), (-1, False), (-1, True)],
)
def test_r7_classic_rejects_more_than_four_or_negative_table_cards(blank_cards, wild_swap):
    with pytest.raises(ValueError, match="R7"):
        find_variant("classic").check_options(
            TableOptions(blank_cards=blank_cards, wild_swap=wild_swap)
        )


@pytest.mark.parametrize("name", ["wild-jackpot", "pizza-pizza", "one", "star-wars"])
def test_r7_blanks_are_classic_only(name):
    with pytest.raises(ValueError, match="R7"):
        find_variant(name).check_options(TableOptions(blank_cards=1))


@pytest.mark.parametrize("name", NAMES)
def test_r14_negative_blank_value_is_rejected(name):
    with pytest.raises(ValueError, match="R14"):
        find_variant(name).check_options(TableOptions(blank_value=-1))


@pytest.mark.parametrize("penalty", [0, 1, 2, 4, 20])
def test_r6_uno_penalty_is_a_table_option(penalty):
    for variant in VARIANTS:
        variant.check_options(TableOptions(uno_penalty=penalty))


@pytest.mark.parametrize("penalty", [-1, 21])
def test_r6_uno_penalty_out_of_range_is_rejected(penalty):
    with pytest.raises(ValueError, match="R6"):
        find_variant("classic").check_options(TableOptions(uno_penalty=penalty))


def test_table_options_round_trip_through_a_dict():
    options = TableOptions(blank_cards=3, blank_value=40, wild_swap=True, uno_penalty=2)
    assert TableOptions.from_dict(options.to_dict()) == options
    assert TableOptions.from_dict(None) == TableOptions()


def test_table_options_refuse_unknown_keys():
    with pytest.raises(ValueError, match="blanks"):
        TableOptions.from_dict({"blanks": 3})
