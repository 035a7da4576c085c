"""One place that turns errors into what the user sees: a refusal's words, or a calm apology."""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import Any

import discord

from bot.core.refusals import describe_error
from bot.delivery.failures import already_acknowledged
from bot.storage.database import N_
from i18n.catalog import gettext, locale_for

log = logging.getLogger(__name__)

SOMETHING_WENT_WRONG = N_("Something went wrong on my side. Your game is safe; please try again in a moment.")


def describe_interaction(interaction: discord.Interaction[Any]) -> str:
    """Name an interaction for the log (never its token)."""
    command = (
        interaction.command.qualified_name
        if interaction.command
        else interaction.data and interaction.data.get("custom_id")
    )
    return f"interaction {interaction.id} ({command}) in channel {interaction.channel_id}"


async def report(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Tell the user what went wrong (ephemeral); log anything unexpected with its traceback."""
    if already_acknowledged(error):
        # Discord delivered this interaction twice (a gateway resume): the first delivery's answer stands.
        log.info("dropped a doubled delivery of %s", describe_interaction(interaction))
        return
    language = locale_for(interaction.locale)
    message = describe_error(error, language)
    if message is None:
        log.error("unexpected error in %s", describe_interaction(interaction), exc_info=error)
        message = gettext(language, SOMETHING_WENT_WRONG)
    if interaction.type is discord.InteractionType.autocomplete:
        return
    try:
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)
    except (discord.HTTPException, TimeoutError, OSError) as refused:
        if already_acknowledged(refused):
            log.info("dropped a doubled delivery of %s (answered already)", describe_interaction(interaction))
            return
        log.warning("could not deliver an error message for %s", describe_interaction(interaction), exc_info=True)


async def guarded(interaction: discord.Interaction[Any], work: Awaitable[None]) -> None:
    """Run a button's work with the same error handling as slash commands."""
    try:
        await work
    except Exception as error:
        await report(interaction, error)
