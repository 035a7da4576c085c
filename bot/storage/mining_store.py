"""How far the mining of finished matches for puzzles got, one row per match in ``puzzle_mining`` (migration 014).

Mining looks at a match's positions in order of play, a few at a time; after each slice the number looked at
(and the puzzles found) is written here, so a restart goes on from the next position.  :meth:`Mining.unmined`
lists the finished matches that were never mined to the end (a restart between a match's end and its mining
job being queued loses nothing: the sweep finds it).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.storage.database import Database
from bot.storage.records import MatchStatus


@dataclass(frozen=True, slots=True)
class MiningProgress:
    """One match's mining so far."""

    match_id: int
    screened: int
    found: int
    complete: bool


class Mining:
    """Read and write mining progress on a shared :class:`~bot.storage.database.Database`."""

    def __init__(self, database: Database, clock: Callable[[], float] = time.time) -> None:
        self.database = database
        self.clock = clock

    async def get(self, match_id: int) -> MiningProgress | None:
        """Return how far the mining of ``match_id`` got, or None if it never started."""
        rows = await self.database.rows(
            "SELECT screened, found, complete FROM puzzle_mining WHERE match_id = ?", (match_id,)
        )
        if not rows:
            return None
        screened, found, complete = rows[0]
        return MiningProgress(match_id, int(screened), int(found), bool(complete))

    async def save(self, match_id: int, screened: int, found: int, complete: bool) -> None:
        """Write how far the mining of ``match_id`` got (replacing what was there)."""
        await self.database.write(
            "INSERT INTO puzzle_mining (match_id, screened, found, complete, updated_at) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (match_id) DO UPDATE SET screened = excluded.screened, found = excluded.found, "
            "complete = excluded.complete, updated_at = excluded.updated_at",
            (match_id, screened, found, int(complete), self.clock()),
        )

    async def unmined(self, since: float, limit: int) -> list[tuple[int, int]]:
        """Return up to ``limit`` (match id, guild id) of matches finished since ``since`` whose mining is not
        complete, oldest first."""
        rows = await self.database.rows(
            "SELECT m.id, m.guild_id FROM matches AS m LEFT JOIN puzzle_mining AS p ON p.match_id = m.id "
            "WHERE m.status = ? AND m.finished_at >= ? AND (p.complete IS NULL OR p.complete = 0) "
            "ORDER BY m.finished_at, m.id LIMIT ?",
            (MatchStatus.FINISHED, since, limit),
        )
        return [(int(match_id), int(guild_id)) for match_id, guild_id in rows]
