"""Tabula's database: opening and migrating it, bot metadata, and the stores by concern.

:meth:`MatchStore.open` opens (creating if needed) one SQLite file in WAL mode
with foreign keys on and applies the numbered migrations in ``bot/migrations``
(tracked by ``PRAGMA user_version``).  The returned object holds the stores that
own the SQL of each concern, sharing one connection (:mod:`bot.database`):

* :attr:`MatchStore.matches` — matches, their append-only move log and the
  outbox of announcements (:mod:`bot.match_store`);
* :attr:`MatchStore.ratings` — ratings, ladders and rated history
  (:mod:`bot.rating_store`);
* :attr:`MatchStore.settings` — per-server settings such as the language of
  public messages (:mod:`bot.settings_store`);
* :attr:`MatchStore.extras` — reminders, automatic endings, draw offers and
  rematches (:mod:`bot.extras_store`).
"""

from __future__ import annotations

import os
import sqlite3
import sys
from importlib import resources

import aiosqlite

from bot import ratings as rating_model
from bot.database import ChannelBusy, Database, StaleMatch, StorageError
from bot.extras_store import MatchExtras
from bot.match_store import (
    Announcement,
    Delivery,
    LogEntry,
    Matches,
    MatchRecord,
    MatchStatus,
    Notice,
    NoticeKind,
    Seat,
    TurnKind,
)
from bot.rating_store import RatedSeat, RatingRow, Ratings
from bot.settings_store import GuildSettings, GuildSettingsStore

__all__ = [
    "Announcement",
    "ChannelBusy",
    "DatabaseUnavailable",
    "Delivery",
    "GuildSettings",
    "GuildSettingsStore",
    "LogEntry",
    "MatchRecord",
    "MatchStatus",
    "MatchStore",
    "Matches",
    "Notice",
    "NoticeKind",
    "RatedSeat",
    "RatingRow",
    "Ratings",
    "Seat",
    "StaleMatch",
    "StorageError",
    "TurnKind",
    "migrations",
]


def migrations() -> list[tuple[int, str]]:
    """Return the numbered migration scripts shipped with the bot, in order."""
    folder = resources.files("bot") / "migrations"
    found = []
    for entry in folder.iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:3].isdigit():
            found.append((int(name[:3]), entry.read_text(encoding="utf-8")))
    return sorted(found)


class DatabaseUnavailable(StorageError):
    """The database cannot be used at all; the message names the file, the setting and what to do."""


SETTING = "TABULA_DATABASE"


def _unusable(path: str, problem: str, advice: str = "") -> str:
    """The one-line refusal: which file, which setting, what is wrong and what to do."""
    where = os.path.abspath(path)
    todo = advice or f"fix it, or set {SETTING} to a file the bot can use"
    return f"cannot use the database {where} ({SETTING}): {problem}; {todo}."


def _path_problem(path: str) -> tuple[str, str] | None:
    """Say why ``path`` cannot hold a database and what to do, judged before touching it, or ``None``."""
    if path == ":memory:" or path.startswith("file:"):
        return None
    folder = os.path.dirname(os.path.abspath(path))
    access = f"give the bot's user read and write access to it and its folder, or set {SETTING} elsewhere"
    if os.path.isdir(path):
        inside = os.path.join(os.path.abspath(path), "tabula.sqlite3")
        return "it is a folder, not a file", f"set {SETTING} to a file such as {inside}"
    if not os.path.isdir(folder):
        return f"the folder {folder} does not exist", f"create it, or set {SETTING} to a file in an existing folder"
    if os.path.exists(path) and not os.access(path, os.R_OK | os.W_OK):
        return "permission denied: the bot's user cannot read and write the file", access
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"permission denied: the bot's user cannot create files in {folder}", access
    return None


def _explain(path: str, error: sqlite3.Error) -> str:
    """Turn SQLite's refusal to open ``path`` into the one-line message."""
    text = str(error)
    if "not a database" in text or "malformed" in text:
        return _unusable(
            path,
            "the file is damaged or is not a Tabula database",
            f"restore it from a backup, or set {SETTING} to another file",
        )
    if "readonly" in text or "permission" in text or "unable to open" in text:
        access = f"give the bot's user read and write access to it and its folder, or set {SETTING} elsewhere"
        return _unusable(path, f"permission denied ({text})", access)
    return _unusable(path, text)


if sys.platform == "win32":  # pragma: no cover - no advisory locks there; one bot per file is up to the user

    def _lock_file(path: str) -> int | None:
        return None

    def _unlock_file(lock: int | None) -> None:
        return None

else:
    import fcntl

    def _lock_file(path: str) -> int | None:
        """Hold an exclusive lock on ``<path>.lock`` so that only one bot uses the file."""
        if path == ":memory:" or path.startswith("file:"):
            return None
        lock_path = f"{path}.lock"
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            problem = f"cannot open its lock file {lock_path} ({error.strerror})"
            raise DatabaseUnavailable(_unusable(path, problem)) from error
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            holder = os.read(fd, 32).decode("ascii", "replace").strip()
            os.close(fd)
            who = f" (process {holder})" if holder.isdigit() else ""
            raise DatabaseUnavailable(
                _unusable(
                    path,
                    f"another running Tabula{who} is using it",
                    f"stop that bot first, or give this one its own {SETTING}",
                )
            ) from error
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        return fd

    def _unlock_file(lock: int | None) -> None:
        """Release the lock taken by :func:`_lock_file` (closing the file releases it)."""
        if lock is not None:
            os.close(lock)


async def _user_version(connection: aiosqlite.Connection) -> int:
    """Return ``PRAGMA user_version``: the number of the last migration applied."""
    async with connection.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


class MatchStore:
    """The database behind the bot: its stores by concern.  Create with :meth:`open`."""

    def __init__(self, connection: aiosqlite.Connection, lock: int | None = None) -> None:
        self._db = connection
        self._file_lock = lock
        self.database = Database(connection)
        self.ratings = Ratings(self.database, rate=rating_model.rate)
        self.matches = Matches(self.database, on_finish=self.ratings.record_finish)
        self.settings = GuildSettingsStore(self.database)
        self.extras = MatchExtras(self.database, self.matches)

    @classmethod
    async def open(cls, path: str) -> MatchStore:
        """Open (creating if needed) the database at ``path`` and bring its schema up to date.

        One process at a time: an exclusive lock on ``<path>.lock``, held until :meth:`close`,
        refuses a second bot on the same file.  Any reason the file cannot be used raises
        :class:`DatabaseUnavailable` with nothing left open.
        """
        problem = _path_problem(path)
        if problem is not None:
            raise DatabaseUnavailable(_unusable(path, *problem))
        lock = _lock_file(path)
        connection: aiosqlite.Connection | None = None
        try:
            connection = await aiosqlite.connect(path, isolation_level=None)
            await connection.execute("PRAGMA busy_timeout = 5000")
            found = await _user_version(connection)
            latest = max((number for number, _ in migrations()), default=0)
            if found > latest:
                raise DatabaseUnavailable(
                    _unusable(
                        path,
                        f"its schema is version {found}, newer than this release knows (up to {latest})",
                        "run the newer Tabula that wrote it, or a backup made for this release",
                    )
                )
            await connection.execute("PRAGMA journal_mode = WAL")
            await connection.execute("PRAGMA foreign_keys = ON")
            await connection.execute("PRAGMA synchronous = NORMAL")
            store = cls(connection, lock)
            await store._migrate()
        except BaseException as error:
            if connection is not None:
                await connection.close()  # its worker thread would otherwise keep the process alive
            _unlock_file(lock)
            if isinstance(error, sqlite3.Error):
                raise DatabaseUnavailable(_explain(path, error)) from error
            raise
        return store

    async def close(self) -> None:
        """Close the connection; pending transactions were already committed."""
        try:
            await self._db.close()
        finally:
            _unlock_file(self._file_lock)
            self._file_lock = None

    async def _migrate(self) -> None:
        current = await _user_version(self._db)
        for number, script in migrations():
            if number <= current:
                continue
            # executescript commits first, then runs the whole script; wrapping it in one transaction
            # that also bumps user_version makes each migration all-or-nothing.
            await self._db.executescript(f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")

    async def schema_version(self) -> int:
        """Return the number of the last migration applied."""
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def get_meta(self, key: str) -> str | None:
        """Return a bot metadata value (e.g. the hash of the last synced commands)."""
        rows = await self.database.rows("SELECT value FROM bot_meta WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        """Store a bot metadata value."""
        async with self.database.transaction() as db:
            await db.execute(
                "INSERT INTO bot_meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )
