"""What the search may know about a game: evaluation, move priors, rollout policy, horizon.

:class:`Knowledge` is the game-independent default: it knows nothing but the
engine contract, so every registered game works with it.  A game's own module in
this package (``ai/<name>.py``, the game's name in :data:`engines.GAMES`) subclasses
it where knowledge pays and names it ``KNOWLEDGE``; :func:`knowledge_for` imports
that module by the game's name and picks it.

Rewards are tuples with one float per player in ``[0, 1]``: 1 for sole first
place, 0 for sole last place, shared places splitting the difference, so two- to
four-player games are searched max^n style (each player maximises their own).

>>> reward_from_places((1, 2))
(1.0, 0.0)
>>> reward_from_places((1, 1, 3))
(0.75, 0.75, 0.0)
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, Generic, TypeVar

from engines.base import Outcome, places_from_ranking
from engines.rng import Rng

Reward = tuple[float, ...]
# The state type a game's knowledge reads (its engine's state class).
S = TypeVar("S")


def reward_from_places(places: Sequence[int]) -> Reward:
    """Score each player by the share of opponents they beat, a tie counting half."""
    count = len(places)
    if count <= 1:
        return (1.0,) * count
    return tuple(
        (sum(1 for other in places if other > mine) + 0.5 * (sum(1 for other in places if other == mine) - 1))
        / (count - 1)
        for mine in places
    )


def reward_from_outcome(outcome: Outcome, players: int) -> Reward:
    """Turn a finished game's :class:`Outcome` into per-player rewards (from ``places``)."""
    places = outcome.places
    if len(places) != players:
        # An engine that leaves ``places`` out still names its winners.
        places = tuple(1 if p in outcome.winners else 2 for p in range(players))
    return reward_from_places(places)


def logistic(x: float) -> float:
    """Return ``1 / (1 + e^-x)`` without overflowing for large ``|x|``."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


def soft_reward(margins: Sequence[float]) -> Reward:
    """Turn per-player advantages into rewards in ``(0, 1)``: pairwise logistic, averaged over opponents.

    ``margins[p]`` is how well player ``p`` stands on some scale where a
    difference of 1 is worth about one logistic unit; the reward is the expected
    share of opponents beaten, like :func:`reward_from_places`.
    """
    count = len(margins)
    if count <= 1:
        return (1.0,) * count
    return tuple(
        sum(logistic(margins[p] - margins[q]) for q in range(count) if q != p) / (count - 1) for p in range(count)
    )


class Knowledge(Generic[S]):
    """The game-independent default: random rollouts to the end, a score-based evaluation.

    Subclasses override what they know better.  Every method must be a pure
    function of its arguments (and of ``rng`` where given), so the search stays
    deterministic for a seed.  Class attributes are the game's search settings
    and tuning weights; a level may override any of them on its instance (see
    :func:`knowledge_for`).
    """

    # UCT's exploration constant (rewards lie in [0, 1]).
    exploration: float = 0.7
    # Weight of a move's prior in the progressive bias ``prior_weight * prior / (visits + 1)``.
    prior_weight: float = 1.0
    # Progressive widening: a node may have ``2 + widening * sqrt(visits)`` children, the best
    # priors first; 0 expands every move before revisiting any (plain UCT).
    widening: float = 0.0
    # Under widening, whether a node whose selection falls on a settled child (a solved line) expands its
    # next move instead: revisiting the settled child teaches nothing, and only a node with every move
    # expanded can be settled itself.
    widen_past_settled: bool = False
    # Random plies played from a new leaf before :meth:`evaluate` is trusted; None plays to the end.
    rollout_depth: int | None = None
    # A rollout never runs longer than this, whatever ``rollout_depth`` says (a game with a generous
    # safety limit could otherwise spend a whole move's budget in one playout).
    max_rollout_plies: int = 200
    # Whether :meth:`priors` wants the position after every move (the search then computes them once
    # per node and reuses them for the children, so a lookahead costs nothing extra).
    priors_use_children: bool = False
    # What freeing the tree is first assumed to cost per playout, in seconds, before the search has
    # measured it (None: the search's default, ``ai.mcts.DEFAULT_FREE_COST``, shared by every tree of the
    # game); the search stops that much before its deadline for every playout it will drop.
    free_cost: float | None = None
    # Whether :meth:`horizon` is worth calling at all (it is called on every ply of a rollout).
    has_horizon: bool = False
    # Implicit minimax backups: a node's value in selection mixes this share of the max^n value of
    # :meth:`move_values` backed up through the tree with ``1 -`` it of the playouts' mean.  0 (the
    # default) is plain UCT on the means.
    implicit_weight: float = 0.0
    # Whether :meth:`rollout_move` overrides the uniform choice.
    has_rollout_policy: bool = False

    def evaluate(self, state: S) -> Reward:
        """Estimate each player's reward in a position that is not over.

        The default ranks the current scores softly: a leader is favoured, not
        certain to win, so a rollout cut short by the length cap still tells
        the search something without pretending to know the result.
        """
        scores = state.scores()  # type: ignore[attr-defined]
        rank = reward_from_places(places_from_ranking(tuple(scores)))
        return tuple(0.25 + 0.5 * r for r in rank)

    def lookahead_priors(self, state: S, children: Sequence[S], players: int) -> list[float]:
        """Value each child for the mover: its result when the game ended there, else :meth:`evaluate`."""
        player = state.to_move  # type: ignore[attr-defined]
        assert player is not None
        return [value[player] for value in self.child_values(children, players)]

    def move_values(self, state: S, moves: Sequence[Any], children: Sequence[S] | None) -> list[Reward] | None:
        """Value the position after each move for every player (for implicit minimax), or None if unknown.

        ``children`` holds those positions when :attr:`priors_use_children` is set, else None.
        """
        if children is None:
            return None
        return self.child_values(children, state.players)  # type: ignore[attr-defined]

    def child_values(self, children: Sequence[S], players: int) -> list[Reward]:
        """Value each position for every player: its result when the game ended there, else :meth:`evaluate`."""
        out = []
        for child in children:
            outcome = child.outcome()  # type: ignore[attr-defined]
            out.append(reward_from_outcome(outcome, players) if outcome is not None else self.evaluate(child))
        return out

    def priors(self, state: S, moves: Sequence[Any], children: Sequence[S] | None) -> list[float] | None:
        """Return a prior value in ``[0, 1]`` for each move (for the mover), or None for no opinion.

        ``children`` holds the position after each move when
        :attr:`priors_use_children` is set, else None.
        """
        return None

    def rollout_move(self, state: S, moves: Sequence[Any], rng: Rng) -> Any:
        """Pick the next move of a rollout (uniformly at random by default)."""
        return moves[rng.below(len(moves))]

    def horizon(self, state: S) -> bool:
        """Tell whether the search must stop here and evaluate, e.g. before hidden chance."""
        return False


KnowledgeFactory = Callable[[], "Knowledge[Any]"]


def knowledge_class(game: str) -> KnowledgeFactory | None:
    """Return ``KNOWLEDGE`` of the module ``ai/<game>.py`` for a registered game, or ``None`` if it has none."""
    module = game_module(game)
    found: KnowledgeFactory | None = getattr(module, "KNOWLEDGE", None)
    return found


def game_module(game: str) -> ModuleType | None:
    """Return the search's module of a registered ``game`` (``GAMES[game].module("ai")``), or ``None`` if none."""
    from engines import GAMES

    spec = GAMES.get(game)
    if spec is None:
        return None
    name = spec.module("ai")
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if not f"{name}.".startswith(f"{missing.name}."):  # the module, or its package, is not there
            raise
        return None


def knowledge_for(game: str, overrides: Sequence[tuple[str, Any]] = (), generic: bool = False) -> Knowledge[Any]:
    """Return a fresh instance of ``game``'s knowledge (the generic one if none, or if ``generic``).

    ``overrides`` sets attributes on the instance, e.g. ``(("widening", 1.0),)``;
    an unknown name raises ``ValueError``.
    """
    factory = None if generic else knowledge_class(game)
    know = factory() if factory is not None else Knowledge[Any]()
    for name, value in overrides:
        if name.startswith("_") or not hasattr(know, name) or callable(getattr(know, name)):
            raise ValueError(f"{type(know).__name__} has no setting {name!r}.")
        setattr(know, name, value)
    return know
