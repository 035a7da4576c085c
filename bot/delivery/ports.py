"""What the parts that post to Discord share: the board attachment's name, "mention nobody", and the
protocols of the renderer, the announcer, the computer players and the client's channels.

The parts are handed one another by the wiring (:mod:`bot.app`); these protocols say what each sees of
the others.  The commands above use them too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot.core.service import Turn
from bot.storage.records import Announcement, MatchRecord
from engines import GameState
from i18n.catalog import DEFAULT

BOARD_FILE = "board.png"  # the file name of every board picture Tabula attaches
NO_MENTIONS = discord.AllowedMentions.none()  # edits and replies never ping anyone


class Renderer(Protocol):
    """Draws a board as PNG bytes, and with :meth:`board` its alt text too
    (:class:`bot.delivery.rendering.BoardRenderer`, in worker processes)."""

    async def png(self, state: GameState, names: Sequence[str], language: str = DEFAULT) -> bytes: ...

    async def board(
        self, state: GameState, names: Sequence[str], language: str = DEFAULT
    ) -> tuple[bytes, str | None]: ...


class Computers(Protocol):
    """The computer players: told when a match may be waiting for one of them."""

    def wake(self, record: MatchRecord, state: GameState | None, reply: Any = None) -> None: ...


class Deliverer(Protocol):
    """The announcer (:class:`bot.delivery.announcer.Announcer`), as the parts that post through it see it."""

    async def deliver(
        self,
        announcements: Sequence[Announcement],
        reply: Any = None,
        *,
        state: GameState | None = None,
        turn: Turn | None = None,
        record: MatchRecord | None = None,
    ) -> Any: ...


class Channels(Protocol):
    """What the client offers to reach a channel by its ID (``discord.Client`` has it)."""

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable: ...
