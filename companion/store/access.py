"""Who may open a game: its share links, and the phones each one was given to (rows only).

A game has two links, each carrying an unguessable token: the scorekeeper's (may change
the game) and the viewer's (may only look). Opening a link gives the phone's browser (its
``device``, a random key kept in its session cookie) that role for the game, recorded
here; a game's pages then ask :func:`role_of`. Sequential game ids open nothing: a phone
that was given no link is a stranger to the game. Renewing a link makes a new token and
takes the role from every other phone that had it, so the old link stops working.

No Flask here: :mod:`companion.sharing` is the web side.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

import sqlite_utils

#: The roles, strongest first: a keeper may change the game, a viewer may only look.
KEEPER, VIEWER = "keeper", "viewer"
ROLES = (KEEPER, VIEWER)
#: Random bytes in a link's token (from the operating system's source, via ``secrets``):
#: 192 bits, far past guessing, in 32 URL-safe characters.
TOKEN_BYTES = 24


def new_token() -> str:
    """A fresh link token: TOKEN_BYTES from the OS random source, URL-safe text."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_device() -> str:
    """A fresh key naming one phone's browser (kept in its session cookie)."""
    return secrets.token_urlsafe(16)


@dataclass(frozen=True)
class Access:
    """What one phone may do with one game: nothing (a stranger), look, or change it."""

    role: str | None = None
    #: The seat the phone said it is (one player's own phone), if any.
    seat: int | None = None

    @property
    def can_view(self) -> bool:
        """Whether the phone may open the game's pages."""
        return self.role is not None

    @property
    def can_change(self) -> bool:
        """Whether the phone may change the game (record hands, pull the lever...)."""
        return self.role == KEEPER


STRANGER = Access()


@dataclass(frozen=True)
class Links:
    """A game's two tokens."""

    keeper: str
    viewer: str

    def token(self, role: str) -> str:
        """The token of ``role``'s link."""
        return self.keeper if role == KEEPER else self.viewer


def token_columns() -> dict[str, str]:
    """Fresh tokens for a new game's row."""
    return {"keeper_token": new_token(), "viewer_token": new_token()}


def links(db: sqlite_utils.Database, game_id: int) -> Links | None:
    """The game's current tokens."""
    row = db.execute("select keeper_token, viewer_token from games where id = ?",
                     [game_id]).fetchone()
    return Links(row[0], row[1]) if row else None


def kept_here(db: sqlite_utils.Database, device: str | None, game_ids: list[int]) -> set[int]:
    """Of these games (a page of the home page's list), those ``device`` keeps the score of."""
    if not device or not game_ids:
        return set()
    marks = ",".join("?" * len(game_ids))
    return {int(r[0]) for r in db.execute(
        f"select game_id from access where device = ? and role = ? and game_id in ({marks})",
        [device, KEEPER, *game_ids]).fetchall()}


def role_of(db: sqlite_utils.Database, device: str | None, game_id: int) -> Access:
    """What ``device`` may do with the game (a stranger when it was given no link)."""
    if not device:
        return STRANGER
    row = db.execute("select role, seat from access where device = ? and game_id = ?",
                     [device, game_id]).fetchone()
    return Access(row[0], row[1]) if row else STRANGER


def game_for_token(db: sqlite_utils.Database, token: str) -> tuple[int, str] | None:
    """The game a link's token opens, and the role it gives; None for no (or an old) link."""
    if not token or len(token) > 64:
        return None
    for role in ROLES:
        row = db.execute(f"select id from games where {role}_token = ?", [token]).fetchone()
        if row:
            return int(row[0]), role
    return None


def grant(db: sqlite_utils.Database, device: str, game_id: int, role: str) -> Access:
    """Give ``device`` the role for the game (never weaker than the one it has); the
    seat it chose stays (a scorekeeper may be a player with their own phone). Returns
    what the device may now do."""
    had = role_of(db, device, game_id)
    if had.role == KEEPER:
        return had
    db.execute("insert into access (device, game_id, role, added_at) values (?, ?, ?, ?) "
               "on conflict (device, game_id) do update set role = excluded.role",
               [device, game_id, role, datetime.now(UTC).isoformat(timespec="seconds")])
    return Access(role, had.seat)


def passed_round(db: sqlite_utils.Database, game_id: int) -> str | None:
    """The phone the game passes round the table (it reads the cards of the players
    without a phone of their own), if one is named."""
    row = db.execute("select device from access where game_id = ? and passed_round = 1",
                     [game_id]).fetchone()
    return str(row[0]) if row else None


def pass_round(db: sqlite_utils.Database, game_id: int, device: str | None) -> None:
    """Make ``device`` (a scorekeeper's phone of the game) the one passed round the
    table; None: no phone is, until one is named."""
    db.execute("update access set passed_round = 0 where game_id = ? and passed_round = 1 "
               "and device is not ?", [game_id, device])
    if device is not None:
        db.execute("update access set passed_round = 1 where game_id = ? and device = ? "
                   "and role = ?", [game_id, device, KEEPER])


def seat_phones(db: sqlite_utils.Database, game_id: int) -> dict[int, str]:
    """The game's seats that a player's own phone claimed: seat to device."""
    return {int(r[0]): str(r[1]) for r in db.execute(
        "select seat, device from access where game_id = ? and seat is not null",
        [game_id]).fetchall()}


def set_seat(db: sqlite_utils.Database, device: str, game_id: int, seat: int | None) -> None:
    """Record ``device`` as ``seat``'s own phone, or as nobody's (None), its ask answered
    (the caller checked it may be: a unique index refuses a second phone for a seat all
    the same)."""
    db.execute("update access set seat = ?, asks_seat = null where device = ? and game_id = ?",
               [seat, device, game_id])


def seat_asks(db: sqlite_utils.Database, game_id: int) -> dict[int, str]:
    """The seats a phone asks to be the own phone of, waiting for a yes: seat to device."""
    return {int(r[0]): str(r[1]) for r in db.execute(
        "select asks_seat, device from access where game_id = ? and asks_seat is not null",
        [game_id]).fetchall()}


def ask_seat(db: sqlite_utils.Database, device: str, game_id: int, seat: int | None) -> None:
    """``device`` asks to be ``seat``'s own phone (None: it asks nothing any more)."""
    db.execute("update access set asks_seat = ? where device = ? and game_id = ?",
               [seat, device, game_id])


def carry_over(db: sqlite_utils.Database, device: str, old_id: int, new_id: int) -> None:
    """``device`` keeps at a rematch (``new_id``) what it was at ``old_id``: its seat (if
    no phone took it there yet) and being the phone passed round (if none is yet)."""
    row = db.execute("select seat, passed_round from access where device = ? and game_id = ?",
                     [device, old_id]).fetchone()
    if row is None:
        return
    seat, passed = row
    if seat is not None and seat not in seat_phones(db, new_id):
        set_seat(db, device, new_id, seat)
    if passed and passed_round(db, new_id) is None:
        pass_round(db, new_id, device)


def free_seat(db: sqlite_utils.Database, game_id: int, seat: int) -> None:
    """No phone is ``seat``'s own any more (another may claim it)."""
    db.execute("update access set seat = null where game_id = ? and seat = ?", [game_id, seat])


def forget(db: sqlite_utils.Database, device: str, game_id: int) -> None:
    """Take the game off the device's list; its link brings it back."""
    db.execute("delete from access where device = ? and game_id = ?", [device, game_id])


def renew(db: sqlite_utils.Database, game_id: int, role: str, keep: str) -> str:
    """A new token for ``role``'s link; every phone but ``keep`` that had that role loses it
    (a keeper link renewed leaves the renewing keeper its role). Returns the token."""
    token = new_token()
    db.execute(f"update games set {role}_token = ? where id = ?", [token, game_id])
    db.execute("delete from access where game_id = ? and role = ? and device != ?",
               [game_id, role, keep])
    return token


def keepers(db: sqlite_utils.Database, game_id: int) -> int:
    """How many phones may change the game."""
    row = db.execute("select count(*) from access where game_id = ? and role = ?",
                     [game_id, KEEPER]).fetchone()
    return int(row[0])




def unshared(db: sqlite_utils.Database) -> Iterable[tuple[int, str]]:
    """Games no phone may change (stored before links existed, or forgotten by every
    keeper), with their keeper token: the server's owner can hand them out."""
    return [(int(r[0]), str(r[1])) for r in db.execute(
        "select id, keeper_token from games where deleted_at is null and not exists "
        "(select 1 from access where access.game_id = games.id and access.role = ?) "
        "order by id", [KEEPER]).fetchall()]
