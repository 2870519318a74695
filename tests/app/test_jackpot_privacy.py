"""The Wild Jackpot with players on their own phones: a viewer's phone claims its seat
once; a rule card's text goes only to the phone it was written on, and a dealt card only
to its player's phone (or the shared scorekeeper's phone passed to them) until it is
revealed. Every phone at the table is walked through every jackpot page to prove it."""

from __future__ import annotations

import random
import re

import pytest

from engine import LeverOutcome
from engine.jackpot import LEVER_OUTCOMES

NAMES = ["Ana", "Ben", "Cy"]
#: What Ben writes on his own phone: no other phone may ever read these before they are
#: dealt and revealed.
BENS = ["Quack like a duck", "Stand on your chair"]
#: What the shared phone writes for Ana and Cy, passed round.
SHARED = {0: ["Sing your card", "Hop twice"], 2: ["Wink at the dealer", "Clap thrice"]}


class Always(random.Random):
    """Every lever spin stops on ``outcome`` (shuffles still vary, seeded)."""

    def __init__(self, outcome: LeverOutcome):
        super().__init__(5)
        self.outcome = outcome

    def randrange(self, *args, **kwargs):  # engine.jackpot.spin draws with randrange(6)
        return LEVER_OUTCOMES.index(self.outcome)


@pytest.fixture
def jp(table, app) -> int:
    """A Wild Jackpot game for Ana, Ben and Cy on the scorekeeper's phone (``table``)."""
    app.config["JACKPOT_RANDOM"] = random.Random(11)
    return table.create_game(NAMES, variant="wild-jackpot")


def claim(phone, game: int, seat: int | str):
    return phone.post(f"/games/{game}/seat", {"seat": str(seat)})


def write(phone, game: int, seat: int, *texts: str):
    return phone.post(f"/games/{game}/jackpot/cards/{seat}", {"card": list(texts)})


def pull(phone, game: int, puller: int, outcome: LeverOutcome, key: str) -> int:
    phone.app.config["JACKPOT_RANDOM"] = Always(outcome)
    response = phone.post(f"/games/{game}/jackpot/spins",
                          {"puller": str(puller), "direction": "clockwise", "submission": key})
    assert response.status_code == 303, phone.text(response)
    return int(re.search(r"/spins/(\d+)", response.headers["Location"]).group(1))


def player(table, game: int, seat: int):
    """A player's own phone: the viewer's link opened, then the seat chosen."""
    phone = table.phone(role="viewer", game_id=game)
    assert claim(phone, game, seat).status_code == 303
    return phone


def walk(phone, game: int, *, spins: int = 4, turns: int = 4) -> str:
    """Every response body (and header) every jackpot page and fragment gives this phone,
    with guessed addresses: pulls and turns that may or may not exist."""
    g = f"/games/{game}"
    urls = ["/", g, f"{g}/share", f"{g}/seat", f"{g}/hands", f"{g}/rulings",
            f"/referee?game={game}", f"/jackpot?game={game}", f"{g}/jackpot",
            f"{g}/jackpot/history", f"{g}/jackpot/history?page=2", f"{g}/jackpot/cards",
            *(f"{g}/jackpot/cards?saved={s}" for s in range(3)),
            *(f"{g}/jackpot/cards/{s}" for s in range(4)),
            *(f"{g}/jackpot/spins/{n}{q}" for n in range(1, spins + 1) for q in ("", "?new=1")),
            *(f"{g}/jackpot/spins/{n}/cards/{t}" for n in range(1, spins + 1)
              for t in range(turns + 1))]
    seen = []
    for url in urls:
        for headers in ({}, {"HX-Request": "true"}):
            response = phone.client.get(url, headers=headers)
            assert response.status_code < 500, url
            seen.append(f"{url} {response.headers} {response.get_data(as_text=True)}")
    return "\n".join(seen)


def assert_never_shown(texts, *phones, game: int) -> None:
    for k, phone in enumerate(phones):
        everything = walk(phone, game)
        for text in texts:
            assert text not in everything, f"phone {k} reads {text!r}"


def dealt(table, game: int) -> list[tuple[int, int, str, str | None]]:
    return table.rows("select s.id, c.seat, c.text, c.revealed_at from spin_cards c join spins "
                      "s on s.id = c.spin_id where s.game_id = ? order by s.id, c.turn", [game])


def cards(table, game: int) -> list[tuple[int, str]]:
    return table.rows("select seat, text from rule_cards where game_id = ? order by id", [game])


# -- a seat, chosen once ------------------------------------------------------------------


def test_the_viewers_link_asks_which_player_then_a_seat_is_claimed_once(table, jp):
    phone = table.phone(role=None)
    opened = phone.join(table.share_links(jp)["viewer"])
    assert phone.page(opened).select_one("body")["data-address"] == f"/games/{jp}/seat"
    page = phone.client.get(f"/games/{jp}/seat")
    assert [phone.text(b) for b in phone.page(page).select("button[name=seat]")] == NAMES
    assert phone.page(page).select_one("#just-watching")["href"] == f"/games/{jp}"
    assert claim(phone, jp, 1).status_code == 303
    assert table.rows("select seat from access where seat is not null") == [(1,)]
    # Once: another seat is refused on this phone, the same one changes nothing.
    again = claim(phone, jp, 2)
    assert again.status_code == 409 and "already Ben's" in phone.text(again)
    assert claim(phone, jp, 1).status_code == 303
    # Another phone cannot take Ben's seat: it is told so, and may take another.
    other = table.phone(role="viewer", game_id=jp)
    refused = claim(other, jp, 1)
    assert refused.status_code == 409
    assert "Ben is already chosen on another phone" in other.text(refused)
    page = other.page(other.client.get(f"/games/{jp}/seat"))
    assert page.select_one("button[name=seat][value='1']").has_attr("disabled")
    assert claim(other, jp, 9).status_code == 400
    assert table.rows("select seat from access where seat is not null order by seat") == [(1,)]
    # The scorekeeper frees the seat (from the share page): now the other phone may.
    share = table.page(table.client.get(f"/games/{jp}/share"))
    assert "Ben's own phone" in table.text(share.select_one("#own-phones"))
    assert table.post(f"/games/{jp}/seats/1/free").status_code == 303
    assert claim(other, jp, 1).status_code == 303
    # ... or from the rule cards page, where Ben's row offers it.
    form = table.page(table.client.get(f"/games/{jp}/jackpot/cards")).select_one(
        f"form[action='/games/{jp}/seats/1/free']")
    assert form is not None
    assert table.post(f"/games/{jp}/seats/1/free", {"back": "cards"}).headers[
        "Location"] == f"/games/{jp}/jackpot/cards"
    assert table.rows("select seat from access where seat is not null") == []


def test_a_scorekeepers_phone_claims_no_seat_and_a_viewer_frees_none(table, jp):
    refused = claim(table, jp, 0)
    assert refused.status_code == 403 and "scorekeeper's phone" in table.text(refused)
    second = table.phone(role="keeper", game_id=jp)
    assert claim(second, jp, 0).status_code == 403
    ben = player(table, jp, 1)
    watcher = table.phone(role="viewer", game_id=jp)
    assert watcher.post(f"/games/{jp}/seats/1/free").status_code == 403
    assert ben.post(f"/games/{jp}/seats/1/free").status_code == 403
    stranger = table.phone(role=None)
    assert claim(stranger, jp, 2).status_code == 404
    assert table.rows("select seat from access where seat is not null") == [(1,)]


def test_a_phone_given_the_keepers_link_stops_being_a_players(table, jp):
    ben = player(table, jp, 1)
    ben.join(table.share_links(jp)["keeper"])
    assert table.rows("select role, seat from access where seat is not null") == []


def test_only_games_with_rule_cards_ask_which_player(table, game_id):
    phone = table.phone(role=None)
    opened = phone.join(table.share_links(game_id)["viewer"])
    assert phone.page(opened).select_one("body")["data-address"] == f"/games/{game_id}"
    assert phone.client.get(f"/games/{game_id}/seat").status_code == 404


# -- written cards: only on the phone they were written on --------------------------------


def test_a_players_cards_are_read_by_no_other_phone(table, jp):
    ben, cy = player(table, jp, 1), player(table, jp, 2)
    keeper2 = table.phone(role="keeper", game_id=jp)
    watcher = table.phone(role="viewer", game_id=jp)
    stranger = table.phone(role=None)
    assert write(ben, jp, 1, *BENS).status_code == 303
    assert write(table, jp, 0, *SHARED[0]).status_code == 303  # Ana, on the shared phone
    assert write(cy, jp, 2, "Moo once").status_code == 303
    # Ben's own phone shows his cards, to change them.
    mine = ben.page(ben.client.get(f"/games/{jp}/jackpot/cards/1"))
    assert [box.get_text() for box in mine.select("textarea[name=card]")] == BENS
    # Nobody else reads them, anywhere: nor Cy's, nor the shared phone's from the others.
    assert_never_shown(BENS, table, keeper2, watcher, cy, stranger, game=jp)
    assert_never_shown(["Moo once"], table, keeper2, watcher, ben, game=jp)
    assert_never_shown(SHARED[0], keeper2, watcher, ben, cy, game=jp)
    # Ben's share counts them on every phone; the keeper is told where they are written.
    overview = table.page(table.client.get(f"/games/{jp}/jackpot/cards"))
    assert [table.text(td) for td in overview.select("#writers td.num")] == [
        "2 of 2", "2 of 2", "1 of 2"]
    assert overview.select_one(f"a[href='/games/{jp}/jackpot/cards/1']") is None
    page = table.client.get(f"/games/{jp}/jackpot/cards/1")
    assert table.page(page).select("textarea[name=card]") == []
    assert "2 written on Ben's phone: hidden here" in table.text(page)
    assert "on Ben's own phone" in table.text(page)


def test_only_a_seats_own_phone_writes_its_cards_and_nothing_changes_otherwise(table, jp):
    ben, cy = player(table, jp, 1), player(table, jp, 2)
    watcher = table.phone(role="viewer", game_id=jp)
    write(ben, jp, 1, *BENS)
    before = cards(table, jp)
    assert write(watcher, jp, 1, "Nope").status_code == 403
    assert write(watcher, jp, 0, "Nope").status_code == 403
    assert write(cy, jp, 1, "Nope").status_code == 403
    assert write(cy, jp, 0, "Nope").status_code == 403  # Ana's is the shared phone's
    assert watcher.client.get(f"/games/{jp}/jackpot/cards/1").status_code == 403
    refused = write(table, jp, 1, "Nope")  # the keeper, for a seat with its own phone
    assert refused.status_code == 409 and "free the seat first" in table.text(refused)
    assert table.phone(role=None).post(f"/games/{jp}/jackpot/cards/1",
                                       {"card": "Nope"}).status_code in (400, 404)
    assert ben.post(f"/games/{jp}/jackpot/cards/1/tear-up").status_code == 303  # none hidden
    assert watcher.post(f"/games/{jp}/jackpot/cards/1/tear-up").status_code == 403
    assert cy.post(f"/games/{jp}/jackpot/cards/1/tear-up").status_code == 403
    assert cards(table, jp) == before
    # Too many for the room left is refused too.
    too_many = write(ben, jp, 1, "a", "b", "c")
    assert too_many.status_code == 400 and "Ben writes 2 cards" in ben.text(too_many)


def test_cards_written_on_another_phone_are_counted_kept_and_can_be_torn_up(table, jp):
    write(table, jp, 1, *BENS)  # on the shared phone, before Ben had his own
    ben = player(table, jp, 1)
    page = ben.client.get(f"/games/{jp}/jackpot/cards/1")
    assert "2 written on a scorekeeper's phone: hidden here" in ben.text(page)
    assert ben.page(page).select("textarea[name=card]") == []
    assert not any(text in ben.html(page) for text in BENS)
    # A write from Ben's phone replaces only Ben's phone's cards: there is no room left.
    assert write(ben, jp, 1, "New one").status_code == 400
    assert sorted(t for _, t in cards(table, jp)) == sorted(BENS)
    # Torn up on purpose, with its own button: then Ben writes his own.
    button = ben.page(page).select_one(f"form[action='/games/{jp}/jackpot/cards/1/tear-up'] button")
    assert ben.text(button) == "Tear up the hidden cards"
    assert ben.post(f"/games/{jp}/jackpot/cards/1/tear-up").status_code == 303
    assert cards(table, jp) == []
    assert write(ben, jp, 1, "Mine only").status_code == 303
    # The keeper may tear up the cards of a player who left with their phone.
    table.post(f"/games/{jp}/seats/1/free")
    page = table.client.get(f"/games/{jp}/jackpot/cards/1")
    assert "1 written on another phone: hidden here" in table.text(page)
    assert len(table.page(page).select("textarea[name=card]")) == 1
    assert write(table, jp, 1, "Keeper's").status_code == 303
    assert sorted(t for _, t in cards(table, jp)) == ["Keeper's", "Mine only"]
    assert table.post(f"/games/{jp}/jackpot/cards/1/tear-up").status_code == 303
    assert cards(table, jp) == [(1, "Keeper's")]


# -- a dealt card: its player's phone first -----------------------------------------------


def test_a_card_dealt_to_a_player_with_a_phone_shows_only_there_until_revealed(table, jp):
    ben = player(table, jp, 1)
    keeper2 = table.phone(role="keeper", game_id=jp)
    watcher = table.phone(role="viewer", game_id=jp)
    cy = player(table, jp, 2)
    write(ben, jp, 1, *BENS)
    sid = pull(table, jp, 0, LeverOutcome.LEFT, "left")  # Ben performs
    ((_, seat, text, revealed),) = dealt(table, jp)
    assert seat == 1 and text in BENS and revealed is None
    # The keeper's result says where the card is, and offers no reveal.
    result = table.client.get(f"/games/{jp}/jackpot/spins/{sid}")
    assert "Ben: your rule card is on your phone." in table.text(result)
    assert table.page(result).select_one("#reveal-first") is None
    assert "Pass the phone" not in table.text(result)
    elsewhere = watcher.client.get(f"/games/{jp}/jackpot/spins/{sid}")
    assert "Dealt to Ben (not yet revealed)." in watcher.text(elsewhere)
    history = watcher.client.get(f"/games/{jp}/jackpot/history")
    assert "Dealt to Ben (not yet revealed)" in watcher.text(history)
    refused = table.client.get(f"/games/{jp}/jackpot/spins/{sid}/cards/1")
    assert refused.status_code == 403 and text not in table.html(refused)
    assert_never_shown(BENS, table, keeper2, watcher, cy, table.phone(role=None), game=jp)
    assert dealt(table, jp)[0][3] is None  # no other phone's look revealed it
    # Ben's phone shows it: that is the reveal, recorded once.
    own = ben.client.get(f"/games/{jp}/jackpot/spins/{sid}")
    link = ben.page(own).select_one("#reveal-first")
    assert ben.text(link) == "Ben: show my rule card"
    assert text not in ben.html(own)
    card = ben.client.get(link["href"])
    assert ben.text(ben.page(card).select_one("#rule-card")) == text
    first = dealt(table, jp)[0][3]
    assert first is not None
    ben.client.get(link["href"])
    assert dealt(table, jp)[0][3] == first
    # Then every phone may read it (Ben performs it aloud); the other stays hidden.
    other = next(t for t in BENS if t != text)
    history = table.client.get(f"/games/{jp}/jackpot/history")
    assert f"Ben: “{text}”" in table.text(history)
    assert text in watcher.html(watcher.client.get(f"/games/{jp}/jackpot/spins/{sid}/cards/1"))
    assert_never_shown([other], table, keeper2, watcher, cy, game=jp)


def test_everyone_the_shared_phone_passes_round_the_players_without_their_own(table, jp):
    for seat, texts in SHARED.items():
        write(table, jp, seat, *texts)
    ben = player(table, jp, 1)
    write(ben, jp, 1, *BENS)
    sid = pull(table, jp, 0, LeverOutcome.EVERYONE, "all")
    order = [(seat, text) for _, seat, text, _ in dealt(table, jp)]
    assert [seat for seat, _ in order] == [0, 1, 2]
    result = table.client.get(f"/games/{jp}/jackpot/spins/{sid}")
    assert "Pass the phone to Ana." in table.text(result)
    assert table.text(table.page(result).select_one("#dealt-elsewhere")) == (
        "Ben: your rule card is on your phone.")
    # Ana's card, then straight on to Cy's: Ben's is on his phone.
    ana = table.client.get(table.page(result).select_one("#reveal-first")["href"])
    assert table.text(table.page(ana).select_one("#rule-card")) == order[0][1]
    assert "Then pass the phone to Cy." in table.text(ana)
    assert order[1][1] not in table.html(ana)
    cys = table.client.get(f"/games/{jp}/jackpot/spins/{sid}/cards/3")
    assert table.text(table.page(cys).select_one("#rule-card")) == order[2][1]
    assert table.client.get(f"/games/{jp}/jackpot/spins/{sid}/cards/2").status_code == 403
    # Ben's phone: his card, and where the others are.
    own = ben.client.get(f"/games/{jp}/jackpot/spins/{sid}")
    assert ben.page(own).select_one("#reveal-first")["href"].endswith(f"/spins/{sid}/cards/2")
    assert f"Ana's rule card: “{order[0][1]}”" in ben.text(own)  # revealed, performed aloud
    bens = ben.client.get(f"/games/{jp}/jackpot/spins/{sid}/cards/2")
    assert ben.text(ben.page(bens).select_one("#rule-card")) == order[1][1]
    assert "pass the phone" not in ben.text(bens)
    assert all(r[3] for r in dealt(table, jp))


# -- the one-phone flow, as it was ---------------------------------------------------------


def test_one_phone_writes_every_seat_and_reveals_each_card_passed_round(table, jp):
    for seat, texts in ((0, SHARED[0]), (1, BENS), (2, SHARED[2])):
        assert write(table, jp, seat, *texts).status_code == 303
    page = table.client.get(f"/games/{jp}/jackpot/cards/1")
    assert [box.get_text() for box in table.page(page).select("textarea[name=card]")] == BENS
    sid = pull(table, jp, 2, LeverOutcome.EVERYONE, "one")
    order = dealt(table, jp)
    result = table.client.get(f"/games/{jp}/jackpot/spins/{sid}")
    assert "Pass the phone to Cy." in table.text(result)
    assert table.page(result).select_one("#dealt-elsewhere") is None
    history = table.client.get(f"/games/{jp}/jackpot/history")
    assert table.text(history).count("(not yet revealed)") == 3
    watcher = table.phone(role="viewer", game_id=jp)  # just watching: no seat
    assert watcher.client.get(f"/games/{jp}/jackpot/spins/{sid}/cards/1").status_code == 403
    href = table.page(result).select_one("#reveal-first")["href"]
    for k, (_, seat, text, _) in enumerate(order):
        card = table.client.get(href)
        assert table.text(table.page(card).select_one("h1")) == f"{NAMES[seat]}, your rule card"
        assert table.text(table.page(card).select_one("#rule-card")) == text
        link = table.page(card).select_one(".pass + a")
        if k < 2:
            assert f"Then pass the phone to {NAMES[order[k + 1][1]]}." in table.text(card)
            href = link["href"]
    assert all(r[3] for r in dealt(table, jp))
    history = watcher.client.get(f"/games/{jp}/jackpot/history")
    assert all(f"{NAMES[seat]}: “{text}”" in watcher.text(history) for _, seat, text, _ in order)
