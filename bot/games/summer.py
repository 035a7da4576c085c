"""``/summer``: start, move, and the shared subcommands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands

from bot.games.common import (
    MoveOption,
    StartOption,
    add_common_commands,
    add_move_command,
    add_start_command,
    new_group,
)
from engines.summer import DEFAULT_SIZE, FILES, PLIES_PER_CELL

if TYPE_CHECKING:
    from bot.commands.ui import MatchUI

RULES = (
    "**Summer** — race weighted pieces across plus and minus cells. Who plays White is drawn at random; "
    "White moves first.\n"
    "**Move**: `/summer move from:c1 to:c2` — one piece goes one cell forward, diagonally forward or "
    "sideways, never back. On the hex board: one of the 2 cells in the row ahead or one of the 2 beside it. "
    "Any cell will do: empty, your own piece or an enemy's.\n"
    "**Onto your own piece** (merge): lighter onto heavier gives the sum, heavier onto lighter the difference; "
    "equal weights: both are removed.\n"
    "**Onto an enemy** (collision): *classic* — the heavier survives, less the lighter's weight; equal: both "
    "removed. *field* — on a **+** cell the mover always wins and adds the enemy's weight; elsewhere classic.\n"
    "**Cells**: then a **+** cell adds 1 and a **−** cell takes 1 from your piece, if it survived "
    "(start rows have no sign). A piece that reaches 0 is removed.\n"
    "**End**: when all White pieces stand on Black's start row, Black gets one last move; when all Black "
    "pieces stand on White's start row, the game ends at once. A side with no pieces left counts as arrived. "
    "Pieces on their goal row may still move sideways.\n"
    "**Score**: the weight of your pieces on the opponent's start row; higher wins, equal is a draw. "
    f"Safety rule: after {PLIES_PER_CELL}·N·N plies ({PLIES_PER_CELL * DEFAULT_SIZE**2} on "
    f"{DEFAULT_SIZE}×{DEFAULT_SIZE}) the position is scored as it stands.\n"
    f"Cells are `a1` (White's side, left) to `{FILES[DEFAULT_SIZE - 1]}{DEFAULT_SIZE}`; "
    "the hex board uses the same names, ranks 2, 4, 6… shifted right."
)

# The names of the engine's choices (the engine gives the values, their order and the default).
BOARDS = {"square": "Square", "hex": "Hex: rows of hexagons"}
MODES = {
    "classic": "Classic: in a collision the heavier piece survives",
    "field": "Field: on a + cell the mover always wins",
}


def build(ui: MatchUI) -> app_commands.Group:
    """Build the ``/summer`` command group."""
    group = new_group("summer", "Summer: race weighted pieces across plus and minus cells to the far row.")

    add_start_command(
        group,
        "summer",
        ui,
        description="Challenge someone here (or me) to Summer; who plays White is drawn at random.",
        opponent_help="Who you challenge (pick me, Tabula, to play the computer)",
        options=[
            StartOption.from_spec(
                "summer", "size", "Board size N, for N×N cells: {minimum} to {maximum} (default {default})"
            ),
            StartOption.from_spec("summer", "board", "Square or hex board (default {default})", BOARDS),
            StartOption.from_spec("summer", "mode", "How collisions work (default {default})", MODES),
        ],
    )

    add_move_command(
        group,
        "summer",
        ui,
        "move",
        description="Move one of your pieces one cell.",
        options={
            "from": MoveOption("The cell your piece is on, e.g. c1", 8),
            "to": MoveOption("The cell it moves to, e.g. c2", 8),
        },
    )

    add_common_commands(group, "summer", ui, rules_text=RULES)
    return group
