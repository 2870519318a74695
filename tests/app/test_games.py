"""Games: home page, new-game form, scoreboard, winner screen, rematch, play on, end, delete."""

from __future__ import annotations

import json

import pytest

import engine

WIN_250 = "wild wild-dip wild-draw2 red-skip yellow-skip green-skip blue-skip red-draw1"


def test_home_page_without_games(table, client):
    response = client.get("/")
    assert response.status_code == 200
    assert "/games/new" in dict(table.links(response))
    assert "No game in progress." in table.text(response)
    assert "No finished game yet." in table.text(response)


def test_home_page_lists_games_in_progress_and_finished(table, client):
    open_game = table.create_game(["Ann", "Bob", "Cy"])
    won = table.create_game(["Dee", "Eve"], "pizza-pizza")
    table.record(won, 0, {1: WIN_250})
    table.record(open_game, 1, {0: 10, 2: 5})

    home = table.page(client.get("/"))
    lists = {table.text(section.h2): section for section in home.select("main section")}
    in_progress, finished = lists["In progress"], lists["Finished"]
    assert in_progress.select(f'a[href="/games/{open_game}"]')
    assert "Ann, Bob, Cy" in table.text(in_progress)
    assert "· leading: Bob" in table.text(in_progress)
    assert finished.select(f'a[href="/games/{won}"]') and "Won by Dee" in table.text(finished)


def test_new_game_form_defaults_to_classic(table, client):
    response = client.get("/games/new")
    page = table.page(response)
    assert response.status_code == 200
    for variant in engine.VARIANTS:
        assert page.select(f'option[value="{variant.name}"]')
    assert page.select('option[value="classic"][selected]')
    assert len(page.select('[name="player"]')) == 10
    assert table.field(response, "target") == "500"
    assert page.select('[name="blank_cards"]')


@pytest.mark.parametrize("variant, seats, target", [
    ("classic", "2 to 10 players", "500"),
    ("wild-jackpot", "2 to 10 players", "500"),
    ("pizza-pizza", "2 to 5 players", "250"),
    ("one", "2 to 10 players", ""),
    ("star-wars", "2 to 10 players", "500"),
])
def test_new_game_form_follows_the_variant(table, client, variant, seats, target):
    response = client.get(f"/games/new?variant={variant}")
    assert response.status_code == 200
    assert table.page(response).select(f'option[value="{variant}"][selected]')
    assert seats in table.text(response)
    assert table.field(table.html(response), "target") == target


def test_new_game_htmx_refresh_on_variant_change(table, client):
    # The <select> asks for the variant's part of the form, with the values typed so far.
    response = client.get(
        "/games/new?shown_variant=classic&variant=pizza-pizza&player=Ann&player=Bob"
        "&target=500&mode=standard&dealer=1",
        headers={"HX-Request": "true", "HX-Target": "variant-settings"})
    page = table.page(response)
    assert response.status_code == 200
    assert "<html" not in table.html(response)
    assert "Pizza Pizza is for 2 to 5 players." in table.text(response)
    assert table.field(response, "target") == "250"  # the new variant's own default
    assert not page.select('[name="blank_cards"]')  # classic's table cards only
    # Seats do not depend on the variant: none in the part, so typed names stay.
    assert not page.select('[name="player"], [name="dealer"]')


def test_new_game_refresh_keeps_a_typed_target_for_the_same_variant(table, client):
    response = client.get("/games/new?shown_variant=classic&variant=classic&target=300")
    assert table.field(table.html(response), "target") == "300"


@pytest.mark.parametrize("variant, mode, players, target, stored_target", [
    ("classic", "standard", ["Ann", "Bob", "Cy"], "", 500),
    ("classic", "lowest-wins", ["Ann", "Bob"], "200", 200),
    ("classic", "partners", ["Ann", "Bob", "Cy", "Dee"], "", 500),
    ("classic", "challenge", ["Ann", "Bob", "Cy"], "300", 300),
    ("classic", "win-tally", ["Ann", "Bob"], "5", 5),
    ("wild-jackpot", "standard", ["Ann", "Bob"], "", 500),
    ("pizza-pizza", "standard", ["Ann", "Bob", "Cy", "Dee", "Eve"], "", 250),
    ("one", "win-tally", ["Ann", "Bob", "Cy"], "", None),
    ("star-wars", "standard", ["Ann", "Bob"], "", 500),
])
def test_create_game_stores_the_game_and_its_seats(table, variant, mode, players, target,
                                                   stored_target):
    game_id = table.create_game(players, variant, mode=mode, target=target, dealer="1")
    (game,) = table.rows("select variant, mode, target, dealer from games where id = ?", [game_id])
    assert game == (variant, mode, stored_target, 1)
    seats = table.rows("select seat, name from players where game_id = ? order by seat", [game_id])
    assert seats == list(enumerate(players))
    board = table.scoreboard(game_id)
    assert table.next_dealer(board) == 1
    assert table.totals(board) == (0,) * len(players)


def test_create_game_keeps_classic_table_cards(table):
    game_id = table.create_game(blank_cards="2", blank_value="30", wild_swap="1")
    (options,) = table.rows("select options from games where id = ?", [game_id])[0]
    assert json.loads(options) | {"blank_cards": 2, "blank_value": 30, "wild_swap": True} \
        == json.loads(options)


def test_create_game_trims_names_and_trailing_empty_seats(table):
    game_id = table.create_game(["  Ann  Lee ", "Bob", "", ""])
    assert table.rows("select name from players where game_id = ? order by seat", [game_id]) \
        == [("Ann Lee",), ("Bob",)]


@pytest.mark.parametrize("variant, players, fields, message", [
    ("classic", ["Ann", "ann"], {}, "Two players have the same name"),
    ("classic", ["Ann", "Bob", "  ANN "], {}, "Two players have the same name"),
    ("classic", ["Ann", "", "Bob"], {}, "Every seat needs a name"),
    ("classic", ["   ", "Bob"], {}, "Every seat needs a name"),
    ("classic", ["A" * 41, "Bob"], {}, "Names can be at most 40 characters."),
    ("classic", ["Ann"], {}, "UNO (classic) is for 2 to 10 players; you entered 1."),
    ("classic", [], {}, "UNO (classic) is for 2 to 10 players; you entered 0."),
    ("classic", [f"P{i}" for i in range(11)], {}, "is for 2 to 10 players; you entered 11."),
    ("pizza-pizza", [f"P{i}" for i in range(6)], {}, "is for 2 to 5 players; you entered 6."),
    ("classic", ["Ann", "Bob", "Cy"], {"mode": "partners"},
     "Partners is played by exactly 4 players"),
    ("one", ["Ann", "Bob"], {"mode": "standard"}, "One is kept as: Count wins"),
    ("classic", ["Ann", "Bob"], {"mode": "darts"}, "Choose a scoring mode from the list."),
    ("uno-flip", ["Ann", "Bob"], {}, "Choose one of the five variants."),
    ("classic", ["Ann", "Bob"], {"target": "0"}, "The target must be between 1 and 100000."),
    ("classic", ["Ann", "Bob"], {"target": "-50"}, "The target must be between 1 and 100000."),
    ("classic", ["Ann", "Bob"], {"target": "five hundred"}, "The target must be a whole number."),
    ("classic", ["Ann", "Bob"], {"target": "²"}, "The target must be a whole number."),
    ("classic", ["Ann", "Bob"], {"dealer": "2"}, "The dealer must be between 0 and 1."),
    ("classic", ["Ann", "Bob"], {"dealer": "first"}, "The dealer must be a whole number."),
    ("classic", ["Ann", "Bob"], {"blank_cards": "5"}, "Blank cards must be between 0 and 4."),
    ("classic", ["Ann", "Bob"], {"blank_cards": "4", "wild_swap": "1"},
     "classic takes 0-4 table cards in all"),
    ("classic", ["Ann", "Bob"], {"blank_value": "-10"},
     "A blank card's value must be between 0 and 10000."),
])
def test_create_game_refuses_bad_input(table, client, variant, players, fields, message):
    before = table.counts()
    form = table.new_game_form(players, "classic", **fields)
    response = client.post("/games", data={**form, "variant": variant})
    assert response.status_code == 400
    assert message in table.text(response)
    assert table.page(response).select('.errors[role="alert"]')
    assert table.counts() == before


def test_create_game_refused_form_keeps_what_was_typed(table, client):
    form = table.new_game_form(["Ann", "Bob", "ann"], target="300")
    response = client.post("/games", data=form)
    page = table.page(response)
    assert response.status_code == 400
    assert page.select('input[value="Ann"]') and page.select('input[value="ann"]')
    assert table.field(response, "target") == "300"


def test_create_game_twice_from_one_form_stores_one_game(table, client):
    form = table.new_game_form(["Ann", "Bob"])
    assert client.post("/games", data=form).status_code == 303
    before = table.counts()
    again = client.post("/games", data=form)
    assert again.status_code == 409
    assert "already submitted" in table.text(again)
    assert table.counts() == before == {"games": 1, "players": 2, "hands": 0, "holdings": 0}


def test_scoreboard_shows_standings_target_dealer_and_leader(table, client):
    game_id = table.create_game(["Ann", "Bob", "Cy"], dealer="2")
    board = table.scoreboard(game_id)
    assert "to 500" in table.text(board) and "0 hands played" in table.text(board)
    assert table.next_dealer(board) == 2
    assert (f"/games/{game_id}/hands/new", "Record hand 1") in table.links(board)
    assert "Undo last hand" not in table.text(board)

    table.record(game_id, 1, {0: "red-9", 2: "wild"})
    board = table.scoreboard(game_id)
    assert table.totals(board) == (0, 59, 0)
    assert "1 hand played" in table.text(board)
    assert table.badged(board, "leads") == [1]
    assert table.shows(board, '<td class="num">441</td>')  # Bob's points still to go
    assert table.next_dealer(board) == 0
    assert "Record hand 2" in table.text(board)
    assert "Undo last hand" in table.text(board)


def test_scoreboard_of_an_unknown_game_is_not_found(table, client):
    response = client.get("/games/99")
    assert response.status_code == 404
    assert "There is no such game" in table.text(response)


def test_winner_exactly_at_target_ends_the_game(table, client):
    game_id = table.create_game(["Ann", "Bob"], "pizza-pizza")
    review = table.review(game_id, 0, {1: WIN_250})
    assert "Ann wins the game with this hand." in table.text(review)
    table.save(review)

    board = table.scoreboard(game_id)
    assert table.totals(board) == (250, 0)
    assert table.page(board).select("#winner") and "Ann wins!" in table.text(board)
    assert table.badged(board, "winner") == [0]
    assert "Rematch, same seats" in table.text(board)
    assert "Keep playing past the target" in table.text(board)
    assert "Record hand 2" not in table.text(board)
    assert client.get(f"/games/{game_id}/hands/new").status_code == 409


def test_play_on_keeps_the_winner_and_takes_more_hands(table, client):
    game_id = table.create_game(["Ann", "Bob"], "pizza-pizza")
    table.record(game_id, 0, {1: WIN_250})
    response = table.submit(table.scoreboard(game_id), f"/games/{game_id}/play-on")
    assert response.status_code == 303

    board = table.scoreboard(game_id)
    assert "the table played on" in table.text(board)
    assert "Keep playing past the target" not in table.text(board)
    assert table.record(game_id, 1, {0: WIN_250 + " red-9"}).status_code == 303
    board = table.scoreboard(game_id)
    assert table.totals(board) == (250, 259)
    assert table.badged(board, "winner") == [0]
    assert "Ann wins!" in table.text(board)
    assert "Record hand 3" in table.text(board)


@pytest.mark.parametrize("finish", [False, True])
def test_play_on_is_refused_unless_the_game_has_just_been_won(table, finish):
    game_id = table.create_game(["Ann", "Bob"], "pizza-pizza")
    if finish:
        table.record(game_id, 0, {1: WIN_250})
        table.post(f"/games/{game_id}/play-on")
    response = table.post(f"/games/{game_id}/play-on")
    assert response.status_code == 409
    assert "This game cannot go on past its end." in table.text(response)
    assert table.rows("select play_on from games") == [(int(finish),)]


def test_end_an_open_tally_the_leader_wins(table, client):
    game_id = table.create_game(["Ann", "Bob", "Cy"], "one")
    board = table.scoreboard(game_id)
    assert "End game" not in table.text(board)
    refused = table.post(f"/games/{game_id}/end")
    assert refused.status_code == 409
    assert "Play at least one hand before ending the game." in table.text(refused)

    table.record(game_id, 2)
    table.record(game_id, 1)
    table.record(game_id, 2)
    board = table.scoreboard(game_id)
    assert table.totals(board) == (0, 1, 2)
    assert "End game: the leader wins" in table.text(board)
    confirm = client.get(f"/games/{game_id}/end")  # asks first
    assert "The leader wins: Cy" in table.text(confirm)
    response = table.submit(confirm, f"/games/{game_id}/end")
    assert response.status_code == 303

    board = table.scoreboard(game_id)
    assert "Cy wins!" in table.text(board)
    assert "Keep playing past the target" not in table.text(board)
    assert "Won by Cy" in table.text(client.get("/"))
    assert client.get(f"/games/{game_id}/hands/new").status_code == 409
    again = table.post(f"/games/{game_id}/end")
    assert again.status_code == 409 and "This game is already over." in table.text(again)

    # Ending is undone by reopening: the tally goes on.
    table.submit(table.scoreboard(game_id), f"/games/{game_id}/reopen")
    board = table.scoreboard(game_id)
    assert "Cy wins!" not in table.text(board) and "Record hand 4" in table.text(board)
    assert table.post(f"/games/{game_id}/reopen").status_code == 409


def test_only_an_open_tally_can_be_ended_by_hand(table):
    game_id = table.create_game(["Ann", "Bob"], "classic")
    table.record(game_id, 0, {1: 30})
    refused = table.post(f"/games/{game_id}/end")
    assert refused.status_code == 409
    assert "ends when someone reaches its target" in table.text(refused)
    assert table.rows("select ended_at from games") == [(None,)]


def test_ended_tally_whose_hands_are_all_undone_is_open_again(table):
    game_id = table.create_game(["Ann", "Bob"], "one")
    table.record(game_id, 1)
    table.post(f"/games/{game_id}/end")
    assert "Bob wins!" in table.text(table.scoreboard(game_id))
    table.submit(table.scoreboard(game_id), f"/games/{game_id}/hands/undo")
    board = table.scoreboard(game_id)
    assert "Record hand 1" in table.text(board)


def test_rematch_needs_a_finished_game(table):
    game_id = table.create_game(["Ann", "Bob"], "classic")
    before = table.counts()
    refused = table.post(f"/games/{game_id}/rematch")
    assert refused.status_code == 409
    assert table.counts() == before


def test_rematch_starts_a_new_game_with_the_same_seats(table, client):
    game_id = table.create_game(["Ann", "Bob", "Cy"], "classic", mode="lowest-wins",
                                target="100", dealer="2", blank_cards="1")
    table.record(game_id, 0, {1: 100, 2: 40})
    response = table.submit(table.scoreboard(game_id), f"/games/{game_id}/rematch")
    assert response.status_code == 303
    new_id = int(response.headers["Location"].rsplit("/", 1)[1])
    assert new_id != game_id

    old, new = table.rows("select variant, mode, target, options, rematch_of, dealer from games "
                          "order by id")
    assert new[:4] == old[:4] and new[4] == game_id
    assert new[5] == 0  # the deal moves on one seat
    names = "select name from players where game_id = ? order by seat"
    assert table.rows(names, [new_id]) == table.rows(names, [game_id])
    board = table.scoreboard(new_id)
    assert table.totals(board) == (0, 0, 0)
    assert "Record hand 1" in table.text(board)
    assert "Ann wins!" in table.text(table.scoreboard(game_id))  # the old one stays won


def test_rematch_twice_from_one_page_starts_one_game(table, client):
    # A double tap on "Rematch" must not start two games (a duplicate submission).
    game_id = table.create_game(["Ann", "Bob"], "pizza-pizza")
    table.record(game_id, 0, {1: WIN_250})
    board = table.scoreboard(game_id)
    assert table.submit(board, f"/games/{game_id}/rematch").status_code == 303
    before = table.counts()
    again = table.submit(board, f"/games/{game_id}/rematch")
    assert again.status_code == 409
    assert "already submitted" in table.text(again)
    assert table.counts() == before


def test_delete_game_asks_first(table, client):
    game_id = table.create_game(["Ann", "Bob"])
    response = client.get(f"/games/{game_id}/delete")
    assert response.status_code == 200
    assert "Delete this game?" in table.text(response)
    assert "UNO (classic) with Ann, Bob, 0 hand(s)." in table.text(response)
    assert (f"/games/{game_id}", "Keep it") in table.links(response)
    assert table.rows("select deleted_at from games") == [(None,)]


def test_delete_game_then_undo_from_the_home_page(table, client):
    game_id = table.create_game(["Ann", "Bob"])
    table.record(game_id, 0, {1: 30})
    response = table.submit(client.get(f"/games/{game_id}/delete"), f"/games/{game_id}/delete")
    assert response.status_code == 303
    assert response.headers["Location"] == f"/?deleted={game_id}"

    home = client.get(response.headers["Location"])
    assert "Game deleted." in table.text(home)
    assert f"/games/{game_id}" not in dict(table.links(home))
    assert client.get(f"/games/{game_id}").status_code == 404
    assert client.get(f"/games/{game_id}/hands").status_code == 404
    assert table.counts() == {"games": 1, "players": 2, "hands": 1, "holdings": 1}

    undo = table.submit(home, f"/games/{game_id}/restore")
    assert undo.status_code == 303
    assert table.totals(table.scoreboard(game_id)) == (30, 0)
    assert f"/games/{game_id}" in dict(table.links(client.get("/")))
    assert "Game deleted." not in table.text(client.get(f"/?deleted={game_id}"))


@pytest.mark.parametrize("method, url", [
    ("get", "/games/9/delete"),
    ("post", "/games/9/delete"),
    ("post", "/games/9/restore"),
    ("post", "/games/9/rematch"),
    ("post", "/games/9/play-on"),
    ("post", "/games/9/end"),
])
def test_game_routes_for_an_unknown_game_are_not_found(table, client, method, url):
    response = client.get(url) if method == "get" else table.post(url)
    assert response.status_code == 404
    assert "There is no such game" in table.text(response)
    assert table.counts()["games"] == 0
