"""The interaction a post answers, while its token lives, and what became of a post.

Interaction tokens are kept in memory only, never stored or logged: they are bearer secrets, and after
a restart they would be of little use anyway (they expire 15 minutes after the interaction), so a
restart delivers as channel messages (:mod:`bot.delivery.announcer`).
"""

from __future__ import annotations

from enum import StrEnum

import discord

from bot.delivery.failures import classify

TOKEN_SECONDS = 14 * 60  # an interaction token lives 15 minutes; keep a margin
LOADING = 128  # the message flag of a deferred response still "thinking"


class Result(StrEnum):
    """What became of an announcement when :meth:`bot.delivery.announcer.Announcer.deliver` returned."""

    POSTED = "posted"
    DELAYED = "delayed"  # saved in the outbox; being retried
    FAILED = "failed"  # Discord will not take it; the reason is stored


class Reply:
    """The interaction an announcement answers, while its token is alive (kept in memory only)."""

    def __init__(self, interaction: discord.Interaction, now: float) -> None:
        self.interaction = interaction
        self.arrived = now
        self.loading = False  # a deferred "thinking" message waits for the board
        self.broken = False  # Discord refused this interaction (or it was never acknowledged): use the channel
        self.no_followup = False  # Discord refused a follow-up for good
        self.message_id: int | None = None  # the deferred response's message, once Discord made it

    def alive(self, now: float) -> bool:
        return not self.broken and now - self.arrived < TOKEN_SECONDS

    def can_follow_up(self, now: float) -> bool:
        """Whether a follow-up may still be sent (no permission in any channel needed)."""
        return not self.no_followup and self.alive(now)


def worse(one: Result, other: Result) -> Result:
    """The worse of two results: failed, then delayed, then posted."""
    order = (Result.POSTED, Result.DELAYED, Result.FAILED)
    return max(one, other, key=order.index)


async def loading_done(reply: Reply) -> bool | None:
    """Did the follow-up complete the loading message?  ``None`` when Discord can't say right now."""
    try:
        original = await reply.interaction.original_response()
    except Exception as error:
        if classify(error) is None:
            raise
        return None
    return not original.flags.value & LOADING
