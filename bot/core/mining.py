"""Mining a server's finished matches for puzzles, in the background worker, a slice at a time.

Every finished match (rated or not, any game) is mined once, without anyone asking: its finishing
transaction queues a ``"mine"`` job (the background queue's lowest class: asked-for reviews go first), and
:meth:`PuzzleMiner.mine` is that job's handler.  Each call looks at the next :data:`SLICE` positions of the
match, in order of play, in the background worker process (``ai.puzzle_set.mine_position_saved``: a quick
screen, then the full search and its confirmation at twice the budget), stores each puzzle found with where it
came from (the match, its move number, the players' names, and who made the move before it, so that nobody is
given their own blunder the same day), writes how far it got, and answers whether the match is done.  A restart
goes on from the next position; a puzzle found twice is stored once (the store's key).

Each position's search has a seed of its own, from the match's seed and its ply, so the same match gives the
same puzzles on any machine.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Protocol

from ai import search_seed
from ai.puzzles import Puzzle
from bot.core.ports import Workers
from bot.core.refusals import Refusal
from bot.storage.job_store import Job
from bot.storage.mining_store import MiningProgress
from bot.storage.records import MatchRecord
from engines import GameState

log = logging.getLogger(__name__)

BACKFILL_SECONDS = 30 * 86400.0  # at start, matches finished this recently and never mined to the end are queued
BACKFILL_LIMIT = 1000  # ... at most this many (oldest first), so a start never floods the queue
SLICE = 4  # positions looked at per call: a few seconds of the background worker, then fairer work may go first
MIN_PLY = 2  # the first positions of a game are openings, not puzzles


MINE = "mine"  # the background queue's kind of job: mine one finished match (its subject) for puzzles


class Played(Protocol):
    """A finished match as mining needs it: its record and every position from the first to the last
    (:class:`bot.core.positions.Rebuilt`)."""

    @property
    def record(self) -> MatchRecord: ...

    @property
    def states(self) -> Sequence[GameState]: ...


class MiningStore(Protocol):
    """Where mining progress is kept (:class:`bot.storage.mining_store.Mining`)."""

    async def get(self, match_id: int) -> MiningProgress | None: ...

    async def save(self, match_id: int, screened: int, found: int, complete: bool) -> None: ...


class PuzzleSink(Protocol):
    """Where the puzzles found go (the puzzle store)."""

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
    ) -> int | None: ...


# A finished match's positions by its id and server (rebuilt from its log); a Refusal when it is gone or not
# finished (the replays' and the worker's ``rebuilt``).
Rebuild = Callable[[int, int], Awaitable[Played]]


class PuzzleMiner:
    """Mines finished matches for puzzles, one slice of positions per call of :meth:`mine`."""

    def __init__(
        self,
        progress: MiningStore,
        puzzles: PuzzleSink,
        rebuild: Rebuild,
        workers: Workers,
        *,
        iterations: int | None = None,
    ) -> None:
        self.progress = progress
        self.puzzles = puzzles
        self.rebuild = rebuild
        self.workers = workers
        # Tests fix a small budget; the bot uses each game's own (ai.puzzles.puzzle_iterations).
        self.iterations = iterations

    async def __call__(self, job: Job) -> bool:
        """The background runner's handler of :data:`MINE` jobs: one slice of the job's match."""
        return await self.mine(job.subject, job.guild_id)

    async def mine(self, match_id: int, guild_id: int) -> bool:
        """Look at the next slice of ``match_id``'s positions; return True when the match is mined to the end."""
        from ai.puzzle_set import mine_position_saved

        kept = await self.progress.get(match_id)
        if kept is not None and kept.complete:
            return True
        try:
            played = await self.rebuild(match_id, guild_id)
        except Refusal:
            await self.progress.save(match_id, 0, 0, complete=True)  # gone or never finished: nothing to mine
            return True
        states = played.states
        screened = kept.screened if kept is not None else 0
        found = kept.found if kept is not None else 0
        end = min(len(states), screened + SLICE)
        for index in range(screened, end):
            state = states[index]
            if state.outcome() is not None or state.ply < MIN_PLY or len(state.legal_moves()) < 2:
                continue
            seed = search_seed(played.record.seed ^ 0x5A5A, state.ply)
            result = await self.workers.run(
                mine_position_saved, state.game, state.to_json(), seed, self.iterations, background=True
            )
            if result is None:
                continue
            added = await self.puzzles.add(
                played.record.guild_id,
                result,
                key=Puzzle.from_json(result).key,
                match_id=match_id,
                ply=state.ply,
                players=[seat.name for seat in played.record.players],
                blunderer=self._blunderer(played, index),
            )
            if added is not None:
                found += 1
        complete = end >= len(states)
        await self.progress.save(match_id, end, found, complete)
        if complete:
            log.info("match %s mined: %s puzzles from %s positions", match_id, found, len(states))
        return complete

    @staticmethod
    def _blunderer(played: Played, index: int) -> int | None:
        """The user who made the move before position ``index`` (the one a puzzle there punishes), if any."""
        if index == 0:
            return None
        mover = played.states[index - 1].to_move
        seats = played.record.players
        if mover is None or mover >= len(seats):
            return None
        return seats[mover].user_id


class Submit(Protocol):
    """The background runner's way to queue a job (:meth:`bot.core.background.BackgroundRunner.submit`)."""

    async def submit(self, kind: str, guild_id: int, owner_id: int, subject: int, *, asked: bool) -> Job: ...


class Unmined(Protocol):
    """The mining store's list of finished matches not mined to the end."""

    async def unmined(self, since: float, limit: int) -> list[tuple[int, int]]: ...


async def queue_unmined(mining: Unmined, runner: Submit, *, since: float, limit: int = BACKFILL_LIMIT) -> int:
    """Queue the mining of the matches finished since ``since`` that were never mined to the end (a job already
    queued is joined, not doubled); return how many.  A match's finish queues its mining in the same transaction,
    so this finds only matches that finished before mining was turned on or whose job failed."""
    matches = await mining.unmined(since, limit)
    for match_id, guild_id in matches:
        await runner.submit(MINE, guild_id, 0, match_id, asked=False)
    return len(matches)
