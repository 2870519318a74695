"""Every variant and every scoring mode, played through the app from the first hand to the end."""

from __future__ import annotations

import pytest

WIN_250 = "wild wild-dip wild-draw2 red-skip yellow-skip green-skip blue-skip red-draw1"

#: (variant, new-game fields, cards Bob is caught with, their points, how the picker shows one).
VARIANT_HANDS = [
    ("classic", {}, "red-7 blue-skip wild", 77, '<span class="chip blue" title="blue-skip"><span class="cue">B</span> Skip</span>'),
    ("classic", {"blank_cards": "2", "blank_value": "30"}, "blank blank wild-swap", 110,
     '<span class="chip black" title="blank">Blank</span>'),
    ("wild-jackpot", {}, "red-jackpot", 40, '<span class="chip red" title="red-jackpot"><span class="cue">R</span> Jackpot</span>'),
    ("wild-jackpot", {}, "blue-jackpot wild-jackpot green-2", 92,
     '<span class="chip black" title="wild-jackpot">Wild Jackpot</span>'),
    ("pizza-pizza", {}, "red-draw1 wild-dip wild-draw2 blue-9", 129,
     '<span class="chip red" title="red-draw1"><span class="cue">R</span> +1</span>'),
    ("star-wars", {}, "wild-droid red-3", 53, '<span class="chip black" title="wild-droid">Build a Droid</span>'),
]


@pytest.mark.parametrize("variant, fields, cards, points, chip", VARIANT_HANDS)
def test_each_variant_scores_its_own_cards_to_the_end(table, client, variant, fields, cards,
                                                      points, chip):
    game_id = table.create_game(["Ann", "Bob"], variant, **fields)
    picker = table.page(client.get(f"/games/{game_id}/hands/new?out=0"))
    for card in cards.split():
        assert picker.select('#card-grid')[0].select(f'[data-card="{card}"]')

    review = table.review(game_id, 0, {1: cards})
    assert f"Bob: {points} pts" in table.text(review)
    assert table.shows(review, chip)
    table.save(review)
    board = table.scoreboard(game_id)
    assert table.totals(board) == (points, 0)
    assert table.shows(client.get(f"/games/{game_id}/hands"), chip)
    ((stored, stored_points),) = table.rows("select cards, points from holdings")
    assert sorted(stored.split()) == sorted(cards.split()) and stored_points == points

    target = 250 if variant == "pizza-pizza" else 500
    table.record(game_id, 0, {1: target - points})  # the rest, typed: exactly the target
    board = table.scoreboard(game_id)
    assert table.totals(board) == (target, 0)
    assert "Ann wins!" in table.text(board)
    assert "Rematch, same seats" in table.text(board)


def test_one_is_a_win_tally_ended_by_the_table(table, client):
    game_id = table.create_game(["Ann", "Bob", "Cy"], "one")
    (mode, target) = table.rows("select mode, target from games")[0]
    assert (mode, target) == ("win-tally", None)
    # A tally only asks who went out: no card picker, the buttons post straight to review.
    out = client.get(f"/games/{game_id}/hands/new")
    assert table.out_buttons(out) == ["Ann", "Bob", "Cy"]
    assert table.page(out).select(f'form[method="post"][action="/games/{game_id}/hands/review"]')
    review = table.review(game_id, 1)
    assert "This hand: Bob +1 win" in table.text(review)
    table.save(review)
    table.record(game_id, 1)
    board = table.scoreboard(game_id)
    assert table.totals(board) == (0, 2, 0)
    assert "Wins" in table.text(board) and "To go" not in table.text(board)
    assert "Bob +1 win" in table.text(client.get(f"/games/{game_id}/hands"))
    table.submit(table.client.get(f"/games/{game_id}/end"), f"/games/{game_id}/end")
    assert "Bob wins!" in table.text(table.scoreboard(game_id))


def test_win_tally_to_a_target(table):
    game_id = table.create_game(["Ann", "Bob"], mode="win-tally", target="2")
    assert "to 2 wins" in table.text(table.scoreboard(game_id))
    table.record(game_id, 1)
    table.record(game_id, 0)
    assert not table.page(table.scoreboard(game_id)).select("#winner")
    review = table.review(game_id, 1)
    assert "Bob wins the game with this hand." in table.text(review)
    table.save(review)
    board = table.scoreboard(game_id)
    assert table.totals(board) == (1, 2)
    assert "Bob wins!" in table.text(board)
    assert "Keep playing past the target" in table.text(board)


def test_lowest_score_wins(table):
    game_id = table.create_game(["Ann", "Bob", "Cy"], mode="lowest-wins", target="100")
    review = table.review(game_id, 0, {1: 60, 2: "red-9 blue-9 green-9 yellow-3"})
    assert "This hand: Ann 0, Bob 60, Cy 30" in table.text(review)
    table.save(review)
    board = table.scoreboard(game_id)
    assert table.totals(board) == (0, 60, 30)
    assert table.badged(board, "leads") == [0]

    table.record(game_id, 1, {0: 40, 2: 70})
    board = table.scoreboard(game_id)
    assert table.totals(board) == (40, 60, 100)
    assert "Ann wins!" in table.text(board)  # Cy reached the target; the lowest total wins
    assert table.badged(board, "winner") == [0]


def test_partners_share_a_total(table, client):
    game_id = table.create_game(["Ann", "Bob", "Cy", "Dee"], mode="partners", target="100")
    board = table.scoreboard(game_id)
    standings = table.page(board).select_one("#standings")
    assert "with Cy" in table.text(standings.select_one('tr[data-seat="0"]'))
    assert "with Dee" in table.text(standings.select_one('tr[data-seat="1"]'))
    picker = client.get(f"/games/{game_id}/hands/new?out=0")
    assert table.picker_seats(picker) == [1, 3]  # Cy is Ann's partner: her cards do not count

    table.record(game_id, 0, {1: "wild", 3: "red-5"})
    assert table.totals(table.scoreboard(game_id)) == (55, 0, 55, 0)
    table.record(game_id, 3, {0: 20, 2: 30})
    assert table.totals(table.scoreboard(game_id)) == (55, 50, 55, 50)
    table.record(game_id, 2, {1: 45, 3: 0})
    board = table.scoreboard(game_id)
    assert table.totals(board) == (100, 50, 100, 50)
    assert "Ann & Cy win!" in table.text(board)
    assert table.badged(board, "winner") == [0, 2]


def test_challenge_eliminates_and_the_last_one_standing_wins(table, client):
    game_id = table.create_game(["Ann", "Bob", "Cy"], mode="challenge", target="100")
    review = table.review(game_id, 0, {1: 100, 2: 10})
    assert "Bob out 0 100" in table.text(review)  # eliminated by this hand
    table.save(review)

    board = table.scoreboard(game_id)
    assert table.totals(board) == (0, 100, 10)
    assert table.badged(board, "out") == [1]
    assert table.next_dealer(board) == 2  # Ann dealt; Bob is out, so Cy deals
    out = client.get(f"/games/{game_id}/hands/new")
    assert table.out_buttons(out) == ["Ann", "Cy"]
    picker = client.get(f"/games/{game_id}/hands/new?out=0")
    assert table.picker_seats(picker) == [2]
    assert not table.page(picker).select('[name="new_out"][value="1"]')
    assert "is out of the game" in table.text(client.get(f"/games/{game_id}/hands"))

    refused = table.review(game_id, 1, {0: 5, 2: 5})
    assert refused.status_code == 400
    assert "Choose who went out." in table.text(refused)

    table.record(game_id, 2, {0: 120})
    board = table.scoreboard(game_id)
    assert "Cy wins!" in table.text(board)
    assert table.badged(board, "out") == [0, 1]
    assert "Keep playing past the target" not in table.text(board)
    assert "Rematch, same seats" in table.text(board)
    assert table.post(f"/games/{game_id}/play-on").status_code == 409


def test_challenge_hand_before_an_elimination_can_still_be_edited(table, client):
    # Bob is eliminated in hand 2; in hand 1 he still held cards, and can still be corrected.
    game_id = table.create_game(["Ann", "Bob", "Cy"], mode="challenge", target="100")
    table.record(game_id, 0, {1: 50, 2: 10})
    table.record(game_id, 0, {1: 60, 2: 10})
    first, _ = table.hand_ids(game_id)
    edit = client.get(f"/games/{game_id}/hands/{first}/edit")
    assert table.picker_seats(edit) == [1, 2]
    assert table.field(table.html(edit), "pts-1") == "50"

    assert table.record(game_id, 0, {1: 30, 2: 20}, hand_id=first).status_code == 303
    board = table.scoreboard(game_id)
    assert table.totals(board) == (0, 90, 30)
    assert table.badged(board, "out") == []


@pytest.mark.parametrize("players, dealer, expected", [
    (["Ann", "Bob", "Cy"], "0", [0, 1, 2, 0]),
    (["Ann", "Bob", "Cy"], "1", [1, 2, 0, 1]),
    (["Ann", "Bob", "Cy", "Dee", "Eve"], "4", [4, 0, 1, 2]),
])
def test_the_deal_passes_clockwise(table, players, dealer, expected):
    game_id = table.create_game(players, dealer=dealer)
    seen = [table.next_dealer(table.scoreboard(game_id))]
    for _ in expected[1:]:
        table.record(game_id, 0, {seat: 1 for seat in range(1, len(players))})
        seen.append(table.next_dealer(table.scoreboard(game_id)))
    assert seen == expected
    table.undo(game_id)
    assert table.next_dealer(table.scoreboard(game_id)) == expected[-2]


def test_edit_that_takes_the_winner_below_the_target_reopens_the_game(table, client):
    game_id = table.create_game(["Ann", "Bob"], "pizza-pizza")
    table.record(game_id, 0, {1: WIN_250})
    assert "Won by Ann" in table.text(client.get("/"))
    (hand_id,) = table.hand_ids(game_id)

    assert table.record(game_id, 0, {1: "red-9"}, hand_id=hand_id).status_code == 303
    board = table.scoreboard(game_id)
    assert table.totals(board) == (9, 0)
    assert not table.page(board).select("#winner")
    assert "Record hand 2" in table.text(board)
    assert "No finished game yet." in table.text(client.get("/"))
    assert table.record(game_id, 1, {0: 5}).status_code == 303


def test_edit_that_reaches_the_target_ends_the_game(table):
    game_id = table.create_game(["Ann", "Bob"], "pizza-pizza")
    table.record(game_id, 1, {0: 100})
    (hand_id,) = table.hand_ids(game_id)
    review = table.review(game_id, 1, {0: 300}, hand_id=hand_id)
    assert "Bob wins the game with this hand." in table.text(review)
    table.save(review)
    assert "Bob wins!" in table.text(table.scoreboard(game_id))


def test_edit_is_refused_when_later_hands_no_longer_score(table):
    # Making Bob out in hand 1 would leave hand 2, where he went out, unscorable.
    game_id = table.create_game(["Ann", "Bob", "Cy"], mode="challenge", target="100")
    table.record(game_id, 0, {1: 10, 2: 10})
    table.record(game_id, 1, {0: 10, 2: 10})
    first, _ = table.hand_ids(game_id)
    before = table.snapshot()
    refused = table.review(game_id, 0, {1: 100, 2: 10}, hand_id=first)
    assert refused.status_code == 400
    assert "seat 1 is not playing in this game" in table.text(refused)
    assert {t: v for t, v in table.snapshot().items() if t != "drafts"} == \
        {t: v for t, v in before.items() if t != "drafts"}


def test_restoring_a_hand_that_no_longer_fits_is_refused(table):
    # Hand 1 eliminated Bob; with it deleted, Bob went out in hand 2. Restoring hand 1
    # would have an eliminated player go out.
    game_id = table.create_game(["Ann", "Bob", "Cy"], mode="challenge", target="100")
    table.record(game_id, 0, {1: 100, 2: 10})
    first, = table.hand_ids(game_id)
    table.post(f"/games/{game_id}/hands/{first}/delete")
    table.record(game_id, 1, {0: 10, 2: 10})
    before = table.snapshot()
    refused = table.post(f"/games/{game_id}/hands/{first}/restore")
    assert refused.status_code == 409
    assert "Change or delete the later hands first." in table.text(refused)
    assert table.snapshot() == before


def test_a_tally_hand_is_edited_by_choosing_who_went_out(table, client):
    game_id = table.create_game(["Ann", "Bob"], "one")
    table.record(game_id, 0)
    (hand_id,) = table.hand_ids(game_id)
    edit = client.get(f"/games/{game_id}/hands/{hand_id}/edit")
    assert "Hand 1: who went out?" in table.text(edit)
    assert table.page(edit).select(
        f'form[method="post"][action="/games/{game_id}/hands/{hand_id}/review"]')
    assert table.record(game_id, 1, hand_id=hand_id).status_code == 303
    assert table.totals(table.scoreboard(game_id)) == (0, 1)


# -- carrying on from a score sheet ---------------------------------------------------


@pytest.mark.parametrize("mode, players, start, out, held, totals, winner", [
    ("standard", ["Ann", "Bob", "Cy"], ["450", "", "30"], 0, {1: 30, 2: 25}, (505, 0, 30), "Ann"),
    ("lowest-wins", ["Ann", "Bob", "Cy"], ["450", "100", ""], 1, {0: 60, 2: 5}, (510, 100, 5), "Cy"),
    ("partners", ["Ann", "Bob", "Cy", "Dee"], ["480", "0", "480", "0"], 2, {1: 10, 3: 15},
     (505, 0, 505, 0), "Ann & Cy"),
    ("challenge", ["Ann", "Bob", "Cy"], ["490", "0", "100"], 1, {0: 20, 2: 400},
     (510, 0, 500), "Bob"),
])
def test_a_game_carries_on_from_a_score_sheet(table, client, mode, players, start, out, held,
                                              totals, winner):
    game_id = table.create_game(players, mode=mode, target="500", start=start)
    board = table.scoreboard(game_id)
    assert "carried on from a score sheet" in table.text(board)
    assert table.totals(board) == tuple(int(s or 0) for s in start)
    table.record(game_id, out, held)
    board = table.scoreboard(game_id)
    assert table.totals(board) == totals
    assert f"{winner} win" in table.text(board)


def test_a_tally_carries_on_from_wins_so_far(table):
    game_id = table.create_game(["Ann", "Bob"], "one", target="3", start=["2", "1"])
    table.record(game_id, 0)
    board = table.scoreboard(game_id)
    assert table.totals(board) == (3, 1) and "Ann wins!" in table.text(board)


@pytest.mark.parametrize("fields, message", [
    ({"start": ["500", "0"]}, "A starting score must be below the target"),
    ({"start": ["-3", "0"]}, "between 0 and"),
    ({"start": ["0", "0", "5"]}, "a seat with no player"),
    ({"start": ["x"]}, "must be a whole number"),
    ({"mode": "partners", "player": ["Ann", "Bob", "Cy", "Dee"], "start": ["10", "0", "20", "0"]},
     "same starting score"),
])
def test_impossible_starting_scores_are_refused(table, client, fields, message):
    before = table.counts()
    form = {**table.new_game_form(["Ann", "Bob"]), "target": "500", **fields}
    response = client.post("/games", data=form)
    assert response.status_code == 400
    assert message in table.text(response)
    assert table.counts() == before
