"""Where matches are played: the matches of a channel or a player, their threads, their moves elsewhere."""

from __future__ import annotations

from typing import Any

from bot.storage.database import Database
from bot.storage.match_base import (
    _COLUMNS,
    _EVENT_FLAG,
    MatchReader,
    Schedule,
)
from bot.storage.outbox_store import Outbox
from bot.storage.records import (
    OPEN_STATUSES,
    Announcement,
    MatchRecord,
    MatchStatus,
    Notice,
    ThreadMode,
)


class Places:
    """Finding matches by place and player, and changing where a match is played."""

    def __init__(self, database: Database, schedule: Schedule, reader: MatchReader, outbox: Outbox) -> None:
        self.database = database
        self.schedule = schedule
        self.reader = reader
        self.outbox = outbox

    async def open_matches_at(self, place_id: int) -> list[MatchRecord]:
        """Return the open matches played in this channel or thread (or challenged there, no thread yet)."""
        return await self.reader.fetch_flagged(
            f"SELECT {_COLUMNS}, {_EVENT_FLAG.format(alias='matches.')} FROM matches WHERE status IN (?, ?) "
            "AND (thread_id = ? OR (thread_id IS NULL AND channel_id = ?)) ORDER BY id",
            (*OPEN_STATUSES, place_id, place_id),
        )

    async def running_matches_of(self, guild_id: int, user_id: int, game: str | None = None) -> list[MatchRecord]:
        """Return a player's running matches in a server (of ``game``, if given), oldest first."""
        columns = ", ".join("m." + c.strip() for c in _COLUMNS.split(","))
        sql = (
            f"SELECT {columns}, {_EVENT_FLAG.format(alias='m.')} FROM match_players AS p JOIN matches AS m "
            "ON m.id = p.match_id "
            "WHERE p.user_id = ? AND m.guild_id = ? AND m.status = ?"
        )
        params: list[Any] = [user_id, guild_id, MatchStatus.ACTIVE]
        if game is not None:
            sql += " AND m.game = ?"
            params.append(game)
        return await self.reader.fetch_flagged(sql + " ORDER BY m.id", params)

    async def set_thread(self, match_id: int, thread_id: int) -> None:
        """Record the thread Discord opened for a match, the moment it exists (once; no version bump).

        The match's version is left alone: announcements already saved still describe its current state.
        """
        await self.database.write(
            "UPDATE matches SET thread_id = ? WHERE id = ? AND thread_id IS NULL", (thread_id, match_id)
        )

    async def set_starter(self, match_id: int, message_id: int) -> None:
        """Record the message a computer game's thread is to be opened from (once; no version bump)."""
        await self.database.write(
            "UPDATE matches SET message_id = ? WHERE id = ? AND message_id IS NULL", (message_id, match_id)
        )

    async def play_in_channel(self, match_id: int) -> None:
        """Discord refused a thread for this match: it is played in its channel (no version bump)."""
        await self.database.write(
            "UPDATE matches SET thread_mode = ? WHERE id = ? AND thread_id IS NULL",
            (ThreadMode.CHANNEL, match_id),
        )

    async def relocate(
        self,
        record: MatchRecord,
        moved: str,
        notice: Notice,
        *,
        thread_mode: str | None,
        thread_id: int | None,
        message_id: int | None,
        followups: bool,
        now: float,
    ) -> Announcement | None:
        """Move a match to a new place and record the announcement that says so, in one transaction.

        No version bump (like :meth:`set_thread`): the match's announcements still describe its state.
        Only if its place is still the one ``record`` holds: ``None`` when another move won the race.
        """
        async with self.database.transaction() as db:
            rows = await db.execute_fetchall(
                "UPDATE matches SET thread_mode = ?, thread_id = ?, message_id = ?, followups = ?, moved = ?, "
                "moved_version = version WHERE id = ? AND version = ? AND followups = ? "
                "AND COALESCE(thread_id, 0) = ? AND COALESCE(thread_mode, '') = ? RETURNING id",
                (
                    thread_mode,
                    thread_id,
                    message_id,
                    int(followups),
                    moved,
                    record.id,
                    record.version,
                    int(record.followups),
                    record.thread_id or 0,
                    record.thread_mode or "",
                ),
            )
            if not list(rows):
                return None
            return (await self.outbox.announce_in(db, record, [notice], now))[0]

    async def matches_in(self, channel_id: int) -> list[MatchRecord]:
        """Return the running matches played in this channel or thread, or in a thread of this channel."""
        return await self.reader.fetch_all(
            f"SELECT {_COLUMNS} FROM matches WHERE status = ? AND (thread_id = ? OR channel_id = ?) ORDER BY id",
            (MatchStatus.ACTIVE, channel_id, channel_id),
        )

    async def running_in_guild(self, guild_id: int, limit: int = 25) -> list[MatchRecord]:
        """Return a server's running matches, newest first (for ``/tabula end``)."""
        return await self.reader.fetch_all(
            f"SELECT {_COLUMNS} FROM matches WHERE guild_id = ? AND status = ? ORDER BY id DESC LIMIT ?",
            (guild_id, MatchStatus.ACTIVE, limit),
        )

    async def threads_to_archive(self, now: float) -> list[MatchRecord]:
        """Return finished matches (on this process's shards) whose thread is due to be archived."""
        mine, shards = self.schedule.on_my_shards()
        return await self.reader.fetch_all(
            f"SELECT {_COLUMNS} FROM matches WHERE archive_at IS NOT NULL AND archive_at <= ?{mine} "
            "ORDER BY archive_at",
            (now, *shards),
        )

    async def archived(self, match_id: int, retry_at: float | None = None) -> None:
        """Note that a match's thread was archived (``retry_at``: not yet, try again then)."""
        await self.database.write("UPDATE matches SET archive_at = ? WHERE id = ?", (retry_at, match_id))
        self.schedule.due(retry_at)

    async def operating_counts(self) -> dict[str, dict[str, int]]:
        """Open matches by status and outbox announcements by status, on this process's shards (for the metrics)."""
        mine, shards = self.schedule.on_my_shards()
        matches = await self.database.rows(
            f"SELECT status, COUNT(*) FROM matches WHERE status IN (?, ?){mine} GROUP BY status",
            (*OPEN_STATUSES, *shards),
        )
        outbox = await self.database.rows(
            f"SELECT status, COUNT(*) FROM outbox WHERE 1 = 1{mine} GROUP BY status", shards
        )
        found = {"matches": {str(status): 0 for status in OPEN_STATUSES}, "announcements": {"pending": 0, "failed": 0}}
        found["matches"].update({str(status): int(count) for status, count in matches})
        found["announcements"].update({str(status): int(count) for status, count in outbox})
        return found

    async def note_once(self, channel_id: int, note: str, now: float) -> bool:
        """Record that ``note`` was said in a channel; ``True`` only the first time."""
        async with self.database.transaction() as db:
            rows = await db.execute_fetchall(
                "SELECT 1 FROM channel_notes WHERE channel_id = ? AND note = ?", (channel_id, note)
            )
            if list(rows):
                return False
            await db.execute(
                "INSERT INTO channel_notes (channel_id, note, created_at) VALUES (?, ?, ?)", (channel_id, note, now)
            )
            return True
