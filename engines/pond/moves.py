"""How a player names a Pond move: an egg's ``cell``, or a piece's ``from`` and ``to``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.moves import MoveField, MoveForm, MoveKind, read_cell
from engines.pond.board import GEOMETRY, PondMove

if TYPE_CHECKING:
    from engines.pond.state import PondState


# -- the fields of a move ----------------------------------------------------------


def _describe(state: PondState, move: PondMove) -> tuple[str, dict[str, str]]:
    names = GEOMETRY[state.size].names
    if move.frm < 0:
        return "place", {"cell": names[move.to]}
    return "move", {"from": names[move.frm], "to": names[move.to]}


# Placing an egg names its cell; moving a tadpole or frog names where it is, then where it goes.
MOVES = MoveForm(
    kinds=(
        MoveKind(
            "place",
            (MoveField("cell", read_cell),),
            lambda fields: f"place {fields.get('cell', '')}",
            taps=((), ("cell",)),  # by taps: "an egg", then its square
        ),
        MoveKind(
            "move",
            (MoveField("from", read_cell), MoveField("to", read_cell)),
            lambda fields: f"move {fields.get('from', '')} {fields.get('to', '')}",
        ),
    ),
    describe=_describe,
)
