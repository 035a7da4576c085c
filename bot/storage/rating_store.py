"""Ratings and ladders: one rating per server, game and player, and each rated match's changes.

The ratings of a finished match are written inside the transaction that
finishes it (:meth:`Ratings.record_finish` is the match store's finish hook),
so a result is never saved without its ratings or rated twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from bot.storage.database import Database, Handle

if TYPE_CHECKING:
    from bot.storage.records import MatchRecord


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


class RatingModel(Protocol):
    """What the store needs of the rating model, handed to it by whoever builds the stores (the domain's
    ``bot.core.ratings`` module is one): storage computes no rating itself."""

    def rate(self, current: Sequence[tuple[float, float] | None], places: Sequence[int]) -> list[tuple[float, float]]:
        """The new (mu, sigma) of each seat, from its current one (``None``: a newcomer) and the places."""
        ...

    def ordinal(self, mu: float, sigma: float) -> float:
        """The number the ladder sorts by."""
        ...


_RATING_COLUMNS = "user_id, name, mu, sigma, games, wins, losses, draws"


class Ratings:
    """Ratings, ladders and rated history, on a shared :class:`~bot.storage.database.Database`."""

    def __init__(self, database: Database, model: RatingModel | None = None) -> None:
        self.database = database
        # None: finished matches are recorded without ratings (a copy, a check, a tool that rates nothing).
        self.model = model

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return await self.database.rows(sql, params)

    async def record_finish(self, db: Handle, record: MatchRecord, places: Sequence[int], now: float) -> None:
        """Rate a rated match that just finished (runs inside the match store's transaction)."""
        model = self.model
        if model is None or not record.rated:
            return
        ids = [seat.user_id for seat in record.players]
        marks = ", ".join("?" for _ in ids)
        # Matches of one ladder that finish at the same moment are rated one after the other (each reads
        # the ratings the other wrote); SQLite's single writer does that anyway, PostgreSQL needs the lock.
        await db.serialize(f"ratings:{record.guild_id}:{record.game}")
        rows = await db.execute_fetchall(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? AND user_id IN ({marks})",
            (record.guild_id, record.game, *ids),
        )
        known = {row[0]: RatingRow(*row) for row in rows}
        before = [(known[i].mu, known[i].sigma) if i in known else None for i in ids]
        after = model.rate(before, places)
        everyone_first = all(place == 1 for place in places)
        for seat, (player, (mu, sigma)) in enumerate(zip(record.players, after, strict=True)):
            won = not everyone_first and places[seat] == 1
            lost = not everyone_first and places[seat] != 1
            await db.execute(
                "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, ordinal, games, wins, losses, draws, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id, game, user_id) DO UPDATE SET name = excluded.name, mu = excluded.mu, "
                "sigma = excluded.sigma, ordinal = excluded.ordinal, games = ratings.games + 1, "
                "wins = ratings.wins + excluded.wins, losses = ratings.losses + excluded.losses, "
                "draws = ratings.draws + excluded.draws, updated_at = excluded.updated_at",
                (
                    record.guild_id,
                    record.game,
                    player.user_id,
                    player.name,
                    mu,
                    sigma,
                    model.ordinal(mu, sigma),
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
        async with self.database.snapshot() as db:
            page = await db.execute_fetchall(
                "SELECT user_id FROM ratings WHERE guild_id = ? AND game = ? "
                "ORDER BY ordinal DESC, user_id LIMIT ? OFFSET ?",
                (guild_id, game, limit, offset),
            )
            ids = [row[0] for row in page]
            marks = ", ".join("?" for _ in ids) or "NULL"
            # No ORDER BY here: it would make SQLite walk the ladder index instead of the primary key.
            rows = await db.execute_fetchall(
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? AND user_id IN ({marks})",
                (guild_id, game, *ids),
            )
            found = {row[0]: row for row in rows}
        return [RatingRow(*found[user_id]) for user_id in ids if user_id in found]

    async def rank(self, guild_id: int, game: str, user_id: int) -> int | None:
        """Return a player's 1-based rank on the ladder (ties broken by user ID), or ``None``."""
        async with self.database.snapshot() as db:
            mine = await db.execute_fetchall(
                "SELECT ordinal FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?", (guild_id, game, user_id)
            )
            if not mine:
                return None
            ahead = await db.execute_fetchall(
                "SELECT COUNT(*) FROM ratings WHERE guild_id = ?1 AND game = ?2 "
                "AND (ordinal > ?3 OR (ordinal = ?3 AND user_id < ?4))",
                (guild_id, game, mine[0][0], user_id),
            )
        return 1 + int(ahead[0][0] if ahead else 0)

    async def player_ratings(self, guild_id: int, user_id: int) -> dict[str, RatingRow]:
        """Return a player's rating rows in every game on this server."""
        rows = await self._rows(
            f"SELECT game, {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND user_id = ? ORDER BY game",
            (guild_id, user_id),
        )
        return {row[0]: RatingRow(*row[1:]) for row in rows}

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
