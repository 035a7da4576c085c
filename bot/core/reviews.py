"""The computer's review of a finished match: made once, in the computer's workers, kept in the database.

:class:`ReviewMaker` judges a match's moves one position at a time (``ai.review.judge_saved``) in the
computer's worker processes, as *background* work: a review takes a worker only when no live game's
computer move is waiting, so it never slows a running match.  Each position has a fixed budget of
playouts (``REVIEW_ITERATIONS`` of the game) and a seed derived from the match's, so a review is the
same on any machine.  The judgements are written to the store as they are made (every
:data:`SAVE_EVERY` positions), so a review a restart interrupted goes on from where it stopped; a
complete review is read back and shown again at once.  Two people asking for the same review share one
piece of work, and each hears its progress.

The caller hands over the match's positions and plies (rebuilt from its log by the replays); a ply that
is not a move (a forfeit) is not judged, and a game that ended by one has no final result on the graph.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ai import search_seed
from ai.review import Judgement, Review, final_rewards, judge_saved, review_iterations
from bot.core.ports import Workers
from bot.storage.review_store import StoredReview
from engines import GameState

log = logging.getLogger(__name__)

SAVE_EVERY = 8  # positions judged between two writes of a review in progress

# (positions judged, positions to judge) -> None: how a review in progress reports itself
Progress = Callable[[int, int], Any]


class ReviewStore(Protocol):
    """Where reviews are kept (:class:`bot.storage.review_store.Reviews`)."""

    async def get(self, match_id: int) -> StoredReview | None: ...

    async def save(self, match_id: int, budget: int, judgements: Sequence[dict[str, Any]], complete: bool) -> None: ...


@dataclass(frozen=True, slots=True)
class Position:
    """One move to judge: the position it was played in and its text."""

    state: GameState
    move: str


def moves_to_judge(states: Sequence[GameState], plies: Sequence[object]) -> list[Position]:
    """The moves of a game to judge: every ply that is a move (its text), with the position before it."""
    return [Position(states[index], ply) for index, ply in enumerate(plies) if isinstance(ply, str)]


def assemble(states: Sequence[GameState], plies: Sequence[object], budget: int, judged: Sequence[Judgement]) -> Review:
    """Put a match's judgements together into its :class:`~ai.review.Review` (the final result when the last
    ply was a move that ended the game on the board)."""
    ended_on_board = bool(plies) and isinstance(plies[-1], str)
    final = final_rewards(states[-1]) if ended_on_board else None
    return Review(states[0].game, states[0].players, budget, tuple(judged), final)


@dataclass
class _Job:
    task: asyncio.Task[Review] | None = None
    listeners: list[Progress] = field(default_factory=list)
    done: int = 0
    total: int = 0


class ReviewMaker:
    """Makes, keeps and shares the reviews of finished matches."""

    def __init__(self, store: ReviewStore, workers: Workers, *, iterations: int | None = None) -> None:
        self.store = store
        self.workers = workers
        # Tests fix a small budget (as they do for the computer's moves); the bot uses each game's own.
        self.iterations = iterations
        self._jobs: dict[int, _Job] = {}

    def budget(self, game: str) -> int:
        """Playouts per position a review of ``game`` spends."""
        return self.iterations if self.iterations is not None else review_iterations(game)

    async def review(
        self,
        match_id: int,
        seed: int,
        states: Sequence[GameState],
        plies: Sequence[object],
        progress: Progress | None = None,
    ) -> Review:
        """Return the match's review: the stored one, or one made now (``progress`` hears how far it got).

        A review stored at today's budget is read once here: complete, it is the answer; cut short, the review
        goes on from its last judgement.
        """
        budget = self.budget(states[0].game)
        kept = await self.store.get(match_id)
        judged = [] if kept is None or kept.budget != budget else [Judgement.from_json(j) for j in kept.judgements]
        if kept is not None and kept.complete and judged:
            return assemble(states, plies, budget, judged)
        job = self._jobs.get(match_id)
        if job is None or job.task is None or job.task.done():
            job = _Job()
            self._jobs[match_id] = job
            job.task = asyncio.ensure_future(self._make(match_id, seed, list(states), list(plies), judged, job))
            job.task.add_done_callback(lambda _: self._forget(match_id, job))
        if progress is not None:
            job.listeners.append(progress)
            if job.total:
                progress(job.done, job.total)
        try:
            return await asyncio.shield(job.task)
        finally:
            if progress is not None and progress in job.listeners:
                job.listeners.remove(progress)

    def close(self) -> None:
        """Stop the reviews being made (the bot stops): what was judged so far is kept for the next ask."""
        for job in list(self._jobs.values()):
            if job.task is not None:
                job.task.cancel()
        self._jobs.clear()

    def _forget(self, match_id: int, job: _Job) -> None:
        if self._jobs.get(match_id) is job:
            del self._jobs[match_id]

    async def _make(
        self,
        match_id: int,
        seed: int,
        states: list[GameState],
        plies: list[object],
        judged: list[Judgement],
        job: _Job,
    ) -> Review:
        """Judge the moves after those ``judged`` already (a review cut short), storing as it goes."""
        game = states[0].game
        budget = self.budget(game)
        todo = moves_to_judge(states, plies)
        judged = judged[: len(todo)]
        job.total = len(todo)
        self._tell(job, len(judged))
        for number, position in enumerate(todo[len(judged) :], start=len(judged) + 1):
            state = position.state
            result = await self.workers.run(
                judge_saved,
                game,
                state.to_json(),
                position.move,
                budget,
                search_seed(seed, state.ply),
                background=True,
            )
            judged.append(Judgement.from_json(result))
            if number % SAVE_EVERY == 0 and number < len(todo):
                await self.store.save(match_id, budget, [j.to_json() for j in judged], complete=False)
            self._tell(job, number)
        await self.store.save(match_id, budget, [j.to_json() for j in judged], complete=True)
        return assemble(states, plies, budget, judged)

    @staticmethod
    def _tell(job: _Job, done: int) -> None:
        job.done = done
        for listener in list(job.listeners):
            try:
                listener(done, job.total)
            except Exception:
                log.exception("a review's progress listener failed")
