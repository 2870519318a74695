"""Backing up while the server runs, and restoring, with the real server in a subprocess.

The case that made the commands: a server killed (a flat battery, kill -9) leaves its
newest changes in ``<file>-wal``. Putting a backup back by copying it over the file, as
the README once said, let SQLite replay that leftover WAL onto the backup: a one-game
backup came back with every game played since. ``uno-companion restore`` must not.
"""

from __future__ import annotations

import shutil
import sqlite3
import threading
import time
from pathlib import Path

from live_server import TIMEOUT, Phone, ServerProcess

from companion.backup import BackupError, not_served
from companion.cli import main

#: Games played after the backup, before the server is killed (the issue's 30).
LATER_GAMES = 30


def games(path: Path) -> int:
    """How many games the database at ``path`` holds, opened as the app would open it."""
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("select count(*) from games").fetchone()[0])
    finally:
        conn.close()


def sound(path: Path) -> bool:
    """Whether the file passes SQLite's integrity check."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute("pragma integrity_check").fetchone() == ("ok",)
    finally:
        conn.close()


def stopped(server: ServerProcess) -> None:
    """Kill the server, then wait (bounded) until the kernel has let go of its serving lock:
    a killed process's files are closed as it is torn down, a moment after the kill."""
    server.kill()
    deadline = time.monotonic() + TIMEOUT
    while True:
        try:
            with not_served(str(server.db)):
                return
        except BackupError:
            assert time.monotonic() < deadline, "the killed server still holds its lock"
            time.sleep(0.05)


def server_on(data_dir: Path) -> ServerProcess:
    return ServerProcess(db=data_dir / "scores.sqlite3", home=data_dir / "home",
                         secret="backup-test-secret", log=data_dir / "server.log").start()


def test_backup_while_the_server_serves_and_writes(data_dir, capsys):
    server = server_on(data_dir)
    copy = data_dir / "copy.sqlite3"
    try:
        phone = Phone(server.port)
        game_id = phone.new_game(["Ann", "Bob", "Cy"], target="100000")
        stop = threading.Event()
        saved: list[int] = []

        def write() -> None:
            while not stop.is_set():
                reply = phone.record(game_id, {"out": "0", "pts-1": str(len(saved) + 1),
                                               "pts-2": "0"})
                saved.append(reply.status)
        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        try:
            while not saved and writer.is_alive():  # saving hands before the first copy
                time.sleep(0.01)
            for _ in range(3):  # several copies, each in the midst of the writes
                assert main(["backup", str(copy), "--db", str(server.db)]) == 0
        finally:
            stop.set()
            writer.join(timeout=30)
        assert "Backed up 1 game(s)" in capsys.readouterr().out
        assert saved and set(saved) == {303}, "no hand was saved during the backups"
        assert sound(copy)
        # A copy that stands alone (no -wal of its own) and holds whole hands only.
        assert not Path(f"{copy}-wal").exists()
        conn = sqlite3.connect(copy)
        try:
            assert conn.execute("pragma journal_mode").fetchone() == ("delete",)
            halves = conn.execute("select count(*) from hands where not exists (select 1 "
                                  "from holdings where hand_id = hands.id)").fetchone()
            assert halves == (0,)
        finally:
            conn.close()
        assert not server.tracebacks()
    finally:
        server.kill()


def test_restore_refused_while_a_server_uses_the_database(data_dir, capsys):
    server = server_on(data_dir)
    backup = data_dir / "backup.sqlite3"
    try:
        Phone(server.port).new_game()
        assert main(["backup", str(backup), "--db", str(server.db)]) == 0
        Phone(server.port).new_game()
        assert main(["restore", str(backup), "--db", str(server.db)]) == 2
        assert "a server is using" in capsys.readouterr().err
        assert games(server.db) == 2
    finally:
        stopped(server)
    # Once it stopped (here killed), the restore goes through.
    assert main(["restore", str(backup), "--db", str(server.db)]) == 0
    assert games(server.db) == 1


def test_restore_after_a_kill_gives_back_exactly_the_backup(data_dir, capsys):
    server = server_on(data_dir)
    backup = data_dir / "backup.sqlite3"
    try:
        phone = Phone(server.port)
        phone.new_game()
        assert main(["backup", str(backup), "--db", str(server.db)]) == 0
        for _ in range(LATER_GAMES):
            phone.new_game()
    finally:
        stopped(server)
    wal = Path(f"{server.db}-wal")
    assert wal.stat().st_size > 0, "the kill left no WAL: the test tests nothing"

    # The README's old way, on a copy of the folder: put the backup file back, start again.
    by_hand = data_dir / "by-hand"
    by_hand.mkdir()
    for suffix in ("", "-wal", "-shm"):
        shutil.copyfile(f"{server.db}{suffix}", by_hand / f"scores.sqlite3{suffix}")
    shutil.copyfile(backup, by_hand / "scores.sqlite3")
    assert games(by_hand / "scores.sqlite3") == 1 + LATER_GAMES  # the leftover WAL replayed

    assert main(["restore", str(backup), "--db", str(server.db)]) == 0
    assert "Restored 1 game(s)" in capsys.readouterr().out
    assert games(server.db) == 1 and sound(server.db)
    assert not wal.exists()
    # What it held is kept beside it, leftover WAL included.
    assert games(Path(f"{server.db}.before-restore")) == 1 + LATER_GAMES
    server.start()
    try:
        assert Phone(server.port).get("/").status == 200
        assert games(server.db) == 1
    finally:
        server.kill()


def test_restore_refuses_what_is_not_our_database(data_dir, capsys, app):
    database = Path(app.config["DATABASE"])
    before = database.read_bytes()
    not_sqlite = data_dir / "notes.txt"
    not_sqlite.write_text("scores: Ann 120, Bob 80\n" * 100)
    other = data_dir / "other.sqlite3"
    conn = sqlite3.connect(other)
    conn.execute("create table games (id integer primary key)")
    conn.commit()
    conn.close()
    for wrong, said in ((not_sqlite, "not a database of the UNO companion"),
                        (other, "not a database of the UNO companion"),
                        (data_dir / "missing.sqlite3", "there is no backup")):
        assert main(["restore", str(wrong), "--db", str(database)]) == 2
        assert said in capsys.readouterr().err
        assert database.read_bytes() == before
    assert not list(data_dir.glob(".*.tmp*")), "a refused restore left its temporary file"
