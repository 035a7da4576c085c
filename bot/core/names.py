"""Names people chose, made safe to show in the bot's Markdown text, without discord.py.

The domain puts players' names into its refusals and notices, so escaping them belongs here, below
the layers that talk to Discord.  The result is the same as discord.py's ``escape_markdown`` (links
left alone) followed by ``escape_mentions``, which ``tests/bot/core/test_names.py`` checks on arbitrary names.
"""

from __future__ import annotations

import functools
import re

# A link is left as written, so it still works: one in angle brackets, or a bare web or Steam address
# (which does not take the punctuation that ends a sentence).
_LINK = r"<[^: >]+:/[^ >]+>|(?:https?|steam)://[^\s<]+[^<.,:;\"'\]\s]"
# What Discord reads as Markdown: a marker character, a quote or a heading or a list item at a line's
# start, and a masked link; each gets a backslash before it.
_MARKUP = r"[_\\~|*`]|^>(?:>>)?\s|\[.+\]\(.+\)|^#{1,3}|^\s*-"
_TEXT = re.compile(f"(?P<link>{_LINK})|(?P<markup>{_MARKUP})", re.MULTILINE)
# @everyone, @here and user or role mentions by ID: a zero-width space after the @ keeps them from pinging.
_MENTION = re.compile(r"@(everyone|here|[!&]?[0-9]{17,20})")


def _escape_markup(found: re.Match[str]) -> str:
    link = found["link"]
    return link if link else "\\" + found["markup"]


# Every turn's text escapes its players' names again: the same few names, so they are remembered (names are at
# most 64 characters: the cache holds a few hundred KB at most).
@functools.lru_cache(maxsize=4096)
def escape_name(name: str) -> str:
    """Return ``name`` as literal text: no Markdown (``||spoiler||``, ``**``), no mentions (``<@&1>``, ``@here``)."""
    # Mentions are escaped after Markdown, so the zero-width space added there is not escaped again.
    text = _TEXT.sub(_escape_markup, name)
    text = _MENTION.sub("@\u200b\\1", text)
    # Mentions by ID leave role and channel mentions alone: break the "<@&" and "<#" openers too.
    return text.replace("<", "<\u200b")
