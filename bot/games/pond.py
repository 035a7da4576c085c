"""``/pond``: start, place, move, and the shared subcommands."""

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
from engines.pond import DEFAULT_MAX_PLIES, GEOMETRY, VARIANTS

if TYPE_CHECKING:
    from bot.commands.ui import MatchUI

_STANDARD, _MINI, _LARGE = (VARIANTS[name] for name in ("standard", "mini", "large"))

RULES = (
    "**Pond** — eggs, tadpoles and frogs. Light moves first.\n"
    "**Your turn**: one action, then *Develop*, then *Score*.\n"
    "• `/pond place cell:b2` — put an egg from your spawn on an empty cell (eggs never move).\n"
    "• `/pond move from:a3 to:b3` — a tadpole moves 1 cell up/down/left/right to an empty cell; "
    "a frog moves 1 or 2 cells in a straight line (it may hop over a piece) onto an empty cell.\n"
    "**Develop**: every piece next to where your piece now stands (not diagonally) grows one step, "
    "whoever owns it: egg → tadpole → frog → egg.\n"
    "**Score**: 3 or more identical faces in a row or column (any owners) leave the board; "
    "each piece scores for its **owner**. Crossing sets all score.\n"
    f"**End**: reach the target ({_STANDARD.target}; {_MINI.target} in Mini) and the higher score wins — level is "
    "a draw. A player with no legal action on their turn loses. "
    f"After {DEFAULT_MAX_PLIES} plies the game is a draw (move limit).\n"
    f"Cells are `a1` (bottom left) to `{GEOMETRY[_STANDARD.size].names[-1]}` "
    f"(`{GEOMETRY[_LARGE.size].names[-1]}` on the Large board)."
)


def variant_label(name: str) -> str:
    """Name a variant by the engine's numbers, e.g. ``Standard: 4x4, 13 eggs, first to 10``."""
    size, spawn, target = VARIANTS[name]
    return f"{name.capitalize()}: {size}x{size}, {spawn} eggs, first to {target}"


def build(ui: MatchUI) -> app_commands.Group:
    """Build the ``/pond`` command group."""
    group = new_group("pond", "Pond: grow eggs into tadpoles and frogs, and score sets of three.")

    add_start_command(
        group,
        "pond",
        ui,
        description="Challenge someone in this channel (or me) to a game of Pond.",
        opponent_help="Who you challenge (pick me, Tabula, to play the computer)",
        options=[
            StartOption.from_spec(
                "pond", "variant", "Board and piece counts (default Standard)", {v: variant_label(v) for v in VARIANTS}
            )
        ],
    )

    add_move_command(
        group,
        "pond",
        ui,
        "place",
        description="Place an egg from your spawn on an empty cell.",
        options={"cell": MoveOption("An empty cell, e.g. b2", 8)},
    )
    add_move_command(
        group,
        "pond",
        ui,
        "move",
        description="Move one of your tadpoles or frogs.",
        options={
            "from": MoveOption("The cell your tadpole or frog is on", 8),
            "to": MoveOption("The empty cell it moves to", 8),
        },
    )

    add_common_commands(group, "pond", ui, rules_text=RULES)
    return group
