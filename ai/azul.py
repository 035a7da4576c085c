"""What the search knows about Azul: the score the walls will have, and where the round ends.

* Horizon: the factories of the next round are drawn from the bag at random, so
  the search stops where a round ends and evaluates; it never looks at tiles it
  could not see (the bag's order is in the state, but a fair player ignores it).
  Near the end of a round every line reaches the horizon, and the search
  settles the position exactly (max^n over the evaluations) and stops early.
* Evaluation, per player: the current score, plus the points the complete
  pattern lines will score at this round's tiling (placed top to bottom as the
  rules do), minus the floor line's penalty, plus a share of what the
  unfinished lines would score once complete, plus the end-of-game bonuses in
  proportion to how near each row, column and colour is to completion (in full
  once the game is about to end).  Players are compared pairwise through a
  logistic, so two to four players all work.
* Priors: the evaluation one ply ahead; a small exploration constant, as moves
  differ by little.  Easy and medium play the positions to value them (the
  search reuses them as its children); hard values a take without playing it,
  from the mover's board after it (a take changes nothing else until the
  round ends, and equal takes from different factories share one value): the
  same values, about eight times cheaper for a new node.
* No rollouts: a new leaf is valued by the evaluation itself, which knows the
  round's tiling already.  (A rollout policy is here for tuning with
  ``rollout_depth``: the best of a few random takes by the tiles they would
  drop to the floor.)
* Hard (see ``LEVEL_SETTINGS``): a round's first moves offer
  50 to 90 takes, most of them poor, so hard widens progressively (only the best-valued
  moves of a young node compete, more as it is visited) and backs up the
  max^n value of the evaluations (implicit minimax) beside the mean, so that a
  line is judged by the opponent's best reply rather than by the average of
  all of them; a node whose best line is settled widens at once, so the
  round's last moves are still settled exactly.  Its tree, holding no
  unplayed positions, is cheap to free, so it stops nearer its deadline: its
  unsolved moves used 0.92 of the budget at 0.3 s and at 1 s (0.80 and 0.77
  before; ``python -m bench.budget_share``).  Against the hard of before
  (paired deals, two players, 2026-12 on a busy two-core machine): 42-0-18 at
  0.3 s a move, 70% [57, 80] (Wilson 95%); 52-2-26 at 1 s, 65% [54, 75] over
  80 games (62.5% and 67.5% in two runs of 40).  Against medium: 19-0-1 at 0.6 s.

>>> from engines import azul
>>> state = azul.new(players=2, seed=16, first_player=0)
>>> expected_points(state)
(0.0, 0.0)
>>> expected_points(state.play("f1 y 2"))  # line 2 complete: 1 point, and a start on three bonuses
(1.152, 0.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ai.knowledge import Knowledge, Reward, soft_reward
from engines import azul
from engines.rng import Rng

# An unfinished pattern line is worth this share of its tile's points, times its fill.
PARTIAL_SHARE = 0.6
# A wall row, column or colour with n of 5 tiles is worth its bonus times (n / 5) ** BONUS_POWER.
BONUS_POWER = 3
LEAVER_MARGIN = -1000.0  # a player who left ranks after everyone still playing

_ROWS = tuple(tuple(range(5 * r, 5 * r + 5)) for r in range(5))


def _best_column(wall: list[int], row: int, colour: int, grey: bool) -> int:
    """Return the column where ``colour`` goes in ``row`` (the best-scoring legal one on the grey wall), or -1."""
    if not grey:
        column = azul.WALL_COLUMN[row][colour]
        return column if wall[5 * row + column] < 0 else -1
    best, best_points = -1, -1
    for column in azul.grey_columns(wall, row, colour):
        wall[5 * row + column] = colour
        points = azul.tile_points(wall, row, column)
        wall[5 * row + column] = -1
        if points > best_points:
            best, best_points = column, points
    return best


def _board_points(board: azul.Board, grey: bool, tiling_pending: bool) -> tuple[float, list[int], float]:
    """Return (points this round's tiling and floor will add, the wall after it, the unfinished lines' worth)."""
    wall = list(board.wall)
    gained = 0.0
    partial = 0.0
    for row in range(5):
        count = board.line_counts[row]
        if not count:
            continue
        colour = board.line_colours[row]
        column = _best_column(wall, row, colour, grey)
        if column < 0:
            continue
        wall[5 * row + column] = colour
        points = azul.tile_points(wall, row, column)
        if count == row + 1 and tiling_pending:
            gained += points
        else:
            wall[5 * row + column] = -1
            partial += PARTIAL_SHARE * points * count / (row + 1)
    if tiling_pending and board.floor:
        gained -= min(azul.FLOOR_LOSS[len(board.floor)], board.score + gained)
    return gained, wall, partial


def _progress_table(bonus: int, ending: bool) -> tuple[float, ...]:
    """Return a bonus's worth by tiles present (0..5): in full at 5, else by nearness unless the game ends."""
    return tuple(float(bonus) if n == 5 else (0.0 if ending else bonus * (n / 5) ** BONUS_POWER) for n in range(6))


# (rows, columns, colours) progress tables, for a game going on and for one about to end.
_PROGRESS = {
    ending: tuple(_progress_table(b, ending) for b in (azul.ROW_BONUS, azul.COLUMN_BONUS, azul.COLOUR_BONUS))
    for ending in (False, True)
}


def _bonus_progress(wall: list[int], ending: bool) -> float:
    """Return the end-of-game bonuses: in full once the game ends, else by nearness to completion."""
    rows = [0] * 5
    columns = [0] * 5
    colours = [0] * 5
    for i, colour in enumerate(wall):
        if colour >= 0:
            rows[i // 5] += 1
            columns[i % 5] += 1
            colours[colour] += 1
    row_table, column_table, colour_table = _PROGRESS[ending]
    return (
        sum(row_table[n] for n in rows) + sum(column_table[n] for n in columns) + sum(colour_table[n] for n in colours)
    )


# A board's summary: its points after this round, its unfinished lines' worth, its
# bonuses if the game goes on and if it ends, and whether a wall row will be complete.
Summary = tuple[float, float, float, float, bool]
SummaryCache = dict[tuple[azul.Board, bool, bool], Summary]


# The end-of-game bonuses (going on, ending) of a wall, by the wall.
BonusCache = dict[tuple[int, ...], tuple[float, float]]


def _summary(
    board: azul.Board, grey: bool, tiling_pending: bool, cache: SummaryCache, bonuses: BonusCache | None = None
) -> Summary:
    """Return a board's summary, from ``cache`` when this board was seen before (and its wall's bonuses from
    ``bonuses`` when given: most boards of a search share a few walls)."""
    key = (board, grey, tiling_pending)
    found = cache.get(key)
    if found is None:
        gained, wall, partial = _board_points(board, grey, tiling_pending)
        complete_row = any(all(wall[i] >= 0 for i in row) for row in _ROWS)
        if bonuses is None:
            bonus_open, bonus_final = _bonus_progress(wall, False), _bonus_progress(wall, True)
        else:
            wall_key = tuple(wall)
            known = bonuses.get(wall_key)
            if known is None:
                known = bonuses[wall_key] = (_bonus_progress(wall, False), _bonus_progress(wall, True))
            bonus_open, bonus_final = known
        found = (board.score + gained, partial, bonus_open, bonus_final, complete_row)
        cache[key] = found
    return found


def _points(summaries: Sequence[Summary], left: Sequence[int]) -> tuple[float, ...]:
    """Return each player's expected final points from their boards' summaries (see :func:`expected_points`)."""
    # The game ends after this round's tiling if a wall row will be complete.
    ending = any(summary[4] for p, summary in enumerate(summaries) if p not in left)
    out = []
    for p, (points, partial, bonus_open, bonus_final, _) in enumerate(summaries):
        if p in left:
            out.append(0.0)
        elif ending:
            out.append(round(points + bonus_final, 6))
        else:
            out.append(round(points + partial + bonus_open, 6))
    return tuple(out)


def expected_points(state: azul.AzulState, cache: SummaryCache | None = None) -> tuple[float, ...]:
    """Estimate each player's final points from the position (see the module docstring).

    ``cache`` keeps board summaries between calls: most boards are unchanged
    from one position of a search to the next.
    """
    grey = state.grey_wall
    tiling_pending = state.phase != azul.OVER
    if cache is None:
        cache = {}
    return _points([_summary(board, grey, tiling_pending, cache) for board in state.boards], state.left)


def _ends_round(state: azul.AzulState, source: int, colour: int) -> bool:
    """Tell whether taking ``colour`` from ``source`` empties the table (the round's tiling follows)."""
    tiles = state.centre if source == azul.CENTRE else state.factories[source - 1]
    if sum(tiles) != tiles[colour]:
        return False  # other colours stay (a factory's go to the centre)
    if source != azul.CENTRE and state.centre != azul.EMPTY5:
        return False
    return all(f == azul.EMPTY5 for i, f in enumerate(state.factories) if i != source - 1)


class AzulKnowledge(Knowledge[azul.AzulState]):
    """Azul's horizon, evaluation, priors and rollout policy."""

    rollout_depth = 0
    priors_use_children = True
    has_horizon = True
    has_rollout_policy = True
    # Moves differ by a point or two, a few hundredths of reward: a small exploration constant lets
    # the search tell them apart (0.3 beat 0.7 in the tournament).
    exploration = 0.3
    # Points per logistic unit when comparing players.
    points_scale = 6.0
    # Random takes a rollout compares by the tiles they would drop to the floor.
    rollout_samples = 3

    def __init__(self) -> None:
        # One search's board summaries: kept per instance, so they die with the search's tree
        # rather than pile up in a long-lived worker for the garbage collector to walk.
        self._summaries: SummaryCache = {}
        self._bonuses: BonusCache = {}
        # The last position :meth:`_move_values` valued, and its values (priors and the search's values share them).
        self._last_values: tuple[azul.AzulState, list[Reward]] | None = None

    def move_values(
        self, state: azul.AzulState, moves: Sequence[Any], children: Sequence[azul.AzulState] | None
    ) -> list[Reward]:
        if children is not None:
            return self.child_values(children, state.players)
        return self._move_values(state, moves)

    def _move_values(self, state: azul.AzulState, moves: Sequence[Any]) -> list[Reward]:
        """Return :meth:`evaluate` of the position after each move, mostly without playing it.

        A take changes only the mover's pattern lines and floor, so its value comes from the
        mover's board after it (and takes of as many tiles of a colour into the same line, from
        different factories, share it).  A take that ends the round, and a grey-wall tiling
        move, are played.
        """
        if self._last_values is not None and self._last_values[0] is state:
            return self._last_values[1]
        players = state.players
        if state.phase != azul.OFFER:
            values = self.child_values([state.play(move) for move in moves], players)
        else:
            grey, left, player = state.grey_wall, state.left, state.turn
            cache, bonuses = self._summaries, self._bonuses
            summaries = [_summary(board, grey, True, cache, bonuses) for board in state.boards]
            board = state.boards[player]
            from_centre_takes_marker = state.marker < 0
            known: dict[tuple[int, int, int, bool], Reward] = {}
            values = []
            for move in moves:
                source, colour, line, _ = move
                if _ends_round(state, source, colour):
                    values.extend(self.child_values([state.play(move)], players))
                    continue
                taken = (state.centre if source == azul.CENTRE else state.factories[source - 1])[colour]
                took_marker = source == azul.CENTRE and from_centre_takes_marker
                key = (colour, line, taken, took_marker)
                value = known.get(key)
                if value is None:
                    after, _, _ = azul.board_after_take(board, colour, line, taken, took_marker)
                    mine = list(summaries)
                    mine[player] = _summary(after, grey, True, cache, bonuses)
                    value = known[key] = self._reward(_points(mine, left), left)
                values.append(value)
        self._last_values = (state, values)
        return values

    def horizon(self, state: azul.AzulState) -> bool:
        last = state.last
        return last is not None and last.round_ended > 0 and state.outcome() is None

    def evaluate(self, state: azul.AzulState) -> Reward:
        return self._reward(expected_points(state, self._summaries), state.left)

    def _reward(self, points: Sequence[float], left: Sequence[int]) -> Reward:
        margins = [LEAVER_MARGIN if p in left else v / self.points_scale for p, v in enumerate(points)]
        return soft_reward(margins)

    def priors(
        self, state: azul.AzulState, moves: Sequence[Any], children: Sequence[azul.AzulState] | None
    ) -> list[float] | None:
        if children is None:
            # The same values without the positions (see _move_values).
            player = state.to_move
            assert player is not None
            return [value[player] for value in self._move_values(state, moves)]
        return self.lookahead_priors(state, children, state.players)

    def rollout_move(self, state: azul.AzulState, moves: Sequence[Any], rng: Rng) -> Any:
        best = moves[rng.below(len(moves))]
        if state.phase != azul.OFFER:
            return best
        best_cost = self._waste(state, best)
        for _ in range(self.rollout_samples - 1):
            other = moves[rng.below(len(moves))]
            cost = self._waste(state, other)
            if cost < best_cost:
                best, best_cost = other, cost
        return best

    @staticmethod
    def _waste(state: azul.AzulState, move: Any) -> float:
        """Return a quick cost of a take: tiles that fall to the floor, less a bonus for completing a line."""
        source, colour, line, _ = move
        tiles = state.centre if source == azul.CENTRE else state.factories[source - 1]
        taken = tiles[colour]
        if line == azul.FLOOR:
            return float(taken)
        board = state.boards[state.turn]
        room = line - board.line_counts[line - 1]
        return float(max(0, taken - room)) - (0.5 if taken >= room else 0.0)


# The knowledge :func:`ai.knowledge.knowledge_for` finds for this game.
KNOWLEDGE = AzulKnowledge


# Where the levels' own budgets do not fit Azul (see ai.LEVELS), set by paired tournaments (bench.tournament):
# a playout teaches the search more here than in Pond, so medium needs fewer of them.  Hard's search (see the
# module's docstring) is its own: easy and medium search as before.  Tuned at 0.15 s a move,
# 40 paired games each against the hard of before: widening 0.25 with implicit minimax 0.5 won 85%, implicit
# minimax alone 57%, widening 0.5 alone 70%; with both, widening 0.5 won 65-85%, 1.0 72% and 2.0 55%, implicit
# 0.7 and 0.8 did no better than 0.5, nor did exploration 0.5 or points_scale 4.  At 0.3 s: widening 0.25
# won 67-70%, 0.15 75%.  The switches back to the hard of before, for comparisons:
# ``--level old=hard,implicit_weight=0,widening=0,widen_past_settled=false,priors_use_children=true,free_cost=none``.
LEVEL_SETTINGS: dict[str, dict[str, Any]] = {
    "medium": {"iterations": 100},
    "hard": {
        "tuning": (
            ("implicit_weight", 0.5),
            ("widening", 0.15),
            ("widen_past_settled", True),
            # Values takes without playing them (the same values, cheaper); the positions are made on expansion.
            ("priors_use_children", False),
            # Its tree holds only the positions it expanded: freeing it costs about 3 to 6 us a playout.
            ("free_cost", 6e-6),
        )
    },
}

# Playouts per position when the computer reviews a finished game (ai.review): about 0.2–0.5 s a position on
# one core of a small machine, so a whole game is reviewed in well under a minute.
REVIEW_ITERATIONS = 3000
# Playouts per position when mining puzzles (ai.puzzles): half a review's (see ai/summer.py).
PUZZLE_ITERATIONS = 1500
# The self-played games the shipped puzzles are mined from (ai.puzzle_set), taken in turn: every option set a
# server can start, played loosely (easy, sometimes against medium) so that chances are thrown away as people do.
PUZZLE_SETUPS: tuple[dict[str, Any], ...] = (
    {"options": {}},
    {"options": {}, "players": 3, "levels": ("easy", "easy", "easy")},
    {"options": {"wall": "grey"}, "levels": ("easy", "medium")},
    {"options": {}, "players": 4, "levels": ("easy", "easy", "medium", "easy")},
    {"options": {}, "levels": ("medium", "easy")},
)
