"""UNO Wild Jackpot sheet (rules/wild-jackpot.txt) and rulings R16-R21."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from scenario import NAMES, card, deal, hand, kinds, legal, play, position, rules, texts

from engine import (
    Color,
    LeverOutcome,
    Phase,
    TableOptions,
    UnplayableCardError,
    find_variant,
)
from engine.events import EventKind

JACKPOT = find_variant("wild-jackpot")
RULES = TableOptions(rule_cards=("Sing a song", "Hop twice", "Say please"))
HANDS = [
    "red-1 red-2 red-3 red-4 red-5 red-6 blue-1",
    "yellow-1 yellow-2 yellow-3 yellow-4 yellow-5 yellow-6 blue-2",
    "green-1 green-2 green-3 green-4 green-5 green-6 blue-3",
    "red-7 yellow-7 green-7 blue-7 red-0 yellow-0 blue-4",
]
DRAW = "green-0 blue-0 blue-5 blue-6 red-1 yellow-1"


def performed(events):
    """(seat, rule text) of each rule card performed."""
    return [(e.seat, e.note) for e in events if e.kind is EventKind.RULE_CARD]


def jackpot_table(hands=("red-jackpot red-1 blue-skip green-draw2 yellow-2 wild",
                         "blue-2 blue-3", "green-3 green-4", "yellow-3 yellow-4"),
                  options=RULES, **kwargs):
    return position("wild-jackpot", list(hands), "red-5",
                    "blue-4 blue-5 blue-6 blue-7 green-5 green-6 green-7", options=options,
                    **kwargs)


# -- R16, R17: the deck and the rule cards -----------------------------------------------


def test_r16_rule_cards_are_never_dealt():
    game = JACKPOT.new(4, seed=3)
    cards = Counter(c for h in game.hands for c in h) + Counter(game.draw_pile) + Counter(
        game.discard_pile)
    assert sum(cards.values()) == 108


@pytest.mark.parametrize("players, cards", [(2, 8), (3, 6), (4, 8), (5, 5), (8, 8)])
def test_r17_eight_rule_cards_are_shared_equally(players, cards):
    game = JACKPOT.new(players, seed=2)
    loaded = game.rule_dispenser.loaded
    assert len(loaded) == cards
    per_player = Counter(text.rsplit(" by ", 1)[1] for text in loaded)
    assert set(per_player.values()) == {8 // players}


@pytest.mark.parametrize("players", [9, 10])
def test_r17_with_more_players_than_cards_the_first_eight_write_one_each(players):
    # 8 // n is 0: the ruling in docs/rulings.md keeps the unit full instead of empty.
    game = JACKPOT.new(players, seed=2)
    writers = Counter(text.rsplit(" by ", 1)[1] for text in game.rule_dispenser.loaded)
    assert writers == Counter({f"Player {seat}": 1 for seat in range(1, 9)})


def test_r17_written_rules_are_shuffled_into_the_dispenser():
    game = JACKPOT.new(3, seed=2, options=RULES)
    assert sorted(game.rule_dispenser.loaded) == sorted(RULES.rule_cards)


def test_r17_used_cards_go_back_in_when_the_dispenser_is_empty():
    game = jackpot_table()
    play(game, "play red-jackpot", "lever everyone")  # 4 players, 3 cards
    assert game.rule_dispenser.loaded == []
    assert len(game.rule_dispenser.used) == 3
    game2 = jackpot_table()
    events = play(game2, "play red-jackpot", "lever left")
    assert len(performed(events)) == 1 and len(game2.rule_dispenser.used) == 1


def test_r17_every_player_performs_even_when_cards_run_short_the_used_come_back():
    game = jackpot_table(options=TableOptions(rule_cards=("Sing", "Hop")))
    events = play(game, "play red-jackpot", "lever everyone")
    assert [seat for seat, _ in performed(events)] == [0, 1]  # two cards, four players
    assert EventKind.NO_RULE_CARD in kinds(events)


def test_r17_the_rule_card_limits():
    with pytest.raises(ValueError, match="8 rule cards"):
        JACKPOT.new(3, seed=1, options=TableOptions(rule_cards=("x",) * 9))
    with pytest.raises(ValueError, match="R17"):
        find_variant("classic").new(3, seed=1, options=TableOptions(rule_cards=("x",)))


# -- R18: the lever ------------------------------------------------------------------------


def test_r18_a_jackpot_pulls_the_lever():
    game = jackpot_table()
    play(game, "play red-jackpot")
    assert game.phase is Phase.LEVER and game.to_act == 0
    assert legal(game)[:7] == ["lever"] + [f"lever {o.value}" for o in LeverOutcome]


def test_r18_jackpot_matches_color_or_another_jackpot():
    game = position("wild-jackpot", ["blue-jackpot red-1", "blue-2"], "green-jackpot",
                    color="green")
    assert game.is_legal("play blue-jackpot")
    game = position("wild-jackpot", ["blue-jackpot red-1", "blue-2"], "green-5")
    assert not game.is_legal("play blue-jackpot")


def test_r18_the_random_lever_is_fair_and_seeded():
    seen: Counter[LeverOutcome] = Counter()
    for seed in range(600):
        game = jackpot_table(seed=seed)
        events = play(game, "play red-jackpot", "lever")
        lever = next(e for e in events if e.kind is EventKind.LEVER)
        seen[next(o for o in LeverOutcome if o.words == lever.note)] += 1
    assert set(seen) == set(LeverOutcome)
    assert all(70 <= n <= 130 for n in seen.values()), seen  # about 100 each (R18)
    again = [texts(play(jackpot_table(seed=7), "play red-jackpot", "lever")) for _ in range(2)]
    assert again[0] == again[1]


def test_r18_choose_any_player_even_yourself():
    game = jackpot_table()
    play(game, "play red-jackpot", "lever choose")
    assert game.phase is Phase.CHOOSE and legal(game) == ["choose 0", "choose 1", "choose 2",
                                                          "choose 3"]
    events = play(game, "choose 0")
    assert [seat for seat, _ in performed(events)] == [0]
    assert performed(events)[0][1] in RULES.rule_cards
    assert game.to_act == 1 and game.phase is Phase.TURN


@pytest.mark.parametrize("direction", [1, -1])
def test_r18_right_and_left_do_not_follow_the_direction(direction):
    for outcome, seat in (("right", 3), ("left", 1)):
        game = jackpot_table(direction=direction)
        events = play(game, "play red-jackpot", f"lever {outcome}")
        assert [s for s, _ in performed(events)] == [seat]  # R1: left is clockwise
        assert game.to_act == (0 + direction) % 4


def test_r18_everyone_performs_starting_with_the_lever_player():
    game = jackpot_table(options=TableOptions(rule_cards=("a", "b", "c", "d", "e", "f")),
                         direction=-1)
    events = play(game, "play red-jackpot", "lever everyone")
    assert [s for s, _ in performed(events)] == [0, 3, 2, 1]
    assert game.to_act == 3


def test_r18_draw_four():
    game = jackpot_table()
    play(game, "play red-jackpot", "lever draw4")
    assert len(game.hands[0]) == 9 and game.to_act == 1


def test_r18_discard_one_card_of_each_color_actions_hit_the_next_player():
    game = jackpot_table()
    play(game, "play red-jackpot", "lever discard")
    assert game.phase is Phase.DISCARD
    assert legal(game) == ["discard red-1", "discard blue-skip", "discard green-draw2",
                           "discard yellow-2", "done"]
    events = play(game, "discard blue-skip", "discard green-draw2")
    assert "discard blue-3" not in legal(game)  # no second card of a color
    with pytest.raises(UnplayableCardError, match="R18"):
        game.apply("discard wild")
    events += play(game, "done")
    assert hand(game, 1) == "blue-2 blue-3 blue-4 blue-5"  # drew 2
    assert game.to_act == 2  # and lost the turn
    assert game.current_color is Color.GREEN and game.top_card is card("green-draw2")
    assert rules(events).count("R18") >= 3


def test_r18_discard_ends_by_itself_when_no_color_is_left():
    game = jackpot_table(hands=("red-jackpot red-1 blue-2 wild", "blue-3", "green-3 green-4",
                                "yellow-3"))
    play(game, "play red-jackpot", "lever discard", "discard red-1", "discard blue-2")
    assert game.phase is Phase.TURN and game.to_act == 1 and hand(game, 0) == "wild"
    assert game.uno_owed == (0,)


def test_r18_going_out_by_discarding_a_draw_two_still_draws():
    game = jackpot_table(hands=("red-jackpot red-1 green-draw2", "blue-3 blue-2",
                                "green-3 green-4", "yellow-3"))
    play(game, "play red-jackpot", "lever discard", "discard red-1", "discard green-draw2")
    assert game.is_over and game.winner == 0
    assert len(game.hands[1]) == 4  # R5
    assert game.hand_result().points == {1: 2 + 3 + 4 + 5, 2: 7, 3: 3}


def test_r18_a_reverse_discarded_turns_play_before_the_next_player_is_hit():
    game = jackpot_table(hands=("red-jackpot red-reverse blue-skip yellow-2", "blue-3",
                                "green-3 green-4", "yellow-3"))
    play(game, "play red-jackpot", "lever discard", "discard red-reverse", "discard blue-skip",
         "done")
    assert game.direction == -1 and game.to_act == 2  # Dan (on the right) skipped


def test_r18_wild_jackpot_names_a_color_and_pulls_the_lever():
    game = jackpot_table(hands=("wild-jackpot red-1 blue-2", "blue-3", "green-3", "yellow-3"))
    play(game, "play wild-jackpot yellow")
    assert game.phase is Phase.LEVER and game.current_color is Color.YELLOW


def test_r18_a_jackpot_as_last_card_ends_the_hand():
    game = jackpot_table(hands=("red-jackpot", "blue-3", "green-3", "yellow-3"))
    play(game, "play red-jackpot")
    assert game.is_over and game.winner == 0


# -- R19: the first card -----------------------------------------------------------------------


def test_r19_first_skip_skips_the_player_left_of_dealer():
    assert deal("wild-jackpot", HANDS, "red-skip", DRAW).to_act == 2


def test_r19_first_reverse_dealer_plays_first_counter_clockwise():
    game = deal("wild-jackpot", HANDS, "red-reverse", DRAW, dealer=2)
    assert game.to_act == 2 and game.direction == -1


def test_r19_first_draw_two():
    game = deal("wild-jackpot", HANDS, "red-draw2", DRAW)
    assert len(game.hands[1]) == 9 and game.to_act == 2


def test_r19_first_wild_player_left_of_dealer_names_the_color():
    game = deal("wild-jackpot", HANDS, "wild", DRAW)
    assert game.phase is Phase.NAME_COLOR and game.to_act == 1


def test_r19_first_wild_draw4_goes_back():
    game = deal("wild-jackpot", HANDS, "wild-draw4", "blue-5 " + DRAW.replace("blue-5 ", ""))
    assert game.top_card is card("blue-5")
    returned = [e.rule for e in game.opening_events if e.kind is EventKind.RETURNED]
    assert returned and set(returned) == {"R19"}  # it may come up again: back it goes


def test_r19_first_jackpot_chooser_then_plays():
    game = deal("wild-jackpot", HANDS, "green-jackpot", DRAW, options=RULES)
    assert game.phase is Phase.CHOOSE and game.to_act == 1
    events = play(game, "choose 3")
    assert [s for s, _ in performed(events)] == [3] and rules(events)[0] == "R19"
    assert game.phase is Phase.TURN and game.to_act == 1
    assert game.current_color is Color.GREEN


def test_r19_first_wild_jackpot_chooser_then_names_color_then_plays():
    game = deal("wild-jackpot", HANDS, "wild-jackpot", DRAW, options=RULES)
    play(game, "choose 1")
    assert game.phase is Phase.NAME_COLOR and game.to_act == 1
    play(game, "color red")
    assert game.phase is Phase.TURN and game.to_act == 1 and game.current_color is Color.RED


# -- R20: Wild Draw Four, R21: scores ------------------------------------------------------------


def test_r20_challenge_penalties():
    game = position("wild-jackpot", ["wild-draw4 red-1 blue-1", "blue-2 blue-3"], "red-5",
                    "green-1 green-2 green-3 green-4 green-5 green-6 green-7")
    play(game, "play wild-draw4 green")
    events = play(game, "challenge")
    assert len(game.hands[0]) == 6 and "R20" in rules(events)


def test_r21_scores():
    game = position("wild-jackpot", ["red-1", "blue-jackpot wild-jackpot red-skip blue-7"],
                    "red-5")
    play(game, "play red-1")
    assert game.hand_result().points == {1: 40 + 50 + 20 + 7}


def test_rule_card_event_text():
    game = jackpot_table(options=TableOptions(rule_cards=("Sing a song",)))
    events = play(game, "play red-jackpot", "lever left")
    assert texts(events)[2] == (
        f"{NAMES[1]} must perform the rule card \u201cSing a song\u201d "
        "(R18; wild-jackpot sheet, Wild Jackpot Lever)")


def test_lever_outcome_replays_from_the_log():
    game = jackpot_table(seed=11)
    play(game, "play red-jackpot", "lever")
    again = type(game).replay(game.to_json(), game.history)
    assert again.to_json() == game.to_json()


def test_the_engine_never_uses_the_global_generator():
    random.seed(1)
    state = random.getstate()
    play(jackpot_table(seed=3), "play red-jackpot", "lever", *(["lever"] * 0))
    JACKPOT.new(4, seed=3)
    assert random.getstate() == state
