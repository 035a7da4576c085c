"""The database behind the bot and its stores by concern: :class:`MatchStore`."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, NoReturn

from bot.storage.database import SQLITE, Database, Handle, Row, is_url
from bot.storage.extras_store import MatchExtras
from bot.storage.job_store import Jobs
from bot.storage.lock import unlock_file
from bot.storage.match_store import Matches
from bot.storage.mining_store import Mining
from bot.storage.opening import open_postgres, open_sqlite
from bot.storage.puzzle_store import Puzzles
from bot.storage.rating_store import RatingModel, Ratings
from bot.storage.records import MatchRecord
from bot.storage.review_store import Reviews
from bot.storage.settings_store import GuildSettingsStore
from bot.storage.tournament_store import Tournaments


class MatchStore:
    """The database behind the bot: its stores by concern.  Create with :meth:`open`."""

    def __init__(
        self,
        database: Database,
        lock: int | None = None,
        *,
        rating: RatingModel | None = None,
        finish_jobs: Sequence[str] = (),
    ) -> None:
        self.database = database
        self.finish_jobs = tuple(finish_jobs)
        self._file_lock = lock
        self.ratings = Ratings(self.database, rating)
        self.matches = Matches(self.database, on_finish=self._finished)
        self.settings = GuildSettingsStore(self.database)
        self.extras = MatchExtras(self.database, self.matches)
        self.tournaments = Tournaments(self.database, self.matches)
        self.reviews = Reviews(self.database)
        self.mining = Mining(self.database)
        self.puzzles = Puzzles(self.database, self.matches.schedule)
        self.jobs = Jobs(self.database)

    async def _finished(self, db: Handle, record: MatchRecord, places: Sequence[int], now: float) -> None:
        """A match finished (inside its transaction): rate it, give an event game's pairing its result, and queue
        the background work every finished match gets (``finish_jobs``: its mining for puzzles)."""
        await self.ratings.record_finish(db, record, places, now)
        await self.tournaments.record_finish(db, record, places, now)
        for kind in self.finish_jobs:
            await self.jobs.queue_within(db, kind, record.guild_id, record.id, now=now)

    @classmethod
    def unopened(cls) -> MatchStore:
        """A store with no database behind it: every query raises.

        A bot that is never started (``--print-commands``, the catalogs, tests of the command payload)
        wires its parts over this one; starting opens the real database and wires them again.
        """
        return cls(_Unopened())

    @classmethod
    async def open(
        cls,
        path: str,
        *,
        connections: int = 10,
        rating: RatingModel | None = None,
        finish_jobs: Sequence[str] = (),
    ) -> MatchStore:
        """Open (creating if needed) the database ``path`` names and bring its schema up to date.

        ``path`` is a SQLite file, or a ``postgresql://`` URL (then ``connections`` bounds the pool).
        One process at a time per SQLite file: an exclusive lock on ``<path>.lock``, held until
        :meth:`close`, refuses a second bot on the same file.  Any reason the database cannot be
        used raises :class:`DatabaseUnavailable` with nothing left open.  ``rating`` rates the rated matches
        that finish (the bot hands in ``bot.core.ratings``); without it they are recorded unrated.
        ``finish_jobs`` are the kinds of background job queued for every match that finishes, in its transaction
        (the bot hands in its mining for puzzles).
        """

        if is_url(path):
            return cls(await open_postgres(path, connections), rating=rating, finish_jobs=finish_jobs)
        database, lock = await open_sqlite(path)
        return cls(database, lock, rating=rating, finish_jobs=finish_jobs)

    async def close(self) -> None:
        """Close the connection(s); committed transactions are kept."""
        try:
            await self.database.close()
        finally:
            unlock_file(self._file_lock)
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
