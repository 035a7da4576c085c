"""Tabula's logs: readable text by default, one JSON object per line with ``TABULA_LOG_FORMAT=json``.

A JSON line holds ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``, the ``match_id`` and
``guild_id`` where known, and ``error`` (the traceback) when there is one.  The ids come from the
context of the work being logged (:func:`log_context`): the gateway sets the server of an interaction,
the announcer and the computer the match they work on; tasks started meanwhile inherit them.
"""

from __future__ import annotations

import contextvars
import json
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

TEXT, JSON = "text", "json"
FORMATS = (TEXT, JSON)
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
VOICE_WARNING = "voice will NOT be supported"

_match: contextvars.ContextVar[int | None] = contextvars.ContextVar("tabula_match", default=None)
_guild: contextvars.ContextVar[int | None] = contextvars.ContextVar("tabula_guild", default=None)


@contextmanager
def log_context(*, match_id: int | None = None, guild_id: int | None = None) -> Iterator[None]:
    """Name the match and server that what is logged inside is about (None keeps what is known)."""
    tokens = []
    if match_id is not None:
        tokens.append((_match, _match.set(match_id)))
    if guild_id is not None:
        tokens.append((_guild, _guild.set(guild_id)))
    try:
        yield
    finally:
        for variable, token in reversed(tokens):
            variable.reset(token)


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, variable in (("match_id", _match), ("guild_id", _guild)):
            value = getattr(record, key, None) or variable.get()
            if value is not None:
                entry[key] = value
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        elif record.stack_info:
            entry["error"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


class NoVoiceWarnings(logging.Filter):
    """Drop discord.py's start-up warnings about missing voice libraries; Tabula never uses voice."""

    def filter(self, record: logging.LogRecord) -> bool:
        return VOICE_WARNING not in record.getMessage()


def configure_logging(level: str, form: str = TEXT) -> None:
    """Log to stderr at ``level`` as text or JSON lines, without the voice warnings."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if form == JSON else logging.Formatter(TEXT_FORMAT))
    logging.basicConfig(level=level, handlers=[handler])
    logging.getLogger("discord.client").addFilter(NoVoiceWarnings())
