"""Matches, their append-only move log, and the outbox of announcements still to post.

Writes to a match are version-checked (``UPDATE … WHERE id = ? AND version = ?``),
so a write based on a stale read is refused instead of applied.  The transaction
that changes a match also records what must be announced about it (the
transactional outbox): a saved move can never be forgotten by the delivery step,
whatever Discord answers, because the announcement was committed with the move.
Only snowflake IDs and JSON are stored, never discord.py objects.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

from bot.shards import Shards
from bot.storage.database import N_, POSTGRESQL, ChannelBusy, Database, Handle, IntegrityError, StaleMatch, dump
from bot.storage.records import (
    OPEN_STATUSES,
    Announcement,
    Delivery,
    LogEntry,
    MatchRecord,
    MatchStatus,
    Notice,
    NoticeKind,
    Seat,
    ThreadMode,
    TurnKind,
)

# Called inside the transaction that finishes a match: (transaction handle, finished record, places, now).
FinishHook = Callable[[Handle, MatchRecord, Sequence[int], float], Awaitable[None]]

_COLUMNS = (
    "id, guild_id, channel_id, game, options, seed, players, invited, status, state, version, deadline, "
    "message_id, result, created_at, updated_at, finished_at, rated, thread_mode, thread_id, archive_at, "
    "moved, moved_version, followups, end_reason"
)
_OUTBOX_COLUMNS = (
    "id, match_id, channel_id, guild_id, kind, version, seq, mentions, board, detail, status, attempts, next_at, "
    "error, message_id, created_at"
)
_BUSY = N_("This channel already has a game or a pending challenge.")
# A new announcement is posted at once by the code that saved it; the sweeper leaves it alone this long
# (it may still be on its way), and a restart delivers every pending one regardless.
GRACE_SECONDS = 60.0


def _decode(row: Sequence[Any]) -> MatchRecord:
    return MatchRecord(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        game=row[3],
        options=json.loads(row[4]),
        seed=row[5],
        players=tuple(Seat(p["id"], p["name"]) for p in json.loads(row[6])),
        invited=tuple(json.loads(row[7])),
        status=MatchStatus(row[8]),
        state=None if row[9] is None else json.loads(row[9]),
        version=row[10],
        deadline=row[11],
        message_id=row[12],
        result=None if row[13] is None else json.loads(row[13]),
        created_at=row[14],
        updated_at=row[15],
        finished_at=row[16],
        rated=bool(row[17]),
        thread_mode=row[18],
        thread_id=row[19],
        archive_at=row[20],
        moved=row[21],
        moved_version=row[22],
        followups=bool(row[23]),
        end_reason=row[24],
    )


def _decode_announcement(row: Sequence[Any]) -> Announcement:
    return Announcement(
        id=row[0],
        match_id=row[1],
        channel_id=row[2],
        guild_id=row[3],
        kind=NoticeKind(row[4]),
        version=row[5],
        seq=row[6],
        mentions=tuple(json.loads(row[7])),
        board=bool(row[8]),
        detail=json.loads(row[9]),
        status=Delivery(row[10]),
        attempts=row[11],
        next_at=row[12],
        error=row[13],
        message_id=row[14],
        created_at=row[15],
    )


def _players_json(players: Iterable[Seat]) -> str:
    return dump([{"id": seat.user_id, "name": seat.name} for seat in players])


_ENCODERS: dict[str, Callable[[Any], Any]] = {
    "players": _players_json,
    "invited": lambda v: dump(list(v)),
    "status": str,
    "state": lambda v: None if v is None else dump(v),
    "deadline": lambda v: v,
    "message_id": lambda v: v,
    "result": lambda v: None if v is None else dump(v),
    "finished_at": lambda v: v,
    "rated": int,
    "thread_mode": lambda v: None if v is None else str(v),
    "thread_id": lambda v: v,
    "archive_at": lambda v: v,
    "end_reason": lambda v: v,
}


class Matches:
    """Matches, the move log and the outbox, on a shared :class:`~bot.storage.database.Database`."""

    def __init__(self, database: Database, on_finish: FinishHook | None = None, shards: Shards | None = None) -> None:
        self.database = database
        self._on_finish = on_finish
        # The background queries (expiries, computer turns, the outbox) see only the servers on these
        # shards; ``None``: every server (one process runs them all).
        self.shards = shards
        # Told the time of anything a write makes due (a challenge's expiry, a turn's reminder and ending, a
        # retry, a thread to archive), so the sweeper can wake for it; called before the commit (waking
        # early for a write that was rolled back costs one query).
        self.on_due: Callable[[float], None] | None = None
        # The longest turn (deadline - updated_at) a running match may have: an upper bound that lets the
        # reminder queries search the deadline index instead of every running match.  None: not read yet.
        self.longest_turn: float | None = None

    def _due(self, *times: float | None) -> None:
        if self.on_due is not None:
            known = [t for t in times if t is not None]
            if known:
                self.on_due(min(known))

    def _due_for(self, record: MatchRecord) -> None:
        """Tell :attr:`on_due` when ``record`` next needs the sweeper (see :meth:`MatchExtras.next_due`)."""
        deadline, began = record.deadline, record.updated_at
        if record.status == MatchStatus.CHALLENGE:
            self._due(deadline, record.archive_at)
        elif record.status == MatchStatus.ACTIVE and deadline is not None:
            if self.longest_turn is not None:
                self.longest_turn = max(self.longest_turn, deadline - began)
            self._due((3 * deadline + began) / 4, 2 * deadline - began, record.archive_at)
        else:
            self._due(record.archive_at)

    def _on_my_shards(self) -> tuple[str, tuple[int, ...]]:
        """An ``AND …`` condition on ``guild_id`` keeping this process's shards, and its parameters."""
        if self.shards is None:
            return "", ()
        marks = ", ".join("?" for _ in self.shards.ids)
        return f" AND (guild_id >> 22) % ? IN ({marks})", (self.shards.count, *self.shards.ids)

    async def turn_bound(self) -> float:
        """An upper bound of every running match's turn time (read once, then kept up to date by the writes)."""
        if self.longest_turn is None:
            rows = await self.database.rows(
                "SELECT MAX(deadline - updated_at) FROM matches WHERE status = ? AND deadline IS NOT NULL",
                (MatchStatus.ACTIVE,),
            )
            found = float(rows[0][0]) if rows and rows[0][0] is not None else 0.0
            if self.longest_turn is None:  # a write meanwhile may have set it
                self.longest_turn = found
            else:
                self.longest_turn = max(self.longest_turn, found)
        return self.longest_turn

    async def _fetch_one(self, sql: str, params: Sequence[Any] = ()) -> MatchRecord | None:
        rows = await self.database.rows(sql, params)
        return _decode(rows[0]) if rows else None

    async def _fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[MatchRecord]:
        return [_decode(row) for row in await self.database.rows(sql, params)]

    # -- reading ----------------------------------------------------------------

    async def get(self, match_id: int) -> MatchRecord | None:
        """Return the match with this ID, whatever its status."""
        if not 0 < match_id < 2**63:  # SQLite integers are 64-bit; anything else is no match at all
            return None
        return await self._fetch_one(f"SELECT {_COLUMNS} FROM matches WHERE id = ?", (match_id,))

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

    # -- writing ----------------------------------------------------------------

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
                return record
        except IntegrityError:
            raise ChannelBusy(_BUSY) from None

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
        if self.database.dialect == POSTGRESQL and record.status == MatchStatus.ACTIVE and not finishing and announce:
            return await self._append_at_once(record, kind, seat, user_id, text, now, announce, changes)
        async with self.database.transaction() as db:
            updated = await self._update(db, record, {**changes, "now": now})
            if updated.status == MatchStatus.FINISHED and record.status != MatchStatus.FINISHED:
                await self._record_finish(db, updated, now)
            rows = await db.execute_fetchall(
                "INSERT INTO moves (match_id, seq, kind, seat, user_id, text, created_at) "
                "SELECT ?1, COALESCE(MAX(seq), 0) + 1, ?2, ?3, ?4, ?5, ?6 FROM moves WHERE match_id = ?1 RETURNING seq",
                (record.id, str(kind), seat, user_id, text, now),
            )
            seq = int(next(iter(rows))[0])
            announced = await self._announce(db, updated, seq, announce, now)
            return updated, announced

    async def _append_at_once(
        self,
        record: MatchRecord,
        kind: TurnKind,
        seat: int,
        user_id: int,
        text: str,
        now: float,
        announce: Sequence[Notice],
        changes: dict[str, Any],
    ) -> tuple[MatchRecord, list[Announcement]]:
        """:meth:`append` on PostgreSQL as one statement, so one round trip: its own transaction.

        The version-checked ``UPDATE`` feeds the log's ``INSERT``, which feeds the outbox's: when the
        version changed, the update returns no row, so nothing is logged or announced (:class:`StaleMatch`).
        Only for a running match that goes on (a finish also rates the players, in :meth:`append`).
        """
        unknown = set(changes) - set(_ENCODERS)
        if unknown:
            raise ValueError(f"cannot change {sorted(unknown)}")
        params: list[Any] = []

        def mark(value: Any, cast: str = "") -> str:
            params.append(value)
            return f"?{len(params)}{cast}"

        assignments = "".join(f"{name} = {mark(_ENCODERS[name](value))}, " for name, value in changes.items())
        update = (
            f"UPDATE matches SET {assignments}version = version + 1, updated_at = {mark(now)} "
            f"WHERE id = {mark(record.id)} AND version = {mark(record.version)} RETURNING {_COLUMNS}"
        )
        logged = (
            "INSERT INTO moves (match_id, seq, kind, seat, user_id, text, created_at) "
            "SELECT u.id, (SELECT COALESCE(MAX(seq), 0) + 1 FROM moves WHERE match_id = u.id), "
            f"{mark(str(kind))}, {mark(seat)}, {mark(user_id)}, {mark(text)}, {mark(now)} FROM u RETURNING seq"
        )
        notices = ", ".join(
            f"({mark(str(n.kind), '::text')}, {mark(dump(list(n.mentions)), '::text')}, "
            f"{mark(int(n.board), '::bigint')}, {mark(dump(n.detail), '::text')}, {i})"
            for i, n in enumerate(announce)
        )
        outbox = (
            "INSERT INTO outbox (match_id, channel_id, guild_id, kind, version, seq, mentions, board, detail, "
            "status, attempts, next_at, created_at) "
            f"SELECT u.id, u.channel_id, u.guild_id, n.kind, u.version, m.seq, n.mentions, n.board, n.detail, "
            f"{mark(str(Delivery.PENDING), '::text')}, 0, {mark(now + GRACE_SECONDS)}, {mark(now)} "
            f"FROM u, m, (VALUES {notices}) AS n (kind, mentions, board, detail, ord) ORDER BY n.ord "
            f"RETURNING {_OUTBOX_COLUMNS}"
        )
        match_columns = ", ".join("u." + c.strip() for c in _COLUMNS.split(","))
        outbox_columns = ", ".join("o." + c.strip() for c in _OUTBOX_COLUMNS.split(","))
        sql = (
            f"WITH u AS ({update}), m AS ({logged}), o AS ({outbox}) "
            f"SELECT {match_columns}, {outbox_columns} FROM u JOIN o ON TRUE ORDER BY o.id"
        )
        try:  # one statement outside BEGIN … COMMIT is a transaction of its own: all of it, or none
            rows = await self.database.rows(sql, params)
        except IntegrityError:
            raise ChannelBusy(_BUSY) from None
        if not rows:
            raise StaleMatch(N_("The game changed while your command was on its way; look at the board and try again."))
        width = len(_COLUMNS.split(","))
        updated = _decode(rows[0][:width])
        self._due_for(updated)
        self._due(now + GRACE_SECONDS)
        return updated, [_decode_announcement(row[width:]) for row in rows]

    async def announce_in(
        self, db: Handle, record: MatchRecord, notices: Sequence[Notice], now: float
    ) -> list[Announcement]:
        """Record ``notices`` about ``record`` in the outbox, inside a transaction another store holds."""
        return await self._announce(db, record, await self._last_seq(db, record.id), notices, now)

    async def _last_seq(self, db: Handle, match_id: int) -> int:
        rows = await db.execute_fetchall("SELECT COALESCE(MAX(seq), 0) FROM moves WHERE match_id = ?", (match_id,))
        return int(next(iter(rows))[0])

    async def _announce(
        self, db: Handle, record: MatchRecord, seq: int, notices: Sequence[Notice], now: float
    ) -> list[Announcement]:
        made = []
        for notice in notices:
            rows = await db.execute_fetchall(
                "INSERT INTO outbox (match_id, channel_id, guild_id, kind, version, seq, mentions, board, detail, "
                f"status, attempts, next_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?) "
                f"RETURNING {_OUTBOX_COLUMNS}",
                (
                    record.id,
                    record.channel_id,
                    record.guild_id,
                    str(notice.kind),
                    record.version,
                    seq,
                    dump(list(notice.mentions)),
                    int(notice.board),
                    dump(notice.detail),
                    Delivery.PENDING,
                    now + GRACE_SECONDS,
                    now,
                ),
            )
            made.append(_decode_announcement(next(iter(rows))))
        self._due(now + GRACE_SECONDS if made else None)
        return made

    async def _update(self, db: Handle, record: MatchRecord, changes: dict[str, Any]) -> MatchRecord:
        changes = dict(changes)
        now = changes.pop("now", record.updated_at)
        unknown = set(changes) - set(_ENCODERS)
        if unknown:
            raise ValueError(f"cannot change {sorted(unknown)}")
        assignments = ", ".join(f"{name} = ?" for name in changes)
        values = [_ENCODERS[name](value) for name, value in changes.items()]
        sql = f"UPDATE matches SET {assignments}{', ' if assignments else ''}version = version + 1, updated_at = ? "
        sql += f"WHERE id = ? AND version = ? RETURNING {_COLUMNS}"
        try:
            rows = list(await db.execute_fetchall(sql, (*values, now, record.id, record.version)))
        except IntegrityError:
            raise ChannelBusy(_BUSY) from None
        if not rows:
            raise StaleMatch(N_("The game changed while your command was on its way; look at the board and try again."))
        updated = _decode(rows[0])
        self._due_for(updated)
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

    # -- the outbox ---------------------------------------------------------------

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

    # -- matches in threads ----------------------------------------------------------

    async def open_matches_at(self, place_id: int) -> list[MatchRecord]:
        """Return the open matches played in this channel or thread (or challenged there, no thread yet)."""
        return await self._fetch_all(
            f"SELECT {_COLUMNS} FROM matches WHERE status IN (?, ?) "
            "AND (thread_id = ? OR (thread_id IS NULL AND channel_id = ?)) ORDER BY id",
            (*OPEN_STATUSES, place_id, place_id),
        )

    async def running_matches_of(self, guild_id: int, user_id: int, game: str | None = None) -> list[MatchRecord]:
        """Return a player's running matches in a server (of ``game``, if given), oldest first."""
        columns = ", ".join("m." + c.strip() for c in _COLUMNS.split(","))
        sql = (
            f"SELECT {columns} FROM match_players AS p JOIN matches AS m ON m.id = p.match_id "
            "WHERE p.user_id = ? AND m.guild_id = ? AND m.status = ?"
        )
        params: list[Any] = [user_id, guild_id, MatchStatus.ACTIVE]
        if game is not None:
            sql += " AND m.game = ?"
            params.append(game)
        return await self._fetch_all(sql + " ORDER BY m.id", params)

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
            return (await self.announce_in(db, record, [notice], now))[0]

    async def matches_in(self, channel_id: int) -> list[MatchRecord]:
        """Return the running matches played in this channel or thread, or in a thread of this channel."""
        return await self._fetch_all(
            f"SELECT {_COLUMNS} FROM matches WHERE status = ? AND (thread_id = ? OR channel_id = ?) ORDER BY id",
            (MatchStatus.ACTIVE, channel_id, channel_id),
        )

    async def running_in_guild(self, guild_id: int, limit: int = 25) -> list[MatchRecord]:
        """Return a server's running matches, newest first (for ``/tabula end``)."""
        return await self._fetch_all(
            f"SELECT {_COLUMNS} FROM matches WHERE guild_id = ? AND status = ? ORDER BY id DESC LIMIT ?",
            (guild_id, MatchStatus.ACTIVE, limit),
        )

    async def threads_to_archive(self, now: float) -> list[MatchRecord]:
        """Return finished matches (on this process's shards) whose thread is due to be archived."""
        mine, shards = self._on_my_shards()
        return await self._fetch_all(
            f"SELECT {_COLUMNS} FROM matches WHERE archive_at IS NOT NULL AND archive_at <= ?{mine} "
            "ORDER BY archive_at",
            (now, *shards),
        )

    async def archived(self, match_id: int, retry_at: float | None = None) -> None:
        """Note that a match's thread was archived (``retry_at``: not yet, try again then)."""
        await self.database.write("UPDATE matches SET archive_at = ? WHERE id = ?", (retry_at, match_id))
        self._due(retry_at)

    async def operating_counts(self) -> dict[str, dict[str, int]]:
        """Open matches by status and outbox announcements by status, on this process's shards (for the metrics)."""
        mine, shards = self._on_my_shards()
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
