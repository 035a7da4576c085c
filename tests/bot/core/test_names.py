"""Players' names escaped by the domain without discord.py read exactly as discord.py's own escaping makes them."""

from __future__ import annotations

import discord
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.names import escape_name

# Pieces that mean something to Discord's Markdown, its links and its mentions, and plain letters between them.
PIECES = [
    *"ab _\\~|*`>#-[]()<:/.,;'\"@&!09\n\t",
    "https://",
    "steam://",
    "<https://a.b/c_d>",
    "@everyone",
    "@here",
    "12345678901234567",
    "<@&12345678901234567>",
]


def discords(name: str) -> str:
    """The escaping as it was written with discord.py: Markdown (links left alone), mentions, then ``<``."""
    text = discord.utils.escape_mentions(discord.utils.escape_markdown(name, as_needed=False))
    return text.replace("<", "<\u200b")


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=24).map("".join))
def test_names_escape_as_discord_escapes_them(name: str) -> None:
    assert escape_name(name) == discords(name)


def test_names_that_mean_something_are_escaped() -> None:
    assert escape_name("**Ana**") == "\\*\\*Ana\\*\\*"
    assert escape_name("see https://x.io/a_b.") == "see https://x.io/a_b."  # the link is left to work
    assert escape_name("[x](y)") == "\\[x](y)"
    assert escape_name("@everyone <@&12345678901234567>") == "@\u200beveryone <\u200b@\u200b&12345678901234567>"
    assert escape_name("# Bo") == "\\# Bo"
