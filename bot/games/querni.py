"""``/querni``: start, move (with an optional removal), remove, pass, and the shared subcommands.

Every turn goes through :meth:`bot.commands.ui.MatchUI.play` as the engine's notation
(``c3-e5``, ``x4-7``, ``c3-e5 x4-7``, ``pass``), so the engine checks it.  The
autocomplete lists are read from ``state.legal_moves()``: the pieces that can
move (with their numbers), the squares the chosen piece can reach (a step, or
the jumps that get there), and the chains that can go, now or after the chosen
move.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from discord import app_commands

from bot import limits
from bot.games.common import (
    MoveOption,
    StartOption,
    add_common_commands,
    add_move_command,
    add_start_command,
    labelled,
    new_group,
)
from engines.querni import DEFAULT_DRAW_PLIES, MIN_CHAIN, MOVES, NAMES, PIECES
from engines.querni.moves import chain_prefix
from i18n.catalog import DEFAULT, gettext, ngettext
from i18n.querni import losing_mark

if TYPE_CHECKING:
    from bot.commands.ui import MatchUI
    from engines.querni import QuerniMove, QuerniState

GAME = "querni"

RULES = (
    f"**Querni** — clear your {PIECES} numbered pieces off the board in chains. Blue moves first "
    "(who plays blue is drawn at random).\n"
    "**Your turn**: move one piece, or remove one chain, or both (move first), or pass.\n"
    "• **Step**: to any empty square next to it, diagonals included.\n"
    "• **Jump**: over one adjacent piece of either colour, in a straight line (diagonals too), onto the empty "
    "square right behind it. Jumped pieces stay. Jumps may go on in the same turn, turning freely, but never "
    "land on a square twice (the start counts). Steps and jumps don't mix.\n"
    f"• **Chain**: {MIN_CHAIN} or more of your pieces with consecutive numbers, each touching the previous number "
    f"(diagonals count). You may remove the whole chain or any part of {MIN_CHAIN} or more consecutive numbers.\n"
    "**Win**: remove all your pieces. **Lose**: a removal that leaves one of your numbers in a run of fewer "
    f"than {MIN_CHAIN} consecutive numbers still on the board (it could never leave). It is about numbers, not "
    "squares: holding 1 2 3 4 5 9 10 11, removing 2-4 strands 1 and 5 and loses; removing 1-5 or 9-11 is safe. "
    "Autocomplete and the menus mark a losing removal with ⚠️.\n"
    f"**Draw**: {DEFAULT_DRAW_PLIES} plies in a row without a removal (the bar under the status line counts them).\n"
    "**Commands**: `/querni move from:c3 to:e5` · `/querni move from:c3 to:e5 remove:4-7` · "
    "`/querni remove chain:4-7` · `/querni pass`. Autocomplete offers only legal choices.\n"
    f"Squares run from `{NAMES[0]}` (bottom left, blue's side) to `{NAMES[-1]}`."
)


# The names of the engine's isolation rules (the engine gives the values, their order and the default).
ISOLATIONS = {
    "any_stranded": f"Any stranded: lose if a removal leaves a number in a run under {MIN_CHAIN}",
    "no_triple_left": f"No triple left: lose only when no {MIN_CHAIN} consecutive numbers remain",
}


def chain_squares(state: QuerniState, move: QuerniMove) -> str:
    """Name the squares of ``move``'s chain, as they stand once its piece (if any) has moved (the engine says)."""
    return " ".join(state.cell_name(cell) for cell in state.removal_squares(move))


def chain_label(state: QuerniState, chain: str, move: QuerniMove, language: str) -> str:
    """Label a chain to remove with its squares, marked first when removing it loses the game at once."""
    return losing_mark(state, chain, f"{chain} · {chain_squares(state, move)}", language)


def source_choices(
    state: QuerniState, given: Mapping[str, str], typed: str, language: str = DEFAULT
) -> list[app_commands.Choice[str]]:
    """Offer the squares of the pieces that can move, labelled with their numbers, lowest number first."""
    moves = MOVES.matching(state, "move", {})
    starts = sorted({move.frm for move, _ in moves}, key=lambda cell: state.piece(cell) or (0, 0))
    items = []
    for cell in starts:
        piece = state.piece(cell)
        number = piece[1] if piece else 0
        label = gettext(language, "{square} · piece {number}", square=state.cell_name(cell), number=number)
        items.append((state.cell_name(cell), label))
    return labelled(items, typed)


def target_choices(
    state: QuerniState, given: Mapping[str, str], typed: str, language: str = DEFAULT
) -> list[app_commands.Choice[str]]:
    """Offer the squares the chosen piece (or, before one is chosen, any piece) can reach, saying how."""
    chosen = MOVES.read("move", {"from": given.get("from", "")})
    plain = [move for move, fields in MOVES.matching(state, "move", chosen) if "remove" not in fields]
    needle = typed.strip().lower()
    # Describe only what can be shown: the path search runs for at most 25 moves.
    shown = [m for m in plain if state.cell_name(m.to).startswith(needle)] or plain
    items = []
    for move in shown[: limits.AUTOCOMPLETE_CHOICES_MAX]:
        items.append((state.cell_name(move.to), _route(state, move, "from" not in chosen, language)))
    return labelled(items, typed)


def removal_choices(
    state: QuerniState, given: Mapping[str, str], typed: str, language: str = DEFAULT
) -> list[app_commands.Choice[str]]:
    """Offer the chains that can go after the chosen move (any move's, before one is chosen)."""
    chosen = MOVES.read("move", {name: given.get(name, "") for name in ("from", "to")})
    items = [
        (fields["remove"], chain_label(state, fields["remove"], move, language))
        for move, fields in MOVES.matching(state, "move", chosen)
        if "remove" in fields
    ]
    return labelled(items, chain_prefix(typed))


def chain_choices(
    state: QuerniState, given: Mapping[str, str], typed: str, language: str = DEFAULT
) -> list[app_commands.Choice[str]]:
    """Offer the chains that can go now, without a move."""
    items = [
        (fields["chain"], chain_label(state, fields["chain"], move, language))
        for move, fields in MOVES.matching(state, "remove", {})
    ]
    return labelled(items, chain_prefix(typed))


def _route(state: QuerniState, move: QuerniMove, name_start: bool, language: str = DEFAULT) -> str:
    """Return a target's label: ``e5 · 2 jumps c3-e5-g5`` or ``d3 · step``."""
    route = state.route(move)
    target = state.cell_name(move.to)
    if route.stepped:
        if name_start:
            how = gettext(language, "step from {square}", square=state.cell_name(move.frm))
        else:
            how = gettext(language, "step")
    else:
        path = "-".join(state.cell_name(c) for c in route.path)
        how = ngettext(language, "{n} jump {path}", "{n} jumps {path}", route.jumps, path=path)
    return f"{target} · {how}"


def build(ui: MatchUI) -> app_commands.Group:
    """Build the ``/querni`` command group."""
    group = new_group(GAME, "Querni: move and jump your numbered pieces, and remove them in chains.")

    add_start_command(
        group,
        GAME,
        ui,
        description="Challenge someone in this channel (or me) to a game of Querni.",
        opponent_help="Who you challenge (pick me, Tabula, to play the computer); blue is drawn at random",
        options=[
            StartOption.from_spec(
                GAME, "isolation", "When a removal loses the game (default: any stranded)", ISOLATIONS
            ),
            StartOption.from_spec(
                GAME,
                "draw_plies",
                "Turns in a row without a removal that draw the game: {minimum} to {maximum} (default {default})",
            ),
        ],
    )
    add_move_command(
        group,
        GAME,
        ui,
        "move",
        description="Step or jump one of your pieces, then remove a chain if you like.",
        options={
            "from": MoveOption("The square of the piece you move, e.g. c3", 8, labels=source_choices),
            "to": MoveOption(
                "Where it ends: a neighbouring empty square, or the last landing of its jumps", 8, labels=target_choices
            ),
            "remove": MoveOption("A chain to remove after the move, e.g. 4-7 (optional)", 16, labels=removal_choices),
        },
    )
    add_move_command(
        group,
        GAME,
        ui,
        "remove",
        description=f"Remove a chain of {MIN_CHAIN} or more of your consecutive numbers.",
        options={"chain": MoveOption("The numbers to remove, e.g. 4-7", 16, labels=chain_choices)},
    )
    add_move_command(group, GAME, ui, "pass", description="Pass your turn (it counts towards the draw).", options={})
    add_common_commands(group, GAME, ui, rules_text=RULES)
    return group
