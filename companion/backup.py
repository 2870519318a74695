"""Backing the scores up while the server runs, and putting a backup back safely.

A copy of the database file alone is not the database: in WAL mode the newest changes
live in ``<file>-wal`` until SQLite checkpoints them, and a ``-wal`` left beside a file
(after a crash, or a copy made by hand) is replayed onto whatever file is there when it
is next opened, a restored backup included. So a backup is made with SQLite's online
backup API (one consistent snapshot, WAL included, while others write), and a restore
removes the leftover ``-wal`` and ``-shm`` before putting the copy in place.

A restore must not happen under a running server, whose open connections would go on
writing to the file it replaced. ``serve`` holds a shared ``flock`` on
``<file>-serving.lock`` for its lifetime and a restore takes it exclusively: the kernel
releases the lock when the server's process ends, however it ends (even by SIGKILL),
so a crash leaves no stale lock, and more than one server on a file still works.
Programs that take no such lock (the ``sqlite3`` shell) are not seen: close them first.
SQLite's own locks cannot answer the question: an idle server holds none.

No Flask here: :mod:`companion.cli` is the command line.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from . import store
from .db import integrity, read_only_file, stand_alone, wait_when_busy
from .schema import applied_migrations, known_migrations

#: The files SQLite keeps beside a database in WAL mode (and the rollback journal).
SIDE_FILES = ("-wal", "-shm", "-journal")


class BackupError(Exception):
    """A backup or a restore that cannot be done, saying why and what to do."""


def lock_path(database: str) -> Path:
    """The file whose lock says a server is using ``database``."""
    return Path(f"{database}-serving.lock")


def hold_serving_lock(database: str) -> IO[bytes] | None:
    """Mark ``database`` as served until this process ends (keep the returned file open).

    Waits while a restore is under way. None when the lock file cannot be made (a folder
    nobody may write: then nothing can restore into it either).
    """
    try:
        file = open(lock_path(database), "ab")  # noqa: SIM115 - held for the process's life
    except OSError:
        return None
    fcntl.flock(file.fileno(), fcntl.LOCK_SH)
    # Kept across an exec too (a server that execs its workers): the lock stays held.
    os.set_inheritable(file.fileno(), True)
    return file


@contextmanager
def not_served(database: str) -> Iterator[None]:
    """Hold ``database`` so that no server starts on it; BackupError if one is running."""
    with open(lock_path(database), "ab") as file:
        try:
            fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BackupError(
                f"a server is using {database}: stop it (Ctrl+C), then restore.") from None
        yield


def backup(database: str, destination: str) -> int:
    """Copy ``database`` to ``destination`` (written whole or not at all); the number of
    games copied. Safe while a server writes: the copy is one consistent moment."""
    source_path, target = Path(database), Path(destination)
    if not source_path.is_file():
        raise BackupError(f"there is no database at {database}.")
    if target.exists() and target.resolve() == source_path.resolve():
        raise BackupError("the backup must go to another file than the database itself.")
    # Opened as the server opens it (read-only only when it is served so): a read-only
    # connection cannot recover the -wal a crash left, and would miss what it holds.
    source = (sqlite3.connect(f"{source_path.resolve().as_uri()}?mode=ro", uri=True)
              if read_only_file(database) else sqlite3.connect(database))
    try:
        wait_when_busy(source)
        with _atomic_file(target) as temporary:
            copy = sqlite3.connect(temporary)
            try:
                # pages=-1 (the default): one step, under one read transaction, so the
                # copy is a single moment whatever the server commits meanwhile.
                source.backup(copy)
                # A file that stands alone: no -wal of its own to forget beside it.
                stand_alone(copy)
                games = store.count_games(copy)
            finally:
                copy.close()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{database} cannot be backed up ({exc}).") from exc
    finally:
        source.close()
    return games


def restore(backup_file: str, database: str) -> tuple[int, bool]:
    """Put the backup at ``backup_file`` in place of ``database``; the number of games it
    holds, and whether the database as it was is kept (as ``<file>.before-restore``, when
    it can be read). Refused (BackupError, nothing changed) when the file is not a sound
    database of this app or a server is using ``database``."""
    source, target = Path(backup_file), Path(database)
    if not source.is_file():
        raise BackupError(f"there is no backup at {backup_file}.")
    if target.exists() and source.resolve() == target.resolve():
        raise BackupError("that is the database itself, not a backup of it.")
    target.parent.mkdir(parents=True, exist_ok=True)
    with not_served(database), _atomic_file(target) as temporary:
        # Checked on a copy under a fresh name, so that no -wal can be read with it.
        Path(temporary).write_bytes(source.read_bytes())
        games = _check(temporary, backup_file)
        kept = False
        if target.exists():
            try:
                backup(database, f"{database}.before-restore")
                kept = True
            except BackupError:
                pass  # an unreadable database is what a restore is for
        # Before the copy goes in: a -wal left by a crash would be replayed onto it.
        for suffix in SIDE_FILES:
            Path(f"{database}{suffix}").unlink(missing_ok=True)
    return games, kept


def _check(path: str, named: str) -> int:
    """Whether the file at ``path`` is a sound database of this app (BackupError if not),
    made to stand alone (no WAL); the number of games it holds."""
    conn = sqlite3.connect(path)
    try:
        result = integrity(conn)
        if result != "ok":
            raise BackupError(f"{named} is damaged ({result}): choose another backup.")
        applied = applied_migrations(conn)
        if not applied:
            raise BackupError(f"{named} is not a database of the UNO companion.")
        known = known_migrations()
        if applied - known:
            raise BackupError(f"{named} was made by a newer version of the UNO companion: "
                              "update the app first.")
        games = store.count_games(conn)
        stand_alone(conn)
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{named} is not a database of the UNO companion ({exc}).") from exc
    finally:
        conn.close()
    return games


@contextmanager
def _atomic_file(target: Path) -> Iterator[str]:
    """A temporary path beside ``target``; moved onto it, synced, once the block succeeds
    (removed if it fails), so ``target`` is never seen half-written."""
    fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}-",
                                     suffix=".tmp")
    os.close(fd)
    try:
        yield temporary
        with open(temporary, "rb+") as file:
            os.fsync(file.fileno())
        os.replace(temporary, target)
    except BaseException:
        for suffix in ("", *SIDE_FILES):
            Path(temporary + suffix).unlink(missing_ok=True)
        raise
    folder = os.open(target.parent, os.O_RDONLY)
    try:
        os.fsync(folder)  # the rename itself survives a power cut
    finally:
        os.close(folder)
