"""The schema: created and evolved only by registered migrations, recorded in the database
(sqlite-utils' ``Migrations``). ``startup.migrate`` applies them before serving."""

from __future__ import annotations

import sqlite3

import sqlite_utils
from sqlite_utils.migrations import Migrations

from .store.access import new_token

migrations = Migrations("companion")


@migrations()
def create_tables(db: sqlite_utils.Database) -> None:
    """Games, their seats, their hands and what each player held."""
    db.table("games").create(
        {
            "id": int, "variant": str, "mode": str, "target": int, "options": str,
            "dealer": int, "play_on": int, "ended_at": str, "created_at": str,
            "updated_at": str, "deleted_at": str, "rematch_of": int,
        },
        pk="id", not_null={"variant", "mode", "options", "dealer", "created_at"},
        defaults={"play_on": 0},
    )
    db.table("players").create(
        {"id": int, "game_id": int, "seat": int, "name": str},
        pk="id", foreign_keys=[("game_id", "games", "id")], not_null={"game_id", "seat", "name"},
    )
    db.table("players").create_index(["game_id", "seat"], unique=True)
    db.table("hands").create(
        {"id": int, "game_id": int, "went_out": int, "created_at": str, "deleted_at": str},
        pk="id", foreign_keys=[("game_id", "games", "id")], not_null={"game_id", "went_out"},
    )
    db.table("hands").create_index(["game_id"])
    # One row per opponent: the cards entered (canonical text) or a typed total.
    db.table("holdings").create(
        {"id": int, "hand_id": int, "seat": int, "cards": str, "points": int, "typed": int},
        pk="id", foreign_keys=[("hand_id", "hands", "id")],
        not_null={"hand_id", "seat", "points", "typed"}, defaults={"cards": "", "typed": 0},
    )
    db.table("holdings").create_index(["hand_id", "seat"], unique=True)
    # A hand being entered, kept so that no navigation loses tapped cards.
    db.table("drafts").create(
        {"game_id": int, "hand_id": int, "data": str, "updated_at": str},
        pk=("game_id", "hand_id"),
    )


@migrations()
def add_submissions(db: sqlite_utils.Database) -> None:
    """Every one-time form token used (new game, new hand, edit, rematch).

    Kept apart from the rows they wrote: an edit changes a hand, but the form
    that first saved it must stay spent.
    """
    db.table("submissions").create({"token": str, "used_at": str}, pk="token")


@migrations()
def add_game_versions(db: sqlite_utils.Database) -> None:
    """A version per game, bumped by every change: forms name the one they were made from."""
    db.table("games").add_column("version", int, not_null_default=1)


@migrations()
def add_starting_scores(db: sqlite_utils.Database) -> None:
    """Each seat's score when the app took over a game already under way (JSON), or null."""
    db.table("games").add_column("start_totals", str)


@migrations()
def add_listing_state(db: sqlite_utils.Database) -> None:
    """Whether each game is listed as in progress, so the home page reads one page of
    games instead of scoring them all. Derived: every change writes it, and
    :func:`migrate` fills it in for games stored before it existed."""
    db.table("games").add_column("in_progress", int)
    db.table("games").create_index(["in_progress", "id"])


@migrations()
def bump_versions_on_any_change(db: sqlite_utils.Database) -> None:
    """Any change to a game's rows bumps its version, made by the app or not.

    The version is what stale forms are refused by and what cached games are checked
    against, so a row changed behind the app's back (a manual fix, an older bug) must
    bump it too: triggers make the database itself keep it.
    """
    bump = "update games set version = version + 1 where id = {};"
    for table, game in (("hands", "{row}.game_id"),
                        ("players", "{row}.game_id"),
                        ("holdings", "(select game_id from hands where id = {row}.hand_id)")):
        for event, row in (("insert", "new"), ("update", "new"), ("delete", "old")):
            db.execute(f"create trigger {table}_{event}_bumps_version after {event} on {table} "
                       f"begin {bump.format(game.format(row=row))} end")
    settings = ("variant, mode, target, options, dealer, play_on, ended_at, deleted_at, "
                "rematch_of, start_totals")
    db.execute(f"create trigger games_update_bumps_version after update of {settings} "
               f"on games begin {bump.format('new.id')} end")


@migrations()
def add_rulings(db: sqlite_utils.Database) -> None:
    """The referee's rulings a game's table chose to keep (companion/referee.py): the check,
    its one-line outcome, the whole verdict and the dispute as asked (JSON), and the
    form's one-time key, so that a save sent twice is kept once."""
    db.table("rulings").create(
        {"id": int, "game_id": int, "check_name": str, "title": str, "outcome": str,
         "verdict": str, "dispute": str, "submission": str, "created_at": str},
        pk="id", foreign_keys=[("game_id", "games", "id")],
        not_null={"game_id", "check_name", "title", "outcome", "verdict", "created_at"},
    )
    db.table("rulings").create_index(["game_id"])
    db.table("rulings").create_index(["submission"], unique=True)


@migrations()
def add_jackpot(db: sqlite_utils.Database) -> None:
    """The Wild Jackpot unit of a game (companion/jackpot.py): the rule cards the table
    wrote, each in its pile ("loaded" in the unit or "used" behind it) at its place, so
    the dispenser goes on where it was after a reload, on another phone or a restart;
    every pull of the lever (with the seats knocked out by then, as JSON), with the
    form's one-time key so that a pull sent twice counts once; and which card went to
    whom (the text as it was when dealt)."""
    db.table("rule_cards").create(
        {"id": int, "game_id": int, "seat": int, "text": str, "pile": str, "place": int,
         "created_at": str, "updated_at": str},
        pk="id", foreign_keys=[("game_id", "games", "id")],
        not_null={"game_id", "seat", "text", "pile", "place", "created_at"},
    )
    db.table("rule_cards").create_index(["game_id"])
    db.table("spins").create(
        {"id": int, "game_id": int, "puller": int, "outcome": str, "direction": int,
         "opening": str, "chosen": int, "out_seats": str, "submission": str,
         "created_at": str},
        pk="id", foreign_keys=[("game_id", "games", "id")],
        not_null={"game_id", "puller", "outcome", "direction", "created_at"},
    )
    db.table("spins").create_index(["game_id", "id"])
    db.table("spins").create_index(["submission"], unique=True)
    db.table("spin_cards").create(
        {"id": int, "spin_id": int, "turn": int, "seat": int, "card_id": int, "text": str},
        pk="id", foreign_keys=[("spin_id", "spins", "id")],
        not_null={"spin_id", "turn", "seat", "text"},
    )
    db.table("spin_cards").create_index(["spin_id", "turn"], unique=True)


@migrations()
def add_sharing(db: sqlite_utils.Database) -> None:
    """Each game's two share links (companion/store/access.py): a token for the scorekeeper's
    and one for the viewer's; and which phones (a random key in each browser's session)
    were given which role, and the seat a player's own phone chose. Games stored before
    links existed get their tokens here; ``uno-companion links`` prints them."""
    games = db.table("games")
    games.add_column("keeper_token", str)
    games.add_column("viewer_token", str)
    for (game_id,) in db.execute("select id from games").fetchall():
        db.execute("update games set keeper_token = ?, viewer_token = ? where id = ?",
                   [new_token(), new_token(), game_id])
    games.create_index(["keeper_token"], unique=True)
    games.create_index(["viewer_token"], unique=True)
    db.table("access").create(
        {"device": str, "game_id": int, "role": str, "seat": int, "added_at": str},
        pk=("device", "game_id"), foreign_keys=[("game_id", "games", "id")],
        not_null={"device", "game_id", "role", "added_at"},
    )
    db.table("access").create_index(["game_id"])


@migrations()
def add_live_revisions(db: sqlite_utils.Database) -> None:
    """A revision per game, bumped by the database on any change a live page shows (the
    polling phones' ETag, companion/live.py): the version (hands, seats, settings), the
    rulings kept, the lever's pulls and dealt cards, the rule cards.

    Apart from the version, which stale hand forms are refused by: a ruling or a pull
    must not refuse a hand being entered. Drafts are left out, being saved on every tap.
    """
    db.table("games").add_column("revision", int, not_null_default=1)
    bump = "update games set revision = revision + 1 where id = {};"
    db.execute("create trigger games_version_bumps_revision after update of version on games "
               f"begin {bump.format('new.id')} end")
    for table, game in (("rulings", "{row}.game_id"),
                        ("spins", "{row}.game_id"),
                        ("spin_cards", "(select game_id from spins where id = {row}.spin_id)"),
                        ("rule_cards", "{row}.game_id")):
        for event, row in (("insert", "new"), ("update", "new"), ("delete", "old")):
            db.execute(f"create trigger {table}_{event}_bumps_revision after {event} on {table} "
                       f"begin {bump.format(game.format(row=row))} end")


@migrations()
def rematch_bumps_revision(db: sqlite_utils.Database) -> None:
    """A rematch started (or deleted, or restored) changes what the old game's scoreboard
    offers the other phones ("the rematch has started"): its revision moves too."""
    bump = "update games set revision = revision + 1 where id = {}.rematch_of;"
    db.execute("create trigger rematch_insert_bumps_revision after insert on games "
               f"when new.rematch_of is not null begin {bump.format('new')} end")
    db.execute("create trigger rematch_delete_bumps_revision after update of deleted_at on games "
               f"when new.rematch_of is not null begin {bump.format('new')} end")


@migrations()
def add_rule_card_privacy(db: sqlite_utils.Database) -> None:
    """Players on their own phones (docs/rulings.md, "Who reads a rule card"): the phone
    each rule card was written on (null for cards written before, on the shared
    scorekeeper's phone); when each dealt card was revealed to its player (null: not
    yet, which is what cards dealt before are taken to be); and at most one phone per
    seat of a game."""
    db.table("rule_cards").add_column("written_by", str)
    db.table("spin_cards").add_column("revealed_at", str)
    db.execute("create unique index access_one_phone_a_seat on access (game_id, seat) "
               "where seat is not null")


@migrations()
def seats_bump_revision(db: sqlite_utils.Database) -> None:
    """A seat taken or freed by a player's own phone changes what the Wild Jackpot's pages
    say of that player ("on their own phone"): the game's revision moves too."""
    bump = "update games set revision = revision + 1 where id = {}.game_id;"
    db.execute("create trigger access_seat_insert_bumps_revision after insert on access "
               f"when new.seat is not null begin {bump.format('new')} end")
    db.execute("create trigger access_seat_update_bumps_revision after update of seat on access "
               f"begin {bump.format('new')} end")
    db.execute("create trigger access_seat_delete_bumps_revision after delete on access "
               f"when old.seat is not null begin {bump.format('old')} end")


@migrations()
def drafts_per_phone(db: sqlite_utils.Database) -> None:
    """A hand being entered belongs to the phone entering it: drafts are keyed by device
    too (those kept before stay with device ''), and say since when the phone has been
    at it. Each spent one-time key keeps a digest of what its form said, so the same
    submission sent again can be told from a page out of date that reuses its key."""
    db.execute("alter table drafts rename to drafts_per_game")
    db.table("drafts").create(
        {"game_id": int, "hand_id": int, "device": str, "data": str, "started_at": str,
         "updated_at": str},
        pk=("game_id", "hand_id", "device"), not_null={"game_id", "hand_id", "device"},
        defaults={"device": ""},
    )
    db.execute("insert into drafts (game_id, hand_id, device, data, started_at, updated_at) "
               "select game_id, hand_id, '', data, updated_at, updated_at from drafts_per_game")
    db.execute("drop table drafts_per_game")
    db.table("submissions").add_column("digest", str)


@migrations()
def index_spent_keys_by_age(db: sqlite_utils.Database) -> None:
    """Spent one-time keys are forgotten once old (companion/store/keys.py, SUBMISSION_DAYS):
    an index by age lets each write find the oldest few without reading them all."""
    db.table("submissions").create_index(["used_at"])


@migrations()
def add_checkpoints(db: sqlite_utils.Database) -> None:
    """Checkpoints of each game's standings, so that no page or write rescores every hand
    (companion/store/checkpoints.py, docs/decisions.md): the engine's standings (JSON) after the
    game's first ``hands`` live hands, the last of which is ``last_hand``; what stopped
    them from scoring (null: nothing); the game's version it was written at and the
    app's version that scored it.

    The database itself drops the checkpoints a change makes stale, by the app or not: a
    hand (or what it held) changed drops those that counted it (``last_hand`` at or after
    it), a seat or a scoring setting changed drops all the game's. A checkpoint that is
    there is never stale.
    """
    db.table("checkpoints").create(
        {"game_id": int, "hands": int, "last_hand": int, "standings": str, "problem": str,
         "version": int, "scored_by": str},
        pk=("game_id", "hands"), not_null={"standings", "version", "scored_by"},
    )
    drop = "delete from checkpoints where game_id = {game} and last_hand >= {hand};"
    for event, rows in (("insert", ("new",)), ("update", ("old", "new")), ("delete", ("old",))):
        hands = "".join(drop.format(game=f"{r}.game_id", hand=f"{r}.id") for r in rows)
        held = "".join(drop.format(game=f"(select game_id from hands where id = {r}.hand_id)",
                                   hand=f"{r}.hand_id") for r in rows)
        seats = "".join(f"delete from checkpoints where game_id = {r}.game_id;" for r in rows)
        for table, body in (("hands", hands), ("holdings", held), ("players", seats)):
            db.execute(f"create trigger {table}_{event}_drops_checkpoints after {event} on "
                       f"{table} begin {body} end")
    scoring = "variant, mode, target, options, start_totals"
    db.execute(f"create trigger games_update_drops_checkpoints after update of {scoring} "
               "on games begin delete from checkpoints where game_id = new.id; end")


@migrations()
def add_passed_round_phone(db: sqlite_utils.Database) -> None:
    """The one phone a game passes round the table (docs/rulings.md, "Who reads a rule
    card"): it reads the rule cards of the players without a phone of their own, and no
    other scorekeeper's phone does. The phone that started the game; for games stored
    before, the scorekeeper's phone that was given the game first.

    And the seat a phone asks to be the own phone of, until the phone that reads that
    seat's cards today (the one passed round) says yes: one phone asks for a seat at a
    time. Both change what the game's pages show: the revision moves too."""
    db.table("access").add_column("passed_round", int, not_null_default=0)
    db.table("access").add_column("asks_seat", int)
    db.execute(
        "update access set passed_round = 1 where role = 'keeper' and rowid in ("
        " select (select b.rowid from access b where b.game_id = a.game_id and"
        " b.role = 'keeper' order by b.added_at, b.rowid limit 1)"
        " from access a group by a.game_id)")
    db.execute("create unique index access_one_phone_passed_round on access (game_id) "
               "where passed_round = 1")
    db.execute("create unique index access_one_ask_a_seat on access (game_id, asks_seat) "
               "where asks_seat is not null")
    bump = "update games set revision = revision + 1 where id = new.game_id;"
    db.execute("create trigger access_passed_round_bumps_revision after update of "
               f"passed_round, asks_seat on access begin {bump} end")


@migrations()
def add_results(db: sqlite_utils.Database) -> None:
    """Each finished game's results, derived from its hands by the engine and written with
    every change (companion/store/stats.py): a row per game (its length in hands, the
    winning margin, its biggest hand) and one per seat (place, hands won and their points,
    points left in hand, the longest run of hands won). The records page reads these
    through the phone's ``access`` rows, never the hands. ``startup`` fills them in for the
    games finished before."""
    db.table("game_results").create(
        {"game_id": int, "variant": str, "hands": int, "margin": int, "biggest": int,
         "biggest_seat": int, "biggest_hand": int},
        pk="game_id", foreign_keys=[("game_id", "games", "id")],
        not_null={"variant", "hands"},
    )
    db.table("player_results").create(
        {"game_id": int, "seat": int, "name": str, "name_key": str, "variant": str,
         "won": int, "place": int, "total": int, "hands_won": int, "points_won": int,
         "biggest": int, "held_points": int, "held_hands": int, "longest_run": int},
        pk=("game_id", "seat"), foreign_keys=[("game_id", "games", "id")],
        not_null={"name", "name_key", "variant", "won", "place", "total", "hands_won",
                  "held_points", "held_hands", "longest_run"},
    )


@migrations()
def add_device_records_versions(db: sqlite_utils.Database) -> None:
    """A version per phone of what its records and regulars are read from, bumped by the
    database on any change to them (companion/store/stats.py): a finished game's results
    written or dropped, a seat named, a pull of the lever, a game deleted or restored, a
    game given to the phone or forgotten. The records are then computed once per version
    of a phone's games, not once per page, however many games it keeps."""
    db.table("device_records").create({"device": str, "version": int}, pk="device",
                                      not_null={"version"})
    games = ("insert into device_records (device, version) select device, 1 from access "
             "where game_id = {} and true on conflict (device) do update set "
             "version = version + 1;")
    device = ("insert into device_records (device, version) values ({}, 1) on conflict "
              "(device) do update set version = version + 1;")
    for table, events in (("game_results", ("insert", "delete")),
                          ("players", ("insert", "update", "delete")),
                          ("spins", ("insert", "delete"))):
        for event in events:
            row = "old" if event == "delete" else "new"
            db.execute(f"create trigger {table}_{event}_bumps_device_records after {event} on "
                       f"{table} begin {games.format(row + '.game_id')} end")
    db.execute("create trigger games_deleted_bumps_device_records after update of deleted_at "
               f"on games begin {games.format('new.id')} end")
    for event, row in (("insert", "new"), ("delete", "old")):
        db.execute(f"create trigger access_{event}_bumps_device_records after {event} on "
                   f"access begin {device.format(row + '.device')} end")


def known_migrations() -> set[str]:
    """The names of every migration this version of the app knows."""
    return {m.name for m in migrations._migrations}


def applied_migrations(conn: sqlite3.Connection) -> set[str]:
    """The names of the migrations applied to the database ``conn`` is open on."""
    return {r[0] for r in conn.execute(
        "select name from _sqlite_migrations where migration_set = ?", [migrations.name])}
