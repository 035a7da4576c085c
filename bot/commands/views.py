"""Buttons that survive restarts: their custom IDs carry everything they need.

discord.py's :class:`~discord.ui.DynamicItem` matches a custom ID against a
template, so a button on a message posted before a restart still reaches its
handler afterwards; the match itself is read from the database.  The handler is
given when the composition root (:mod:`bot.client`) builds the button class, so
no module here reaches for the client.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.commands.components import Choice, CustomId, Number, persistent_button
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

CHALLENGE = CustomId("challenge", Choice("action", ("accept", "decline")), Number("match", 19))
CHALLENGE_TEMPLATE = CHALLENGE.template


def challenge_custom_id(match_id: int, accept: bool) -> str:
    return CHALLENGE.build(action="accept" if accept else "decline", match=match_id)


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
    return persistent_button(
        CHALLENGE,
        "ChallengeButton",
        lambda values: challenge_button(values["match"], values["action"] == "accept"),
        lambda interaction, values: handler(interaction, values["match"], values["action"] == "accept"),
    )


# -- rematch and draw offers ------------------------------------------------------------------

# (interaction, finished match ID) -> the work of challenging the others again
RematchHandler = Callable[[discord.Interaction[Any], int], Awaitable[None]]
# (interaction, match ID, match version the offer was made at, accept?) -> the work of answering it
DrawHandler = Callable[[discord.Interaction[Any], int, int, bool], Awaitable[None]]

REMATCH = CustomId("rematch", Number("match", 19))
REMATCH_TEMPLATE = REMATCH.template
DRAW = CustomId("draw", Choice("action", ("accept", "decline")), Number("match", 19), Number("version", 9))
DRAW_TEMPLATE = DRAW.template


def rematch_custom_id(match_id: int) -> str:
    return REMATCH.build(match=match_id)


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
    return persistent_button(
        REMATCH,
        "RematchButton",
        lambda values: rematch_button(values["match"]),
        lambda interaction, values: handler(interaction, values["match"]),
    )


# (interaction, finished match ID) -> the work of posting its review
AnalyseHandler = Callable[[discord.Interaction[Any], int], Awaitable[None]]
ANALYSE = CustomId("analyse", Number("match", 19))
ANALYSE_TEMPLATE = ANALYSE.template


def analyse_button(match_id: int, language: str = DEFAULT) -> discord.ui.Button[Any]:
    """The Analyse button under a result or a replay (the computer's review), labelled in ``language``."""
    return discord.ui.Button(
        label=gettext(language, "Analyse"), style=discord.ButtonStyle.secondary, custom_id=ANALYSE.build(match=match_id)
    )


def analyse_buttons(handler: AnalyseHandler) -> type[discord.ui.DynamicItem[Any]]:
    """The dynamic item that routes every press of Analyse, on any message, to ``handler``."""
    return persistent_button(
        ANALYSE,
        "AnalyseButton",
        lambda values: analyse_button(values["match"]),
        lambda interaction, values: handler(interaction, values["match"]),
    )


def draw_custom_id(match_id: int, version: int, accept: bool) -> str:
    return DRAW.build(action="accept" if accept else "decline", match=match_id, version=version)


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
    return persistent_button(
        DRAW,
        "DrawButton",
        lambda values: draw_button(values["match"], values["version"], values["action"] == "accept"),
        lambda interaction, values: handler(
            interaction, values["match"], values["version"], values["action"] == "accept"
        ),
    )
