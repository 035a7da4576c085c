"""The computer's seats: small user IDs of their own, one per level and seat, and their names.

A computer seat is a :class:`~bot.storage.records.Seat` whose ID no Discord user can have; its
level is read back from the ID (:func:`computer_level`), so the match record needs nothing more.
"""

from __future__ import annotations

from collections.abc import Sequence

from ai import LEVEL_NAMES
from bot.core.refusals import Refusal
from bot.storage.records import Seat
from engines import GameState


def level_list(language: str) -> str:
    """The computer's levels, listed for a refusal: ``easy, medium, hard``."""
    return ", ".join(AI_LEVELS)


# Computer seats get small IDs of their own (real Discord snowflakes are far larger), one per
# level and seat, so that a match may hold several of them.  Their names show the level.
AI_LEVELS = LEVEL_NAMES  # defined once, in ai.LEVELS
AI_ID_BASE = 1000


SEAT_LETTERS = "ABCDEFGHIJ"


def computer_seat(level: str, index: int = 0, *, several: bool = False) -> Seat:
    """The seat of a computer player of ``level`` (the ``index``-th such seat in a match).

    With ``several`` computer seats in one match each gets a letter: "Tabula A (medium)", "Tabula B (hard)".
    """
    if level not in AI_LEVELS:
        raise Refusal("Difficulty must be one of: {levels}.", levels=level_list)
    if not 0 <= index < len(SEAT_LETTERS):
        raise Refusal("That is more computer seats than any game has.")
    name = f"Tabula {SEAT_LETTERS[index]} ({level})" if several else f"Tabula ({level})"
    return Seat(AI_ID_BASE + 10 * AI_LEVELS.index(level) + index, name)


def computer_ids() -> tuple[int, int]:
    """The lowest and highest user ID a computer seat can have."""
    return AI_ID_BASE, AI_ID_BASE + 10 * len(AI_LEVELS) - 1


def computer_level(user_id: int) -> str | None:
    """The level of a computer seat's ID, or ``None`` for a person."""
    offset = user_id - AI_ID_BASE
    if 0 <= offset < 10 * len(AI_LEVELS):
        return AI_LEVELS[offset // 10]
    return None


def mentions_for(players: Sequence[Seat], state: GameState) -> tuple[int, ...]:
    """Whom to ping about ``state``: the person to move (never a computer seat)."""
    if state.to_move is None:
        return ()
    user_id = players[state.to_move].user_id
    return () if computer_level(user_id) else (user_id,)
