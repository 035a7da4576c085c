"""Querni: race to clear your 16 numbered pieces off a 10x7 board in chains.

Rules in brief (``docs/querni.md`` gives them in full).  Two players,
blue (moves first) and red, each own 16 pieces numbered 1 to 16.  Blue starts on
files b-i of ranks 1-2, red on files b-i of ranks 6-7; the numbers on those
squares are shuffled from the game's seed, each side independently (the
``layout`` option places pieces by hand instead).  A turn is one of:

* a *move* of one of your pieces, either a *step* to an empty king-adjacent
  square, or a *jump* sequence: over one adjacent piece of either colour, in a
  straight orthogonal or diagonal line, onto the empty square right behind it,
  repeated as often as wished, changing direction freely, but never landing on
  a square twice in one turn (the start counts as visited);
* the *removal* of a chain of your own colour: three or more consecutive
  numbers ``a..b`` each king-adjacent to the previous number (any part of a
  longer chain that is itself three or more numbers may go);
* a move, then a removal judged on the position after the move;
* a *pass* (always allowed).

Removing your last piece wins.  A removal that leaves one of your numbers in a
run of fewer than three consecutive remaining numbers loses at once (option
``isolation="no_triple_left"``: lose only when no three consecutive numbers are
left).  After ``draw_plies`` (30) plies in a row without a removal the game is a
draw (``draw_count="moves"`` counts full moves of both players instead).

Notation: squares ``a1`` (bottom left, blue's side) to ``j7``; turns ``c3-e5``
(move: start and end square only, the engine finds the steps or jumps),
``x4-7`` (remove the chain of numbers 4 to 7), ``c3-e5 x4-7`` (both, the move
first) and ``pass``.

>>> state = new(layout={"c3": "B1", "d4": "B2", "e4": "B3", "j7": "R1"})
>>> state.move_text(state.parse_move(" C3 E5  X1..3 "))
'c3-e5 x1-3'
>>> [state.cell_name(c) for c in state.path("c3-e5")]
['c3', 'e5']
>>> after = state.play("c3-e5 x1-3")
>>> after.outcome().termination, after.outcome().winners
(<Termination.CLEARED: 'cleared'>, (0,))
"""

from __future__ import annotations

from engines.base import GameSpec
from engines.querni.board import (
    CELLS,
    COLOUR,
    DEFAULT_DRAW_PLIES,
    DIRECTIONS,
    DRAW_COUNTS,
    EMPTY,
    FILES,
    HEIGHT,
    INDEX,
    ISOLATION_RULES,
    JUMPS,
    LETTERS,
    LINK_BITS,
    MIN_CHAIN,
    NAMES,
    NEAR,
    NEAR_BOTH,
    NEAR_SET,
    NO_CELLS,
    NUMBER,
    OPTIONS,
    PASS,
    PIECES,
    SAFE,
    SEATS,
    START_SQUARES,
    STEP_JUMP,
    STRANDS,
    WIDTH,
    WINS,
    QuerniEvent,
    QuerniMove,
    Route,
    Termination,
    is_step,
    jumped_squares,
    piece_code,
    piece_value,
    seat_names,
)
from engines.querni.generate import has_chain_left, judge_removal, present_numbers, short_runs
from engines.querni.moves import MOVES
from engines.querni.saves import from_json, new, normalise_layout, start_board
from engines.querni.state import QuerniState

SPEC = GameSpec(
    name="querni",
    title="Querni",
    min_players=2,
    max_players=2,
    new=new,
    from_json=from_json,
    seat_names=seat_names,
    options=OPTIONS,
    test_configs=(
        {},
        {"isolation": "no_triple_left"},
        {"draw_count": "moves"},
        {"draw_plies": 6},
        {"draw_plies": 4, "draw_count": "moves", "isolation": "no_triple_left"},
    ),
    bench_configs=((2, {}),),
    moves=MOVES,
)

__all__ = [
    "CELLS",
    "COLOUR",
    "DEFAULT_DRAW_PLIES",
    "DIRECTIONS",
    "DRAW_COUNTS",
    "EMPTY",
    "FILES",
    "HEIGHT",
    "INDEX",
    "ISOLATION_RULES",
    "JUMPS",
    "LETTERS",
    "LINK_BITS",
    "MIN_CHAIN",
    "MOVES",
    "NAMES",
    "NEAR",
    "NEAR_BOTH",
    "NEAR_SET",
    "NO_CELLS",
    "NUMBER",
    "OPTIONS",
    "PASS",
    "PIECES",
    "SAFE",
    "SEATS",
    "SPEC",
    "START_SQUARES",
    "STEP_JUMP",
    "STRANDS",
    "WIDTH",
    "WINS",
    "QuerniEvent",
    "QuerniMove",
    "QuerniState",
    "Route",
    "Termination",
    "from_json",
    "has_chain_left",
    "is_step",
    "judge_removal",
    "jumped_squares",
    "new",
    "normalise_layout",
    "piece_code",
    "piece_value",
    "present_numbers",
    "seat_names",
    "short_runs",
    "start_board",
]
