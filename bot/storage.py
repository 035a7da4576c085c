"""All of Tabula's SQL: matches, their append-only move log, and bot metadata.

One :class:`MatchStore` owns one aiosqlite connection in WAL mode with foreign
keys on.  Every write is one short transaction (``BEGIN IMMEDIATE`` … ``COMMIT``)
behind an asyncio lock, because the coroutines of one process share the
connection and must not interleave inside a transaction.  Writes to a match are
version-checked (``UPDATE … WHERE id = ? AND version = ?``), so a write based on
a stale read is refused instead of applied.  Schema changes are numbered files
in ``bot/migrations`` applied at start, tracked by ``PRAGMA user_version``.
Only snowflake IDs and JSON are stored, never discord.py objects.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import sys
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from typing import Any

import aiosqlite

OPEN_STATUSES = ("challenge", "active")


class StorageError(Exception):
    """Base class for storage refusals; the message can be shown to a player."""


class ChannelBusy(StorageError):
    """The channel already has a pending challenge or a running match."""


class StaleMatch(StorageError):
    """The match changed since it was read; the write was not applied."""


class DatabaseUnavailable(StorageError):
    """The database cannot be used at all; the message names the file, the setting and what to do."""


@dataclass(frozen=True, slots=True)
class Seat:
    """A player of a match: their Discord user ID and the name shown on the board."""

    user_id: int
    name: str


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One row of ``matches``, decoded."""

    id: int
    guild_id: int
    channel_id: int
    game: str
    options: dict[str, Any]
    seed: int
    players: tuple[Seat, ...]
    invited: tuple[int, ...]
    status: str
    state: dict[str, Any] | None
    version: int
    deadline: float | None
    message_id: int | None
    result: dict[str, Any] | None
    created_at: float
    updated_at: float
    finished_at: float | None
    rated: bool = True

    def seat_of(self, user_id: int) -> int | None:
        """Return the seat index of ``user_id``, or ``None`` if they do not play here."""
        for index, seat in enumerate(self.players):
            if seat.user_id == user_id:
                return index
        return None


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One row of the move log: a move's text, or a forfeit with its reason."""

    seq: int
    kind: str
    seat: int
    user_id: int
    text: str
    created_at: float


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One player's standing on a server's ladder for one game."""

    user_id: int
    name: str
    mu: float
    sigma: float
    games: int
    wins: int
    losses: int
    draws: int


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """A seat of a finished match with its place and, when rated, the rating before and after."""

    seat: int
    user_id: int
    place: int | None
    before: tuple[float, float] | None
    after: tuple[float, float] | None


# rate(current (mu, sigma) or None for newcomers, places) -> new (mu, sigma) per seat
RateFunction = Callable[[Sequence["tuple[float, float] | None"], Sequence[int]], list[tuple[float, float]]]

_RATING_COLUMNS = "user_id, name, mu, sigma, games, wins, losses, draws"

_COLUMNS = (
    "id, guild_id, channel_id, game, options, seed, players, invited, status, state, version, deadline, "
    "message_id, result, created_at, updated_at, finished_at, rated"
)


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
        status=row[8],
        state=None if row[9] is None else json.loads(row[9]),
        version=row[10],
        deadline=row[11],
        message_id=row[12],
        result=None if row[13] is None else json.loads(row[13]),
        created_at=row[14],
        updated_at=row[15],
        finished_at=row[16],
        rated=bool(row[17]),
    )


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _players_json(players: Iterable[Seat]) -> str:
    return _dump([{"id": seat.user_id, "name": seat.name} for seat in players])


def migrations() -> list[tuple[int, str]]:
    """Return the numbered migration scripts shipped with the bot, in order."""
    folder = resources.files("bot") / "migrations"
    found = []
    for entry in folder.iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:3].isdigit():
            found.append((int(name[:3]), entry.read_text(encoding="utf-8")))
    return sorted(found)


SETTING = "TABULA_DATABASE"


def _unusable(path: str, problem: str, advice: str = "") -> str:
    """The one-line refusal: which file, which setting, what is wrong and what to do."""
    where = os.path.abspath(path)
    todo = advice or f"fix it, or set {SETTING} to a file the bot can use"
    return f"cannot use the database {where} ({SETTING}): {problem}; {todo}."


def _path_problem(path: str) -> tuple[str, str] | None:
    """Say why ``path`` cannot hold a database and what to do, judged before touching it, or ``None``."""
    if path == ":memory:" or path.startswith("file:"):
        return None
    folder = os.path.dirname(os.path.abspath(path))
    access = f"give the bot's user read and write access to it and its folder, or set {SETTING} elsewhere"
    if os.path.isdir(path):
        inside = os.path.join(os.path.abspath(path), "tabula.sqlite3")
        return "it is a folder, not a file", f"set {SETTING} to a file such as {inside}"
    if not os.path.isdir(folder):
        return f"the folder {folder} does not exist", f"create it, or set {SETTING} to a file in an existing folder"
    if os.path.exists(path) and not os.access(path, os.R_OK | os.W_OK):
        return "permission denied: the bot's user cannot read and write the file", access
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"permission denied: the bot's user cannot create files in {folder}", access
    return None


def _explain(path: str, error: sqlite3.Error) -> str:
    """Turn SQLite's refusal to open ``path`` into the one-line message."""
    text = str(error)
    if "not a database" in text or "malformed" in text:
        return _unusable(
            path,
            "the file is damaged or is not a Tabula database",
            f"restore it from a backup, or set {SETTING} to another file",
        )
    if "readonly" in text or "permission" in text or "unable to open" in text:
        access = f"give the bot's user read and write access to it and its folder, or set {SETTING} elsewhere"
        return _unusable(path, f"permission denied ({text})", access)
    return _unusable(path, text)


if sys.platform == "win32":  # pragma: no cover - no advisory locks there; one bot per file is up to the user

    def _lock_file(path: str) -> int | None:
        return None

    def _unlock_file(lock: int | None) -> None:
        return None

else:
    import fcntl

    def _lock_file(path: str) -> int | None:
        """Hold an exclusive lock on ``<path>.lock`` so that only one bot uses the file."""
        if path == ":memory:" or path.startswith("file:"):
            return None
        lock_path = f"{path}.lock"
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            problem = f"cannot open its lock file {lock_path} ({error.strerror})"
            raise DatabaseUnavailable(_unusable(path, problem)) from error
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            holder = os.read(fd, 32).decode("ascii", "replace").strip()
            os.close(fd)
            who = f" (process {holder})" if holder.isdigit() else ""
            raise DatabaseUnavailable(
                _unusable(
                    path,
                    f"another running Tabula{who} is using it",
                    f"stop that bot first, or give this one its own {SETTING}",
                )
            ) from error
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        return fd

    def _unlock_file(lock: int | None) -> None:
        """Release the lock taken by :func:`_lock_file` (closing the file releases it)."""
        if lock is not None:
            os.close(lock)


async def _user_version(connection: aiosqlite.Connection) -> int:
    """Return ``PRAGMA user_version``: the number of the last migration applied."""
    async with connection.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


class MatchStore:
    """The database behind the match service.  Create with :meth:`open`."""

    def __init__(self, connection: aiosqlite.Connection, lock: int | None = None) -> None:
        self._db = connection
        self._lock = asyncio.Lock()
        self._file_lock = lock

    @classmethod
    async def open(cls, path: str) -> MatchStore:
        """Open (creating if needed) the database at ``path`` and bring its schema up to date.

        One process at a time: an exclusive lock on ``<path>.lock``, held until :meth:`close`,
        refuses a second bot on the same file.  Any reason the file cannot be used raises
        :class:`DatabaseUnavailable` with nothing left open.
        """
        problem = _path_problem(path)
        if problem is not None:
            raise DatabaseUnavailable(_unusable(path, *problem))
        lock = _lock_file(path)
        connection: aiosqlite.Connection | None = None
        try:
            connection = await aiosqlite.connect(path, isolation_level=None)
            await connection.execute("PRAGMA busy_timeout = 5000")
            found = await _user_version(connection)
            latest = max((number for number, _ in migrations()), default=0)
            if found > latest:
                raise DatabaseUnavailable(
                    _unusable(
                        path,
                        f"its schema is version {found}, newer than this release knows (up to {latest})",
                        "run the newer Tabula that wrote it, or a backup made for this release",
                    )
                )
            await connection.execute("PRAGMA journal_mode = WAL")
            await connection.execute("PRAGMA foreign_keys = ON")
            await connection.execute("PRAGMA synchronous = NORMAL")
            store = cls(connection, lock)
            await store._migrate()
        except BaseException as error:
            if connection is not None:
                await connection.close()  # its worker thread would otherwise keep the process alive
            _unlock_file(lock)
            if isinstance(error, sqlite3.Error):
                raise DatabaseUnavailable(_explain(path, error)) from error
            raise
        return store

    async def close(self) -> None:
        """Close the connection; pending transactions were already committed."""
        try:
            await self._db.close()
        finally:
            _unlock_file(self._file_lock)
            self._file_lock = None

    async def _migrate(self) -> None:
        current = await _user_version(self._db)
        for number, script in migrations():
            if number <= current:
                continue
            # executescript commits first, then runs the whole script; wrapping it in one transaction
            # that also bumps user_version makes each migration all-or-nothing.
            await self._db.executescript(f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")

    async def schema_version(self) -> int:
        """Return the number of the last migration applied."""
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    # Each aiosqlite call is a round trip to its worker thread, so reads use execute_fetchall (one trip).

    async def _fetch_one(self, sql: str, params: Sequence[Any] = ()) -> MatchRecord | None:
        async with self._lock:
            rows = list(await self._db.execute_fetchall(sql, params))
        return _decode(rows[0]) if rows else None

    async def _fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[MatchRecord]:
        async with self._lock:
            rows = await self._db.execute_fetchall(sql, params)
        return [_decode(row) for row in rows]

    # -- reading ----------------------------------------------------------------

    async def get(self, match_id: int) -> MatchRecord | None:
        """Return the match with this ID, whatever its status."""
        return await self._fetch_one(f"SELECT {_COLUMNS} FROM matches WHERE id = ?", (match_id,))

    async def open_match(self, channel_id: int) -> MatchRecord | None:
        """Return the channel's pending challenge or running match, if any."""
        return await self._fetch_one(
            f"SELECT {_COLUMNS} FROM matches WHERE channel_id = ? AND status IN ('challenge', 'active')",
            (channel_id,),
        )

    async def active_matches_seating(self, low: int, high: int) -> list[MatchRecord]:
        """Return running matches with a seat whose user ID lies in ``low..high`` (computer seats)."""
        return await self._fetch_all(
            f"SELECT {_COLUMNS} FROM matches WHERE status = 'active' AND EXISTS (SELECT 1 FROM json_each(players) "
            "WHERE json_extract(value, '$.id') BETWEEN ? AND ?) ORDER BY id",
            (low, high),
        )

    async def expired_challenges(self, now: float) -> list[MatchRecord]:
        """Return pending challenges whose expiry has passed."""
        return await self._fetch_all(
            f"SELECT {_COLUMNS} FROM matches WHERE status = 'challenge' AND deadline <= ? ORDER BY id", (now,)
        )

    async def log(self, match_id: int) -> list[LogEntry]:
        """Return the match's move log in order."""
        rows = await self._rows(
            "SELECT seq, kind, seat, user_id, text, created_at FROM moves WHERE match_id = ? ORDER BY seq", (match_id,)
        )
        return [LogEntry(*row) for row in rows]

    async def get_meta(self, key: str) -> str | None:
        """Return a bot metadata value (e.g. the hash of the last synced commands)."""
        rows = await self._rows("SELECT value FROM bot_meta WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        """Store a bot metadata value."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO bot_meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
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
    ) -> MatchRecord:
        """Insert a pending challenge; raise :class:`ChannelBusy` if the channel has an open match."""
        try:
            async with self._transaction() as db:
                cursor = await db.execute(
                    "INSERT INTO matches (guild_id, channel_id, game, options, seed, players, invited, status, "
                    "deadline, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'challenge', ?, ?, ?)",
                    (
                        guild_id,
                        channel_id,
                        game,
                        _dump(options),
                        seed,
                        _players_json(players),
                        _dump(list(invited)),
                        expires_at,
                        now,
                        now,
                    ),
                )
                match_id = cursor.lastrowid
        except sqlite3.IntegrityError:
            raise ChannelBusy("This channel already has a game or a pending challenge.") from None
        record = await self.get(int(match_id or 0))
        assert record is not None
        return record

    async def update(self, record: MatchRecord, **changes: Any) -> MatchRecord:
        """Apply ``changes`` to the match if it is still at ``record.version``; return the new record.

        Allowed changes: ``players``, ``invited``, ``status``, ``state``, ``deadline``,
        ``message_id``, ``result``, ``finished_at``, and ``now`` (the update time).
        """
        async with self._transaction() as db:
            return await self._update(db, record, changes)

    async def append(
        self,
        record: MatchRecord,
        *,
        kind: str,
        seat: int,
        user_id: int,
        text: str,
        now: float,
        rate: RateFunction | None = None,
        **changes: Any,
    ) -> MatchRecord:
        """Log one move or forfeit and apply ``changes`` to the match, in one version-checked transaction.

        When the change finishes the match, the players' places are recorded and, for a
        rated match, ``rate`` updates their ratings inside the same transaction.
        """
        async with self._transaction() as db:
            updated = await self._update(db, record, {**changes, "now": now})
            if updated.status == "finished" and record.status != "finished":
                await self._record_finish(db, updated, rate, now)
            await db.execute(
                "INSERT INTO moves (match_id, seq, kind, seat, user_id, text, created_at) "
                "SELECT ?1, COALESCE(MAX(seq), 0) + 1, ?2, ?3, ?4, ?5, ?6 FROM moves WHERE match_id = ?1",
                (record.id, kind, seat, user_id, text, now),
            )
            return updated

    async def _update(self, db: aiosqlite.Connection, record: MatchRecord, changes: dict[str, Any]) -> MatchRecord:
        encoders: dict[str, Callable[[Any], Any]] = {
            "players": _players_json,
            "invited": lambda v: _dump(list(v)),
            "status": str,
            "state": lambda v: None if v is None else _dump(v),
            "deadline": lambda v: v,
            "message_id": lambda v: v,
            "result": lambda v: None if v is None else _dump(v),
            "finished_at": lambda v: v,
            "rated": int,
        }
        now = changes.pop("now", record.updated_at)
        unknown = set(changes) - set(encoders)
        if unknown:
            raise ValueError(f"cannot change {sorted(unknown)}")
        assignments = ", ".join(f"{name} = ?" for name in changes)
        values = [encoders[name](value) for name, value in changes.items()]
        sql = f"UPDATE matches SET {assignments}{', ' if assignments else ''}version = version + 1, updated_at = ? "
        sql += f"WHERE id = ? AND version = ? RETURNING {_COLUMNS}"
        try:
            rows = list(await db.execute_fetchall(sql, (*values, now, record.id, record.version)))
        except sqlite3.IntegrityError:
            raise ChannelBusy("This channel already has a game or a pending challenge.") from None
        if not rows:
            raise StaleMatch("The game changed while your command was on its way; look at the board and try again.")
        updated = _decode(rows[0])
        if record.status == "challenge" and updated.status == "active":
            await db.executemany(
                "INSERT INTO match_players (match_id, seat, user_id) VALUES (?, ?, ?)",
                [(updated.id, seat, player.user_id) for seat, player in enumerate(updated.players)],
            )
        return updated

    async def _record_finish(
        self, db: aiosqlite.Connection, record: MatchRecord, rate: RateFunction | None, now: float
    ) -> None:
        places = list((record.result or {}).get("places") or [])
        if len(places) != len(record.players):
            return
        await db.executemany(
            "UPDATE match_players SET place = ? WHERE match_id = ? AND seat = ?",
            [(place, record.id, seat) for seat, place in enumerate(places)],
        )
        if rate is None or not record.rated:
            return
        ids = [seat.user_id for seat in record.players]
        marks = ", ".join("?" for _ in ids)
        async with db.execute(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? AND user_id IN ({marks})",
            (record.guild_id, record.game, *ids),
        ) as cursor:
            known = {row[0]: RatingRow(*row) for row in await cursor.fetchall()}
        before = [(known[i].mu, known[i].sigma) if i in known else None for i in ids]
        after = rate(before, places)
        everyone_first = all(place == 1 for place in places)
        for seat, (player, (mu, sigma)) in enumerate(zip(record.players, after, strict=True)):
            won = not everyone_first and places[seat] == 1
            lost = not everyone_first and places[seat] != 1
            await db.execute(
                "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, ordinal, games, wins, losses, draws, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id, game, user_id) DO UPDATE SET name = excluded.name, mu = excluded.mu, "
                "sigma = excluded.sigma, ordinal = excluded.ordinal, games = games + 1, wins = wins + excluded.wins, "
                "losses = losses + excluded.losses, draws = draws + excluded.draws, updated_at = excluded.updated_at",
                (
                    record.guild_id,
                    record.game,
                    player.user_id,
                    player.name,
                    mu,
                    sigma,
                    mu - 3.0 * sigma,
                    int(won),
                    int(lost),
                    int(everyone_first),
                    now,
                ),
            )
            old = before[seat]
            await db.execute(
                "UPDATE match_players SET mu_before = ?, sigma_before = ?, mu_after = ?, sigma_after = ? "
                "WHERE match_id = ? AND seat = ?",
                (old[0] if old else None, old[1] if old else None, mu, sigma, record.id, seat),
            )

    # -- ratings, ladders and history --------------------------------------------------

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self._lock:
            return list(await self._db.execute_fetchall(sql, params))

    async def seats(self, match_id: int) -> list[RatedSeat]:
        """Return a match's seats with places and rating changes."""
        rows = await self._rows(
            "SELECT seat, user_id, place, mu_before, sigma_before, mu_after, sigma_after FROM match_players "
            "WHERE match_id = ? ORDER BY seat",
            (match_id,),
        )
        return [
            RatedSeat(r[0], r[1], r[2], None if r[3] is None else (r[3], r[4]), None if r[5] is None else (r[5], r[6]))
            for r in rows
        ]

    async def rating(self, guild_id: int, game: str, user_id: int) -> RatingRow | None:
        """Return one player's rating row on a server's ladder."""
        rows = await self._rows(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?",
            (guild_id, game, user_id),
        )
        return RatingRow(*rows[0]) if rows else None

    async def ladder_size(self, guild_id: int, game: str) -> int:
        """Return how many players a server's ladder for ``game`` has."""
        rows = await self._rows("SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ?", (guild_id, game))
        return int(rows[0][0])

    async def ladder(self, guild_id: int, game: str, offset: int, limit: int) -> list[RatingRow]:
        """Return one page of the ladder, best first (ties broken by user ID)."""
        # Skip through the covering ladder index alone, then read just the page's rows by key:
        # one OFFSET query that also read every skipped row would take ~100 ms at 100,000 players.
        async with self._lock:
            async with self._db.execute(
                "SELECT user_id FROM ratings WHERE guild_id = ? AND game = ? "
                "ORDER BY ordinal DESC, user_id LIMIT ? OFFSET ?",
                (guild_id, game, limit, offset),
            ) as cursor:
                ids = [row[0] for row in await cursor.fetchall()]
            marks = ", ".join("?" for _ in ids) or "NULL"
            # No ORDER BY here: it would make SQLite walk the ladder index instead of the primary key.
            async with self._db.execute(
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? AND user_id IN ({marks})",
                (guild_id, game, *ids),
            ) as cursor:
                found = {row[0]: row for row in await cursor.fetchall()}
        rows = [found[user_id] for user_id in ids if user_id in found]
        return [RatingRow(*r) for r in rows]

    async def rank(self, guild_id: int, game: str, user_id: int) -> int | None:
        """Return a player's 1-based rank on the ladder (ties broken by user ID), or ``None``."""
        async with self._lock:
            async with self._db.execute(
                "SELECT ordinal FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?", (guild_id, game, user_id)
            ) as cursor:
                mine = await cursor.fetchone()
            if mine is None:
                return None
            async with self._db.execute(
                "SELECT COUNT(*) FROM ratings WHERE guild_id = ?1 AND game = ?2 "
                "AND (ordinal > ?3 OR (ordinal = ?3 AND user_id < ?4))",
                (guild_id, game, mine[0], user_id),
            ) as cursor:
                ahead = await cursor.fetchone()
        return 1 + int(ahead[0] if ahead else 0)

    async def player_ratings(self, guild_id: int, user_id: int) -> dict[str, RatingRow]:
        """Return a player's rating rows in every game on this server."""
        rows = await self._rows(
            f"SELECT game, {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND user_id = ? ORDER BY game",
            (guild_id, user_id),
        )
        return {row[0]: RatingRow(*row[1:]) for row in rows}

    async def finished_matches(
        self, guild_id: int, *, channel_id: int | None = None, user_id: int | None = None, limit: int = 10
    ) -> list[MatchRecord]:
        """Return recent finished matches of a server, in one channel or of one player, newest first."""
        if user_id is not None:
            sql = (
                f"SELECT {', '.join('m.' + c.strip() for c in _COLUMNS.split(','))} FROM match_players AS p "
                "JOIN matches AS m ON m.id = p.match_id WHERE p.user_id = ? AND m.guild_id = ? "
                "AND m.status = 'finished' ORDER BY m.finished_at DESC, m.id DESC LIMIT ?"
            )
            return await self._fetch_all(sql, (user_id, guild_id, limit))
        return await self._fetch_all(
            f"SELECT {_COLUMNS} FROM matches WHERE guild_id = ? AND channel_id = ? AND status = 'finished' "
            "ORDER BY finished_at DESC, id DESC LIMIT ?",
            (guild_id, channel_id, limit),
        )

    async def rated_history(self) -> list[tuple[int, str, list[tuple[int, int]]]]:
        """Return every rated result in the order it was rated: (guild, game, [(user, place)…])."""
        rows = await self._rows(
            "SELECT m.id, m.guild_id, m.game, p.user_id, p.place FROM matches AS m "
            "JOIN match_players AS p ON p.match_id = m.id "
            "WHERE m.status = 'finished' AND m.rated = 1 AND p.mu_after IS NOT NULL "
            "ORDER BY m.finished_at, m.id, p.seat"
        )
        history: list[tuple[int, str, list[tuple[int, int]]]] = []
        last = None
        for match_id, guild_id, game, user_id, place in rows:
            if match_id != last:
                history.append((guild_id, game, []))
                last = match_id
            history[-1][2].append((user_id, place))
        return history

    async def all_ratings(self) -> dict[tuple[int, str, int], tuple[float, float]]:
        """Return every stored (mu, sigma), keyed by (guild, game, user)."""
        rows = await self._rows("SELECT guild_id, game, user_id, mu, sigma FROM ratings")
        return {(g, game, u): (mu, sigma) for g, game, u, mu, sigma in rows}
