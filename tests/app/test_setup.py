"""Setting up: the command line, where the database lives, migrations, surviving a restart."""

from __future__ import annotations

import stat

import pytest
import sqlite_utils
from flask.cli import ScriptInfo

from companion import cli, create_app, schema


@pytest.fixture(autouse=True)
def no_site_settings(monkeypatch):
    """Tests choose where data goes; the machine's own settings do not leak in."""
    for name in ("UNO_COMPANION_HOME", "UNO_COMPANION_DB", "UNO_COMPANION_SECRET_KEY"):
        monkeypatch.delenv(name, raising=False)


def migrations_applied(path):
    database = sqlite_utils.Database(path)
    try:
        names = [m.name for m in schema.migrations.applied(database)]
        return names, schema.migrations.pending(database), database.table_names()
    finally:
        database.close()


def test_init_db_from_the_console_command(tmp_path, capsys):
    path = tmp_path / "new" / "scores.sqlite3"
    assert cli.main(["init-db", "--db", str(path)]) == 0
    assert capsys.readouterr().out == f"Database ready at {path}\n"
    names, pending, tables = migrations_applied(path)
    assert names[0] == "create_tables" and pending == []
    assert {"games", "players", "hands", "holdings", "drafts", "_sqlite_migrations"} <= set(tables)
    assert (tmp_path / "new" / "secret_key").exists()


def test_init_db_twice_changes_nothing(tmp_path):
    path = tmp_path / "scores.sqlite3"
    cli.main(["init-db", "--db", str(path)])
    first = migrations_applied(path)
    cli.main(["init-db", "--db", str(path)])
    assert migrations_applied(path) == first


def test_init_db_from_flask(app, runner):
    # `flask init-db` runs inside the app context the flask command pushes for every command.
    with app.app_context():
        result = runner.invoke(args=["init-db"])
    assert result.exit_code == 0
    assert f"Database ready at {app.config['DATABASE']}" in result.output


def test_every_migration_is_recorded(app):
    names, pending, _ = migrations_applied(app.config["DATABASE"])
    assert pending == []
    assert names == [m.name for m in schema.migrations._migrations]


def test_flask_app_option_uses_the_home_folder(tmp_path, monkeypatch):
    # `flask --app companion run` finds create_app(); UNO_COMPANION_HOME says where data goes.
    home = tmp_path / "home"
    monkeypatch.setenv("UNO_COMPANION_HOME", str(home))
    app = ScriptInfo(app_import_path="companion").load_app()
    assert app.config["DATABASE"] == str(home / "companion.sqlite3")
    assert (home / "companion.sqlite3").exists()
    key = home / "secret_key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert app.config["SECRET_KEY"] == key.read_text().strip()
    assert app.test_client().get("/").status_code == 200


def test_database_file_setting_wins_over_the_home_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("UNO_COMPANION_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("UNO_COMPANION_DB", str(tmp_path / "elsewhere" / "x.sqlite3"))
    assert create_app().config["DATABASE"] == str(tmp_path / "elsewhere" / "x.sqlite3")


def test_scores_and_the_session_survive_a_restart(tmp_path, monkeypatch, table):
    monkeypatch.setenv("UNO_COMPANION_HOME", str(tmp_path / "home"))
    first = create_app()
    before = type(table)(first.test_client())
    game_id = before.create_game(["Ann", "Bob"])
    before.record(game_id, 0, {1: "red-7 wild"})
    form = before.client.get(f"/games/{game_id}/hands/new?out=1")  # open when the server stops

    restarted = create_app()
    after = before.same_phone(restarted.test_client())
    board = after.scoreboard(game_id)
    assert after.totals(board) == (57, 0)
    assert "Ann, Bob" in after.text(after.client.get("/"))
    assert len(after.page(after.client.get(f"/games/{game_id}/hands")).select(".chip")) == 2
    # The same phone, same cookie: the page it still shows can be sent (the key is kept).
    after.client.set_cookie("session", before.client.get_cookie("session").value)
    token = before.field(before.html(form), "csrf_token")
    response = after.client.post(f"/games/{game_id}/hands/review",
                                 data={"csrf_token": token, "out": "1", "pts-0": "9"})
    assert response.status_code == 200


def test_the_app_on_an_existing_file_keeps_its_rows(app, table):
    game_id = table.create_game(["Ann", "Bob"])
    table.record(game_id, 1, {0: 20})
    link = table.share_links(game_id)["viewer"]
    again = create_app({"DATABASE": app.config["DATABASE"], "SECRET_KEY": "other"})
    client = again.test_client()
    client.get(link)  # the old session does not read under another key: the link again
    assert table.totals(client.get(f"/games/{game_id}")) == (0, 20)
