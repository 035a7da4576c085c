"""Closing a challenge message (its buttons removed, saying how it ended), for the announcer.

Through the pressed button's own response when there is one (no permission needed), else by editing the
message; an edit is idempotent, so retrying it is safe, and a message already deleted leaves nothing to close.
"""

from __future__ import annotations

import logging

import discord

from bot.delivery.composer import Composed
from bot.delivery.failures import UNKNOWN_MESSAGE, Failure, classify
from bot.delivery.ports import NO_MENTIONS, Channels
from bot.delivery.replies import Reply
from bot.storage.match_store import Matches
from bot.storage.records import Announcement

log = logging.getLogger(__name__)


class ChallengeMessages:
    """Edit challenge messages once their challenge is over."""

    def __init__(self, matches: Matches, channels: Channels) -> None:
        self.matches = matches
        self.channels = channels

    async def edit(self, announcement: Announcement, composed: Composed) -> Failure | None:
        """Edit a challenge message (idempotent); ``None`` when done (and marked so)."""
        if composed.edit_message_id is None:
            await self.matches.mark_delivered(announcement.id)
            return None
        channel = self.channels.get_partial_messageable(announcement.channel_id, guild_id=announcement.guild_id)
        try:
            await channel.get_partial_message(composed.edit_message_id).edit(
                content=composed.content, view=None, allowed_mentions=NO_MENTIONS
            )
        except Exception as error:
            failure = classify(error)
            if failure is None:
                raise
            if failure.status == 404 and failure.code == UNKNOWN_MESSAGE:
                await self.matches.mark_delivered(announcement.id)  # the message is gone: nothing left to close
                return None
            log.info("closing challenge message for announcement %s failed: %s", announcement.id, failure.text)
            return failure
        await self.matches.mark_delivered(announcement.id)
        return None

    async def close(self, announcement: Announcement, composed: Composed, reply: Reply | None) -> Failure | None:
        """Close a challenge message: through the pressed button's response if possible, else by editing it.

        ``None`` when done; else Discord's refusal, for the announcer to retry or give up.
        """
        interaction = reply.interaction if reply is not None else None
        if (
            reply is not None
            and interaction is not None
            and interaction.type == discord.InteractionType.component
            and not interaction.response.is_done()
            and not reply.broken
        ):
            try:
                await interaction.response.edit_message(
                    content=composed.content, view=None, allowed_mentions=NO_MENTIONS
                )
            except Exception as error:
                if classify(error) is None:
                    raise
                log.info("closing challenge %s through the interaction failed: %s", announcement.match_id, error)
                reply.broken = True
            else:
                await self.matches.mark_delivered(announcement.id)
                return None
        return await self.edit(announcement, composed)
