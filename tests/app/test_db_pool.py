"""The pool of database connections: lent to one request at a time, given back clean."""

from __future__ import annotations

import sqlite3

import pytest

from companion.db import db_broken, get_db, get_pool


def lend(app):
    """The connection a request (an app context) is lent, and the context to end it."""
    context = app.app_context()
    context.push()
    return get_db(), context


def test_a_connection_is_lent_again_to_the_next_request(app):
    first, context = lend(app)
    context.pop()
    second, context = lend(app)
    context.pop()
    assert second is first


def test_requests_at_the_same_time_each_get_their_own(app):
    first, one = lend(app)
    second, two = lend(app)
    assert second is not first
    two.pop()
    one.pop()


def test_a_request_that_ends_inside_a_transaction_writes_nothing(app, table):
    game_id = table.create_game()
    db, context = lend(app)
    db.execute("BEGIN IMMEDIATE")
    db.execute("update games set target = 1 where id = ?", [game_id])
    context.pop()
    again, context = lend(app)
    assert again is db and not again.conn.in_transaction
    assert again.execute("select target from games where id = ?", [game_id]).fetchone() != (1,)
    context.pop()
    # And the write lock was let go: another connection takes it at once.
    other = sqlite3.connect(app.config["DATABASE"], timeout=0, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    other.execute("ROLLBACK")
    other.close()


def test_a_connection_that_met_a_database_error_is_closed_not_lent(app):
    db, context = lend(app)
    db_broken()
    context.pop()
    with pytest.raises(sqlite3.ProgrammingError):
        db.execute("select 1")
    fresh, context = lend(app)
    assert fresh is not db
    context.pop()


def test_a_request_that_raised_closes_its_connection(app):
    db, context = lend(app)
    context.pop(RuntimeError("the request failed"))
    with pytest.raises(sqlite3.ProgrammingError):
        db.execute("select 1")


def test_a_new_database_path_closes_the_connections_to_the_old_one(app, data_dir):
    db, context = lend(app)
    context.pop()
    app.config["DATABASE"] = str(data_dir / "other.sqlite3")
    other, context = lend(app)
    assert other is not db
    assert other.execute("PRAGMA database_list").fetchone()[2].endswith("other.sqlite3")
    context.pop()
    with pytest.raises(sqlite3.ProgrammingError):
        db.execute("select 1")


def test_at_most_eight_idle_connections_are_kept(app):
    lent = [lend(app) for _ in range(10)]
    for _, context in reversed(lent):
        context.pop()
    open_ones = []
    for db, _ in lent:
        try:
            db.execute("select 1")
            open_ones.append(db)
        except sqlite3.ProgrammingError:
            pass
    assert len(open_ones) == 8
    with app.app_context():
        get_pool().close()
    for db in open_ones:
        with pytest.raises(sqlite3.ProgrammingError):
            db.execute("select 1")


def test_an_idle_connection_reads_what_another_wrote_since(app, table):
    game_id = table.create_game()
    reader, one = lend(app)
    writer, two = lend(app)
    query = "select target from games where id = ?"
    old = reader.execute(query, [game_id]).fetchone()[0]  # the reader has read the game
    writer.execute("update games set target = ? where id = ?", [old + 1, game_id])
    two.pop()
    one.pop()  # both idle in the pool
    first, one = lend(app)
    second, two = lend(app)
    assert {first, second} == {reader, writer}
    assert first.execute(query, [game_id]).fetchone()[0] == old + 1
    assert second.execute(query, [game_id]).fetchone()[0] == old + 1
    two.pop()
    one.pop()
