"""``/pond``: start, place, move, and the shared subcommands."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.games.common import add_common_commands, new_group
from bot.ui import choices

if TYPE_CHECKING:
    from bot.ui import MatchUI

VARIANTS = [
    app_commands.Choice(name="Standard: 4x4, 13 eggs, first to 10", value="standard"),
    app_commands.Choice(name="Mini: 4x4, 10 eggs, first to 7", value="mini"),
    app_commands.Choice(name="Large: 5x5, 14 eggs, first to 10", value="large"),
]


def build(ui: MatchUI) -> app_commands.Group:
    """Build the ``/pond`` command group."""
    group = new_group("pond", "Pond: grow eggs into tadpoles and frogs, and score sets of three.")

    @group.command(name="start", description="Challenge someone in this channel to a game of Pond.")
    @app_commands.describe(opponent="Who you challenge", variant="Board and piece counts (default Standard)")
    @app_commands.choices(variant=VARIANTS)
    async def start(interaction: discord.Interaction, opponent: discord.Member, variant: str = "standard") -> None:
        options = {} if variant == "standard" else {"variant": variant}
        await ui.challenge(interaction, "pond", [opponent], options)

    @group.command(name="place", description="Place an egg from your spawn on an empty cell.")
    @app_commands.describe(cell="An empty cell, e.g. b2")
    async def place(interaction: discord.Interaction, cell: app_commands.Range[str, 1, 8]) -> None:
        await ui.play(interaction, "pond", f"place {cell}")

    @place.autocomplete("cell")
    async def place_cells(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        state = await ui.my_position(interaction, "pond")
        if state is None:
            return []
        cells = [state.move_text(m).split()[1] for m in state.legal_moves() if m.frm < 0]
        return choices(cells, typed)

    @group.command(name="move", description="Move one of your tadpoles or frogs.")
    @app_commands.describe(from_="The cell your tadpole or frog is on", to="The empty cell it moves to")
    @app_commands.rename(from_="from")
    async def move(
        interaction: discord.Interaction, from_: app_commands.Range[str, 1, 8], to: app_commands.Range[str, 1, 8]
    ) -> None:
        await ui.play(interaction, "pond", f"move {from_} {to}")

    @move.autocomplete("from_")
    async def move_sources(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        state = await ui.my_position(interaction, "pond")
        if state is None:
            return []
        sources = dict.fromkeys(state.move_text(m).split()[1] for m in state.legal_moves() if m.frm >= 0)
        return choices(list(sources), typed)

    @move.autocomplete("to")
    async def move_targets(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        state = await ui.my_position(interaction, "pond")
        if state is None:
            return []
        chosen = str(getattr(interaction.namespace, "from", "") or "").strip().lower()
        moves = [state.move_text(m).split() for m in state.legal_moves() if m.frm >= 0]
        return choices([parts[2] for parts in moves if not chosen or parts[1] == chosen], typed)

    add_common_commands(group, "pond", ui)
    return group
