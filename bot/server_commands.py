"""``/tabula``: a server's settings for Tabula.

* ``/tabula language`` chooses the language of the server's public messages (challenges, turn lines,
  results, rating changes, boards): English, Русский, Français, or ``auto`` (the server's Discord
  language when Tabula speaks it, else English).  Only members with Manage Server may change it.
* ``/tabula settings`` shows the server's settings to anyone who asks (only they see it).

The settings live in :mod:`bot.settings_store`; the group is the home of later settings too.
Replies are private and in the asker's language.
"""

from __future__ import annotations

from typing import Any, Protocol

import discord
from babel import Locale
from discord import app_commands

from bot.service import Refusal
from bot.settings_store import AUTO, GuildSettings
from bot.ui import user_language
from i18n.catalog import SUPPORTED, gettext, ngettext


def language_name(code: str) -> str:
    """Name a language in itself, as its speakers look for it (CLDR's name): ``Русский``, ``Français``."""
    name = Locale.parse(code).get_display_name(code) or code
    return name[:1].upper() + name[1:]


#: Each language Tabula speaks, by its own name.
LANGUAGE_NAMES = {code: language_name(code) for code in SUPPORTED}

LANGUAGE_CHOICES = [
    app_commands.Choice(name="Auto: the server's Discord language", value=AUTO),
    *(app_commands.Choice(name=LANGUAGE_NAMES[code], value=code) for code in SUPPORTED),
]


class SettingsStore(Protocol):
    """What the commands need of :class:`bot.settings_store.GuildSettingsStore`."""

    async def get(self, guild_id: int) -> GuildSettings: ...

    async def set_language(self, guild_id: int, language: str | None) -> GuildSettings: ...

    async def remember_locale(self, guild_id: int | None, guild_locale: object) -> None: ...


def hours_text(language: str, hours: float) -> str:
    """Say a duration in hours (or minutes, under an hour): ``24 hours``, ``30 minutes``."""
    if hours < 1:
        return minutes_text(language, hours * 60)
    whole = round(hours)
    if abs(hours - whole) > 1e-9:
        return gettext(language, "{n} hours", n=f"{hours:g}")
    return ngettext(language, "{n} hour", "{n} hours", whole)


def minutes_text(language: str, minutes: float) -> str:
    """Say a duration in minutes: ``15 minutes``."""
    whole = round(minutes)
    if abs(minutes - whole) > 1e-9:
        return gettext(language, "{n} minutes", n=f"{minutes:g}")
    return ngettext(language, "{n} minute", "{n} minutes", whole)


def settings_text(settings: GuildSettings, language: str, *, turn_hours: float, challenge_minutes: float) -> str:
    """The server's settings, said in ``language``."""
    shown = LANGUAGE_NAMES.get(settings.effective_language, settings.effective_language)
    if settings.language is None:
        how = gettext(language, "{language} (automatic: the server's Discord language)", language=shown)
    else:
        how = gettext(language, "{language} (chosen with `/tabula language`)", language=shown)
    lines = [
        gettext(language, "**Tabula's settings for this server**"),
        gettext(language, "Language of public messages: {value}", value=how),
        gettext(language, "Time for a turn: {value}", value=hours_text(language, turn_hours)),
        gettext(language, "A challenge expires after: {value}", value=minutes_text(language, challenge_minutes)),
    ]
    return "\n".join(lines)


def changed_text(settings: GuildSettings, language: str) -> str:
    """Confirm a new language setting, in the asker's ``language``."""
    shown = LANGUAGE_NAMES.get(settings.effective_language, settings.effective_language)
    if settings.language is None:
        return gettext(
            language,
            "Done: Tabula's public messages here now follow the server's Discord language (now {language}).",
            language=shown,
        )
    return gettext(language, "Done: Tabula's public messages here are now in {language}.", language=shown)


def add_server_commands(
    tree: app_commands.CommandTree[Any], store: SettingsStore, *, turn_hours: float, challenge_minutes: float
) -> app_commands.Group:
    """Add the ``/tabula`` group to the bot's tree."""
    group = app_commands.Group(name="tabula", description="Tabula's settings for this server.", guild_only=True)

    @group.command(name="language", description="Choose the language of Tabula's public messages here (Manage Server).")
    @app_commands.describe(language="English, Russian, French, or auto: the server's Discord language")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(interaction: discord.Interaction, language: str) -> None:
        if interaction.guild_id is None:
            raise Refusal("Settings belong to servers; use this command in a server.")
        if not interaction.permissions.manage_guild:
            raise Refusal("Only a member with the Manage Server permission can change Tabula's settings.")
        if language != AUTO and language not in SUPPORTED:
            raise Refusal("Pick one of the offered languages.")
        await store.remember_locale(interaction.guild_id, interaction.guild_locale)
        chosen = await store.set_language(interaction.guild_id, language)
        await interaction.response.send_message(changed_text(chosen, user_language(interaction)), ephemeral=True)

    @group.command(name="settings", description="Show Tabula's settings for this server (only you see them).")
    async def settings(interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise Refusal("Settings belong to servers; use this command in a server.")
        await store.remember_locale(interaction.guild_id, interaction.guild_locale)
        current = await store.get(interaction.guild_id)
        text = settings_text(
            current, user_language(interaction), turn_hours=turn_hours, challenge_minutes=challenge_minutes
        )
        await interaction.response.send_message(text, ephemeral=True)

    tree.add_command(group)
    return group
