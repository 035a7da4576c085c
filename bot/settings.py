"""Tabula's settings, read once from the environment and ``.env``.

No other module reads ``os.environ``.  Real environment variables win over the
``.env`` file, which is never committed (``.env.example`` lists every setting).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values

from bot.shards import Shards, ShardsError

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
#: Where ``/<game> rules`` sends players for the full rules: the project's own rule pages (``docs/`` of this
#: repository), in English, with ``ru/`` and ``fr/`` beside them.  ``TABULA_DOCS_URL`` points elsewhere (a fork).
DOCS_URL = "https://github.com/tabula-bot/tabula/blob/main/docs"
LOG_FORMATS = ("text", "json")


class SettingsError(Exception):
    """A setting is missing or malformed; the message says what to set."""


@dataclass(frozen=True)
class Settings:
    """Everything the bot can be configured with."""

    token: str | None = field(default=None, repr=False)
    database: str = "tabula.sqlite3"
    log_level: str = "INFO"
    dev_guild_id: int | None = None
    challenge_minutes: float = 15.0
    turn_hours: float = 24.0
    render_processes: int = 2
    ai_processes: int = 1
    shards: Shards | None = None  # TABULA_SHARDS: the Discord shards this process runs; None: all, unsharded
    database_connections: int = 10  # TABULA_DATABASE_CONNECTIONS: the PostgreSQL pool's size (unused by SQLite)
    metrics_port: int | None = None  # TABULA_METRICS_PORT: serve /metrics and /healthz there; None: no server
    metrics_host: str = "127.0.0.1"  # TABULA_METRICS_HOST: the address the metrics server listens on
    log_format: str = "text"  # TABULA_LOG_FORMAT: text, or json (one object per line)
    reviews_per_member_day: int = 30  # TABULA_REVIEWS_PER_MEMBER_DAY: new reviews one member may ask for a day
    reviews_per_server_day: int = 300  # TABULA_REVIEWS_PER_SERVER_DAY: new reviews one server may ask for a day
    puzzle_mining: bool = True  # TABULA_PUZZLE_MINING: on (mine every finished match for puzzles) or off
    docs_url: str = DOCS_URL  # TABULA_DOCS_URL: the folder of the rule pages /<game> rules links to

    @classmethod
    def load(cls, environ: Mapping[str, str] | None = None, env_file: str | Path | None = ".env") -> Settings:
        """Read the settings from ``environ`` (default ``os.environ``) over the values in ``env_file``."""
        values: dict[str, str] = {}
        if env_file is not None and Path(env_file).is_file():
            values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
        values.update(os.environ if environ is None else environ)

        def text(name: str) -> str | None:
            value = values.get(name, "").strip()
            return value or None

        def number(name: str, default: float, minimum: float) -> float:
            raw = text(name)
            if raw is None:
                return default
            try:
                value = float(raw)
            except ValueError:
                raise SettingsError(f"{name} must be a number, not {raw!r}.") from None
            if value < minimum:
                raise SettingsError(f"{name} must be at least {minimum}.")
            return value

        def whole(name: str, default: int, minimum: int) -> int:
            raw = text(name)
            if raw is None:
                return default
            try:
                value = int(raw)
            except ValueError:
                raise SettingsError(f"{name} must be a whole number, not {raw!r}.") from None
            if value < minimum:
                raise SettingsError(f"{name} must be at least {minimum}.")
            return value

        guild = text("TABULA_DEV_GUILD_ID")
        if guild is not None and not guild.isdigit():
            raise SettingsError("TABULA_DEV_GUILD_ID must be a server ID (a number).")
        level = (text("TABULA_LOG_LEVEL") or cls.log_level).upper()
        if level not in LOG_LEVELS:
            raise SettingsError(f"TABULA_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}.")
        form = (text("TABULA_LOG_FORMAT") or cls.log_format).lower()
        if form not in LOG_FORMATS:
            raise SettingsError(f"TABULA_LOG_FORMAT must be one of {', '.join(LOG_FORMATS)}.")
        port = whole("TABULA_METRICS_PORT", -1, 0)
        if port > 65535:
            raise SettingsError("TABULA_METRICS_PORT must be a port number, 0 to 65535.")
        mining = (text("TABULA_PUZZLE_MINING") or "on").lower()
        if mining not in ("on", "off"):
            raise SettingsError("TABULA_PUZZLE_MINING must be on or off.")
        shards = _shards(text("TABULA_SHARDS"), text("TABULA_SHARD_COUNT"))
        docs = (text("TABULA_DOCS_URL") or cls.docs_url).rstrip("/")
        if not docs.startswith(("https://", "http://")):
            raise SettingsError("TABULA_DOCS_URL must be a web address starting with https://.")
        return cls(
            token=text("DISCORD_TOKEN"),
            database=text("TABULA_DATABASE") or cls.database,
            log_level=level,
            dev_guild_id=int(guild) if guild else None,
            challenge_minutes=number("TABULA_CHALLENGE_MINUTES", cls.challenge_minutes, 1.0),
            turn_hours=number("TABULA_TURN_HOURS", cls.turn_hours, 0.01),
            render_processes=whole("TABULA_RENDER_PROCESSES", cls.render_processes, 0),
            ai_processes=whole("TABULA_AI_PROCESSES", cls.ai_processes, 0),
            shards=shards,
            database_connections=whole("TABULA_DATABASE_CONNECTIONS", cls.database_connections, 1),
            metrics_port=None if port < 0 else port,
            metrics_host=text("TABULA_METRICS_HOST") or cls.metrics_host,
            log_format=form,
            reviews_per_member_day=whole("TABULA_REVIEWS_PER_MEMBER_DAY", cls.reviews_per_member_day, 1),
            reviews_per_server_day=whole("TABULA_REVIEWS_PER_SERVER_DAY", cls.reviews_per_server_day, 1),
            puzzle_mining=mining == "on",
            docs_url=docs,
        )


def _shards(ranges: str | None, count: str | None) -> Shards | None:
    """Read ``TABULA_SHARDS``, whose count ``TABULA_SHARD_COUNT`` may give instead (as the systemd template does).

    ``TABULA_SHARDS=0-3`` with ``TABULA_SHARD_COUNT=8`` is ``0-3/8``; a count given both ways must agree.
    """
    if count is not None and (not count.isdigit() or int(count) < 1):
        raise SettingsError(f"TABULA_SHARD_COUNT must be the total number of shards (a whole number), not {count!r}.")
    if ranges is None:
        if count is not None:
            raise SettingsError(
                "TABULA_SHARD_COUNT is set but TABULA_SHARDS is not: give this process its shards "
                "(TABULA_SHARDS=0-3), or unset both to run every server in one process."
            )
        return None
    if "/" not in ranges:
        looks_like_a_range = ranges.replace(" ", "").replace(",", "").replace("-", "").isdigit()
        if count is None and looks_like_a_range:
            raise SettingsError(
                f"TABULA_SHARDS={ranges} does not say how many shards there are: write it as {ranges}/COUNT, "
                "or set TABULA_SHARD_COUNT (the total, the same for every process)."
            )
        if count is not None:
            ranges = f"{ranges}/{count}"
    try:
        shards = Shards.parse(ranges)
    except ShardsError as error:
        raise SettingsError(str(error)) from None
    if count is not None and shards.count != int(count):
        raise SettingsError(
            f"TABULA_SHARDS says {shards.count} shards and TABULA_SHARD_COUNT says {count}: make them agree."
        )
    return shards
