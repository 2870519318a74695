"""What the pages say to a table of four phones (issue 26): a refusal's title agrees with
its words, the home page says which games this phone keeps the score of, and locking a
link out or freeing a seat is asked first (and only a scorekeeper is asked)."""

from __future__ import annotations


def heading(phone, response) -> str:
    return phone.text(phone.page(response).select_one("main h1"))


def test_a_refusal_s_title_agrees_with_what_it_says(table) -> None:
    jp = table.create_game(["Ana", "Ben", "Cy"], variant="wild-jackpot")
    watcher = table.phone(role="viewer", game_id=jp)
    refused = watcher.post(f"/games/{jp}/hands/undo", {"hand_id": "1"})
    assert refused.status_code == 403
    assert heading(watcher, refused) == "Not from this phone"
    # A rule card written for another seat: not the scorekeeper's refusal.
    refused = watcher.post(f"/games/{jp}/jackpot/cards/0", {"card": ["Sing."]})
    assert refused.status_code == 403
    words = watcher.text(refused)
    assert "Only Ana's own phone writes Ana's rule cards" in words
    assert "scorekeeper can do that" not in words


def test_the_home_page_says_which_games_this_phone_keeps(table) -> None:
    kept = table.create_game(["Ana", "Ben"])
    watched_game = table.create_game(["Cy", "Dee"])
    other = table.phone(role="viewer", game_id=watched_game)
    other_kept = other.create_game(["Eve", "Fay"])
    listed = {other.text(link) for link in other.page(other.client.get("/")).select(".game-link")}
    assert any("Cy, Dee" in text and "This phone watches" in text for text in listed), listed
    assert any("Eve, Fay" in text and "This phone keeps the score" in text for text in listed)
    mine = {table.text(link) for link in table.page(table.client.get("/")).select(".game-link")}
    assert all("This phone keeps the score" in text for text in mine) and len(mine) == 2
    assert kept != other_kept


def test_locking_a_link_out_and_freeing_a_seat_are_asked_first(table) -> None:
    jp = table.create_game(["Ana", "Ben", "Cy"], variant="wild-jackpot")
    links = table.share_links(jp)
    asked = table.client.get(f"/games/{jp}/share/renew?role=viewer")
    assert asked.status_code == 200
    assert heading(table, asked) == "Lock out the viewer's link?"
    form = table.page(asked).select_one(f"form[action='/games/{jp}/share/renew']")
    assert form is not None and form.select_one("input[name=role][value=viewer]") is not None
    assert table.share_links(jp) == links  # asking changed nothing
    assert table.client.get(f"/games/{jp}/share/renew?role=nobody").status_code == 400
    asked = table.client.get(f"/games/{jp}/seats/1/free")
    assert heading(table, asked) == "Free Ben's seat?"
    assert table.client.get(f"/games/{jp}/seats/7/free").status_code == 404
    # A watching phone is not even asked.
    watcher = table.phone(role="viewer", game_id=jp)
    assert watcher.client.get(f"/games/{jp}/share/renew?role=viewer").status_code == 403
    assert watcher.client.get(f"/games/{jp}/seats/1/free").status_code == 403
