"""Every hand right and safe: resends, stale pages, crafted forms, odd names, broken data.

Each test names the way a table (or a flaky network) used to get a wrong, doubled, lost
or unscorable hand, and checks that it cannot any more.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from companion import store
from companion.db import open_db
from companion.forms import clean_name
from engine.names import name_key

HUGE = str(2**70)


def test_review_resent_after_save_says_already_saved(table, client):
    # Save, press Back (the browser re-posts the review), then Save again.
    game_id = table.create_game()
    fields = {**table.entry_fields(game_id, 0), **table.hand_fields(0, {1: 5, 2: 7}),
              "hand_id": "0"}
    review = table.post(f"/games/{game_id}/hands/review", fields)
    assert table.save(review).status_code == 303
    again = table.post(f"/games/{game_id}/hands/review", fields)
    assert again.status_code == 409
    assert "Already saved" in table.text(again)
    assert table.totals(again) == (12, 0, 0)  # and the game as it is now
    resent = table.save(review)
    assert resent.status_code == 409 and "Already saved" in table.text(resent)
    assert len(table.hand_ids(game_id)) == 1
    # The next hand starts afresh, not from the saved entry.
    picker = client.get(f"/games/{game_id}/hands/new?out=1")
    assert "What you entered so far is kept" not in table.text(picker)
    assert table.field(table.html(picker), "entry") != fields["entry"]


def test_save_without_its_one_time_key_still_records_once(table):
    game_id = table.create_game()
    review = table.review(game_id, 0, {1: 5, 2: 7})
    fields = [(k, v) for k, v in table.hidden_fields(review) if k != "entry"]
    first = table.client.post(f"/games/{game_id}/hands", data=dict(fields))
    second = table.client.post(f"/games/{game_id}/hands", data=dict(fields))
    assert first.status_code == 303
    assert second.status_code == 409  # made from a version of the game that is gone
    assert "Another phone saved hand 1 first" in table.text(second)  # shown, not saved
    assert len(table.hand_ids(game_id)) == 1


def test_save_that_names_no_version_is_refused(table):
    game_id = table.create_game()
    review = table.review(game_id, 0, {1: 5, 2: 7})
    fields = {k: v for k, v in table.hidden_fields(review) if k != "version"}
    before = table.counts()
    response = table.client.post(f"/games/{game_id}/hands", data=fields)
    assert response.status_code == 400
    assert "names no version" in table.text(response)
    assert table.counts() == before


def test_hand_saved_from_a_stale_page_is_refused_with_the_fresh_game(table):
    # Two phones review hand 1; one saves; the other's Save must not add a second hand 1.
    game_id = table.create_game()
    mine = table.review(game_id, 0, {1: 5, 2: 7})
    theirs = table.post(f"/games/{game_id}/hands/review", {
        **table.hand_fields(1, {0: 3, 2: 4}), "hand_id": "0", "entry": "another-phone",
        "version": table.field(table.html(mine), "version")})
    assert table.save(theirs).status_code == 303
    response = table.save(mine)
    assert response.status_code == 409
    # Not saved over the other phone's hand 1, and not lost: both are shown to choose from.
    assert "Another phone saved hand 1 first" in table.text(response)
    assert "Bob went out" in table.text(table.page(response).select_one("#theirs"))
    assert "Ann went out" in table.text(table.page(response).select_one("#mine"))
    assert len(table.hand_ids(game_id)) == 1


def test_edit_from_a_stale_page_is_refused(table):
    game_id = table.create_game()
    table.record(game_id, 0, {1: 5, 2: 7})
    (hand_id,) = table.hand_ids(game_id)
    first = table.review(game_id, 0, {1: 10, 2: 10}, hand_id)
    second = table.post(f"/games/{game_id}/hands/{hand_id}/review", {
        **table.hand_fields(0, {1: 1, 2: 1}), "hand_id": str(hand_id), "entry": "another-phone",
        "version": table.field(table.html(first), "version")})
    assert table.save(first).status_code == 303
    response = table.save(second)
    assert response.status_code == 409
    assert "Hand 1 was changed on another phone first" in table.text(response)
    assert "Bob: 10 pts" in table.text(table.page(response).select_one("#theirs"))
    assert table.rows("select points from holdings order by seat") == [(10,), (10,)]


@pytest.mark.parametrize("hand_id", ["junk", "", "0", "-1", HUGE, "1.5"])
def test_undo_naming_no_real_hand_is_refused(table, game_id, hand_id):
    table.record(game_id, 0, {1: 5, 2: 7})
    before = table.snapshot()
    response = table.post(f"/games/{game_id}/hands/undo", {"hand_id": hand_id})
    assert response.status_code == 400
    assert "nothing" in table.text(response)
    assert table.snapshot() == before


def test_undo_naming_an_earlier_hand_is_refused(table, game_id):
    table.record(game_id, 0, {1: 5, 2: 7})
    table.record(game_id, 1, {0: 1, 2: 1})
    first, second = table.hand_ids(game_id)
    response = table.post(f"/games/{game_id}/hands/undo", {"hand_id": str(first)})
    assert response.status_code == 409
    assert "nothing was undone" in table.text(response)
    assert "The last hand is now hand 2" in table.text(response)
    assert table.hand_ids(game_id) == [first, second]


@pytest.mark.parametrize("path", ["delete", "restore"])
def test_delete_or_restore_twice_changes_nothing_more(table, game_id, path):
    table.record(game_id, 0, {1: 5, 2: 7})
    (hand_id,) = table.hand_ids(game_id)
    if path == "restore":
        table.post(f"/games/{game_id}/hands/{hand_id}/delete")
    assert table.post(f"/games/{game_id}/hands/{hand_id}/{path}").status_code == 303
    before = table.snapshot()
    again = table.post(f"/games/{game_id}/hands/{hand_id}/{path}")
    assert again.status_code == 409
    assert table.snapshot() == before


# -- names -------------------------------------------------------------------


@pytest.mark.parametrize("raw, stored", [
    ("Ana\u200b", "Ana"),                    # zero-width space
    ("\u202eevil", "evil"),                   # right-to-left override
    ("Bo\u00adb", "Bob"),                     # soft hyphen
    ("Cy\u2067x\u2069", "Cyx"),               # isolates
    ("  Dee \t Dee ", "Dee Dee"),
    ("Ame\u0301lie", "Am\u00e9lie"),          # composed (NFC)
    ("👩\u200d👩\u200d👧", "👩\u200d👩\u200d👧"),  # an emoji family keeps its joiners
])
def test_names_are_normalised(raw, stored):
    assert clean_name(raw) == stored


@pytest.mark.parametrize("twin", ["Ana\u200b", "ANA", "A\u200dna", "\uff21na", "Ana\u202c"])
def test_names_that_look_alike_are_the_same_name(table, twin):
    assert name_key(twin) == name_key("Ana")
    before = table.counts()
    response = table.client.post("/games", data=table.new_game_form(["Ana", twin, "Cy"]))
    assert response.status_code == 400
    assert "Two players have the same name" in table.text(response)
    assert table.counts() == before


def test_names_are_stored_clean_and_shown_isolated(table, client):
    game_id = table.create_game(["\u202eevil", "Bob\u200b", "Cy"])
    assert [r[0] for r in table.rows("select name from players order by seat")] == [
        "evil", "Bob", "Cy"]
    board = table.html(client.get(f"/games/{game_id}"))
    assert '<span class="name"><bdi>evil</bdi></span>' in board
    home = table.html(client.get("/"))
    assert "<bdi>evil</bdi>, <bdi>Bob</bdi>, <bdi>Cy</bdi>" in home


def test_a_name_of_invisible_characters_only_is_empty(table):
    response = table.client.post("/games", data=table.new_game_form(["Ann", "\u200b\u202e", "Cy"]))
    assert response.status_code == 400
    assert "Every seat needs a name" in table.text(response)


# -- the new-game form ---------------------------------------------------------


def test_no_secret_rides_in_a_url_on_the_new_game_form(table, client):
    page = table.page(client.get("/games/new"))
    assert not page.select('[formmethod="get"]')
    # "Use this variant" and Enter post the form back: shown again, no game started.
    form = table.new_game_form(["Ann", "Bob"], "pizza-pizza")
    before = table.counts()
    response = client.post("/games/new", data=form)
    assert response.status_code == 200
    assert table.field(table.html(response), "shown_variant") == "pizza-pizza"
    assert table.page(response).select('input[value="Ann"]')
    assert table.page(response).select('input[value="Bob"]')
    assert table.counts() == before


def test_enter_on_the_new_game_form_never_starts_a_game(table, client):
    # The form's first submit button (what Enter presses) only shows the form again.
    first = table.page(client.get("/games/new")).select_one("#new-game button")
    assert first["formaction"] == "/games/new"


def test_enter_on_the_picker_presses_review(table, client, game_id):
    # Enter submits through the form's first submit button: Review, not another player.
    first = table.page(client.get(f"/games/{game_id}/hands/new?out=0")).select_one(
        "#hand-form button")
    assert first.get("name") != "new_out" and "Review hand" in table.text(first)


# -- ids and sizes -------------------------------------------------------------


@pytest.mark.parametrize("path", [
    f"/games/{HUGE}", f"/games/{HUGE}/hands", f"/games/{HUGE}/hands/new",
    f"/games/{{g}}/hands/{HUGE}/edit", f"/games/{{g}}/hands/{HUGE}/delete",
    "/games/0", "/games/-1",
])
def test_ids_sqlite_cannot_hold_are_not_found(table, client, game_id, path):
    assert client.get(path.format(g=game_id)).status_code == 404


@pytest.mark.parametrize("path", [
    f"/games/{HUGE}/delete", f"/games/{{g}}/hands/{HUGE}", f"/games/{{g}}/hands/{HUGE}/review",
    f"/games/{{g}}/hands/{HUGE}/delete", f"/games/{{g}}/hands/{HUGE}/restore",
])
def test_posts_to_ids_sqlite_cannot_hold_are_not_found(table, game_id, path):
    before = table.snapshot()
    assert table.post(path.format(g=game_id)).status_code == 404
    assert table.snapshot() == before


@pytest.mark.parametrize("query", [f"/?deleted={HUGE}", "/?deleted=junk", "/?deleted=-4",
                                   f"/games/{{g}}?restore={HUGE}", "/games/{g}?restore=x",
                                   f"/games/{{g}}/hands?restore={HUGE}"])
def test_query_ids_sqlite_cannot_hold_are_ignored(table, client, game_id, query):
    assert client.get(query.format(g=game_id)).status_code == 200


@pytest.mark.parametrize("path", ["preview", "switch", "draft/discard"])
def test_hand_ids_in_forms_that_name_no_hand_are_refused(table, game_id, path):
    before = table.snapshot()
    response = table.post(f"/games/{game_id}/hands/{path}", {"hand_id": HUGE, "out": "1"})
    assert response.status_code in (400, 404)
    assert table.snapshot() == before


def test_drafts_are_kept_only_for_hands_that_exist(table, game_id):
    table.record(game_id, 0, {1: 5, 2: 7})
    (hand_id,) = table.hand_ids(game_id)
    table.post(f"/games/{game_id}/hands/preview", {"hand_id": str(hand_id + 100), "out": "1"})
    assert table.drafts(game_id) == 0
    table.post(f"/games/{game_id}/hands/preview", {"hand_id": str(hand_id), "out": "1"})
    assert table.drafts(game_id) == 1


def test_an_oversized_draft_is_not_kept(table, game_id):
    # A huge card list: read as an error, never stored as a draft of that size.
    fields = {f"cards-{seat}": "junk " * 8000 for seat in (1, 2)}
    response = table.post(f"/games/{game_id}/hands/preview", {"out": "0", **fields})
    assert response.status_code == 200
    assert table.drafts(game_id) == 0
    assert table.rows("select max(length(data)) from drafts")[0][0] is None


def test_old_drafts_are_forgotten(table, game_id):
    table.post(f"/games/{game_id}/hands/preview", {"out": "0", "pts-1": "4"})
    other = table.create_game(["Dee", "Eve"])
    db = open_db(table.app.config["DATABASE"])
    try:
        db.execute("update drafts set updated_at = '2000-01-01T00:00:00+00:00'")
    finally:
        db.close()
    table.post(f"/games/{other}/hands/preview", {"out": "0", "pts-1": "4"})
    assert table.drafts(game_id) == 0 and table.drafts(other) == 1


# -- stored data the engine refuses --------------------------------------------


def break_history(table, game_id, sql, params=()):
    """Change the stored rows behind the app's back (an older bug, a manual edit)."""
    db = open_db(table.app.config["DATABASE"])
    try:
        db.execute(sql, list(params))
    finally:
        db.close()


def test_a_hand_that_no_longer_scores_does_not_brick_the_game(table, client):
    # Challenge UNO: Bob is out after hand 1; a second hand that Bob "won" cannot score.
    game_id = table.create_game(["Ann", "Bob", "Cy"], mode="challenge", target="50")
    table.record(game_id, 0, {1: 60, 2: 10})
    table.record(game_id, 2, {0: 5})
    first, second = table.hand_ids(game_id)
    break_history(table, game_id, "update hands set went_out = 1 where id = ?", [second])

    assert client.get("/").status_code == 200
    board = client.get(f"/games/{game_id}")
    assert board.status_code == 200
    assert "Hand 2 cannot be scored" in table.text(board)
    assert "Record hand" not in table.text(board)  # fix it first
    history = client.get(f"/games/{game_id}/hands")
    assert history.status_code == 200 and "Not scored" in table.text(history)

    response = table.undo(game_id)  # the table takes the offending hand back
    assert response.status_code == 303
    board = client.get(f"/games/{game_id}")
    assert "cannot be scored" not in table.text(board)
    assert table.totals(board) == (0, 60, 10)
    # Bringing it back is refused: it would break the history again.
    response = table.post(f"/games/{game_id}/hands/{second}/restore")
    assert response.status_code == 409
    assert table.hand_ids(game_id) == [first]


def test_cards_that_no_longer_read_do_not_brick_the_game(table, client, game_id):
    table.record(game_id, 0, {1: "red-7", 2: 7})
    (hand_id,) = table.hand_ids(game_id)
    break_history(table, game_id, "update holdings set cards = 'purple-11' where seat = 1")
    assert client.get("/").status_code == 200
    board = client.get(f"/games/{game_id}")
    assert board.status_code == 200 and "Hand 1 cannot be read" in table.text(board)
    response = table.post(f"/games/{game_id}/hands/{hand_id}/delete")
    assert response.status_code == 303
    assert "cannot be read" not in table.text(client.get(f"/games/{game_id}"))


def test_a_game_whose_settings_no_longer_read_leaves_the_rest_alone(table, client, game_id):
    other = table.create_game(["Dee", "Eve"])
    break_history(table, game_id, "update games set variant = 'uno-deluxe' where id = ?",
                  [game_id])
    home = client.get("/")
    assert home.status_code == 200 and f"/games/{other}" in dict(table.links(home))
    assert client.get(f"/games/{game_id}").status_code == 404


def test_writes_are_decided_on_the_game_as_it_is_inside_the_transaction(app, table, game_id):
    # The stale record a view may hold is never what a write is decided on.
    table.record(game_id, 0, {1: 5, 2: 7})
    db = open_db(app.config["DATABASE"])
    try:
        stale = store.load_game(db, game_id)
        assert stale is not None
        table.undo(game_id)
        with pytest.raises(store.ConflictError), store.changing(
                db, game_id, version=stale.version) as game:
            store.record_hand(db, game, 0, [])
        assert not db.conn.in_transaction
    finally:
        db.close()
    assert json.loads(json.dumps(table.counts()))["hands"] == 1


def test_spent_keys_are_forgotten_after_a_month_a_few_per_write(table, app):
    # A key spent long ago is no double tap any more: each write forgets a few of those,
    # oldest first, so the table of spent keys does not grow for ever.
    db = open_db(app.config["DATABASE"])
    try:
        old = (datetime.now(UTC) - timedelta(days=store.SUBMISSION_DAYS + 1)).isoformat()
        recent = (datetime.now(UTC) - timedelta(days=store.SUBMISSION_DAYS - 1)).isoformat()
        db.table("submissions").insert_all(
            [{"token": f"old-{i}", "used_at": old} for i in range(store.SUBMISSIONS_FORGOTTEN + 5)]
            + [{"token": "recent", "used_at": recent}])
        plan = " ".join(str(r[-1]) for r in db.execute(
            "explain query plan select rowid from submissions where used_at < ? "
            "order by used_at limit 20", [old]).fetchall())
        assert "idx_submissions_used_at" in plan  # found by the index, not a scan
    finally:
        db.close()

    def left(prefix: str) -> int:
        return int(table.rows("select count(*) from submissions where token like ?",
                              [f"{prefix}%"])[0][0])

    game_id = table.create_game()  # spends its form's key
    assert left("old-") == 5 and left("recent") == 1
    assert table.record(game_id, 0, {1: 5, 2: 7}).status_code == 303
    assert left("old-") == 0 and left("recent") == 1
