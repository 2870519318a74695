"""Who may open and change a game: share links, their tokens, strangers, viewers, keepers.

The URL walks go over the app's own URL map, as the CSRF tests do: a route added later is
covered without anyone remembering to list it here.
"""

from __future__ import annotations

import base64
import re
import secrets

import pytest
import segno

from companion import cli, create_app
from companion.store import access

NAMES = ["Ann", "Bob", "Cy"]

#: Game pages that hold one player's secret (a rule card): a viewer may be refused them.
SEAT_PRIVATE = {"jackpot.reveal", "jackpot.write_cards"}
#: Game routes a phone that only looks may still send, and why.
VIEWERS_MAY_POST = {
    "sharing.forget": "taking a game off this phone's own list changes nothing of the game",
    "sharing.follow_rematch": "going on to the rematch with the role this phone had",
    "sharing.seat": "a player's own phone says which player it is (once)",
}
#: Game routes a viewer may send only for its own seat (a seatless viewer is refused).
SEAT_POSTS = {"jackpot.write_cards", "jackpot.tear_up"}


@pytest.fixture
def jackpot_game(table) -> int:
    """A Wild Jackpot game with a hand, a written rule card and a pull: every route has
    something to open."""
    game_id = table.create_game(NAMES, variant="wild-jackpot")
    table.record(game_id, 0, {1: 7, 2: 3})
    written = table.post(f"/games/{game_id}/jackpot/cards/0", {"card": "Sing every card"})
    assert written.status_code == 303, table.text(written)
    pulled = table.post(f"/games/{game_id}/jackpot/spins",
                        {"puller": "0", "direction": "clockwise", "submission": "walk"})
    assert pulled.status_code == 303, table.text(pulled)
    return game_id


def game_urls(app, table, game_id: int) -> list[tuple[str, str, str]]:
    """(endpoint, method, URL) for every route of a game, its arguments filled with this
    game's own hand, pull, seat and card."""
    (hand_id,) = table.hand_ids(game_id)
    spin_id = table.rows("select id from spins where game_id = ?", [game_id])[0][0]
    values = {"game_id": game_id, "hand_id": hand_id, "spin_id": spin_id, "seat": 0, "turn": 1}
    found = []
    with app.test_request_context():
        adapter = app.url_map.bind("localhost")
        for rule in app.url_map.iter_rules():
            if "game_id" not in rule.arguments:
                continue
            assert rule.arguments <= set(values), f"fill in {rule.arguments} for {rule.rule}"
            url = adapter.build(rule.endpoint, {k: values[k] for k in rule.arguments})
            for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
                found.append((rule.endpoint, method, url))
    assert len(found) > 25, found  # the walk reaches the app's routes
    # Forgetting the game last: after it, the phone is a stranger to the game.
    return sorted(found, key=lambda f: f[:2] == ("sharing.forget", "POST"))


def send(phone, method: str, url: str):
    """A request as the phone's browser sends it (its own CSRF token on a POST)."""
    if method == "GET":
        return phone.client.get(url)
    return phone.post(url, {"submission": "walk-again", "hand_id": "0"})


# -- the tokens -------------------------------------------------------------------------


def test_a_token_is_192_bits_from_the_os_random_source(monkeypatch):
    asked = []

    def token_bytes(n: int) -> bytes:
        asked.append(n)
        return bytes(range(n))

    monkeypatch.setattr(secrets, "token_bytes", token_bytes)
    token = access.new_token()
    assert asked == [access.TOKEN_BYTES] and access.TOKEN_BYTES * 8 >= 128
    assert token == base64.urlsafe_b64encode(bytes(range(access.TOKEN_BYTES))).decode().rstrip("=")


def test_every_game_gets_two_different_long_tokens(table):
    ids = [table.create_game(NAMES) for _ in range(3)]
    rows = table.rows("select keeper_token, viewer_token from games order by id")
    tokens = [t for row in rows for t in row]
    assert len(rows) == len(ids) and len(set(tokens)) == 6
    assert all(len(t) == 32 and re.fullmatch(r"[A-Za-z0-9_-]+", t) for t in tokens)


def test_the_share_page_shows_each_link_with_its_qr_code(table, game_id):
    page = table.client.get(f"/games/{game_id}/share")
    links = table.share_links(game_id)
    assert set(links) == {"keeper", "viewer"}
    (keeper_token,), = table.rows("select keeper_token from games where id = ?", [game_id])
    assert links["keeper"] == f"/join/{keeper_token}"
    drawn = table.page(page).select("svg.qr")
    assert len(drawn) == 2
    # Each code is the link itself, drawn here (no outside service: the page loads nothing).
    for role in ("keeper", "viewer"):
        url = f"http://localhost{links[role]}"
        expected = segno.make(url, error="m").svg_inline(scale=1, omitsize=True, svgclass="qr",
                                                        lineclass="qr-line", dark="#000")
        assert expected in table.html(page)


# -- strangers ---------------------------------------------------------------------------


def test_a_stranger_opens_nothing_of_a_game_and_changes_nothing(app, table, jackpot_game):
    urls = game_urls(app, table, jackpot_game)
    before = table.snapshot()
    stranger = table.phone()
    stranger.token()  # a session and a CSRF token of its own, so a POST reaches the game
    for endpoint, method, url in urls:
        response = send(stranger, method, url)
        assert response.status_code == 404, (endpoint, method, url, response.status_code)
        assert "Sing every card" not in stranger.html(response)
    for url in (f"/referee?game={jackpot_game}", f"/jackpot?game={jackpot_game}",
                f"/referee/next?game={jackpot_game}"):
        assert stranger.client.get(url).status_code == 404, url
    assert table.snapshot() == before


def test_the_home_page_lists_no_strangers_game(table, game_id):
    stranger = table.phone()
    home = stranger.client.get("/")
    assert home.status_code == 200
    assert not stranger.page(home).select(".game-link")
    assert "Ann" not in stranger.text(home)
    # The game's own phone lists it.
    assert len(table.page(table.client.get("/")).select(".game-link")) == 1


def test_the_referee_the_rules_and_the_spinner_stay_open_to_anyone(table, game_id):
    stranger = table.phone()
    for url in ("/referee", "/referee/play", "/rules", "/rules/classic", "/jackpot"):
        assert stranger.client.get(url).status_code == 200, url
    answer = stranger.post("/referee/play", {"top": "red-7", "card": "red-9"})
    assert answer.status_code == 200
    seated = stranger.post("/jackpot", {"players": "Ann, Bob", "puller": "0"})
    assert seated.status_code == 200


def test_sequential_ids_open_nothing(table):
    ids = [table.create_game(NAMES) for _ in range(2)]
    other = table.phone()
    other.create_game(["Dee", "Eve"])
    for game_id in ids:
        assert other.client.get(f"/games/{game_id}").status_code == 404
        assert other.client.get(f"/games/{game_id}/hands").status_code == 404


# -- viewers -----------------------------------------------------------------------------


def test_a_viewer_sees_every_page_and_is_refused_every_change(app, table, jackpot_game):
    viewer = table.phone(role="viewer", game_id=jackpot_game)
    before = table.snapshot()
    urls = game_urls(app, table, jackpot_game)
    for endpoint, method, url in urls:
        response = send(viewer, method, url)
        view = app.view_functions[endpoint]
        if method == "GET" and endpoint in SEAT_PRIVATE:
            assert response.status_code in (200, 403, 404), (endpoint, url)
        elif method == "GET" and not getattr(view, "keepers_only", False):
            assert response.status_code == 200, (endpoint, url, response.status_code)
        elif method == "POST" and endpoint in VIEWERS_MAY_POST:
            continue
        else:
            assert response.status_code == 403, (endpoint, method, url, response.status_code)
            assert "Nothing was changed" in viewer.text(response)
    assert table.snapshot() == before
    allowed = {e for e, _, _ in urls if getattr(app.view_functions[e], "viewers_may_post", False)}
    assert allowed == set(VIEWERS_MAY_POST) | SEAT_POSTS


def test_a_viewers_scoreboard_has_no_control_that_changes_the_game(table, jackpot_game):
    viewer = table.phone(role="viewer", game_id=jackpot_game)
    board = viewer.scoreboard(jackpot_game)
    assert not viewer.page(board).select("form[method=post]")
    assert "Record hand" not in viewer.text(board)
    assert viewer.page(board).select_one("#watching")
    assert viewer.totals(board) == table.totals(table.scoreboard(jackpot_game))
    # The keeper's has them.
    assert table.page(table.scoreboard(jackpot_game)).select("form[method=post]")


def test_a_viewer_may_ask_the_referee_but_not_keep_its_ruling(table, game_id):
    viewer = table.phone(role="viewer", game_id=game_id)
    asked = {"game": str(game_id), "top": "red-7", "card": "red-9"}
    answer = viewer.post("/referee/play", asked)
    assert answer.status_code == 200
    assert not viewer.page(answer).select("button[name=save]")
    kept = viewer.post("/referee/play", {**asked, "save": "1", "submission": "v1"})
    assert kept.status_code == 403
    assert table.rows("select count(*) from rulings") == [(0,)]


def test_a_viewer_opening_the_keepers_link_becomes_a_keeper_and_never_the_reverse(table, game_id):
    links = table.share_links(game_id)
    viewer = table.phone(role="viewer", game_id=game_id)
    assert viewer.share_links(game_id).keys() == {"viewer"}
    viewer.join(links["keeper"])
    assert viewer.share_links(game_id).keys() == {"keeper", "viewer"}
    table.join(links["viewer"])  # a keeper opening the viewer's link stays a keeper
    assert table.share_links(game_id).keys() == {"keeper", "viewer"}
    # A viewer's share page shows only the viewer's link.
    watcher = table.phone(role="viewer", game_id=game_id)
    assert watcher.share_links(game_id).keys() == {"viewer"}


# -- renewing and forgetting ----------------------------------------------------------------


def test_a_renewed_link_stops_working_and_takes_the_role_from_the_phones_it_opened(
        table, game_id):
    old = table.share_links(game_id)
    viewer = table.phone(role="viewer", game_id=game_id)
    second_keeper = table.phone(role="keeper", game_id=game_id)

    renewed = table.post(f"/games/{game_id}/share/renew", {"role": "viewer"})
    assert renewed.status_code == 303
    assert viewer.client.get(f"/games/{game_id}").status_code == 404
    late = table.phone()
    refused = late.join(old["viewer"])
    assert refused.status_code == 404 and "opens no game" in late.text(refused)
    new = table.share_links(game_id)
    assert new["viewer"] != old["viewer"] and new["keeper"] == old["keeper"]
    assert late.join(new["viewer"]).status_code == 200
    assert second_keeper.client.get(f"/games/{game_id}").status_code == 200

    table.post(f"/games/{game_id}/share/renew", {"role": "keeper"})
    assert second_keeper.client.get(f"/games/{game_id}").status_code == 404
    assert table.scoreboard(game_id).status_code == 200  # the renewing phone keeps its role
    assert table.share_links(game_id)["keeper"] != old["keeper"]
    assert late.client.get(f"/games/{game_id}").status_code == 200  # viewers untouched


def test_renewing_is_the_keepers_alone(table, game_id):
    viewer = table.phone(role="viewer", game_id=game_id)
    before = table.share_links(game_id)
    assert viewer.post(f"/games/{game_id}/share/renew", {"role": "viewer"}).status_code == 403
    assert table.post(f"/games/{game_id}/share/renew", {"role": "nobody"}).status_code == 400
    assert table.share_links(game_id) == before


def test_forgetting_a_game_takes_it_off_this_phones_list_only(table, game_id):
    viewer = table.phone(role="viewer", game_id=game_id)
    confirm = viewer.client.get(f"/games/{game_id}/forget")
    assert confirm.status_code == 200 and not viewer.page(confirm).select_one("#last-keeper")
    done = viewer.post(f"/games/{game_id}/forget")
    assert done.status_code == 303
    assert not viewer.page(viewer.client.get("/")).select(".game-link")
    assert viewer.client.get(f"/games/{game_id}").status_code == 404
    assert table.scoreboard(game_id).status_code == 200
    # The only keeper is warned, with the link that brings the game back.
    last = table.page(table.client.get(f"/games/{game_id}/forget"))
    assert last.select_one("#last-keeper")
    link = str(last.select_one("#forget-link")["value"])
    table.post(f"/games/{game_id}/forget")
    assert table.client.get(f"/games/{game_id}").status_code == 404
    table.join(link.removeprefix("http://localhost"))
    assert table.scoreboard(game_id).status_code == 200


def test_a_deleted_games_undo_is_offered_to_its_keeper_only(table, game_id):
    stranger = table.phone()
    table.post(f"/games/{game_id}/delete")
    assert table.page(table.client.get(f"/?deleted={game_id}")).select_one(
        f"form[action='/games/{game_id}/restore']")
    assert not stranger.page(stranger.client.get(f"/?deleted={game_id}")).select_one(
        f"form[action='/games/{game_id}/restore']")


def test_a_rematch_is_the_keepers_game_too(table):
    game_id = table.create_game(["Ann", "Bob"], mode="challenge", target="10")
    table.record(game_id, 0, {1: 20})
    board = table.scoreboard(game_id)
    response = table.submit(board, f"/games/{game_id}/rematch")
    assert response.status_code == 303
    new_id = int(response.headers["Location"].rsplit("/", 1)[1])
    assert table.scoreboard(new_id).status_code == 200
    assert table.share_links(new_id) != table.share_links(game_id)


def test_the_other_phones_follow_the_table_to_its_rematch_in_their_own_role(table):
    game_id = table.create_game(["Ann", "Bob"], mode="challenge", target="10")
    viewer = table.phone(role="viewer", game_id=game_id)
    table.record(game_id, 0, {1: 20})
    before_rematch = viewer.scoreboard(game_id)
    assert not viewer.page(before_rematch).select_one("#follow-rematch")
    assert viewer.client.get(f"/games/{game_id}",
                             headers={"If-None-Match": before_rematch.headers["ETag"]}
                             ).status_code == 304
    response = table.submit(table.scoreboard(game_id), f"/games/{game_id}/rematch")
    new_id = int(response.headers["Location"].rsplit("/", 1)[1])
    assert viewer.client.get(f"/games/{new_id}").status_code == 404
    # The viewer's scoreboard, polling, hears of the rematch.
    tag = before_rematch.headers["ETag"]
    assert viewer.client.get(f"/games/{game_id}", headers={"If-None-Match": tag}).status_code == 200
    board = viewer.scoreboard(game_id)
    followed = viewer.submit(board, f"/games/{game_id}/rematch/follow")
    assert followed.status_code == 303 and followed.headers["Location"] == f"/games/{new_id}"
    assert viewer.page(viewer.scoreboard(new_id)).select_one("#watching")
    assert viewer.page(viewer.scoreboard(game_id)).select_one("#rematch-link")
    # The keeper goes straight on, and is not offered a second rematch.
    old = table.page(table.scoreboard(game_id))
    assert old.select_one("#rematch-link") and not old.select_one(
        f"form[action='/games/{game_id}/rematch']")
    stranger = table.phone()
    stranger.token()
    assert stranger.post(f"/games/{game_id}/rematch/follow").status_code == 404


def test_the_phones_key_lasts_across_browser_restarts(table, game_id):
    cookie = table.client.get_cookie("session")
    assert cookie is not None and cookie.expires is not None  # a persistent cookie
    assert cookie.http_only


# -- games from before share links ------------------------------------------------------------


def test_games_stored_before_links_get_tokens_and_their_links_are_printed(
        tmp_path, capsys, monkeypatch):
    from companion.db import open_db
    from companion.schema import migrations

    path = tmp_path / "old.sqlite3"
    db = open_db(str(path))
    migrations.apply(db, stop_before="add_sharing")
    db.table("games").insert({"variant": "classic", "mode": "standard", "target": 500,
                              "options": "{}", "dealer": 0, "created_at": "2026-01-01",
                              "in_progress": 1})
    db.table("players").insert_all([{"game_id": 1, "seat": s, "name": n}
                                    for s, n in enumerate(["Ann", "Bob"])])
    db.close()

    app = create_app({"DATABASE": str(path), "SECRET_KEY": "k", "TESTING": True})
    assert cli.main(["links", "--db", str(path), "--address", "http://table.local:5000/"]) == 0
    printed = capsys.readouterr().out
    (token,) = re.findall(r"http://table\.local:5000/join/([\w-]+)", printed)
    assert len(token) == 32
    phone = app.test_client()
    assert phone.get("/games/1").status_code == 404
    assert phone.get(f"/join/{token}").status_code == 200
    assert phone.get("/games/1").status_code == 200
    assert cli.main(["links", "--db", str(path)]) == 0
    assert "no link to print" in capsys.readouterr().out


def test_a_link_may_open_another_page_of_its_own_game_only(table, game_id):
    link = table.share_links(game_id)["viewer"]
    phone = table.phone()
    for wanted, lands in ((f"/games/{game_id}/hands", f"/games/{game_id}/hands"),
                          (f"/games/{game_id}/share?x=1", f"/games/{game_id}/share?x=1"),
                          (f"/games/{game_id}9", f"/games/{game_id}"),
                          ("//evil.example/", f"/games/{game_id}"),
                          ("https://evil.example/games/1", f"/games/{game_id}"),
                          (f"/games/{game_id}/../../x", f"/games/{game_id}"),
                          ("/referee", f"/games/{game_id}")):
        # The link answers with the page itself, saying its address (static/phone.js puts
        # it in the address bar).
        response = phone.client.get(link, query_string={"next": wanted})
        assert phone.page(response).select_one("body")["data-address"] == lands, wanted


def test_a_link_token_that_is_junk_is_a_plain_404(table):
    for junk in ("x", "a" * 65, "%00", "../games/1"):
        response = table.client.get(f"/join/{junk}")
        assert response.status_code == 404, junk


def test_the_device_key_is_made_only_when_a_phone_gets_a_game(app, table):
    stranger = app.test_client()
    stranger.get("/")
    stranger.get("/rules")
    with stranger.session_transaction() as session:
        assert "device" not in session
    table.create_game(NAMES)
    with table.client.session_transaction() as session:
        assert len(session["device"]) >= 22  # 128 bits and more
