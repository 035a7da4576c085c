"""The computer's review of a finished game: how each move changed every player's chances, as data.

The same Monte Carlo search that plays the hard level judges the players' moves.  For each position of
a game, :func:`judge` grows one tree from it with a fixed number of playouts (so a review is the same on
any machine and for any seed it is given), then plays extra playouts from the search's preferred move
and from the move actually played, so that both are judged on many playouts even when the search
barely tried the played move.  A move's *loss* is how much of the mover's expected reward (their chance
to win, a draw counting half; with three or four players, the share of opponents they are expected to
beat) the move gave up against the search's preferred move.  A move the search itself prefers loses
nothing; no move gains.

Verdicts by loss (on the 0–1 scale of that chance, as in Lichess's win-percentage thresholds, set wider
because a search of a few hundred playouts judges a move to a few points): an *inaccuracy* gives up at
least :data:`INACCURACY` (8 points), a *mistake* :data:`MISTAKE` (15), a *blunder* :data:`BLUNDER` (25).

A review is a :class:`Review` of :class:`Judgement` s (plain data: numbers and move texts); the text
layer says it in the player's language and the render layer draws its graph.  Everything here is pure
and deterministic: the bot runs :func:`judge_saved` in its computer workers, one position per call, so
a review reports its progress and never holds a worker for long.

>>> from engines import GAMES
>>> state = GAMES["pond"].new(variant="mini", seed=1)
>>> first = judge(state, state.legal_moves()[0], iterations=60, seed=3)
>>> first == judge(state, state.legal_moves()[0], iterations=60, seed=3), first.loss >= 0.0
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ai import LEVELS, search_seed
from ai.knowledge import Reward, game_module, knowledge_for, reward_from_outcome
from ai.mcts import Node, _Tree
from engines.base import FORFEIT_CODES, GameState
from engines.rng import Rng

# Verdict thresholds on the mover's chance (0–1): the loss at which a move becomes each, mildest first.
INACCURACY = 0.08
MISTAKE = 0.15
BLUNDER = 0.25
VERDICTS: tuple[tuple[str, float], ...] = (("blunder", BLUNDER), ("mistake", MISTAKE), ("inaccuracy", INACCURACY))

# Playouts per position when a game's ``ai/<game>.py`` sets no ``REVIEW_ITERATIONS``.
DEFAULT_ITERATIONS = 400
# The preferred and the played move each get this share of the position's playouts again, searched
# from the move itself, so that both are known well however little the first search tried them.
EXTRA_SHARE = 0.5
# How many moves a review singles out per player, and how many turning points it marks on the graph.
COSTLIEST = 3
TURNING_POINTS = 3


def review_iterations(game: str) -> int:
    """Return the playouts per position a review of ``game`` spends (``REVIEW_ITERATIONS`` in ``ai/<game>.py``)."""
    return int(getattr(game_module(game), "REVIEW_ITERATIONS", DEFAULT_ITERATIONS))


def verdict_of(loss: float) -> str | None:
    """Name what a move that gave up ``loss`` of the mover's chance was: a blunder, mistake, inaccuracy or None.

    >>> verdict_of(0.3), verdict_of(0.16), verdict_of(0.1), verdict_of(0.02)
    ('blunder', 'mistake', 'inaccuracy', None)
    """
    for name, threshold in VERDICTS:
        if loss >= threshold:
            return name
    return None


@dataclass(frozen=True, slots=True)
class Judgement:
    """One position of a game judged: the move played there, the search's preferred move, and their values.

    ``before`` is each player's expected reward in the position (with the preferred move), ``after``
    each player's after the move played; ``best_value`` and ``played_value`` are the mover's.
    """

    ply: int
    player: int
    played: str
    best: str
    before: tuple[float, ...]
    after: tuple[float, ...]
    best_value: float
    played_value: float
    choices: int  # legal moves in the position (1: the move was forced)

    @property
    def loss(self) -> float:
        """How much of the mover's chance the move gave up against the preferred one (never below 0)."""
        if self.played == self.best:
            return 0.0
        return max(0.0, self.best_value - self.played_value)

    @property
    def verdict(self) -> str | None:
        """``"blunder"``, ``"mistake"``, ``"inaccuracy"`` or None (see the thresholds above)."""
        return verdict_of(self.loss)

    def to_json(self) -> dict[str, Any]:
        """Return this judgement as plain JSON values."""
        return {
            "ply": self.ply,
            "player": self.player,
            "played": self.played,
            "best": self.best,
            "before": [round(v, 4) for v in self.before],
            "after": [round(v, 4) for v in self.after],
            "best_value": round(self.best_value, 4),
            "played_value": round(self.played_value, 4),
            "choices": self.choices,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Judgement:
        """Read a judgement written by :meth:`to_json`."""
        return cls(
            int(data["ply"]),
            int(data["player"]),
            str(data["played"]),
            str(data["best"]),
            tuple(float(v) for v in data["before"]),
            tuple(float(v) for v in data["after"]),
            float(data["best_value"]),
            float(data["played_value"]),
            int(data["choices"]),
        )


@dataclass(frozen=True, slots=True)
class Summary:
    """One player's review in numbers: moves judged, average loss per move and the count of each verdict."""

    player: int
    moves: int
    average_loss: float
    inaccuracies: int
    mistakes: int
    blunders: int


@dataclass(frozen=True, slots=True)
class Review:
    """A whole game judged: its judgements in order, and the final result when the game ended on the board."""

    game: str
    players: int
    iterations: int
    judgements: tuple[Judgement, ...]
    final: tuple[float, ...] | None = None  # each player's reward at the end (None: ended off the board)

    def curve(self) -> list[tuple[float, ...]]:
        """Each player's expected reward before the first move and after every move (the graph's points)."""
        if not self.judgements:
            return [self.final] if self.final is not None else []
        points = [self.judgements[0].before]
        points += [judged.after for judged in self.judgements]
        if self.final is not None:
            points[-1] = self.final  # the game's own result, not an estimate of it
        return points

    def summary(self, player: int) -> Summary:
        """Return ``player``'s :class:`Summary` (forced moves count as moves, with no loss)."""
        own = [judged for judged in self.judgements if judged.player == player]
        verdicts = [judged.verdict for judged in own]
        average = sum(judged.loss for judged in own) / len(own) if own else 0.0
        return Summary(
            player,
            len(own),
            average,
            verdicts.count("inaccuracy"),
            verdicts.count("mistake"),
            verdicts.count("blunder"),
        )

    def costliest(self, player: int, count: int = COSTLIEST) -> tuple[Judgement, ...]:
        """Return ``player``'s ``count`` costliest moves that lost anything worth naming, costliest first."""
        own = [judged for judged in self.judgements if judged.player == player and judged.verdict is not None]
        own.sort(key=lambda judged: (-judged.loss, judged.ply))
        return tuple(own[:count])

    def turning_points(self, count: int = TURNING_POINTS) -> tuple[int, ...]:
        """Return the plies of the game's turning points: its costliest mistakes and blunders, in order of play."""
        turning = [judged for judged in self.judgements if judged.loss >= MISTAKE]
        turning.sort(key=lambda judged: (-judged.loss, judged.ply))
        return tuple(sorted(judged.ply for judged in turning[:count]))

    def to_json(self) -> dict[str, Any]:
        """Return the review as plain JSON values (what the bot stores)."""
        return {
            "game": self.game,
            "players": self.players,
            "iterations": self.iterations,
            "judgements": [judged.to_json() for judged in self.judgements],
            "final": None if self.final is None else list(self.final),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Review:
        """Read a review written by :meth:`to_json`."""
        final = data.get("final")
        return cls(
            str(data["game"]),
            int(data["players"]),
            int(data["iterations"]),
            tuple(Judgement.from_json(item) for item in data["judgements"]),
            None if final is None else tuple(float(v) for v in final),
        )


def _mean(total: list[float], count: int) -> tuple[float, ...]:
    return tuple(value / count for value in total)


def _value_of(tree: _Tree, child: Node, extra: int, players: int) -> tuple[float, ...]:
    """Search ``extra`` playouts from ``child`` and return each player's mean reward over them."""
    if child.exact is not None:
        return tuple(child.exact)
    total = [0.0] * players
    runs = max(1, extra)
    for _ in range(runs):
        reward: Reward = tree.iterate(child)
        for seat in range(players):
            total[seat] += reward[seat]
        if child.exact is not None:
            return tuple(child.exact)
    return _mean(total, runs)


def _mover_value(child: Node, mover: int) -> float:
    if child.exact is not None:
        return child.exact[mover]
    return child.total / child.visits if child.visits else 0.0


def judge(state: GameState, played: Any, *, iterations: int, seed: int = 0) -> Judgement:
    """Judge the move ``played`` (a move of ``state``, or its text) with ``iterations`` playouts of the hard search.

    ``played=None`` judges the search's own preferred move (a hint).
    """
    if isinstance(played, str):
        played = state.parse_move(played)
    moves = state.legal_moves()
    mover = state.to_move
    if mover is None or not moves:
        raise ValueError("The game is over: there is no move to judge.")
    level = LEVELS["hard"].for_game(state.game)
    know = knowledge_for(state.game, level.tuning, generic=not level.knowledge)
    tree = _Tree(know, Rng(seed))
    root = Node(None, state, -1, 0.0)
    for _ in range(iterations if len(moves) > 1 else 0):
        tree.iterate(root)
        if root.exact is not None:
            break
    extra = int(iterations * EXTRA_SHARE)
    if len(moves) == 1:
        best_child = tree.child_for(root, moves[0])
    elif root.exact is not None:
        target = root.exact[mover]
        best_child = next(c for c in root.children if c.exact is not None and c.exact[mover] >= target)
    else:
        best_child = max(root.children, key=lambda c: (c.visits, _mover_value(c, mover)))
    played_child = best_child if played is None else tree.child_for(root, played)
    players = state.players
    after = _value_of(tree, played_child, extra, players)
    before = after if best_child is played_child else _value_of(tree, best_child, extra, players)
    return Judgement(
        ply=state.ply,
        player=mover,
        played=state.move_text(played_child.move),
        best=state.move_text(best_child.move),
        before=before,
        after=after,
        best_value=_mover_value(best_child, mover),
        played_value=_mover_value(played_child, mover),
        choices=len(moves),
    )


def judge_saved(game: str, state_json: Mapping[str, Any], played: str, iterations: int, seed: int) -> dict[str, Any]:
    """Judge one saved position's move and return the :class:`Judgement` as JSON (for a worker process)."""
    from engines import GAMES

    spec = GAMES.get(game)
    if spec is None:
        raise ValueError(f"Unknown game {game!r}.")
    state = spec.from_json(state_json)
    return judge(state, played, iterations=iterations, seed=seed).to_json()


def final_rewards(state: GameState) -> tuple[float, ...] | None:
    """Return each player's reward in a finished game (None if it is not over, or ended by a forfeit)."""
    outcome = state.outcome()
    if outcome is None or str(outcome.termination) in FORFEIT_CODES:
        return None
    return tuple(reward_from_outcome(outcome, state.players))


def review_game(
    states: Sequence[GameState],
    moves: Sequence[str],
    *,
    iterations: int | None = None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review a game: ``states[i]`` is the position where ``moves[i]`` was played; ``states[-1]`` may be the end.

    ``progress(done, total)`` is called after each position.  The same game, budget and seed give the
    same review.
    """
    if not moves:
        raise ValueError("There is no move to review.")
    game = states[0].game
    budget = review_iterations(game) if iterations is None else iterations
    judged = []
    for index, move in enumerate(moves):
        state = states[index]
        judged.append(judge(state, move, iterations=budget, seed=search_seed(seed, state.ply)))
        if progress is not None:
            progress(index + 1, len(moves))
    final = final_rewards(states[-1]) if len(states) > len(moves) else None
    return Review(game, states[0].players, budget, tuple(judged), final)


def hint(state: GameState, *, iterations: int | None = None, seed: int = 0) -> Judgement:
    """Return the search's suggestion in ``state``: a judgement whose ``played`` and ``best`` are the move to play."""
    budget = review_iterations(state.game) if iterations is None else iterations
    return judge(state, None, iterations=budget, seed=seed)


__all__ = [
    "BLUNDER",
    "INACCURACY",
    "MISTAKE",
    "Judgement",
    "Review",
    "Summary",
    "final_rewards",
    "hint",
    "judge",
    "judge_saved",
    "review_game",
    "review_iterations",
    "verdict_of",
]
