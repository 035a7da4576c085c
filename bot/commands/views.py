"""Buttons that survive restarts: their custom IDs carry everything they need.

discord.py's :class:`~discord.ui.DynamicItem` matches a custom ID against a
template, so a button on a message posted before a restart still reaches its
handler afterwards; the match itself is read from the database.  The handler is
given when the composition root (:mod:`bot.client`) builds the button class, so
no module here reaches for the client.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.storage.records import MatchRecord
from i18n.catalog import DEFAULT, gettext


def routed_view() -> discord.ui.View:
    """An empty row of buttons whose presses the dynamic items route (they work after restarts too).

    The view is stopped before it is sent, so discord.py does not keep it: it would otherwise keep every
    such view (and its buttons) under its message's ID for as long as the bot runs, one per board and
    challenge posted, although the dynamic items already route every press.
    """
    view = discord.ui.View(timeout=None)
    view.stop()
    return view


# (interaction, match ID, accept?) -> the work of answering the challenge
AnswerHandler = Callable[[discord.Interaction[Any], int, bool], Awaitable[None]]

CHALLENGE_TEMPLATE = r"tabula:challenge:(?P<action>accept|decline):(?P<match>[0-9]{1,19})"


def challenge_custom_id(match_id: int, accept: bool) -> str:
    return f"tabula:challenge:{'accept' if accept else 'decline'}:{match_id}"


def challenge_button(match_id: int, accept: bool, language: str = DEFAULT) -> discord.ui.Button[Any]:
    """The Accept or Decline button of a challenge message, labelled in the server's ``language``."""
    return discord.ui.Button(
        label=gettext(language, "Accept") if accept else gettext(language, "Decline"),
        style=discord.ButtonStyle.success if accept else discord.ButtonStyle.secondary,
        custom_id=challenge_custom_id(match_id, accept),
    )


def challenge_view(record: MatchRecord, language: str = DEFAULT) -> discord.ui.View:
    """The Accept / Decline buttons of a challenge (no timeout: they work until it ends)."""
    view = routed_view()
    view.add_item(challenge_button(record.id, True, language))
    view.add_item(challenge_button(record.id, False, language))
    return view


def challenge_buttons(handler: AnswerHandler) -> type[discord.ui.DynamicItem[Any]]:
    """The dynamic item that routes every press of Accept or Decline, on any message, to ``handler``."""

    class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=CHALLENGE_TEMPLATE):
        """Accept or Decline on a challenge message."""

        def __init__(self, match_id: int, accept: bool) -> None:
            super().__init__(challenge_button(match_id, accept))
            self.match_id = match_id
            self.accept = accept

        @classmethod
        async def from_custom_id(
            cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
        ) -> ChallengeButton:
            return cls(int(match["match"]), match["action"] == "accept")

        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            await handler(interaction, self.match_id, self.accept)

    return ChallengeButton


# -- rematch and draw offers -----------------------------------------------------------------

# (interaction, finished match ID) -> the work of challenging the others again
RematchHandler = Callable[[discord.Interaction[Any], int], Awaitable[None]]
# (interaction, match ID, match version the offer was made at, accept?) -> the work of answering it
DrawHandler = Callable[[discord.Interaction[Any], int, int, bool], Awaitable[None]]

REMATCH_TEMPLATE = r"tabula:rematch:(?P<match>[0-9]{1,19})"
DRAW_TEMPLATE = r"tabula:draw:(?P<action>accept|decline):(?P<match>[0-9]{1,19}):(?P<version>[0-9]{1,9})"


def rematch_custom_id(match_id: int) -> str:
    return f"tabula:rematch:{match_id}"


def rematch_button(match_id: int, language: str = DEFAULT) -> discord.ui.Button[Any]:
    """The Rematch button of a result message, labelled in the server's ``language``."""
    return discord.ui.Button(
        label=gettext(language, "Rematch"), style=discord.ButtonStyle.primary, custom_id=rematch_custom_id(match_id)
    )


def rematch_view(match_id: int, language: str = DEFAULT) -> discord.ui.View:
    """Rematch and Analyse under a finished game's result (no timeout: they work after restarts too)."""
    view = routed_view()
    view.add_item(rematch_button(match_id, language))
    view.add_item(analyse_button(match_id, language))
    return view


def rematch_buttons(handler: RematchHandler) -> type[discord.ui.DynamicItem[Any]]:
    """The dynamic item that routes every press of Rematch, on any result message, to ``handler``."""

    class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=REMATCH_TEMPLATE):
        """Rematch under a result."""

        def __init__(self, match_id: int) -> None:
            super().__init__(rematch_button(match_id))
            self.match_id = match_id

        @classmethod
        async def from_custom_id(
            cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
        ) -> RematchButton:
            return cls(int(match["match"]))

        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            await handler(interaction, self.match_id)

    return RematchButton


# (interaction, finished match ID) -> the work of posting its review
AnalyseHandler = Callable[[discord.Interaction[Any], int], Awaitable[None]]
ANALYSE_TEMPLATE = r"tabula:analyse:(?P<match>[0-9]{1,19})"


def analyse_button(match_id: int, language: str = DEFAULT) -> discord.ui.Button[Any]:
    """The Analyse button under a result or a replay (the computer's review), labelled in ``language``."""
    return discord.ui.Button(
        label=gettext(language, "Analyse"), style=discord.ButtonStyle.secondary, custom_id=f"tabula:analyse:{match_id}"
    )


def analyse_buttons(handler: AnalyseHandler) -> type[discord.ui.DynamicItem[Any]]:
    """The dynamic item that routes every press of Analyse, on any message, to ``handler``."""

    class AnalyseButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ANALYSE_TEMPLATE):
        """Analyse under a result or a replay."""

        def __init__(self, match_id: int) -> None:
            super().__init__(analyse_button(match_id))
            self.match_id = match_id

        @classmethod
        async def from_custom_id(
            cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
        ) -> AnalyseButton:
            return cls(int(match["match"]))

        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            await handler(interaction, self.match_id)

    return AnalyseButton


def draw_custom_id(match_id: int, version: int, accept: bool) -> str:
    return f"tabula:draw:{'accept' if accept else 'decline'}:{match_id}:{version}"


def draw_button(match_id: int, version: int, accept: bool, language: str = DEFAULT) -> discord.ui.Button[Any]:
    """Accept or Decline on a draw offer, labelled in the server's ``language``."""
    return discord.ui.Button(
        label=gettext(language, "Accept the draw") if accept else gettext(language, "Decline"),
        style=discord.ButtonStyle.success if accept else discord.ButtonStyle.secondary,
        custom_id=draw_custom_id(match_id, version, accept),
    )


def draw_view(match_id: int, version: int, language: str = DEFAULT) -> discord.ui.View:
    """The buttons of a draw offer, valid while the match stays at ``version``."""
    view = routed_view()
    view.add_item(draw_button(match_id, version, True, language))
    view.add_item(draw_button(match_id, version, False, language))
    return view


def draw_buttons(handler: DrawHandler) -> type[discord.ui.DynamicItem[Any]]:
    """The dynamic item that routes every press on a draw offer to ``handler``."""

    class DrawButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=DRAW_TEMPLATE):
        """Accept or Decline on a draw offer."""

        def __init__(self, match_id: int, version: int, accept: bool) -> None:
            super().__init__(draw_button(match_id, version, accept))
            self.match_id = match_id
            self.version = version
            self.accept = accept

        @classmethod
        async def from_custom_id(
            cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
        ) -> DrawButton:
            return cls(int(match["match"]), int(match["version"]), match["action"] == "accept")

        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            await handler(interaction, self.match_id, self.version, self.accept)

    return DrawButton
