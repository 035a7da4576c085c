"""Tabula's own seats: the computer thinks in worker processes and moves by itself.

When a computer seat is to move, :class:`ComputerPlayers` runs the search
(``ai.think``) in a process pool with the level's time budget, so the
event loop never waits on it and other matches keep flowing; then it plays the
move through the same match service as everyone else, and the one announcer
posts it, as it posts everyone's (:mod:`bot.delivery.announcer`).  A computer
turn that failed is tried again :data:`RETRY_SECONDS` later; at start it resumes any match whose turn is a
computer's, so a restart never leaves one waiting.  A stopping bot lets the moves being thought finish
(:meth:`ComputerPlayers.finish`) and starts no new one.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any

from ai import LEVELS, search_seed
from bot.core.computer_seats import computer_ids, computer_level
from bot.core.refusals import Refusal
from bot.core.service import MatchService
from bot.core.signals import Signals
from bot.delivery.ports import Deliverer
from bot.delivery.replies import Reply
from bot.delivery.workers import WorkerPool
from bot.logs import log_context
from bot.storage.records import MatchRecord
from engines import GameState

log = logging.getLogger(__name__)

# Seconds a level may think per move (the search stops a little before, keeping a margin).
TIME_BUDGETS = {name: level.time_limit for name, level in LEVELS.items()}
RETRY_SECONDS = 30.0  # a computer turn that failed (a worker crash, the database busy) is tried again after this


def think(
    game: str,
    state_json: dict[str, Any],
    level: str,
    seed: int,
    budget: float | None,
    iterations: int | None,
    seat: tuple[int, int] | None,
) -> str:
    """Run the search for one move (in a worker process); return the move's text.

    ``seat`` (match id and seat; None for none) lets the worker start from the tree of this seat's last
    move when it searched that one too.
    """
    from ai import think as search

    clock = time.perf_counter if budget is not None else None
    return search(game, state_json, level, seed, time_limit=budget, clock=clock, iterations=iterations, reuse=seat)


def _warm() -> None:
    """Load every engine and its search knowledge in a new worker, so its first move is on time."""
    from ai import warm_up

    warm_up()


@dataclass(frozen=True, slots=True)
class ComputerThought:
    """The computer thought ``seconds`` about one move at ``level``."""

    level: str
    seconds: float


class ComputerPlayers:
    """Play every computer seat's turns, one task per match."""

    def __init__(
        self,
        service: MatchService,
        announcer: Deliverer,
        *,
        processes: int,
        iterations: int | None = None,
        signals: Signals | None = None,
    ) -> None:
        self.service = service
        self.announcer = announcer
        # Tests fix an iteration budget instead of a time budget: fast and deterministic.
        self.iterations = iterations
        self.workers = WorkerPool("computer", processes, _warm)
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._retries: dict[int, asyncio.TimerHandle] = {}
        self._waking: set[asyncio.Task[None]] = set()
        self.stopping = False
        self.signals = signals if signals is not None else Signals()  # each move's thinking time (the metrics)

    def wake(self, record: MatchRecord, state: GameState | None, reply: Reply | None = None) -> None:
        """Start the computer's turn in this match if it is a computer's turn and nobody is on it.

        ``reply``: the human's move just played; the computer's answer falls back to its follow-up (the
        token lives 15 minutes) when the match's place refuses the post.
        """
        if self.stopping or state is None or state.to_move is None or record.status != "active":
            return
        if computer_level(record.players[state.to_move].user_id) is None:
            return
        running = self._tasks.get(record.id)
        if running is not None and not running.done():
            return
        task = asyncio.create_task(self._play(record.id, reply), name=f"tabula-computer-{record.id}")
        self._tasks[record.id] = task
        task.add_done_callback(lambda done: self._tasks.pop(record.id, None) if done is task else None)

    async def resume_all(self) -> int:
        """Wake every running match where a computer is to move (after a restart); return how many."""
        woken = 0
        low, high = computer_ids()
        for record in await self.service.store.active_matches_seating(low, high):
            state = self.service.state_of(record)
            if state.to_move is not None and computer_level(record.players[state.to_move].user_id):
                self.wake(record, state)
                woken += 1
        return woken

    async def _play(self, match_id: int, reply: Reply | None = None) -> None:
        with log_context(match_id=match_id):
            await self._turns(match_id, reply)

    async def _turns(self, match_id: int, reply: Reply | None = None) -> None:
        service = self.service
        try:
            while not self.stopping:
                current = await service.match_state(match_id)
                if current is None:
                    return
                record, state = current
                if state.to_move is None:
                    return
                seat = record.players[state.to_move]
                level = computer_level(seat.user_id)
                if level is None:
                    return
                text = await self._think(record, state, level)
                try:
                    turn = await service.play_match(match_id, seat.user_id, text)
                except Refusal:
                    return  # the match changed meanwhile (a resignation, a cancel): nothing to do
                # The move and its announcement are saved together; the announcer posts it (or retries).
                await self.announcer.deliver(turn.announcements, reply, state=turn.state, turn=turn)
        except Exception:
            log.exception("the computer's turn in match %s failed; it will be retried", match_id)
            self._retry_later(match_id)

    def _retry_later(self, match_id: int) -> None:
        """Try a failed computer turn again in :data:`RETRY_SECONDS` (unless the bot stops first)."""

        def again() -> None:
            self._retries.pop(match_id, None)
            if not self.stopping:
                task = asyncio.create_task(self._wake_match(match_id), name=f"tabula-computer-retry-{match_id}")
                self._waking.add(task)
                task.add_done_callback(self._waking.discard)

        old = self._retries.pop(match_id, None)
        if old is not None:
            old.cancel()
        self._retries[match_id] = asyncio.get_running_loop().call_later(RETRY_SECONDS, again)

    async def _wake_match(self, match_id: int) -> None:
        try:
            current = await self.service.match_state(match_id)
        except Exception:
            log.exception("reading match %s for the computer's retry failed", match_id)
            self._retry_later(match_id)
            return
        if current is not None:
            self.wake(*current)

    async def _think(self, record: MatchRecord, state: GameState, level: str) -> str:
        budget = None if self.iterations is not None else TIME_BUDGETS[level]
        seed = search_seed(record.seed, state.ply)
        # A seat's tree is kept for its next move when thinking for a time in a worker process (a fixed
        # iteration budget, for tests, searches afresh so that a move depends only on its position and
        # seed; the bot's own process never keeps trees, see ai.MEMORY).
        seat = (record.id, state.to_move) if budget is not None and self.workers.processes > 0 else None
        started = time.perf_counter()
        text = await self.workers.run(think, record.game, state.to_json(), level, seed, budget, self.iterations, seat)
        self.signals.publish(ComputerThought(level, time.perf_counter() - started))
        return text

    def playing(self) -> list[asyncio.Task[None]]:
        """The computer turns being played now."""
        return [task for task in self._tasks.values() if not task.done()]

    def finish(self) -> list[asyncio.Task[None]]:
        """Start no new computer turn (the bot is stopping); return the ones being played, to wait for."""
        self.stopping = True
        for handle in self._retries.values():
            handle.cancel()
        self._retries.clear()
        return self.playing()

    def close(self) -> None:
        """Stop thinking: cancel the turns in progress and the workers."""
        self.finish()
        for task in list(self._tasks.values()):
            task.cancel()
        self.workers.close()
