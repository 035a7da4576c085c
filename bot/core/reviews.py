"""The computer's review of a finished match: made a slice at a time, in the background, kept in the database.

:class:`ReviewMaker` judges a match's moves one position at a time (``ai.review.judge_saved``) in the
computer's worker processes, as *background* work: a review takes the niced background process, never one a
live game's computer move waits for.  Each position has a fixed budget of playouts (``REVIEW_ITERATIONS`` of the
game) and a seed derived from the match's, so a review is the same on any machine.

A review is a background job (:mod:`bot.core.background`, kind :data:`REVIEW`, its subject the match's id) and
is made in slices: :meth:`ReviewMaker.advance` reads what is stored, judges up to :data:`SAVE_EVERY` more moves,
stores them and says whether the review is complete; :class:`ReviewJobs` is the runner's handler that does one
such slice.  Because every slice starts from what is stored, a review a restart interrupted goes on from where it
stopped, in this process or another, and the runner can turn to a fairer job between two slices.  A complete
review is read back (:meth:`ReviewMaker.kept`) and shown again at once.  Two people asking for the same review
share one job; :meth:`ReviewMaker.watch` lets anyone in the process hear each judgement as it is made.

The caller hands over the match's positions and plies (rebuilt from its log, :mod:`bot.core.positions`); a ply
that is not a move (a forfeit) is not judged, and a game that ended by one has no final result on the graph.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ai import search_seed
from ai.review import Judgement, Review, final_rewards, judge_saved, review_iterations
from bot.core.ports import Workers
from bot.core.positions import Rebuilt
from bot.storage.job_store import Job
from bot.storage.review_store import StoredReview
from engines import GameState

log = logging.getLogger(__name__)

SAVE_EVERY = 8  # positions judged in one slice of a review, and so between two writes of a review in progress
REVIEW = "review"  # the kind of a review's background job

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


class ReviewMaker:
    """Makes and keeps the reviews of finished matches, a slice at a time."""

    def __init__(self, store: ReviewStore, workers: Workers, *, iterations: int | None = None) -> None:
        self.store = store
        self.workers = workers
        # Tests fix a small budget (as they do for the computer's moves); the bot uses each game's own.
        self.iterations = iterations
        self._listeners: dict[int, list[Progress]] = {}

    def budget(self, game: str) -> int:
        """Playouts per position a review of ``game`` spends."""
        return self.iterations if self.iterations is not None else review_iterations(game)

    async def _judged(self, match_id: int, budget: int) -> tuple[list[Judgement], bool]:
        """The judgements kept for ``match_id`` at ``budget`` (none at another budget), and whether complete."""
        kept = await self.store.get(match_id)
        if kept is None or kept.budget != budget:
            return [], False
        return [Judgement.from_json(j) for j in kept.judgements], kept.complete

    async def progress(self, match_id: int, game: str) -> tuple[int, bool]:
        """How many moves of ``match_id``'s review are judged and stored, and whether it is complete."""
        judged, complete = await self._judged(match_id, self.budget(game))
        return len(judged), complete and bool(judged)

    async def kept(self, match_id: int, states: Sequence[GameState], plies: Sequence[object]) -> Review | None:
        """The match's complete review as kept at today's budget, or None (never made, cut short, other budget)."""
        budget = self.budget(states[0].game)
        judged, complete = await self._judged(match_id, budget)
        if not (complete and judged):
            return None
        return assemble(states, plies, budget, judged)

    async def advance(
        self,
        match_id: int,
        seed: int,
        states: Sequence[GameState],
        plies: Sequence[object],
        limit: int = SAVE_EVERY,
    ) -> bool:
        """Judge up to ``limit`` more moves of the match's review, after those stored, and store them; return
        whether the review is now complete.

        One slice of a background job (:mod:`bot.core.background`): it starts from what is stored, so a review a
        restart interrupted, or one another process worked on, goes on from its last stored judgement.  The
        listeners of :meth:`watch` hear each judgement.
        """
        game = states[0].game
        budget = self.budget(game)
        judged, complete = await self._judged(match_id, budget)
        todo = moves_to_judge(states, plies)
        if complete and judged:
            return True
        judged = judged[: len(todo)]
        self._tell(match_id, len(judged), len(todo))
        for position in todo[len(judged) : len(judged) + max(1, limit)]:
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
            self._tell(match_id, len(judged), len(todo))
        complete = len(judged) == len(todo)
        await self.store.save(match_id, budget, [j.to_json() for j in judged], complete=complete)
        return complete

    async def review(
        self,
        match_id: int,
        seed: int,
        states: Sequence[GameState],
        plies: Sequence[object],
        progress: Progress | None = None,
    ) -> Review:
        """The match's whole review, made here slice after slice without the queue (benchmarks and tools; the bot
        makes reviews through its background runner)."""
        stop = self.watch(match_id, progress) if progress is not None else None
        try:
            while not await self.advance(match_id, seed, states, plies):
                pass
        finally:
            if stop is not None:
                stop()
        found = await self.kept(match_id, states, plies)
        assert found is not None, "a review just completed is kept"
        return found

    def watch(self, match_id: int, listener: Progress) -> Callable[[], None]:
        """Have ``listener`` hear each judgement of ``match_id``'s review made in this process (positions judged,
        positions to judge); return what stops it."""
        self._listeners.setdefault(match_id, []).append(listener)

        def stop() -> None:
            listeners = self._listeners.get(match_id, [])
            if listener in listeners:
                listeners.remove(listener)
            if not listeners:
                self._listeners.pop(match_id, None)

        return stop

    def _tell(self, match_id: int, done: int, total: int) -> None:
        for listener in list(self._listeners.get(match_id, ())):
            try:
                listener(done, total)
            except Exception:
                log.exception("a review's progress listener failed")


class ReviewJobs:
    """The background runner's handler of :data:`REVIEW` jobs: one slice of the review of the job's match.

    ``rebuild(match_id, guild_id)`` gives the finished match's positions (the bot's replays, with their cache; the
    worker process's own :class:`~bot.core.positions.MatchPositions`).
    """

    def __init__(
        self,
        maker: ReviewMaker,
        rebuild: Callable[[int, int], Awaitable[Rebuilt]],
        *,
        slice_moves: int = SAVE_EVERY,
    ) -> None:
        self.maker = maker
        self.rebuild = rebuild
        self.slice_moves = slice_moves

    async def __call__(self, job: Job) -> bool:
        """Judge the next moves of the review of match ``job.subject``; return whether the review is complete."""
        rebuilt = await self.rebuild(job.subject, job.guild_id)
        return await self.maker.advance(
            job.subject, rebuilt.record.seed, rebuilt.states, rebuilt.game.plies, self.slice_moves
        )
