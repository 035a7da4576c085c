"""Per-server settings: the language of a server's public messages, and what Discord says of the server.

One row per server in ``guild_settings`` (migration 004), one nullable column per setting: ``NULL`` means
the bot's default, so a server that never changed anything has no row, and a later setting (turn time,
challenge expiry, reminders, threads) is one more column and one more field of :class:`GuildSettings`.

The store also remembers the server's Discord locale (``guild_locale``) from the interactions it sees,
because the posts made in the background (the sweeper's expiries, computer moves, retries after a
restart) have no interaction to read it from.  Rows are cached in memory: with several shard processes on one
PostgreSQL database, a server's interactions and its background work all reach the one process running its
shard, so that process's cache sees every change (after a re-shard, the process that takes a server over reads
its row afresh).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from bot.database import Database
from i18n.catalog import DEFAULT, SUPPORTED, locale_for

#: What ``/tabula language`` offers besides the languages: follow the server's Discord language.
AUTO = "auto"


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """One server's settings; ``None`` fields are the defaults."""

    guild_id: int
    language: str | None = None  # chosen with /tabula language; None: follow the Discord locale
    guild_locale: str | None = None  # the server's Discord locale as last seen

    @property
    def effective_language(self) -> str:
        """The language public messages use: the chosen one, else the server's Discord locale, else English."""
        if self.language in SUPPORTED:
            return str(self.language)
        return locale_for(self.guild_locale) if self.guild_locale else DEFAULT


class GuildSettingsStore:
    """Read and change servers' settings, on a shared :class:`~bot.database.Database`."""

    def __init__(self, database: Database, clock: Callable[[], float] = time.time) -> None:
        self.database = database
        self.clock = clock
        self._cache: dict[int, GuildSettings] = {}

    async def get(self, guild_id: int) -> GuildSettings:
        """Return ``guild_id``'s settings (all defaults for a server never seen)."""
        found = self._cache.get(guild_id)
        if found is not None:
            return found
        rows = await self.database.rows(
            "SELECT language, guild_locale FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        settings = GuildSettings(guild_id, rows[0][0], rows[0][1]) if rows else GuildSettings(guild_id)
        self._cache[guild_id] = settings
        return settings

    async def language(self, guild_id: int | None) -> str:
        """Return the language of ``guild_id``'s public messages (English outside servers)."""
        if not guild_id:
            return DEFAULT
        return (await self.get(guild_id)).effective_language

    async def set_language(self, guild_id: int, language: str | None) -> GuildSettings:
        """Choose the language of the server's public messages; ``None`` (or ``"auto"``) follows Discord's."""
        if language == AUTO:
            language = None
        if language is not None and language not in SUPPORTED:
            raise ValueError(f"unsupported language {language!r}")
        current = await self.get(guild_id)
        await self._save(replace(current, language=language))
        return self._cache[guild_id]

    async def remember_locale(self, guild_id: int | None, guild_locale: object) -> None:
        """Note the server's Discord locale seen in an interaction (written only when it changed)."""
        if not guild_id or guild_locale is None:
            return
        text = str(getattr(guild_locale, "value", guild_locale))
        current = await self.get(guild_id)
        if current.guild_locale != text:
            await self._save(replace(current, guild_locale=text))

    async def _save(self, settings: GuildSettings) -> None:
        async with self.database.transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, language, guild_locale, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language, "
                "guild_locale = excluded.guild_locale, updated_at = excluded.updated_at",
                (settings.guild_id, settings.language, settings.guild_locale, self.clock()),
            )
        self._cache[settings.guild_id] = settings
