"""Faults outside the app: a damaged key file, a throwaway database. What keeps the app
from starting is one line on stderr and exit status 2."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from werkzeug.serving import BaseWSGIServer

from companion import cli, create_app
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
    """`uno-companion serve` runs up to serving and returns: the servers it would have run."""
    servers: list[BaseWSGIServer] = []
    monkeypatch.setattr(BaseWSGIServer, "serve_forever",
                        lambda self, poll_interval=0.5: servers.append(self))
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
