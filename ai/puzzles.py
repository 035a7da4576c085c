"""Puzzles mined from real games: positions where the player to move has one clearly best move.

How Lichess makes its puzzles is the model (a candidate is the position right after a blunder; a move counts as
the solution only when it beats every other by a wide margin; the line goes on while the solver's move stays
clearly best, with the defender playing the engine's reply, and ends on the solver's move).  Here the engine
is the same Monte Carlo search that plays the *hard* level and makes the reviews, and every judgement is on the
review's scale: the mover's chance to win (a draw counting half; with three or four Azul players, the solver's
own expected share of opponents beaten).

A position becomes a :class:`Puzzle` in :func:`make_puzzle` when

* the search ranks its moves (:func:`rank_moves`: a fixed number of playouts, then extra playouts from each of
  the most promising moves so that the best and the runner-up are both known well) and the best move leaves the
  solver at least :data:`WINNING` (Lichess's +200 centipawns is about 68 %) and beats the runner-up by at least
  :data:`MARGIN` (about 35 points, as Lichess asks);
* a second search, with another seed and :data:`CONFIRM_FACTOR` times the playouts, agrees on the move and on
  both thresholds;
* the line goes on, up to :data:`LINE_MOVES` of the solver's moves, while the defender's reply is the search's
  choice, nothing random happens (a round's end in Azul refills the factories: a line stays inside one round),
  and the solver's next move passes both searches again; it ends on the solver's move.

Where the positions come from: every position of a finished game, each first screened by a quick search
(:mod:`ai.puzzle_set`: a superset of Lichess's candidates, since in these games a single winning move also follows
slow moves, not only blunders).  The bot mines in its background worker, one position a call
(:func:`ai.puzzle_set.mine_position_saved`); ``python -m ai.puzzle_set`` makes the set Tabula ships the same way,
from games the computer played against itself (deterministic: the same command makes the same files).

Everything here is pure and deterministic: the same position, budget and seed give the same puzzle.

>>> from engines import GAMES
>>> state = GAMES["pond"].new(variant="mini", seed=1)
>>> ranked = rank_moves(state, iterations=60, seed=3)
>>> ranked == rank_moves(state, iterations=60, seed=3), len(ranked) >= 2
(True, True)
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ai import LEVELS, search_seed
from ai.knowledge import game_module, knowledge_for, reward_from_outcome
from ai.mcts import Node, _Tree
from ai.review import EXTRA_SHARE, review_iterations
from engines.base import GameState
from engines.rng import Rng

# The solver's chance after the solution: at least this (Lichess: +200 centipawns, about 68 %).
WINNING = 0.68
# The solution beats the runner-up by at least this much of the solver's chance (Lichess: about 35 points).
MARGIN = 0.35
# The solver's moves in a line: one to three.
LINE_MOVES = 3
# The confirming search spends this many times the first one's playouts, with another seed.
CONFIRM_FACTOR = 2
# The most promising moves that get extra playouts of their own before the ranking.
CONTENDERS = 4
# A move outside the contenders is ranked only with at least this many playouts: a value from two or three
# playouts is noise, and in a position of two hundred moves the noisiest would always look like a runner-up.
RANKED_VISITS = 16
# Alternatives kept with a puzzle (what a wrong first move would have given), best first.
ALTERNATIVES = 5
# A new puzzle's rating before anyone has tried it, from its shape (see :func:`first_rating`).
BASE_RATING = 1500.0


def puzzle_iterations(game: str) -> int:
    """Return the playouts a puzzle search of ``game`` spends (``PUZZLE_ITERATIONS`` in ``ai/<game>.py``, else
    the review's budget)."""
    return int(getattr(game_module(game), "PUZZLE_ITERATIONS", review_iterations(game)))


@dataclass(frozen=True, slots=True)
class Ranked:
    """One move of a position as the search ranks it: its text, the mover's chance with it, and its playouts."""

    move: str
    value: float
    visits: int
    exact: bool


def _mover_value(child: Node, mover: int) -> float:
    if child.exact is not None:
        return float(child.exact[mover])
    return child.total / child.visits if child.visits else 0.0


def rank_moves(state: GameState, *, iterations: int, seed: int, contenders: int = CONTENDERS) -> tuple[Ranked, ...]:
    """Rank ``state``'s moves for the player to move, best first, after ``iterations`` playouts of the hard
    search and :data:`EXTRA_SHARE` of them again from each of the ``contenders`` most visited moves (none for
    a quick look).

    Moves the search tried too little to judge (fewer than :data:`RANKED_VISITS` playouts) are not ranked:
    they looked worse from the start; a settled move (a known result) ranks by its exact value.
    """
    moves = state.legal_moves()
    mover = state.to_move
    if mover is None or not moves:
        raise ValueError("The game is over: there is no move to rank.")
    level = LEVELS["hard"].for_game(state.game)
    tree = _Tree(knowledge_for(state.game, level.tuning, generic=not level.knowledge), Rng(seed))
    root = Node(None, state, -1, 0.0)
    for _ in range(iterations):
        tree.iterate(root)
        if root.exact is not None:
            break
    if len(moves) == 1 and not root.children:
        tree.child_for(root, moves[0])
    chosen = sorted(root.children, key=lambda c: (-c.visits, -_mover_value(c, mover)))[: max(1, contenders)]
    extra = max(1, int(iterations * EXTRA_SHARE)) if contenders else 0
    for child in chosen:
        for _ in range(extra):
            if child.exact is not None:
                break
            tree.iterate(child)
    ranked = [
        Ranked(state.move_text(child.move), _mover_value(child, mover), child.visits, child.exact is not None)
        for child in root.children
        if child in chosen or child.exact is not None or child.visits >= RANKED_VISITS
    ]
    ranked.sort(key=lambda r: (-r.value, -r.visits, r.move))
    return tuple(ranked)


@dataclass(frozen=True, slots=True)
class Choice:
    """A position where one move is clearly best: the move, the runner-up, and the ranking they came from."""

    best: Ranked
    second: Ranked | None
    ranked: tuple[Ranked, ...]

    @property
    def margin(self) -> float:
        """How much more of the solver's chance the best move keeps than the runner-up (1.0 when it is forced)."""
        return self.best.value - (self.second.value if self.second is not None else 0.0)


def wins_at_once(state: GameState, move: str) -> bool:
    """Tell whether ``move`` ends the game in ``state`` with the player to move winning it."""
    mover = state.to_move
    outcome = state.play(move).outcome()
    return mover is not None and outcome is not None and reward_from_outcome(outcome, state.players)[mover] >= 1.0


def _wins_now(state: GameState, ranked: Ranked) -> bool:
    """Tell whether the ranked move is a settled win at once in ``state``."""
    return ranked.exact and wins_at_once(state, ranked.move)


def clear_choice(
    state: GameState,
    *,
    iterations: int,
    seed: int,
    winning: float = WINNING,
    margin: float = MARGIN,
    contenders: int = CONTENDERS,
) -> Choice | None:
    """Return the :class:`Choice` in ``state`` if one move is clearly best and wins (at least ``winning`` of the
    mover's chance, ``margin`` ahead of the runner-up), else None.  A position with one legal move is no puzzle.

    When the best move wins the game at once, every move that does so is a solution (:func:`answer` takes any
    of them), so the runner-up is the best move that does not.
    """
    if len(state.legal_moves()) < 2:
        return None
    ranked = rank_moves(state, iterations=iterations, seed=seed, contenders=contenders)
    best = ranked[0]
    others = ranked[1:]
    if _wins_now(state, best):
        others = tuple(r for r in others if not _wins_now(state, r))
    choice = Choice(best, others[0] if others else None, (best, *others))
    if best.value < winning or choice.margin < margin:
        return None
    return choice


def confirmed_choice(state: GameState, *, iterations: int, seed: int) -> Choice | None:
    """Return the :class:`Choice` in ``state`` if a search finds one and a second search (another seed,
    :data:`CONFIRM_FACTOR` times the playouts) finds the same move by the same margins, else None.

    Two wins at once agree even when they are different moves: every one of them is a solution (a search stops
    at the first it settles, and which that is depends on the seed, as in Querni's many winning removals).
    """
    first = clear_choice(state, iterations=iterations, seed=seed)
    if first is None:
        return None
    second = clear_choice(state, iterations=iterations * CONFIRM_FACTOR, seed=search_seed(seed, 1_000_000))
    if second is None:
        return None
    if second.best.move != first.best.move and not (_wins_now(state, first.best) and _wins_now(state, second.best)):
        return None
    return second  # the larger search's figures are the better ones


def _leaves_round(state: GameState) -> bool:
    """Tell whether the ply that made ``state`` crossed the search's horizon (in Azul, a round's end, after which
    the factories are refilled at random)."""
    know = knowledge_for(state.game)
    return bool(know.has_horizon and know.horizon(state))


def _lead(state: GameState, solver: int) -> int:
    """The solver's score minus the best opponent's (frogs, pieces removed, goal-row weight, points)."""
    scores = state.scores()
    others = [score for seat, score in enumerate(scores) if seat != solver]
    return scores[solver] - max(others) if others else scores[solver]


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A position and the line that solves it, as plain data (what the bot stores and shows).

    ``line`` alternates the solver's moves and the defender's replies and ends on the solver's move (1, 3 or
    5 move texts); ``value`` is the solver's chance with the solution and ``alternatives`` the other first moves
    the search ranked, each with the chance it would have left, best first.  ``goal`` is what the line achieves:
    ``"win"`` (it ends the game, won by the solver) or ``"gain"`` (the solver's lead on the score grows by
    ``gain``) or ``"best"`` (the one move that keeps the win; nothing on the score yet).
    """

    game: str
    position: Mapping[str, Any] = field(hash=False)
    solver: int
    line: tuple[str, ...]
    value: float
    margin: float
    alternatives: tuple[tuple[str, float], ...]
    goal: str
    gain: int
    ply: int
    choices: int
    rating: float

    @property
    def key(self) -> str:
        """A stable name for this puzzle: the same position and solution always give the same key."""
        text = json.dumps([self.game, self.position, list(self.line)], sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @property
    def solver_moves(self) -> tuple[str, ...]:
        """The solver's moves of the line."""
        return self.line[0::2]

    def state(self) -> GameState:
        """The position to solve."""
        from engines import GAMES

        return GAMES[self.game].from_json(self.position)

    def state_at(self, step: int) -> GameState:
        """The position where the solver makes their ``step``-th move (0: the puzzle's own position)."""
        state = self.state()
        for move in self.line[: 2 * step]:
            state = state.play(move)
        return state

    def to_json(self) -> dict[str, Any]:
        """Return the puzzle as plain JSON values."""
        return {
            "game": self.game,
            "position": dict(self.position),
            "solver": self.solver,
            "line": list(self.line),
            "value": round(self.value, 4),
            "margin": round(self.margin, 4),
            "alternatives": [[move, round(value, 4)] for move, value in self.alternatives],
            "goal": self.goal,
            "gain": self.gain,
            "ply": self.ply,
            "choices": self.choices,
            "rating": round(self.rating),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Puzzle:
        """Read a puzzle written by :meth:`to_json`."""
        return cls(
            str(data["game"]),
            dict(data["position"]),
            int(data["solver"]),
            tuple(str(move) for move in data["line"]),
            float(data["value"]),
            float(data["margin"]),
            tuple((str(move), float(value)) for move, value in data["alternatives"]),
            str(data["goal"]),
            int(data["gain"]),
            int(data["ply"]),
            int(data["choices"]),
            float(data["rating"]),
        )


def first_rating(choices: int, solver_moves: int, margin: float) -> float:
    """A new puzzle's rating before anyone tries it: harder with more moves to choose from, a longer line and a
    narrower margin (players' results take over from there).

    >>> first_rating(2, 1, 1.0) < first_rating(30, 1, 0.5) < first_rating(30, 3, 0.4)
    True
    """
    guess = BASE_RATING - 350.0 + 90.0 * math.log2(max(2, choices)) + 200.0 * (solver_moves - 1) - 300.0 * margin
    return max(800.0, min(2400.0, guess))


def make_puzzle(state: GameState, *, iterations: int, seed: int) -> Puzzle | None:
    """Return the puzzle ``state`` makes for the player to move, or None when it makes none (see the module)."""
    solver = state.to_move
    if solver is None or state.outcome() is not None:
        return None
    first = confirmed_choice(state, iterations=iterations, seed=seed)
    if first is None:
        return None
    line = [first.best.move]
    current = state.play(first.best.move)
    step = 1
    while len(line) // 2 + 1 < LINE_MOVES and current.outcome() is None and not _leaves_round(current):
        if current.to_move == solver:
            break  # the solver moves twice running (a stranded opponent): the line ends on its move
        reply_rank = rank_moves(current, iterations=iterations, seed=search_seed(seed, 2 * step))
        reply = reply_rank[0].move
        after_reply = current.play(reply)
        if after_reply.outcome() is not None or _leaves_round(after_reply) or after_reply.to_move != solver:
            break
        following = confirmed_choice(after_reply, iterations=iterations, seed=search_seed(seed, 2 * step + 1))
        if following is None:
            break
        line += [reply, following.best.move]
        current = after_reply.play(following.best.move)
        step += 1
    outcome = current.outcome()
    gain = _lead(current, solver) - _lead(state, solver)
    if outcome is not None and reward_from_outcome(outcome, state.players)[solver] >= 1.0:
        goal = "win"
    elif gain > 0:
        goal = "gain"
    else:
        goal = "best"
    alternatives = tuple((r.move, r.value) for r in first.ranked[1 : 1 + ALTERNATIVES])
    choices = len(state.legal_moves())
    solver_moves = len(line) // 2 + 1
    return Puzzle(
        game=state.game,
        position=state.to_json(),
        solver=solver,
        line=tuple(line),
        value=first.best.value,
        margin=first.margin,
        alternatives=alternatives,
        goal=goal,
        gain=max(0, gain),
        ply=state.ply,
        choices=choices,
        rating=first_rating(choices, solver_moves, first.margin),
    )


def answer(puzzle: Puzzle, step: int, move: str) -> str:
    """Judge ``move``, the solver's ``step``-th move (0 first) of ``puzzle``: ``"solved"`` (the line's last
    move, or a move that wins the game at once by another route when the goal is to win), ``"right"`` (the
    line's move: the defender replies ``puzzle.line[2 * step + 1]`` and the solver moves again) or
    ``"wrong"``.  A move that is not legal here raises the engine's :class:`~engines.base.GameError`."""
    state = puzzle.state_at(step)
    mine = state.parse_move(move)
    after = state.play(mine)
    last = step == len(puzzle.solver_moves) - 1
    if state.move_text(mine) == puzzle.solver_moves[step]:
        return "solved" if last else "right"
    outcome = after.outcome()
    if outcome is not None and reward_from_outcome(outcome, state.players)[puzzle.solver] >= 1.0:
        return "solved"  # a win at once by another route solves a puzzle as well as the line's move
    return "wrong"


__all__ = [
    "CONFIRM_FACTOR",
    "LINE_MOVES",
    "MARGIN",
    "WINNING",
    "Choice",
    "Puzzle",
    "Ranked",
    "answer",
    "clear_choice",
    "confirmed_choice",
    "first_rating",
    "make_puzzle",
    "puzzle_iterations",
    "rank_moves",
    "wins_at_once",
]
