"""Per-server settings: the language of a server's public messages, and what Discord says of the server.

One row per server in ``guild_settings`` (migrations 004, 005, 009, 010 and 013), one nullable column per setting:
``NULL`` means the bot's default, so a server that never changed anything has no row, and a later setting (turn time,
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

from bot.storage.database import Database
from i18n.catalog import DEFAULT, SUPPORTED, locale_for

#: What ``/tabula language`` offers besides the languages: follow the server's Discord language.
AUTO = "auto"


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """One server's settings; ``None`` fields are the defaults.

    A server's timing and switches are ``None`` until ``/tabula`` sets them; the ``effective_…`` methods
    take the bot's defaults (the environment's :class:`bot.settings.Settings`: ``turn_hours * 3600``,
    ``challenge_minutes * 60``; reminders and threads default to on) and return what applies::

        settings = await store.settings.get(guild_id)
        if settings.effective_reminders():
            ...
        deadline = now + settings.effective_turn_seconds(default_turn_seconds)
    """

    guild_id: int
    language: str | None = None  # chosen with /tabula language; None: follow the Discord locale
    guild_locale: str | None = None  # the server's Discord locale as last seen
    turn_seconds: int | None = None  # time for a turn, chosen with /tabula turn_time
    challenge_seconds: int | None = None  # how long a challenge stays open, /tabula challenge_time
    reminders: bool | None = None  # turn reminders in this server, /tabula reminders
    threads: bool | None = None  # a thread per match, /tabula threads
    organiser_role: int | None = None  # a role that may run events as Manage Server can, /tabula organiser
    hints: bool | None = None  # /<game> hint in practice games against the computer, /tabula hints
    puzzle_channel: int | None = None  # where the daily puzzle is posted (None: nowhere), /tabula puzzles

    def effective_turn_seconds(self, default: float) -> float:
        """The time for a turn here: the server's, else ``default`` (the bot's)."""
        return float(self.turn_seconds) if self.turn_seconds is not None else default

    def effective_challenge_seconds(self, default: float) -> float:
        """How long a challenge stays open here: the server's, else ``default`` (the bot's)."""
        return float(self.challenge_seconds) if self.challenge_seconds is not None else default

    def effective_reminders(self, default: bool = True) -> bool:
        """Whether players to move are reminded here: the server's switch, else ``default`` (on)."""
        return self.reminders if self.reminders is not None else default

    def effective_threads(self, default: bool = True) -> bool:
        """Whether matches challenged in a text channel get a thread each: the server's, else ``default`` (on)."""
        return self.threads if self.threads is not None else default

    def effective_hints(self, default: bool = True) -> bool:
        """Whether players may ask for hints in practice games here: the server's switch, else ``default`` (on)."""
        return self.hints if self.hints is not None else default

    @property
    def effective_language(self) -> str:
        """The language public messages use: the chosen one, else the server's Discord locale, else English."""
        if self.language in SUPPORTED:
            return str(self.language)
        return locale_for(self.guild_locale) if self.guild_locale else DEFAULT


class GuildSettingsStore:
    """Read and change servers' settings, on a shared :class:`~bot.storage.database.Database`."""

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
            "SELECT language, guild_locale, turn_seconds, challenge_seconds, reminders, threads, organiser_role, "
            "hints, puzzle_channel FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        if rows:
            language, guild_locale, turn, challenge, reminders, threads, role, hints, puzzles = rows[0]
            settings = GuildSettings(
                guild_id,
                language,
                guild_locale,
                None if turn is None else int(turn),
                None if challenge is None else int(challenge),
                None if reminders is None else bool(reminders),
                None if threads is None else bool(threads),
                None if role is None else int(role),
                None if hints is None else bool(hints),
                None if puzzles is None else int(puzzles),
            )
        else:
            settings = GuildSettings(guild_id)
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

    async def change(self, guild_id: int, **values: int | bool | None) -> GuildSettings:
        """Set some of ``turn_seconds``, ``challenge_seconds``, ``reminders``, ``threads``, ``organiser_role``,
        ``hints``, ``puzzle_channel`` (``None``: the default).

        The values were checked by the command that asks; anything else is a programming error.
        """
        unknown = set(values) - {
            "turn_seconds", "challenge_seconds", "reminders", "threads", "organiser_role", "hints", "puzzle_channel"
        }  # fmt: skip
        if unknown:
            raise ValueError(f"unknown settings {sorted(unknown)}")
        current = await self.get(guild_id)
        await self._save(replace(current, **values))  # type: ignore[arg-type]
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
                "INSERT INTO guild_settings (guild_id, language, guild_locale, turn_seconds, challenge_seconds, "
                "reminders, threads, organiser_role, hints, puzzle_channel, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language, "
                "guild_locale = excluded.guild_locale, turn_seconds = excluded.turn_seconds, "
                "challenge_seconds = excluded.challenge_seconds, reminders = excluded.reminders, "
                "threads = excluded.threads, organiser_role = excluded.organiser_role, hints = excluded.hints, "
                "puzzle_channel = excluded.puzzle_channel, updated_at = excluded.updated_at",
                (
                    settings.guild_id,
                    settings.language,
                    settings.guild_locale,
                    settings.turn_seconds,
                    settings.challenge_seconds,
                    None if settings.reminders is None else int(settings.reminders),
                    None if settings.threads is None else int(settings.threads),
                    settings.organiser_role,
                    None if settings.hints is None else int(settings.hints),
                    settings.puzzle_channel,
                    self.clock(),
                ),
            )
        self._cache[settings.guild_id] = settings
