"""The play API: actions and their text, errors, positions, saving, replaying, events."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from scenario import NAMES, card, legal, play, position

from engine import (
    VARIANTS,
    Action,
    ActionKind,
    ActionParseError,
    BadChoiceError,
    CardNotHeldError,
    Color,
    Game,
    GameOverError,
    HandNotOverError,
    IllegalActionError,
    LeverOutcome,
    NotYourTurnError,
    Phase,
    SetupError,
    TableOptions,
    find_variant,
)
from engine.events import Event, EventKind, card_name
from engine.jackpot import LEVER_OUTCOMES

CLASSIC = find_variant("classic")


# -- actions ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "play red-7", "play wild-draw4 blue", "play wild-swap green 2", "play red-7 3", "draw",
    "pass", "accept", "challenge", "uno 2", "catch 1 2", "color red", "color yellow 3",
    "give blue-skip", "lever", "lever discard", "choose 0", "discard green-draw2", "done",
    "lay red-1", "jump 2 red-5", "jump 1 red-7 3", "play red-7 uno", "play wild blue uno"])
def test_action_text_round_trips(text):
    action = Action.parse(text)
    assert action.text == text and Action.parse(action.text) == action and str(action) == text


def test_action_parse_accepts_short_card_names():
    assert Action.parse("play WD4 b") == Action(ActionKind.PLAY, card("wild-draw4"), Color.BLUE)
    assert Action.parse("PLAY r7").text == "play red-7"
    assert Action.play("r7") == Action.parse("play red-7")
    assert Action.play("wild", "blue").text == "play wild blue"
    assert Action.parse("play r7 UNO") == Action.play("red-7", uno=True)
    assert Action.play("wild", "blue", uno=True).text == "play wild blue uno"


@pytest.mark.parametrize("text", ["", "dance", "play", "play purple-7", "draw 2", "uno",
                                  "catch 1", "color mauve", "lever sideways", "play red-7 x",
                                  "choose one", "play wild red 1 2", "give", "draw uno",
                                  "play red-7 uno uno", "play uno", "jump 1 red-7 uno"])
def test_action_parse_errors(text):
    with pytest.raises(ActionParseError):
        Action.parse(text)


@pytest.mark.parametrize("junk", [None, 7, b"draw", ["draw"]])
def test_action_parse_refuses_what_is_not_text(junk):
    with pytest.raises(ActionParseError, match="is not an action"):
        Action.parse(junk)


@pytest.mark.parametrize("junk", [None, 7, ["draw"]])
def test_applying_what_is_not_an_action_is_a_type_error_and_changes_nothing(junk):
    game = position("classic", ["red-7 red-2", "blue-3 green-5"], "red-5")
    before = game.to_json()
    for check in (game.apply, game.is_legal, game.why_illegal):
        with pytest.raises(TypeError):
            check(junk)
    assert game.to_json() == before


def test_actions_are_frozen_values():
    a = Action.parse("play red-7")
    with pytest.raises(AttributeError):
        a.card = card("red-8")  # type: ignore[misc]
    assert {a, Action.parse("play red-7")} == {a}


# -- legality and errors ------------------------------------------------------------------------


def test_illegal_actions_raise_a_specific_error_and_change_nothing():
    game = position("classic", ["red-7 red-2 wild", "blue-3 green-5"], "red-5", "yellow-1")
    before = game.to_json()
    cases = [("play blue-3", CardNotHeldError), ("play wild", BadChoiceError),
             ("play red-7 blue", BadChoiceError), ("accept", NotYourTurnError),
             ("uno 0", IllegalActionError), ("choose 1", NotYourTurnError),
             ("play wild red 9", BadChoiceError)]
    for text, error in cases:
        assert not game.is_legal(text)
        assert game.why_illegal(text)
        with pytest.raises(error):
            game.apply(text)
        assert game.to_json() == before
    assert issubclass(IllegalActionError, ValueError)


def test_why_illegal_is_none_for_a_legal_action():
    game = position("classic", ["red-7 red-2", "blue-3 green-5"], "red-5")
    assert game.why_illegal("play red-7") is None and game.is_legal(Action.parse("play red-7"))


def test_a_hand_that_is_over_takes_no_action():
    game = position("classic", ["red-7", "blue-3 green-5"], "red-5")
    play(game, "play red-7")
    assert game.is_over and game.to_act is None and game.legal_actions() == []
    with pytest.raises(GameOverError):
        game.apply("draw")


def test_hand_result_waits_for_the_end():
    game = position("classic", ["red-7 red-1", "blue-3 green-5"], "red-5")
    with pytest.raises(HandNotOverError):
        game.hand_result()


@pytest.mark.parametrize("variant", [v.name for v in VARIANTS])
def test_legal_actions_and_is_legal_agree_over_random_hands(variant):
    cls = find_variant(variant)
    for seed in range(6):
        game = cls.new(3, seed=seed, options=TableOptions(jump_in=True))
        chooser = random.Random(seed)
        for _ in range(400):
            if game.is_over:
                break
            actions = game.legal_actions()
            assert len(set(actions)) == len(actions)
            for a in actions:
                assert game.is_legal(a) and game.is_legal(a.text), a.text
            game.apply(Action.parse(chooser.choice(actions).text))  # equal, not identical


# -- starting a game ------------------------------------------------------------------------------


def test_new_from_a_seed_is_reproducible_and_seeds_differ():
    a, b, c = CLASSIC.new(4, seed=7), CLASSIC.new(4, seed=7), CLASSIC.new(4, seed=8)
    assert a.to_json() == b.to_json() and a.hands != c.hands


def test_new_without_seed_records_one_for_replay():
    game = CLASSIC.new(3)
    assert isinstance(game.setup["seed"], int)
    assert Game.replay(game.setup, []).to_json() == game.to_json()


def test_new_with_an_injected_generator():
    game = CLASSIC.new(3, rng=random.Random(5))
    again = Game.replay(game.setup, [])
    assert again.to_json()["state"] == game.to_json()["state"]
    with pytest.raises(SetupError):
        CLASSIC.new(3, rng=random.Random(5), seed=5)


@pytest.mark.parametrize("players, dealer", [(1, 0), (11, 0), (3, 3), (["Ann", "Ann"], 0),
                                             (["Ann", " "], 0)])
def test_new_refuses_bad_tables(players, dealer):
    with pytest.raises(SetupError):
        CLASSIC.new(players, dealer=dealer, seed=1)


def test_names_appear_in_events():
    game = CLASSIC.new(["Zoe", "Yan"], seed=2)
    assert game.players == ("Zoe", "Yan")
    assert game.opening_events[0].text.startswith("Zoe deals 7 cards")


def test_stack_deck_checks_hand_sizes_and_cards():
    with pytest.raises(SetupError):
        CLASSIC.stack_deck(["red-1 red-2"], "red-3")
    deck = CLASSIC.stack_deck(["red-1 " * 7] * 2, "red-3")
    with pytest.raises(SetupError, match="red-1 appears 14 times"):
        CLASSIC.new(2, deck=deck)
    with pytest.raises(SetupError, match="too few"):
        CLASSIC.new(2, deck=CLASSIC.deck()[:14])


def test_a_stacked_deck_may_be_short():
    deck = CLASSIC.deck()[:20]
    game = CLASSIC.new(2, deck=deck, seed=1)
    assert sum(map(len, game.hands)) + len(game.draw_pile) + len(game.discard_pile) == 20


def test_from_position_phases():
    drawn = position("classic", ["red-2 red-9", "blue-3"], "red-5", drawn="red-9")
    assert drawn.phase is Phase.DRAWN and legal(drawn) == ["play red-9", "pass", "play red-9 uno"]
    pending = position("classic", ["blue-3 green-1", "red-1 yellow-2"], "red-5 wild-draw4",
                       "green-7 green-8 green-9 yellow-7", color="blue",
                       pending_draw=4, to_act=0)
    assert pending.phase is Phase.PENDING and pending.pending_draw == 4
    play(pending, "challenge")
    assert len(pending.hands[1]) == 6  # Bea played it holding red-1: guilty
    over = position("classic", ["", "blue-3 wild"], "red-5")
    assert over.is_over and over.winner == 0 and over.hand_result().points == {1: 53}
    owed = position("classic", ["red-2", "blue-3 green-4"], "red-5", to_act=1, uno_owed=[0])
    assert "catch 1 0" in legal(owed)


def test_a_copy_has_its_own_drawn_card_and_pending_draw():
    # The turn's own phases hold their state in their objects (engine.game: Drawn, Pending).
    drawn = position("classic", ["red-2 red-9", "blue-3"], "red-5", drawn="red-9")
    copy = drawn.copy()
    play(copy, "pass")
    assert copy.phase is Phase.TURN and copy.drawn_card is None
    assert drawn.phase is Phase.DRAWN and drawn.drawn_card == card("red-9")
    pending = position("classic", ["blue-3 green-1", "red-1 yellow-2"], "red-5 wild-draw4",
                       "green-7 green-8 green-9 yellow-7", color="blue",
                       pending_draw=4, to_act=0)
    copy = pending.copy()
    play(copy, "accept")
    assert copy.phase is Phase.TURN and copy.pending_draw == 0
    assert pending.phase is Phase.PENDING and pending.pending_draw == 4
    state = pending.to_json()["state"]
    assert [state[k] for k in ("drawn", "pending", "pending_from", "guilty", "final")] == [
        None, 4, 1, True, False]


@pytest.mark.parametrize("kwargs, match", [
    ({"hands": ["wild-draw4 " * 5, "red-1"], "discard": "red-5"}, "appears 5 times"),
    ({"hands": ["red-1", "red-2"], "discard": "wild"}, "current color"),
    ({"hands": ["red-1", "red-2"], "discard": ""}, "top card"),
    ({"hands": ["red-1", "red-2"], "discard": "red-5", "to_act": 2}, "to_act"),
    ({"hands": ["red-1", "red-2"], "discard": "red-5", "direction": 2}, "direction"),
    ({"hands": ["red-1", "red-2"], "discard": "red-5", "pending_draw": 2}, "draw card"),
    ({"hands": ["red-1", "red-2"], "discard": "red-5", "drawn": "red-9"}, "drawn card"),
    ({"hands": ["red-1 red-3", "red-2"], "discard": "red-5", "uno_owed": [0]}, "one card"),
    ({"hands": ["", ""], "discard": "red-5"}, "only one player"),
    ({"hands": ["red-1", "red-2"], "discard": "wild-draw4", "color": "red",
      "pending_draw": 4}, "previous_color"),
    ({"hands": ["red-1", "red-2"], "discard": "red-5 red-draw2", "pending_draw": 2},
     "stacking"),
])
def test_from_position_refuses_impossible_positions(kwargs, match):
    hands, discard = kwargs.pop("hands"), kwargs.pop("discard")
    with pytest.raises(SetupError, match=match):
        position("classic", hands, discard, **kwargs)


# -- saving and replaying ----------------------------------------------------------------------


@pytest.mark.parametrize("variant", [v.name for v in VARIANTS])
def test_save_restore_mid_hand_is_exact_and_plays_on_the_same(variant):
    game = find_variant(variant).new(4 if variant != "pizza-pizza" else 3, seed=21)
    chooser = random.Random(1)
    for _ in range(25):
        if game.is_over:
            break
        game.apply(chooser.choice(game.legal_actions()))
    data = json.loads(json.dumps(game.to_json()))
    copy = Game.from_json(data)
    assert copy.to_json() == game.to_json()
    for _ in range(200):  # same future, random generator included
        if game.is_over:
            break
        action = chooser.choice(game.legal_actions())
        assert texts_of(copy.apply(action.text)) == texts_of(game.apply(action))
    assert copy.to_json() == game.to_json()


def texts_of(events):
    return [e.text for e in events]


def test_replay_from_setup_and_actions():
    game = find_variant("wild-jackpot").new(3, seed=4)
    chooser = random.Random(3)
    while not game.is_over:
        game.apply(chooser.choice(game.legal_actions()))
    actions = [a.text for a in game.history]
    for start in (game.setup, game.to_json()):
        assert Game.replay(start, actions).to_json() == game.to_json()
    assert find_variant("wild-jackpot").replay(4, actions, players=3).to_json()["state"] == (
        game.to_json()["state"])


def test_replay_from_a_position():
    game = position("classic", ["red-7 red-2", "blue-3 green-5"], "red-5", "yellow-1 yellow-2")
    play(game, "play red-7", "draw")
    again = Game.replay(game.setup, game.history)
    assert again.to_json() == game.to_json()


def test_setup_is_a_copy():
    game = CLASSIC.new(2, seed=1)
    game.setup["players"].append("Mallory")
    assert game.setup["players"] == ["Player 1", "Player 2"]


# -- events ----------------------------------------------------------------------------------------


def test_events_cite_rule_and_sheet_section():
    game = position("classic", ["wild-draw4 green-1 green-2", "blue-3 yellow-4"], "red-5",
                    "yellow-1 yellow-2 yellow-3 yellow-4 yellow-5 yellow-6")
    events = play(game, "play wild-draw4 blue", "challenge")
    assert [e.text for e in events] == [
        "Ann plays Wild Draw 4 and names blue (R3; classic sheet, Gameplay)",
        "Bea challenges Ann's Wild Draw 4 (R10; classic sheet, Wild Draw 4 Card)",
        ("The challenge fails: Ann held no card that would have made it illegal "
         "(R10; classic sheet, Wild Draw 4 Card)"),
        "Bea draws 6 cards: their challenge failed (R10; classic sheet, Wild Draw 4 Card)",
        "Bea loses their turn (R10; classic sheet, Wild Draw 4 Card)",
        "Ann plays again (R13; classic sheet, Rules for Two Players)",
    ]
    assert all(isinstance(e, Event) and e.source for e in events)
    assert events[3].amount == 6 and events[3].seat == 1 and len(events[3].cards) == 6


def test_event_without_a_ruling_cites_the_sheet_only():
    game = position("classic", ["red-skip red-1", "blue-3", "green-4"], "red-5")
    events = play(game, "play red-skip")
    assert events[1].rule == "" and events[1].text.endswith("(classic sheet, Skip Card)")


def test_events_of_a_ruling_the_sheet_is_silent_on():
    game = position("one", ["blue-1", "yellow-3"], "red-5")
    events = play(game, "pass")
    assert events[0].text.endswith("(R2; not on the one sheet)")


def test_card_names():
    assert card_name(card("red-7")) == "red 7"
    assert card_name(card("wild-droid")) == "Wild Let's Build a Droid"
    assert card_name(card("green-draw1")) == "green Draw One"


def test_every_event_kind_has_words():
    for kind in EventKind:
        event = Event(kind, 0, "R1", "somewhere", NAMES[:2], 2, (card("red-1"),), Color.RED, 1, "x")
        assert event.text.endswith("(R1; somewhere)")


def test_lever_outcomes_have_words():
    assert [o.words for o in LEVER_OUTCOMES][-1] == "draw 4 cards"
    assert LeverOutcome("discard") is LeverOutcome.DISCARD


def test_cards_are_conserved_across_a_whole_random_hand():
    for variant in VARIANTS:
        game = variant.new(3, seed=2)
        deck = Counter(variant.deck(game.options))
        chooser = random.Random(2)
        for _ in range(300):
            if game.is_over:
                break
            game.apply(chooser.choice(game.legal_actions()))
            now = (Counter(c for h in game.hands for c in h) + Counter(game.draw_pile)
                   + Counter(game.discard_pile) + Counter(c for h in game.laid_aside for c in h))
            assert now == deck


@pytest.mark.parametrize("variant", [v.name for v in VARIANTS])
def test_every_event_source_cites_a_real_ruling(variant):
    cls = find_variant(variant)
    for topic, (section, rule) in cls.sections.items():
        assert rule in ("", "house") or (rule[0] == "R" and 1 <= int(rule[1:]) <= 37), topic
        assert section is None or section.strip()
