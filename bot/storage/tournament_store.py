"""The SQL of tournaments: events, their entrants, and each round's pairings, byes and results (migration 008).

An event's row is version-checked like a match's (``UPDATE … WHERE id = ? AND version = ?``), so two
organisers pressing start at once start it once, and a round is paired once.  A round's pairings are
inserted in the transaction that moves the event to that round; each pairing's match is opened in a
transaction of its own that also links it (only while the pairing has none), so a restart between
the two opens each missing match exactly once.  A match's result reaches its pairing inside the
transaction that finishes the match (:meth:`Tournaments.record_finish`, the match store's finish hook),
so the event can never miss or double a result.

An arena (migration 015) has no rounds: each look that seats anyone stores its games as the next "round", in
the same version-checked way, so two looks at once seat a player once.  Its entrants pause and come back
(``paused``), and wait for a game from ``free_since``, which the finishing transaction sets for a game's players
along with its result (so after a restart who is free, and since when, is read back exactly).  Ending an arena
marks its unfinished games void and the event finished in one transaction: a game ending after that finds its
pairing settled and counts for nothing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bot.storage.database import N_, Database, Handle, IntegrityError, StaleMatch, dump
from bot.storage.match_base import _COLUMNS, _decode, _players_json
from bot.storage.match_store import Matches
from bot.storage.records import Announcement, MatchRecord, MatchStatus, Notice, Seat, ThreadMode

#: The terminations of a game lost on time (the engines' codes, as the match's result stores them): an arena
#: pauses whoever lost so, as Lichess pauses a player who does not move, so that nobody is paired with them again
#: until they come back.
ON_TIME = ("timeout", "abandoned")

STALE_EVENT = N_("The event changed while your command was on its way; look at it again and retry.")

_EVENT_COLUMNS = (
    "id, guild_id, channel_id, name, game, options, format, rounds, turn_seconds, starts_at, status, round, "
    "version, organiser_id, message_id, created_at, updated_at, finished_at, duration, ends_at, standings_id"
)


class EventStatus(StrEnum):
    """Where an event is in its life."""

    OPEN = "open"  # taking entrants
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class EventFormat(StrEnum):
    """How an event pairs its rounds."""

    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"
    DOUBLE_ROUND_ROBIN = "double_round_robin"
    TABLES = "tables"  # tables of three or four grouped by standing (multi-player games)
    ARENA = "arena"  # a set time; whoever is free is paired again at once (bot.core.arena)


@dataclass(frozen=True, slots=True)
class Event:
    """One row of ``tournaments``, decoded."""

    id: int
    guild_id: int
    channel_id: int
    name: str
    game: str
    options: dict[str, Any]
    format: EventFormat
    rounds: int
    turn_seconds: float | None
    starts_at: float | None
    status: EventStatus
    round: int
    version: int
    organiser_id: int
    message_id: int | None
    created_at: float
    updated_at: float
    finished_at: float | None
    duration: float | None = None  # an arena's length in seconds
    ends_at: float | None = None  # when a running arena ends
    standings_id: int | None = None  # an arena's live standings message


@dataclass(frozen=True, slots=True)
class Entrant:
    """One entrant: starting ``number`` (1 for the first to join) and the round after which they withdrew."""

    user_id: int
    name: str
    number: int
    withdrawn: int | None = None
    paused: bool = False  # an arena's entrant who left while it runs (not paired until they join again)
    free_since: float | None = None  # an arena's entrant: waiting for a game since then

    @property
    def playing(self) -> bool:
        return self.withdrawn is None


@dataclass(frozen=True, slots=True)
class Pairing:
    """One game of a round (or a bye: one player, no match), with its result once known.

    ``result`` holds ``places`` (1 is first, per seat) and ``scores`` (game points, per seat); a bye's
    and a forfeited game's are written by the event itself.
    """

    tournament_id: int
    round: int
    board: int
    players: tuple[int, ...]
    match_id: int | None
    result: dict[str, Any] | None

    @property
    def bye(self) -> bool:
        return len(self.players) == 1


def _event(row: Sequence[Any]) -> Event:
    return Event(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        name=row[3],
        game=row[4],
        options=json.loads(row[5]),
        format=EventFormat(row[6]),
        rounds=row[7],
        turn_seconds=row[8],
        starts_at=row[9],
        status=EventStatus(row[10]),
        round=row[11],
        version=row[12],
        organiser_id=row[13],
        message_id=row[14],
        created_at=row[15],
        updated_at=row[16],
        finished_at=row[17],
        duration=row[18],
        ends_at=row[19],
        standings_id=row[20],
    )


def _pairing(row: Sequence[Any]) -> Pairing:
    return Pairing(
        tournament_id=row[0],
        round=row[1],
        board=row[2],
        players=tuple(json.loads(row[3])),
        match_id=row[4],
        result=None if row[5] is None else json.loads(row[5]),
    )


_PAIRING_COLUMNS = "tournament_id, round, board, players, match_id, result"
_CHANGEABLE = {"status", "rounds", "round", "finished_at", "message_id", "ends_at"}


class Tournaments:
    """Events, entrants and pairings on a shared database; matches are opened through :class:`Matches`."""

    def __init__(self, database: Database, matches: Matches) -> None:
        self.database = database
        self.matches = matches

    # -- events ------------------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        name: str,
        game: str,
        options: dict[str, Any],
        format: EventFormat,
        rounds: int,
        turn_seconds: float | None,
        starts_at: float | None,
        organiser_id: int,
        now: float,
        duration: float | None = None,
    ) -> Event:
        """Insert a new event taking entrants (an arena's ``duration`` in seconds)."""
        async with self.database.transaction() as db:
            rows = await db.execute_fetchall(
                "INSERT INTO tournaments (guild_id, channel_id, name, game, options, format, rounds, turn_seconds, "
                "starts_at, status, organiser_id, created_at, updated_at, duration) "
                f"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {_EVENT_COLUMNS}",
                (
                    guild_id,
                    channel_id,
                    name,
                    game,
                    dump(options),
                    str(format),
                    rounds,
                    turn_seconds,
                    starts_at,
                    EventStatus.OPEN,
                    organiser_id,
                    now,
                    now,
                    duration,
                ),
            )
            return _event(next(iter(rows)))

    async def get(self, event_id: int) -> Event | None:
        if not 0 < event_id < 2**63:
            return None
        rows = await self.database.rows(f"SELECT {_EVENT_COLUMNS} FROM tournaments WHERE id = ?", (event_id,))
        return _event(rows[0]) if rows else None

    async def of_guild(self, guild_id: int, statuses: Sequence[EventStatus] = (), limit: int = 25) -> list[Event]:
        """A server's events (with one of ``statuses``, if given), newest first."""
        sql = f"SELECT {_EVENT_COLUMNS} FROM tournaments WHERE guild_id = ?"
        params: list[Any] = [guild_id]
        if statuses:
            sql += f" AND status IN ({', '.join('?' for _ in statuses)})"
            params.extend(str(s) for s in statuses)
        rows = await self.database.rows(sql + " ORDER BY id DESC LIMIT ?", (*params, limit))
        return [_event(row) for row in rows]

    async def due_to_start(self, now: float) -> list[Event]:
        """Open events whose start time has come (on this process's shards)."""
        mine, shards = self.matches.schedule.on_my_shards()
        rows = await self.database.rows(
            f"SELECT {_EVENT_COLUMNS} FROM tournaments WHERE status = ? AND starts_at IS NOT NULL "
            f"AND starts_at <= ?{mine} ORDER BY id",
            (EventStatus.OPEN, now, *shards),
        )
        return [_event(row) for row in rows]

    async def running(self) -> list[Event]:
        """Running events (on this process's shards): what a restart resumes."""
        mine, shards = self.matches.schedule.on_my_shards()
        rows = await self.database.rows(
            f"SELECT {_EVENT_COLUMNS} FROM tournaments WHERE status = ?{mine} ORDER BY id",
            (EventStatus.RUNNING, *shards),
        )
        return [_event(row) for row in rows]

    async def _update(self, db: Handle, event: Event, changes: dict[str, Any], now: float) -> Event:
        unknown = set(changes) - _CHANGEABLE
        if unknown:
            raise ValueError(f"cannot change {sorted(unknown)}")
        values = [str(v) if isinstance(v, StrEnum) else v for v in changes.values()]
        sets = "".join(f"{name} = ?, " for name in changes)
        rows = list(
            await db.execute_fetchall(
                f"UPDATE tournaments SET {sets}version = version + 1, updated_at = ? "
                f"WHERE id = ? AND version = ? RETURNING {_EVENT_COLUMNS}",
                (*values, now, event.id, event.version),
            )
        )
        if not rows:
            raise StaleMatch(STALE_EVENT)
        return _event(rows[0])

    async def update(self, event: Event, now: float, **changes: Any) -> Event:
        """Apply ``changes`` if the event is still at ``event.version``; else raise :class:`StaleMatch`."""
        async with self.database.transaction() as db:
            return await self._update(db, event, changes, now)

    async def set_message(self, event_id: int, message_id: int) -> None:
        """Record the sign-up message (its buttons); no version bump."""
        await self.database.write("UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, event_id))

    async def set_standings_message(self, event_id: int, message_id: int | None) -> None:
        """Record an arena's live standings message; no version bump (it changes nothing a pairing reads)."""
        await self.database.write("UPDATE tournaments SET standings_id = ? WHERE id = ?", (message_id, event_id))

    # -- entrants ----------------------------------------------------------------------

    async def entrants(self, event_id: int) -> list[Entrant]:
        rows = await self.database.rows(
            "SELECT user_id, name, number, withdrawn, paused, free_since FROM tournament_entrants "
            "WHERE tournament_id = ? ORDER BY number",
            (event_id,),
        )
        return [
            Entrant(int(r[0]), str(r[1]), int(r[2]), None if r[3] is None else int(r[3]), bool(r[4]), r[5])
            for r in rows
        ]

    async def join(self, event: Event, user_id: int, name: str, now: float) -> bool:
        """Enter ``user_id`` while the event is still open at its version; ``False`` if already entered.

        Joining bumps the event's version too, so a start racing a join sees one or the other."""
        async with self.database.transaction() as db:
            taken = await db.execute_fetchall(
                "SELECT 1 FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?", (event.id, user_id)
            )
            if list(taken):
                return False
            await self._update(db, event, {}, now)
            try:
                await db.execute(
                    "INSERT INTO tournament_entrants (tournament_id, user_id, name, number, joined_at, free_since) "
                    "SELECT ?, ?, ?, COALESCE(MAX(number), 0) + 1, ?, ? FROM tournament_entrants "
                    "WHERE tournament_id = ?",
                    (event.id, user_id, name, now, now, event.id),
                )
            except IntegrityError:
                return False
            return True

    async def leave(self, event: Event, user_id: int, now: float) -> bool:
        """Take ``user_id`` off an open event's list; ``False`` if they were not on it."""
        async with self.database.transaction() as db:
            await self._update(db, event, {}, now)
            gone = await db.execute(
                "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?", (event.id, user_id)
            )
            return gone > 0

    async def pause(self, event: Event, user_id: int, now: float) -> bool:
        """Pause an arena's entrant (not paired until they come back); ``False`` if not entered or paused already.

        Bumps the event's version, so a look pairing at the same moment (another process) sees the pause or
        fails and looks again."""
        async with self.database.transaction() as db:
            done = await db.execute(
                "UPDATE tournament_entrants SET paused = 1 WHERE tournament_id = ? AND user_id = ? AND paused = 0",
                (event.id, user_id),
            )
            if done:
                await self._update(db, event, {}, now)
            return done > 0

    async def come_back(self, event: Event, user_id: int, now: float) -> bool:
        """A paused arena entrant plays again, free from ``now``; ``False`` if they were not paused."""
        async with self.database.transaction() as db:
            done = await db.execute(
                "UPDATE tournament_entrants SET paused = 0, free_since = ? "
                "WHERE tournament_id = ? AND user_id = ? AND paused = 1",
                (now, event.id, user_id),
            )
            if done:
                await self._update(db, event, {}, now)
            return done > 0

    async def withdraw(self, event_id: int, user_id: int, after_round: int) -> bool:
        """Pair ``user_id`` no more after ``after_round``; ``False`` if not entered or withdrawn already."""
        async with self.database.transaction() as db:
            done = await db.execute(
                "UPDATE tournament_entrants SET withdrawn = ? "
                "WHERE tournament_id = ? AND user_id = ? AND withdrawn IS NULL",
                (after_round, event_id, user_id),
            )
            return done > 0

    async def events_of(self, guild_id: int, user_id: int, statuses: Sequence[EventStatus]) -> list[Event]:
        """The events of a server ``user_id`` entered (and did not withdraw from), with one of ``statuses``."""
        columns = ", ".join("t." + c.strip() for c in _EVENT_COLUMNS.split(","))
        marks = ", ".join("?" for _ in statuses)
        rows = await self.database.rows(
            f"SELECT {columns} FROM tournament_entrants AS e JOIN tournaments AS t ON t.id = e.tournament_id "
            f"WHERE t.guild_id = ? AND e.user_id = ? AND t.status IN ({marks}) ORDER BY t.id DESC",
            (guild_id, user_id, *(str(s) for s in statuses)),
        )
        return [_event(row) for row in rows]

    # -- rounds and pairings ---------------------------------------------------------------

    async def pairings(self, event_id: int, round_number: int | None = None) -> list[Pairing]:
        """The event's pairings (of one round, if given), by round and board."""
        sql = f"SELECT {_PAIRING_COLUMNS} FROM tournament_pairings WHERE tournament_id = ?"
        params: list[Any] = [event_id]
        if round_number is not None:
            sql += " AND round = ?"
            params.append(round_number)
        rows = await self.database.rows(sql + " ORDER BY round, board", params)
        return [_pairing(row) for row in rows]

    async def open_pairings(self, event_id: int) -> list[Pairing]:
        """The event's games without a result yet (an arena's: who is busy), by round and board."""
        rows = await self.database.rows(
            f"SELECT {_PAIRING_COLUMNS} FROM tournament_pairings WHERE tournament_id = ? AND result IS NULL "
            "ORDER BY round, board",
            (event_id,),
        )
        return [_pairing(row) for row in rows]

    async def pairing_of_match(self, match_id: int) -> Pairing | None:
        """The pairing whose game ``match_id`` is, or ``None`` for an ordinary match (known without a query if
        :meth:`Matches.known_ordinary`)."""
        if self.matches.known_ordinary(match_id):
            return None
        rows = await self.database.rows(
            f"SELECT {_PAIRING_COLUMNS} FROM tournament_pairings WHERE match_id = ?", (match_id,)
        )
        return _pairing(rows[0]) if rows else None

    async def open_round(
        self,
        event: Event,
        round_number: int,
        tables: Sequence[Sequence[int]],
        byes: dict[int, dict[str, Any]],
        now: float,
        **changes: Any,
    ) -> Event:
        """Move the event to ``round_number`` and store its pairings, in one version-checked transaction.

        ``tables`` are the games (user IDs in seat order); a one-player table is a bye, whose result is
        ``byes[user_id]``.  Raises :class:`StaleMatch` if the event moved on (the round was paired already).
        """
        async with self.database.transaction() as db:
            updated = await self._update(db, event, {"round": round_number, **changes}, now)
            await db.executemany(
                "INSERT INTO tournament_pairings (tournament_id, round, board, players, match_id, result) "
                "VALUES (?, ?, ?, ?, NULL, ?)",
                [
                    (
                        event.id,
                        round_number,
                        board,
                        dump(list(table)),
                        dump(byes[table[0]]) if len(table) == 1 else None,
                    )
                    for board, table in enumerate(tables, start=1)
                ],
            )
            return updated

    async def open_match(
        self,
        event: Event,
        pairing: Pairing,
        *,
        seats: Sequence[Seat],
        state: dict[str, Any],
        seed: int,
        deadline: float,
        notices: Sequence[Notice],
        now: float,
    ) -> tuple[MatchRecord, list[Announcement]] | None:
        """Open the running match of ``pairing`` and link it, with its announcements, in one transaction.

        ``None`` when the pairing has its match already (opened before a restart, or by another process).
        """
        try:
            return await self._open_match(event, pairing, seats, state, seed, deadline, notices, now)
        except _AlreadyOpen:
            return None

    async def _open_match(
        self,
        event: Event,
        pairing: Pairing,
        seats: Sequence[Seat],
        state: dict[str, Any],
        seed: int,
        deadline: float,
        notices: Sequence[Notice],
        now: float,
    ) -> tuple[MatchRecord, list[Announcement]]:
        async with self.database.transaction() as db:
            rows = list(
                await db.execute_fetchall(
                    "INSERT INTO matches (guild_id, channel_id, game, options, seed, players, invited, status, state, "
                    "deadline, created_at, updated_at, rated, thread_mode) "
                    f"VALUES (?, ?, ?, ?, ?, ?, '[]', ?, ?, ?, ?, ?, 1, ?) RETURNING {_COLUMNS}",
                    (
                        event.guild_id,
                        event.channel_id,
                        event.game,
                        dump(event.options),
                        seed,
                        _players_json(seats),
                        MatchStatus.ACTIVE,
                        dump(state),
                        deadline,
                        now,
                        now,
                        ThreadMode.THREAD,
                    ),
                )
            )
            record = _decode(rows[0])
            linked = await db.execute(
                "UPDATE tournament_pairings SET match_id = ? "
                "WHERE tournament_id = ? AND round = ? AND board = ? AND match_id IS NULL AND result IS NULL",
                (record.id, pairing.tournament_id, pairing.round, pairing.board),
            )
            if linked != 1:
                raise _AlreadyOpen()
            await db.executemany(
                "INSERT INTO match_players (match_id, seat, user_id) VALUES (?, ?, ?)",
                [(record.id, seat, s.user_id) for seat, s in enumerate(seats)],
            )
            announced = await self.matches.announce_in(db, record, notices, now)
            return record, announced

    async def settle(self, pairing: Pairing, result: dict[str, Any], now: float | None = None) -> bool:
        """Write a pairing's result if it has none yet (a forfeit before its match opened, a cancelled match).

        With ``now``, its players are free from then (an arena's cancelled game)."""
        async with self.database.transaction() as db:
            done = await db.execute(
                "UPDATE tournament_pairings SET result = ? "
                "WHERE tournament_id = ? AND round = ? AND board = ? AND result IS NULL",
                (dump(result), pairing.tournament_id, pairing.round, pairing.board),
            )
            if done and now is not None:
                await self._free(db, pairing.tournament_id, pairing.players, now)
            return done > 0

    async def _free(self, db: Handle, event_id: int, players: Sequence[int], now: float) -> None:
        marks = ", ".join("?" for _ in players)
        await db.execute(
            f"UPDATE tournament_entrants SET free_since = ? WHERE tournament_id = ? AND user_id IN ({marks})",
            (now, event_id, *players),
        )

    async def record_finish(self, db: Handle, record: MatchRecord, places: Sequence[int], now: float) -> None:
        """Give an event game's pairing its result, inside the transaction that finishes the match.

        The result carries the time it finished (``at``: an arena counts only what finished before its end), and
        the game's players are free from then (an arena pairs them again from that time); in a running arena, a
        player who lost on time (:data:`ON_TIME`) is paused."""
        scores = list((record.result or {}).get("scores") or [0] * len(places))
        on_time = (record.result or {}).get("termination") in ON_TIME and min(places) != max(places)
        rows = list(
            await db.execute_fetchall(
                "UPDATE tournament_pairings SET result = ? WHERE match_id = ? AND result IS NULL "
                "RETURNING tournament_id, players",
                (dump({"places": list(places), "scores": scores, "at": now}), record.id),
            )
        )
        for event_id, players in rows:
            seated = [int(user) for user in json.loads(players)]
            await self._free(db, int(event_id), seated, now)
            late = [user for user, place in zip(seated, places, strict=False) if place == max(places)]
            if on_time and late:
                marks = ", ".join("?" for _ in late)
                await db.execute(
                    f"UPDATE tournament_entrants SET paused = 1 WHERE tournament_id = ? AND user_id IN ({marks}) "
                    "AND EXISTS (SELECT 1 FROM tournaments WHERE id = ? AND format = ? AND status = ?)",
                    (int(event_id), *late, int(event_id), EventFormat.ARENA, EventStatus.RUNNING),
                )

    async def end_arena(self, event: Event, now: float) -> Event:
        """Finish an arena at its version: its games still running become void (they count for nothing, and
        their result, when it comes, finds the pairing settled), in the same transaction."""
        async with self.database.transaction() as db:
            updated = await self._update(db, event, {"status": EventStatus.FINISHED, "finished_at": now}, now)
            await db.execute(
                "UPDATE tournament_pairings SET result = ? WHERE tournament_id = ? AND result IS NULL",
                (dump({"void": True, "unfinished": True}), event.id),
            )
            return updated

    async def labels(self, match_ids: Sequence[int]) -> dict[int, tuple[str, int, str]]:
        """The event name, round and format of each of these matches that is an event game."""
        if not match_ids:
            return {}
        marks = ", ".join("?" for _ in match_ids)
        rows = await self.database.rows(
            "SELECT p.match_id, t.name, p.round, t.format FROM tournament_pairings AS p "
            f"JOIN tournaments AS t ON t.id = p.tournament_id WHERE p.match_id IN ({marks})",
            tuple(match_ids),
        )
        return {int(r[0]): (str(r[1]), int(r[2]), str(r[3])) for r in rows}

    async def match_records(self, match_ids: Sequence[int]) -> list[MatchRecord]:
        """The matches with these IDs (a round's games)."""
        if not match_ids:
            return []
        marks = ", ".join("?" for _ in match_ids)
        rows = await self.database.rows(f"SELECT {_COLUMNS} FROM matches WHERE id IN ({marks})", tuple(match_ids))
        return [_decode(row) for row in rows]


class _AlreadyOpen(StaleMatch):
    """The pairing was linked to a match meanwhile; the transaction is rolled back."""

    def __init__(self) -> None:
        super().__init__(STALE_EVENT)
