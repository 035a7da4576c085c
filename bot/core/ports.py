"""What the domain is handed rather than builds: the small protocols of the parts below and beside it.

Each is satisfied by a part the wiring (:mod:`bot.app`) builds and hands in; nothing here imports
discord.py, so the domain can be used and tested without it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from bot.storage.settings_store import GuildSettings
from i18n.catalog import DEFAULT

T = TypeVar("T")


class Workers(Protocol):
    """Runs a picklable function off the event loop (:class:`bot.delivery.workers.WorkerPool`): ``urgent`` work
    passes the ordinary calls waiting, ``background`` work runs beside them at the lowest priority."""

    async def run(
        self, function: Callable[..., T], *args: Any, urgent: bool = False, background: bool = False
    ) -> T: ...


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
