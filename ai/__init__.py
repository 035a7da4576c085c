"""The computer opponent: one Monte Carlo tree search for every game, three levels.

``choose_move(state, level=..., seed=...)`` returns a legal move of ``state``;
``think(game, state_json, level, seed, time_limit, clock)`` does the same from a
saved state and returns the move's canonical text, a top-level function of plain
values so that the bot can run it in a ``ProcessPoolExecutor``.

Levels (see :data:`LEVELS`), each clearly stronger than the one before in every
game (``python -m bench.tournament``): *easy* searches 30 playouts and picks its
move at random in proportion to their visits, so it plays sensible but loose
moves a beginner can beat; *medium* plays the best move of 50 to 500 playouts
(by game); *hard* thinks for 3 s per move and keeps its tree from one move to
the next.  A time budget needs a clock: engines never read one, so the
caller passes ``clock=time.perf_counter``; without a clock only the iteration
budget counts, and the same seed gives the same move.

For the bot, in a process pool (the search holds the GIL for its whole budget)::

    pool = ProcessPoolExecutor(max_workers=1, initializer=ai.warm_up)
    text = await loop.run_in_executor(
        pool, ai.think, game, state.to_json(), level, seed, None, time.perf_counter
    )
    state = state.play(text)

``time_limit=None`` takes the level's budget; :func:`search_seed` derives the seed
from the game's seed and the ply, so a game replays and every move searches
afresh.  ``think`` raises ``ValueError`` for an unknown game or level and
:class:`~engines.base.InvalidState` for a damaged state.

>>> from engines import GAMES
>>> state = GAMES["pond"].new(variant="mini")
>>> text = think("pond", state.to_json(), "easy", seed=3, iterations=40)
>>> text == think("pond", state.to_json(), "easy", seed=3, iterations=40), state.parse_move(text) in state.legal_moves()
(True, True)
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from ai.knowledge import game_module, knowledge_for
from ai.mcts import Clock, SearchMemory, SearchResult, search
from engines.base import GameState


@dataclass(frozen=True, slots=True)
class Level:
    """How hard one level plays: its budgets and the search's settings."""

    name: str
    time_limit: float  # seconds per move when a clock is given
    iterations: int  # the iteration cap, and the whole budget without a clock
    temperature: float  # 0 plays the best move; above 0 samples moves by their visits
    knowledge: bool = True  # use the game's own knowledge (else the generic search)
    # Settings of the knowledge to change, e.g. (("widening", 1.0),); the game's own by default.
    tuning: tuple[tuple[str, Any], ...] = ()
    # What limits the level: its time ("time"; the cap only guards a fast machine) or its iteration
    # cap ("iterations"; the time limit is only a safety net for a slow one).
    budget: Literal["time", "iterations"] = "time"
    # Settings for particular games on top of the games' own (``LEVEL_SETTINGS`` in ``ai/<game>.py``):
    # (game, field, value), for tuning variants (bench.tournament).
    per_game: tuple[tuple[str, str, Any], ...] = ()

    @property
    def label(self) -> str:
        """Return the name a computer seat of this level goes by, e.g. ``Tabula (medium)``."""
        return f"Tabula ({self.name})"

    def for_game(self, game: str) -> Level:
        """Return this level as it plays ``game``: with the game's own settings for it, then ``per_game``.

        >>> LEVELS["medium"].for_game("querni").iterations, LEVELS["medium"].for_game("pond").iterations
        (100, 500)
        """
        changes = dict(level_settings(game, self.name))
        changes.update((name, value) for which, name, value in self.per_game if which == game)
        if not changes:
            return self
        return replace(self, per_game=(), **changes)


def level_settings(game: str, level: str) -> Mapping[str, Any]:
    """Return ``game``'s own settings for the level called ``level`` (``LEVEL_SETTINGS`` in ``ai/<game>.py``).

    A game sets where the levels' own budgets do not fit it, e.g. ``{"medium": {"iterations": 100}}``.
    """
    settings: Mapping[str, Mapping[str, Any]] = getattr(game_module(game), "LEVEL_SETTINGS", None) or {}
    return settings.get(level, {})


# Every level, easiest first: the one place they are defined (the bot and the benchmarks read them here).
# Easy and medium are fixed amounts of search (so they play alike on any machine); hard thinks for
# its whole time.  The amounts differ by game (``LEVEL_SETTINGS`` in each ``ai/<game>.py``), set by
# paired tournaments (bench.tournament) so that each level wins at least 80% against the one below.
LEVELS: dict[str, Level] = {
    "easy": Level("easy", 0.5, 30, temperature=1.0, budget="iterations"),
    "medium": Level("medium", 1.0, 500, temperature=0.0, budget="iterations"),
    "hard": Level("hard", 3.0, 100_000, temperature=0.0),
}
LEVEL_NAMES: tuple[str, ...] = tuple(LEVELS)
SEED_BITS = 63


def search_seed(game_seed: int, ply: int) -> int:
    """Return the search's seed for the move at ``ply`` of a game seeded ``game_seed``: a different one every ply.

    >>> search_seed(5, 0) != search_seed(5, 1) != search_seed(5, 2)
    True
    """
    return (game_seed * 1_000_003 + 7919 * (ply + 1)) % (1 << SEED_BITS)


# The search (including freeing its tree, which it budgets for itself) uses this
# share of the time budget, keeping the rest for the work around it: rebuilding
# the state, naming the move, and a margin for a busy machine.
BUDGET_SHARE = 0.93


def level_named(level: str | Level) -> Level:
    """Return the :class:`Level` called ``level`` (a Level passes through)."""
    if isinstance(level, Level):
        return level
    found = LEVELS.get(str(level).strip().lower())
    if found is None:
        raise ValueError(f"Unknown level {level!r}; choose one of: {', '.join(LEVELS)}.")
    return found


def analyse(
    state: GameState,
    *,
    level: str | Level = "medium",
    seed: int = 0,
    time_limit: float | None = None,
    iterations: int | None = None,
    clock: Clock | None = None,
    started: float | None = None,
    memory: SearchMemory | None = None,
    key: Hashable = None,
) -> SearchResult:
    """Search ``state`` at ``level`` and return the move with the search's statistics.

    ``time_limit`` (seconds, default the level's) counts only when ``clock`` is
    given, measured from ``started`` (default: now); ``iterations`` (default the
    level's cap in this game) bounds the search either way.  ``memory`` and
    ``key`` reuse the tree of the player's previous move (see :class:`SearchMemory`)
    at a level limited by time.
    """
    chosen = level_named(level).for_game(state.game)
    if time_limit is not None and clock is None:
        raise ValueError("A time limit needs a clock, e.g. clock=time.perf_counter.")
    deadline = None
    if clock is not None:
        budget = chosen.time_limit if time_limit is None else time_limit
        if started is None:
            started = clock()
        deadline = started + budget * BUDGET_SHARE
    know = knowledge_for(state.game, chosen.tuning, generic=not chosen.knowledge)
    return search(
        state,
        iterations=chosen.iterations if iterations is None else iterations,
        seed=seed,
        knowledge=know,
        temperature=chosen.temperature,
        clock=clock,
        deadline=deadline,
        # Only a level that thinks for a time keeps its tree: a fixed amount of search stays just that.
        memory=memory if chosen.budget == "time" else None,
        key=(chosen, key),  # a tree is only reused by the level that grew it
    )


def choose_move(
    state: GameState,
    *,
    level: str | Level = "medium",
    seed: int = 0,
    time_limit: float | None = None,
    iterations: int | None = None,
    clock: Clock | None = None,
) -> Any:
    """Return the move the computer plays in ``state`` at ``level`` (see :func:`analyse`)."""
    return analyse(state, level=level, seed=seed, time_limit=time_limit, iterations=iterations, clock=clock).move


def warm_up() -> None:
    """Import every engine and its knowledge and run one tiny search each, so a fresh worker's first move is on time."""
    from engines import GAMES

    for _, spec in sorted(GAMES.items()):
        state = spec.new(players=spec.min_players, seed=0)
        if state.legal_moves():
            analyse(state, level="easy", seed=0, iterations=2)


def think(
    game: str,
    state_json: Mapping[str, Any],
    level: str = "medium",
    seed: int = 0,
    time_limit: float | None = None,
    clock: Clock | None = None,
    iterations: int | None = None,
    reuse: Hashable = None,
) -> str:
    """Rebuild a saved state of ``game`` and return the canonical text of the computer's move.

    Made for a process pool: every argument is a plain value (``clock`` may be
    ``time.perf_counter``, which pickles by name), and the time budget starts
    before the state is rebuilt.  ``reuse``, a key naming the player (a match
    and seat), keeps the search's tree in this process for that player's next
    move (:data:`MEMORY`); when another process served the last move, the search
    simply starts afresh.
    """
    from engines import GAMES  # here, not at import: engines/__init__ may one day import this package

    started = clock() if clock is not None else None
    spec = GAMES.get(game)
    if spec is None:
        raise ValueError(f"Unknown game {game!r}.")
    state = spec.from_json(state_json)
    result = analyse(
        state,
        level=level,
        seed=seed,
        time_limit=time_limit,
        iterations=iterations,
        clock=clock,
        started=started,
        memory=MEMORY if reuse is not None else None,
        key=reuse,
    )
    return state.move_text(result.move)


# The trees this process keeps for the next move of the players it serves (a few: each may hold
# tens of thousands of positions).  ``think(reuse=...)`` is for a worker process that only searches:
# its kept trees are frozen out of the cyclic collector's sight (see SearchMemory).
MEMORY = SearchMemory(capacity=4, freeze=True)


__all__ = [
    "BUDGET_SHARE",
    "LEVELS",
    "LEVEL_NAMES",
    "Level",
    "SearchMemory",
    "SearchResult",
    "analyse",
    "choose_move",
    "level_named",
    "level_settings",
    "search_seed",
    "think",
    "warm_up",
]
