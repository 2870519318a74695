"""Writers take turns before SQLite's lock (companion/db.py WriteTurn): a second writer
waits on the turn and is woken when it comes, instead of sleeping and retrying in SQLite's
busy handler; between threads and between a server's worker processes alike.

Each test sets SQLite's busy timeout to 0: a writer that reached SQLite's lock while
another held it would fail at once ("database is locked"), so every write succeeding
shows that the turn, not SQLite, made it wait.
"""

from __future__ import annotations

import multiprocessing
import os
import threading

import pytest

from companion.db import open_db, writing


def writer(path: str):
    db = open_db(path)
    db.execute("PRAGMA busy_timeout = 0")
    return db


@pytest.fixture
def path(tmp_path) -> str:
    db = open_db(str(tmp_path / "turns.sqlite3"))
    db.execute("create table marks (who text)")
    db.close()
    return str(tmp_path / "turns.sqlite3")


def test_threads_writing_at_once_wait_their_turn_and_all_write(path):
    holding, release = threading.Event(), threading.Event()
    first = writer(path)

    def hold() -> None:
        with writing(first):
            first.execute("insert into marks values ('first')")
            holding.set()
            release.wait(10)

    thread = threading.Thread(target=hold)
    thread.start()
    assert holding.wait(10)
    done: list[str] = []

    def write(n: int) -> None:
        db = writer(path)
        with writing(db):
            db.execute("insert into marks values (?)", [f"w{n}"])
        done.append(f"w{n}")
        db.close()

    others = [threading.Thread(target=write, args=(n,)) for n in range(6)]
    for other in others:
        other.start()
    assert done == []  # all waiting for the first to finish
    release.set()
    for other in [thread, *others]:
        other.join(10)
    rows = open_db(path).execute("select count(*) from marks").fetchone()[0]
    assert rows == 7 and len(done) == 6


def _hold_in_child(path: str, holding, release) -> None:
    db = writer(path)
    with writing(db):
        db.execute("insert into marks values ('child')")
        holding.set()
        release.wait(10)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the server's workers are forked")
def test_a_forked_worker_waits_for_another_worker_s_write(path):
    parent = writer(path)
    with writing(parent):  # the turn's file is opened before the fork, as in gunicorn
        parent.execute("insert into marks values ('before')")
    forked = multiprocessing.get_context("fork")
    holding, release = forked.Event(), forked.Event()
    child = forked.Process(target=_hold_in_child, args=(path, holding, release))
    child.start()
    assert holding.wait(10)
    waited = threading.Event()

    def write() -> None:
        with writing(parent):
            parent.execute("insert into marks values ('parent')")
        waited.set()

    thread = threading.Thread(target=write)
    thread.start()
    assert not waited.wait(0.3)  # the child holds the turn
    release.set()
    thread.join(10)
    child.join(10)
    assert waited.is_set() and child.exitcode == 0
    rows = [r[0] for r in open_db(path).execute("select who from marks order by rowid")]
    assert rows == ["before", "child", "parent"]


def test_a_write_that_fails_gives_the_turn_back(path):
    db = writer(path)
    with pytest.raises(ZeroDivisionError), writing(db):
        db.execute("insert into marks values ('lost')")
        1 / 0  # noqa: B018
    other = writer(path)
    with writing(other):
        other.execute("insert into marks values ('kept')")
    assert [r[0] for r in other.execute("select who from marks")] == ["kept"]


def test_a_commit_is_not_flushed_to_the_disk_each_time(path):
    # synchronous = NORMAL in WAL mode (1): see docs/decisions.md for what it risks.
    db = open_db(path)
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 1
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
