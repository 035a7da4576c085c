"""The match service: the one place where challenges, moves and endings happen.

Commands, buttons and the deadline sweeper all call this service; it knows
nothing of discord.py beyond snowflake IDs and display names.  Each match has
an asyncio lock so that its commands run one at a time, and every write is
version-checked by the store, so two presses at the same moment can never apply
two moves, or one move twice.

A channel holds any number of matches played each in its own thread (opened by
the announcer from the challenge message once accepted), or one match played in
the channel itself (a thread, or a channel where threads are unavailable).  A
command finds its match with :meth:`MatchService.find`: the thread's match in a
match's thread, else the player's only running match of that game in the server.

The write that starts a match, plays a move or a forfeit, or closes a challenge
also records what must be announced (the outbox, :class:`~bot.storage.records.Notice`);
the results carry those announcements for the one announcer (:mod:`bot.delivery.announcer`)
to post.

The service is built in parts: :class:`~bot.core.service_core.ServiceCore` (locks, the states' cache, finding
a command's match, the one write of every turn), :class:`~bot.core.challenges.Challenges`,
:class:`~bot.core.endings.Endings` (cancelling, an admin's end, abandoned turns, withdrawals, draw offers), and
here the moves, resignations and claims.
"""

from __future__ import annotations

from bot.core.challenges import Challenges

# AI_LEVELS, level_list and Refusal are imported from here by bot.games.common too.
from bot.core.computer_seats import AI_LEVELS as AI_LEVELS
from bot.core.computer_seats import level_list as level_list
from bot.core.endings import Endings
from bot.core.names import escape_name
from bot.core.refusals import Refusal as Refusal
from bot.core.service_core import (
    ARCHIVE_AFTER_SECONDS,
    Answer,
    DrawAnswer,
    Turn,
)
from bot.core.service_core import (
    ServiceCore as ServiceCore,
)
from bot.storage.records import MatchRecord, TurnKind
from engines.base import FORFEIT, TIMEOUT


class MatchService(Challenges, Endings):
    """Create, play and finish matches, one match at a time.

    ``challenge_seconds`` and ``turn_seconds`` are the bot's defaults; a server's own settings
    (``server_settings``) override them for its matches.
    """

    async def play(
        self, channel_id: int, user_id: int, move: str, *, game: str | None = None, guild_id: int | None = None
    ) -> Turn:
        """Apply ``user_id``'s move in the match the command means (:meth:`find`), or refuse with a reason."""
        record = await self._running(channel_id, game, user_id=user_id, guild_id=guild_id)
        return await self.play_match(record.id, user_id, move, game=game, found=record)

    async def play_match(
        self, match_id: int, user_id: int, move: str, *, game: str | None = None, found: MatchRecord | None = None
    ) -> Turn:
        """Apply ``user_id``'s move in match ``match_id``, or refuse with a readable reason.

        ``found``: the match as just read by :meth:`find`, used as it is unless this process has seen a newer
        version since (a move another process made meanwhile is refused by the version-checked write).
        """
        async with self._match(match_id):
            record = self._unchanged(found, game) or await self._fresh(match_id, game)
            seat = self._seat(record, user_id)
            state = self.state_of(record)
            if state.to_move != seat:
                if state.to_move is None:
                    raise Refusal("The game is over: nobody is to move.")
                raise Refusal(
                    "It is not your turn: {player} is to move.", player=escape_name(record.players[state.to_move].name)
                )
            parsed = state.parse_move(move)
            after = state.play(parsed)
            return await self._commit(record, after, seat, user_id, TurnKind.MOVE, state.move_text(parsed))

    async def resign(
        self, channel_id: int, user_id: int, *, game: str | None = None, guild_id: int | None = None
    ) -> Turn:
        """Let a player resign: in a two-player game the other wins; with more, they leave the game."""
        found = await self._running(channel_id, game, user_id=user_id, guild_id=guild_id)
        async with self._match(found.id):
            record = await self._fresh(found.id, game)
            seat = self._seat(record, user_id)
            return await self._forfeit(record, seat, user_id, FORFEIT)

    async def claim(
        self, channel_id: int, user_id: int, *, game: str | None = None, guild_id: int | None = None
    ) -> Turn:
        """Let a waiting player claim the win once the player to move has let the deadline pass."""
        found = await self._running(channel_id, game, user_id=user_id, guild_id=guild_id)
        async with self._match(found.id):
            record = await self._fresh(found.id, game)
            seat = self._seat(record, user_id)
            state = self.state_of(record)
            late = state.to_move
            if late is None or late == seat:
                raise Refusal("It is your turn: you can't claim a win on your own time. Make a move instead.")
            if record.deadline is None or self.clock() < record.deadline:
                stamp = "<t:" + str(int(record.deadline or 0)) + ":R>"
                raise Refusal(
                    "{player} still has time to move: the deadline is {deadline}.",
                    player=escape_name(record.players[late].name),
                    deadline=stamp,
                )
            # Logged as its code under the late player's seat; the claimer is the row's user.
            return await self._forfeit(record, late, user_id, TIMEOUT)


__all__ = [
    "AI_LEVELS",
    "ARCHIVE_AFTER_SECONDS",
    "Answer",
    "DrawAnswer",
    "MatchService",
    "Refusal",
    "ServiceCore",
    "Turn",
    "level_list",
]
