"""The one SQLite connection every store shares, and the errors stores raise.

The coroutines of one process share one aiosqlite connection, so each read and
each transaction holds an asyncio lock: two transactions never interleave.
Every write is one short ``BEGIN IMMEDIATE`` … ``COMMIT``.  The SQL itself lives
in the stores (:mod:`bot.match_store`, :mod:`bot.rating_store`) and in
:mod:`bot.storage`, which opens the database and migrates it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import aiosqlite


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it here (it is translated when shown)."""
    return message


class StorageError(Exception):
    """Base class for storage refusals; the message can be shown to a player."""


class ChannelBusy(StorageError):
    """The channel already has a pending challenge or a running match."""


class StaleMatch(StorageError):
    """The match changed since it was read; the write was not applied."""


def dump(value: Any) -> str:
    """Encode ``value`` as compact, stable JSON for a TEXT column."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


class Database:
    """One connection behind a lock: reads in one round trip, writes in one transaction."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.connection = connection
        self.lock = asyncio.Lock()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """Hold the lock for one ``BEGIN IMMEDIATE`` … ``COMMIT`` (rolled back on any error)."""
        async with self.lock:
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                yield self.connection
            except BaseException:
                await self.connection.execute("ROLLBACK")
                raise
            await self.connection.execute("COMMIT")

    # Each aiosqlite call is a round trip to its worker thread, so reads use execute_fetchall (one trip).

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Return every row of one query."""
        async with self.lock:
            return list(await self.connection.execute_fetchall(sql, params))

    async def write(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Run one statement that is a transaction by itself (the connection is in autocommit mode)."""
        async with self.lock:
            await self.connection.execute(sql, params)

    async def close(self) -> None:
        await self.connection.close()
