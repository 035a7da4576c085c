"""The SQL of what happens around a running match: reminders, automatic endings, draw offers, rematches.

Kept apart from :mod:`bot.storage.match_store` (matches, the move log, the outbox) but on the same
:class:`~bot.storage.database.Database`, and writing the outbox through :class:`~bot.storage.match_store.Matches`, so
a reminder and its announcement are saved in one transaction.  Migration 006 made the tables.

Times due are computed from each match's own row: a running match's turn began at ``updated_at``
(the move that set its ``deadline``), so its turn time is ``deadline - updated_at`` whatever the
server's setting was then.  A reminder is due with a quarter of that time left; the match is
abandoned once its deadline has passed by that time again.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.database import Database, Handle, StaleMatch
from bot.storage.match_base import _STALE
from bot.storage.match_store import _COLUMNS, Matches, _decode
from bot.storage.records import Announcement, Delivery, MatchRecord, MatchStatus, Notice


async def _still_at(db: Handle, record: MatchRecord) -> bool:
    """Whether the match is still running at ``record``'s version (inside the caller's transaction)."""
    rows = await db.execute_fetchall(
        "SELECT 1 FROM matches WHERE id = ? AND version = ? AND status = ?",
        (record.id, record.version, MatchStatus.ACTIVE),
    )
    return bool(list(rows))


@dataclass(frozen=True, slots=True)
class Due:
    """When each kind of background work is next due (``None``: nothing of that kind is waiting)."""

    challenges: float | None  # the earliest pending challenge's expiry
    reminders: float | None  # the earliest reminder not yet sent (a quarter of the turn left)
    endings: float | None  # the earliest automatic ending (the deadline passed by a turn time again)
    outbox: float | None  # the earliest announcement due a (re)try
    archives: float | None  # the earliest finished match's thread due to be archived


@dataclass(frozen=True, slots=True)
class DrawOffer:
    """A pending draw offer: who made it, and the match version it is valid for."""

    match_id: int
    version: int
    seat: int
    user_id: int
    created_at: float


@dataclass(frozen=True, slots=True)
class TakebackOffer:
    """A pending request to take moves back: who asked, at which match version, how many log entries stay,
    and the seats that agreed so far."""

    match_id: int
    version: int
    seat: int
    user_id: int
    keep: int
    accepted: tuple[int, ...]
    created_at: float


class MatchExtras:
    """Reminders, abandonment, draw offers and rematch links, on a shared database."""

    def __init__(self, database: Database, matches: Matches, clock: Callable[[], float] = time.time) -> None:
        self.database = database
        self.matches = matches
        self.clock = clock

    # -- reminders -------------------------------------------------------------------

    async def due_reminders(self, now: float, limit: int = 100) -> list[MatchRecord]:
        """Running matches with a quarter of the turn or less left, not yet reminded about this turn (the
        first ``limit``: the sweeper takes them in batches, so a crowd falling due never blocks the loop).
        Only servers on this process's shards."""
        mine, shards = self.matches.schedule.on_my_shards()
        # Due means 3 * deadline + updated_at <= 4 * now: with turns of at most T, the deadline is at most
        # now + T / 4, so only that slice of the deadline index is searched.
        bound = now + await self.matches.turn_bound() / 4
        rows = await self.database.rows(
            f"SELECT {_COLUMNS} FROM matches AS m WHERE status = ? AND deadline > ? AND deadline <= ? "
            "AND 3 * deadline + updated_at <= ? "
            "AND NOT EXISTS (SELECT 1 FROM match_reminders AS r WHERE r.match_id = m.id AND r.version = m.version)"
            f"{mine} ORDER BY id LIMIT ?",
            (MatchStatus.ACTIVE, now, bound, 4 * now, *shards, limit),
        )
        return [_decode(row) for row in rows]

    async def remind(
        self, record: MatchRecord, user_id: int, notice: Notice | None, now: float
    ) -> list[Announcement] | None:
        """Mark this turn of ``record`` reminded and, with a ``notice``, record its announcement: one transaction.

        ``None`` when nothing was done: the match moved on, or this turn was already handled.
        """
        async with self.database.transaction() as db:
            if not await _still_at(db, record):
                return None
            rows = await db.execute_fetchall(
                "INSERT INTO match_reminders (match_id, version, user_id, sent, created_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (match_id, version) DO NOTHING RETURNING match_id",
                (record.id, record.version, user_id, int(notice is not None), now),
            )
            if not list(rows):
                return None
            if notice is None:
                return []
            return await self.matches.announce_in(db, record, [notice], now)

    async def reminders_enabled(self, user_id: int) -> bool:
        """Whether ``user_id`` wants reminders (yes, unless they turned them off)."""
        rows = await self.database.rows("SELECT enabled FROM user_reminders WHERE user_id = ?", (user_id,))
        return bool(rows[0][0]) if rows else True

    async def set_reminders(self, user_id: int, enabled: bool) -> None:
        """Turn ``user_id``'s reminders on or off."""
        await self.database.write(
            "INSERT INTO user_reminders (user_id, enabled, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at",
            (user_id, int(enabled), self.clock()),
        )

    async def next_due(self, now: float, horizon: float = 60.0) -> Due:
        """When each kind of background work is next due, on this process's shards: one query.

        Exact for what falls due within ``horizon`` seconds (the sweeper's longest sleep); a later time (or
        None) means nothing is due before then.  The bound lets reminders and endings search a slice of the
        deadline index rather than every running match (an ending is due once ``2 * deadline - updated_at``
        has passed, so its deadline has too; a reminder's deadline lies at most a quarter of the longest turn
        later).

        The sweeper asks this once per wake and sleeps until the earliest time (or until a write makes
        something due sooner).  The times use the same formulas as :meth:`due_reminders`,
        :meth:`due_abandoned`, :meth:`~bot.storage.match_store.Matches.expired_challenges`,
        :meth:`~bot.storage.match_store.Matches.pending_announcements` and
        :meth:`~bot.storage.match_store.Matches.threads_to_archive`.
        """
        mine, shards = self.matches.schedule.on_my_shards()
        until = now + horizon
        reminded_by = until + await self.matches.turn_bound() / 4
        rows = await self.database.rows(
            f"SELECT (SELECT MIN(deadline) FROM matches WHERE status = ? AND deadline IS NOT NULL{mine}), "
            f"(SELECT MIN((3 * deadline + updated_at) / 4) FROM matches AS m WHERE status = ? "
            "AND deadline > ? AND deadline <= ? AND NOT EXISTS (SELECT 1 FROM match_reminders AS r "
            f"WHERE r.match_id = m.id AND r.version = m.version){mine}), "
            f"(SELECT MIN(2 * deadline - updated_at) FROM matches WHERE status = ? AND deadline <= ?{mine}), "
            f"(SELECT MIN(next_at) FROM outbox WHERE status = ?{mine}), "
            f"(SELECT MIN(archive_at) FROM matches WHERE archive_at IS NOT NULL{mine})",
            (
                MatchStatus.CHALLENGE,
                *shards,
                MatchStatus.ACTIVE,
                now,
                reminded_by,
                *shards,
                MatchStatus.ACTIVE,
                until,
                *shards,
                Delivery.PENDING,
                *shards,
                *shards,
            ),
        )
        return Due(*(None if value is None else float(value) for value in rows[0]))

    # -- automatic endings -------------------------------------------------------------

    async def due_abandoned(self, now: float, after: int = 0, limit: int = 100) -> list[MatchRecord]:
        """Running matches whose deadline passed a whole turn time ago (twice over) without a move or claim.

        The first ``limit`` with an ID above ``after`` (the sweeper pages through them), on this process's shards.
        """
        mine, shards = self.matches.schedule.on_my_shards()
        rows = await self.database.rows(
            f"SELECT {_COLUMNS} FROM matches WHERE status = ? AND deadline <= ? "
            f"AND 2 * deadline - updated_at <= ? AND id > ?{mine} ORDER BY id LIMIT ?",
            (MatchStatus.ACTIVE, now, now, after, *shards, limit),
        )
        return [_decode(row) for row in rows]

    # -- draw offers ---------------------------------------------------------------------

    async def offer_draw(self, record: MatchRecord, seat: int, user_id: int, now: float) -> DrawOffer | None:
        """Record a draw offer at ``record``'s version; return the offer already pending instead, if any.

        An offer from an earlier version (a move was played since) has lapsed and is replaced.
        """
        async with self.database.transaction() as db:
            rows = list(
                await db.execute_fetchall(
                    "SELECT match_id, version, seat, user_id, created_at FROM draw_offers WHERE match_id = ?",
                    (record.id,),
                )
            )
            if rows and rows[0][1] == record.version:
                return DrawOffer(*rows[0])
            if not await _still_at(db, record):
                raise StaleMatch(_STALE)
            await db.execute(
                "INSERT INTO draw_offers (match_id, version, seat, user_id, created_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (match_id) DO UPDATE SET version = excluded.version, seat = excluded.seat, "
                "user_id = excluded.user_id, created_at = excluded.created_at",
                (record.id, record.version, seat, user_id, now),
            )
            return None

    async def draw_offer(self, match_id: int) -> DrawOffer | None:
        """Return the match's draw offer (it may have lapsed: compare its version with the match's)."""
        rows = await self.database.rows(
            "SELECT match_id, version, seat, user_id, created_at FROM draw_offers WHERE match_id = ?", (match_id,)
        )
        return DrawOffer(*rows[0]) if rows else None

    async def withdraw_draw(self, match_id: int, version: int) -> bool:
        """Remove the offer made at ``version``; return whether there was one."""
        async with self.database.transaction() as db:
            rows = await db.execute_fetchall(
                "DELETE FROM draw_offers WHERE match_id = ? AND version = ? RETURNING match_id", (match_id, version)
            )
            return bool(list(rows))

    # -- takebacks ---------------------------------------------------------------------

    async def ask_takeback(
        self, record: MatchRecord, seat: int, user_id: int, keep: int, now: float
    ) -> TakebackOffer | None:
        """Record a request to take moves back at ``record``'s version; return the request already pending at
        this version instead, if any (a request from an earlier version has lapsed and is replaced)."""
        async with self.database.transaction() as db:
            rows = list(await db.execute_fetchall(_TAKEBACK_SELECT, (record.id,)))
            if rows and rows[0][1] == record.version:
                return _takeback(rows[0])
            if not await _still_at(db, record):
                raise StaleMatch(_STALE)
            await db.execute(
                "INSERT INTO takeback_offers (match_id, version, seat, user_id, keep, accepted, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id) DO UPDATE SET version = excluded.version, "
                "seat = excluded.seat, user_id = excluded.user_id, keep = excluded.keep, "
                "accepted = excluded.accepted, created_at = excluded.created_at",
                (record.id, record.version, seat, user_id, keep, "[]", now),
            )
            return None

    async def takeback_offer(self, match_id: int) -> TakebackOffer | None:
        """Return the match's request to take moves back (it may have lapsed: compare its version)."""
        rows = await self.database.rows(_TAKEBACK_SELECT, (match_id,))
        return _takeback(rows[0]) if rows else None

    async def agree_takeback(self, match_id: int, version: int, seat: int) -> TakebackOffer | None:
        """Note that ``seat`` agreed to the request made at ``version``; return it as it stands (None: gone)."""
        async with self.database.transaction() as db:
            rows = list(await db.execute_fetchall(_TAKEBACK_SELECT, (match_id,)))
            if not rows or rows[0][1] != version:
                return None
            offer = _takeback(rows[0])
            accepted = tuple(sorted({*offer.accepted, seat}))
            await db.execute(
                "UPDATE takeback_offers SET accepted = ? WHERE match_id = ? AND version = ?",
                (json.dumps(list(accepted)), match_id, version),
            )
            return dataclasses.replace(offer, accepted=accepted)

    async def withdraw_takeback(self, match_id: int, version: int) -> bool:
        """Remove the request made at ``version``; return whether there was one."""
        async with self.database.transaction() as db:
            rows = await db.execute_fetchall(
                "DELETE FROM takeback_offers WHERE match_id = ? AND version = ? RETURNING match_id", (match_id, version)
            )
            return bool(list(rows))

    # -- a player's own settings ----------------------------------------------------------

    async def confirm_moves(self, user_id: int) -> bool:
        """Whether ``user_id`` sees a move picked by taps before it is played (yes, unless they turned it off)."""
        rows = await self.database.rows("SELECT confirm_moves FROM user_settings WHERE user_id = ?", (user_id,))
        return True if not rows or rows[0][0] is None else bool(rows[0][0])

    async def set_confirm_moves(self, user_id: int, enabled: bool) -> None:
        """Turn ``user_id``'s confirmation of moves picked by taps on or off."""
        await self.database.write(
            "INSERT INTO user_settings (user_id, confirm_moves, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET confirm_moves = excluded.confirm_moves, "
            "updated_at = excluded.updated_at",
            (user_id, int(enabled), self.clock()),
        )

    # -- rematches ---------------------------------------------------------------------

    async def rematch_of(self, match_id: int) -> MatchRecord | None:
        """The challenge or match that ``match_id``'s Rematch button started, if any."""
        rows = await self.database.rows(
            f"SELECT {', '.join('m.' + c.strip() for c in _COLUMNS.split(','))} FROM rematches AS r "
            "JOIN matches AS m ON m.id = r.rematch_id WHERE r.match_id = ?",
            (match_id,),
        )
        return _decode(rows[0]) if rows else None

    async def newest_challenge_by(self, channel_id: int, user_id: int, since: float) -> MatchRecord | None:
        """The newest challenge or match ``user_id`` started in ``channel_id`` at ``since`` or later."""
        rows = await self.database.rows(
            f"SELECT {_COLUMNS} FROM matches WHERE channel_id = ? AND status IN (?, ?) AND created_at >= ? "
            "ORDER BY id DESC",
            (channel_id, MatchStatus.CHALLENGE, MatchStatus.ACTIVE, since),
        )
        for row in rows:
            record = _decode(row)
            if record.seat_of(user_id) is not None:
                return record
        return None

    async def link_rematch(self, match_id: int, rematch_id: int, user_id: int) -> None:
        """Remember that ``rematch_id`` is the rematch of ``match_id`` (replacing a rematch that never began)."""
        await self.database.write(
            "INSERT INTO rematches (match_id, rematch_id, user_id, created_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (match_id) DO UPDATE SET rematch_id = excluded.rematch_id, user_id = excluded.user_id, "
            "created_at = excluded.created_at",
            (match_id, rematch_id, user_id, self.clock()),
        )


_TAKEBACK_SELECT = (
    "SELECT match_id, version, seat, user_id, keep, accepted, created_at FROM takeback_offers WHERE match_id = ?"
)


def _takeback(row: Sequence[Any]) -> TakebackOffer:
    return TakebackOffer(
        int(row[0]), int(row[1]), int(row[2]), int(row[3]), int(row[4]), tuple(json.loads(row[5])), float(row[6])
    )
