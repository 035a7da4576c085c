"""Summer: two players race weighted pieces across plus and minus cells.

Rules in brief (``docs/summer.md`` gives them in full).  An N×N board
(``size`` 3 to 12, default 8), square or hexagonal.  White fills rank 1 and moves
first, Black fills rank N; White's weights are drawn from 1 to N and Black's are
a permutation of them.  Every cell between the start rows is *plus* or *minus*.

* A piece moves one cell forward, diagonally forward or sideways, never back.
  On the hex board (odd rows shifted half a cell right) it moves to one of the
  two cells in the row ahead or one of the two beside it.  Any cell will do.
* Onto an own piece (merge): lighter mover -> the sum, heavier mover -> the
  difference, equal -> both removed.
* Onto an enemy (collision): ``classic`` -- the heavier survives minus the
  lighter, equal -> both removed; ``field`` -- on a plus cell the mover always
  wins and adds the enemy's weight, elsewhere classic.
* Then the cell's +1 or -1 applies to the surviving piece if it is the mover's;
  a piece that reaches 0 is removed.
* When all White pieces stand on rank N (or White has none), Black gets one last
  ply; when all Black pieces stand on rank 1 (or Black has none), the game ends.
  Each side scores the weight of its own pieces on the opponent's start row;
  higher wins.  ``max_plies`` (default 4·N·N) is a safety limit that scores the
  position as it stands.

Running out of moves: with N >= 3 every piece has a cell beside it, and any cell
is a legal target, so only a side with no pieces could lack a move.  The end
bookkeeping never hands the turn to such a side: Black with no pieces counts as
arrived, which ends the game at once (rule i); White with no pieces counts as
arrived, so after White's ply Black gets its one last ply (rule ii) and after a
Black ply the game ends (rule iii).  Hence ``legal_moves()`` is empty exactly
when the game is over, and no "pass" move exists.

Notation: cells ``a1`` (White's side, left) to ``h8``, the same names on the hex
board; a move is ``c2-c3`` (lenient input: ``C2 c3``, ``c2 - c3``).

>>> state = new(size=3, weights=[1, 2, 3], black_weights=[3, 1, 2], terrain=["...", "+-+", "..."])
>>> state = state.play("C1 b2")
>>> state.last_event.action, state.last_event.weight, state.last_event.result
('moved', 3, 2)
>>> state.move_text(state.legal_moves()[0]), state.scores()
('a3-a2', (0, 0))
"""

from __future__ import annotations

from engines.base import GameSpec
from engines.summer.board import (
    ACTIONS,
    COLLIDED,
    DEFAULT_SIZE,
    DESTROYED,
    FIELD_WIN,
    FILES,
    MAX_PLIES_LIMIT,
    MAX_SIZE,
    MERGED,
    MIN_SIZE,
    MODES,
    MOVED,
    OPTIONS,
    PLIES_PER_CELL,
    SEATS,
    SHAPES,
    Geometry,
    SummerEvent,
    SummerMove,
    Termination,
    geometry,
    owner_of,
    piece_code,
    piece_from_code,
    resolve,
    seat_names,
)
from engines.summer.moves import MOVES
from engines.summer.saves import from_json, new
from engines.summer.state import SummerState

SPEC = GameSpec(
    name="summer",
    title="Summer",
    min_players=2,
    max_players=2,
    new=new,
    from_json=from_json,
    seat_names=seat_names,
    options=OPTIONS,
    test_configs=(
        {},
        {"board": "hex"},
        {"mode": "field"},
        {"board": "hex", "mode": "field", "size": 5},
        {"size": 3},
        {"board": "hex", "size": 12},
    ),
    bench_configs=((2, {}), (2, {"board": "hex"})),
    moves=MOVES,
)

__all__ = [
    "ACTIONS",
    "COLLIDED",
    "DEFAULT_SIZE",
    "DESTROYED",
    "FIELD_WIN",
    "FILES",
    "MAX_PLIES_LIMIT",
    "MAX_SIZE",
    "MERGED",
    "MIN_SIZE",
    "MODES",
    "MOVED",
    "MOVES",
    "OPTIONS",
    "PLIES_PER_CELL",
    "SEATS",
    "SHAPES",
    "SPEC",
    "Geometry",
    "SummerEvent",
    "SummerMove",
    "SummerState",
    "Termination",
    "from_json",
    "geometry",
    "new",
    "owner_of",
    "piece_code",
    "piece_from_code",
    "resolve",
    "seat_names",
]
