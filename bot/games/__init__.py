"""One slash-command group per game, found by the game's name in :data:`engines.GAMES`.

Each registered game has a module ``bot/games/<name>.py`` whose ``build(ui)``
returns its command group, built on :mod:`bot.games.common`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from discord import app_commands

from engines import GAMES

if TYPE_CHECKING:
    from bot.commands.ui import MatchUI

Builder = Callable[["MatchUI"], app_commands.Group]


def builder(game: str) -> Builder:
    """Return the ``build`` function of ``bot/games/<game>.py`` (ImportError if the game has none).

    The module is the one ``GAMES[game].module("bot.games")`` names.
    """
    module = importlib.import_module(GAMES[game].module(__name__))
    return cast(Builder, module.build)


def build_groups(ui: MatchUI) -> list[app_commands.Group]:
    """Return every registered game's command group, ready to add to the command tree."""
    return [builder(game)(ui) for game in GAMES]
