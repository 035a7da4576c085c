"""PostgreSQL behind :class:`bot.storage.database.Database`: a pool of asyncpg connections many processes can share.

Imported only when ``TABULA_DATABASE`` is a ``postgresql://`` URL, so asyncpg stays an optional
extra (``pip install 'tabula[postgres]'``).  The stores' SQL is written once with SQLite's ``?``
placeholders; :func:`bot.storage.database.to_postgres` numbers them for PostgreSQL.  Each transaction takes
one connection from the pool for its duration (PostgreSQL's default READ COMMITTED isolation: the
version-checked ``UPDATE … WHERE id = ? AND version = ?`` locks the match's row, so a second writer
of the same match waits, then finds the version changed and is refused).  The schema version lives
in the ``tabula_schema`` table; migrations run under an advisory lock, so processes starting
together migrate once.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from bot.storage.database import POSTGRESQL, Database, Handle, IntegrityError, Row, to_postgres

# Any number: the advisory lock that lets one process at a time migrate the schema.
_MIGRATION_LOCK = 7_461_726_101
_SCHEMA_TABLE = (
    "CREATE TABLE IF NOT EXISTS tabula_schema (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)"
)


class _Connection(asyncpg.Connection):  # type: ignore[misc]
    """A pooled connection given back without asyncpg's reset query (``RESET ALL``, ``UNLISTEN *`` …).

    That query is one more round trip after every read and every transaction.  Tabula changes no session
    setting, listens to nothing, keeps no cursor and takes only transaction-scoped advisory locks, so a
    connection is already clean when it goes back (an open transaction is still rolled back by asyncpg).
    """

    def get_reset_query(self) -> str:
        return ""


class _PostgresHandle:
    """One pooled connection inside a transaction, as the stores' :class:`~bot.storage.database.Handle`."""

    __slots__ = ("connection", "database")

    def __init__(self, connection: Any, database: PostgresDatabase) -> None:
        self.connection = connection
        self.database = database

    async def execute_fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        self.database.round_trips += 1
        try:
            return [tuple(row) for row in await self.connection.fetch(to_postgres(sql), *params)]
        except asyncpg.IntegrityConstraintViolationError as error:
            raise IntegrityError(str(error)) from error

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        self.database.round_trips += 1
        try:
            status = await self.connection.execute(to_postgres(sql), *params)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise IntegrityError(str(error)) from error
        last = str(status).rsplit(" ", 1)[-1]  # "UPDATE 3", "INSERT 0 1"
        return int(last) if last.isdigit() else 0

    async def executemany(self, sql: str, seq_of_params: Iterable[Sequence[Any]]) -> None:
        self.database.round_trips += 1  # asyncpg pipelines the whole batch: one round trip
        try:
            await self.connection.executemany(to_postgres(sql), list(seq_of_params))
        except asyncpg.IntegrityConstraintViolationError as error:
            raise IntegrityError(str(error)) from error

    async def serialize(self, key: str) -> None:
        self.database.round_trips += 1
        await self.connection.execute("SELECT pg_advisory_xact_lock(hashtext($1))", key)


class PostgresDatabase(Database):
    """A pool of asyncpg connections; create with :meth:`connect`."""

    dialect = POSTGRESQL

    def __init__(self, pool: Any, url: str) -> None:
        self.pool = pool
        self.url = url

    @classmethod
    async def connect(cls, url: str, connections: int = 10) -> PostgresDatabase:
        """Open a pool of ``connections`` connections (asyncpg's errors pass through)."""
        size = max(1, connections)
        pool = await asyncpg.create_pool(
            url,
            # Every connection opened at once and kept: one opened on demand makes the moves waiting for it wait
            # for a new server process too (hundreds of ms on a busy machine), at the first burst and after
            # each idle spell (asyncpg closes idle connections above min_size after five minutes).
            min_size=size,
            max_size=size,
            # The just-in-time compiler only slows Tabula's short statements down (and makes p99 jump).
            server_settings={"jit": "off", "application_name": "tabula"},
            connection_class=_Connection,
        )
        return cls(pool, url)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Handle]:
        self.round_trips += 2  # BEGIN and COMMIT (or ROLLBACK)
        async with self.pool.acquire() as connection, connection.transaction():
            yield _PostgresHandle(connection, self)

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Handle]:
        async with (
            self.pool.acquire() as connection,
            connection.transaction(isolation="repeatable_read", readonly=True),
        ):
            self.round_trips += 2
            yield _PostgresHandle(connection, self)

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        self.round_trips += 1
        try:
            return [tuple(row) for row in await self.pool.fetch(to_postgres(sql), *params)]
        except asyncpg.IntegrityConstraintViolationError as error:
            raise IntegrityError(str(error)) from error

    async def write(self, sql: str, params: Sequence[Any] = ()) -> None:
        self.round_trips += 1
        try:
            await self.pool.execute(to_postgres(sql), *params)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise IntegrityError(str(error)) from error

    async def schema_version(self) -> int:
        async with self.pool.acquire() as connection:
            return await self._version(connection)

    @staticmethod
    async def _version(connection: Any) -> int:
        # Read the catalog itself (not to_regclass, whose cache may not yet know of a table another
        # process created a moment ago while this one waited for the migration lock).
        exists = await connection.fetchval(
            "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_tables "
            "WHERE schemaname = current_schema() AND tablename = 'tabula_schema')"
        )
        if not exists:
            return 0
        found = await connection.fetchval("SELECT version FROM tabula_schema WHERE id = 1")
        return int(found or 0)

    async def migrate(self, scripts: Sequence[tuple[int, str]]) -> None:
        async with self.pool.acquire() as connection:
            for number, script in scripts:
                async with connection.transaction():
                    await connection.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
                    if number <= await self._version(connection):
                        continue  # already applied (perhaps by another process just now)
                    await connection.execute(script)  # no parameters: the whole script in one round trip
                    await connection.execute(_SCHEMA_TABLE)
                    await connection.execute(
                        "INSERT INTO tabula_schema (id, version) VALUES (1, $1) "
                        "ON CONFLICT (id) DO UPDATE SET version = excluded.version",
                        number,
                    )

    async def reset_identities(self) -> None:
        """Move every identity column's sequence past the largest id (after rows were copied in with their ids)."""
        async with self.pool.acquire() as connection:
            columns = await connection.fetch(
                "SELECT table_name, column_name FROM information_schema.columns "
                "WHERE table_schema = current_schema() AND is_identity = 'YES'"
            )
            for table, column in columns:
                await connection.execute(
                    f'SELECT setval(pg_get_serial_sequence($1, $2), COALESCE(MAX("{column}"), 0) + 1, false) '
                    f'FROM "{table}"',
                    table,
                    column,
                )

    async def close(self) -> None:
        await self.pool.close()
