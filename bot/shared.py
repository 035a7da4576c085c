"""What several parts of the bot share: the board attachment's name, "mention nobody", and small protocols.

Defined once here, for the parts that are handed one another by the composition root (:mod:`bot.client`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import discord

from bot.storage.records import Announcement, MatchRecord
from bot.storage.settings_store import GuildSettings
from engines import GameState
from i18n.catalog import DEFAULT

if TYPE_CHECKING:
    from bot.core.service import Turn

BOARD_FILE = "board.png"  # the file name of every board picture Tabula attaches
NO_MENTIONS = discord.AllowedMentions.none()  # edits and replies never ping anyone
T = TypeVar("T")


class Workers(Protocol):
    """Runs a picklable function off the event loop (:class:`bot.delivery.workers.WorkerPool`): ``urgent`` work
    passes the ordinary calls waiting, ``background`` work runs beside them at the lowest priority."""

    async def run(
        self, function: Callable[..., T], *args: Any, urgent: bool = False, background: bool = False
    ) -> T: ...


class Renderer(Protocol):
    """Draws a board as PNG bytes, and with :meth:`board` its alt text too
    (:class:`bot.delivery.rendering.BoardRenderer`, in worker processes)."""

    async def png(self, state: GameState, names: Sequence[str], language: str = DEFAULT) -> bytes: ...

    async def board(
        self, state: GameState, names: Sequence[str], language: str = DEFAULT
    ) -> tuple[bytes, str | None]: ...


class Languages(Protocol):
    """Which language a server's public messages are in (the per-server setting)."""

    async def language(self, guild_id: int | None) -> str: ...


class English:
    """Every server reads English (tools and tests that have no settings store)."""

    async def language(self, guild_id: int | None) -> str:
        return DEFAULT


class ServerSettings(Protocol):
    """A server's own settings (:class:`bot.storage.settings_store.GuildSettingsStore`): turn time, reminders…"""

    async def get(self, guild_id: int) -> GuildSettings: ...


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
