"""Tabula's database: opening and migrating it, bot metadata, and the stores by concern.

:meth:`MatchStore.open` opens (creating if needed) one SQLite file in WAL mode
with foreign keys on and applies the numbered migrations in ``bot/migrations``
(tracked by ``PRAGMA user_version``).  The returned object holds the stores that
own the SQL of each concern, sharing one connection (:mod:`bot.database`):

* :attr:`MatchStore.matches` — matches, their append-only move log and the
  outbox of announcements (:mod:`bot.match_store`);
* :attr:`MatchStore.ratings` — ratings, ladders and rated history
  (:mod:`bot.rating_store`).
"""

from __future__ import annotations

from importlib import resources

import aiosqlite

from bot import ratings as rating_model
from bot.database import ChannelBusy, Database, StaleMatch, StorageError
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

__all__ = [
    "Announcement",
    "ChannelBusy",
    "Delivery",
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


class MatchStore:
    """The database behind the bot: its stores by concern.  Create with :meth:`open`."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection
        self.database = Database(connection)
        self.ratings = Ratings(self.database, rate=rating_model.rate)
        self.matches = Matches(self.database, on_finish=self.ratings.record_finish)

    @classmethod
    async def open(cls, path: str) -> MatchStore:
        """Open (creating if needed) the database at ``path`` and bring its schema up to date."""
        connection = await aiosqlite.connect(path, isolation_level=None)
        await connection.execute("PRAGMA journal_mode = WAL")
        await connection.execute("PRAGMA foreign_keys = ON")
        await connection.execute("PRAGMA synchronous = NORMAL")
        await connection.execute("PRAGMA busy_timeout = 5000")
        store = cls(connection)
        await store._migrate()
        return store

    async def close(self) -> None:
        """Close the connection; pending transactions were already committed."""
        await self._db.close()

    async def _migrate(self) -> None:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        current = row[0] if row else 0
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
