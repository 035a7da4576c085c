"""Tabula's database: opening and migrating it, bot metadata, and the stores by concern.

``TABULA_DATABASE`` is either a file path or a ``postgresql://`` URL, and :meth:`MatchStore.open`
opens the matching backend (:mod:`bot.storage.database`): a SQLite file (created if needed) in WAL mode
with foreign keys on, for one bot process, or a pool of connections to a PostgreSQL database
that several bot processes share (:mod:`bot.storage.postgres`, the optional extra ``tabula[postgres]``).
Either way it applies the numbered migrations: ``bot/storage/migrations/NNN_*.sql`` for SQLite (tracked by
``PRAGMA user_version``) and the same numbers in ``bot/storage/migrations/postgresql/`` for PostgreSQL
(tracked in the ``tabula_schema`` table).  The returned object holds the stores that own the SQL
of each concern, sharing the database and knowing nothing of its backend:

* :attr:`MatchStore.matches` — matches, their append-only move log and the
  outbox of announcements (:mod:`bot.storage.match_store`);
* :attr:`MatchStore.ratings` — ratings, ladders and rated history
  (:mod:`bot.storage.rating_store`);
* :attr:`MatchStore.settings` — per-server settings such as the language of
  public messages (:mod:`bot.storage.settings_store`);
* :attr:`MatchStore.extras` — reminders, automatic endings, draw offers and
  rematches (:mod:`bot.storage.extras_store`);
* :attr:`MatchStore.tournaments` — events, entrants, pairings and results
  (:mod:`bot.storage.tournament_store`);
* :attr:`MatchStore.reviews` — the computer's reviews of finished matches
  (:mod:`bot.storage.review_store`).
"""

from __future__ import annotations

import os
import sqlite3
import sys
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from importlib import resources
from typing import Any, NoReturn

from bot.storage.database import (
    POSTGRESQL,
    SQLITE,
    ChannelBusy,
    Database,
    Handle,
    IntegrityError,
    Row,
    SQLiteDatabase,
    StaleMatch,
    StorageError,
    is_url,
    redact,
)
from bot.storage.extras_store import MatchExtras
from bot.storage.match_store import Matches
from bot.storage.rating_store import RatedSeat, RatingModel, RatingRow, Ratings
from bot.storage.records import (
    Announcement,
    Delivery,
    LogEntry,
    MatchRecord,
    MatchStatus,
    Notice,
    NoticeKind,
    Seat,
    TurnKind,
)
from bot.storage.review_store import Reviews, StoredReview
from bot.storage.settings_store import GuildSettings, GuildSettingsStore
from bot.storage.tournament_store import Tournaments

__all__ = [
    "Announcement",
    "ChannelBusy",
    "DatabaseUnavailable",
    "Delivery",
    "GuildSettings",
    "GuildSettingsStore",
    "IntegrityError",
    "LogEntry",
    "MatchRecord",
    "MatchStatus",
    "MatchStore",
    "Matches",
    "Notice",
    "NoticeKind",
    "RatedSeat",
    "RatingModel",
    "RatingRow",
    "Ratings",
    "Reviews",
    "Seat",
    "StaleMatch",
    "StorageError",
    "StoredReview",
    "TurnKind",
    "migrations",
]


def migrations(dialect: str = SQLITE) -> list[tuple[int, str]]:
    """Return the numbered migration scripts shipped with the bot for ``dialect``, in order."""
    folder = resources.files("bot.storage") / "migrations"
    if dialect == POSTGRESQL:
        folder = folder / "postgresql"
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
                    f"another running Tabula{who} is using it, and a SQLite file serves one bot process",
                    f"stop that bot first, or give this one its own {SETTING}; to run several bot processes "
                    "(shards), share a PostgreSQL database instead (TABULA_DATABASE=postgresql://…)",
                )
            ) from error
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        return fd

    def _unlock_file(lock: int | None) -> None:
        """Release the lock taken by :func:`_lock_file` (closing the file releases it)."""
        if lock is not None:
            os.close(lock)


def _postgres_problem(url: str, error: BaseException) -> str:
    """The one-line refusal for a PostgreSQL server the bot cannot use (without the URL's password)."""

    text = str(error).strip() or type(error).__name__
    if isinstance(error, OSError):
        problem = f"cannot reach the server ({text})"
        advice = f"start PostgreSQL or correct the host and port in {SETTING}"
    elif "password" in text or "authentication" in text or "role" in text:
        problem = f"the server refused the login ({text})"
        advice = f"correct the user and password in {SETTING}"
    elif "database" in text and "does not exist" in text:
        problem = f"no such database ({text})"
        advice = f"create it (createdb), or correct the database name in {SETTING}"
    else:
        problem = f"{type(error).__name__}: {text}"
        advice = f"fix it, or set {SETTING} to a database the bot can use"
    return f"cannot use the database {redact(url)} ({SETTING}): {problem}; {advice}."


class MatchStore:
    """The database behind the bot: its stores by concern.  Create with :meth:`open`."""

    def __init__(self, database: Database, lock: int | None = None, *, rating: RatingModel | None = None) -> None:
        self.database = database
        self._file_lock = lock
        self.ratings = Ratings(self.database, rating)
        self.matches = Matches(self.database, on_finish=self._finished)
        self.settings = GuildSettingsStore(self.database)
        self.extras = MatchExtras(self.database, self.matches)
        self.tournaments = Tournaments(self.database, self.matches)
        self.reviews = Reviews(self.database)

    async def _finished(self, db: Handle, record: MatchRecord, places: Sequence[int], now: float) -> None:
        """A match finished (inside its transaction): rate it, and give an event game's pairing its result."""
        await self.ratings.record_finish(db, record, places, now)
        await self.tournaments.record_finish(db, record, places, now)

    @classmethod
    def unopened(cls) -> MatchStore:
        """A store with no database behind it: every query raises.

        A bot that is never started (``--print-commands``, the catalogs, tests of the command payload)
        wires its parts over this one; starting opens the real database and wires them again.
        """
        return cls(_Unopened())

    @classmethod
    async def open(cls, path: str, *, connections: int = 10, rating: RatingModel | None = None) -> MatchStore:
        """Open (creating if needed) the database ``path`` names and bring its schema up to date.

        ``path`` is a SQLite file, or a ``postgresql://`` URL (then ``connections`` bounds the pool).
        One process at a time per SQLite file: an exclusive lock on ``<path>.lock``, held until
        :meth:`close`, refuses a second bot on the same file.  Any reason the database cannot be
        used raises :class:`DatabaseUnavailable` with nothing left open.  ``rating`` rates the rated matches
        that finish (the bot hands in ``bot.core.ratings``); without it they are recorded unrated.
        """

        if is_url(path):
            return await cls._open_postgres(path, connections, rating)
        problem = _path_problem(path)
        if problem is not None:
            raise DatabaseUnavailable(_unusable(path, *problem))
        lock = _lock_file(path)
        database: SQLiteDatabase | None = None
        try:
            database = await SQLiteDatabase.connect(path)
            found = await database.schema_version()
            latest = max((number for number, _ in migrations()), default=0)
            if found > latest:
                raise DatabaseUnavailable(_unusable(path, *_too_new(found, latest)))
            await database.configure()
            await database.migrate(migrations())
        except BaseException as error:
            if database is not None:
                await database.close()  # its thread and file handle go with it
            _unlock_file(lock)
            if isinstance(error, sqlite3.Error):
                raise DatabaseUnavailable(_explain(path, error)) from error
            raise
        return cls(database, lock, rating=rating)

    @classmethod
    async def _open_postgres(cls, url: str, connections: int, rating: RatingModel | None) -> MatchStore:
        try:
            from bot.storage.postgres import PostgresDatabase
        except ImportError as error:  # asyncpg is the optional extra
            raise DatabaseUnavailable(
                f"cannot use the database at {SETTING}: PostgreSQL needs the asyncpg driver ({error}); "
                "install it with pip install 'tabula[postgres]'."
            ) from error
        database: PostgresDatabase | None = None
        try:
            database = await PostgresDatabase.connect(url, connections)
            found = await database.schema_version()
            latest = max((number for number, _ in migrations(POSTGRESQL)), default=0)
            if found > latest:
                problem, advice = _too_new(found, latest)
                raise DatabaseUnavailable(f"cannot use the database {redact(url)} ({SETTING}): {problem}; {advice}.")
            await database.migrate(migrations(POSTGRESQL))
        except BaseException as error:
            if database is not None:
                await database.close()
            if isinstance(error, DatabaseUnavailable) or not isinstance(error, Exception):
                raise
            raise DatabaseUnavailable(_postgres_problem(url, error)) from error
        return cls(database, rating=rating)

    async def close(self) -> None:
        """Close the connection(s); committed transactions are kept."""
        try:
            await self.database.close()
        finally:
            _unlock_file(self._file_lock)
            self._file_lock = None

    async def schema_version(self) -> int:
        """Return the number of the last migration applied."""
        return await self.database.schema_version()

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


def _too_new(found: int, latest: int) -> tuple[str, str]:
    return (
        f"its schema is version {found}, newer than this release knows (up to {latest})",
        "run the newer Tabula that wrote it, or a backup made for this release",
    )


class _Unopened(Database):
    """No database: the parts of a bot that was not started may be built over it, never used."""

    dialect = SQLITE

    @staticmethod
    def _refuse() -> NoReturn:
        raise RuntimeError("the bot has not been set up yet")

    def transaction(self) -> AbstractAsyncContextManager[Handle]:
        self._refuse()

    def snapshot(self) -> AbstractAsyncContextManager[Handle]:
        self._refuse()

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        self._refuse()

    async def write(self, sql: str, params: Sequence[Any] = ()) -> None:
        self._refuse()

    async def schema_version(self) -> int:
        self._refuse()

    async def migrate(self, scripts: Sequence[tuple[int, str]]) -> None:
        self._refuse()

    async def close(self) -> None:
        return None
