"""The server killed mid-game: what the table was told is saved must still be there, once.

The real command (``python -m companion.cli serve``) runs in a subprocess over a database
file. Four phones, each with its own session, record hands through the served forms at
the same time, each into its own game; the server is killed with SIGKILL while they do,
then started again on the same file (and the same secret key, so the phones' sessions
and tokens still hold), twice. Afterwards every hand whose save was answered with its
303 is stored exactly once, no hand is stored twice, the file passes SQLite's integrity
check, every game's pages open, and no reply along the way was a 5xx. (A connection
refused or cut by the kill is expected: it acknowledged nothing.)
"""

from __future__ import annotations

import http.client
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from live_server import Form, Phone, ServerProcess, together

PHONES = 4
#: Kills: the server is killed (and started again) this many times.
ROUNDS = 2
#: A phone stops sending after this many requests in a round, whatever happens.
MAX_REQUESTS = 300
#: The server is killed once this many saves were acknowledged, or after LOAD_SECONDS.
KILL_AFTER_SAVES = 60
LOAD_SECONDS = 1.5
#: ...but not before this many (else the round would test nothing).
MIN_SAVES = 4


@dataclass
class Player:
    """A phone recording hands into its own game; each hand's mark (Bob's typed total) is
    new, so that the hand can be found in the database."""

    phone: Phone
    game_id: int
    marks: int = 0
    acknowledged: list[int] = field(default_factory=list)
    refused: list[int] = field(default_factory=list)
    #: Saves sent again after a restart (their first sending was cut off by the kill).
    resent: list[int] = field(default_factory=list)
    cut_off: list[str] = field(default_factory=list)
    pending: tuple[int, Form] | None = None

    def record_until(self, stop: threading.Event, saved: threading.Semaphore) -> None:
        """Record hands until told to stop, the server goes away, or the request cap."""
        sent_before = len(self.phone.replies)
        while not stop.is_set() and len(self.phone.replies) - sent_before < MAX_REQUESTS:
            self.marks += 1
            mark = self.marks
            try:
                picker = self.phone.picker(self.game_id, 0)
                if picker.status != 200:
                    self.refused.append(mark)
                    continue
                review = self.phone.review(picker, {"out": "0", "pts-1": str(mark),
                                                    "pts-2": "0"})
                if review.status != 200:
                    self.refused.append(mark)
                    continue
                form = self.phone.save_form(review)
                self.pending = (mark, form)
                save = self.phone.submit(form)
            except (OSError, http.client.HTTPException) as exc:  # refused, reset, cut short
                # (a reply cut mid-body is http.client.IncompleteRead): the server is gone
                self.cut_off.append(f"hand {mark}: {exc!r}")
                return
            self.pending = None
            if save.status == 303:
                self.acknowledged.append(mark)
                saved.release()
            else:
                self.refused.append(mark)

    def resend(self) -> None:
        """Tap Save again on the review page whose save the kill cut off (as a table would)."""
        if self.pending is None:
            return
        mark, form = self.pending
        self.pending = None
        again = self.phone.submit(form)
        if again.status in (303, 409):  # saved now, or found saved by the first sending
            self.resent.append(mark)
        if again.status == 303:
            self.acknowledged.append(mark)
        elif again.status != 409:
            self.refused.append(mark)


def db_rows(path: Path, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """A query on the database file, from outside the server (connection closed after)."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def marks_stored(path: Path, game_id: int) -> list[int]:
    """The marks of the game's live hands (Bob's typed totals), oldest first."""
    return [int(r[0]) for r in db_rows(path, """
        select holdings.points from hands join holdings on holdings.hand_id = hands.id
        where hands.game_id = ? and holdings.seat = 1 and hands.deleted_at is null
        order by hands.id""", (game_id,))]


def test_hands_acknowledged_before_a_kill_are_stored_once(data_dir):
    server = ServerProcess(db=data_dir / "crash.sqlite3", home=data_dir / "home",
                           secret="crash-test-secret", log=data_dir / "server.log")
    server.start()
    try:
        players = []
        for i in range(PHONES):
            phone = Phone(server.port, f"phone-{i}")
            # A target no run of marks reaches: every hand is accepted.
            game_id = phone.new_game(["Ann", "Bob", "Cy"], target="100000")
            players.append(Player(phone, game_id))

        for round_number in range(1, ROUNDS + 1):
            stop, saved = threading.Event(), threading.Semaphore(0)
            acknowledged_before = sum(len(p.acknowledged) for p in players)

            def kill_when_busy(stop: threading.Event = stop,
                               saved: threading.Semaphore = saved) -> None:
                # Mid-stream: the phones are still sending when the server dies.
                try:
                    for _ in range(MIN_SAVES):
                        saved.acquire(timeout=30)
                    deadline = time.monotonic() + LOAD_SECONDS
                    for _ in range(KILL_AFTER_SAVES - MIN_SAVES):
                        if not saved.acquire(timeout=max(deadline - time.monotonic(), 0)):
                            break
                finally:
                    server.kill()
                    stop.set()

            together(*(lambda p=p, stop=stop, saved=saved: p.record_until(stop, saved)
                       for p in players), kill_when_busy)
            acknowledged = sum(len(p.acknowledged) for p in players) - acknowledged_before
            assert acknowledged > 0, "no hand was saved before the kill: the test tested nothing"
            assert any(p.cut_off for p in players), "the kill came after the phones stopped"

            server.start()
            for p in players:
                p.phone.port = server.port
            check_stored(server, players, f"after kill {round_number}")
            for p in players:
                p.resend()
            check_stored(server, players, f"after kill {round_number} and saves sent again")

        errors = [e for p in players for e in p.phone.server_errors()]
        assert not errors, f"5xx replies: {errors}; server errors: {server.tracebacks()}"
        for p in players:
            for path in ("/", f"/games/{p.game_id}", f"/games/{p.game_id}/hands"):
                page = p.phone.get(path)
                assert page.status == 200, (path, page.status, server.tracebacks())
    finally:
        server.kill()


def check_stored(server: ServerProcess, players: list[Player], when: str) -> None:
    """Every acknowledged hand is stored once, none twice, and the file is sound."""
    (integrity,) = db_rows(server.db, "pragma integrity_check")
    assert integrity == ("ok",), f"{when}: {integrity}"
    for p in players:
        stored = marks_stored(server.db, p.game_id)
        twice = sorted({m for m in stored if stored.count(m) > 1})
        missing = [m for m in p.acknowledged if m not in stored]
        assert not twice and not missing, (
            f"{when}, game {p.game_id}: hands stored twice {twice}, acknowledged but "
            f"missing {missing} (acknowledged {len(p.acknowledged)}, stored {len(stored)}); "
            f"server errors: {server.tracebacks()}")
        resent = [m for m in p.resent if stored.count(m) != 1]
        assert not resent, (f"{when}, game {p.game_id}: saves sent again after the restart "
                            f"(answered 303 or 409) but not stored once: {resent}")
        # What is stored beyond the acknowledged hands is at most the saves cut off by a
        # kill (committed, but the 303 never reached the phone).
        unacknowledged = [m for m in stored if m not in p.acknowledged]
        assert all(m not in p.refused for m in unacknowledged), (
            f"{when}, game {p.game_id}: refused saves stored anyway: "
            f"{[m for m in unacknowledged if m in p.refused]}")
