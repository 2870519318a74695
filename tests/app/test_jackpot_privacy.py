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


def answer(phone, game: int, seat: int, said: str):
    """The phone passed round answers a phone asking for ``seat``: yes or no."""
    return phone.post(f"/games/{game}/seats/{seat}/answer", {"answer": said})


def seats(table) -> list[tuple[int, ...]]:
    return table.rows("select seat from access where seat is not null order by seat")


def write(phone, game: int, seat: int, *texts: str):
    return phone.post(f"/games/{game}/jackpot/cards/{seat}", {"card": list(texts)})


def pull(phone, game: int, puller: int, outcome: LeverOutcome, key: str) -> int:
    phone.app.config["JACKPOT_RANDOM"] = Always(outcome)
    response = phone.post(f"/games/{game}/jackpot/spins",
                          {"puller": str(puller), "direction": "clockwise", "submission": key})
    assert response.status_code == 303, phone.text(response)
    return int(re.search(r"/spins/(\d+)", response.headers["Location"]).group(1))


def player(table, game: int, seat: int, role: str = "viewer"):
    """A player's own phone: the viewer's link opened, the seat chosen, and the phone
    passed round (``table``, where the seat's cards showed until then) says yes."""
    phone = table.phone(role=role, game_id=game)
    assert claim(phone, game, seat).status_code == 303
    assert answer(table, game, seat, "yes").status_code == 303
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


def test_the_viewers_link_asks_which_player_and_the_phone_passed_round_says_yes(table, jp):
    phone = table.phone(role=None)
    opened = phone.join(table.share_links(jp)["viewer"])
    assert phone.page(opened).select_one("body")["data-address"] == f"/games/{jp}/seat"
    page = phone.client.get(f"/games/{jp}/seat")
    assert [phone.text(b) for b in phone.page(page).select("button[name=seat]")] == NAMES
    assert phone.page(page).select_one("#just-watching")["href"] == f"/games/{jp}"
    # Ben's cards show on the phone passed round until now: it is asked, on any page.
    assert claim(phone, jp, 1).status_code == 303
    assert seats(table) == []
    waiting = phone.client.get(f"/games/{jp}")
    assert "Waiting for the phone passed round the table to say this phone is Ben's." in (
        phone.text(phone.page(waiting).select_one("#asking")))
    for page in (f"/games/{jp}", f"/games/{jp}/hands", f"/games/{jp}/jackpot/cards"):
        asked = table.page(table.client.get(page)).select_one("#seat-ask-1")
        assert "Another phone says it is Ben's own" in table.text(asked), page
    assert answer(table, jp, 1, "yes").status_code == 303
    assert seats(table) == [(1,)]
    assert answer(table, jp, 1, "yes").status_code == 303  # sent again: nothing more
    assert claim(phone, jp, 1).status_code == 303  # the same seat: nothing changes
    assert seats(table) == [(1,)]
    assert table.page(table.client.get(f"/games/{jp}")).select_one("#seat-ask-1") is None
    # Another phone cannot take Ben's seat: it is told so, and may take another.
    other = table.phone(role="viewer", game_id=jp)
    refused = claim(other, jp, 1)
    assert refused.status_code == 409
    assert "Ben is already chosen on another phone" in other.text(refused)
    page = other.page(other.client.get(f"/games/{jp}/seat"))
    assert page.select_one("button[name=seat][value='1']").has_attr("disabled")
    assert claim(other, jp, 9).status_code == 400
    assert seats(table) == [(1,)]
    # The scorekeeper frees the seat (from the share page): now the other phone may ask.
    share = table.page(table.client.get(f"/games/{jp}/share"))
    assert "Ben's own phone" in table.text(share.select_one("#own-phones"))
    assert table.post(f"/games/{jp}/seats/1/free").status_code == 303
    assert claim(other, jp, 1).status_code == 303
    assert answer(table, jp, 1, "no").status_code == 303  # not Ben's: nothing changes
    assert seats(table) == [] and table.rows("select asks_seat from access "
                                             "where asks_seat is not null") == []
    assert claim(other, jp, 1).status_code == 303
    assert answer(table, jp, 1, "yes").status_code == 303
    # ... or from the rule cards page, where Ben's row offers it (after asking).
    link = table.page(table.client.get(f"/games/{jp}/jackpot/cards")).select_one(
        f"a[href='/games/{jp}/seats/1/free?back=cards']")
    assert link is not None
    asked = table.page(table.client.get(f"/games/{jp}/seats/1/free?back=cards"))
    form = asked.select_one(f"form[action='/games/{jp}/seats/1/free']")
    assert form is not None and form.select_one("input[name=back][value=cards]") is not None
    assert table.post(f"/games/{jp}/seats/1/free", {"back": "cards"}).headers[
        "Location"] == f"/games/{jp}/jackpot/cards"
    assert seats(table) == []


def test_a_wrong_tap_is_undone_on_the_phone_itself(table, jp):
    cy = player(table, jp, 1)  # Cy tapped Ben by mistake
    page = cy.page(cy.client.get(f"/games/{jp}/seat"))
    assert cy.text(page.select_one("#this-phone")).startswith("You are Ben.")
    assert cy.text(page.select_one("#not-me button")) == "I am not Ben"
    assert cy.post(f"/games/{jp}/seat", {"release": "1"}).status_code == 303
    assert seats(table) == []
    assert claim(cy, jp, 2).status_code == 303
    assert answer(table, jp, 2, "yes").status_code == 303
    assert seats(table) == [(2,)]
    # A phone that asked by mistake takes its ask back before anyone answers.
    dee = table.phone(role="viewer", game_id=jp)
    assert claim(dee, jp, 0).status_code == 303
    assert dee.post(f"/games/{jp}/seat", {"release": "1"}).status_code == 303
    assert table.page(table.client.get(f"/games/{jp}")).select_one("#seat-ask-0") is None
    assert answer(table, jp, 0, "yes").status_code == 303  # too late: nothing to say yes to
    assert seats(table) == [(2,)]


def test_nobody_takes_a_seat_without_the_phone_passed_round_saying_yes(table, jp):
    ben = table.phone(role="viewer", game_id=jp)
    intruder = table.phone(role="viewer", game_id=jp)
    keeper2 = table.phone(role="keeper", game_id=jp)
    assert claim(ben, jp, 0).status_code == 303  # asks for Ana's seat
    # One phone asks for a seat at a time; nobody but the phone passed round answers.
    refused = claim(intruder, jp, 0)
    assert refused.status_code == 409 and "Another phone is asking to be Ana's" in (
        intruder.text(refused))
    for phone in (ben, intruder, keeper2):
        assert answer(phone, jp, 0, "yes").status_code == 403
    assert table.phone(role=None).post(f"/games/{jp}/seats/0/answer",
                                       {"answer": "yes"}).status_code == 404
    assert seats(table) == []
    watcher = table.phone(role="viewer", game_id=jp)
    assert watcher.post(f"/games/{jp}/seats/1/free").status_code == 403
    stranger = table.phone(role=None)
    assert claim(stranger, jp, 2).status_code == 404
    assert seats(table) == []


def test_a_scorekeeper_who_plays_takes_their_own_seat(table, jp):
    # The phone passed round takes its own player's seat at once (its cards show there).
    assert claim(table, jp, 0).status_code == 303
    assert seats(table) == [(0,)]
    # A second scorekeeper's phone asks, like any other.
    ben = player(table, jp, 1, role="keeper")
    assert table.rows("select role, seat from access where seat = 1") == [("keeper", 1)]
    assert ben.post(f"/games/{jp}/seats/1/free").status_code == 303  # a keeper frees seats
    # A player's phone given the scorekeeper's link keeps its seat.
    cy = player(table, jp, 2)
    cy.join(table.share_links(jp)["keeper"])
    assert table.rows("select role, seat from access where seat = 2") == [("keeper", 2)]


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
    # "Change" on the phone passed round: Ben's cards are not sent to whoever holds it
    # (issue 26), a box each to write over them.
    page = table.client.get(f"/games/{jp}/jackpot/cards/1")
    assert [box.get_text() for box in table.page(page).select("textarea[name=card]")] == ["", ""]
    assert not any(text in page.get_data(as_text=True) for text in BENS)
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


# -- a second scorekeeper's phone: not the one passed round (issue 26) ------------------------


def test_a_second_scorekeepers_phone_reads_no_players_card_on_any_page_or_export(table, jp):
    ben = table.phone(role="keeper", game_id=jp)  # the scorekeeper's link, on Ben's phone
    texts = {0: SHARED[0], 1: BENS, 2: SHARED[2]}
    for seat, written in texts.items():  # on the phone passed round, for each player
        assert write(table, jp, seat, *written).status_code == 303
    refused = write(ben, jp, 0, "Nope")
    assert refused.status_code == 409 and "on the phone passed round" in ben.text(refused)
    sid = pull(ben, jp, 1, LeverOutcome.EVERYONE, "bens-pull")  # Ben's phone pulls
    everything = [t for written in texts.values() for t in written]
    # Ben's phone: where each card shows, no reveal, no "pass the phone".
    result = ben.client.get(f"/games/{jp}/jackpot/spins/{sid}")
    assert ben.page(result).select_one("#reveal-first") is None
    assert "Pass the phone" not in ben.text(result)
    assert "Ana: your rule card shows on the phone passed round." in ben.text(result)
    for turn in (1, 2, 3):
        assert ben.client.get(f"/games/{jp}/jackpot/spins/{sid}/cards/{turn}").status_code == 403
    assert_never_shown(everything, ben, game=jp)
    exported = ben.client.get(f"/games/{jp}/export.json").get_json()
    assert [c["text"] for c in exported["rule_cards"]] == [None] * 6
    assert [c["text"] for s in exported["spins"] for c in s["cards"]] == [None] * 3
    assert exported["withheld"]
    standings = ben.client.get(f"/games/{jp}/standings.csv").get_data(as_text=True)
    assert not any(t in standings for t in everything)
    assert all(r[3] is None for r in dealt(table, jp))  # Ben's looks revealed nothing
    # The phone passed round (the one that started the game) shows each, handed round.
    result = table.client.get(f"/games/{jp}/jackpot/spins/{sid}")
    assert "Pass the phone to Ben." in table.text(result)  # Ben pulled: he goes first
    card = table.client.get(f"/games/{jp}/jackpot/spins/{sid}/cards/1")
    assert table.text(table.page(card).select_one("#rule-card")) == dealt(table, jp)[0][2]
    mine = table.client.get(f"/games/{jp}/export.json").get_json()
    assert sorted(c["text"] for c in mine["rule_cards"]) == sorted(everything)


def test_the_lever_page_stops_passing_the_phone_once_every_card_is_shown(table, jp):
    for seat, written in ((0, SHARED[0]), (1, BENS), (2, SHARED[2])):
        write(table, jp, seat, *written)
    sid = pull(table, jp, 0, LeverOutcome.EVERYONE, "all-shown")
    for turn in (1, 2, 3):
        assert table.client.get(f"/games/{jp}/jackpot/spins/{sid}/cards/{turn}").status_code == 200
    for page in (f"/games/{jp}/jackpot/spins/{sid}", f"/games/{jp}/jackpot/spins/{sid}?new=1"):
        result = table.page(table.client.get(page))
        assert result.select_one("#reveal-first") is None, page
        assert "Pass the phone" not in table.text(result), page
        shown = table.text(result.select_one("#dealt-elsewhere"))
        assert all(f"{NAMES[seat]}'s rule card: “{text}”" in shown
                   for _, seat, text, _ in dealt(table, jp))
    # Half-way through, the next card not yet shown is offered, not the first.
    sid = pull(table, jp, 0, LeverOutcome.EVERYONE, "half-shown")
    table.client.get(f"/games/{jp}/jackpot/spins/{sid}/cards/1")
    result = table.page(table.client.get(f"/games/{jp}/jackpot/spins/{sid}"))
    assert table.text(result.select_one("#reveal-first")) == "Ben: show my rule card"


# -- what waits for a phone, on any page of the game (issue 26) -------------------------------


def test_a_dealt_card_waits_for_its_phone_on_every_page_of_the_game(table, jp):
    cy = player(table, jp, 2)
    write(cy, jp, 2, "Moo once", "Moo twice")
    write(table, jp, 0, *SHARED[0])
    watcher = table.phone(role="viewer", game_id=jp)
    keeper2 = table.phone(role="keeper", game_id=jp)
    before = cy.client.get(f"/games/{jp}")
    poll = cy.page(before).select_one("#for-you-live")
    assert cy.page(before).select_one("#dealt-banner") is None
    unchanged = cy.client.get(poll["hx-get"], headers={"HX-Request": "true",
                                                       "If-None-Match": f'"{poll["data-etag"]}"'})
    assert unchanged.status_code == 304
    sid = pull(keeper2, jp, 1, LeverOutcome.LEFT, "to-cy")  # Ben's pull deals Cy a card
    polled = cy.client.get(poll["hx-get"], headers={"HX-Request": "true",
                                                    "If-None-Match": f'"{poll["data-etag"]}"'})
    assert polled.status_code == 200
    banner = cy.page(polled).select_one("#dealt-banner")
    assert cy.text(banner).startswith("Cy, the lever dealt you a rule card.")
    read = banner.select_one("#read-dealt")
    assert read["href"] == f"/games/{jp}/jackpot/spins/{sid}/cards/1"
    assert cy.text(read) == "Read my rule card"
    # The poll gets the banner alone; its address opened in a browser is a page with it.
    assert "<html" not in cy.html(polled)
    opened = cy.client.get(poll["hx-get"])
    assert cy.text(cy.page(opened).select_one("h1")) == "For this phone"
    assert cy.page(opened).select_one("#for-you #read-dealt")["href"] == read["href"]
    for page in (f"/games/{jp}", f"/games/{jp}/hands", f"/games/{jp}/rulings",
                 f"/games/{jp}/jackpot/history", f"/games/{jp}/jackpot/cards",
                 f"/games/{jp}/share", f"/referee?game={jp}"):
        shown = cy.page(cy.client.get(page)).select_one("#dealt-banner #read-dealt")
        assert shown is not None and shown["href"] == read["href"], page
    # Nobody else is told, and the banner holds no text.
    for phone in (table, watcher, keeper2):
        assert phone.page(phone.client.get(f"/games/{jp}")).select_one("#dealt-banner") is None
    text = dealt(table, jp)[0][2]
    assert text not in cy.html(polled)
    # One tap reads it; then the banner is gone.
    card = cy.client.get(read["href"])
    assert cy.text(cy.page(card).select_one("#rule-card")) == text
    assert cy.page(cy.client.get(f"/games/{jp}")).select_one("#dealt-banner") is None
    # A card for a player without a phone of their own waits on the phone passed round.
    pull(keeper2, jp, 2, LeverOutcome.LEFT, "to-ana")
    shared = table.page(table.client.get(f"/games/{jp}/hands")).select_one("#dealt-banner")
    assert table.text(shared).startswith("The lever dealt Ana a rule card: pass the phone to Ana.")
    assert keeper2.page(keeper2.client.get(f"/games/{jp}")).select_one("#dealt-banner") is None


# -- a rematch keeps the table (issue 26) -----------------------------------------------------


def test_a_rematch_keeps_the_rule_cards_and_the_players_own_phones(table, app):
    app.config["JACKPOT_RANDOM"] = random.Random(11)
    game = table.create_game(NAMES, variant="wild-jackpot", target="10")
    ben = player(table, game, 1)
    write(ben, game, 1, *BENS)
    write(table, game, 0, *SHARED[0])
    write(table, game, 2, *SHARED[2])
    pull(table, game, 0, LeverOutcome.LEFT, "before")
    table.record(game, 0, {1: 20, 2: 5})
    response = table.submit(table.scoreboard(game), f"/games/{game}/rematch")
    new = int(response.headers["Location"].rsplit("/", 1)[1])
    # Every card written, back in the unit; each still readable only where it was written.
    assert sorted(cards(table, new)) == sorted(cards(table, game))
    assert table.rows("select count(*) from rule_cards where game_id = ? and pile = 'loaded'",
                      [new]) == [(6,)]
    assert table.rows("select written_by from rule_cards where game_id = ? order by seat, text",
                      [new]) == table.rows("select written_by from rule_cards where game_id = ? "
                                           "order by seat, text", [game])
    # The scorekeeper's phone is still the one passed round; Ben's phone, following, Ben's.
    assert table.rows("select count(*) from access where game_id = ? and passed_round = 1",
                      [new]) == [(1,)]
    followed = ben.submit(ben.scoreboard(game), f"/games/{game}/rematch/follow")
    assert followed.headers["Location"] == f"/games/{new}"
    assert table.rows("select seat from access where game_id = ? and seat is not null",
                      [new]) == [(1,)]
    mine = ben.page(ben.client.get(f"/games/{new}/jackpot/cards/1"))
    assert sorted(box.get_text() for box in mine.select("textarea[name=card]")) == sorted(BENS)
    assert_never_shown(BENS, table, game=new)


def test_the_table_names_the_phone_it_passes_round_never_taking_it(table, jp):
    write(table, jp, 0, *SHARED[0])
    ben = table.phone(role="keeper", game_id=jp)
    watcher = table.phone(role="viewer", game_id=jp)
    taken = ben.post(f"/games/{jp}/passed-round", {"take": "1"})
    assert taken.status_code == 409 and "stops being passed round first" in ben.text(taken)
    assert watcher.post(f"/games/{jp}/passed-round", {"take": "1"}).status_code == 403
    assert ben.post(f"/games/{jp}/passed-round", {"leave": "1"}).status_code == 303  # not its
    page = table.page(table.client.get(f"/games/{jp}/seat"))
    assert table.text(page.select_one("#passed-round button")) == "Stop passing this phone round"
    assert table.post(f"/games/{jp}/passed-round", {"leave": "1"}).status_code == 303
    assert ben.post(f"/games/{jp}/passed-round", {"take": "1"}).status_code == 303
    # Now Ben's phone writes and reads for the players without their own, Ana's phone not:
    # the cards Ana's phone wrote stay hidden there until torn up.
    assert table.rows("select count(*) from access where game_id = ? and passed_round = 1 and "
                      "role = 'keeper'", [jp]) == [(1,)]
    assert "2 written on a scorekeeper's phone: hidden here" in ben.text(
        ben.client.get(f"/games/{jp}/jackpot/cards/0"))
    assert write(ben, jp, 2, "Ben's phone writes Cy's").status_code == 303
    assert_never_shown(["Ben's phone writes Cy's"], table, game=jp)
