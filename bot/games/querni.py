"""``/querni``: start, move (with an optional removal), remove, pass, and the shared subcommands.

Every turn goes through :meth:`bot.commands.ui.MatchUI.play` as the engine's notation
(``c3-e5``, ``x4-7``, ``c3-e5 x4-7``, ``pass``), so the engine checks it.  The
autocomplete lists are read from ``state.legal_moves()``: the pieces that can
move (with their numbers), the squares the chosen piece can reach (a step, or
the jumps that get there), and the chains that can go, now or after the chosen
move.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.commands.ui import user_language
from bot.games.common import StartOption, add_common_commands, add_start_command, new_group, typed_option
from engines import GameError
from engines.querni import DEFAULT_DRAW_PLIES, MIN_CHAIN, NAMES, PIECES
from i18n.catalog import DEFAULT, gettext, ngettext

if TYPE_CHECKING:
    from bot.commands.ui import MatchUI
    from engines.querni import QuerniMove, QuerniState

GAME = "querni"
CHOICE_LIMIT = 25  # Discord shows at most 25 autocomplete choices
CHOICE_NAME_LIMIT = 100  # characters in a choice's name

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
    f"than {MIN_CHAIN} consecutive numbers still on the board (it could never leave). "
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


def removal_text(chain: str) -> str:
    """Return the engine's removal notation for what a player typed (``4-7``, ``x4-7`` or ``remove 4-7``)."""
    text = " ".join(chain.lower().split())
    return text if text.startswith(("x", "remove")) else f"x{text}"


def labelled(items: Iterable[tuple[str, str]], typed: str) -> list[app_commands.Choice[str]]:
    """Return at most 25 choices of ``(value, label)``: values starting with what was typed, then labels holding it."""
    needle = typed.strip().lower()
    unique = dict(items)  # first label wins; order kept
    starting = [value for value in unique if value.startswith(needle)]
    containing = [value for value, label in unique.items() if value not in starting and needle in label.lower()]
    return [
        app_commands.Choice(name=unique[value][:CHOICE_NAME_LIMIT], value=value)
        for value in (starting + containing)[:CHOICE_LIMIT]
    ]


def chain_squares(state: QuerniState, move: QuerniMove) -> str:
    """Name the squares of ``move``'s chain, as they stand once its piece (if any) has moved (the engine says)."""
    return " ".join(state.cell_name(cell) for cell in state.removal_squares(move))


def source_choices(state: QuerniState, typed: str, language: str = DEFAULT) -> list[app_commands.Choice[str]]:
    """Offer the squares of the pieces that can move, labelled with their numbers, lowest number first."""
    starts = sorted({m.frm for m in state.legal_moves() if m.frm >= 0}, key=lambda cell: state.piece(cell) or (0, 0))
    items = []
    for cell in starts:
        piece = state.piece(cell)
        number = piece[1] if piece else 0
        label = gettext(language, "{square} · piece {number}", square=state.cell_name(cell), number=number)
        items.append((state.cell_name(cell), label))
    return labelled(items, typed)


def target_choices(
    state: QuerniState, chosen: str, typed: str, language: str = DEFAULT
) -> list[app_commands.Choice[str]]:
    """Offer the squares the chosen piece (or, before one is chosen, any piece) can reach, saying how."""
    start = _square(state, chosen)
    plain = [m for m in state.legal_moves() if m.frm >= 0 and m.lo < 0 and (start is None or m.frm == start)]
    needle = typed.strip().lower()
    # Describe only what can be shown: the path search runs for at most 25 moves.
    shown = [m for m in plain if state.cell_name(m.to).startswith(needle)] or plain
    items = []
    for move in shown[:CHOICE_LIMIT]:
        items.append((state.cell_name(move.to), _route(state, move, start is None, language)))
    return labelled(items, typed)


def removal_choices(
    state: QuerniState, chosen_from: str, chosen_to: str, typed: str, *, after_move: bool
) -> list[app_commands.Choice[str]]:
    """Offer the chains that can go: now (``after_move`` false), or after the chosen move."""
    start, end = _square(state, chosen_from), _square(state, chosen_to)
    items = []
    for move in state.legal_moves():
        if move.lo < 0 or (move.frm >= 0) != after_move:
            continue
        if after_move and ((start is not None and move.frm != start) or (end is not None and move.to != end)):
            continue
        value = f"{move.lo}-{move.hi}"
        items.append((value, f"{value} · {chain_squares(state, move)}"))
    return labelled(items, typed.strip().lower().removeprefix("x"))


def _square(state: QuerniState, text: str) -> int | None:
    """Return the square a player named in another option, or ``None`` if it is empty or unreadable."""
    if not text.strip():
        return None
    try:
        return state.parse_square(text)
    except GameError:
        return None


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

    async def position(interaction: discord.Interaction) -> QuerniState | None:
        return await ui.my_position(interaction, GAME)  # type: ignore[return-value]

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

    @group.command(name="move", description="Step or jump one of your pieces, then remove a chain if you like.")
    @app_commands.describe(
        from_="The square of the piece you move, e.g. c3",
        to="Where it ends: a neighbouring empty square, or the last landing of its jumps",
        remove="A chain to remove after the move, e.g. 4-7 (optional)",
    )
    @app_commands.rename(from_="from")
    async def move(
        interaction: discord.Interaction,
        from_: app_commands.Range[str, 1, 8],
        to: app_commands.Range[str, 1, 8],
        remove: app_commands.Range[str, 1, 16] | None = None,
    ) -> None:
        text = f"{from_} {to}" + (f" {removal_text(remove)}" if remove else "")
        await ui.play(interaction, GAME, text)

    @move.autocomplete("from_")
    async def move_sources(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        state = await position(interaction)
        return [] if state is None else source_choices(state, typed, user_language(interaction))

    @move.autocomplete("to")
    async def move_targets(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        state = await position(interaction)
        chosen = typed_option(interaction, "from")
        return [] if state is None else target_choices(state, chosen, typed, user_language(interaction))

    @move.autocomplete("remove")
    async def move_removals(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        state = await position(interaction)
        if state is None:
            return []
        chosen_from, chosen_to = typed_option(interaction, "from"), typed_option(interaction, "to")
        return removal_choices(state, chosen_from, chosen_to, typed, after_move=True)

    @group.command(name="remove", description=f"Remove a chain of {MIN_CHAIN} or more of your consecutive numbers.")
    @app_commands.describe(chain="The numbers to remove, e.g. 4-7")
    async def remove(interaction: discord.Interaction, chain: app_commands.Range[str, 1, 16]) -> None:
        await ui.play(interaction, GAME, removal_text(chain))

    @remove.autocomplete("chain")
    async def removable_chains(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        state = await position(interaction)
        return [] if state is None else removal_choices(state, "", "", typed, after_move=False)

    @group.command(name="pass", description="Pass your turn (it counts towards the draw).")
    async def pass_(interaction: discord.Interaction) -> None:
        await ui.play(interaction, GAME, "pass")

    add_common_commands(group, GAME, ui, rules_text=RULES)
    return group
