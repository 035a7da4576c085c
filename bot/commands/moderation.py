"""``/tabula end``: a moderator (Manage Server) ends any running match of the server, from any channel.

The match is picked by its number, with autocomplete of the server's running matches; the reason is
stored with it and announced where its players are (its thread, its channel, or wherever it moved:
:mod:`bot.delivery.places`).  Nothing is rated.  The reply is private and in the moderator's language.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot import limits
from bot.commands.ui import MatchUI, user_language
from bot.core.refusals import Refusal
from bot.storage.records import MatchRecord
from bot.text.messages import END_REASON_MAX
from engines import GAMES
from i18n.catalog import gettext


def match_label(record: MatchRecord) -> str:
    """Name a running match in the autocomplete list: ``#12 Pond · Ana vs Bo``."""
    names = " vs ".join(" ".join(seat.name.split()) for seat in record.players)
    return f"#{record.id} {GAMES[record.game].title} · {names}"[: limits.CHOICE_NAME_MAX]


def add_end_command(group: app_commands.Group, ui: MatchUI) -> None:
    """Add ``/tabula end match: reason:`` to the ``/tabula`` group."""

    @group.command(name="end", description="End a running game of this server by its number (Manage Server).")
    @app_commands.describe(match="The game's number: start typing to see the running games", reason="Why it ends")
    async def end(
        interaction: discord.Interaction,
        match: app_commands.Range[int, 1, limits.INTEGER_OPTION_MAX],
        reason: app_commands.Range[str, 1, END_REASON_MAX] | None = None,
    ) -> None:
        if interaction.guild_id is None:
            raise Refusal("Settings belong to servers; use this command in a server.")
        if not interaction.permissions.manage_guild:
            raise Refusal("Only a member with the Manage Server permission can end a game.")
        answer = await ui.service.end_match(
            interaction.guild_id, match, by=interaction.user.display_name, reason=" ".join((reason or "").split())
        )
        record = answer.record
        language = user_language(interaction)
        text = gettext(
            language,
            "Game number {number} ({game}) is over; it will not be rated.",
            number=record.id,
            game=GAMES[record.game].title,
        )
        if not record.followups:
            text += " " + gettext(language, "Its players are told in {place}.", place=f"<#{record.place_id}>")
        await interaction.response.send_message(text, ephemeral=True)
        await ui.announcer.deliver(answer.announcements, record=answer.record)

    @end.autocomplete("match")
    async def running(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[int]]:
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            return []
        records = await ui.service.store.running_in_guild(interaction.guild_id)
        needle = str(typed).strip().lower().lstrip("#")
        found = [r for r in records if needle in match_label(r).lower()]
        return [app_commands.Choice(name=match_label(r), value=r.id) for r in found[: limits.AUTOCOMPLETE_CHOICES_MAX]]


__all__ = ["add_end_command", "match_label"]
