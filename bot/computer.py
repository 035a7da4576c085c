"""Tabula's own seats: the computer thinks in worker processes and moves by itself.

When a computer seat is to move, :class:`ComputerPlayers` runs the search
(``ai.think``) in a process pool with the level's time budget, so the
event loop never waits on it and other matches keep flowing; then it plays the
move through the same match service as everyone else and posts the board in the
channel.  At start and on every sweep it resumes any match whose turn is a
computer's, so a restart never leaves one waiting.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from typing import TYPE_CHECKING

import discord

from ai import LEVELS, search_seed
from bot import formatting
from bot.service import Refusal, computer_ids, computer_level
from bot.storage import MatchRecord
from bot.workers import WorkerPool
from engines import GameState

if TYPE_CHECKING:
    from bot.client import TabulaBot

log = logging.getLogger(__name__)

# Seconds a level may think per move (the search stops a little before, keeping a margin).
TIME_BUDGETS = {name: level.time_limit for name, level in LEVELS.items()}


def think(game: str, state_json: dict, level: str, seed: int, budget: float | None, iterations: int | None) -> str:
    """Run the search for one move (in a worker process); return the move's text."""
    from ai import think as search

    clock = time.perf_counter if budget is not None else None
    return search(game, state_json, level, seed, time_limit=budget, clock=clock, iterations=iterations)


def _warm() -> None:
    """Load every engine and its search knowledge in a new worker, so its first move is on time."""
    from ai import warm_up

    warm_up()


class ComputerPlayers:
    """Play every computer seat's turns, one task per channel."""

    def __init__(self, bot: TabulaBot, *, processes: int, iterations: int | None = None) -> None:
        self.bot = bot
        # Tests fix an iteration budget instead of a time budget: fast and deterministic.
        self.iterations = iterations
        self.workers = WorkerPool("computer", processes, _warm)
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def wake(self, record: MatchRecord, state: GameState | None) -> None:
        """Start the computer's turn in this match if it is a computer's turn and nobody is on it."""
        if state is None or state.to_move is None or record.status != "active":
            return
        if computer_level(record.players[state.to_move].user_id) is None:
            return
        running = self._tasks.get(record.channel_id)
        if running is not None and not running.done():
            return
        task = asyncio.create_task(self._play(record.channel_id), name=f"tabula-computer-{record.channel_id}")
        self._tasks[record.channel_id] = task
        task.add_done_callback(lambda done: self._tasks.pop(record.channel_id, None) if done is task else None)

    async def resume_all(self) -> int:
        """Wake every running match where a computer is to move (after a restart); return how many."""
        woken = 0
        low, high = computer_ids()
        for record in await self.bot.service.store.active_matches_seating(low, high):
            state = self.bot.service.state_of(record)
            if state.to_move is not None and computer_level(record.players[state.to_move].user_id):
                self.wake(record, state)
                woken += 1
        return woken

    async def _play(self, channel_id: int) -> None:
        service = self.bot.service
        try:
            while True:
                current = await service.current(channel_id)
                if current is None or current[1] is None:
                    return
                record, state = current
                if state is None or state.to_move is None:
                    return
                seat = record.players[state.to_move]
                level = computer_level(seat.user_id)
                if level is None:
                    return
                text = await self._think(record, state, level)
                try:
                    turn = await service.play(channel_id, seat.user_id, text)
                except Refusal:
                    return  # the match changed meanwhile (a resignation, a cancel): nothing to do
                extra = await self.bot.ui.turn_extras(turn)
                await self._post(turn.record, turn.state, formatting.turn_text(turn, extra))
        except Exception:
            log.exception("the computer's turn in channel %s failed; it will be retried", channel_id)

    async def _think(self, record: MatchRecord, state: GameState, level: str) -> str:
        budget = None if self.iterations is not None else TIME_BUDGETS[level]
        seed = search_seed(record.seed, state.ply)
        return await self.workers.run(think, record.game, state.to_json(), level, seed, budget, self.iterations)

    async def _post(self, record: MatchRecord, state: GameState, content: str) -> None:
        """Post the board after a computer's move, mentioning the person to move."""
        mentions = []
        if state.to_move is not None and computer_level(record.players[state.to_move].user_id) is None:
            mentions.append(record.players[state.to_move].user_id)
        png = None
        try:
            png = await self.bot.renderer.png(state, [seat.name for seat in record.players])
        except Exception:
            log.exception("rendering %s match %s failed", record.game, record.id)
        channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
        allowed = discord.AllowedMentions(users=[discord.Object(i) for i in mentions], roles=False, everyone=False)
        file = discord.File(io.BytesIO(png), filename="board.png") if png is not None else discord.utils.MISSING
        try:
            await channel.send(content, file=file, allowed_mentions=allowed)
        except discord.HTTPException as error:
            log.warning("could not post the computer's move in %s: %s", record.channel_id, error)

    def close(self) -> None:
        """Stop thinking: cancel the turns in progress and the workers."""
        for task in list(self._tasks.values()):
            task.cancel()
        self.workers.close()
