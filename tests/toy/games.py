"""``/toy``: start, take, and the shared subcommands, built like every game's group (:mod:`bot.games.common`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.games.common import StartOption, add_common_commands, add_start_command, new_group
from tests.toy.engine import MOVES, NAME, OPTIONS

if TYPE_CHECKING:
    from bot.commands.ui import MatchUI

RULES = (
    "**Toy** — a pile of stones. In turn, take 1 to 3 of them (`/toy take count:2`); whoever takes the last stone wins."
)


def _start_option(name: str) -> StartOption:
    """A start option read from the engine's option spec: its bounds and default."""
    spec = next(option for option in OPTIONS if option.name == name)
    assert spec.minimum is not None and spec.maximum is not None
    bounded = app_commands.Range[int, spec.minimum, spec.maximum]
    return StartOption(name, bounded, spec.default, spec.description, bounds=(spec.minimum, spec.maximum))


def build(ui: MatchUI) -> app_commands.Group:
    """Build the ``/toy`` command group."""
    group = new_group(NAME, "Toy: take stones from a pile; the last one wins.")
    add_start_command(
        group,
        NAME,
        ui,
        description="Challenge someone in this channel (or me) to a game of Toy.",
        opponent_help="Who you challenge (pick me, Tabula, to play the computer)",
        options=[_start_option("stones"), _start_option("most")],
    )

    @group.command(name="take", description="Take stones from the pile.")
    @app_commands.describe(count="How many stones you take")
    async def take(interaction: discord.Interaction, count: app_commands.Range[int, 1, 9]) -> None:
        await ui.play(interaction, NAME, MOVES.text("take", {"count": str(count)}))

    add_common_commands(group, NAME, ui, rules_text=RULES)
    return group
