"""Several phones at one table: forms sent at the same moment against a live, threaded server.

Each racy case sends two requests through a :class:`threading.Barrier` (both connected
first, then both sent at once), and is run several times (each on a new game) so that a
lost race shows; every round is reported when one goes wrong. The rule checked
everywhere: what a phone saw acknowledged (its 303) is stored, once; a form made from a
state of the game that has since changed is refused with a 409, never saved over the
change; and no request is ever answered with a 5xx.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from live_server import ONE_TIME_FIELDS, Form, Phone, Reply, ThreadServer, together

#: How many times each race is run (each on a new game).
ROUNDS = 10


@pytest.fixture
def server(app) -> Iterator[ThreadServer]:
    """The test's app served on a free port of 127.0.0.1, one thread per request.

    The server runs in this process, so its request threads share one interpreter: the
    switch interval is made tiny for the test, so that two requests sent at once really
    interleave (with the default 5 ms, one often runs to its end before the other starts).
    """
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        with ThreadServer(app) as live:
            yield live
    finally:
        sys.setswitchinterval(interval)


@pytest.fixture
def phones(server) -> list[Phone]:
    """Four phones, each with its own session, on the live server."""
    return [Phone(server.port, f"phone-{i}") for i in range(4)]


def failures(server: ThreadServer, phones: list[Phone]) -> str:
    """Every 5xx the phones got, and the exception the app raised for each ("" if none)."""
    replies = [e for p in phones for e in p.server_errors()]
    if not replies and not server.errors:
        return ""
    return f"5xx replies: {replies}; raised in the app: {sorted(set(server.errors))}"


def stored(table, game_id: int) -> list[tuple[int, dict[int, int]]]:
    """The game's live hands as (who went out, {seat: points}), oldest first."""
    hands = []
    for hand_id in table.hand_ids(game_id):
        (went_out,) = table.rows("select went_out from hands where id = ?", [hand_id])[0]
        points = dict(table.rows("select seat, points from holdings where hand_id = ?",
                                 [hand_id]))
        hands.append((went_out, points))
    return hands


def as_stored(entry: Mapping[str, str]) -> tuple[int, dict[int, int]]:
    """A typed-totals entry (``TableActions.hand_fields``) as :func:`stored` reads it back."""
    return (int(entry["out"]),
            {int(k[4:]): int(v) for k, v in entry.items() if k.startswith("pts-")})


def race(first: tuple[Phone, Form], second: tuple[Phone, Form],
         drop: tuple[str, ...] = ()) -> tuple[Reply, Reply]:
    """Submit two forms (each from its phone) at the same moment."""
    barrier = threading.Barrier(2)
    (p1, f1), (p2, f2) = first, second
    a, b = together(lambda: p1.submit(f1, barrier, drop=drop),
                    lambda: p2.submit(f2, barrier, drop=drop))
    return a, b


def check_rounds(rounds: list[dict[str, Any]], server: ThreadServer, phones: list[Phone]) -> None:
    """Every round went right and nothing was a 5xx; else say what happened in each round."""
    bad = [r for r in rounds if not r["ok"]]
    errors = failures(server, phones)
    assert not bad and not errors, (
        f"{len(bad)} of {len(rounds)} rounds went wrong; {errors or 'no 5xx'}; rounds: "
        + "; ".join(str({k: v for k, v in r.items() if k != "ok"}) for r in rounds))


# -- the helpers themselves ---------------------------------------------------------------


def test_a_phone_records_and_edits_a_hand_through_the_served_forms(table, server, phones):
    # Sanity: the live server, the form reader and the phone work, so that the races
    # below fail for what they test and not for a broken helper.
    ann = phones[0]
    game_id = ann.new_game(["Ann", "Bob", "Cy"])
    save = ann.record(game_id, table.hand_fields(0, {1: "red-7 wild", 2: 3}))
    assert save.status == 303 and save.location == f"/games/{game_id}"
    board = ann.get(save.location)
    assert board.status == 200 and table.totals(board) == (60, 0, 0)
    assert stored(table, game_id) == [(0, {1: 57, 2: 3})]

    # An edit through the edit page's own forms; the same form sent again is refused.
    (hand_id,) = table.hand_ids(game_id)
    review = ann.review(ann.picker(game_id, 1, hand_id), table.hand_fields(1, {0: 8, 2: 4}))
    form = ann.save_form(review)
    assert ann.submit(form).status == 303
    assert ann.submit(form).status == 409
    assert stored(table, game_id) == [(1, {0: 8, 2: 4})]
    # Another phone has a session (and token) of its own, and sees the same game once it
    # opened the game's link.
    phones[1].join(ann, game_id)
    assert phones[1].get(f"/games/{game_id}").status == 200
    assert phones[1].cookies and phones[1].cookies != ann.cookies
    assert not failures(server, phones)


# -- (a) and (b): one form sent twice at once --------------------------------------------


def test_one_save_form_sent_twice_at_once_saves_one_hand(table, server, phones):
    ann = phones[0]
    rounds = []
    for _ in range(ROUNDS):
        game_id = ann.new_game()
        form = ann.save_form(ann.review(ann.picker(game_id, 0),
                                        table.hand_fields(0, {1: "red-7 blue-skip", 2: 3})))
        a, b = race((ann, form), (ann, form))
        statuses, hands = sorted([a.status, b.status]), len(table.hand_ids(game_id))
        rounds.append({"statuses": statuses, "hands": hands,
                       "ok": statuses == [303, 409] and hands == 1})
    check_rounds(rounds, server, phones)


def test_one_save_form_without_its_one_time_key_sent_twice_at_once_saves_one_hand(
        table, server, phones):
    ann = phones[0]
    rounds = []
    for _ in range(ROUNDS):
        game_id = ann.new_game()
        form = ann.save_form(ann.review(ann.picker(game_id, 0),
                                        table.hand_fields(0, {1: 12, 2: 3})))
        dropped = tuple(n for n in form.names() if n in ONE_TIME_FIELDS)
        assert dropped, f"the save form has no one-time field: {form.names()}"
        a, b = race((ann, form), (ann, form), drop=dropped)
        statuses, hands = sorted([a.status, b.status]), len(table.hand_ids(game_id))
        rounds.append({"statuses": statuses, "hands": hands,
                       "ok": statuses[0] == 303 and 400 <= statuses[1] < 500 and hands == 1})
    check_rounds(rounds, server, phones)


# -- (c): two tables, two different new hands, one starting state ------------------------


def keep_mine(phone: Phone, clash: Reply) -> Reply:
    """Press "Keep mine" on the clash page a refused save was answered with."""
    return phone.submit(clash.form(form_id="keep-mine"))


def test_two_phones_saving_different_new_hands_at_once_keep_one_and_ask_the_other(
        table, server, phones):
    ann, bob = phones[:2]
    rounds = []
    for _ in range(ROUNDS):
        game_id = ann.new_game()
        bob.join(ann, game_id)
        ann_entry = table.hand_fields(0, {1: 10, 2: 20})
        bob_entry = table.hand_fields(1, {0: 30, 2: 40})
        # Both pickers and reviews are made from the same game, before either saves.
        ann_page, bob_page = ann.picker(game_id, 0), bob.picker(game_id, 1)
        ann_form = ann.save_form(ann.review(ann_page, ann_entry))
        bob_form = bob.save_form(bob.review(bob_page, bob_entry))
        a, b = race((ann, ann_form), (bob, bob_form))
        hands = stored(table, game_id)
        replies = {"ann": (a, ann, ann_entry), "bob": (b, bob, bob_entry)}
        saved = [as_stored(e) for r, _, e in replies.values() if r.status == 303]
        ok = sorted([a.status, b.status]) == [303, 409] and hands == saved
        if ok:
            # The second phone is told, not told "already saved"; its hand is kept as hand 2.
            clash, phone, entry = next(v for v in replies.values() if v[0].status == 409)
            ok = "saved hand 1 first" in clash.words() and \
                keep_mine(phone, clash).status == 303 and \
                stored(table, game_id) == [*saved, as_stored(entry)]
        rounds.append({"ann": a.status, "bob": b.status, "stored": hands,
                       "then": stored(table, game_id), "ok": ok})
    check_rounds(rounds, server, phones)


def test_a_new_hand_reviewed_before_another_was_saved_asks_before_keeping_it(
        table, server, phones):
    # The same, one after the other: Bob's review was made before Ann's hand was saved.
    ann, bob = phones[:2]
    game_id = ann.new_game()
    bob.join(ann, game_id)
    ann_entry = table.hand_fields(0, {1: 10, 2: 20})
    bob_entry = table.hand_fields(1, {0: 30, 2: 40})
    bob_form = bob.save_form(bob.review(bob.picker(game_id, 1), bob_entry))
    assert ann.record(game_id, ann_entry).status == 303
    late = bob.submit(bob_form)
    assert (late.status, stored(table, game_id)) == (409, [as_stored(ann_entry)]), late.words()
    assert "Another phone saved hand 1 first" in late.words()
    assert "Already saved" not in late.words()
    # "Keep mine": hand 2; tapped twice, still one hand 2.
    again = late.form(form_id="keep-mine")
    assert bob.submit(again).status == 303
    twice = bob.submit(again)
    assert twice.status == 409 and "Already saved" in twice.words()
    assert stored(table, game_id) == [as_stored(ann_entry), as_stored(bob_entry)]
    assert not failures(server, phones)


# -- (d): two edits of one hand ----------------------------------------------------------


def test_two_edits_of_one_hand_saved_at_once_apply_one(table, server, phones):
    ann, bob = phones[:2]
    rounds = []
    for _ in range(ROUNDS):
        game_id = ann.new_game()
        bob.join(ann, game_id)
        assert ann.record(game_id, table.hand_fields(0, {1: 10, 2: 20})).status == 303
        (hand_id,) = table.hand_ids(game_id)
        ann_entry = table.hand_fields(1, {0: 8, 2: 4})
        bob_entry = table.hand_fields(2, {0: 5, 1: 6})
        # Both edit pages and reviews are made from the hand as first saved.
        ann_page, bob_page = ann.picker(game_id, 1, hand_id), bob.picker(game_id, 2, hand_id)
        ann_form = ann.save_form(ann.review(ann_page, ann_entry))
        bob_form = bob.save_form(bob.review(bob_page, bob_entry))
        a, b = race((ann, ann_form), (bob, bob_form))
        hands = stored(table, game_id)
        saved = [as_stored(e) for e, r in ((ann_entry, a), (bob_entry, b)) if r.status == 303]
        rounds.append({"ann": a.status, "bob": b.status, "stored": hands,
                       "ok": sorted([a.status, b.status]) == [303, 409] and hands == saved
                       and table.hand_ids(game_id) == [hand_id]})
    check_rounds(rounds, server, phones)


def test_an_edit_reviewed_before_another_edit_was_saved_is_refused(table, server, phones):
    ann, bob = phones[:2]
    game_id = ann.new_game()
    bob.join(ann, game_id)
    assert ann.record(game_id, table.hand_fields(0, {1: 10, 2: 20})).status == 303
    (hand_id,) = table.hand_ids(game_id)
    ann_entry = table.hand_fields(1, {0: 8, 2: 4})
    # Both edit pages and reviews are made from the hand as first saved; Ann saves first.
    ann_form = ann.save_form(ann.review(ann.picker(game_id, 1, hand_id), ann_entry))
    bob_form = bob.save_form(bob.review(bob.picker(game_id, 2, hand_id),
                                        table.hand_fields(2, {0: 5, 1: 6})))
    assert ann.submit(ann_form).status == 303
    late = bob.submit(bob_form)
    assert (late.status, stored(table, game_id)) == (409, [as_stored(ann_entry)]), late.words()
    assert not failures(server, phones)


# -- (e): the deciding hand of a Challenge UNO game ---------------------------------------


def test_two_deciding_hands_saved_at_once_end_the_game_once(table, server, phones):
    ann, bob = phones[:2]
    rounds = []
    for _ in range(ROUNDS):
        game_id = ann.new_game(["Ann", "Bob"], mode="challenge", target="50")
        bob.join(ann, game_id)
        # Either hand eliminates the other player, so either one ends the game.
        ann_entry = table.hand_fields(0, {1: 50})
        bob_entry = table.hand_fields(1, {0: 60})
        ann_page, bob_page = ann.picker(game_id, 0), bob.picker(game_id, 1)
        ann_review, bob_review = ann.review(ann_page, ann_entry), bob.review(bob_page, bob_entry)
        assert "wins the game with this hand" in ann_review.words()
        assert "wins the game with this hand" in bob_review.words()
        a, b = race((ann, ann.save_form(ann_review)), (bob, bob.save_form(bob_review)))
        hands = stored(table, game_id)
        saved = [as_stored(e) for e, r in ((ann_entry, a), (bob_entry, b)) if r.status == 303]
        pages = {path: ann.get(path).status
                 for path in ("/", f"/games/{game_id}", f"/games/{game_id}/hands")}
        rounds.append({"ann": a.status, "bob": b.status, "stored": hands, "pages": pages,
                       "ok": sorted([a.status, b.status]) == [303, 409] and hands == saved
                       and set(pages.values()) == {200}})
    check_rounds(rounds, server, phones)


# -- (f): many tables saving at once ------------------------------------------------------


THREADS = 4
HANDS = 10


def test_many_phones_saving_to_their_own_games_at_once_never_get_a_server_error(
        table, server, phones):
    start = threading.Barrier(THREADS)
    saving = threading.Barrier(THREADS)

    def new_game_form(phone: Phone, seat_count: int) -> Form:
        page = phone.get("/games/new?variant=classic")
        return page.form(form_id="new-game").fill_all("player",
                                                      ["Ann", "Bob", "Cy", "Dee"][:seat_count])

    def play(phone: Phone, seat_count: int) -> tuple[int | None, list[int | str]]:
        # The four games are started at once too; a phone refused then (already a failure)
        # starts its game on its own, so that the saves are still tried.
        created = phone.submit(new_game_form(phone, seat_count), start)
        saves: list[int | str] = [] if created.status == 303 else [f"new game {created.status}"]
        if created.status != 303:
            created = phone.submit(new_game_form(phone, seat_count))
        if created.status != 303:
            saving.abort()  # the others stop at their next save instead of waiting
            return None, [*saves, created.status]
        game_id = int(created.location.rsplit("/", 1)[1])
        try:
            for n in range(HANDS):
                entry = table.hand_fields(0, {seat: n + seat for seat in range(1, seat_count)})
                review = phone.review(phone.picker(game_id, 0), entry)
                if review.status != 200:
                    saving.wait(timeout=30)  # keep in step with the others
                    saves.append(review.status)
                    continue
                saves.append(phone.submit(phone.save_form(review), saving).status)
        except threading.BrokenBarrierError:
            saves.append("stopped: another phone could not start its game")
        return game_id, saves

    results = together(*(lambda p=p, i=i: play(p, 2 + i % 3) for i, p in enumerate(phones)))
    stored_hands = [len(table.hand_ids(g)) if g else 0 for g, _ in results]
    errors = failures(server, phones)
    assert not errors and all(saves == [303] * HANDS for _, saves in results) \
        and stored_hands == [HANDS] * THREADS, \
        f"{errors or 'no 5xx'}; saves per phone: {[s for _, s in results]}; " \
        f"hands stored per game: {stored_hands}"
