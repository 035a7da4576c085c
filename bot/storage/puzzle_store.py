"""Puzzles, the players who solve them, each try, and the daily puzzle: the SQL of migration 013.

A puzzle is stored as its JSON (``ai.puzzles.Puzzle.to_json()``) under its key, once per server: ``guild_id`` 0
holds the set Tabula ships (shown on every server), any other ID a server's own puzzles, mined from its finished
games and never shown to another server.  :meth:`Puzzles.add` and :meth:`Puzzles.load_shipped` are idempotent on
``(guild_id, key)``, so mining a game twice, or loading the shipped set at every start, adds nothing twice.

A try (``puzzle_attempts``) records how many of the solver's moves were made, so a puzzle half solved goes on
after a restart.  Every change of a try is checked against the step and status it was read at (``UPDATE … WHERE
step = ? AND status = 'playing'``): two presses at once move it on once, and rate it once.  A player's first try
at a puzzle rates both the player and the puzzle, in the transaction that ends the try; the rating maths is
handed in (:class:`Rater`, :mod:`bot.core.puzzle_ratings`), as the match ratings are.

The daily puzzle (``daily_puzzles``) is chosen once per server and UTC day and posted until Discord has it: the
row is its own small outbox (status, attempts, next try), and :meth:`Puzzles.next_daily_due` tells the sweeper
when the next post or retry is due.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from bot.storage.database import Database, Handle, Row, dump
from bot.storage.match_base import Schedule

#: The guild of the puzzles Tabula ships: shown on every server.
SHIPPED = 0
#: A puzzle's rating deviation before anyone has tried it, and its volatility.
PUZZLE_RD = 300.0
PUZZLE_VOLATILITY = 0.06
#: A player's rating, deviation and volatility before their first puzzle (Glicko-2's usual start).
PLAYER_START = (1500.0, 350.0, 0.06)
#: A puzzle made from a player's own blunder is not shown to them for this long after it was made.
OWN_BLUNDER_SECONDS = 24 * 3600

PLAYING = "playing"
SOLVED = "solved"
FAILED = "failed"

Glicko = tuple[float, float, float]  # rating, deviation, volatility


class Rater(Protocol):
    """Rates one first try: the player's and the puzzle's values before, and whether it was solved."""

    def __call__(self, player: Glicko, puzzle: Glicko, solved: bool) -> tuple[Glicko, Glicko]: ...


@dataclass(frozen=True, slots=True)
class StoredPuzzle:
    """One stored puzzle: its JSON and where it came from, its rating and how often it was tried and solved."""

    id: int
    guild_id: int
    key: str
    game: str
    data: dict[str, Any]
    match_id: int | None
    ply: int | None
    players: tuple[str, ...] | None
    blunderer: int | None
    rating: float
    rd: float
    volatility: float
    plays: int
    solves: int
    created_at: float

    @property
    def shipped(self) -> bool:
        return self.guild_id == SHIPPED


@dataclass(frozen=True, slots=True)
class PuzzlePlayer:
    """A player's puzzle rating and record on one server, for one game."""

    guild_id: int
    user_id: int
    game: str
    rating: float
    rd: float
    volatility: float
    attempts: int
    solved: int
    streak: int
    best_streak: int
    last_at: float


@dataclass(frozen=True, slots=True)
class Attempt:
    """One try at a puzzle: the solver's moves made so far (``step``) and how it stands."""

    id: int
    guild_id: int
    user_id: int
    puzzle_id: int
    step: int
    status: str
    rated: bool
    started_at: float
    finished_at: float | None


@dataclass(frozen=True, slots=True)
class Finished:
    """What ending a try changed: the try, and (a first try) the player's and the puzzle's values before and after."""

    attempt: Attempt
    before: PuzzlePlayer | None
    after: PuzzlePlayer | None
    puzzle_before: Glicko | None
    puzzle_after: Glicko | None


@dataclass(frozen=True, slots=True)
class Daily:
    """A server's daily puzzle of one UTC day, and how its post stands."""

    guild_id: int
    day: str
    puzzle_id: int | None  # None: there was no puzzle to post that day
    channel_id: int
    message_id: int | None
    solvers: int
    status: str
    attempts: int
    next_at: float
    error: str | None


_PUZZLE_COLUMNS = (
    "id, guild_id, key, game, puzzle, match_id, ply, players, blunderer, rating, rd, volatility, plays, solves, "
    "created_at"
)
_PLAYER_COLUMNS = "guild_id, user_id, game, rating, rd, volatility, attempts, solved, streak, best_streak, last_at"
_ATTEMPT_COLUMNS = "id, guild_id, user_id, puzzle_id, step, status, rated, started_at, finished_at"
_DAILY_COLUMNS = "guild_id, day, puzzle_id, channel_id, message_id, solvers, status, attempts, next_at, error"


def _puzzle(row: Row) -> StoredPuzzle:
    (pid, guild, key, game, data, match_id, ply, players, blunderer, rating, rd, vol, plays, solves, at) = row
    return StoredPuzzle(
        int(pid),
        int(guild),
        str(key),
        str(game),
        json.loads(data),
        None if match_id is None else int(match_id),
        None if ply is None else int(ply),
        None if players is None else tuple(json.loads(players)),
        None if blunderer is None else int(blunderer),
        float(rating),
        float(rd),
        float(vol),
        int(plays),
        int(solves),
        float(at),
    )


def _player(row: Row) -> PuzzlePlayer:
    guild, user, game, rating, rd, vol, attempts, solved, streak, best, last = row
    return PuzzlePlayer(
        int(guild), int(user), str(game), float(rating), float(rd), float(vol), int(attempts), int(solved),
        int(streak), int(best), float(last),
    )  # fmt: skip


def _attempt(row: Row) -> Attempt:
    aid, guild, user, puzzle, step, status, rated, started, finished = row
    return Attempt(
        int(aid), int(guild), int(user), int(puzzle), int(step), str(status), bool(rated), float(started),
        None if finished is None else float(finished),
    )  # fmt: skip


def _daily(row: Row) -> Daily:
    guild, day, puzzle, channel, message, solvers, status, attempts, next_at, error = row
    return Daily(
        int(guild), str(day), None if puzzle is None else int(puzzle), int(channel),
        None if message is None else int(message), int(solvers), str(status), int(attempts), float(next_at), error,
    )  # fmt: skip


def utc_day(when: float) -> str:
    """The UTC date of the unix time ``when``: ``2027-01-15``.

    >>> utc_day(1_800_000_000.0)
    '2027-01-15'
    """
    return datetime.fromtimestamp(when, UTC).date().isoformat()


def day_start(day: str) -> float:
    """The unix time at which the UTC date ``day`` begins.

    >>> utc_day(day_start("2027-01-15")), utc_day(day_start("2027-01-15") - 1)
    ('2027-01-15', '2027-01-14')
    """
    return datetime.fromisoformat(day).replace(tzinfo=UTC).timestamp()


def previous_day(day: str) -> str:
    """The UTC date before ``day``."""
    return (datetime.fromisoformat(day) - timedelta(days=1)).date().isoformat()


class Puzzles:
    """Puzzles, players' puzzle ratings, tries and daily puzzles, on a shared database."""

    def __init__(self, database: Database, schedule: Schedule, clock: Callable[[], float] = time.time) -> None:
        self.database = database
        self.schedule = schedule  # this process's shards, for the daily puzzles of its servers
        self.clock = clock

    # -- puzzles ----------------------------------------------------------------------------------------------

    async def add(
        self,
        guild_id: int,
        puzzle: Mapping[str, Any],
        *,
        key: str,
        match_id: int | None = None,
        ply: int | None = None,
        players: Sequence[str] | None = None,
        blunderer: int | None = None,
        now: float | None = None,
    ) -> int | None:
        """Store ``puzzle`` (``Puzzle.to_json()``, with its ``key``) for ``guild_id`` unless it has it already;
        return the new puzzle's ID, or None when it was there.  Its rating starts at the puzzle's own guess."""
        async with self.database.transaction() as db:
            return await self._add(db, guild_id, puzzle, key, match_id, ply, players, blunderer, now)

    async def _add(
        self,
        db: Handle,
        guild_id: int,
        puzzle: Mapping[str, Any],
        key: str,
        match_id: int | None,
        ply: int | None,
        players: Sequence[str] | None,
        blunderer: int | None,
        now: float | None,
    ) -> int | None:
        rows = await db.execute_fetchall(
            "INSERT INTO puzzles (guild_id, key, game, puzzle, match_id, ply, players, blunderer, rating, rd, "
            "volatility, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, key) DO NOTHING RETURNING id",
            (
                guild_id,
                key,
                str(puzzle["game"]),
                dump(dict(puzzle)),
                match_id,
                ply,
                None if players is None else dump(list(players)),
                blunderer,
                float(puzzle["rating"]),
                PUZZLE_RD,
                PUZZLE_VOLATILITY,
                self.clock() if now is None else now,
            ),
        )
        return int(rows[0][0]) if rows else None

    async def load_shipped(self, puzzles: Iterable[tuple[str, Mapping[str, Any]]]) -> int:
        """Add the shipped set (``(key, puzzle JSON)`` pairs) to guild 0 where missing; return how many were new."""
        added = 0
        async with self.database.transaction() as db:
            for key, puzzle in puzzles:
                if await self._add(db, SHIPPED, puzzle, key, None, None, None, None, None) is not None:
                    added += 1
        return added

    async def get(self, puzzle_id: int) -> StoredPuzzle | None:
        """Return the puzzle ``puzzle_id``, or None."""
        rows = await self.database.rows(f"SELECT {_PUZZLE_COLUMNS} FROM puzzles WHERE id = ?", (puzzle_id,))
        return _puzzle(rows[0]) if rows else None

    async def count(self, guild_id: int) -> int:
        """How many puzzles ``guild_id`` has of its own (0: the shipped set)."""
        rows = await self.database.rows("SELECT COUNT(*) FROM puzzles WHERE guild_id = ?", (guild_id,))
        return int(rows[0][0])

    async def candidates(
        self, guild_id: int, user_id: int, game: str | None, target: float, *, now: float, limit: int = 8
    ) -> list[StoredPuzzle]:
        """Up to ``limit`` puzzles ``user_id`` may be given on ``guild_id``, nearest to the rating ``target`` first.

        The server's own and the shipped ones (of ``game``, or of any game), never tried by the user, and never
        one made from the user's own blunder in the last :data:`OWN_BLUNDER_SECONDS`.
        """
        game_clause = " AND p.game = ?" if game is not None else ""
        rows = await self.database.rows(
            f"SELECT {', '.join('p.' + c.strip() for c in _PUZZLE_COLUMNS.split(','))} FROM puzzles AS p "
            f"WHERE p.guild_id IN (?, ?){game_clause} "
            "AND NOT EXISTS (SELECT 1 FROM puzzle_attempts AS a WHERE a.user_id = ? AND a.guild_id = ? "
            "AND a.puzzle_id = p.id) "
            "AND (p.blunderer IS NULL OR p.blunderer <> ? OR p.created_at <= ?) "
            "ORDER BY ABS(p.rating - ?), p.id LIMIT ?",
            (
                SHIPPED,
                guild_id,
                *((game,) if game is not None else ()),
                user_id,
                guild_id,
                user_id,
                now - OWN_BLUNDER_SECONDS,
                target,
                limit,
            ),
        )
        return [_puzzle(row) for row in rows]

    # -- players ----------------------------------------------------------------------------------------------

    async def player(self, guild_id: int, user_id: int, game: str) -> PuzzlePlayer | None:
        """Return ``user_id``'s puzzle record for ``game`` on ``guild_id``, or None before their first rated try."""
        rows = await self.database.rows(
            f"SELECT {_PLAYER_COLUMNS} FROM puzzle_players WHERE guild_id = ? AND user_id = ? AND game = ?",
            (guild_id, user_id, game),
        )
        return _player(rows[0]) if rows else None

    async def players_of(self, guild_id: int, user_id: int) -> list[PuzzlePlayer]:
        """Every game's puzzle record of ``user_id`` on ``guild_id``, by game."""
        rows = await self.database.rows(
            f"SELECT {_PLAYER_COLUMNS} FROM puzzle_players WHERE guild_id = ? AND user_id = ? ORDER BY game",
            (guild_id, user_id),
        )
        return [_player(row) for row in rows]

    async def ladder(self, guild_id: int, game: str, *, offset: int, limit: int) -> tuple[int, list[PuzzlePlayer]]:
        """The server's puzzle ratings for ``game``, best first: how many players, and one page of them."""
        async with self.database.snapshot() as db:
            total = await db.execute_fetchall(
                "SELECT COUNT(*) FROM puzzle_players WHERE guild_id = ? AND game = ?", (guild_id, game)
            )
            rows = await db.execute_fetchall(
                f"SELECT {_PLAYER_COLUMNS} FROM puzzle_players WHERE guild_id = ? AND game = ? "
                "ORDER BY rating DESC, user_id LIMIT ? OFFSET ?",
                (guild_id, game, limit, offset),
            )
        return int(total[0][0]), [_player(row) for row in rows]

    # -- tries ------------------------------------------------------------------------------------------------

    async def start(self, guild_id: int, user_id: int, puzzle_id: int, *, now: float) -> Attempt:
        """Begin a try at ``puzzle_id``; it is rated when it is the user's first at this puzzle on this server."""
        async with self.database.transaction() as db:
            await db.serialize(f"puzzle-try:{guild_id}:{user_id}")  # two starts at once: one first try
            tried = await db.execute_fetchall(
                "SELECT 1 FROM puzzle_attempts WHERE user_id = ? AND guild_id = ? AND puzzle_id = ? LIMIT 1",
                (user_id, guild_id, puzzle_id),
            )
            rows = await db.execute_fetchall(
                "INSERT INTO puzzle_attempts (guild_id, user_id, puzzle_id, step, status, rated, started_at) "
                f"VALUES (?, ?, ?, 0, ?, ?, ?) RETURNING {_ATTEMPT_COLUMNS}",
                (guild_id, user_id, puzzle_id, PLAYING, int(not tried), now),
            )
        return _attempt(rows[0])

    async def attempt(self, attempt_id: int) -> Attempt | None:
        """Return the try ``attempt_id``, or None."""
        rows = await self.database.rows(f"SELECT {_ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE id = ?", (attempt_id,))
        return _attempt(rows[0]) if rows else None

    async def playing(self, guild_id: int, user_id: int, game: str | None = None) -> Attempt | None:
        """The user's latest try still in progress on ``guild_id`` (of ``game``, if given), or None."""
        game_clause = " AND p.game = ?" if game is not None else ""
        rows = await self.database.rows(
            f"SELECT {', '.join('a.' + c.strip() for c in _ATTEMPT_COLUMNS.split(','))} FROM puzzle_attempts AS a "
            f"JOIN puzzles AS p ON p.id = a.puzzle_id WHERE a.user_id = ? AND a.guild_id = ? AND a.status = ?"
            f"{game_clause} ORDER BY a.id DESC LIMIT 1",
            (user_id, guild_id, PLAYING, *((game,) if game is not None else ())),
        )
        return _attempt(rows[0]) if rows else None

    async def advance(self, attempt: Attempt, step: int) -> Attempt | None:
        """Move the try on to ``step`` if it is still playing at ``attempt.step``; None when it had moved on."""
        async with self.database.transaction() as db:
            rows = await db.execute_fetchall(
                f"UPDATE puzzle_attempts SET step = ? WHERE id = ? AND step = ? AND status = ? "
                f"RETURNING {_ATTEMPT_COLUMNS}",
                (step, attempt.id, attempt.step, PLAYING),
            )
        return _attempt(rows[0]) if rows else None

    async def finish(
        self, attempt: Attempt, game: str, *, solved: bool, step: int, rate: Rater, now: float
    ) -> Finished | None:
        """End the try (solved or failed) if it is still playing at ``attempt.step``; a first try rates the player
        and the puzzle with ``rate`` in the same transaction.  None when the try had moved on (a second press)."""
        async with self.database.transaction() as db:
            rows = await db.execute_fetchall(
                f"UPDATE puzzle_attempts SET step = ?, status = ?, finished_at = ? "
                f"WHERE id = ? AND step = ? AND status = ? RETURNING {_ATTEMPT_COLUMNS}",
                (step, SOLVED if solved else FAILED, now, attempt.id, attempt.step, PLAYING),
            )
            if not rows:
                return None
            ended = _attempt(rows[0])
            if not ended.rated:
                return Finished(ended, None, None, None, None)
            await db.serialize(f"puzzle:{ended.puzzle_id}")  # two players finishing it at once: one after the other
            found = await db.execute_fetchall(
                "SELECT rating, rd, volatility FROM puzzles WHERE id = ?", (ended.puzzle_id,)
            )
            puzzle_before: Glicko = tuple(float(v) for v in found[0])  # type: ignore[assignment]
            mine = await db.execute_fetchall(
                f"SELECT {_PLAYER_COLUMNS} FROM puzzle_players WHERE guild_id = ? AND user_id = ? AND game = ?",
                (ended.guild_id, ended.user_id, game),
            )
            before = _player(mine[0]) if mine else None
            values = (before.rating, before.rd, before.volatility) if before is not None else PLAYER_START
            player_after, puzzle_after = rate(values, puzzle_before, solved)
            streak = (before.streak if before is not None else 0) + 1 if solved else 0
            best = max(streak, before.best_streak if before is not None else 0)
            written = await db.execute_fetchall(
                "INSERT INTO puzzle_players (guild_id, user_id, game, rating, rd, volatility, attempts, solved, "
                "streak, best_streak, last_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id, user_id, game) DO UPDATE SET rating = excluded.rating, rd = excluded.rd, "
                "volatility = excluded.volatility, attempts = puzzle_players.attempts + 1, "
                "solved = puzzle_players.solved + excluded.solved, streak = excluded.streak, "
                f"best_streak = excluded.best_streak, last_at = excluded.last_at RETURNING {_PLAYER_COLUMNS}",
                (ended.guild_id, ended.user_id, game, *player_after, int(solved), streak, best, now),
            )
            await db.execute(
                "UPDATE puzzles SET rating = ?, rd = ?, volatility = ?, plays = plays + 1, solves = solves + ? "
                "WHERE id = ?",
                (*puzzle_after, int(solved), ended.puzzle_id),
            )
            if solved:  # the daily puzzle counts who solved it (first tries: each player once)
                await db.execute(
                    "UPDATE daily_puzzles SET solvers = solvers + 1 WHERE guild_id = ? AND puzzle_id = ?",
                    (ended.guild_id, ended.puzzle_id),
                )
            return Finished(ended, before, _player(written[0]), puzzle_before, puzzle_after)

    # -- the daily puzzle -------------------------------------------------------------------------------------

    async def daily(self, guild_id: int, day: str) -> Daily | None:
        """Return ``guild_id``'s daily puzzle of ``day``, or None."""
        rows = await self.database.rows(
            f"SELECT {_DAILY_COLUMNS} FROM daily_puzzles WHERE guild_id = ? AND day = ?", (guild_id, day)
        )
        return _daily(rows[0]) if rows else None

    async def daily_candidates(self, guild_id: int, limit: int = 500) -> list[StoredPuzzle]:
        """The puzzles that may be ``guild_id``'s next daily puzzle: its own and the shipped ones, never its daily
        before; its own first, newest first."""
        rows = await self.database.rows(
            f"SELECT {_PUZZLE_COLUMNS} FROM puzzles AS p WHERE guild_id IN (?, ?) AND NOT EXISTS "
            "(SELECT 1 FROM daily_puzzles AS d WHERE d.guild_id = ? AND d.puzzle_id = p.id) "
            "ORDER BY guild_id = ? DESC, created_at DESC, id DESC LIMIT ?",
            (SHIPPED, guild_id, guild_id, SHIPPED, limit),
        )
        return [_puzzle(row) for row in rows]

    async def daily_channels(self, now: float) -> list[tuple[int, int]]:
        """The servers (on this process's shards) whose daily puzzle of today is due: not chosen yet, or its post
        due a (re)try; each with its puzzle channel."""
        mine, shards = self.schedule.on_my_shards()
        today = utc_day(now)
        rows = await self.database.rows(
            "SELECT guild_id, puzzle_channel FROM guild_settings AS g WHERE puzzle_channel IS NOT NULL "
            "AND NOT EXISTS (SELECT 1 FROM daily_puzzles AS d WHERE d.guild_id = g.guild_id AND d.day = ? "
            f"AND (d.status <> 'pending' OR d.next_at > ?)){mine} ORDER BY guild_id",
            (today, now, *shards),
        )
        return [(int(guild), int(channel)) for guild, channel in rows]

    async def next_daily_due(self, now: float) -> float | None:
        """When a daily puzzle is next due on this process's shards: now or earlier while today's is not chosen or
        a retry is due, else the next UTC midnight; None when no server has a puzzle channel."""
        mine, shards = self.schedule.on_my_shards()
        today = utc_day(now)
        start = day_start(today)
        rows = await self.database.rows(
            "SELECT COUNT(*), MIN(CASE WHEN d.guild_id IS NULL THEN ? WHEN d.status = 'pending' THEN d.next_at END) "
            "FROM guild_settings AS g LEFT JOIN daily_puzzles AS d ON d.guild_id = g.guild_id AND d.day = ? "
            f"WHERE g.puzzle_channel IS NOT NULL{mine.replace('guild_id', 'g.guild_id')}",
            (start, today, *shards),
        )
        count, soonest = rows[0]
        if not count:
            return None
        return float(soonest) if soonest is not None else start + 86400.0

    async def choose_daily(self, guild_id: int, day: str, puzzle_id: int | None, channel_id: int, now: float) -> Daily:
        """Record ``puzzle_id`` as ``guild_id``'s daily puzzle of ``day`` (due to be posted now; None: there is
        none to post, and nothing is due before tomorrow); if one was chosen already (another process, a retry),
        that one stands and is returned."""
        async with self.database.transaction() as db:
            await db.execute(
                "INSERT INTO daily_puzzles (guild_id, day, puzzle_id, channel_id, status, next_at, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, day) DO NOTHING",
                (guild_id, day, puzzle_id, channel_id, "pending" if puzzle_id is not None else "failed", now, now),
            )
            rows = await db.execute_fetchall(
                f"SELECT {_DAILY_COLUMNS} FROM daily_puzzles WHERE guild_id = ? AND day = ?", (guild_id, day)
            )
        return _daily(rows[0])

    async def daily_posted(self, daily: Daily, message_id: int) -> None:
        """The daily puzzle's post landed."""
        await self.database.write(
            "UPDATE daily_puzzles SET status = 'posted', message_id = ?, error = NULL WHERE guild_id = ? AND day = ?",
            (message_id, daily.guild_id, daily.day),
        )

    async def daily_retry(self, daily: Daily, error: str, next_at: float, *, give_up: bool = False) -> None:
        """The post failed: try again at ``next_at``, or (``give_up``: Discord will never take it) not again."""
        await self.database.write(
            "UPDATE daily_puzzles SET status = ?, attempts = attempts + 1, error = ?, next_at = ? "
            "WHERE guild_id = ? AND day = ?",
            ("failed" if give_up else "pending", error[:200], next_at, daily.guild_id, daily.day),
        )


__all__ = [
    "FAILED",
    "OWN_BLUNDER_SECONDS",
    "PLAYER_START",
    "PLAYING",
    "PUZZLE_RD",
    "SHIPPED",
    "SOLVED",
    "Attempt",
    "Daily",
    "Finished",
    "Glicko",
    "PuzzlePlayer",
    "Puzzles",
    "Rater",
    "StoredPuzzle",
    "day_start",
    "previous_day",
    "utc_day",
]
