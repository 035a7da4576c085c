"""``/settings``: a player's own settings, shown together and changed one at a time (only they see the answer).

* ``confirm_moves`` — a move picked by taps on the board is first shown marked on the board, with Play and Back
  (on, the default), or played at once (off);
* ``reminders`` — the same switch as ``/reminders``: a mention when a quarter of a turn's time is left.

Without options it only shows them.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.commands.ui import user_language
from bot.storage.extras_store import MatchExtras
from i18n.catalog import gettext

ON_OFF = [discord.app_commands.Choice(name="on", value="on"), discord.app_commands.Choice(name="off", value="off")]


def settings_text(language: str, confirm: bool, reminders: bool) -> str:
    """The player's settings, one line each, with how to change them."""
    on, off = gettext(language, "on"), gettext(language, "off")
    return "\n".join(
        (
            gettext(language, "**Your settings** (only you see this):"),
            gettext(
                language,
                "• Confirm moves made by taps: **{value}** — see a move marked on the board, with Play and Back, "
                "before it counts.",
                value=on if confirm else off,
            ),
            gettext(
                language,
                "• Reminders: **{value}** — a mention when a quarter of your turn's time is left.",
                value=on if reminders else off,
            ),
            gettext(language, "Change one with `/settings confirm_moves:off` (or `on`), `/settings reminders:off`."),
        )
    )


class PersonalSettings:
    """Answers ``/settings`` from the player's rows in ``extras``."""

    def __init__(self, extras: MatchExtras) -> None:
        self.extras = extras

    async def choose(
        self, interaction: discord.Interaction[Any], confirm_moves: str | None, reminders: str | None
    ) -> None:
        user = interaction.user.id
        if confirm_moves in ("on", "off"):
            await self.extras.set_confirm_moves(user, confirm_moves == "on")
        if reminders in ("on", "off"):
            await self.extras.set_reminders(user, reminders == "on")
        language = user_language(interaction)
        text = settings_text(language, await self.extras.confirm_moves(user), await self.extras.reminders_enabled(user))
        await interaction.response.send_message(text, ephemeral=True)


def add_settings_command(tree: discord.app_commands.CommandTree[Any], settings: PersonalSettings) -> None:
    """Add the top-level ``/settings`` command."""

    @tree.command(name="settings", description="Show or change your own settings (only you see the answer).")
    @discord.app_commands.describe(
        confirm_moves="on: show a move picked by taps on the board before it counts; off: play it at once",
        reminders="on: mention me when a quarter of my turn is left; off: don't",
    )
    @discord.app_commands.choices(confirm_moves=ON_OFF, reminders=ON_OFF)
    async def settings_command(
        interaction: discord.Interaction, confirm_moves: str | None = None, reminders: str | None = None
    ) -> None:
        await settings.choose(interaction, confirm_moves, reminders)
