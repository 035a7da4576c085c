"""Matches, their append-only move log, and the outbox of announcements still to post.

Writes to a match are version-checked (``UPDATE … WHERE id = ? AND version = ?``),
so a write based on a stale read is refused instead of applied.  The transaction
that changes a match also records what must be announced about it (the
transactional outbox): a saved move can never be forgotten by the delivery step,
whatever Discord answers, because the announcement was committed with the move.
Only snowflake IDs and JSON are stored, never discord.py objects.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.storage.database import POSTGRESQL, ChannelBusy, Handle, IntegrityError, StaleMatch, dump
from bot.storage.match_base import (
    _BUSY,
    _COLUMNS,
    _OUTBOX_COLUMNS,
    _STALE,
    GRACE_SECONDS,
    FinishHook,
    MatchesBase,
    _decode,
    _decode_announcement,
    _notice_values,
    _outbox_values,
    _players_json,
    _update_sql,
)
from bot.storage.move_write import MoveWrite
from bot.storage.outbox_store import Outbox
from bot.storage.places_store import Places
from bot.storage.records import (
    OPEN_STATUSES,
    Announcement,
    LogEntry,
    MatchRecord,
    MatchStatus,
    Notice,
    Seat,
    TurnKind,
)


class Matches(Outbox, Places):
    """Matches, the move log and the outbox, on a shared :class:`~bot.storage.database.Database`.

    Built in parts: :class:`~bot.storage.match_base.MatchesBase`, :class:`~bot.storage.outbox_store.Outbox`
    and :class:`~bot.storage.places_store.Places`; here, creating matches and writing their moves.
    """

    async def open_match(self, channel_id: int) -> MatchRecord | None:
        """Return the channel's pending challenge or running match, if any."""
        return await self._fetch_one(
            f"SELECT {_COLUMNS} FROM matches WHERE channel_id = ? AND status IN (?, ?)",
            (channel_id, *OPEN_STATUSES),
        )

    async def active_matches_seating(self, low: int, high: int) -> list[MatchRecord]:
        """Return running matches (on this process's shards) with a seat whose user ID lies in ``low..high``."""
        if self.database.dialect == POSTGRESQL:
            seated = "SELECT 1 FROM jsonb_array_elements(players::jsonb) AS seat WHERE (seat ->> 'id')::BIGINT"
        else:
            seated = "SELECT 1 FROM json_each(players) WHERE json_extract(value, '$.id')"
        mine, shards = self._on_my_shards()
        return await self._fetch_all(
            f"SELECT {_COLUMNS} FROM matches WHERE status = ? AND EXISTS ({seated} BETWEEN ? AND ?){mine} ORDER BY id",
            (MatchStatus.ACTIVE, low, high, *shards),
        )

    async def expired_challenges(self, now: float) -> list[MatchRecord]:
        """Return pending challenges (on this process's shards) whose expiry has passed."""
        mine, shards = self._on_my_shards()
        return await self._fetch_all(
            f"SELECT {_COLUMNS} FROM matches WHERE status = ? AND deadline <= ?{mine} ORDER BY id",
            (MatchStatus.CHALLENGE, now, *shards),
        )

    async def running_after(self, after: int, limit: int) -> list[MatchRecord]:
        """Return up to ``limit`` running matches whose ID is above ``after``, in ID order (a page of them all)."""
        return await self._fetch_all(
            f"SELECT {_COLUMNS} FROM matches WHERE status = ? AND id > ? ORDER BY id LIMIT ?",
            (MatchStatus.ACTIVE, after, limit),
        )

    async def log(self, match_id: int, upto: int | None = None) -> list[LogEntry]:
        """Return the match's move log in order (its first ``upto`` entries, if given)."""
        rows = await self.database.rows(
            "SELECT seq, kind, seat, user_id, text, created_at FROM moves WHERE match_id = ? AND seq <= ? ORDER BY seq",
            (match_id, 2**62 if upto is None else upto),
        )
        return [LogEntry(seq, TurnKind(kind), seat, user_id, text, at) for seq, kind, seat, user_id, text, at in rows]

    async def finished_matches(
        self, guild_id: int, *, channel_id: int | None = None, user_id: int | None = None, limit: int = 10
    ) -> list[MatchRecord]:
        """Return recent finished matches of a server, in one channel or of one player, newest first."""
        if user_id is not None:
            sql = (
                f"SELECT {', '.join('m.' + c.strip() for c in _COLUMNS.split(','))} FROM match_players AS p "
                "JOIN matches AS m ON m.id = p.match_id WHERE p.user_id = ? AND m.guild_id = ? "
                "AND m.status = ? ORDER BY m.finished_at DESC, m.id DESC LIMIT ?"
            )
            return await self._fetch_all(sql, (user_id, guild_id, MatchStatus.FINISHED, limit))
        return await self._fetch_all(
            f"SELECT {_COLUMNS} FROM matches WHERE guild_id = ? AND (channel_id = ? OR thread_id = ?) AND status = ? "
            "ORDER BY finished_at DESC, id DESC LIMIT ?",
            (guild_id, channel_id, channel_id, MatchStatus.FINISHED, limit),
        )

    async def create_challenge(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        options: dict[str, Any],
        seed: int,
        players: Sequence[Seat],
        invited: Sequence[int],
        expires_at: float,
        now: float,
        rated: bool = True,
        thread_mode: str | None = None,
    ) -> MatchRecord:
        """Insert a pending challenge; raise :class:`ChannelBusy` if the channel has an open match.

        With ``thread_mode`` ``"thread"`` the match will be played in a thread of its own, so the channel
        may hold any number of such challenges and matches.
        """
        try:
            async with self.database.transaction() as db:
                rows = await db.execute_fetchall(
                    "INSERT INTO matches (guild_id, channel_id, game, options, seed, players, invited, status, "
                    "deadline, created_at, updated_at, rated, thread_mode) "
                    f"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    f"RETURNING {_COLUMNS}",
                    (
                        guild_id,
                        channel_id,
                        game,
                        dump(options),
                        seed,
                        _players_json(players),
                        dump(list(invited)),
                        MatchStatus.CHALLENGE,
                        expires_at,
                        now,
                        now,
                        int(rated),
                        thread_mode,
                    ),
                )
                record = _decode(next(iter(rows)))
                self._due_for(record)
        except IntegrityError:
            raise ChannelBusy(_BUSY) from None
        # Committed: an event's games are opened by the event, never challenged (see MatchesBase.known_ordinary).
        self._note_ordinary(record.id)
        return record

    async def update(self, record: MatchRecord, **changes: Any) -> MatchRecord:
        """Apply ``changes`` to the match if it is still at ``record.version``; return the new record.

        Allowed changes: ``players``, ``invited``, ``status``, ``state``, ``deadline``,
        ``message_id``, ``result``, ``finished_at``, ``rated``, and ``now`` (the update time).
        """
        return (await self.update_announcing(record, (), **changes))[0]

    async def update_announcing(
        self, record: MatchRecord, announce: Sequence[Notice], **changes: Any
    ) -> tuple[MatchRecord, list[Announcement]]:
        """Like :meth:`update`, also recording ``announce`` in the outbox in the same transaction."""
        async with self.database.transaction() as db:
            updated = await self._update(db, record, changes)
            announced = []
            if announce:
                seq = await self._last_seq(db, record.id)
                announced = await self._announce(db, updated, seq, announce, updated.updated_at)
            return updated, announced

    async def append(
        self,
        record: MatchRecord,
        *,
        kind: TurnKind,
        seat: int,
        user_id: int,
        text: str,
        now: float,
        announce: Sequence[Notice] = (),
        **changes: Any,
    ) -> tuple[MatchRecord, list[Announcement]]:
        """Log one move or forfeit, apply ``changes`` and record ``announce``, in one version-checked transaction.

        When the change finishes the match, the players' places are recorded and the finish hook
        (ratings) runs inside the same transaction.
        """
        finishing = changes.get("status") == MatchStatus.FINISHED
        update, values = _update_sql(changes, now, record)
        write = MoveWrite(
            update,
            values,
            record.id,
            {"kind": str(kind), "seat": seat, "user_id": user_id, "text": text, "created_at": now},
            [_notice_values(notice) for notice in announce],
            _outbox_values(now),
        )
        if record.status == MatchStatus.ACTIVE and not finishing:
            if self.database.dialect == POSTGRESQL and announce:
                return await self._append_at_once(write)
            return await self._append_batched(write)
        async with self.database.transaction() as db:
            updated = await self._update(db, record, {**changes, "now": now})
            if updated.status == MatchStatus.FINISHED and record.status != MatchStatus.FINISHED:
                await self._record_finish(db, updated, now)
            found = [await db.execute_fetchall(step.sql, step.params) for step in write.after_update()]
            announced = [_decode_announcement(rows[0]) for rows in found[1:]]
            self._due(now + GRACE_SECONDS if announced else None)
            return updated, announced

    async def _append_batched(self, write: MoveWrite) -> tuple[MatchRecord, list[Announcement]]:
        """:meth:`append` for a running match that goes on, as one :meth:`~Database.batch` (SQLite: one hand-off).

        Every statement is known beforehand: the log row and the announcements take the match's new version,
        place and the move's number from the rows the earlier statements wrote.  The version-checked ``UPDATE``
        is a required step: when the version changed nothing is written (:class:`StaleMatch`).
        """
        try:
            found = await self.database.batch(write.steps())
        except IntegrityError:
            raise ChannelBusy(_BUSY) from None
        if found is None:
            raise StaleMatch(_STALE)
        updated = _decode(found[0][0])
        self._due_for(updated)
        announced = [_decode_announcement(rows[0]) for rows in found[2:]]
        self._due(write.outbox["next_at"] if announced else None)
        return updated, announced

    async def _append_at_once(self, write: MoveWrite) -> tuple[MatchRecord, list[Announcement]]:
        """:meth:`append` on PostgreSQL as one statement, so one round trip: its own transaction.

        The version-checked ``UPDATE`` feeds the log's ``INSERT``, which feeds the outbox's: when the
        version changed, the update returns no row, so nothing is logged or announced (:class:`StaleMatch`).
        Only for a running match that goes on (a finish also rates the players, in :meth:`append`).
        """
        sql, params = write.one_statement(_COLUMNS)
        try:  # one statement outside BEGIN … COMMIT is a transaction of its own: all of it, or none
            rows = await self.database.rows(sql, params)
        except IntegrityError:
            raise ChannelBusy(_BUSY) from None
        if not rows:
            raise StaleMatch(_STALE)
        width = len(_COLUMNS.split(","))
        updated = _decode(rows[0][:width])
        self._due_for(updated)
        self._due(write.outbox["next_at"])
        return updated, [_decode_announcement(row[width:]) for row in rows]

    async def _record_finish(self, db: Handle, record: MatchRecord, now: float) -> None:
        places = list((record.result or {}).get("places") or [])
        if len(places) != len(record.players):
            return
        await db.executemany(
            "UPDATE match_players SET place = ? WHERE match_id = ? AND seat = ?",
            [(place, record.id, seat) for seat, place in enumerate(places)],
        )
        if self._on_finish is not None:
            await self._on_finish(db, record, places, now)


__all__ = [
    "GRACE_SECONDS",
    "_COLUMNS",
    "_OUTBOX_COLUMNS",
    "FinishHook",
    "Matches",
    "MatchesBase",
    "_decode",
    "_decode_announcement",
]
