"""Two phones on one game: each its own entry, nothing lost when both save, no replays.

A hand being entered belongs to the phone entering it (drafts are kept per phone); when
two phones save different hands for one slot, the second is shown both and chooses;
"Already saved" is said only for the very same submission; a spent one-time key that
comes back with other content (a page kept by Back or a cache) is a page out of date.
(The same at the very same moment, on a live server: tests/app/test_concurrency.py.)
"""

from __future__ import annotations

import re
import sqlite3

import pytest

HTMX = {"HX-Request": "true"}


@pytest.fixture
def bob(table, game_id):
    """A second phone, joined by the game's scorekeeper link."""
    return table.phone(role="keeper", game_id=game_id)


def preview(phone, game_id: int, out: int, held, hand_id: int | None = None):
    """Tap cards on a picker: the live-points request keeps the phone's draft."""
    fields = {**phone.entry_fields(game_id, out, hand_id), **phone.hand_fields(out, held),
              "hand_id": str(hand_id or 0)}
    response = phone.post(f"/games/{game_id}/hands/preview", fields, headers=HTMX)
    assert response.status_code == 200, phone.text(response)
    return fields


def entering(phone, response) -> str:
    """The "another phone is entering" notice of a page ("" if none)."""
    found = phone.page(response).select_one("#entering")
    return phone.text(found) if found else ""


def clash_section(phone, response, name: str) -> str:
    found = phone.page(response).select_one(f"#{name}")
    assert found is not None, f"no #{name} on the page: {phone.text(response)}"
    return phone.text(found)


# -- each phone its own entry ------------------------------------------------------------


def test_another_phone_opening_record_hand_starts_its_own_entry_and_is_told(
        table, game_id, bob):
    ann_fields = preview(table, game_id, 0, {1: "red-7 wild", 2: 3})
    page = bob.client.get(f"/games/{game_id}/hands/new?out=0")
    assert page.status_code == 200
    # Bob's picker is empty, with a key of its own; he is told Ann is at it.
    assert bob.held(bob.html(page), 1) == {} and bob.field(page, "pts-2") == ""
    assert bob.field(page, "entry") != ann_fields["entry"]
    assert entering(bob, page).startswith(
        "Another phone is entering hand 1 (for less than a minute).")
    # "Who went out?" says it too; Ann's own picker still holds her cards, and tells her
    # Bob is entering too (he chose who went out: issue 26).
    assert "Another phone is entering hand 1" in entering(bob, bob.client.get(
        f"/games/{game_id}/hands/new"))
    mine = table.client.get(f"/games/{game_id}/hands/new")
    assert "Another phone is entering hand 1" in entering(table, mine)
    assert table.held(table.html(mine), 1) == {"red-7": 1, "wild": 1}
    assert table.field(mine, "entry") == ann_fields["entry"]
    # Since when, in minutes (no time zone involved).
    with sqlite3.connect(table.app.config["DATABASE"]) as db:
        db.execute("update drafts set started_at = datetime('now', '-3 minutes') || '+00:00'"
                   " where game_id = ?", [game_id])
    assert "(for 3 minutes)" in entering(bob, bob.client.get(
        f"/games/{game_id}/hands/new?out=0"))


def test_a_draft_left_long_ago_or_made_for_an_older_hand_is_not_someone_entering(
        table, game_id, bob):
    # Only who went out chosen is entering already (issue 26).
    table.client.get(f"/games/{game_id}/hands/new?out=0")
    assert entering(bob, bob.client.get(f"/games/{game_id}/hands/new?out=1")).startswith(
        "Another phone is entering hand 1")
    # Hand 1 saved by Bob: Ann's choice was for hand 1, and nobody is entering hand 2.
    assert bob.record(game_id, 1, {0: 5, 2: 5}).status_code == 303
    assert entering(bob, bob.client.get(f"/games/{game_id}/hands/new?out=1")) == ""
    preview(table, game_id, 0, {1: 5})
    with sqlite3.connect(table.app.config["DATABASE"]) as db:
        db.execute("update drafts set updated_at = datetime('now', '-31 minutes') || '+00:00'")
    assert entering(bob, bob.client.get(f"/games/{game_id}/hands/new?out=0")) == ""


def test_another_phone_editing_the_same_hand_sees_the_hand_as_stored(table, game_id, bob):
    assert table.record(game_id, 0, {1: 5, 2: 7}).status_code == 303
    (hand_id,) = table.hand_ids(game_id)
    preview(table, game_id, 0, {1: 50, 2: 70}, hand_id)
    page = bob.client.get(f"/games/{game_id}/hands/{hand_id}/edit")
    assert (bob.field(page, "pts-1"), bob.field(page, "pts-2")) == ("5", "7")
    assert entering(bob, page).startswith("Another phone is entering hand 1 (")


# -- two hands for one slot ---------------------------------------------------------------


def test_the_second_phone_to_save_hand_1_is_shown_both_and_keeps_its_as_hand_2(
        table, game_id, bob):
    ann_review = table.review(game_id, 0, {1: 10, 2: 20})
    bob_review = bob.review(game_id, 1, {0: 30, 2: 40})
    assert table.save(ann_review).status_code == 303
    clash = bob.save(bob_review)
    assert clash.status_code == 409
    words = bob.text(clash)
    assert "Another phone saved hand 1 first" in words and "Already saved" not in words
    assert clash_section(bob, clash, "theirs") == "Hand 1 as saved Ann went out. Bob: 10 pts Cy: 20 pts"
    assert clash_section(bob, clash, "mine") == "Yours, on this phone Bob went out. Ann: 30 pts Cy: 40 pts"
    assert bob.drafts(game_id) == 1  # Bob's entry is kept until he chooses
    keep = bob.submit(clash, f"/games/{game_id}/hands")
    assert keep.status_code == 303
    assert bob.rows("select went_out from hands order by id") == [(0,), (1,)]
    assert bob.totals(bob.scoreboard(game_id)) == (30, 70, 0)
    assert bob.drafts(game_id) == 0
    # "Keep mine" tapped twice is one hand 2.
    again = bob.submit(clash, f"/games/{game_id}/hands")
    assert again.status_code == 409 and "Already saved" in bob.text(again)
    assert len(bob.hand_ids(game_id)) == 2


def test_drop_mine_discards_the_second_phones_entry(table, game_id, bob):
    bob_review = bob.review(game_id, 1, {0: 30, 2: 40})
    assert table.record(game_id, 0, {1: 10, 2: 20}).status_code == 303
    clash = bob.save(bob_review)
    assert clash.status_code == 409
    dropped = bob.submit(clash, f"/games/{game_id}/hands/draft/discard")
    assert dropped.status_code == 303 and dropped.headers["Location"] == f"/games/{game_id}"
    assert bob.drafts(game_id) == 0 and len(bob.hand_ids(game_id)) == 1
    fresh = bob.client.get(f"/games/{game_id}/hands/new?out=1")
    assert bob.field(fresh, "pts-0") == "" and "kept, not yet saved" not in bob.text(fresh)


def test_a_clash_left_unsettled_stays_a_clash_and_never_becomes_the_next_hand(
        table, game_id, bob):
    # Bob's hand 1 clashes with Ann's; he goes Back and taps Record hand (issue 26).
    bob_review = bob.review(game_id, 1, {0: 30, 2: 40})
    assert table.record(game_id, 0, {1: 10, 2: 20}).status_code == 303
    assert bob.save(bob_review).status_code == 409
    again = bob.client.get(f"/games/{game_id}/hands/new")
    assert again.status_code == 409, bob.text(again)
    assert "Another phone saved hand 1 first" in bob.text(again)
    assert clash_section(bob, again, "mine") == "Yours, on this phone Bob went out. Ann: 30 pts Cy: 40 pts"
    # Choosing who went out for hand 2 does not slip past it either.
    assert bob.client.get(f"/games/{game_id}/hands/new?out=2").status_code == 409
    # Kept as hand 2, on purpose: then hand 3 starts empty.
    assert bob.submit(again, f"/games/{game_id}/hands").status_code == 303
    fresh = bob.client.get(f"/games/{game_id}/hands/new?out=2")
    assert fresh.status_code == 200 and bob.field(fresh, "pts-0") == ""
    assert "Hand 3: Cy went out" in bob.text(fresh)


def test_a_past_hand_changed_on_two_phones_asks_the_second(table, game_id, bob):
    assert table.record(game_id, 0, {1: 5, 2: 7}).status_code == 303
    (hand_id,) = table.hand_ids(game_id)
    ann_review = table.review(game_id, 0, {1: 10, 2: 10}, hand_id)
    bob_review = bob.review(game_id, 2, {0: 1, 1: 2}, hand_id)
    assert table.save(ann_review).status_code == 303
    clash = bob.save(bob_review)
    assert clash.status_code == 409
    assert "Hand 1 was changed on another phone first" in bob.text(clash)
    assert clash_section(bob, clash, "theirs") == "Hand 1 as saved Ann went out. Bob: 10 pts Cy: 10 pts"
    assert clash_section(bob, clash, "mine") == "Yours, on this phone Cy went out. Ann: 1 pts Bob: 2 pts"
    assert bob.submit(clash, f"/games/{game_id}/hands/{hand_id}").status_code == 303
    assert bob.rows("select went_out from hands") == [(2,)]
    assert bob.hand_ids(game_id) == [hand_id]


# -- "already saved" only for the very same submission -------------------------------------


def test_the_same_submission_twice_is_already_saved(table, game_id):
    review = table.review(game_id, 0, {1: 10, 2: 20})
    assert table.save(review).status_code == 303
    again = table.save(review)
    assert again.status_code == 409 and "Already saved" in table.text(again)
    assert len(table.hand_ids(game_id)) == 1


def test_a_spent_key_with_other_content_is_a_page_out_of_date(table, game_id):
    review = table.review(game_id, 0, {1: 10, 2: 20})
    assert table.save(review).status_code == 303
    before = table.snapshot()
    # The same page's key and version, other cards (a page kept by Back, changed, sent).
    fields = dict(table.hidden_fields(review))
    fields.update({"pts-1": "11"})
    stale = table.client.post(f"/games/{game_id}/hands", data=fields)
    assert stale.status_code == 409
    assert "already used" in table.text(stale) and "Already saved" not in table.text(stale)
    assert {t: v for t, v in table.snapshot().items() if t != "drafts"} == \
        {t: v for t, v in before.items() if t != "drafts"}
    # The page it gets is the entry again, with a fresh key: sent, it is hand 2.
    assert table.field(stale, "entry") != fields["entry"]
    assert table.field(stale, "pts-1") == "11"
    again = table.client.post(f"/games/{game_id}/hands/review", data={
        **dict(table.hidden_fields(stale)), "pts-1": table.field(stale, "pts-1"),
        "pts-2": table.field(stale, "pts-2")})
    assert table.save(again).status_code == 303
    assert len(table.hand_ids(game_id)) == 2
    # Review says so too, rather than "already saved".
    late = table.post(f"/games/{game_id}/hands/review", {**fields, "pts-1": "12"})
    assert late.status_code == 409 and "already used" in table.text(late)


def test_a_new_game_form_used_again_with_other_players_is_out_of_date(table):
    form = table.new_game_form(["Ann", "Bob"])
    assert table.client.post("/games", data=form).status_code == 303
    assert "Already saved" in table.text(table.client.post("/games", data=form))
    other = table.client.post("/games", data={**form, "player": ["Cy", "Dee"]})
    assert other.status_code == 409 and "already used" in table.text(other)
    assert table.rows("select count(*) from games") == [(1,)]
    assert table.field(other, "submission") != form["submission"]


def test_a_ruling_key_used_again_for_another_dispute_is_out_of_date(table, game_id):
    dispute = {"game": str(game_id), "by": "Bob", "hand": "red-3 blue-7", "color": "red",
               "submission": "ruling-1", "save": "1"}
    assert table.post("/referee/challenge", dispute, headers=HTMX).status_code == 200
    same = table.post("/referee/challenge", dispute, headers=HTMX)
    assert "Already saved" in table.text(same)
    other = table.post("/referee/challenge", {**dispute, "hand": "red-3"}, headers=HTMX)
    assert other.status_code == 409 and "already used" in table.text(other)
    assert table.rows("select count(*) from rulings") == [(1,)]
    fresh = table.page(other).select_one("input[name=submission]")["value"]
    assert fresh != "ruling-1"


# -- the lever ---------------------------------------------------------------------------


def test_a_used_lever_asking_for_another_puller_is_refused_and_the_fresh_one_works(table):
    jp = table.create_game(["Ann", "Bob", "Cy"], variant="wild-jackpot")
    page = table.client.get(f"/games/{jp}/jackpot")
    key = table.field(page, "submission")
    first = table.post(f"/games/{jp}/jackpot/spins",
                       {"submission": key, "puller": "0", "direction": "clockwise"})
    assert first.status_code == 303
    # The same pull shown again for the same form...
    same = table.post(f"/games/{jp}/jackpot/spins",
                      {"submission": key, "puller": "0", "direction": "clockwise"})
    assert same.headers["Location"] == first.headers["Location"].removesuffix("?new=1")
    # ...but another puller with its key is a page out of date: nothing recorded.
    other = table.post(f"/games/{jp}/jackpot/spins",
                       {"submission": key, "puller": "1", "direction": "clockwise"}, headers=HTMX)
    assert other.status_code == 409 and "already used" in table.text(other)
    assert table.rows("select count(*) from spins") == [(1,)]
    fresh = table.page(other).select_one("#lever-submission")["value"]
    assert fresh != key
    again = table.post(f"/games/{jp}/jackpot/spins",
                       {"submission": fresh, "puller": "1", "direction": "clockwise"})
    assert again.status_code == 303
    assert table.rows("select puller from spins order by id") == [(0,), (1,)]


# -- no page kept by the browser ------------------------------------------------------------


def test_pages_are_never_stored_by_the_browser_but_assets_are(table, game_id):
    board = table.client.get(f"/games/{game_id}")
    assert board.headers["Cache-Control"] == "no-store"
    config = table.page(board).select_one("meta[name=htmx-config]")["content"]
    assert '"historyCacheSize": 0' in config and '"refreshOnHistoryMiss": true' in config
    # app.js, inline on a phone's first page, names its file to be kept (data-keep).
    script = next(url for url in table.page(board).select_one("script[data-keep]")["data-keep"].split()
                  if re.search(r"/app\.[0-9a-f]+\.js$", url))
    assert "no-store" not in table.client.get(script).headers.get("Cache-Control", "")


def test_a_rematch_key_used_again_on_another_game_is_out_of_date(table):
    # Pizza Pizza ends at 250: one hand of 250 points decides each game.
    first, second = (table.create_game(["Ann", "Bob"], "pizza-pizza") for _ in range(2))
    for game in (first, second):
        assert table.record(game, 0, {1: 250}).status_code == 303
    board = table.scoreboard(first)
    assert table.submit(board, f"/games/{first}/rematch").status_code == 303
    assert "Already saved" in table.text(table.submit(board, f"/games/{first}/rematch"))
    before = table.counts()
    key = table.field(board, "submission")
    other = table.post(f"/games/{second}/rematch", {"submission": key})
    assert other.status_code == 409 and "already used" in table.text(other)
    assert table.counts() == before
