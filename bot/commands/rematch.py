"""The Rematch button under a finished game's result.

A press by any player of the match challenges the others to the same game with the same options
through the very path of ``/<game> start`` (:meth:`bot.commands.ui.MatchUI.challenge`): a new seed, seats drawn
again when the game begins, and a game against the computer starts at once at the same level(s).
The button is restart-proof (its custom ID carries the match, :func:`bot.commands.views.rematch_buttons`);
which challenge a press started is saved (migration 006), so a second press while it is pending, or
after it began, is politely refused, as is a press by someone who did not play.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import discord

from bot.commands.ui import MatchUI
from bot.core.computer_seats import computer_level
from bot.core.refusals import Refusal
from bot.storage.extras_store import MatchExtras
from bot.storage.match_store import Matches
from bot.storage.records import MatchStatus


@dataclass(frozen=True)
class Invitee:
    """A player to challenge again, known by ID and name only (what a user option would carry)."""

    id: int
    display_name: str
    bot: bool = False


class Rematches:
    """Challenge a finished match's players again with one press."""

    def __init__(self, ui: MatchUI, matches: Matches, extras: MatchExtras) -> None:
        self.ui = ui
        self.matches = matches
        self.extras = extras
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    async def press(self, interaction: discord.Interaction, match_id: int) -> None:
        """Start the rematch of ``match_id`` for the player who pressed, or refuse politely."""
        record = await self.matches.get(match_id)
        if record is None or record.status != MatchStatus.FINISHED:
            raise Refusal("This game can't be played again from here.")
        me = interaction.user.id
        if record.seat_of(me) is None:
            raise Refusal("Only the players of this game can ask for a rematch.")
        lock = self._locks.get(match_id)
        if lock is None:
            lock = self._locks[match_id] = asyncio.Lock()
        async with lock:
            earlier = await self.extras.rematch_of(match_id)
            if earlier is not None and earlier.status == MatchStatus.CHALLENGE:
                raise Refusal("A rematch of this game is already waiting for an answer.")
            if earlier is not None and earlier.status in (MatchStatus.ACTIVE, MatchStatus.FINISHED):
                raise Refusal("This game has already been played again: its rematch has begun.")
            people = [
                Invitee(seat.user_id, seat.name)
                for seat in record.players
                if seat.user_id != me and computer_level(seat.user_id) is None
            ]
            levels = [level for seat in record.players if (level := computer_level(seat.user_id)) is not None]
            since = self.ui.service.clock()
            await self.ui.challenge(
                interaction,
                record.game,
                cast(Sequence[discord.abc.User], people),
                dict(record.options),
                levels,
            )
            started = await self.extras.newest_challenge_by(interaction.channel_id or 0, me, since)
            if started is not None:
                await self.extras.link_rematch(match_id, started.id, me)
