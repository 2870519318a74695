"""Faults outside the app: a damaged key file. What keeps the app from starting is one
line on stderr and exit status 2."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from companion import cli, create_app
from companion.errors import StartupError


@pytest.fixture(autouse=True)
def no_site_settings(monkeypatch):
    """Tests choose where data goes; the machine's own settings do not leak in."""
    for name in ("UNO_COMPANION_HOME", "UNO_COMPANION_DB", "UNO_COMPANION_SECRET_KEY",
                 "UNO_COMPANION_ALLOWED_HOSTS", "FLASK_DEBUG"):
        monkeypatch.delenv(name, raising=False)


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
