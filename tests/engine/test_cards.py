"""Cards and their one canonical text form (issue 2, "Engine, first layer")."""

import copy
import dataclasses
import pickle

import pytest

from engine import ALL_CARDS, COLORS, Card, CardError, Color, Rank, card, cards_text, parse_cards

# Every card text the issue names, written out by hand rather than taken from ALL_CARDS.
COLORED_SYMBOLS = [str(n) for n in range(10)] + ["skip", "reverse", "draw1", "draw2", "jackpot"]
BLACK_CARDS = [
    "wild", "wild-draw4", "wild-draw2", "wild-dip", "wild-jackpot", "wild-swap", "wild-droid",
    "blank",
]
EVERY_TEXT = [
    f"{color}-{symbol}"
    for color in ("red", "yellow", "green", "blue")
    for symbol in COLORED_SYMBOLS
] + BLACK_CARDS


def test_all_cards_is_exactly_the_named_cards():
    assert sorted(c.text for c in ALL_CARDS) == sorted(EVERY_TEXT)
    assert len(ALL_CARDS) == 4 * 15 + 8


@pytest.mark.parametrize("text", EVERY_TEXT)
def test_canonical_text_round_trips(text):
    c = Card.parse(text)
    assert c.text == text
    assert str(c) == text
    assert Card.parse(c.text) is c


@pytest.mark.parametrize("c", ALL_CARDS, ids=lambda c: c.text)
def test_repr_evaluates_back_to_the_same_card(c):
    assert eval(repr(c), {"Card": Card}) is c


@pytest.mark.parametrize("c", ALL_CARDS, ids=lambda c: c.text)
def test_one_instance_per_card_survives_pickle_and_copy(c):
    assert pickle.loads(pickle.dumps(c)) is c
    assert copy.copy(c) is c
    assert copy.deepcopy(c) is c


def test_cards_are_frozen_and_hashable():
    c = Card.parse("red-7")
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.text = "blue-7"  # type: ignore[misc]
    assert {c: 1}[Card.parse("r7")] == 1
    assert len({Card.parse("red-7"), Card.parse("R7"), Card.parse("red 7")}) == 1


@pytest.mark.parametrize(
    "text, rank, color",
    [
        ("red-0", Rank.ZERO, Color.RED),
        ("yellow-9", Rank.NINE, Color.YELLOW),
        ("green-draw1", Rank.DRAW1, Color.GREEN),
        ("blue-jackpot", Rank.JACKPOT, Color.BLUE),
        ("wild-droid", Rank.WILD_DROID, None),
        ("blank", Rank.BLANK, None),
    ],
)
def test_card_parts(text, rank, color):
    c = Card.parse(text)
    assert (c.rank, c.color) == (rank, color)
    assert card(rank, color) is c


@pytest.mark.parametrize(
    "text, is_number, is_action, is_wild",
    [
        ("red-0", True, False, False),
        ("blue-9", True, False, False),
        ("green-skip", False, True, False),
        ("yellow-reverse", False, True, False),
        ("red-draw1", False, True, False),
        ("blue-draw2", False, True, False),
        ("green-jackpot", False, True, False),
        ("wild", False, False, True),
        ("wild-draw4", False, False, True),
        ("wild-swap", False, False, True),
        ("wild-droid", False, False, True),
        ("blank", False, False, False),
    ],
)
def test_card_kinds(text, is_number, is_action, is_wild):
    c = Card.parse(text)
    assert (c.is_number, c.is_action, c.is_wild) == (is_number, is_action, is_wild)


@pytest.mark.parametrize("n", range(10))
def test_number_rank_face_value(n):
    assert Card.parse(f"green-{n}").rank.number == n


def test_symbol_ranks_have_no_face_value():
    assert Card.parse("red-skip").rank.number is None
    assert Card.parse("wild").rank.number is None


def test_colors_in_picker_order():
    assert [c.value for c in COLORS] == ["red", "yellow", "green", "blue"]


@pytest.mark.parametrize(
    "rank, color",
    [
        (Rank.SEVEN, None),  # a number needs a color
        (Rank.SKIP, None),
        (Rank.WILD, Color.RED),  # a wild has none
        (Rank.WILD_DRAW4, Color.BLUE),
        (Rank.BLANK, Color.GREEN),
    ],
)
def test_card_rejects_impossible_rank_and_color(rank, color):
    with pytest.raises(CardError):
        card(rank, color)


@pytest.mark.parametrize(
    "short, canonical",
    [
        ("r7", "red-7"),
        ("R7", "red-7"),
        ("y0", "yellow-0"),
        ("G9", "green-9"),
        ("b-skip", "blue-skip"),
        ("bs", "blue-skip"),
        ("r-rev", "red-reverse"),
        ("YREV", "yellow-reverse"),
        ("g-d2", "green-draw2"),
        ("g+2", "green-draw2"),
        ("b+1", "blue-draw1"),
        ("rd1", "red-draw1"),
        ("y-j", "yellow-jackpot"),
        ("r-jp", "red-jackpot"),
        ("red 7", "red-7"),
        ("red_7", "red-7"),
        ("RED-7", "red-7"),
        ("  red-7  ", "red-7"),
        ("Blue Skip", "blue-skip"),
        ("green draw 2", "green-draw2"),
        ("w", "wild"),
        ("WILD", "wild"),
        ("wd4", "wild-draw4"),
        ("WD4", "wild-draw4"),
        ("+4", "wild-draw4"),
        ("w+4", "wild-draw4"),
        ("Wild Draw 4", "wild-draw4"),
        ("wd2", "wild-draw2"),
        ("dip", "wild-dip"),
        ("wj", "wild-jackpot"),
        ("wild jackpot", "wild-jackpot"),
        ("swap", "wild-swap"),
        ("droid", "wild-droid"),
        ("BLANK", "blank"),
    ],
)
def test_short_forms(short, canonical):
    assert Card.parse(short) is Card.parse(canonical)


def _spellings():
    for text in EVERY_TEXT:
        for spelled in (text.replace("-", " "), text.replace("-", "_"), text.replace("-", "")):
            yield pytest.param(spelled.title(), text, id=spelled)


@pytest.mark.parametrize("spelled, canonical", list(_spellings()))
def test_canonical_names_spelled_with_spaces_underscores_or_run_together(spelled, canonical):
    assert Card.parse(spelled) is Card.parse(canonical)


@pytest.mark.parametrize(
    "junk",
    [
        "",
        " ",
        "purple-7",
        "red-10",
        "red-07",
        "red",
        "blue",
        "r",
        "7",
        "12",
        "skip",
        "wild-red",
        "red-wild",
        "wild-draw5",
        "wd3",
        "w4",
        "red-7 blue-7",
        "red-7,",
        "rr",
        "x7",
        "blank-red",
        "red-blank",
        "None",
        None,
        7,
        b"red-7",
        ["red-7"],
    ],
    ids=repr,
)
def test_junk_is_rejected_with_a_clear_message(junk):
    with pytest.raises(CardError, match="is not a card") as raised:
        Card.parse(junk)
    assert repr(junk) in str(raised.value)
    assert "red-7" in str(raised.value)  # the message shows what a card looks like


def test_card_error_is_a_value_error():
    assert issubclass(CardError, ValueError)


def test_parse_cards_from_one_string():
    cards = parse_cards("r7, b-skip  wd4,wild")
    assert cards == [Card.parse(t) for t in ("red-7", "blue-skip", "wild-draw4", "wild")]


def test_parse_cards_from_a_list_keeps_order_and_duplicates():
    cards = parse_cards(["red-7", "R7", "blank"])
    assert [c.text for c in cards] == ["red-7", "red-7", "blank"]


@pytest.mark.parametrize("empty", ["", "  ", ",", []])
def test_parse_cards_of_nothing(empty):
    assert parse_cards(empty) == []


def test_parse_cards_rejects_the_bad_one():
    with pytest.raises(CardError, match="purple-7"):
        parse_cards("red-7 purple-7 wild")


def test_cards_text_is_canonical_and_space_separated():
    assert cards_text(parse_cards("R7 b-skip WD4")) == "red-7 blue-skip wild-draw4"
    assert cards_text([]) == ""


def test_parse_cards_and_cards_text_round_trip_every_card():
    text = cards_text(ALL_CARDS)
    assert parse_cards(text) == list(ALL_CARDS)
    assert cards_text(parse_cards(text)) == text


@pytest.mark.parametrize("args, message", [
    (("red-7",), r"Card.parse\('red-7'\) reads text"),
    ((Rank.SEVEN, "red"), r"Color\('red'\) reads text"),
    ((Rank.WILD, Color.RED), "no card is wild with color red"),
    ((Rank.SEVEN,), "no card is 7 with color None"),
])
def test_card_refuses_what_is_not_a_rank_and_color_clearly(args, message):
    with pytest.raises(CardError, match=message):
        card(*args)
