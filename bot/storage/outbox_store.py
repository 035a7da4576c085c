"""The outbox's rows: the announcements still to post, posted, retried or given up, and recording new ones."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bot.storage.database import POSTGRESQL, Database, Handle, dump
from bot.storage.match_base import (
    _OUTBOX_COLUMNS,
    GRACE_SECONDS,
    Schedule,
    _decode_announcement,
    _notice_values,
    _outbox_values,
    last_seq,
)
from bot.storage.move_write import announcement
from bot.storage.records import Announcement, Delivery, MatchRecord, Notice


class _Delivered:
    """Announcements delivered while a ``DELETE`` was on its way: they leave the outbox in the next one together."""

    __slots__ = ("gone", "ids")

    def __init__(self) -> None:
        self.ids: list[int] = []
        self.gone = False  # the statement that deleted them all committed


class Outbox:
    """Recording, reading and settling the outbox of announcements."""

    def __init__(self, database: Database, schedule: Schedule) -> None:
        self.database = database
        self.schedule = schedule
        self._delivered: _Delivered | None = None  # waiting for the next DELETE
        self._deleting_lock: asyncio.Lock | None = None

    async def announce(
        self, db: Handle, record: MatchRecord, seq: int, notices: Sequence[Notice], now: float
    ) -> list[Announcement]:
        """Record ``notices`` about ``record`` (shown after log entry ``seq``) inside the transaction ``db``."""
        made = []
        shared = _outbox_values(now)
        for notice in notices:
            step = announcement(record, seq, _notice_values(notice), shared)
            rows = await db.execute_fetchall(step.sql, step.params)
            made.append(_decode_announcement(next(iter(rows))))
        self.schedule.due(now + GRACE_SECONDS if made else None)
        return made

    async def announce_in(
        self, db: Handle, record: MatchRecord, notices: Sequence[Notice], now: float
    ) -> list[Announcement]:
        """Record ``notices`` about ``record`` in the outbox, inside a transaction another store holds."""
        return await self.announce(db, record, await last_seq(db, record.id), notices, now)

    @property
    def _deleting(self) -> asyncio.Lock:
        """Held while a ``DELETE`` of delivered announcements is on its way (made in the running loop)."""
        if self._deleting_lock is None:
            self._deleting_lock = asyncio.Lock()
        return self._deleting_lock

    async def announcement(self, announcement_id: int) -> Announcement | None:
        """Return one outbox row."""
        rows = await self.database.rows(f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE id = ?", (announcement_id,))
        return _decode_announcement(rows[0]) if rows else None

    async def pending_announcements(self, now: float | None = None) -> list[Announcement]:
        """Return undelivered announcements (on this process's shards) in the order they were made.

        Only those due by ``now``, if given."""
        mine, shards = self.schedule.on_my_shards()
        rows = await self.database.rows(
            f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE status = ? AND next_at <= ?{mine} ORDER BY id",
            (Delivery.PENDING, float("inf") if now is None else now, *shards),
        )
        return [_decode_announcement(row) for row in rows]

    async def failed_announcements(self, match_id: int) -> list[Announcement]:
        """Return a match's announcements that could not be posted (to explain why, and repair)."""
        rows = await self.database.rows(
            f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE match_id = ? AND status = ? ORDER BY id",
            (match_id, Delivery.FAILED),
        )
        return [_decode_announcement(row) for row in rows]

    async def mark_delivered(self, announcement_id: int) -> None:
        """Record that an announcement reached the players: it leaves the outbox (one statement, its own
        transaction).  The outbox only ever holds what is still to post, or could not be posted.

        Returns once the row is gone, as ever; announcements delivered while another's ``DELETE`` is on its way
        leave together in the next one (one statement for the lot, not one each).
        """
        batch = self._delivered
        if batch is None:
            batch = self._delivered = _Delivered()
        batch.ids.append(announcement_id)
        async with self._deleting:
            if batch.gone:
                return  # another caller sent the batch this one joined
            if batch is self._delivered:
                self._delivered = None  # what is delivered from now on waits for the next statement
                ids = batch.ids
            else:
                ids = [announcement_id]  # its batch's sender failed: this one goes alone
            if len(ids) == 1:
                await self.database.write("DELETE FROM outbox WHERE id = ?", (ids[0],))
            elif self.database.dialect == POSTGRESQL:
                await self.database.write("DELETE FROM outbox WHERE id = ANY(?::bigint[])", (ids,))
            else:
                await self.database.write(
                    "DELETE FROM outbox WHERE id IN (SELECT value FROM json_each(?))", (dump(ids),)
                )
            if ids is batch.ids:
                batch.gone = True

    async def mark_failed(self, announcement_id: int, error: str, now: float) -> None:
        """Give up on an announcement Discord will never take (no permission, channel gone)."""
        await self.database.write(
            "UPDATE outbox SET status = ?, error = ?, attempts = attempts + 1, delivered_at = ? WHERE id = ?",
            (Delivery.FAILED, error, now, announcement_id),
        )

    async def reschedule(self, announcement_id: int, error: str, next_at: float) -> None:
        """Note a failed attempt and when to try again."""
        await self.database.write(
            "UPDATE outbox SET attempts = attempts + 1, error = ?, next_at = ? WHERE id = ? AND status = ?",
            (error, next_at, announcement_id, Delivery.PENDING),
        )
        self.schedule.due(next_at)

    async def settle_failed(self, match_id: int) -> None:
        """Forget a match's failed announcements once a fresh board has been posted in their place."""
        await self.database.write("DELETE FROM outbox WHERE match_id = ? AND status = ?", (match_id, Delivery.FAILED))
