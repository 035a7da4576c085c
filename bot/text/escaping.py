"""Names people chose, made safe to show in the bot's Markdown text."""

from __future__ import annotations

import functools

import discord


# Every turn's text escapes its players' names again: the same few names, so they are remembered (names are at
# most 64 characters: the cache holds a few hundred KB at most).
@functools.lru_cache(maxsize=4096)
def escape_name(name: str) -> str:
    """Return ``name`` as literal text: no Markdown (``||spoiler||``, ``**``), no mentions (``<@&1>``, ``@here``)."""
    # Mentions are escaped after Markdown, so the zero-width space escape_mentions adds is not escaped again.
    text = discord.utils.escape_markdown(name, as_needed=False)
    text = discord.utils.escape_mentions(text)
    # escape_mentions leaves role and channel mentions alone: break the "<@&" and "<#" openers too.
    return text.replace("<", "<\u200b")
