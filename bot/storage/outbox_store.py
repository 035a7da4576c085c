"""The outbox's rows: the announcements still to post, posted, retried or given up."""

from __future__ import annotations

import asyncio

from bot.storage.database import POSTGRESQL, dump
from bot.storage.match_base import (
    _OUTBOX_COLUMNS,
    MatchesBase,
    _decode_announcement,
)
from bot.storage.records import (
    Announcement,
    Delivery,
)


class _Delivered:
    """Announcements delivered while a ``DELETE`` was on its way: they leave the outbox in the next one together."""

    __slots__ = ("gone", "ids")

    def __init__(self) -> None:
        self.ids: list[int] = []
        self.gone = False  # the statement that deleted them all committed


class Outbox(MatchesBase):
    """Reading and settling the outbox of announcements."""

    _delivered: _Delivered | None = None  # waiting for the next DELETE
    _deleting_lock: asyncio.Lock | None = None

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
        mine, shards = self._on_my_shards()
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
        self._due(next_at)

    async def settle_failed(self, match_id: int) -> None:
        """Forget a match's failed announcements once a fresh board has been posted in their place."""
        await self.database.write("DELETE FROM outbox WHERE match_id = ? AND status = ?", (match_id, Delivery.FAILED))
