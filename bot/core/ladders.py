"""Ladders: read-only views of the ratings a server's rated games recorded (:mod:`bot.storage.rating_store`)."""

from __future__ import annotations

from bot.core import ratings
from bot.storage.rating_store import RatingRow, Ratings
from bot.storage.records import MatchRecord


class Ladders:
    """Read-only views of ratings: ladders, player stats and a match's rating changes."""

    def __init__(self, store: Ratings) -> None:
        self.store = store

    async def changes(self, record: MatchRecord) -> list[ratings.Change]:
        """The rating change of every player of a finished, rated match (empty otherwise)."""
        seats = await self.store.seats(record.id)
        out = []
        for seat in seats:
            if seat.after is None:
                continue
            row = await self.store.rating(record.guild_id, record.game, seat.user_id)
            games = row.games if row else 1
            out.append(ratings.Change(seat.user_id, record.players[seat.seat].name, seat.before, seat.after, games))
        return out

    async def page(self, guild_id: int, game: str, page: int, size: int) -> tuple[int, int, list[RatingRow]]:
        """Return (total players, the page actually shown, its rows); pages past the end show the last."""
        total = await self.store.ladder_size(guild_id, game)
        page = min(max(0, page), max(0, (total - 1) // size))
        return total, page, await self.store.ladder(guild_id, game, page * size, size)

    async def standing(self, guild_id: int, game: str, user_id: int) -> tuple[int, RatingRow] | None:
        """Return a player's rank and row on a ladder, if they have played a rated game."""
        row = await self.store.rating(guild_id, game, user_id)
        if row is None:
            return None
        rank = await self.store.rank(guild_id, game, user_id)
        return (rank or 0), row
