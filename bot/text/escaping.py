"""Names people chose, made safe to show in the bot's Markdown text (:mod:`bot.core.names`, where the domain
escapes them too)."""

from __future__ import annotations

from bot.core.names import escape_name as escape_name
