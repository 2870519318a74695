"""Hands: who went out, the card picker, live points, drafts, review and save, history, edit,
delete, undo and restore."""

from __future__ import annotations

import pytest

import engine
from companion import store


def htmx(table):
    """The headers htmx sends: the request marker and the token set on <body>."""
    return {"HX-Request": "true", "X-CSRF-Token": table.token()}


def test_new_hand_asks_who_went_out(table, client, game_id):
    response = client.get(f"/games/{game_id}/hands/new")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    assert "Hand 1: who went out?" in table.text(response)
    assert table.out_buttons(response) == ["Ann", "Bob", "Cy"]


def test_picker_offers_the_variant_deck_for_each_opponent(table, client, game_id):
    response = client.get(f"/games/{game_id}/hands/new?out=1")
    page = table.page(response)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    assert "Hand 1: Bob went out" in table.text(response)
    assert table.picker_seats(response) == [0, 2]
    deck = engine.find_variant("classic").deck_counts(engine.TableOptions(wild_swap=True))
    cells = page.select("#card-grid")[0].select("[data-card][data-max]")
    assert {engine.Card.parse(cell["data-card"]): int(cell["data-max"]) for cell in cells} == deck
    for seat in (0, 2):
        assert page.select(f'input[name="cards-{seat}"]') and page.select(f'[name="pts-{seat}"]')
        assert page.select(f'.grid-slot[data-field="cards-{seat}"]')
    assert not page.select('[name="cards-1"]')  # nothing asked of the one who went out
    assert "jackpot" not in table.markup(response)  # nowhere on the page, attributes included


def test_picker_lets_someone_else_go_out_keeping_the_cards(table, client, game_id):
    picker = client.get(f"/games/{game_id}/hands/new?out=0")
    switch = f"/games/{game_id}/hands/switch"
    # A POST button: the token and the tapped cards never ride in a URL.
    assert table.page(picker).select(f'button[formaction="{switch}"][name="new_out"][value="1"]')
    response = table.post(switch, {"out": "0", "hand_id": "0", "new_out": "1",
                                   "cards-2": "red-7 red-7", "pts-0": "4"})
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game_id}/hands/new"
    assert "csrf" not in response.headers["Location"]
    response = client.get(response.headers["Location"])
    assert "Hand 1: Bob went out" in table.text(response)
    assert table.picker_seats(response) == [0, 2]
    assert table.held(table.html(response), 2)["red-7"] == 2
    assert table.field(table.html(response), "pts-0") == "4"


def test_switching_who_went_out_while_editing_keeps_the_change(table, client, game_id):
    table.record(game_id, 0, {1: "red-7", 2: "blue-2"})
    hand_id = table.hand_ids(game_id)[0]
    response = table.post(f"/games/{game_id}/hands/switch",
                          {"out": "0", "hand_id": str(hand_id), "new_out": "2", "cards-1": "red-9"})
    assert response.headers["Location"] == f"/games/{game_id}/hands/{hand_id}/edit"
    response = client.get(response.headers["Location"])
    assert "Cy went out" in table.text(response)
    assert table.picker_seats(response) == [0, 1]
    assert table.held(table.html(response), 1)["red-9"] == 1


def test_switching_needs_the_token_and_a_real_hand(table, client, game_id):
    before = table.snapshot()
    fields = {"out": "0", "hand_id": "0", "new_out": "1"}
    assert client.post(f"/games/{game_id}/hands/switch", data=fields).status_code == 400
    response = table.post(f"/games/{game_id}/hands/switch", {**fields, "hand_id": "999"})
    assert response.status_code == 404
    assert table.post("/games/999/hands/switch", fields).status_code == 404
    assert table.snapshot() == before


def test_preview_shows_running_points_and_keeps_a_draft(table, client, game_id):
    fields = table.hand_fields(0, {1: "red-7 wild", 2: 12})
    response = client.post(f"/games/{game_id}/hands/preview", data=fields, headers=htmx(table))
    source = table.html(response)
    assert response.status_code == 200
    assert source.lstrip().startswith('<div id="running"')  # the partial only
    assert table.shows(response, '<output id="pts-1" class="pts" hx-swap-oob="true">57</output>')
    assert table.shows(response, '<output id="pts-2" class="pts" hx-swap-oob="true">12</output>')
    assert "Ann scores 69" in table.text(response)
    assert table.drafts(game_id) == 1
    assert table.counts()["hands"] == 0
    # Its address answers as any other (companion/htmx.py): the page the part belongs to,
    # the picker with the entry as sent, for a browser that did not ask for the part.
    page = table.post(f"/games/{game_id}/hands/preview", fields)
    assert page.status_code == 200 and table.page(page).select_one("form#hand-form")
    assert table.field(page, "pts-2") == "12"
    assert table.text(table.page(page).select_one("#running")) == "Bob 57Cy 12"


def test_preview_shows_a_card_problem_while_tapping(table, client, game_id):
    fields = {"out": "0", "cards-1": "red-0", "cards-2": "red-0"}
    response = client.post(f"/games/{game_id}/hands/preview", data=fields, headers=htmx(table))
    assert response.status_code == 200
    assert "The deck has only 1 red-0; 2 were entered in all." in table.text(response)


def test_preview_before_anyone_went_out(table, client, game_id):
    response = client.post(f"/games/{game_id}/hands/preview", data={"cards-1": "red-7"},
                           headers=htmx(table))
    assert response.status_code == 200
    assert not table.page(response).select("output")


def test_draft_comes_back_on_the_new_hand_page(table, client, game_id):
    fields = table.hand_fields(0, {1: "red-7 red-7 wild", 2: 12})
    client.post(f"/games/{game_id}/hands/preview", data=fields, headers=htmx(table))

    back = client.get(f"/games/{game_id}/hands/new")  # the back button, or a reload
    source = table.html(back)
    assert back.status_code == 200
    assert back.headers["Cache-Control"] == "no-store"
    assert "What you entered so far is kept, not yet saved." in table.text(back)
    assert "Hand 1: Ann went out" in table.text(back)
    assert table.held(source, 1)["red-7"] == 2
    assert table.held(source, 1)["wild"] == 1
    assert table.field(source, "pts-2") == "12"
    assert table.shows(back, '<output id="pts-1" class="pts">64</output>')


def test_draft_is_kept_when_going_back_from_review(table, client, game_id):
    assert table.review(game_id, 0, {1: "blue-5", 2: 3}).status_code == 200
    back = client.get(f"/games/{game_id}/hands/new")
    assert "What you entered so far is kept, not yet saved." in table.text(back)
    assert table.held(table.html(back), 1)["blue-5"] == 1


def test_discard_draft_starts_over(table, client, game_id):
    client.post(f"/games/{game_id}/hands/preview", data=table.hand_fields(0, {1: "red-7"}),
                headers=htmx(table))
    response = table.submit(client.get(f"/games/{game_id}/hands/new"),
                            f"/games/{game_id}/hands/draft/discard")
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game_id}/hands/new"
    assert table.drafts(game_id) == 0
    fresh = client.get(f"/games/{game_id}/hands/new")
    assert "What you entered so far is kept, not yet saved." not in table.text(fresh)
    assert table.out_buttons(fresh) == ["Ann", "Bob", "Cy"]


def test_review_shows_the_hand_and_stores_nothing(table, game_id):
    review = table.review(game_id, 0, {1: "red-7 wild", 2: 12})
    page = table.text(review)
    assert review.status_code == 200
    assert review.headers["Cache-Control"] == "no-store"
    assert "Review hand 1" in page and "Ann went out." in page
    assert "Bob: 57 pts R 7 Wild" in page and "Cy: 12 pts (typed)" in page
    assert table.shows(review, '<span class="chip red" title="red-7"><span class="cue">R</span> 7</span>')
    assert "This hand: Ann +69" in page
    assert "Save hand" in page
    assert table.counts()["hands"] == 0


def test_save_stores_cards_and_typed_totals(table, game_id):
    response = table.record(game_id, 0, {1: "red-7 wild red-7", 2: 12})
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game_id}?saved=1"  # "Hand 1 saved"
    held = table.rows("select seat, cards, points, typed from holdings order by seat")
    assert held == [(1, "red-7 red-7 wild", 64, 0), (2, "", 12, 1)]
    assert table.rows("select went_out from hands") == [(0,)]
    assert table.drafts(game_id) == 0
    assert table.totals(table.scoreboard(game_id)) == (76, 0, 0)


def test_history_lists_hands_with_cards_and_points(table, client, game_id):
    table.record(game_id, 0, {1: "red-7 wild", 2: 12})
    table.record(game_id, 2, {0: "blue-skip", 1: 0})
    response = client.get(f"/games/{game_id}/hands")
    page = table.text(response)
    links = dict(table.links(response))
    assert response.status_code == 200
    assert page.index("Hand 2: Cy went out") < page.index("Hand 1: Ann went out")
    assert "Bob held R 7 Wild = 57" in page
    assert "Cy held 12 points (typed)" in page
    assert "+69" in page and "+20" in page
    for hand_id in table.hand_ids(game_id):
        assert f"/games/{game_id}/hands/{hand_id}/edit" in links
        assert f"/games/{game_id}/hands/{hand_id}/delete" in links


def test_history_of_a_game_without_hands(table, client, game_id):
    response = client.get(f"/games/{game_id}/hands")
    assert response.status_code == 200
    assert "No hand recorded yet." in table.text(response)


def test_edit_hand_shows_the_stored_entry(table, client, game_id):
    table.record(game_id, 0, {1: "red-7 red-7", 2: 12})
    (hand_id,) = table.hand_ids(game_id)
    response = client.get(f"/games/{game_id}/hands/{hand_id}/edit")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    assert "Hand 1 (editing): Ann went out" in table.text(response)
    assert table.held(table.html(response), 1)["red-7"] == 2
    assert table.field(table.html(response), "pts-2") == "12"
    assert "What you entered so far is kept, not yet saved." not in table.text(response)


def test_edit_hand_review_and_save(table, client, game_id):
    table.record(game_id, 0, {1: "red-7", 2: 12})
    table.record(game_id, 1, {0: 5, 2: 5})
    first, second = table.hand_ids(game_id)

    review = table.review(game_id, 2, {0: "wild", 1: "green-3"}, hand_id=first)
    assert review.status_code == 200
    assert "Review hand 1" in table.text(review) and "Save changes" in table.text(review)
    assert table.counts() == {"games": 1, "players": 3, "hands": 2, "holdings": 4}

    saved = table.save(review)
    assert saved.status_code == 303
    # The history, at the corrected hand, saying so.
    assert saved.headers["Location"] == f"/games/{game_id}/hands?page=1&saved=1#hand-1"
    assert table.hand_ids(game_id) == [first, second]
    assert table.rows("select went_out from hands where id = ?", [first]) == [(2,)]
    assert table.totals(table.scoreboard(game_id)) == (0, 10, 53)
    assert table.counts() == {"games": 1, "players": 3, "hands": 2, "holdings": 4}


def test_edit_draft_comes_back_and_can_be_discarded(table, client, game_id):
    table.record(game_id, 0, {1: "red-7", 2: 12})
    (hand_id,) = table.hand_ids(game_id)
    fields = {**table.hand_fields(0, {1: "red-7 red-8", 2: 12}), "hand_id": str(hand_id)}
    client.post(f"/games/{game_id}/hands/preview", data=fields, headers=htmx(table))
    assert table.drafts(game_id) == 1

    edit = client.get(f"/games/{game_id}/hands/{hand_id}/edit")
    assert "What you entered so far is kept, not yet saved." in table.text(edit)
    assert table.held(table.html(edit), 1)["red-8"] == 1
    # The new-hand page does not pick up an edit's draft.
    assert "What you entered so far is kept, not yet saved." not in table.text(
        client.get(f"/games/{game_id}/hands/new"))

    response = table.submit(edit, f"/games/{game_id}/hands/draft/discard")
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game_id}/hands/{hand_id}/edit"
    assert table.drafts(game_id) == 0
    assert table.held(table.html(client.get(response.headers["Location"])), 1)["red-8"] == 0


@pytest.mark.parametrize("method, path", [
    ("get", "{hand}/edit"), ("post", "{hand}/review"), ("post", "{hand}"),
    ("get", "{hand}/delete"), ("post", "{hand}/delete"), ("post", "{hand}/restore"),
])
@pytest.mark.parametrize("hand", ["99", "other"])
def test_hand_routes_for_an_unknown_hand_are_not_found(table, client, game_id, method, path,
                                                       hand):
    other = table.create_game(["Dee", "Eve"])
    table.record(other, 0, {1: 9})
    hand_id = table.hand_ids(other)[0] if hand == "other" else 99  # another game's hand
    url = f"/games/{game_id}/hands/" + path.format(hand=hand_id)
    before = table.snapshot()
    response = (client.get(url) if method == "get"
                else table.post(url, table.hand_fields(0, {1: 3, 2: 4})))
    assert response.status_code == 404
    assert "such hand in this game." in table.text(response)
    assert table.snapshot() == before


def test_delete_hand_asks_first(table, client, game_id):
    table.record(game_id, 1, {0: 10, 2: 20})
    (hand_id,) = table.hand_ids(game_id)
    response = client.get(f"/games/{game_id}/hands/{hand_id}/delete")
    assert response.status_code == 200
    assert "Delete hand 1?" in table.text(response)
    assert "Bob went out." in table.text(response)
    assert (f"/games/{game_id}/hands", "Keep it") in table.links(response)
    assert table.hand_ids(game_id) == [hand_id]


def test_delete_hand_then_undo(table, client, game_id):
    table.record(game_id, 1, {0: 10, 2: 20})
    table.record(game_id, 0, {1: 5, 2: 5})
    first, second = table.hand_ids(game_id)
    confirm = client.get(f"/games/{game_id}/hands/{first}/delete")
    response = table.submit(confirm, f"/games/{game_id}/hands/{first}/delete")
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game_id}?restore={first}"

    board = client.get(response.headers["Location"])
    assert "Hand removed; totals recomputed." in table.text(board)
    assert table.totals(board) == (10, 0, 0)
    assert table.hand_ids(game_id) == [second]
    assert table.counts()["hands"] == 2  # kept, so that it can come back

    restored = table.submit(board, f"/games/{game_id}/hands/{first}/restore")
    assert restored.status_code == 303
    assert restored.headers["Location"] == f"/games/{game_id}"
    board = table.scoreboard(game_id)
    assert table.totals(board) == (10, 30, 0)
    assert "Hand removed" not in table.text(board)
    assert table.hand_ids(game_id) == [first, second]


def test_undo_last_hand_then_restore(table, client, game_id):
    table.record(game_id, 1, {0: 10, 2: 20})
    table.record(game_id, 0, {1: 5, 2: 5})
    first, second = table.hand_ids(game_id)
    response = table.submit(table.scoreboard(game_id), f"/games/{game_id}/hands/undo")
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game_id}?restore={second}"
    board = client.get(response.headers["Location"])
    assert table.totals(board) == (0, 30, 0)
    assert "Record hand 2" in table.text(board)
    assert table.hand_ids(game_id) == [first]

    table.submit(board, f"/games/{game_id}/hands/{second}/restore")
    assert table.totals(table.scoreboard(game_id)) == (10, 30, 0)
    assert table.hand_ids(game_id) == [first, second]


def test_undo_twice_from_one_page_undoes_one_hand(table, client, game_id):
    # A double tap on "Undo last hand" must not take back two hands.
    table.record(game_id, 1, {0: 10, 2: 20})
    table.record(game_id, 0, {1: 5, 2: 5})
    first, _ = table.hand_ids(game_id)
    board = table.scoreboard(game_id)
    assert table.submit(board, f"/games/{game_id}/hands/undo").status_code == 303
    again = table.submit(board, f"/games/{game_id}/hands/undo")
    assert again.status_code == 409
    assert "That hand was already taken back" in table.text(again)
    assert table.hand_ids(game_id) == [first]


def test_undo_without_hands_is_refused(table, client, game_id):
    response = table.post(f"/games/{game_id}/hands/undo", {"hand_id": "1"})
    assert response.status_code == 409
    assert "There is no hand to undo yet." in table.text(response)


def test_undo_the_winning_hand_reopens_the_game(table, client):
    game_id = table.create_game(["Ann", "Bob"], target="100")
    table.record(game_id, 0, {1: "wild wild"})
    assert "Ann wins!" in table.text(table.scoreboard(game_id))
    table.undo(game_id)
    board = table.scoreboard(game_id)
    assert not table.page(board).select("#winner")
    assert "Record hand 1" in table.text(board)


@pytest.mark.parametrize("method, path", [
    ("get", ""), ("get", "/new"), ("post", "/preview"), ("post", "/draft/discard"),
    ("post", "/review"), ("post", ""), ("post", "/undo"), ("get", "/1/edit"),
    ("post", "/1/review"), ("post", "/1"), ("get", "/1/delete"), ("post", "/1/delete"),
    ("post", "/1/restore"),
])
def test_hand_routes_for_an_unknown_game_are_not_found(table, client, method, path):
    url = f"/games/42/hands{path}"
    response = (client.get(url) if method == "get"
                else table.post(url, table.hand_fields(0, {1: 3})))
    assert response.status_code == 404
    assert "There is no such game" in table.text(response)
    assert table.snapshot() == {t: [] for t in ("games", "players", "hands", "holdings",
                                                 "drafts")}


def _record_quietly(app, game_id: int, count: int) -> None:
    """``count`` hands straight through the store: Ann goes out, the others hold nothing."""
    from companion.db import get_db
    from companion.store import Holding
    with app.app_context():
        db = get_db()
        for _ in range(count):
            with store.changing(db, game_id) as game:
                store.record_hand(db, game, 0, [Holding(1, (), 0, True), Holding(2, (), 0, True)])


def test_only_the_latest_hands_can_be_changed(app, table, client, game_id):
    # A change scores every later hand again: the window bounds a write in a long game
    # (issue 18), and hands that old stay as played.
    _record_quietly(app, game_id, store.CHANGEABLE_HANDS + 1)
    first, second = table.hand_ids(game_id)[:2]
    last_page = client.get(f"/games/{game_id}/hands?page=99")  # hand 1 alone
    assert "only the latest 100 hands can be changed" in table.text(last_page)
    assert not table.page(last_page).select(f'a[href$="/{first}/edit"]')
    page_before = client.get(f"/games/{game_id}/hands?page=5")
    assert table.page(page_before).select(f'a[href$="/{second}/edit"]')
    before = table.snapshot()
    for response in (client.get(f"/games/{game_id}/hands/{first}/edit"),
                     client.get(f"/games/{game_id}/hands/{first}/delete"),
                     table.post(f"/games/{game_id}/hands/{first}/delete"),
                     table.review(game_id, 1, {0: "red-7"}, hand_id=first)):
        assert response.status_code == 409
        # One check and one wording, the form's and the write's: "nothing was changed".
        assert "more than 100 hands back: it can no longer be changed, deleted or put back. " \
            "Nothing was changed." in table.text(response)
    # The store decides it too, inside the write, whatever a form claims.
    from companion.db import get_db
    with app.app_context(), pytest.raises(store.ConflictError, match="100 hands back"):
        db = get_db()
        with store.changing(db, game_id) as game:
            hand = store.load_hand(db, game, first)
            store.update_hand(db, game, hand, 1, [store.Holding(0, (), 7, True)])
    assert table.snapshot() == before
    assert table.post(f"/games/{game_id}/hands/{second}/delete").status_code == 303
    # With the second gone the first has 99 hands after it: within reach again.
    assert table.post(f"/games/{game_id}/hands/{first}/delete").status_code == 303
    assert table.post(f"/games/{game_id}/hands/{second}/restore").status_code == 303
