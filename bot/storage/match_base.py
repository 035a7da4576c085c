"""What the matches store's parts share: the columns, decoding a row, when work is due, and reading matches."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, Protocol

from bot.storage.database import N_, Database, Handle, dump
from bot.storage.move_write import OUTBOX_COLUMNS
from bot.storage.records import (
    Announcement,
    Delivery,
    MatchRecord,
    MatchStatus,
    Notice,
    NoticeKind,
    Seat,
)


class ShardSet(Protocol):
    """The shards this process serves (``bot.shards.Shards`` is one): ``ids`` of ``count`` in all."""

    @property
    def ids(self) -> tuple[int, ...]: ...

    @property
    def count(self) -> int: ...


# Called inside the transaction that finishes a match: (transaction handle, finished record, places, now).
FinishHook = Callable[[Handle, MatchRecord, Sequence[int], float], Awaitable[None]]

_COLUMNS = (
    "id, guild_id, channel_id, game, options, seed, players, invited, status, state, version, deadline, "
    "message_id, result, created_at, updated_at, finished_at, rated, thread_mode, thread_id, archive_at, "
    "moved, moved_version, followups, end_reason"
)
# Read after the columns by the queries that find a command's match: whether the match is an event game.  A match
# is linked to its pairing in the transaction that creates it and never linked later, so a committed match read
# without a pairing is never an event game (:meth:`MatchReader.known_ordinary`).
_EVENT_FLAG = "EXISTS (SELECT 1 FROM tournament_pairings AS e WHERE e.match_id = {alias}id)"
_OUTBOX_COLUMNS = OUTBOX_COLUMNS
_BUSY = N_("This channel already has a game or a pending challenge.")
_STALE = N_("The game changed while your command was on its way; look at the board and try again.")
# A new announcement is posted at once by the code that saved it; the sweeper leaves it alone this long
# (it may still be on its way), and a restart delivers every pending one regardless.
GRACE_SECONDS = 60.0
# Match IDs kept as known to be no event game (8 bytes and a set slot each).
ORDINARY_KEPT = 20_000


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


def _update_sql(changes: dict[str, Any], now: float, record: MatchRecord) -> tuple[str, tuple[Any, ...]]:
    """The version-checked ``UPDATE … RETURNING`` that applies ``changes`` to ``record``, and its parameters.

    Its placeholders are numbered (``?1`` …), so that a longer statement may hold it and go on numbering
    (:meth:`bot.storage.move_write.MoveWrite.one_statement`).
    """
    unknown = set(changes) - set(_ENCODERS)
    if unknown:
        raise ValueError(f"cannot change {sorted(unknown)}")
    values = [_ENCODERS[name](value) for name, value in changes.items()]
    assignments = "".join(f"{name} = ?{i}, " for i, name in enumerate(changes, 1))
    n = len(values)
    sql = f"UPDATE matches SET {assignments}version = version + 1, updated_at = ?{n + 1} "
    sql += f"WHERE id = ?{n + 2} AND version = ?{n + 3} RETURNING {_COLUMNS}"
    return sql, (*values, now, record.id, record.version)


def _notice_values(notice: Notice) -> dict[str, Any]:
    """An announcement's own values in its outbox row (:data:`bot.storage.move_write.OUTBOX_ROW`)."""
    return {
        "kind": str(notice.kind),
        "mentions": dump(list(notice.mentions)),
        "board": int(notice.board),
        "detail": dump(notice.detail),
    }


def _outbox_values(now: float) -> dict[str, Any]:
    """What every outbox row written at ``now`` shares: pending, first tried after :data:`GRACE_SECONDS`."""
    return {"status": str(Delivery.PENDING), "next_at": now + GRACE_SECONDS, "created_at": now}


class Schedule:
    """What the background work of this process sees, and when it is next due.

    Shared by the match store's parts: which shards this process serves (the background queries see only
    theirs), who is told when a write makes something due, and the longest turn a running match may have.
    """

    def __init__(self, shards: ShardSet | None = None, on_due: Callable[[float], None] | None = None) -> None:
        # The background queries (expiries, computer turns, the outbox) see only the servers on these
        # shards; ``None``: every server (one process runs them all).
        self.shards = shards
        # Told the time of anything a write makes due (a challenge's expiry, a turn's reminder and ending, a
        # retry, a thread to archive), so the sweeper can wake for it; called before the commit (waking
        # early for a write that was rolled back costs one query).
        self.on_due = on_due
        # The longest turn (deadline - updated_at) a running match may have: an upper bound that lets the
        # reminder queries search the deadline index instead of every running match.  None: not read yet.
        self.longest_turn: float | None = None

    def due(self, *times: float | None) -> None:
        """Tell :attr:`on_due` the earliest of ``times`` (``None``: nothing due)."""
        if self.on_due is not None:
            known = [t for t in times if t is not None]
            if known:
                self.on_due(min(known))

    def due_for(self, record: MatchRecord) -> None:
        """Tell :attr:`on_due` when ``record`` next needs the sweeper (see :meth:`MatchExtras.next_due`)."""
        deadline, began = record.deadline, record.updated_at
        if record.status == MatchStatus.CHALLENGE:
            self.due(deadline, record.archive_at)
        elif record.status == MatchStatus.ACTIVE and deadline is not None:
            if self.longest_turn is not None:
                self.longest_turn = max(self.longest_turn, deadline - began)
            self.due((3 * deadline + began) / 4, 2 * deadline - began, record.archive_at)
        else:
            self.due(record.archive_at)

    def on_my_shards(self) -> tuple[str, tuple[int, ...]]:
        """An ``AND …`` condition on ``guild_id`` keeping this process's shards, and its parameters."""
        if self.shards is None:
            return "", ()
        marks = ", ".join("?" for _ in self.shards.ids)
        return f" AND (guild_id >> 22) % ? IN ({marks})", (self.shards.count, *self.shards.ids)


class MatchReader:
    """Reading matches: decoding rows, one match by ID, and knowing which matches are no event game."""

    def __init__(self, database: Database, schedule: Schedule) -> None:
        self.database = database
        self.schedule = schedule
        # Matches read with no tournament pairing (see _EVENT_FLAG): the first move of each then needs no
        # query to learn that it is no event game.  Bounded: forgetting one costs that query again.
        self._ordinary: set[int] = set()

    async def turn_bound(self) -> float:
        """An upper bound of every running match's turn time (read once, then kept up to date by the writes)."""
        schedule = self.schedule
        if schedule.longest_turn is None:
            rows = await self.database.rows(
                "SELECT MAX(deadline - updated_at) FROM matches WHERE status = ? AND deadline IS NOT NULL",
                (MatchStatus.ACTIVE,),
            )
            found = float(rows[0][0]) if rows and rows[0][0] is not None else 0.0
            if schedule.longest_turn is None:  # a write meanwhile may have set it
                schedule.longest_turn = found
            else:
                schedule.longest_turn = max(schedule.longest_turn, found)
        return schedule.longest_turn

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> MatchRecord | None:
        rows = await self.database.rows(sql, params)
        return _decode(rows[0]) if rows else None

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[MatchRecord]:
        return [_decode(row) for row in await self.database.rows(sql, params)]

    async def fetch_flagged(self, sql: str, params: Sequence[Any] = ()) -> list[MatchRecord]:
        """Like :meth:`fetch_all` for a query whose last column is :data:`_EVENT_FLAG`: noting the ordinary ones."""
        found = []
        for row in await self.database.rows(sql, params):
            record = _decode(row)
            if not row[-1]:
                self.note_ordinary(record.id)
            found.append(record)
        return found

    def note_ordinary(self, match_id: int) -> None:
        """Remember that the match is no event game (read without a pairing, or challenged and committed)."""
        if len(self._ordinary) >= ORDINARY_KEPT:
            self._ordinary.clear()
        self._ordinary.add(match_id)

    def known_ordinary(self, match_id: int) -> bool:
        """Whether the match is known to be no event game (read so with it), so its pairing needs no query."""
        return match_id in self._ordinary

    async def get(self, match_id: int) -> MatchRecord | None:
        """Return the match with this ID, whatever its status."""
        if not 0 < match_id < 2**63:  # SQLite integers are 64-bit; anything else is no match at all
            return None
        found = await self.fetch_flagged(
            f"SELECT {_COLUMNS}, {_EVENT_FLAG.format(alias='matches.')} FROM matches WHERE id = ?", (match_id,)
        )
        return found[0] if found else None


async def last_seq(db: Handle, match_id: int) -> int:
    """The number of the match's last log entry (0: none yet), inside a transaction."""
    rows = await db.execute_fetchall("SELECT COALESCE(MAX(seq), 0) FROM moves WHERE match_id = ?", (match_id,))
    return int(next(iter(rows))[0])
