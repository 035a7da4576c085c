"""The outbox's rows: the announcements still to post, posted, retried or given up."""

from __future__ import annotations

from bot.storage.match_base import (
    _OUTBOX_COLUMNS,
    MatchesBase,
    _decode_announcement,
)
from bot.storage.records import (
    Announcement,
    Delivery,
)


class Outbox(MatchesBase):
    """Reading and settling the outbox of announcements."""

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
        transaction).  The outbox only ever holds what is still to post, or could not be posted."""
        await self.database.write("DELETE FROM outbox WHERE id = ?", (announcement_id,))

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
