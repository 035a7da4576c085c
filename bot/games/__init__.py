"""One slash-command group per game, all built on :mod:`bot.games.common`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands

from bot.games import azul, pond, querni, summer

if TYPE_CHECKING:
    from bot.ui import MatchUI

BUILDERS = (pond.build, azul.build, querni.build, summer.build)


def build_groups(ui: MatchUI) -> list[app_commands.Group]:
    """Return every game's command group, ready to add to the command tree."""
    return [build(ui) for build in BUILDERS]
