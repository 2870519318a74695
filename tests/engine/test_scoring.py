"""Scoring modes as pure functions over hands: R15 (a-d), R32, R37."""

import json
from functools import reduce

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    HandOutcome,
    ScoringError,
    ScoringMode,
    Standings,
    end_game,
    new_standings,
    score_game,
    score_hand,
    score_hands,
)

STANDARD = ScoringMode.STANDARD
LOWEST = ScoringMode.LOWEST_WINS
PARTNERS = ScoringMode.PARTNERS
CHALLENGE = ScoringMode.CHALLENGE
TALLY = ScoringMode.WIN_TALLY


def H(went_out, **held):
    """A hand: who went out, and what each other seat held (``s1=30`` for seat 1)."""
    return HandOutcome(went_out, {int(k[1:]): v for k, v in held.items()})


# -- R15a: standard ------------------------------------------------------------


def test_r15a_winner_scores_every_opponents_cards():
    s = score_game(STANDARD, 3, [H(0, s1=30, s2=12)], target=500)
    assert s.totals == (42, 0, 0)
    assert s.hands[0].points == {0: 42}
    assert s.hands[0].totals == (42, 0, 0)
    assert not s.finished
    assert s.winners == ()


def test_r15a_totals_add_up_over_hands():
    s = score_game(STANDARD, 3, [H(0, s1=30, s2=12), H(2, s0=5, s1=20), H(0, s1=1, s2=2)], 500)
    assert s.totals == (45, 0, 25)
    assert [h.number for h in s.hands] == [1, 2, 3]
    assert [h.went_out for h in s.hands] == [0, 2, 0]


@pytest.mark.parametrize(
    "scored, finished",
    [(98, False), (99, False), (100, True), (101, True), (250, True)],
)
def test_r15a_game_ends_when_a_total_reaches_the_target(scored, finished):
    s = score_game(STANDARD, 2, [H(1, s0=scored)], target=100)
    assert s.finished is finished
    assert s.winners == ((1,) if finished else ())


def test_r15a_winner_exactly_at_the_target():
    s = score_game(STANDARD, 3, [H(1, s0=60, s2=39), H(1, s0=1, s2=0)], target=100)
    assert s.totals == (0, 100, 0)
    assert s.finished
    assert s.winners == (1,)
    assert s.decided_at == 2
    assert s.to_go(1) == 0


def test_r15a_one_point_below_the_target_plays_on():
    s = score_game(STANDARD, 3, [H(1, s0=60, s2=39)], target=100)
    assert s.totals == (0, 99, 0)
    assert not s.finished
    assert s.decided_at is None
    assert s.to_go(1) == 1
    assert s.to_go(0) == 100


def test_r15a_default_style_target_500():
    hands = [H(0, s1=250), H(0, s1=249)]
    assert not score_game(STANDARD, 2, hands, target=500).finished
    assert score_game(STANDARD, 2, hands + [H(0, s1=1)], target=500).winners == (0,)


def test_r15a_leaders_have_the_most_points():
    s = score_game(STANDARD, 3, [H(0, s1=10, s2=10), H(2, s0=10, s1=10)], target=500)
    assert s.leaders == (0, 2)


def test_no_leaders_before_the_first_hand():
    assert new_standings(STANDARD, 3, 500).leaders == ()


def test_zero_points_hand_is_fine():
    s = score_game(STANDARD, 2, [H(0, s1=0)], target=500)
    assert s.totals == (0, 0)
    assert len(s.hands) == 1


# -- play on past the target (issue 2: the sheets' "play again") -----------------


def test_play_on_keeps_the_winner_and_the_totals_go_on():
    hands = [H(1, s0=100, s2=0), H(0, s1=50, s2=80)]
    s = score_game(STANDARD, 3, hands, target=100)
    assert s.winners == (1,)
    assert s.decided_at == 1
    assert s.totals == (130, 100, 0)  # seat 0 now leads but seat 1 won
    assert s.leaders == (0,)


def test_play_on_in_lowest_wins_keeps_the_first_result():
    hands = [H(0, s1=100, s2=10), H(1, s0=80, s2=0)]
    s = score_game(LOWEST, 3, hands, target=100)
    assert s.winners == (0,)
    assert s.decided_at == 1
    assert s.totals == (80, 100, 10)


def test_play_on_in_a_win_tally_with_a_target():
    s = score_game(TALLY, 2, [H(0), H(0), H(1), H(1), H(1)], target=2)
    assert s.winners == (0,)
    assert s.decided_at == 2
    assert s.totals == (2, 3)


def test_editing_a_hand_reopens_a_finished_game():
    # Standings are recomputed from the hands, so fixing a hand undoes a win.
    won = score_game(STANDARD, 2, [H(0, s1=60), H(0, s1=40)], target=100)
    fixed = score_game(STANDARD, 2, [H(0, s1=60), H(0, s1=39)], target=100)
    undone = score_game(STANDARD, 2, [H(0, s1=60)], target=100)
    assert won.finished
    assert not fixed.finished
    assert not undone.finished


def test_score_game_is_score_hand_hand_by_hand():
    hands = [H(0, s1=30, s2=12), H(2, s0=5, s1=20), H(1, s0=50, s2=400)]
    folded = reduce(score_hand, hands, new_standings(CHALLENGE, 3, 100))
    assert score_game(CHALLENGE, 3, hands, 100) == folded


# -- R15b: lowest wins -----------------------------------------------------------


def test_r15b_everyone_is_charged_what_they_hold():
    s = score_game(LOWEST, 3, [H(0, s1=30, s2=12)], target=500)
    assert s.totals == (0, 30, 12)
    assert s.hands[0].points == {0: 0, 1: 30, 2: 12}


def test_r15b_when_anyone_reaches_the_target_the_lowest_total_wins():
    hands = [H(0, s1=60, s2=10), H(1, s0=20, s2=50), H(2, s0=30, s1=40)]
    s = score_game(LOWEST, 3, hands, target=100)
    assert s.totals == (50, 100, 60)
    assert s.winners == (0,)  # not the player who went out last
    assert s.decided_at == 3


def test_r15b_below_the_target_nobody_wins_yet():
    s = score_game(LOWEST, 3, [H(0, s1=99, s2=10)], target=100)
    assert not s.finished
    assert s.leaders == (0,)


def test_r15b_tie_for_lowest_shares_the_win():
    s = score_game(LOWEST, 3, [H(0, s1=100, s2=0)], target=100)
    assert s.totals == (0, 100, 0)
    assert s.winners == (0, 2)


def test_r15b_leaders_have_the_fewest_points():
    s = score_game(LOWEST, 3, [H(0, s1=10, s2=5), H(2, s0=5, s1=1)], target=500)
    assert s.totals == (5, 11, 5)
    assert s.leaders == (0, 2)


# -- R15c: partners ----------------------------------------------------------------


def test_r15c_team_scores_both_opponents_hands():
    s = score_game(PARTNERS, 4, [H(0, s1=30, s3=12)], target=500)
    assert s.hands[0].points == {0: 42}
    assert s.totals == (42, 0, 42, 0)


def test_r15c_partners_cards_are_ignored():
    s = score_game(PARTNERS, 4, [H(0, s1=30, s2=99, s3=12)], target=500)
    assert s.totals == (42, 0, 42, 0)


def test_r15c_either_partner_going_out_adds_to_the_shared_total():
    s = score_game(PARTNERS, 4, [H(0, s1=10, s3=5), H(2, s1=20, s3=1), H(3, s0=7, s2=8)], 500)
    assert s.totals == (36, 15, 36, 15)
    assert s.team_of(0) == s.team_of(2) == (0, 2)
    assert s.team_of(1) == s.team_of(3) == (1, 3)


def test_r15c_both_partners_win():
    s = score_game(PARTNERS, 4, [H(3, s0=50, s2=50)], target=100)
    assert s.totals == (0, 100, 0, 100)
    assert s.winners == (1, 3)
    assert s.leaders == (1, 3)


def test_r15c_partners_sit_across_by_default():
    assert new_standings(PARTNERS, 4, 500).teams == ((0, 2), (1, 3))


def test_r15c_table_chosen_teams():
    s = score_game(PARTNERS, 4, [H(0, s2=10, s3=5)], target=500, teams=[(0, 1), (2, 3)])
    assert s.totals == (15, 15, 0, 0)


def test_r15c_a_missing_opponent_is_refused():
    with pytest.raises(ScoringError, match="3"):
        score_game(PARTNERS, 4, [H(0, s1=30)], target=500)


@pytest.mark.parametrize("seats", [2, 3, 5, 6, 10])
def test_r15c_partners_needs_exactly_four_players(seats):
    with pytest.raises(ScoringError, match="4"):
        new_standings(PARTNERS, seats, 500)


@pytest.mark.parametrize(
    "teams",
    [
        [(0, 1, 2), (3,)],
        [(0,), (1, 2, 3)],
        [(0, 2), (0, 2)],
        [(0, 2), (1, 4)],
        [(0, 2)],
        [(0,), (1,), (2, 3)],
        [(0, 2), (1, 3), ()],
    ],
)
def test_r15c_teams_must_be_two_pairs_covering_the_table(teams):
    with pytest.raises(ScoringError, match="two teams of two"):
        new_standings(PARTNERS, 4, 500, teams)


# -- R15d: Challenge UNO -----------------------------------------------------------


def test_r15d_charged_like_lowest_wins():
    s = score_game(CHALLENGE, 3, [H(0, s1=30, s2=12)], target=100)
    assert s.totals == (0, 30, 12)
    assert s.eliminated == frozenset()
    assert not s.finished


def test_r15d_reaching_the_target_exactly_eliminates():
    s = score_game(CHALLENGE, 4, [H(0, s1=100, s2=99, s3=0)], target=100)
    assert s.eliminated == {1}
    assert s.hands[0].eliminated == {1}
    assert s.active == (0, 2, 3)
    assert not s.finished


def test_r15d_several_eliminated_in_one_hand():
    s = score_game(CHALLENGE, 4, [H(0, s1=100, s2=150, s3=10)], target=100)
    assert s.eliminated == {1, 2}
    assert s.active == (0, 3)
    assert not s.finished


def test_r15d_eliminated_seats_are_out_of_later_hands():
    s = score_game(CHALLENGE, 4, [H(0, s1=100, s2=5, s3=5)], target=100)
    after = score_hand(s, H(2, s0=10, s3=10))  # seat 1 is no longer an opponent
    assert after.totals == (10, 100, 5, 15)
    assert after.hands[-1].eliminated == frozenset()
    with pytest.raises(ScoringError):
        score_hand(s, H(1, s0=10, s2=10, s3=10))
    with pytest.raises(ScoringError):
        score_hand(s, H(2, s0=10, s1=10, s3=10))


def test_r15d_head_to_head_goes_on_while_both_are_below_the_target():
    hands = [H(0, s1=100, s2=150, s3=10), H(3, s0=99)]
    s = score_game(CHALLENGE, 4, hands, target=100)
    assert s.active == (0, 3)
    assert s.totals == (99, 100, 150, 10)
    assert not s.finished


def test_r15d_head_to_head_winner_is_the_last_one_below_the_target():
    hands = [H(0, s1=100, s2=150, s3=10), H(3, s0=99), H(3, s0=1)]
    s = score_game(CHALLENGE, 4, hands, target=100)
    assert s.eliminated == {0, 1, 2}
    assert s.hands[-1].eliminated == {0}
    assert s.winners == (3,)
    assert s.decided_at == 3
    assert s.finished


def test_r15d_two_player_game_is_head_to_head_from_the_start():
    s = score_game(CHALLENGE, 2, [H(0, s1=60), H(1, s0=70), H(0, s1=40)], target=100)
    assert s.winners == (0,)
    assert s.eliminated == {1}


def test_r15d_one_hand_eliminating_all_but_one_decides_the_game():
    s = score_game(CHALLENGE, 3, [H(0, s1=100, s2=200)], target=100)
    assert s.eliminated == {1, 2}
    assert s.winners == (0,)
    assert s.decided_at == 1


def test_r15d_one_hand_eliminating_all_but_one_of_many():
    s = score_game(CHALLENGE, 6, [H(4, s0=500, s1=500, s2=500, s3=500, s5=500)], target=500)
    assert s.winners == (4,)
    assert s.active == (4,)


def test_r15d_no_hand_after_the_game_is_won():
    s = score_game(CHALLENGE, 3, [H(0, s1=100, s2=200)], target=100)
    with pytest.raises(ScoringError, match="over"):
        score_hand(s, H(0))


def test_r15d_leaders_are_among_those_still_playing():
    s = score_game(CHALLENGE, 3, [H(0, s1=100, s2=50), H(2, s0=60)], target=100)
    assert s.totals == (60, 100, 50)
    assert s.leaders == (2,)


# -- R32, R37: win tally -----------------------------------------------------------


def test_r32_each_hand_gives_its_winner_one_win():
    s = score_game(TALLY, 3, [H(0), H(1), H(0)], target=None)
    assert s.totals == (2, 1, 0)
    assert [h.points for h in s.hands] == [{0: 1}, {1: 1}, {0: 1}]


def test_r32_an_open_tally_never_ends_by_itself():
    s = score_game(TALLY, 3, [H(0)] * 20, target=None)
    assert s.totals == (20, 0, 0)
    assert not s.finished
    assert s.to_go(0) is None


def test_r37_tally_to_a_target_number_of_wins():
    s = score_game(TALLY, 3, [H(0), H(1), H(1), H(0), H(1)], target=3)
    assert s.winners == (1,)
    assert s.decided_at == 5
    assert s.to_go(0) == 1


def test_r32_end_game_closes_an_open_tally_with_the_leader():
    s = end_game(score_game(TALLY, 3, [H(0), H(1), H(0)], target=None))
    assert s.finished
    assert s.winners == (0,)
    assert s.decided_at == 3


def test_r32_end_game_with_a_tie_shares_the_win():
    s = end_game(score_game(TALLY, 3, [H(0), H(2)], target=None))
    assert s.winners == (0, 2)


def test_end_game_before_any_hand_is_refused():
    with pytest.raises(ScoringError):
        end_game(new_standings(TALLY, 3, None))


def test_end_game_leaves_a_finished_game_alone():
    s = score_game(TALLY, 2, [H(1)], target=1)
    assert end_game(s) == s


def test_end_game_in_lowest_wins_picks_the_lowest():
    s = end_game(score_game(LOWEST, 3, [H(0, s1=10, s2=20)], target=500))
    assert s.winners == (0,)


# -- bad input -----------------------------------------------------------------------


ALL_MODES = [STANDARD, LOWEST, PARTNERS, CHALLENGE, TALLY]
POINT_MODES = [STANDARD, LOWEST, PARTNERS, CHALLENGE]


def _fresh(mode):
    return new_standings(mode, 4, None if mode is TALLY else 500)


def test_scoring_error_is_a_value_error():
    assert issubclass(ScoringError, ValueError)


@pytest.mark.parametrize("mode", ALL_MODES, ids=lambda m: m.value)
@pytest.mark.parametrize("seat", [-1, 4, 9])
def test_unknown_seat_cannot_go_out(mode, seat):
    with pytest.raises(ScoringError, match=str(seat)):
        score_hand(_fresh(mode), HandOutcome(seat, {0: 1, 1: 1, 2: 1, 3: 1}))


@pytest.mark.parametrize("mode", POINT_MODES, ids=lambda m: m.value)
@pytest.mark.parametrize("seat", [-1, 4, 9])
def test_unknown_seat_cannot_hold_cards(mode, seat):
    with pytest.raises(ScoringError, match=str(seat)):
        score_hand(_fresh(mode), HandOutcome(0, {1: 5, 2: 5, 3: 5, seat: 5}))


@pytest.mark.parametrize("mode", POINT_MODES, ids=lambda m: m.value)
@pytest.mark.parametrize("points", [-1, -50, 1.5, 10.0, "12", None, True, False])
def test_points_must_be_whole_numbers_zero_or_more(mode, points):
    with pytest.raises(ScoringError, match="whole numbers"):
        score_hand(_fresh(mode), HandOutcome(0, {1: points, 2: 5, 3: 5}))


@pytest.mark.parametrize("mode", [STANDARD, LOWEST, CHALLENGE], ids=lambda m: m.value)
def test_a_missing_opponent_is_refused(mode):
    with pytest.raises(ScoringError, match=r"missing.*\[2\]"):
        score_hand(new_standings(mode, 3, 500), H(0, s1=10))


@pytest.mark.parametrize("mode", POINT_MODES, ids=lambda m: m.value)
def test_a_refused_hand_changes_nothing(mode):
    before = score_game(mode, 4, [H(0, s1=5, s2=5, s3=5)], 500)
    with pytest.raises(ScoringError):
        score_hand(before, H(0, s1=-5, s2=5, s3=5))
    assert before == score_game(mode, 4, [H(0, s1=5, s2=5, s3=5)], 500)


@pytest.mark.parametrize("seats", [0, 1, -3])
def test_a_game_needs_two_players(seats):
    with pytest.raises(ScoringError, match="2 players"):
        new_standings(STANDARD, seats, 500)


@pytest.mark.parametrize("target", [0, -1, -500])
def test_the_target_must_be_positive(target):
    with pytest.raises(ScoringError, match="target"):
        new_standings(STANDARD, 3, target)


@pytest.mark.parametrize("mode", POINT_MODES, ids=lambda m: m.value)
def test_a_scored_game_needs_a_target(mode):
    with pytest.raises(ScoringError, match="target"):
        new_standings(mode, 4, None)


def test_scoring_modes_have_stable_names_and_labels():
    assert [m.value for m in ScoringMode] == [
        "standard", "lowest-wins", "partners", "challenge", "win-tally",
    ]
    assert all(m.label for m in ScoringMode)
    assert [m.uses_points for m in ALL_MODES] == [True, True, True, True, False]
    assert [m.charges_holder for m in ALL_MODES] == [False, True, False, True, False]


# -- continuing a score sheet: standings from given totals ------------------------------


@pytest.mark.parametrize("mode, seats, target, start, hands, totals, winners", [
    (STANDARD, 3, 500, [450, 100, 0], [H(0, s1=30, s2=25)], (505, 100, 0), (0,)),
    (LOWEST, 3, 500, [450, 100, 0], [H(1, s0=60, s2=5)], (510, 100, 5), (2,)),
    (PARTNERS, 4, 500, [480, 200, 480, 200], [H(2, s1=10, s3=15)], (505, 200, 505, 200),
     (0, 2)),
    (CHALLENGE, 3, 500, [490, 0, 100], [H(1, s0=20, s2=400)], (510, 0, 500), (1,)),
    (TALLY, 2, 3, [2, 1], [H(0)], (3, 1), (0,)),
])
def test_a_game_can_start_from_the_scores_so_far(mode, seats, target, start, hands, totals,
                                                   winners):
    s = score_game(mode, seats, hands, target, totals=start)
    assert s.totals == totals
    assert s.winners == winners
    assert s.decided_at == 1


@pytest.mark.parametrize("mode, seats, start, leaders", [
    (STANDARD, 2, [0, 0], ()), (LOWEST, 2, [10, 0], (1,)), (CHALLENGE, 3, [40, 0, 0], (1, 2)),
    (TALLY, 2, [1, 0], (0,)),
])
def test_starting_scores_rank_the_players_before_any_hand(mode, seats, start, leaders):
    s = new_standings(mode, seats, 500, totals=start)
    assert s.hands == () and s.totals == tuple(start)
    assert s.leaders == leaders


@pytest.mark.parametrize("mode, seats, start, message", [
    (STANDARD, 2, [500, 0], "below the target"),
    (CHALLENGE, 3, [0, 600, 0], "below the target"),
    (STANDARD, 3, [1, 2], "all 3 seats"),
    (STANDARD, 2, [-5, 0], "0 or more"),
    (STANDARD, 2, [True, 0], "whole numbers"),
    (PARTNERS, 4, [10, 0, 20, 0], "same starting score"),
])
def test_impossible_starting_scores_are_refused(mode, seats, start, message):
    with pytest.raises(ScoringError, match=message):
        new_standings(mode, seats, 500, totals=start)


# -- ranking: who is where, for the scoreboard ------------------------------------------


@pytest.mark.parametrize("mode, seats, hands, target, ranking", [
    (STANDARD, 3, [H(1, s0=20, s2=20)], 500, ((1, 1), (2, 0), (2, 2))),
    (STANDARD, 3, [H(2, s0=300, s1=250)], 500, ((1, 2), (2, 0), (2, 1))),
    (LOWEST, 3, [H(0, s1=30, s2=10)], 500, ((1, 0), (2, 2), (3, 1))),
    (PARTNERS, 4, [H(1, s0=10, s2=15)], 500, ((1, 1), (1, 3), (3, 0), (3, 2))),
    (TALLY, 3, [H(2), H(2), H(0)], None, ((1, 2), (2, 0), (3, 1))),
    # Challenge: the players left by points charged, then the eliminated, last out first.
    (CHALLENGE, 4, [H(0, s1=60, s2=10, s3=5), H(0, s2=45, s3=5)], 50,
     ((1, 0), (2, 3), (3, 2), (4, 1))),
    # A finished game puts its winner first, whatever the totals.
    (CHALLENGE, 3, [H(0, s1=60, s2=60)], 50, ((1, 0), (2, 1), (2, 2))),
])
def test_ranking_puts_the_best_first_and_ties_share_a_place(mode, seats, hands, target, ranking):
    assert score_game(mode, seats, hands, target).ranking() == ranking


def _dealer_by_replay(standings: Standings, first: int) -> int:
    """The next dealer as R1 and R15d say it, passing the deal once per hand."""
    dealer, out = first, frozenset[int]()
    for hand in standings.hands:
        out = out | hand.eliminated
        dealer = next((dealer + k) % standings.seats for k in range(1, standings.seats + 1)
                      if (dealer + k) % standings.seats not in out)
    if dealer in out:
        dealer = next((dealer + k) % standings.seats for k in range(1, standings.seats + 1)
                      if (dealer + k) % standings.seats not in out)
    return dealer


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 6), st.lists(st.tuples(st.integers(0, 5), st.lists(
    st.sampled_from([0, 10, 40, 90]), min_size=6, max_size=6)), max_size=30), st.data())
def test_standings_stored_and_carried_on_score_as_from_the_start(seats, hands, data):
    # Challenge UNO: eliminations change who deals and who is scored.
    outcomes, standings = [], new_standings(ScoringMode.CHALLENGE, seats, 150)
    for out, held in hands:
        if standings.finished:
            break
        out = standings.active[out % len(standings.active)]
        outcome = HandOutcome(out, {s: held[s] for s in standings.active if s != out})
        standings = score_hand(standings, outcome)
        outcomes.append(outcome)
    for first in range(seats):
        assert standings.next_dealer(first) == _dealer_by_replay(standings, first)
    # Stored after any hand, read back and carried on: the same standings.
    cut = data.draw(st.integers(0, len(outcomes)))
    stored = score_game(ScoringMode.CHALLENGE, seats, outcomes[:cut], 150).to_dict()
    carried = score_hands(Standings.from_dict(json.loads(json.dumps(stored))), outcomes[cut:])
    assert carried.to_dict() == standings.to_dict()
    assert carried.hands == standings.hands[cut:]
    assert all(carried.score_of(n) == standings.hands[n - 1]
               for n in range(cut + 1, len(outcomes) + 1))
    assert carried.score_of(cut) is None or cut == 0


def scoring_fingerprint() -> str:
    """A digest of everything a stored game's score follows: each variant's card points
    (with and without blank cards) and its default target, and what each mode makes of
    a fixed run of hands at every seat count it takes."""
    import hashlib
    import random

    from engine import VARIANTS, TableOptions

    seen: list[object] = []
    for variant in VARIANTS:
        seen.append((variant.name, variant.default_target, variant.has_points(),
                     [m.value for m in variant.scoring_modes]))
        for options in (TableOptions(), TableOptions(blank_cards=2, blank_value=35)):
            deck = variant.deck_counts(options) if variant.has_points() else {}
            seen.append(sorted((c.text, variant.hand_points([c], options)) for c in deck))
    rng = random.Random(20261126)
    for mode in ScoringMode:
        for seats in range(2, 11):
            if mode is ScoringMode.PARTNERS and seats != 4:
                continue
            target = None if mode is ScoringMode.WIN_TALLY else 200
            s = new_standings(mode, seats, target)
            for _ in range(40):
                if s.finished:
                    break
                out = rng.choice(s.active)
                held = {p: rng.choice([0, 3, 9, 20, 50]) for p in s.scored_seats(out) if p != out}
                s = score_hand(s, HandOutcome(out, held))
            seen.append((mode.value, seats, s.totals, s.winners, s.finished,
                         s.next_dealer(0), sorted(s.active)))
    return hashlib.sha256(repr(seen).encode()).hexdigest()[:16]


#: What each scoring revision scores (engine.SCORING_REVISION): a stored standing is
#: trusted across versions of the app only while this holds.
FINGERPRINTS = {1: "836e4f3fd867ac2a"}


def test_scoring_revision_covers_what_scoring_does():
    from engine import SCORING_REVISION
    assert scoring_fingerprint() == FINGERPRINTS[SCORING_REVISION], (
        "scoring changed: bump engine.SCORING_REVISION and pin the new fingerprint, so "
        "games stored under the old one are scored again")
