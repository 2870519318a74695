"""Faults outside the app: a damaged key file, a throwaway database, a database that cannot
be read or written, debug mode from the environment. Each is one plain sentence: a page
with 503 while serving, or one line on stderr and exit status 2 at start-up."""

from __future__ import annotations

import errno
import os
import re
import sqlite3
import stat
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from types import SimpleNamespace

import pytest
from flask import Flask
from werkzeug.debug import DebuggedApplication

from companion import cli, create_app, db
from companion.errors import StartupError

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def no_site_settings(monkeypatch):
    """Tests choose where data goes; the machine's own settings do not leak in."""
    for name in ("UNO_COMPANION_HOME", "UNO_COMPANION_DB", "UNO_COMPANION_SECRET_KEY",
                 "UNO_COMPANION_ALLOWED_HOSTS", "FLASK_DEBUG"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def served(monkeypatch):
    """`uno-companion serve` runs up to serving and returns: the servers it would have run
    (each with the WSGI ``app`` it would have served)."""
    servers: list[SimpleNamespace] = []

    def run(app, sock, chosen):
        sock.close()
        servers.append(SimpleNamespace(app=app, settings=chosen))
        return 0

    monkeypatch.setattr(cli.server, "run", run)
    return servers


def refused_at_start(argv, capsys):
    """Run the command line, which must refuse to start; the one line it printed."""
    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("uno-companion: "), err
    return err


def start_twice(path, capsys):
    """Both commands refuse the same way; the line `serve` printed."""
    refused_at_start(["init-db", "--db", str(path)], capsys)
    return refused_at_start(["serve", "--db", str(path), "--port", "0"], capsys)


# -- the secret key ----------------------------------------------------------


def test_an_empty_key_file_left_by_a_crash_is_replaced(tmp_path, table):
    key = tmp_path / "secret_key"
    key.write_text("")
    app = create_app({"DATABASE": str(tmp_path / "scores.sqlite3")})
    assert len(app.config["SECRET_KEY"]) == 64
    assert key.read_text() == app.config["SECRET_KEY"]
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    # Sessions work: a form with its token is accepted.
    assert type(table)(app.test_client()).create_game(["Ann", "Bob"]) == 1


@pytest.mark.parametrize("damage", ["folder", "binary"])
def test_an_unreadable_key_file_stops_the_start(tmp_path, capsys, damage):
    key = tmp_path / "secret_key"
    if damage == "folder":
        key.mkdir()
    else:
        key.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(StartupError, match=r"secret key file .*secret_key cannot be read"):
        create_app({"DATABASE": str(tmp_path / "scores.sqlite3")})
    line = start_twice(tmp_path / "scores.sqlite3", capsys)
    assert f"{key} cannot be read" in line and "delete it" in line


def test_the_key_file_appears_whole_and_private(tmp_path, monkeypatch):
    seen = []
    replace = os.replace

    def spying_replace(source, target):
        # What anyone could read the moment the key file appears under its name.
        seen.append((Path(target).name, stat.S_IMODE(os.stat(source).st_mode),
                     Path(source).read_text()))
        replace(source, target)

    monkeypatch.setattr(os, "replace", spying_replace)
    old_umask = os.umask(0)
    try:
        app = create_app({"DATABASE": str(tmp_path / "scores.sqlite3")})
    finally:
        os.umask(old_umask)
    assert seen == [("secret_key", 0o600, app.config["SECRET_KEY"])]
    assert sorted(p.name for p in tmp_path.iterdir() if "secret" in p.name) == ["secret_key"]


def test_a_key_write_cut_short_leaves_no_key_file(tmp_path, monkeypatch):
    def failing_fsync(fd):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(StartupError, match="secret key cannot be written .*Input/output error"):
        create_app({"DATABASE": str(tmp_path / "scores.sqlite3")})
    assert list(tmp_path.iterdir()) == []


# -- a throwaway database ------------------------------------------------------


def test_a_throwaway_database_is_one_database_for_every_request(tmp_path, monkeypatch, table):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("UNO_COMPANION_HOME", str(tmp_path / "home"))
    app = create_app({"DATABASE": ":memory:"})
    assert app.config["DATABASE_THROWAWAY"] and Path(app.config["DATABASE"]).is_file()
    on_it = type(table)(app.test_client())
    game_id = on_it.create_game(["Ann", "Bob"])
    on_it.record(game_id, 0, {1: "red-7 wild"})
    assert on_it.totals(on_it.scoreboard(game_id)) == (57, 0)
    # The key lives in memory only: no file here, at home or beside the database.
    assert list(tmp_path.iterdir()) == []
    assert not (Path(app.config["DATABASE"]).parent / "secret_key").exists()
    assert len(app.config["SECRET_KEY"]) == 64


def test_a_throwaway_database_is_removed_when_the_process_exits(tmp_path):
    script = ("from companion import create_app; "
              "print(create_app({'DATABASE': ':memory:'}).config['DATABASE'])")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "UNO_COMPANION_HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, timeout=60,
                          capture_output=True, text=True, check=True)
    path = Path(done.stdout.strip())
    assert path.name == "throwaway.sqlite3" and not path.parent.exists()
    assert list(tmp_path.iterdir()) == []


def test_serve_with_a_throwaway_database_says_nothing_is_kept(tmp_path, monkeypatch, capsys,
                                                              served):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["serve", "--db", ":memory:", "--port", "0"]) == 0
    out = capsys.readouterr().out
    assert "throwaway database, the scores are not kept" in out
    assert list(tmp_path.iterdir()) == []
    (server,) = served
    assert server.app.config["DATABASE_THROWAWAY"]
    line = refused_at_start(["init-db", "--db", ":memory:"], capsys)
    assert "nothing to prepare" in line


# -- a database that cannot be read or written ----------------------------------


def test_a_read_only_database_serves_pages_and_refuses_writes(app, table, capsys, served):
    game_id = table.create_game(["Ann", "Bob", "Cy"])
    table.record(game_id, 0, {1: "red-7 wild", 2: 9})
    path = Path(app.config["DATABASE"])
    os.chmod(path, 0o444)  # root can still write such a file: the app must not

    read_only = create_app({"DATABASE": str(path), "SECRET_KEY": "test-secret"})
    assert read_only.config["DATABASE_READONLY"]
    before = table.snapshot()
    on_it = table.same_phone(read_only.test_client())
    home = on_it.client.get("/")
    assert home.status_code == 200 and "The database is read-only" in on_it.text(home)
    assert on_it.totals(on_it.scoreboard(game_id)) == (66, 0, 0)
    for page in ("hands", "hands/new?out=1", "delete"):
        assert on_it.client.get(f"/games/{game_id}/{page}").status_code == 200, page
    refused = on_it.review(game_id, 1, {0: 5, 2: 5})
    assert refused.status_code == 503
    assert ("The database file is read-only, so the scores can be read but not changed"
            in on_it.text(refused))
    refused = on_it.client.post("/games", data=on_it.new_game_form())
    assert refused.status_code == 503
    assert table.snapshot() == before

    assert cli.main(["serve", "--db", str(path), "--port", "0"]) == 0
    assert f"scores read from {path} (read-only" in capsys.readouterr().out


def test_a_read_only_database_that_needs_an_update_stops_the_start(tmp_path, capsys):
    path = tmp_path / "old.sqlite3"
    sqlite3.connect(path).close()  # an empty database: every migration pending
    path.chmod(0o444)
    with pytest.raises(StartupError, match="is read-only and needs an update"):
        create_app({"DATABASE": str(path)})
    assert "make it writable" in start_twice(path, capsys)


def test_a_full_disk_refuses_writes_and_keeps_serving_reads(app, table, monkeypatch):
    game_id = table.create_game([f"Player {n}" for n in range(10)])
    # Long card lists for nine opponents: a draft big enough to need new pages in the file.
    form = {f"cards-{seat}": "red-7 " * 300 for seat in range(1, 10)}
    open_db = db.open_db

    def full_disk(path, read_only=False):
        # SQLite answers as on a full disk once the file would grow past its size now.
        opened = open_db(path, read_only)
        pages = opened.execute("PRAGMA page_count").fetchone()[0]
        opened.execute(f"PRAGMA max_page_count = {pages}")
        return opened

    monkeypatch.setattr(db, "open_db", full_disk)
    app.extensions["uno_db"].close()  # the connections opened from now on see a full disk
    before = table.snapshot()
    refused = table.post(f"/games/{game_id}/hands/review", {"out": "0", "hand_id": "0", **form})
    assert refused.status_code == 503
    assert "The disk holding the database file is full" in table.text(refused)
    assert table.snapshot() == before
    assert table.client.get(f"/games/{game_id}").status_code == 200


@pytest.mark.parametrize(("make", "says"), [
    ("junk", "is not an SQLite database, or it is damaged"),
    ("folder", "cannot be opened: check that its folder exists"),
])
def test_a_database_file_that_cannot_be_used_stops_the_start(tmp_path, capsys, make, says):
    path = tmp_path / "scores.sqlite3"
    if make == "junk":
        path.write_bytes(b"These are the scores of Tuesday night.\n" * 100)
    else:
        path.mkdir()
    with pytest.raises(StartupError, match=re.escape(f"{path} {says}")):
        create_app({"DATABASE": str(path)})
    assert f"{path} {says}" in start_twice(path, capsys)


def test_a_folder_that_cannot_be_made_stops_the_start(tmp_path, capsys):
    (tmp_path / "scores").write_text("a file where the folder should be")
    path = tmp_path / "scores" / "companion.sqlite3"
    line = start_twice(path, capsys)
    assert f"The folder {path.parent} for the database cannot be made" in line


def test_a_database_broken_while_serving_is_a_503_page(app, table, data_dir):
    game_id = table.create_game(["Ann", "Bob"])
    path = Path(app.config["DATABASE"])
    path.write_bytes(b"\x00" * 8192)
    broken = table.client.get(f"/games/{game_id}")
    assert broken.status_code == 503
    # The connection lent to this request was open before: it finds its pages damaged.
    assert ("The database file is damaged" in table.text(broken)
            or "The database file is not an SQLite database" in table.text(broken))
    # It is closed, not lent again: the next request's new connection reads the file anew.
    again = table.client.get(f"/games/{game_id}")
    assert again.status_code == 503
    assert "The database file is not an SQLite database" in table.text(again)
    app.config["DATABASE"] = str(data_dir / "gone" / "companion.sqlite3")
    gone = table.client.get("/")
    assert gone.status_code == 503
    assert "The database file cannot be opened" in table.text(gone)


def sqlite_error(kind, message, code):
    error = kind(message)
    error.sqlite_errorcode = code
    return error


@pytest.mark.parametrize(("error", "says"), [
    (sqlite_error(sqlite3.OperationalError, "disk I/O error", sqlite3.SQLITE_IOERR_WRITE),
     "The disk failed while reading or writing the database file"),
    (sqlite_error(sqlite3.OperationalError, "database is locked", sqlite3.SQLITE_BUSY),
     "The database file is busy"),
    (sqlite_error(sqlite3.DatabaseError, "database disk image is malformed",
                  sqlite3.SQLITE_CORRUPT), "The database file is damaged"),
    (sqlite_error(sqlite3.OperationalError, "attempt to write a readonly database",
                  sqlite3.SQLITE_READONLY_DBMOVED), "The database file is read-only"),
])
def test_every_database_failure_one_can_fix_is_a_page(app, client, error, says):
    def failing():
        raise error

    app.add_url_rule("/failing", view_func=failing)
    response = client.get("/failing")
    assert response.status_code == 503
    assert says in response.get_data(as_text=True)


def test_other_database_errors_stay_errors(app, client):
    def buggy():
        with closing(sqlite3.connect(":memory:")) as connection:
            return str(connection.execute("select * from nowhere").fetchall())

    app.add_url_rule("/buggy", view_func=buggy)
    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        client.get("/buggy")


# -- debug mode ----------------------------------------------------------------


def test_flask_debug_in_the_environment_does_not_debug_serve(tmp_path, monkeypatch, capsys,
                                                              served):
    monkeypatch.setenv("FLASK_DEBUG", "1")
    assert cli.main(["serve", "--db", str(tmp_path / "s.sqlite3"), "--port", "0"]) == 0
    (server,) = served
    assert isinstance(server.app, Flask) and server.app.debug is False
    assert "Debug" not in capsys.readouterr().out


def test_serve_debug_runs_werkzeugs_debugger_and_says_so(tmp_path, capsys, served):
    assert cli.main(["serve", "--db", str(tmp_path / "s.sqlite3"), "--port", "0",
                     "--debug"]) == 0
    (server,) = served
    assert isinstance(server.app, DebuggedApplication) and server.app.app.debug is True
    assert "Debug mode: errors show Werkzeug's debugger" in capsys.readouterr().out
