"""Buttons that survive restarts: their custom IDs carry everything they need.

discord.py's :class:`~discord.ui.DynamicItem` matches a custom ID against a
template, so a button on a message posted before a restart still reaches its
handler afterwards; the match itself is read from the database.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.storage import MatchRecord

if TYPE_CHECKING:
    from bot.client import TabulaBot


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tabula:challenge:(?P<action>accept|decline):(?P<match>[0-9]{1,20})",
):
    """Accept or Decline on a challenge message."""

    def __init__(self, match_id: int, accept: bool) -> None:
        action = "accept" if accept else "decline"
        super().__init__(
            discord.ui.Button(
                label="Accept" if accept else "Decline",
                style=discord.ButtonStyle.success if accept else discord.ButtonStyle.secondary,
                custom_id=f"tabula:challenge:{action}:{match_id}",
            )
        )
        self.match_id = match_id
        self.accept = accept

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ChallengeButton:
        return cls(int(match["match"]), match["action"] == "accept")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: TabulaBot = interaction.client
        await bot.guarded(interaction, bot.ui.answer(interaction, self.match_id, self.accept))


def challenge_view(record: MatchRecord) -> discord.ui.View:
    """The Accept / Decline buttons of a challenge (no timeout: they work until it ends)."""
    view = discord.ui.View(timeout=None)
    view.add_item(ChallengeButton(record.id, True))
    view.add_item(ChallengeButton(record.id, False))
    return view


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (ChallengeButton,)
