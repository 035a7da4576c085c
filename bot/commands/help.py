"""``/help``: a short private overview of Tabula, in the asker's language.

It fits a phone's screen: what games there are, how to challenge, move, see the board and the
rules, play the computer, and where the ladders and the server's settings are.  Every line is a
catalog entry of its own, so translators see short sentences.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.commands.ui import user_language
from bot.text.formatting import clip
from engines import GAMES
from i18n.catalog import gettext


def help_text(language: str) -> str:
    """The overview, in ``language``."""
    games = ", ".join(f"**{spec.title}** (`/{name}`)" for name, spec in GAMES.items())
    lines = [
        gettext(language, "**Tabula** plays board games here: {games}.", games=games),
        gettext(
            language,
            "• **Challenge**: `/pond start opponent:@someone`. "
            "They press Accept, and the game gets a thread of its own.",
        ),
        gettext(
            language,
            "• **Move**: tap the menus under the board (you see your move before it counts, with Play and Back); "
            "or type the game's commands, like `/pond move`. The board after your move has **Take back**.",
        ),
        gettext(language, "• **Board and rules**: `/pond board` shows the game again, `/pond rules` explains it."),
        gettext(language, "• **The computer**: `/pond start difficulty:easy` (or medium, hard)."),
        gettext(
            language,
            "• **Give up or win on time**: `/pond resign`; `/pond claim` once your opponent's time for a turn is up.",
        ),
        gettext(
            language,
            "• **Draws and rematches**: `/pond draw` offers a draw; a result's Rematch button plays again.",
        ),
        gettext(
            language, "• **Reminders**: you are pinged when a quarter of your turn is left; `/reminders off` stops it."
        ),
        gettext(language, "• **Ladders**: `/leaderboard`, `/stats` and `/history` (replays) for this server."),
        gettext(
            language,
            "• **Learn**: `/analyse match:` (or a result's Analyse button) reviews a finished game; "
            "`/pond hint` suggests a move in a practice game against the computer.",
        ),
        gettext(language, "• **Settings**: `/settings` for your own, `/tabula settings` for the server's."),
        gettext(language, "Every game has the same commands: put its name in place of `pond`."),
    ]
    return clip("\n".join(lines))


def add_help_command(tree: app_commands.CommandTree[Any]) -> None:
    """Add ``/help`` to the bot's tree."""

    @tree.command(name="help", description="How to play with Tabula, briefly (only you see it).")
    async def help_command(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(help_text(user_language(interaction)), ephemeral=True)
