"""Matches, their append-only move log, and the outbox of announcements still to post.

The store is composed of parts by concern, each handed what it uses when it is built: the
:class:`~bot.storage.match_base.Schedule` (shards served, what is due), the
:class:`~bot.storage.match_base.MatchReader`, the :class:`~bot.storage.outbox_store.Outbox`, the
:class:`~bot.storage.places_store.Places` and, here, :class:`MatchRecords` (creating matches and writing
their moves).  :class:`Matches` builds them once and is their compatibility surface.

Writes to a match are version-checked (``UPDATE … WHERE id = ? AND version = ?``),
so a write based on a stale read is refused instead of applied.  The transaction
that changes a match also records what must be announced about it (the
transactional outbox): a saved move can never be forgotten by the delivery step,
whatever Discord answers, because the announcement was committed with the move.
Only snowflake IDs and JSON are stored, never discord.py objects.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.storage.database import POSTGRESQL, ChannelBusy, Database, Handle, IntegrityError, StaleMatch, dump
from bot.storage.match_base import (
    _BUSY,
    _COLUMNS,
    _OUTBOX_COLUMNS,
    _STALE,
    GRACE_SECONDS,
    FinishHook,
    MatchReader,
    Schedule,
    ShardSet,
    _decode,
    _decode_announcement,
    _notice_values,
    _outbox_values,
    _players_json,
    _update_sql,
    last_seq,
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


class MatchRecords:
    """Creating matches, finding them by channel, status and time, their move log, and writing their moves.

    ``on_finish`` runs inside the transaction that finishes a match (ratings, an event's result).
    """

    def __init__(
        self,
        database: Database,
        schedule: Schedule,
        reader: MatchReader,
        outbox: Outbox,
        on_finish: FinishHook | None = None,
    ) -> None:
        self.database = database
        self.schedule = schedule
        self.reader = reader
        self.outbox = outbox
        self._on_finish = on_finish

    async def open_match(self, channel_id: int) -> MatchRecord | None:
        """Return the channel's pending challenge or running match, if any."""
        return await self.reader.fetch_one(
            f"SELECT {_COLUMNS} FROM matches WHERE channel_id = ? AND status IN (?, ?)",
            (channel_id, *OPEN_STATUSES),
        )

    async def active_matches_seating(self, low: int, high: int) -> list[MatchRecord]:
        """Return running matches (on this process's shards) with a seat whose user ID lies in ``low..high``."""
        if self.database.dialect == POSTGRESQL:
            seated = "SELECT 1 FROM jsonb_array_elements(players::jsonb) AS seat WHERE (seat ->> 'id')::BIGINT"
        else:
            seated = "SELECT 1 FROM json_each(players) WHERE json_extract(value, '$.id')"
        mine, shards = self.schedule.on_my_shards()
        return await self.reader.fetch_all(
            f"SELECT {_COLUMNS} FROM matches WHERE status = ? AND EXISTS ({seated} BETWEEN ? AND ?){mine} ORDER BY id",
            (MatchStatus.ACTIVE, low, high, *shards),
        )

    async def expired_challenges(self, now: float) -> list[MatchRecord]:
        """Return pending challenges (on this process's shards) whose expiry has passed."""
        mine, shards = self.schedule.on_my_shards()
        return await self.reader.fetch_all(
            f"SELECT {_COLUMNS} FROM matches WHERE status = ? AND deadline <= ?{mine} ORDER BY id",
            (MatchStatus.CHALLENGE, now, *shards),
        )

    async def running_after(self, after: int, limit: int) -> list[MatchRecord]:
        """Return up to ``limit`` running matches whose ID is above ``after``, in ID order (a page of them all)."""
        return await self.reader.fetch_all(
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
            return await self.reader.fetch_all(sql, (user_id, guild_id, MatchStatus.FINISHED, limit))
        return await self.reader.fetch_all(
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
                self.schedule.due_for(record)
        except IntegrityError:
            raise ChannelBusy(_BUSY) from None
        # Committed: an event's games are opened by the event, never challenged (see MatchReader.known_ordinary).
        self.reader.note_ordinary(record.id)
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
                seq = await last_seq(db, record.id)
                announced = await self.outbox.announce(db, updated, seq, announce, updated.updated_at)
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
            self.schedule.due(now + GRACE_SECONDS if announced else None)
            return updated, announced

    async def take_back(
        self, record: MatchRecord, keep: int, *, now: float, announce: Sequence[Notice] = (), **changes: Any
    ) -> tuple[MatchRecord, list[Announcement]]:
        """Take the match back to its first ``keep`` log entries: apply ``changes`` (the state then, its
        deadline), remove the later entries, drop their announcements still waiting (nobody saw those boards)
        and record ``announce``, in one version-checked transaction.  The log stays the game as played.
        """
        async with self.database.transaction() as db:
            updated = await self._update(db, record, {**changes, "now": now})
            await db.execute("DELETE FROM moves WHERE match_id = ? AND seq > ?", (record.id, keep))
            await db.execute(
                "UPDATE outbox SET status = 'delivered', delivered_at = ? "
                "WHERE match_id = ? AND status = 'pending' AND seq > ?",
                (now, record.id, keep),
            )
            announced = await self.outbox.announce(db, updated, keep, announce, now) if announce else []
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
        self.schedule.due_for(updated)
        announced = [_decode_announcement(rows[0]) for rows in found[2:]]
        self.schedule.due(write.outbox["next_at"] if announced else None)
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
        self.schedule.due_for(updated)
        self.schedule.due(write.outbox["next_at"])
        return updated, [_decode_announcement(row[width:]) for row in rows]

    async def _update(self, db: Handle, record: MatchRecord, changes: dict[str, Any]) -> MatchRecord:
        changes = dict(changes)
        now = changes.pop("now", record.updated_at)
        sql, params = _update_sql(changes, now, record)
        try:
            rows = list(await db.execute_fetchall(sql, params))
        except IntegrityError:
            raise ChannelBusy(_BUSY) from None
        if not rows:
            raise StaleMatch(_STALE)
        updated = _decode(rows[0])
        self.schedule.due_for(updated)
        if record.status == MatchStatus.CHALLENGE and updated.status == MatchStatus.ACTIVE:
            await db.executemany(
                "INSERT INTO match_players (match_id, seat, user_id) VALUES (?, ?, ?)",
                [(updated.id, seat, player.user_id) for seat, player in enumerate(updated.players)],
            )
        return updated

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


class Matches:
    """Matches, the move log and the outbox, on a shared :class:`~bot.storage.database.Database`.

    Built once, in parts that each get what they use: :attr:`schedule`, :attr:`reader`, :attr:`outbox`,
    :attr:`places` and :attr:`records`.  New code may call a part directly (``matches.outbox.mark_delivered``).

    The compatibility surface: every method callers used before the store had parts stays a method of
    :class:`Matches` under its name, each the very method of the part that owns it (nothing is wrapped), and
    :attr:`shards`, :attr:`on_due` and :attr:`longest_turn` read and set the schedule's.
    """

    def __init__(self, database: Database, on_finish: FinishHook | None = None, shards: ShardSet | None = None) -> None:
        self.database = database
        self.schedule = Schedule(shards)
        self.reader = MatchReader(database, self.schedule)
        self.outbox = Outbox(database, self.schedule)
        self.places = Places(database, self.schedule, self.reader, self.outbox)
        self.records = MatchRecords(database, self.schedule, self.reader, self.outbox, on_finish)

        reader, outbox, places, records = self.reader, self.outbox, self.places, self.records
        self.get = reader.get
        self.known_ordinary = reader.known_ordinary
        self.turn_bound = reader.turn_bound

        self.announce_in = outbox.announce_in
        self.announcement = outbox.announcement
        self.pending_announcements = outbox.pending_announcements
        self.failed_announcements = outbox.failed_announcements
        self.mark_delivered = outbox.mark_delivered
        self.mark_failed = outbox.mark_failed
        self.reschedule = outbox.reschedule
        self.settle_failed = outbox.settle_failed

        self.open_matches_at = places.open_matches_at
        self.running_matches_of = places.running_matches_of
        self.set_thread = places.set_thread
        self.set_starter = places.set_starter
        self.play_in_channel = places.play_in_channel
        self.relocate = places.relocate
        self.matches_in = places.matches_in
        self.running_in_guild = places.running_in_guild
        self.threads_to_archive = places.threads_to_archive
        self.archived = places.archived
        self.operating_counts = places.operating_counts
        self.note_once = places.note_once

        self.open_match = records.open_match
        self.active_matches_seating = records.active_matches_seating
        self.expired_challenges = records.expired_challenges
        self.running_after = records.running_after
        self.log = records.log
        self.finished_matches = records.finished_matches
        self.create_challenge = records.create_challenge
        self.update = records.update
        self.update_announcing = records.update_announcing
        self.append = records.append
        self.take_back = records.take_back

    @property
    def shards(self) -> ShardSet | None:
        """The shards whose servers this process's background queries see (``None``: every server)."""
        return self.schedule.shards

    @shards.setter
    def shards(self, shards: ShardSet | None) -> None:
        self.schedule.shards = shards

    @property
    def on_due(self) -> Callable[[float], None] | None:
        """Told the time of anything a write makes due (:attr:`Schedule.on_due`)."""
        return self.schedule.on_due

    @on_due.setter
    def on_due(self, on_due: Callable[[float], None] | None) -> None:
        self.schedule.on_due = on_due

    @property
    def longest_turn(self) -> float | None:
        """The longest turn a running match may have, once read (:attr:`Schedule.longest_turn`)."""
        return self.schedule.longest_turn


__all__ = [
    "GRACE_SECONDS",
    "_COLUMNS",
    "_OUTBOX_COLUMNS",
    "FinishHook",
    "MatchRecords",
    "Matches",
    "_decode",
    "_decode_announcement",
]
