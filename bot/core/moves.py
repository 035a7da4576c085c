"""Moves, resignations and claims on time: a player's turn, through the core's one write."""

from __future__ import annotations

from bot.core.names import escape_name
from bot.core.refusals import Refusal, StaleBoard
from bot.core.service_core import ServiceCore, Turn
from bot.storage.database import N_
from bot.storage.records import MatchRecord, TurnKind
from engines.base import FORFEIT, TIMEOUT

STALE_BOARD = N_("This board is no longer the game's current one: the game has moved on since. Here is the board now.")


class Moves:
    """A player's moves, resignations and claims on the service's ``core``."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core

    async def play(
        self, channel_id: int, user_id: int, move: str, *, game: str | None = None, guild_id: int | None = None
    ) -> Turn:
        """Apply ``user_id``'s move in the match the command means (:meth:`ServiceCore.find`), or refuse."""
        record = await self.core.running_record(channel_id, game, user_id=user_id, guild_id=guild_id)
        return await self.play_match(record.id, user_id, move, game=game, found=record)

    async def play_match(
        self,
        match_id: int,
        user_id: int,
        move: str,
        *,
        game: str | None = None,
        found: MatchRecord | None = None,
        version: int | None = None,
    ) -> Turn:
        """Apply ``user_id``'s move in match ``match_id``, or refuse with a readable reason.

        ``found``: the match as just read by :meth:`ServiceCore.find`, used as it is unless this process has seen a
        newer version since (a move another process made meanwhile is refused by the version-checked write).
        ``version``: the version the move was chosen at (a board's controls); once the game has moved on, the
        move is refused with :class:`StaleBoard`, so a doubled press never plays twice.
        """
        async with self.core.match_lock(match_id):
            record = self.core.unchanged(found, game) or await self.core.fresh(match_id, game)
            if version is not None and record.version != version:
                raise StaleBoard(match_id, STALE_BOARD)
            seat = self.core.player_seat(record, user_id)
            state = self.core.state_of(record)
            if state.to_move != seat:
                if state.to_move is None:
                    raise Refusal("The game is over: nobody is to move.")
                raise Refusal(
                    "It is not your turn: {player} is to move.", player=escape_name(record.players[state.to_move].name)
                )
            parsed = state.parse_move(move)
            after = state.play(parsed)
            return await self.core.commit(record, after, seat, user_id, TurnKind.MOVE, state.move_text(parsed))

    async def resign(
        self, channel_id: int, user_id: int, *, game: str | None = None, guild_id: int | None = None
    ) -> Turn:
        """Let a player resign: in a two-player game the other wins; with more, they leave the game."""
        found = await self.core.running_record(channel_id, game, user_id=user_id, guild_id=guild_id)
        async with self.core.match_lock(found.id):
            record = await self.core.fresh(found.id, game)
            seat = self.core.player_seat(record, user_id)
            return await self.core.forfeit(record, seat, user_id, FORFEIT)

    async def claim(
        self, channel_id: int, user_id: int, *, game: str | None = None, guild_id: int | None = None
    ) -> Turn:
        """Let a waiting player claim the win once the player to move has let the deadline pass."""
        found = await self.core.running_record(channel_id, game, user_id=user_id, guild_id=guild_id)
        async with self.core.match_lock(found.id):
            record = await self.core.fresh(found.id, game)
            seat = self.core.player_seat(record, user_id)
            state = self.core.state_of(record)
            late = state.to_move
            if late is None or late == seat:
                raise Refusal("It is your turn: you can't claim a win on your own time. Make a move instead.")
            if record.deadline is None or self.core.clock() < record.deadline:
                stamp = "<t:" + str(int(record.deadline or 0)) + ":R>"
                raise Refusal(
                    "{player} still has time to move: the deadline is {deadline}.",
                    player=escape_name(record.players[late].name),
                    deadline=stamp,
                )
            # Logged as its code under the late player's seat; the claimer is the row's user.
            return await self.core.forfeit(record, late, user_id, TIMEOUT)
