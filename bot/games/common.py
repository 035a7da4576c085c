"""The subcommands every game shares: board, resign, claim, rules, cancel."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.service import Refusal
from engines import GAMES

if TYPE_CHECKING:
    from bot.ui import MatchUI


DIFFICULTIES = [
    app_commands.Choice(name="Easy: quick and forgiving", value="easy"),
    app_commands.Choice(name="Medium: thinks about a second", value="medium"),
    app_commands.Choice(name="Hard: thinks about three seconds", value="hard"),
]


def opponents_or_computer(
    interaction: discord.Interaction,
    opponents: Sequence[discord.abc.User],
    difficulty: str | None,
    extra_computers: int = 0,
) -> tuple[list[discord.abc.User], list[str]]:
    """Split a start command's opponents into people and computer seats.

    Naming Tabula itself as an opponent, or giving a difficulty, seats the computer; with no
    difficulty it plays at medium.  ``extra_computers`` adds more computer seats (Azul).
    """
    me = interaction.client.user
    people = [o for o in opponents if me is None or o.id != me.id]
    level = difficulty or "medium"
    computers = [level] * (len(opponents) - len(people) + extra_computers)
    if difficulty is not None and not computers:
        if people:
            raise Refusal("Pick either a person to challenge or a difficulty to play me, not both.")
        computers = [level]
    if not people and not computers:
        raise Refusal("Name an opponent, or pick a difficulty to play against me.")
    return people, computers


def typed_option(interaction: discord.Interaction, name: str) -> str:
    """Return what the player has typed so far in another option of the command (for autocomplete)."""
    return str(getattr(interaction.namespace, name, "") or "")


def new_group(game: str, description: str) -> app_commands.Group:
    """Create a game's command group, usable only in servers."""
    return app_commands.Group(name=game, description=description, guild_only=True)


def add_common_commands(group: app_commands.Group, game: str, ui: MatchUI, *, rules_text: str) -> None:
    """Add the subcommands that work the same way in every game; ``rules_text`` answers ``rules``."""
    title = GAMES[game].title

    @group.command(name="board", description=f"Post this channel's {title} board again.")
    async def board(interaction: discord.Interaction) -> None:
        await ui.board(interaction, game)

    @group.command(name="resign", description=f"Resign this channel's {title} game.")
    async def resign(interaction: discord.Interaction) -> None:
        await ui.resign(interaction, game)

    @group.command(name="claim", description="Claim the win when your opponent let their turn deadline pass.")
    async def claim(interaction: discord.Interaction) -> None:
        await ui.claim(interaction, game)

    @group.command(name="rules", description=f"How to play {title}, briefly (only you see it).")
    async def rules(interaction: discord.Interaction) -> None:
        await ui.rules(interaction, rules_text)

    @group.command(name="cancel", description="Cancel this channel's game (Manage Server) or withdraw your challenge.")
    async def cancel(interaction: discord.Interaction) -> None:
        await ui.cancel(interaction)
