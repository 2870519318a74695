"""Bad input on hands, finished or unknown games, duplicate forms and CSRF: each gets a clear
message where the user is, a 4xx status, and nothing stored."""

from __future__ import annotations

import pytest

WIN_250 = "wild wild-dip wild-draw2 red-skip yellow-skip green-skip blue-skip red-draw1"

#: (variant, fields beside out=0 for Ann, the message the picker shows).
BAD_HANDS = [
    ("classic", {"pts-1": "-5", "pts-2": "0"}, "Points for Bob must be between 0 and 10000."),
    ("classic", {"pts-1": "10001", "pts-2": "0"}, "Points for Bob must be between 0 and 10000."),
    ("classic", {"pts-1": "9" * 5000, "pts-2": "0"},
     "Points for Bob must be between 0 and 10000."),
    ("classic", {"pts-1": "ten", "pts-2": "0"}, "Points for Bob must be a whole number."),
    ("classic", {"pts-1": "1.5", "pts-2": "0"}, "Points for Bob must be a whole number."),
    ("classic", {"pts-1": "²", "pts-2": "0"}, "Points for Bob must be a whole number."),
    ("classic", {"pts-1": "0", "pts-2": "-0x10"}, "Points for Cy must be a whole number."),
    ("classic", {"cards-1": "red-7 purple-7", "pts-2": "0"},
     "Bob: 'purple-7' is not a card (write them like red-7, r7, b-skip, g+2, wild or wd4)."),
    ("classic", {"cards-2": "wild-draw9", "pts-1": "0"}, "Cy: 'wild-draw9' is not a card"),
    ("classic", {"cards-1": "red-jackpot", "pts-2": "0"},
     "Bob: red-jackpot is not in the UNO (classic) deck."),
    ("classic", {"cards-1": "blank", "pts-2": "0"}, "Bob: blank is not in the UNO (classic) deck."),
    ("classic", {"cards-1": "wild-droid", "pts-2": "0"},
     "Bob: wild-droid is not in the UNO (classic) deck."),
    ("pizza-pizza", {"cards-1": "red-0", "pts-2": "0"},
     "Bob: red-0 is not in the UNO Pocket Pizza Pizza deck."),
    ("star-wars", {"cards-2": "wild-jackpot", "pts-1": "0"},
     "Cy: wild-jackpot is not in the UNO Star Wars deck."),
    ("classic", {"cards-1": "red-0 r0", "pts-2": "0"}, "Bob: The deck has only 1 red-0."),
    ("classic", {"cards-1": "wd4 " * 5, "pts-2": "0"}, "Bob: The deck has only 4 wild-draw4."),
    ("classic+blanks", {"cards-1": "blank blank blank", "pts-2": "0"},
     "Bob: The deck has only 2 blank."),
    ("pizza-pizza", {"cards-1": "wild-dip wild-dip", "pts-2": "0"},
     "Bob: The deck has only 1 wild-dip."),
    ("classic", {"cards-1": "x" * 3000, "pts-2": "0"}, "Bob: That is more cards than a deck holds."),
    ("classic", {"cards-1": "red-0", "cards-2": "red-0"},
     "The deck has only 1 red-0; 2 were entered in all."),
    ("classic", {"cards-1": "wild wild wild", "cards-2": "w w"},
     "The deck has only 4 wild; 5 were entered in all."),
    ("wild-jackpot", {"cards-1": "red-jackpot " * 3, "cards-2": "red-jackpot red-jackpot"},
     "The deck has only 4 red-jackpot; 5 were entered in all."),
    ("classic", {"cards-1": "red-7", "pts-1": "7", "pts-2": "0"},
     "For Bob, tap cards or type a total, not both."),
    ("classic", {"pts-1": "4"}, "Enter Cy's cards, or type their total (0 is fine)."),
    ("classic", {}, "Enter Bob's cards, or type their total (0 is fine)."),
]


def start(table, variant):
    """A game for Ann, Bob and Cy in ``variant`` ("classic+blanks": two blank cards)."""
    if variant == "classic+blanks":
        return table.create_game(blank_cards="2")
    return table.create_game(["Ann", "Bob", "Cy"], variant)


@pytest.mark.parametrize("variant, fields, message", BAD_HANDS)
def test_bad_hand_is_refused_on_the_picker(table, variant, fields, message):
    game_id = start(table, variant)
    before = table.counts()
    # Refused at review, and at save too (a form sent without going through review).
    for url in (f"/games/{game_id}/hands/review", f"/games/{game_id}/hands"):
        response = table.post(url, {"out": "0", "submission": "once", **fields})
        assert response.status_code == 400
        assert message in table.text(response)
        assert table.page(response).select('.errors[role="alert"]')
        assert "Hand 1: Ann went out" in table.text(response)  # still on the picker
        assert response.headers["Cache-Control"] == "no-store"
        assert table.counts() == before


def test_refused_hand_keeps_what_was_entered(table):
    game_id = table.create_game()
    response = table.review(game_id, 0, {1: "red-7 red-7 red-7", 2: 9})
    assert response.status_code == 400
    assert table.held(table.html(response), 1)["red-7"] == 3
    assert table.field(table.html(response), "pts-2") == "9"


@pytest.mark.parametrize("out", [None, "", "3", "-1", "Ann", "1e0"])
def test_hand_without_a_valid_player_out_asks_who_went_out(table, out):
    game_id = table.create_game()
    before = table.counts()
    fields = {"pts-1": "5", "pts-2": "5", **({} if out is None else {"out": out})}
    for url in (f"/games/{game_id}/hands/review", f"/games/{game_id}/hands"):
        response = table.post(url, fields)
        assert response.status_code == 400
        assert "Choose who went out." in table.text(response)
        assert table.out_buttons(response) == ["Ann", "Bob", "Cy"]
        assert table.counts() == before


def finished_pizza(table):
    game_id = table.create_game(["Ann", "Bob"], "pizza-pizza")
    table.record(game_id, 0, {1: WIN_250})
    return game_id


def finished_challenge(table):
    game_id = table.create_game(["Ann", "Bob"], mode="challenge", target="50")
    table.record(game_id, 0, {1: 50})
    return game_id


def ended_tally(table):
    game_id = table.create_game(["Ann", "Bob"], "one")
    table.record(game_id, 0)
    table.post(f"/games/{game_id}/end")
    return game_id


@pytest.mark.parametrize("finish", [finished_pizza, finished_challenge, ended_tally])
def test_hand_on_a_finished_game_is_refused(table, client, finish):
    game_id = finish(table)
    before = table.counts()
    url = f"/games/{game_id}/hands"
    for response in (client.get(f"{url}/new"), client.get(f"{url}/new?out=1"),
                     table.post(f"{url}/review", {"out": "1", "pts-0": "5"}),
                     table.post(url, {"out": "1", "pts-0": "5"})):
        assert response.status_code == 409
        assert "This game is over: no more hands can be recorded." in table.text(response)
    assert table.counts() == before


def test_hand_on_a_deleted_game_is_refused(table, client):
    game_id = table.create_game()
    table.post(f"/games/{game_id}/delete")
    before = table.counts()
    url = f"/games/{game_id}/hands"
    fields = table.hand_fields(0, {1: 5, 2: 5})
    for response in (client.get(f"{url}/new"), table.post(f"{url}/review", fields),
                     table.post(url, fields)):
        assert response.status_code == 404
        assert "There is no such game. It may have been deleted." in table.text(response)
    assert table.counts() == before


def test_new_hand_saved_twice_from_one_review_is_stored_once(table):
    game_id = table.create_game()
    review = table.review(game_id, 0, {1: "red-7", 2: 3})
    assert table.save(review).status_code == 303
    before = table.counts()
    again = table.save(review)
    assert again.status_code == 409
    assert "This form was already submitted: nothing was saved twice." in table.text(again)
    assert table.counts() == before == {"games": 1, "players": 3, "hands": 1, "holdings": 2}
    assert table.totals(table.scoreboard(game_id)) == (10, 0, 0)


def test_edit_saved_twice_from_one_review_is_refused_the_second_time(table):
    game_id = table.create_game()
    table.record(game_id, 0, {1: "red-7", 2: 3})
    (hand_id,) = table.hand_ids(game_id)
    review = table.review(game_id, 1, {0: 8, 2: 4}, hand_id=hand_id)
    assert table.save(review).status_code == 303
    before = table.snapshot()
    again = table.save(review)
    assert again.status_code == 409
    assert "This form was already submitted" in table.text(again)
    assert table.snapshot() == before


def test_new_hand_resent_after_an_edit_is_still_a_duplicate(table):
    # Editing a hand must not make the form that first saved it count as new again.
    game_id = table.create_game()
    first = table.review(game_id, 0, {1: "red-7", 2: 3})
    table.save(first)
    (hand_id,) = table.hand_ids(game_id)
    table.record(game_id, 0, {1: "red-8", 2: 3}, hand_id=hand_id)
    before = table.counts()
    again = table.save(first)
    assert again.status_code == 409
    assert table.counts() == before
    assert table.hand_ids(game_id) == [hand_id]


def test_stale_edit_resent_after_a_later_edit_changes_nothing(table):
    game_id = table.create_game()
    table.record(game_id, 0, {1: "red-7", 2: 3})
    (hand_id,) = table.hand_ids(game_id)
    older = table.review(game_id, 0, {1: "red-8", 2: 3}, hand_id=hand_id)
    table.save(older)
    table.record(game_id, 0, {1: "red-9", 2: 3}, hand_id=hand_id)
    before = table.snapshot()
    again = table.save(older)
    assert again.status_code == 409
    assert table.snapshot() == before
    assert table.totals(table.scoreboard(game_id)) == (12, 0, 0)


# -- CSRF -------------------------------------------------------------------------------

POSTS = [
    "/games", "/games/{g}/play-on", "/games/{g}/end", "/games/{g}/rematch",
    "/games/{g}/delete", "/games/{g}/restore", "/games/{g}/hands/preview",
    "/games/{g}/hands/draft/discard", "/games/{g}/hands/review", "/games/{g}/hands",
    "/games/{g}/hands/{h}/review", "/games/{g}/hands/{h}", "/games/{g}/hands/{h}/delete",
    "/games/{g}/hands/undo", "/games/{g}/hands/{gone}/restore",
]


@pytest.fixture
def busy_table(table, client):
    """A game with a live hand, a deleted hand and a draft: something for every form to change."""
    game_id = table.create_game(["Ann", "Bob", "Cy"], "one")
    table.record(game_id, 0)
    table.record(game_id, 1)
    live, gone = table.hand_ids(game_id)
    table.post(f"/games/{game_id}/hands/{gone}/delete")
    table.post(f"/games/{game_id}/hands/preview", {"out": "2"})
    assert table.drafts(game_id) == 1
    return {"g": game_id, "h": live, "gone": gone}


def refused(table, client, url, form, headers=None):
    """POST ``form`` to ``url`` and check it is refused as expired, changing nothing."""
    before = table.snapshot()
    response = client.post(url, data=form, headers=headers or {})
    assert response.status_code == 400
    assert "This page has expired" in table.text(response)
    assert "without a valid security token" in table.text(response)
    assert table.snapshot() == before


@pytest.mark.parametrize("path", POSTS)
def test_post_without_a_token_is_refused(table, client, busy_table, path):
    form = {**table.new_game_form(["Dee", "Eve"]), "out": "2", "hand_id": "0"}
    del form["csrf_token"]
    refused(table, client, path.format(**busy_table), form)


@pytest.mark.parametrize("path", ["/games", "/games/{g}/hands", "/games/{g}/delete"])
@pytest.mark.parametrize("token", ["wrong", "wrong header", "another session's"])
def test_post_with_a_wrong_token_is_refused(app, table, client, busy_table, path, token):
    form = {**table.new_game_form(["Dee", "Eve"]), "out": "2", "hand_id": "0"}
    headers = {}
    if token == "wrong":
        form["csrf_token"] = "not-the-token"
    elif token == "wrong header":
        del form["csrf_token"]
        headers = {"HX-Request": "true", "X-CSRF-Token": "not-the-token"}
    else:
        form["csrf_token"] = type(table)(app.test_client()).token()
    refused(table, client, path.format(**busy_table), form, headers)


def test_a_token_of_other_characters_is_refused_not_a_crash(table, client, busy_table):
    # hmac.compare_digest refuses non-ASCII text with a TypeError: it was a 500 on every
    # POST (issue 18).
    form = {**table.new_game_form(["Dee", "Eve"]), "out": "2", "hand_id": "0"}
    for path in [*POSTS, "/referee/next", "/referee/replay", "/games/{g}/jackpot/spins",
                 "/jackpot", "/games/{g}/seat"]:
        refused(table, client, path.format(**busy_table),
                {**form, "csrf_token": "é" + table.token()[1:]})
        refused(table, client, path.format(**busy_table),
                {k: v for k, v in form.items() if k != "csrf_token"},
                {"HX-Request": "true", "X-CSRF-Token": "\u00e9t\u00e9"})


def test_post_from_a_browser_that_never_loaded_a_page_is_refused(app, table, busy_table):
    stranger = app.test_client()
    before = table.snapshot()
    response = stranger.post(f"/games/{busy_table['g']}/delete", data={"csrf_token": ""})
    assert response.status_code == 400
    assert table.snapshot() == before


def test_the_htmx_header_token_is_accepted(table, client, busy_table):
    response = client.post(f"/games/{busy_table['g']}/hands/undo",
                           data={"hand_id": table.hand_ids(busy_table["g"])[-1]},
                           headers={"X-CSRF-Token": table.token()})
    assert response.status_code == 303


def test_a_wrong_method_says_which_ones_the_address_takes(table, client):
    response = client.put("/games/new", headers={"X-CSRF-Token": table.token()})
    assert response.status_code == 405
    assert set(response.headers["Allow"].replace(" ", "").split(",")) >= {"GET", "POST"}
    assert "That address does not take this kind of request." in table.text(response)


def test_a_number_in_any_address_sqlite_cannot_hold_is_a_4xx(app, table):
    # Every route's number (a game, a hand, a seat, a dealt card's place) given 2^64, the
    # others real: a 4xx, never SQLite's OverflowError as a 500.
    from werkzeug.routing import IntegerConverter

    game = table.create_game(["Ann", "Bob", "Cy"], "wild-jackpot")
    token = table.token()
    tried = []
    for rule in app.url_map.iter_rules():
        numbers = [name for name, converter in rule._converters.items()
                   if isinstance(converter, IntegerConverter)]
        for huge in numbers:
            values = {name: (2**64 if name == huge else game if name == "game_id" else 1)
                      for name in rule.arguments}
            path = rule.build(values, append_unknown=False)[1]
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                response = table.client.open(path, method=method, data={"csrf_token": token})
                assert 400 <= response.status_code < 500, (method, path, response.status_code)
                tried.append(path)
    assert any("/seats/" in path for path in tried)
