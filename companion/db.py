"""The SQLite database: opening it, one write transaction, a connection lent to each request.

The schema is in companion/schema.py; what runs before serving (migrations) in
companion/startup.py."""

from __future__ import annotations

import atexit
import os
import shutil
import sqlite3
import tempfile
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import ClassVar

import sqlite_utils
from flask import Flask, current_app, g

try:
    import fcntl
except ImportError:  # Windows: one process (waitress), so the threads' lock is enough
    fcntl = None  # type: ignore[assignment]


def open_db(path: str, read_only: bool = False) -> sqlite_utils.Database:
    """Open (creating if need be) the database at ``path``; ``read_only`` opens it for reads."""
    if read_only:
        # SQLite's own read-only mode: every write fails with SQLITE_READONLY, even as root.
        uri = f"{Path(path).resolve().as_uri()}?mode=ro"
        conn = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
    else:
        conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    db = sqlite_utils.Database(conn)
    db.execute("PRAGMA foreign_keys = ON")
    if path != ":memory:":
        if not read_only:
            db.execute("PRAGMA journal_mode = WAL")
            # A commit is written to the WAL, not flushed to the disk: a killed server
            # loses nothing (the OS holds it); only a power cut can take back the last
            # second of writes, never corrupt the file. See docs/decisions.md.
            db.execute("PRAGMA synchronous = NORMAL")
            _turns_of[db] = WriteTurn.of(path)
        db.execute("PRAGMA busy_timeout = 5000")
    return db


class WriteTurn:
    """Writers to one database file take turns here before ``BEGIN IMMEDIATE``.

    SQLite lets one writer in at a time, and one that finds the lock taken sleeps and
    retries (1, 2, 5 ... up to 100 ms at a time): with a few workers writing at once, a
    request would sleep longer than it works. Here a writer waits on a lock that wakes it
    the moment the last one is done: a thread lock within a process, and an ``flock`` on
    a file beside the database between the server's worker processes.
    """

    _all: ClassVar[dict[str, WriteTurn]] = {}
    _made = threading.Lock()

    def __init__(self, path: str):
        self.lock_path = f"{path}-writer.lock"
        # Reentrant: a thread writing on a second connection inside its first meets
        # SQLite's busy timeout and an error, as before, not a deadlock here.
        self.threads = threading.RLock()
        self._depth = 0
        self._file: tuple[int, int] | None = None  # (pid, fd): an flock is per open file

    @classmethod
    def of(cls, path: str) -> WriteTurn:
        """The turn of the database at ``path`` (one per file and process)."""
        with cls._made:
            found = cls._all.get(path)
            if found is None:
                found = cls._all[path] = cls(path)
            return found

    @contextmanager
    def taken(self) -> Iterator[None]:
        """Hold the turn: no other thread or worker process of this app writes meanwhile."""
        with self.threads:
            fd = self._fd() if self._depth == 0 else None
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
                if fd is not None:
                    fcntl.flock(fd, fcntl.LOCK_UN)

    def _fd(self) -> int | None:
        # A forked worker must open its own: the parent's file (and lock) is shared.
        if fcntl is None:
            return None
        if self._file is None or self._file[0] != os.getpid():
            try:
                fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError:
                return None  # a folder not ours to write: SQLite's own lock still holds
            self._file = (os.getpid(), fd)
        return self._file[1]


#: The write turn of each connection opened by :func:`open_db` for writing.
_turns_of: weakref.WeakKeyDictionary[sqlite_utils.Database, WriteTurn] = (
    weakref.WeakKeyDictionary())




def wait_when_busy(conn: sqlite3.Connection) -> None:
    """Let a plain connection (a backup's) wait for a writer, as the app's connections do."""
    conn.execute("PRAGMA busy_timeout = 5000")


def stand_alone(conn: sqlite3.Connection) -> None:
    """Make the file ``conn`` is open on stand alone: no -wal of its own beside it."""
    conn.execute("PRAGMA journal_mode = DELETE")


def integrity(conn: sqlite3.Connection) -> str:
    """SQLite's own check of the file ``conn`` is open on: "ok", or what is wrong."""
    return str(conn.execute("PRAGMA integrity_check").fetchone()[0])


def read_only_file(path: str) -> bool:
    """Whether the database file exists and is not to be written.

    os.access() answers for the user the app runs as, but root passes it for any file
    on a writable disk; so a file whose permissions let nobody write it counts as
    read-only too, and ``chmod a-w`` keeps even root's server from changing the scores.
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not os.access(path, os.W_OK) or not mode & 0o222


def throwaway_path() -> str:
    """A database path in a new temporary folder that is removed when the process exits.

    A file rather than SQLite's ``:memory:``: each request opens its own connection, and
    a memory database would be a new, empty one every time.
    """
    folder = tempfile.mkdtemp(prefix="uno-companion-")
    atexit.register(_remove_if_mine, folder, os.getpid())
    return os.path.join(folder, "throwaway.sqlite3")


def _remove_if_mine(folder: str, owner: int) -> None:
    # Forked server workers run the exit handlers too: only the process that made the
    # folder removes it, when it stops (a worker restarted must find the games there).
    if os.getpid() == owner:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def writing(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """One write transaction, opened with ``BEGIN IMMEDIATE``: everything read inside it is
    what the write is decided on.

    A deferred ``BEGIN`` reads first and upgrades to a write lock later; in WAL mode a
    commit by another connection in between makes that upgrade fail at once, without
    waiting for the busy timeout. IMMEDIATE takes the write lock first, so concurrent
    writers wait their turn (in the connection's :class:`WriteTurn`, woken as soon as it
    comes). sqlite-utils' own ``atomic()`` nests inside as savepoints.
    """
    if db.conn.in_transaction:
        raise RuntimeError("a write transaction is already open")
    turn = _turns_of.get(db)
    with turn.taken() if turn else nullcontext(), transaction(db, "BEGIN IMMEDIATE"):
        yield db


@contextmanager
def transaction(db: sqlite_utils.Database, begin: str = "BEGIN") -> Iterator[None]:
    """``begin``, then COMMIT, or ROLLBACK if anything is raised inside: the one place a
    transaction is opened and closed (the write turn's above, the store's snapshots)."""
    db.execute(begin)
    try:
        yield
    except BaseException:
        if db.conn.in_transaction:
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


class ConnectionPool:
    """Connections kept open between requests, lent one to a request at a time.

    Opening a connection costs more than a page's queries: SQLite reads the schema and
    maps the WAL index on first use, and the last connection to close checkpoints the
    WAL. A connection comes back with no transaction open; one that met a database
    error is closed instead, and so is every idle one when the file's path changes (or
    the process forked: a connection must never be shared between processes).
    """

    def __init__(self, size: int = 8):
        self._size = size
        self._idle: list[sqlite_utils.Database] = []
        self._opened_for: tuple[str, bool, int] | None = None
        self._lock = threading.Lock()

    def take(self, path: str, read_only: bool) -> sqlite_utils.Database:
        """An idle connection to ``path``, or a new one."""
        with self._lock:
            if self._opened_for != (path, read_only, os.getpid()):
                self._close_idle()
                self._opened_for = (path, read_only, os.getpid())
            if self._idle:
                return self._idle.pop()
        return open_db(path, read_only)

    def give_back(self, db: sqlite_utils.Database, broken: bool = False) -> None:
        """Keep ``db`` for the next request, unless it is ``broken`` or the pool is full."""
        if not broken and db.conn.in_transaction:
            db.execute("ROLLBACK")  # a request that ended inside a transaction wrote nothing
        with self._lock:
            if not broken and len(self._idle) < self._size:
                self._idle.append(db)
                return
        db.close()

    def close(self) -> None:
        """Close the idle connections (the next request opens a new one)."""
        with self._lock:
            self._close_idle()

    def _close_idle(self) -> None:
        while self._idle:
            self._idle.pop().close()


def get_pool() -> ConnectionPool:
    """The app's pool of database connections."""
    return current_app.extensions["uno_db"]  # type: ignore[no-any-return]


def get_db() -> sqlite_utils.Database:
    """The request's database connection, taken from the pool on first use."""
    if "db" not in g:
        g.db = get_pool().take(current_app.config["DATABASE"],
                               current_app.config.get("DATABASE_READONLY", False))
    return g.db  # type: ignore[no-any-return]


def db_broken() -> None:
    """Mark the request's connection as not to be lent again (it met a database error)."""
    g.db_broken = True


def close_db(exc: BaseException | None = None) -> None:
    """Give the request's connection back to the pool, if it took one."""
    db = g.pop("db", None)
    if db is not None:
        get_pool().give_back(db, broken=exc is not None or g.pop("db_broken", False))


def init_app(app: Flask) -> None:
    """Give the app its pool of connections, each request's given back on teardown."""
    app.extensions["uno_db"] = ConnectionPool()
    app.teardown_appcontext(close_db)
