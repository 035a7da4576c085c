"""Tabula's rules engines: one module per game behind one contract.

``GAMES`` maps a game's name to its :class:`~engines.base.GameSpec`; the bot and
the tests iterate over it instead of naming games.
"""

from __future__ import annotations

from engines import azul, pond, querni, summer
from engines.base import (
    GameError,
    GameSpec,
    GameState,
    IllegalMove,
    InvalidMoveText,
    InvalidOption,
    InvalidState,
    Outcome,
)
from engines.moves import MoveField, MoveForm, MoveKind

GAMES: dict[str, GameSpec] = {spec.name: spec for spec in (pond.SPEC, azul.SPEC, querni.SPEC, summer.SPEC)}

__all__ = [
    "GAMES",
    "GameError",
    "GameSpec",
    "GameState",
    "IllegalMove",
    "InvalidMoveText",
    "InvalidOption",
    "InvalidState",
    "MoveField",
    "MoveForm",
    "MoveKind",
    "Outcome",
]
