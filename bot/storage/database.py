"""The database every store shares, whichever engine holds it, and the errors stores raise.

Two backends stand behind one small interface, and the stores do not know which they have:

* :class:`SQLiteDatabase` — the embedded default: one :mod:`sqlite3` connection used only by a thread of its
  own (:class:`SQLiteWorker`); each read and each transaction holds an asyncio lock, so two transactions of
  the process never interleave, and every write is one short ``BEGIN IMMEDIATE`` … ``COMMIT``.
* :class:`bot.storage.postgres.PostgresDatabase` — PostgreSQL through a pool of asyncpg connections, for
  several bot processes sharing one database (imported only when a ``postgresql://`` URL is set).

Inside :meth:`Database.transaction` the stores get a :class:`Handle` with the methods they have
always called — ``execute_fetchall``, ``execute``, ``executemany`` — and write their SQL once, with
``?`` placeholders (``?1``, ``?2`` … to repeat one): :func:`to_postgres` numbers them ``$1``, ``$2`` …
for PostgreSQL.  Rows come back as plain tuples of ``int``, ``float``, ``str`` and ``None`` on both.
A unique or other constraint violation raises :class:`IntegrityError` on both.  The SQL itself
lives in the stores (:mod:`bot.storage.match_store`, :mod:`bot.storage.rating_store`, :mod:`bot.storage.settings_store`
…; a move's write in :mod:`bot.storage.move_write`) and in :mod:`bot.storage.opening`, which opens the database
and migrates it.

SQLite's connection is the standard library's, used through public calls only: the one thread it lives on is
ours (:class:`SQLiteWorker`), so a statement, or a whole batch, is one hand-off to it and one wake-up of the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import sqlite3
import threading
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol, TypeVar
from urllib.parse import urlsplit, urlunsplit

Row = tuple[Any, ...]
SQLITE = "sqlite"
POSTGRESQL = "postgresql"


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it here (it is translated when shown)."""
    return message


class StorageError(Exception):
    """Base class for storage refusals; the message can be shown to a player."""


class ChannelBusy(StorageError):
    """The channel already has a pending challenge or a running match."""


class StaleMatch(StorageError):
    """The match changed since it was read; the write was not applied."""


class IntegrityError(Exception):
    """A write broke a constraint of the schema (a unique index, a check, a foreign key), on either backend."""


def dump(value: Any) -> str:
    """Encode ``value`` as compact, stable JSON for a TEXT column."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def is_url(database: str) -> bool:
    """Whether the ``TABULA_DATABASE`` value names a PostgreSQL server rather than a SQLite file."""
    return database.startswith(("postgresql://", "postgres://"))


def redact(url: str) -> str:
    """The URL without its password, to show in logs and messages.

    >>> redact("postgresql://tabula:secret@db.example:5432/tabula")
    'postgresql://tabula:***@db.example:5432/tabula'
    >>> redact("postgresql://db/tabula")
    'postgresql://db/tabula'
    """
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}{port}"))


@lru_cache(maxsize=2048)
def to_postgres(sql: str) -> str:
    """Rewrite SQLite's ``?`` and ``?NNN`` placeholders as PostgreSQL's ``$N``, leaving quoted text alone.

    A bare ``?`` takes the number after the largest used so far, as in SQLite.  Question marks in
    string literals, quoted identifiers and comments are not placeholders.

    >>> to_postgres("SELECT ? , 'a?b', ?3, ? -- why?")
    "SELECT $1 , 'a?b', $3, $4 -- why?"
    >>> to_postgres('INSERT INTO "odd?name" VALUES (?, ?)')
    'INSERT INTO "odd?name" VALUES ($1, $2)'
    """
    out: list[str] = []
    highest = 0
    i, n = 0, len(sql)
    while i < n:
        char = sql[i]
        if char in "'\"":
            end = i + 1
            while end < n:
                if sql[end] == char:
                    if end + 1 < n and sql[end + 1] == char:  # a doubled quote stays inside
                        end += 2
                        continue
                    break
                end += 1
            out.append(sql[i : end + 1])
            i = end + 1
        elif sql.startswith("--", i):
            end = sql.find("\n", i)
            end = n if end < 0 else end
            out.append(sql[i:end])
            i = end
        elif sql.startswith("/*", i):
            end = sql.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(sql[i:end])
            i = end
        elif char == "?":
            j = i + 1
            while j < n and sql[j].isdigit():
                j += 1
            number = int(sql[i + 1 : j]) if j > i + 1 else highest + 1
            highest = max(highest, number)
            out.append(f"${number}")
            i = j
        else:
            out.append(char)
            i += 1
    return "".join(out)


class Handle(Protocol):
    """What a transaction (or a consistent read) offers the stores: the calls they make inside it."""

    async def execute_fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Run one statement and return its rows (e.g. a ``SELECT`` or an ``INSERT … RETURNING``)."""
        ...

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; return how many rows it changed."""
        ...

    async def executemany(self, sql: str, seq_of_params: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per parameter tuple."""
        ...

    async def serialize(self, key: str) -> None:
        """Hold ``key`` until the transaction ends, so that transactions naming it run one after another.

        For read-modify-write logic the version checks do not cover (ratings of one ladder).
        """
        ...


@dataclass(frozen=True, slots=True)
class Step:
    """One statement of :meth:`Database.batch`: its SQL (``?`` placeholders), parameters, and if it must find a row."""

    sql: str
    params: Sequence[Any] = ()
    #: No row back (a version-checked ``UPDATE … RETURNING`` that found the version changed): the whole batch is
    #: rolled back and :meth:`Database.batch` returns ``None``.
    required: bool = False


class _Refused(Exception):
    """A required step of a batch found no row: roll the transaction back."""


class Database(ABC):
    """The shared database: reads in one round trip, writes in one transaction, on either backend."""

    #: ``"sqlite"`` or ``"postgresql"``: for the few statements whose SQL differs between them.
    dialect: str
    #: Statements sent so far, each a round trip (to the server, or to the SQLite connection's thread), ``BEGIN`` and
    #: ``COMMIT`` included; the tests and ``bench.load`` read it to count the round trips of a move.
    round_trips: int = 0

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Handle]:
        """One transaction: committed when the block ends, rolled back on any error."""

    @abstractmethod
    def snapshot(self) -> AbstractAsyncContextManager[Handle]:
        """Several reads that see one consistent state of the database (no writes)."""

    @abstractmethod
    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Return every row of one query."""

    @abstractmethod
    async def write(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Run one statement that is a transaction by itself."""

    async def batch(self, steps: Sequence[Step]) -> list[list[Row]] | None:
        """Run ``steps`` in order in one transaction; return each one's rows.

        For a write whose statements are all known beforehand (a move, its log row, its announcements): a
        backend may send them together.  A :attr:`Step.required` step that returns no row rolls everything back
        and the result is ``None``.
        """
        try:
            async with self.transaction() as db:
                found = []
                for step in steps:
                    rows = await db.execute_fetchall(step.sql, step.params)
                    if step.required and not rows:
                        raise _Refused()
                    found.append(rows)
                return found
        except _Refused:
            return None

    @abstractmethod
    async def schema_version(self) -> int:
        """The number of the last migration applied."""

    @abstractmethod
    async def migrate(self, scripts: Sequence[tuple[int, str]]) -> None:
        """Apply the numbered scripts newer than :meth:`schema_version`, each all-or-nothing."""

    @abstractmethod
    async def close(self) -> None:
        """Close the connection(s); committed work is kept."""


_T = TypeVar("_T")


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    """Hand a call's outcome to the task awaiting it (on the loop's thread); a cancelled waiter takes nothing."""
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class SQLiteWorker:
    """The one thread that uses a SQLite connection: it runs the calls queued to it, one at a time, in order.

    A sqlite3 connection blocks while it works, so it must not run on the event loop; one thread of its own
    keeps every call in order without a lock of SQLite's, and a call costs one hand-off and one wake-up of
    the loop.  A queued call always runs, even when the task awaiting it is cancelled meanwhile: a
    transaction's ``BEGIN`` sent along with a statement is then still known to be open, and rolled back.
    """

    __slots__ = ("_queue", "_stopped", "_thread")

    def __init__(self, name: str = "tabula-sqlite") -> None:
        self._queue: queue.SimpleQueue[tuple[Any, ...] | None] = queue.SimpleQueue()
        self._stopped = False
        # A daemon: a bot that ends without closing its database must still end (SQLite's journal keeps
        # every committed transaction, and undoes the one a crash cut short).
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            loop, future, function, args = item
            outcome: tuple[Any, BaseException | None]
            try:
                outcome = (function(*args), None)
            except BaseException as error:  # handed to the waiting task, as any outcome
                outcome = (None, error)
            # A loop that has closed since it asked waits for nothing (call_soon_threadsafe raises
            # RuntimeError), and the thread must live on for the calls queued after this one.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_settle, future, *outcome)

    def run(self, function: Callable[..., _T], *args: Any) -> asyncio.Future[_T]:
        """Queue ``function(*args)`` to the thread; the future has its result (or its exception).

        After :meth:`stop` the future fails at once with sqlite3's own closed-database error: a call that
        no thread will run must not leave its caller waiting forever.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[_T] = loop.create_future()
        if self._stopped:
            future.set_exception(sqlite3.ProgrammingError("Cannot operate on a closed database."))
        else:
            self._queue.put((loop, future, function, args))
        return future

    @property
    def stopped(self) -> bool:
        return self._stopped

    def stop(self) -> None:
        """End the thread once the calls queued before this one have run (a second stop does nothing)."""
        if not self._stopped:
            self._stopped = True
            self._queue.put(None)


class _SQLiteHandle:
    """The SQLite connection as a :class:`Handle`, with SQLite's integrity errors made neutral.

    Each statement is one function queued to the connection's thread; the first statement of a transaction takes
    its ``BEGIN IMMEDIATE`` along (one hand-off, one wake-up of the loop, not two).
    """

    __slots__ = ("begin", "connection", "database", "worker")

    def __init__(self, connection: sqlite3.Connection, worker: SQLiteWorker, database: Database) -> None:
        self.connection = connection
        self.worker = worker
        self.database = database
        self.begin = False  # a transaction is open on our side, its BEGIN not sent yet

    async def _run(self, how: str, sql: str, params: Any) -> Any:
        self.database.round_trips += 1
        begin, self.begin = self.begin, False  # once queued, the BEGIN runs even if this task is cancelled
        try:
            return await self.worker.run(_statement, self.connection, begin, how, sql, params)
        except sqlite3.IntegrityError as error:
            raise IntegrityError(str(error)) from error

    async def execute_fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        rows: list[Row] = await self._run("rows", sql, params)
        return rows

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return int(await self._run("count", sql, params))

    async def executemany(self, sql: str, seq_of_params: Iterable[Sequence[Any]]) -> None:
        await self._run("many", sql, list(seq_of_params))

    async def serialize(self, key: str) -> None:
        return None  # every transaction of the one process already runs alone (BEGIN IMMEDIATE)


def _statement(connection: sqlite3.Connection, begin: bool, how: str, sql: str, params: Any) -> Any:
    """One statement in the connection's thread, after ``BEGIN IMMEDIATE`` if ``begin``: its rows, or rows changed."""
    if begin:
        connection.execute("BEGIN IMMEDIATE")
    if how == "many":
        connection.executemany(sql, params)
        return None
    cursor = connection.execute(sql, params)
    return cursor.fetchall() if how == "rows" else cursor.rowcount


def _end(connection: sqlite3.Connection, sql: str) -> None:
    """``COMMIT`` or ``ROLLBACK`` in the connection's thread; none is left open (its ``BEGIN`` may have failed)."""
    try:
        if sql == "COMMIT" or connection.in_transaction:
            connection.execute(sql)
    except BaseException:
        if connection.in_transaction:  # a COMMIT that failed: the next transaction must not start inside it
            connection.execute("ROLLBACK")
        raise


def _rows(connection: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[Row]:
    return connection.execute(sql, params).fetchall()


def _connect(path: str) -> sqlite3.Connection:
    """Open ``path`` in autocommit mode (the stores send ``BEGIN`` themselves), waiting up to 5 s for a lock."""
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA busy_timeout = 5000")
    except BaseException:
        connection.close()
        raise
    return connection


def _configure(connection: sqlite3.Connection) -> None:
    """The bot's settings for its own file: write-ahead log, foreign keys, and a sync per checkpoint only."""
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA foreign_keys = ON")
    connection.execute("PRAGMA synchronous = NORMAL")


def _apply(connection: sqlite3.Connection, current: int, scripts: Sequence[tuple[int, str]]) -> None:
    for number, script in scripts:
        if number <= current:
            continue
        # executescript commits first, then runs the whole script; wrapping it in one transaction
        # that also bumps user_version makes each migration all-or-nothing.
        connection.executescript(f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")


class SQLiteDatabase(Database):
    """One :mod:`sqlite3` connection and its thread, behind a lock (autocommit mode between transactions).

    Create with :meth:`connect`.
    """

    dialect = SQLITE

    def __init__(self, connection: sqlite3.Connection, worker: SQLiteWorker) -> None:
        self.connection = connection
        self.worker = worker
        self.lock = asyncio.Lock()
        self._handle = _SQLiteHandle(connection, worker, self)

    @classmethod
    async def connect(cls, path: str) -> SQLiteDatabase:
        """Open the SQLite file ``path`` (created if missing) on a thread of its own (sqlite3's errors pass through)."""
        worker = SQLiteWorker()
        try:
            connection = await worker.run(_connect, path)
        except BaseException:
            worker.stop()
            raise
        return cls(connection, worker)

    async def configure(self) -> None:
        """Put the file in write-ahead-log mode with foreign keys on (for the bot's own database, not a copy)."""
        async with self.lock:
            await self.worker.run(_configure, self.connection)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Handle]:
        """Hold the lock for one ``BEGIN IMMEDIATE`` … ``COMMIT`` (rolled back on any error).

        The ``BEGIN`` goes with the first statement (:class:`_SQLiteHandle`); a block that ran none sends nothing.
        """
        async with self.lock:
            handle = self._handle
            handle.begin = True  # sent with the first statement; none at all: no transaction to end
            try:
                yield handle
            except BaseException:
                if not handle.begin:
                    self.round_trips += 1
                    await self.worker.run(_end, self.connection, "ROLLBACK")
                raise
            finally:
                began, handle.begin = not handle.begin, False
            if began:
                self.round_trips += 1
                await self.worker.run(_end, self.connection, "COMMIT")

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Handle]:
        """Hold the lock: no write of this process (the only one) comes between the reads."""
        async with self.lock:
            yield self._handle

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        self.round_trips += 1
        async with self.lock:
            return await self.worker.run(_rows, self.connection, sql, params)

    async def write(self, sql: str, params: Sequence[Any] = ()) -> None:
        async with self.lock:
            await self._handle.execute(sql, params)

    async def batch(self, steps: Sequence[Step]) -> list[list[Row]] | None:
        """The whole transaction in one hand-off to the connection's thread: one wake-up of the loop, not one a
        statement."""
        async with self.lock:
            self.round_trips += 1
            try:
                return await self.worker.run(_run_batch, self.connection, steps)
            except sqlite3.IntegrityError as error:
                raise IntegrityError(str(error)) from error

    async def chunks(self, sql: str, size: int, params: Sequence[Any] = ()) -> AsyncIterator[list[Row]]:
        """Yield the rows of one query ``size`` at a time, for a table too large to read at once (a copy)."""
        async with self.lock:
            cursor = await self.worker.run(self.connection.execute, sql, params)
            try:
                while rows := await self.worker.run(cursor.fetchmany, size):
                    yield rows
            finally:
                await self.worker.run(cursor.close)

    async def schema_version(self) -> int:
        """``PRAGMA user_version``: SQLite's own place for it."""
        async with self.lock:
            rows = await self.worker.run(_rows, self.connection, "PRAGMA user_version", ())
        return int(rows[0][0]) if rows else 0

    async def migrate(self, scripts: Sequence[tuple[int, str]]) -> None:
        current = await self.schema_version()
        async with self.lock:
            await self.worker.run(_apply, self.connection, current, scripts)

    async def close(self) -> None:
        """Close the connection and end its thread; closing a closed database does nothing."""
        if self.worker.stopped:
            return
        try:
            await self.worker.run(self.connection.close)
        finally:
            self.worker.stop()


def _run_batch(connection: sqlite3.Connection, steps: Sequence[Step]) -> list[list[Row]] | None:
    """:meth:`SQLiteDatabase.batch` in the connection's thread: ``BEGIN IMMEDIATE``, the steps, ``COMMIT``."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        found = []
        for step in steps:
            rows = connection.execute(step.sql, step.params).fetchall()
            if step.required and not rows:
                connection.execute("ROLLBACK")
                return None
            found.append(rows)
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
    return found
