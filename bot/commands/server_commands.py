"""``/tabula``: a server's settings for Tabula.

* ``/tabula language`` chooses the language of the server's public messages (challenges, turn lines,
  results, rating changes, boards): English, Русский, Français, or ``auto`` (the server's Discord
  language when Tabula speaks it, else English).  Only members with Manage Server may change it.
* ``/tabula turn_time`` and ``/tabula challenge_time`` set how long a turn and a challenge last here
  (``30m``, ``12h``, ``2d``; ``default`` goes back to the bot's), ``/tabula reminders`` and
  ``/tabula threads`` switch turn reminders and a thread per game on or off (Manage Server).
* ``/tabula organiser`` names a role whose members may run events (``/tournament create``, ``start``,
  ``cancel``, ``remove``) as Manage Server members can; without a role it goes back to Manage Server only.
* ``/tabula hints`` allows or forbids ``/<game> hint`` in practice games against the computer (Manage Server;
  on by default).
* ``/tabula puzzles`` chooses the channel where Tabula posts a puzzle every day (UTC), or with no channel stops
  it (Manage Server; :mod:`bot.delivery.daily_puzzles`).
* ``/tabula settings`` shows the server's settings to anyone who asks (only they see it).

The settings live in :mod:`bot.storage.settings_store`; the group is the home of later settings too.
Replies are private and in the asker's language.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord
from babel import Locale
from discord import app_commands

from bot.commands.ui import user_language
from bot.core.refusals import Refusal
from bot.storage.database import N_
from bot.storage.settings_store import AUTO, GuildSettings
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
    """What the commands need of :class:`bot.storage.settings_store.GuildSettingsStore`."""

    async def get(self, guild_id: int) -> GuildSettings: ...

    async def set_language(self, guild_id: int, language: str | None) -> GuildSettings: ...

    async def change(self, guild_id: int, **values: int | bool | None) -> GuildSettings: ...

    async def remember_locale(self, guild_id: int | None, guild_locale: object) -> None: ...


class PuzzleChannel(Protocol):
    """Where the daily puzzle goes (:class:`bot.delivery.daily_puzzles.DailyPuzzles`)."""

    async def set_channel(self, guild_id: int, channel_id: int | None) -> None: ...


#: What a server may choose (seconds): a turn from a minute to two weeks, a challenge from a minute to a week.
TURN_RANGE = (60, 14 * 86400)
CHALLENGE_RANGE = (60, 7 * 86400)
#: The word that goes back to the bot's default.
DEFAULT_WORD = "default"

# Units a duration may be written in, in every language Tabula speaks: 2d, 2j, 2д; 12h, 12ч; 30m, 30min, 30мин.
_UNITS = {
    "d": 86400, "day": 86400, "days": 86400, "j": 86400, "jour": 86400, "jours": 86400, "д": 86400, "дн": 86400,
    "h": 3600, "hr": 3600, "hour": 3600, "hours": 3600, "ч": 3600, "час": 3600, "часа": 3600, "часов": 3600,
    "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60, "mn": 60, "м": 60, "мин": 60,
}  # fmt: skip
_PART = re.compile(r"(\d+(?:[.,]\d+)?)\s*([^\d\s.,]+)")


def parse_duration(text: str) -> int | None:
    """Read a duration such as ``30m``, ``12h``, ``2d`` or ``1d 12h``, in seconds; ``None`` for ``default``.

    Raises :class:`Refusal` for anything else.
    """
    cleaned = text.strip().lower()
    if cleaned in (DEFAULT_WORD, "auto", "défaut", "par défaut", "по умолчанию"):
        return None
    total = 0.0
    position = 0
    for part in _PART.finditer(cleaned):
        if cleaned[position : part.start()].strip():
            break
        unit = _UNITS.get(part[2])
        if unit is None:
            break
        total += float(part[1].replace(",", ".")) * unit
        position = part.end()
    else:
        if position and not cleaned[position:].strip():
            return round(total)
    raise Refusal("Write a time like `30m`, `12h`, `2d` or `1d 12h` (or `default`).")


def duration_text(language: str, seconds: float) -> str:
    """Say a duration in the largest whole unit (days from two on): ``2 days``, ``24 hours``, ``90 minutes``."""
    if seconds >= 2 * 86400 and seconds % 86400 == 0:
        days = int(seconds // 86400)
        return ngettext(language, "{n} day", "{n} days", days)
    if seconds >= 3600 and seconds % 3600 == 0:
        return hours_text(language, seconds / 3600)
    return minutes_text(language, seconds / 60)


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


def _how(language: str, chosen: object) -> str:
    """Mark a value as the server's own or the bot's default."""
    return gettext(language, "set here") if chosen is not None else gettext(language, "default")


def on_off(language: str, value: bool) -> str:
    return gettext(language, "on") if value else gettext(language, "off")


def settings_text(settings: GuildSettings, language: str, *, turn_seconds: float, challenge_seconds: float) -> str:
    """The server's settings, said in ``language``; ``turn_seconds`` and ``challenge_seconds`` are the bot's."""
    shown = LANGUAGE_NAMES.get(settings.effective_language, settings.effective_language)
    if settings.language is None:
        how = gettext(language, "{language} (automatic: the server's Discord language)", language=shown)
    else:
        how = gettext(language, "{language} (chosen with `/tabula language`)", language=shown)
    turn = duration_text(language, settings.effective_turn_seconds(turn_seconds))
    challenge = duration_text(language, settings.effective_challenge_seconds(challenge_seconds))
    lines = [
        gettext(language, "**Tabula's settings for this server**"),
        gettext(language, "Language of public messages: {value}", value=how),
        gettext(language, "Time for a turn: {value}", value=f"{turn} ({_how(language, settings.turn_seconds)})"),
        gettext(
            language,
            "A challenge expires after: {value}",
            value=f"{challenge} ({_how(language, settings.challenge_seconds)})",
        ),
        gettext(
            language,
            "Turn reminders: {value}",
            value=f"{on_off(language, settings.effective_reminders())} ({_how(language, settings.reminders)})",
        ),
        gettext(
            language,
            "A thread for each game: {value}",
            value=f"{on_off(language, settings.effective_threads())} ({_how(language, settings.threads)})",
        ),
        gettext(
            language,
            "Hints in practice games against the computer: {value}",
            value=f"{on_off(language, settings.effective_hints())} ({_how(language, settings.hints)})",
        ),
        organisers_text(settings, language),
        puzzle_channel_text(settings, language),
        gettext(language, "Members with Manage Server change them with the other `/tabula` commands."),
    ]
    return "\n".join(lines)


def organisers_text(settings: GuildSettings, language: str) -> str:
    """Who may run events here: Manage Server, and the server's organiser role if it named one."""
    if settings.organiser_role is None:
        return gettext(language, "Who runs events: members with Manage Server (default)")
    return gettext(
        language,
        "Who runs events: members with Manage Server or the role {role}",
        role=f"<@&{settings.organiser_role}>",
    )


def puzzle_channel_text(settings: GuildSettings, language: str) -> str:
    """Where the daily puzzle is posted, if anywhere."""
    if settings.puzzle_channel is None:
        return gettext(language, "Daily puzzle: off (choose a channel with `/tabula puzzles`)")
    return gettext(language, "Daily puzzle: posted in {channel}", channel=f"<#{settings.puzzle_channel}>")


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


SWITCH_CHOICES = [
    app_commands.Choice(name="On", value="on"),
    app_commands.Choice(name="Off", value="off"),
    app_commands.Choice(name="Default (on)", value=DEFAULT_WORD),
]


def _check_manager(interaction: discord.Interaction) -> int:
    """Refuse unless a Manage Server member asks in a server; return the server's ID."""
    if interaction.guild_id is None:
        raise Refusal("Settings belong to servers; use this command in a server.")
    if not interaction.permissions.manage_guild:
        raise Refusal("Only a member with the Manage Server permission can change Tabula's settings.")
    return interaction.guild_id


def within(seconds: int | None, low: int, high: int, language_free_what: str) -> int | None:
    """Return ``seconds`` if it is from ``low`` to ``high`` (or ``None``: the default); refuse it otherwise.

    ``language_free_what`` names the duration (marked with ``N_``); the refusal says it, and the range, in the
    asker's language.  ``/tournament create`` checks its durations with this too.
    """
    if seconds is not None and not low <= seconds <= high:
        raise Refusal(
            "{what} must be from {low} to {high}.",
            what=lambda language: gettext(language, language_free_what),
            low=lambda language: duration_text(language, low),
            high=lambda language: duration_text(language, high),
        )
    return seconds


def _switch(value: str) -> bool | None:
    if value not in ("on", "off", DEFAULT_WORD):
        raise Refusal("Pick on, off or default.")
    return None if value == DEFAULT_WORD else value == "on"


def add_server_commands(
    tree: app_commands.CommandTree[Any],
    store: SettingsStore,
    *,
    turn_hours: float,
    challenge_minutes: float,
    puzzles: PuzzleChannel | None = None,
) -> app_commands.Group:
    """Add the ``/tabula`` group to the bot's tree; ``turn_hours`` and ``challenge_minutes`` are the bot's defaults,
    ``puzzles`` the daily puzzle (``/tabula puzzles``; without it, the command is left out)."""
    group = app_commands.Group(name="tabula", description="Tabula's settings for this server.", guild_only=True)
    defaults = {"turn_seconds": turn_hours * 3600, "challenge_seconds": challenge_minutes * 60}

    async def confirm(interaction: discord.Interaction, settings: GuildSettings) -> None:
        language = user_language(interaction)
        text = gettext(language, "Done.") + "\n" + settings_text(settings, language, **defaults)
        await interaction.response.send_message(text, ephemeral=True)

    @group.command(name="language", description="Choose the language of Tabula's public messages here (Manage Server).")
    @app_commands.describe(language="English, Russian, French, or auto: the server's Discord language")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(interaction: discord.Interaction, language: str) -> None:
        guild_id = _check_manager(interaction)
        if language != AUTO and language not in SUPPORTED:
            raise Refusal("Pick one of the offered languages.")
        await store.remember_locale(guild_id, interaction.guild_locale)
        chosen = await store.set_language(guild_id, language)
        await interaction.response.send_message(changed_text(chosen, user_language(interaction)), ephemeral=True)

    @group.command(name="turn_time", description="Set how long a player has for a turn here (Manage Server).")
    @app_commands.describe(time="Like 12h, 2d or 1d 12h (1 minute to 14 days), or default")
    async def turn_time(interaction: discord.Interaction, time: app_commands.Range[str, 1, 30]) -> None:
        guild_id = _check_manager(interaction)
        seconds = within(parse_duration(time), *TURN_RANGE, N_("The time for a turn"))
        await confirm(interaction, await store.change(guild_id, turn_seconds=seconds))

    @group.command(
        name="challenge_time", description="Set how long a challenge waits for an answer here (Manage Server)."
    )
    @app_commands.describe(time="Like 15m, 2h or 1d (1 minute to 7 days), or default")
    async def challenge_time(interaction: discord.Interaction, time: app_commands.Range[str, 1, 30]) -> None:
        guild_id = _check_manager(interaction)
        seconds = within(parse_duration(time), *CHALLENGE_RANGE, N_("The time a challenge waits"))
        await confirm(interaction, await store.change(guild_id, challenge_seconds=seconds))

    @group.command(name="reminders", description="Turn reminders of whose turn it is on or off here (Manage Server).")
    @app_commands.describe(value="On, off, or default (on)")
    @app_commands.choices(value=SWITCH_CHOICES)
    async def reminders(interaction: discord.Interaction, value: str) -> None:
        guild_id = _check_manager(interaction)
        await confirm(interaction, await store.change(guild_id, reminders=_switch(value)))

    @group.command(
        name="threads", description="Play each game in a thread of its own, or in the channel (Manage Server)."
    )
    @app_commands.describe(value="On, off, or default (on)")
    @app_commands.choices(value=SWITCH_CHOICES)
    async def threads(interaction: discord.Interaction, value: str) -> None:
        guild_id = _check_manager(interaction)
        await confirm(interaction, await store.change(guild_id, threads=_switch(value)))

    @group.command(
        name="hints", description="Allow hints in practice games against the computer, or not (Manage Server)."
    )
    @app_commands.describe(value="On, off, or default (on)")
    @app_commands.choices(value=SWITCH_CHOICES)
    async def hints(interaction: discord.Interaction, value: str) -> None:
        guild_id = _check_manager(interaction)
        await confirm(interaction, await store.change(guild_id, hints=_switch(value)))

    @group.command(name="organiser", description="Name a role whose members may run events (Manage Server).")
    @app_commands.describe(role="The organisers' role; leave it out to let only Manage Server members run events")
    async def organiser(interaction: discord.Interaction, role: discord.Role | None = None) -> None:
        guild_id = _check_manager(interaction)
        if role is not None and role.is_default():
            raise Refusal("Pick a role other than @everyone.")
        await confirm(interaction, await store.change(guild_id, organiser_role=None if role is None else role.id))

    if puzzles is not None:

        @group.command(name="puzzles", description="Choose where Tabula posts a puzzle every day (Manage Server).")
        @app_commands.describe(channel="The daily puzzle's channel; leave it out to stop the daily puzzle")
        async def daily_puzzles(
            interaction: discord.Interaction, channel: app_commands.AppCommandChannel | None = None
        ) -> None:
            guild_id = _check_manager(interaction)
            # Any channel as Discord resolves it (a server not in the cache too), then only a text channel.
            if channel is not None and channel.type not in (discord.ChannelType.text, discord.ChannelType.news):
                raise Refusal("Pick a text channel for the daily puzzle.")
            await puzzles.set_channel(guild_id, None if channel is None else channel.id)
            await confirm(interaction, await store.get(guild_id))

    @group.command(name="settings", description="Show Tabula's settings for this server (only you see them).")
    async def settings(interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise Refusal("Settings belong to servers; use this command in a server.")
        await store.remember_locale(interaction.guild_id, interaction.guild_locale)
        current = await store.get(interaction.guild_id)
        await interaction.response.send_message(
            settings_text(current, user_language(interaction), **defaults), ephemeral=True
        )

    tree.add_command(group)
    return group
