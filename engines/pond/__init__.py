"""Pond: eggs, tadpoles and frogs on a 4x4 or 5x5 pond.

Rules in brief (``docs/pond.md`` gives them in full).  Two players,
light (moves first) and dark.  A turn is *Action*, *Develop*, *Score*:

* Action: place an egg from your spawn on any empty cell, move one of your
  tadpoles to an orthogonally adjacent empty cell, or move one of your frogs one
  or two cells in a straight orthogonal line onto an empty cell (hopping over
  whatever is in between).
* Develop: every piece orthogonally next to where the acting piece now stands
  advances one face, Egg -> Tadpole -> Frog -> Egg, whoever owns it.
* Score: every run of three or more identical faces in a row or column leaves
  the board, each piece to its owner's score.
The game ends when a player reaches the target (more scored pieces wins; equal
is a draw), when the player to move has no action (they lose), or at the
``max_plies`` safety limit (a draw).

Notation: cells ``a1`` (bottom left) to ``d4`` (``e5`` on the large board);
moves ``place b3`` and ``move a3 c3``.

>>> state = new(variant="mini")
>>> state = state.play("place b2").play("Place  C2")
>>> state.scores(), state.to_move, state.move_text(state.legal_moves()[0])
((0, 0), 0, 'place a1')
"""

from __future__ import annotations

from engines.base import GameSpec
from engines.pond.board import (
    DEFAULT_MAX_PLIES,
    DEFAULT_VARIANT,
    DEVELOP,
    EGG,
    EMPTY,
    FACE,
    FACE_LETTERS,
    FACES,
    GEOMETRY,
    OPTIONS,
    OWNER,
    SEATS,
    VARIANTS,
    Geometry,
    PondEvent,
    PondMove,
    Termination,
    Variant,
    piece_code,
    piece_from_code,
    seat_names,
)
from engines.pond.moves import MOVES
from engines.pond.saves import from_json, new
from engines.pond.state import PondState

SPEC = GameSpec(
    name="pond",
    title="Pond",
    min_players=2,
    max_players=2,
    new=new,
    from_json=from_json,
    seat_names=seat_names,
    options=OPTIONS,
    test_configs=({}, {"variant": "mini"}, {"variant": "large"}, {"variant": "mini", "spawn": 11}, {"max_plies": 40}),
    bench_configs=((2, {"variant": "standard"}), (2, {"variant": "mini"}), (2, {"variant": "large"})),
    moves=MOVES,
)

__all__ = [
    "DEFAULT_MAX_PLIES",
    "DEFAULT_VARIANT",
    "DEVELOP",
    "EGG",
    "EMPTY",
    "FACE",
    "FACES",
    "FACE_LETTERS",
    "GEOMETRY",
    "MOVES",
    "OPTIONS",
    "OWNER",
    "SEATS",
    "SPEC",
    "VARIANTS",
    "Geometry",
    "PondEvent",
    "PondMove",
    "PondState",
    "Termination",
    "Variant",
    "from_json",
    "new",
    "piece_code",
    "piece_from_code",
    "seat_names",
]
