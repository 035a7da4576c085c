"""Monte Carlo tree search over the engine contract, for 2 to 4 players.

The search needs only ``legal_moves()``, ``play()``, ``to_move``, ``outcome()``,
``scores()`` and ``players``; what it knows about a particular game comes from a
:class:`~ai.knowledge.Knowledge`.

* Selection: UCT with progressive bias (a move's prior fades as its visits grow)
  and optional progressive widening (only the best-prior moves of a young node
  compete, more as it is visited).
* Rewards are max^n vectors, one float per player: each node keeps the total
  reward of the player who moved into it, so each player maximises their own.
* Implicit minimax backups (when the knowledge sets ``implicit_weight``, after
  Lanctot et al. 2014): a node opened with the evaluation of every move's
  position keeps the max^n value of those evaluations, backed up through the
  tree, and selection mixes it with the playouts' mean.  It pays where the
  evaluation is good and a mean over weak replies misleads (Azul).
* Simulation: a rollout of at most ``rollout_depth`` plies (the game's rollout
  policy), then the game's evaluation; finished games are scored from
  ``Outcome.places``.
* A solver settles nodes whose value more search cannot change: a finished
  game, a position beyond the game's horizon (valued by its evaluation), a
  node where the mover has a move to a settled sole win (reward 1), or one
  where every move is settled (max^n: the mover's best).  So an immediate win
  is found at once, a move that lets the opponent win at once is recognised
  as such, and a search that reaches the end or the horizon on every line
  stops with the exact answer.
* Determinism: all chance comes from one :class:`~engines.rng.Rng`; with an
  iteration budget the same seed gives the same move.  A time budget reads the
  injected ``clock`` between iterations and every few rollout plies.
* Tree reuse: given a :class:`SearchMemory`, a search keeps the subtree of the
  move it chose, and the next search under the same key starts from the node of
  the position actually reached (after the opponents' replies) when the tree
  holds it, with everything already learnt about it.  A tree never crosses a
  horizon (in Azul, a round's end), so hidden chance is never reused.  With an
  iteration budget the same calls in the same order still give the same moves.

>>> from engines import pond
>>> state = pond.new(variant="mini")
>>> result = search(state, iterations=50, seed=1)
>>> result.iterations, result.move in state.legal_moves()
(50, True)
"""

from __future__ import annotations

import gc
import math
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from ai.knowledge import Knowledge, Reward, knowledge_for, reward_from_outcome
from engines.base import GameState
from engines.rng import Rng

Clock = Callable[[], float]

# How many rollout plies pass between two looks at the clock: a ply costs a few
# microseconds, so this keeps the overshoot of a time budget far below 1 ms.
CLOCK_EVERY_PLIES = 16


class Node:
    """One position in the tree, reached by ``move`` from its parent."""

    __slots__ = (
        "best_untried",
        "children",
        "exact",
        "implicit",
        "move",
        "mover",
        "next_states",
        "prior",
        "state",
        "total",
        "untried",
        "values",
        "visits",
    )

    def __init__(self, move: Any, state: GameState, mover: int, prior: float) -> None:
        self.move = move
        self.state = state
        self.mover = mover  # the player who played ``move``; ``total`` is their reward
        self.prior = prior
        self.visits = 0
        self.total = 0.0
        self.children: list[Node] = []
        # Moves not yet made into children, best prior last so that ``pop()`` takes it.
        self.untried: list[tuple[float, int, Any]] | None = None
        self.next_states: list[GameState] | None = None
        # The settled value: a finished game's, a horizon's evaluation, or the solver's.
        self.exact: Reward | None = None
        # Implicit minimax (when the knowledge asks for it): the max^n value of the evaluations below,
        # the evaluation of every move's position (by index), and the best of those not yet children.
        self.implicit: Reward | None = None
        self.values: list[Reward] | None = None
        self.best_untried: Reward | None = None


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search found: the chosen move and a few figures about the tree."""

    move: Any
    iterations: int
    root_visits: tuple[tuple[Any, int, float], ...]  # (move, visits, mean reward for the mover)
    solved: bool  # the root's value is settled (every line reaches the end or the horizon)
    reused: int = 0  # playouts the root already had from an earlier search (tree reuse)


class SearchMemory:
    """The subtrees that recent searches chose, for the next search to start from.

    One memory belongs to one player (a seat of a game, or a bot worker serving
    many, with a key per match and seat): each key keeps the subtree of the move
    its last search chose, and at most ``capacity`` keys are kept, the least
    recently used dropped first.

    >>> from engines import pond
    >>> memory = SearchMemory()
    >>> state = pond.new(variant="mini")
    >>> first = search(state, iterations=200, seed=1, memory=memory, key="game 1")
    >>> reply = state.play(first.move)
    >>> reply = reply.play(reply.legal_moves()[0])
    >>> again = search(reply, iterations=50, seed=2, memory=memory, key="game 1")
    >>> again.reused > 0, again.iterations
    (True, 50)
    """

    def __init__(self, capacity: int = 4, *, freeze: bool = False) -> None:
        self.capacity = capacity
        # Kept trees are tens of thousands of objects that the cyclic collector would walk again and
        # again (a quarter of a second, at random moments, some of them after a move's search and so
        # over its budget).  They hold no cycles, so in a process that does nothing but search (a
        # worker) ``freeze`` hands them to ``gc.freeze()``: reference counting still frees them.
        self.freeze = freeze
        self._trees: OrderedDict[Hashable, Node] = OrderedDict()

    def __len__(self) -> int:
        return len(self._trees)

    def take(self, key: Hashable, state: GameState, depth: int) -> Node | None:
        """Remove ``key``'s subtree and return its node of ``state`` (within ``depth`` plies), or None."""
        kept = self._trees.pop(key, None)
        if kept is None:
            return None
        return _find(kept, state, depth)

    def keep(self, key: Hashable, node: Node) -> list[Node]:
        """Keep ``node`` (a chosen move's subtree) under ``key``; return the trees pushed out, for freeing."""
        self._trees[key] = node
        self._trees.move_to_end(key)
        if self.freeze:
            gc.freeze()
        dropped = []
        while len(self._trees) > self.capacity:
            dropped.append(self._trees.popitem(last=False)[1])
        return dropped

    def clear(self) -> None:
        """Forget every tree."""
        self._trees.clear()


def _find(node: Node, state: GameState, depth: int) -> Node | None:
    """Return the node of ``node``'s subtree (at most ``depth`` plies down) holding ``state``, if it can grow.

    A settled node without children (a finished game, a horizon) is no use as
    a root, so it is not returned.
    """
    target = state.ply
    level = [node]
    for _ in range(depth + 1):
        following = []
        for candidate in level:
            held = candidate.state
            if held.ply == target:
                if held == state and (candidate.exact is None or candidate.children):
                    return candidate
            elif held.ply < target:
                following.extend(candidate.children)
        level = following
        if not level:
            break
    return None


def search(
    state: GameState,
    *,
    iterations: int,
    seed: int = 0,
    knowledge: Knowledge[Any] | None = None,
    temperature: float = 0.0,
    clock: Clock | None = None,
    deadline: float | None = None,
    memory: SearchMemory | None = None,
    key: Hashable = None,
) -> SearchResult:
    """Search ``state`` and return the chosen move with some statistics.

    ``iterations`` caps the new playouts; ``deadline`` (a ``clock()`` reading)
    stops earlier.  With a ``memory``, the search starts from ``key``'s kept
    subtree when it holds ``state``, and keeps the chosen move's subtree there.
    ``temperature`` 0 plays the most visited move; above 0 it samples moves in
    proportion to ``visits ** (1 / temperature)`` (a weaker, livelier player).
    The search's settings (exploration, priors, widening, rollouts) are the
    knowledge's (default: the game's registered knowledge).
    """
    moves = state.legal_moves()
    if not moves:
        raise ValueError("The game is over: there is no move to choose.")
    if deadline is not None and clock is None:
        raise ValueError("A deadline needs a clock.")
    know = knowledge if knowledge is not None else knowledge_for(state.game)
    rng = Rng(seed)
    if len(moves) == 1:
        if memory is not None:
            memory.take(key, state, 0)  # the kept tree would lead nowhere useful now
        return SearchResult(moves[0], 0, ((moves[0], 0, 0.0),), False)
    tree = _Tree(know, rng, clock, deadline)
    # The tree holds no reference cycles, so reference counting frees it all.  The
    # cyclic collector would stop the search for tens of milliseconds to walk
    # thousands of young nodes, breaking tight time budgets, so it is paused until
    # the tree is gone (freed before it resumes, so it never walks it).
    collecting = gc.isenabled()
    gc.disable()
    try:
        root = memory.take(key, state, REUSE_DEPTH) if memory is not None else None
        if root is None:
            root = Node(None, state, -1, 0.0)
        root.move, root.mover = None, -1  # a root's own reward is nobody's
        reused = root.visits
        if clock is None or deadline is None:
            result = _run(root, tree, iterations, temperature, rng, None, reused)
            if memory is not None:
                memory.keep(key, _chosen(root, result.move))
            return result
        # Freeing the tree takes time in proportion to its size (every node holds a position), so the
        # search stops early enough for freeing what it will drop to fit in the budget.
        # A knowledge that names its own first guess grows trees of another shape: it keeps its own measure.
        free_key: Hashable = state.game if know.free_cost is None else (state.game, know.free_cost)
        cost = _FREE_COST.get(free_key, DEFAULT_FREE_COST if know.free_cost is None else know.free_cost)
        result = _run(root, tree, iterations, temperature, rng, deadline, reused, cost, memory is not None)
        grown = clock()
        # What is freed: the moves not chosen (and trees the memory pushes out); the chosen one is kept.
        dropped_visits = root.visits
        if memory is not None:
            kept = _chosen(root, result.move)
            dropped_visits -= kept.visits
            dropped = memory.keep(key, kept)
            dropped_visits += sum(gone.visits for gone in dropped)
            del kept, dropped
        del root, tree
        freed = clock()
        if dropped_visits >= MEASURE_FREE_FROM:
            # Remember the worst recent cost, forgetting slowly, so one quick free does not shorten the margin.
            _FREE_COST[free_key] = max((freed - grown) / dropped_visits, cost * FREE_COST_DECAY)
        return result
    finally:
        if collecting:
            gc.enable()


# How many plies below a kept subtree's root the next position may lie (a player's move and the
# replies of up to three opponents, with a round's tiling in between in Azul).
REUSE_DEPTH = 5


def _chosen(root: Node, move: Any) -> Node:
    """Detach and return the child of ``root`` that ``move`` leads to (a fresh node if it was never expanded)."""
    for child in root.children:
        if child.move == move:
            root.children = []
            return child
    return Node(move, root.state.play(move), -1, 0.0)


# What freeing a game's tree cost per playout (a playout adds at most one node), in this process.
_FREE_COST: dict[Hashable, float] = {}
# The cost assumed before any measurement (measured: 5 to 15 microseconds, 25 on a busy machine).
DEFAULT_FREE_COST = 25e-6
FREE_COST_DECAY = 0.95
# Trees smaller than this are freed too fast to measure the cost per playout well.
MEASURE_FREE_FROM = 2000
# How often (in playouts) the search looks again at how much of its tree it will drop.
DROP_CHECK_EVERY = 32


def _run(
    root: Node,
    tree: _Tree,
    iterations: int,
    temperature: float,
    rng: Rng,
    stop: float | None,
    reused: int = 0,
    free_cost: float = 0.0,
    keeps_best: bool = False,
) -> SearchResult:
    """Grow the tree from ``root`` until the iterations run out or the clock reaches ``stop``; return the choice.

    The search stops ``free_cost`` seconds per playout it will drop before ``stop``: every playout
    of the tree, or, when the best move's subtree is kept (``keeps_best``), those of the others.
    """
    clock = tree.clock
    done = 0
    dropping = root.visits
    while done < iterations:
        if stop is not None and clock is not None:
            if not keeps_best:
                dropping = root.visits
            elif done % DROP_CHECK_EVERY == 0:
                dropping = root.visits - max((child.visits for child in root.children), default=0)
            else:
                dropping += 1
            if clock() + free_cost * dropping >= stop:
                break
        tree.iterate(root)
        done += 1
        if root.exact is not None:
            break
    move = _final_choice(root, temperature, rng)
    stats = tuple(
        (child.move, child.visits, child.total / child.visits if child.visits else 0.0) for child in root.children
    )
    return SearchResult(move, done, stats, root.exact is not None, reused)


class _Tree:
    """The mutable parts of one search, kept together so the hot loop reads locals."""

    def __init__(
        self,
        know: Knowledge[Any],
        rng: Rng,
        clock: Clock | None = None,
        deadline: float | None = None,
    ) -> None:
        self.know = know
        self.rng = rng
        self.exploration = know.exploration
        self.prior_weight = know.prior_weight
        self.widening = know.widening
        self.implicit_weight = know.implicit_weight
        self.widen_past_settled = know.widen_past_settled
        # A rollout's length: the knowledge's depth (to the end when None), never beyond its cap.
        cap = know.max_rollout_plies
        self.depth = cap if know.rollout_depth is None else min(know.rollout_depth, cap)
        self.clock = clock
        self.deadline = deadline

    # -- one iteration ----------------------------------------------------------

    def iterate(self, root: Node) -> Reward:
        """Select a path, expand one node, simulate from it, back the reward up and return it."""
        path = [root]
        node = root
        while True:
            if node.exact is not None:
                reward = node.exact
                break
            if node.untried is None:
                self._open(node)
                if node.exact is not None:
                    reward = node.exact
                    break
            untried = node.untried
            assert untried is not None
            expand = bool(untried) and (self.widening <= 0.0 or len(node.children) < self._width(node.visits))
            if not expand:
                chosen = self._select(node)
                # A settled child teaches the search nothing more: widen instead (so the node can be settled too).
                expand = bool(untried) and self.widen_past_settled and chosen.exact is not None
            if expand:
                child = self._expand(node)
                path.append(child)
                if child.exact is not None:
                    reward = child.exact
                elif not self.depth and child.implicit is not None:
                    reward = child.implicit  # the evaluation, already made when its parent was opened
                else:
                    reward = self._rollout(child.state)
                break
            node = chosen
            path.append(node)
        for visited in path:
            visited.visits += 1
            if visited.mover >= 0:
                visited.total += reward[visited.mover]
        self._solve(path)
        if self.implicit_weight > 0.0:
            _back_implicit(path)
        return reward

    def child_for(self, node: Node, move: Any) -> Node:
        """Return ``node``'s child for ``move``, expanding that move now if it is not a child yet (a review's
        played move, which the search may not have tried)."""
        for child in node.children:
            if child.move == move:
                return child
        if node.untried is None:
            self._open(node)
        untried = node.untried
        assert untried is not None
        for at, entry in enumerate(untried):
            if entry[2] == move:
                untried.append(untried.pop(at))  # the move to expand goes last, where _expand takes it
                return self._expand(node)
        raise ValueError(f"{move!r} is not a legal move here.")

    def _width(self, visits: int) -> int:
        """How many children a node with ``visits`` may have under progressive widening."""
        return 2 + int(self.widening * math.sqrt(visits))

    def _open(self, node: Node) -> None:
        """Prepare a node's moves when it is first passed through (or mark it exact)."""
        state = node.state
        outcome = state.outcome()
        if outcome is not None:
            node.exact = reward_from_outcome(outcome, state.players)
            node.untried = []
            return
        know = self.know
        moves = state.legal_moves()
        children = [state.play(move) for move in moves] if know.priors_use_children else None
        priors = know.priors(state, moves, children)
        # Ties between equal priors are broken by the seed, so that the search
        # does not always prefer the first move in sorted order.
        keys = [self.rng.bits() for _ in moves]
        if priors is None:
            order = sorted(range(len(moves)), key=lambda i: keys[i])
            node.untried = [(0.5, i, moves[i]) for i in order]
        else:
            order = sorted(range(len(moves)), key=lambda i: (priors[i], keys[i]))
            node.untried = [(priors[i], i, moves[i]) for i in order]
        node.next_states = children
        values = know.move_values(state, moves, children) if self.implicit_weight > 0.0 else None
        if values is not None:
            player = state.to_move
            assert player is not None
            node.values = values
            node.best_untried = max(values, key=lambda value: value[player])
            node.implicit = node.best_untried

    def _expand(self, node: Node) -> Node:
        """Make the best untried move of ``node`` into a child."""
        assert node.untried is not None
        prior, index, move = node.untried.pop()
        if node.next_states is not None:
            after = node.next_states[index]
            if not node.untried:
                node.next_states = None  # every child now holds its own state
        else:
            after = node.state.play(move)
        mover = node.state.to_move
        assert mover is not None
        child = Node(move, after, mover, prior)
        node.children.append(child)
        values = node.values
        if values is not None:
            child.implicit = values[index]
            node.best_untried = max((values[i] for _, i, _ in node.untried), key=lambda v: v[mover], default=None)
        outcome = after.outcome()
        if outcome is not None:
            child.exact = reward_from_outcome(outcome, after.players)
            child.untried = []
        elif self.know.has_horizon and self.know.horizon(after):
            # Beyond a horizon lies chance the player cannot see: the evaluation is all we know.
            child.exact = values[index] if values is not None else self.know.evaluate(after)
            child.untried = []
        if child.exact is not None and values is not None:
            child.implicit = child.exact
        return child

    def _select(self, node: Node) -> Node:
        """Pick the child with the best UCT score plus progressive bias."""
        log_n = math.log(node.visits + 1)
        c = self.exploration
        w = self.prior_weight
        a = self.implicit_weight
        best = node.children[0]
        best_score = -math.inf
        for child in node.children:
            n = child.visits
            if child.exact is not None:
                # A settled child needs no exploration: its value is its score.
                score = child.exact[child.mover]
            elif a > 0.0 and child.implicit is not None:
                value = (1.0 - a) * child.total / n + a * child.implicit[child.mover]
                score = value + c * math.sqrt(log_n / n) + w * child.prior / (n + 1)
            else:
                score = child.total / n + c * math.sqrt(log_n / n) + w * child.prior / (n + 1)
            if score > best_score:
                best, best_score = child, score
        return best

    def _rollout(self, state: GameState) -> Reward:
        """Play the rollout policy for up to ``depth`` plies, then evaluate."""
        know = self.know
        rng = self.rng
        policy = know.rollout_move if know.has_rollout_policy else None
        horizon = know.horizon if know.has_horizon else None
        clock, deadline = self.clock, self.deadline
        for ply in range(self.depth):
            moves = state.legal_moves()
            if not moves:
                break
            if horizon is not None and ply and horizon(state):
                return know.evaluate(state)
            if deadline is not None and ply % CLOCK_EVERY_PLIES == CLOCK_EVERY_PLIES - 1:
                assert clock is not None
                if clock() >= deadline:
                    break
            move = policy(state, moves, rng) if policy is not None else moves[rng.below(len(moves))]
            state = state.play(move)
        outcome = state.outcome()
        if outcome is not None:
            return reward_from_outcome(outcome, state.players)
        return know.evaluate(state)

    # -- the solver ---------------------------------------------------------------

    def _solve(self, path: list[Node]) -> None:
        """Propagate exact values up ``path``: a sole win for the mover, or every move exact."""
        for i in range(len(path) - 1, 0, -1):
            child, parent = path[i], path[i - 1]
            if child.exact is None or parent.exact is not None:
                return
            player = parent.state.to_move
            assert player is not None and child.exact is not None
            if child.exact[player] >= 1.0:
                parent.exact = child.exact
            elif parent.untried or not all(c.exact is not None for c in parent.children):
                return
            else:
                parent.exact = max(parent.children, key=lambda c: c.exact[player] if c.exact else 0.0).exact


def _back_implicit(path: list[Node]) -> None:
    """Back the max^n value of the evaluations up ``path`` (implicit minimax): each node takes its mover's best."""
    for node in reversed(path):
        if node.exact is not None:
            node.implicit = node.exact
            continue
        if node.untried is None:
            continue  # not opened yet: its value is its own evaluation
        player = node.state.to_move
        assert player is not None
        best = node.best_untried
        for child in node.children:
            value = child.implicit
            if value is not None and (best is None or value[player] > best[player]):
                best = value
        if best is not None:
            node.implicit = best


def _final_choice(root: Node, temperature: float, rng: Rng) -> Any:
    """Pick the move to play from the root's children."""
    children = root.children
    player = root.state.to_move
    assert player is not None
    if not children:
        # No iteration ran (a zero budget): the best prior, else the first legal move.
        if root.untried:
            return root.untried[-1][2]
        return root.state.legal_moves()[0]
    if root.exact is not None:
        target = root.exact[player]
        for child in children:
            if child.exact is not None and child.exact[player] >= target:
                return child.move
    # A move settled as a loss is never chosen while another move remains in doubt.
    candidates = [c for c in children if not (c.exact is not None and c.exact[player] <= 0.0)]
    if not candidates:
        candidates = children
    if temperature > 0.0:
        weights = [float(c.visits) ** (1.0 / temperature) for c in candidates]
        return _weighted_pick(candidates, weights, rng).move
    return max(candidates, key=lambda c: (c.visits, c.total / c.visits if c.visits else 0.0)).move


def _weighted_pick(items: Sequence[Node], weights: Sequence[float], rng: Rng) -> Node:
    """Pick one item with probability proportional to its weight, from the seeded generator."""
    total = sum(weights)
    if total <= 0.0:
        return items[rng.below(len(items))]
    point = rng.bits() / float(1 << 64) * total
    for item, weight in zip(items, weights, strict=True):
        point -= weight
        if point < 0.0:
            return item
    return items[-1]
