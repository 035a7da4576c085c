"""How a player names a Summer move: the cell of the piece, then the cell it goes to (``c1``, ``c2``).

>>> from engines.summer import new
>>> state = new(seed=1)
>>> MOVES.complete(state, "move", {"from": "C 1"})["to"]
('b1', 'd1', 'b2', 'c2', 'd2')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.moves import MoveField, MoveForm, MoveKind, read_cell
from engines.summer.board import SummerMove

if TYPE_CHECKING:
    from engines.summer.state import SummerState


def _describe(state: SummerState, move: SummerMove) -> tuple[str, dict[str, str]]:
    names = state.geometry.names
    return "move", {"from": names[move.frm], "to": names[move.to]}


MOVES = MoveForm(
    kinds=(
        MoveKind(
            "move",
            (MoveField("from", read_cell), MoveField("to", read_cell)),
            lambda fields: f"{fields.get('from', '')}-{fields.get('to', '')}",
        ),
    ),
    describe=_describe,
)
