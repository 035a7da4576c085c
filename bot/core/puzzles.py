"""Puzzles for players: choosing one, judging each answer, rating the first try, and choosing the daily puzzle.

A player asks for a puzzle (``/puzzle``); :meth:`PuzzleService.next_for` finds one they have never tried, of the
game they name or any, among the server's own and the shipped ones, near their puzzle rating for that game (a
little at random, so the same rating does not always give the same puzzle), and never one made from their own
blunder that same day.  Each of the solver's moves, typed or tapped, reaches :meth:`PuzzleService.play`, which
judges it with :func:`ai.puzzles.answer`: a right move moves the try on (the defender's reply is the line's), the
last right move solves it, a wrong one fails it.  Ending a first try rates the player and the puzzle
(:mod:`bot.core.puzzle_ratings`) in the store's version-checked write, so two presses at once rate it once.

:func:`daily_choice` is the daily puzzle's choice, a pure function of the candidates: the server's own best when
it has a good one, else its newest well-rated one, else a shipped one.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from ai import puzzle_set
from ai.puzzles import Puzzle, answer
from bot.core.puzzle_ratings import rate
from bot.core.refusals import Refusal
from bot.storage.puzzle_store import PLAYER_START, PLAYING, Attempt, Finished, Puzzles, StoredPuzzle

#: A player's rating is moved by up to this much at random before the nearest puzzles are looked up.
SPREAD = 100.0
#: The puzzle given is one of this many nearest to that rating, at random.
NEAREST = 3

#: A server's own puzzle is its best for the daily post once tried this often (first tries) …
DAILY_PLAYS = 3
#: … and solved by at least this share of those who tried.
DAILY_SOLVED = 0.5
#: A puzzle nobody has tried is "well rated" for the daily post when its rating lies in this range (neither a
#: giveaway nor out of most players' reach).
DAILY_RATINGS = (1100.0, 1900.0)

#: Where the shipped puzzle sets are: one ``<game>.json`` per game, ``{"version": 1, "puzzles": [...]}``.
SHIPPED_SETS = puzzle_set.HERE

#: What a try at a move may end as (:func:`ai.puzzles.answer`).
RIGHT, SOLVED, WRONG = "right", "solved", "wrong"


@dataclass(frozen=True, slots=True)
class Opened:
    """A try and its puzzle, ready to show."""

    attempt: Attempt
    stored: StoredPuzzle
    rating: float  # the solver's puzzle rating for the puzzle's game

    @property
    def puzzle(self) -> Puzzle:
        return Puzzle.from_json(self.stored.data)


@dataclass(frozen=True, slots=True)
class Verdict:
    """One answer judged: what the move was (``move``, the engine's text), at which step, and what it did."""

    opened: Opened
    step: int
    move: str
    result: str  # RIGHT, SOLVED or WRONG
    finished: Finished | None  # the try's end (solved or failed), with the rating change of a first try


class PuzzleService:
    """Choosing, showing and judging puzzles, over the store's :class:`~bot.storage.puzzle_store.Puzzles`."""

    def __init__(
        self,
        store: Puzzles,
        *,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.rng = rng or random.Random()

    async def load_shipped(self, folder: Path = SHIPPED_SETS) -> int:
        """Add the shipped puzzles (:func:`shipped_puzzles`) that the database lacks; return how many were new."""
        return await self.store.load_shipped((p.key, p.to_json()) for p in shipped_puzzles(folder))

    async def rating(self, guild_id: int, user_id: int, game: str | None) -> float:
        """The user's puzzle rating for ``game`` (for any game: their mean over the games they rated in)."""
        if game is not None:
            found = await self.store.player(guild_id, user_id, game)
            return found.rating if found is not None else PLAYER_START[0]
        rows = await self.store.players_of(guild_id, user_id)
        return sum(row.rating for row in rows) / len(rows) if rows else PLAYER_START[0]

    async def next_for(self, guild_id: int, user_id: int, game: str | None) -> Opened:
        """Start a try at a puzzle new to the user, near their rating; the one in progress if they have one."""
        current = await self.store.playing(guild_id, user_id, game)
        if current is not None:
            return await self._opened(current)
        target = await self.rating(guild_id, user_id, game) + self.rng.uniform(-SPREAD, SPREAD)
        found = await self.store.candidates(guild_id, user_id, game, target, now=self.clock())
        if not found:
            raise Refusal("You have tried every puzzle there is for now. New ones come from this server's games.")
        chosen = self.rng.choice(found[:NEAREST])
        attempt = await self.store.start(guild_id, user_id, chosen.id, now=self.clock())
        return await self._opened(attempt, chosen)

    async def open_puzzle(self, guild_id: int, user_id: int, puzzle_id: int) -> Opened:
        """A given puzzle (the daily one's Solve button): the user's try in progress, else a new try (rated only
        if it is their first at it)."""
        stored = await self.store.get(puzzle_id)
        if stored is None or stored.guild_id not in (0, guild_id):
            raise Refusal("This puzzle is no longer here.")
        current = await self.store.playing(guild_id, user_id, stored.game)
        if current is not None and current.puzzle_id == puzzle_id:
            return await self._opened(current, stored)
        attempt = await self.store.start(guild_id, user_id, puzzle_id, now=self.clock())
        return await self._opened(attempt, stored)

    async def open(self, attempt_id: int, user_id: int) -> Opened:
        """The try ``attempt_id`` of ``user_id`` (a control of its private message was pressed)."""
        attempt = await self.store.attempt(attempt_id)
        if attempt is None or attempt.user_id != user_id:
            raise Refusal("This puzzle is someone else's: ask for your own with `/puzzle`.")
        return await self._opened(attempt)

    async def current(self, guild_id: int, user_id: int) -> Opened | None:
        """The user's try in progress on this server, if any."""
        attempt = await self.store.playing(guild_id, user_id)
        return None if attempt is None else await self._opened(attempt)

    async def _opened(self, attempt: Attempt, stored: StoredPuzzle | None = None) -> Opened:
        if stored is None:
            stored = await self.store.get(attempt.puzzle_id)
            if stored is None:
                raise Refusal("This puzzle is no longer here.")
        return Opened(attempt, stored, await self.rating(attempt.guild_id, attempt.user_id, stored.game))

    async def play(self, opened: Opened, step: int, move: str) -> Verdict:
        """Judge ``move`` as the solver's ``step``-th move of the try; move it on, or end and rate it.

        A try that is over, or that has moved past ``step`` (an old message, a second press), is refused and
        nothing changes; an illegal or unreadable move raises the engine's ``GameError`` (nothing changes).
        """
        attempt = opened.attempt
        if attempt.status != PLAYING:
            raise Refusal("This puzzle is over. Ask for another with `/puzzle`.")
        if attempt.step != step:
            raise Refusal("This puzzle has moved on since that message: use its latest one.")
        puzzle = opened.puzzle
        state = puzzle.state_at(step)
        result = answer(puzzle, step, move)  # a GameError for a move that is not legal here
        text = state.move_text(state.parse_move(move))
        now = self.clock()
        finished: Finished | None = None
        if result == RIGHT:
            advanced = await self.store.advance(attempt, step + 1)
            if advanced is None:
                raise Refusal("This puzzle has moved on since that message: use its latest one.")
            attempt = advanced
        else:
            solved = result == SOLVED
            finished = await self.store.finish(
                attempt, puzzle.game, solved=solved, step=step + 1 if solved else step, rate=rate, now=now
            )
            if finished is None:
                raise Refusal("This puzzle has moved on since that message: use its latest one.")
            attempt = finished.attempt
        return Verdict(Opened(attempt, opened.stored, opened.rating), step, text, result, finished)


def shipped_puzzles(folder: Path = SHIPPED_SETS) -> list[Puzzle]:
    """Every puzzle of the sets in ``folder`` (none when it has none), game by game."""
    paths = sorted(folder.glob("*.json")) if folder.is_dir() else []
    return [Puzzle.from_json(item) for path in paths for item in puzzle_set.read_set(path)]


# -- the daily puzzle ----------------------------------------------------------------------------------------------


def daily_choice(candidates: Sequence[StoredPuzzle], guild_id: int, day: str) -> StoredPuzzle | None:
    """Choose ``guild_id``'s daily puzzle of ``day`` among ``candidates`` (never its daily before).

    The server's own best when it has a good one (tried by :data:`DAILY_PLAYS` or more, solved by at least
    :data:`DAILY_SOLVED` of them: the most solves, then the most tries); else its newest well-rated one (a rating
    in :data:`DAILY_RATINGS`); else a shipped one, the same for every server on a day but another each day.
    """
    own = [p for p in candidates if p.guild_id == guild_id]
    proven = [p for p in own if p.plays >= DAILY_PLAYS and p.solves >= DAILY_SOLVED * p.plays]
    if proven:
        return max(proven, key=lambda p: (p.solves, p.plays, p.created_at, p.id))
    low, high = DAILY_RATINGS
    fair = [p for p in own if low <= p.rating <= high]
    if fair:
        return max(fair, key=lambda p: (p.created_at, p.id))
    shipped = sorted((p for p in candidates if p.shipped), key=lambda p: p.id)
    if not shipped:
        return None
    return shipped[date.fromisoformat(day).toordinal() % len(shipped)]  # the next day, the next puzzle


__all__ = [
    "RIGHT",
    "SHIPPED_SETS",
    "SOLVED",
    "WRONG",
    "Opened",
    "PuzzleService",
    "Verdict",
    "daily_choice",
    "shipped_puzzles",
]
