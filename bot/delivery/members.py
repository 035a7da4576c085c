"""Who has left a server, asked of Discord one member at a time (no privileged intent needed).

Tabula does not receive member events (the Server Members intent is privileged, and Tabula asks for none), so
an event learns that an entrant left the server when it pairs its next round: it asks Discord for each
entrant's membership (``GET /guilds/{guild}/members/{user}``, which needs no intent).  Only Discord's own
answer that the member or the user is unknown counts as gone; any other failure (a timeout, 5xx, a rate limit
beyond discord.py's retries) counts as still here, so a flaky moment never withdraws anyone.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Protocol

import discord

log = logging.getLogger(__name__)

UNKNOWN_MEMBER = 10007
UNKNOWN_USER = 10013


class MemberLookup(Protocol):
    async def get_member(self, guild_id: int, member_id: int) -> Any: ...


class Members:
    """Tells which of some users are no longer members of a server."""

    def __init__(self, http: MemberLookup) -> None:
        self.http = http

    async def departed(self, guild_id: int, user_ids: Sequence[int]) -> set[int]:
        """The users among ``user_ids`` that Discord says are not members of ``guild_id`` (any more)."""
        gone = set()
        for user_id in user_ids:
            try:
                await self.http.get_member(guild_id, user_id)
            except discord.NotFound as error:
                if error.code in (UNKNOWN_MEMBER, UNKNOWN_USER):
                    gone.add(user_id)
            except (TimeoutError, discord.HTTPException, OSError) as error:
                log.info("could not tell whether %s is still in server %s: %s", user_id, guild_id, error)
        return gone
