"""Pond's board and values: pieces and their faces, variants, cells and geometry, moves and events."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from engines.base import (
    ABANDONED,
    AGREED,
    FORFEIT,
    TIMEOUT,
    InvalidState,
    OptionSpec,
    legacy_forfeit_code,
)

SEATS = ("light", "dark")
FACES = ("egg", "tadpole", "frog")
FACE_LETTERS = "ETF"

EMPTY = 0
# A piece is 1 + 3 * owner + face, face 0 egg, 1 tadpole, 2 frog.
OWNER = (-1, 0, 0, 0, 1, 1, 1)
FACE = (-1, 0, 1, 2, 0, 1, 2)
DEVELOP = (0, 2, 3, 1, 5, 6, 4)
EGG = (1, 4)


class Variant(NamedTuple):
    """One variant's board and piece counts."""

    size: int  # the board is size x size cells
    spawn: int  # eggs per player
    target: int  # scored pieces that end the game


# Light moves first (DECIDED).
VARIANTS = {"standard": Variant(4, 13, 10), "mini": Variant(4, 10, 7), "large": Variant(5, 14, 10)}
DEFAULT_VARIANT = "standard"
DEFAULT_MAX_PLIES = 300

OPTIONS = (
    OptionSpec("variant", DEFAULT_VARIANT, "Board and piece counts: standard, mini or large.", tuple(VARIANTS)),
    OptionSpec("spawn", None, "Eggs per player (default: the variant's).", minimum=1, maximum=25),
    OptionSpec("target", None, "Scored pieces that end the game (default: the variant's).", minimum=1, maximum=25),
    OptionSpec(
        "max_plies",
        DEFAULT_MAX_PLIES,
        "Safety limit: the game is a draw after this many plies.",
        minimum=1,
        maximum=5000,
    ),
)


def piece_code(value: int) -> str:
    """Return the two-letter code of a cell's content, e.g. ``lE`` or ``..``."""
    if value == EMPTY:
        return ".."
    return "ld"[OWNER[value]] + FACE_LETTERS[FACE[value]]


def piece_from_code(code: str) -> int:
    """Return the cell value for a two-letter code; raise :class:`InvalidState` if unknown."""
    if code == "..":
        return EMPTY
    if len(code) == 2 and code[0] in "ld" and code[1] in FACE_LETTERS:
        return 1 + 3 * "ld".index(code[0]) + FACE_LETTERS.index(code[1])
    raise InvalidState("{code!r} is not a Pond piece.", code=code)


class Geometry:
    """Precomputed neighbourhoods of one board size, shared by every state of that size."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.cells = size * size
        self.names = tuple(f"{'abcde'[i % size]}{i // size + 1}" for i in range(self.cells))
        self.index = {name: i for i, name in enumerate(self.names)}
        orth: list[tuple[int, ...]] = []
        frog: list[tuple[int, ...]] = []
        for i in range(self.cells):
            f, r = i % size, i // size
            near, jumps = [], []
            for df, dr in ((0, -1), (-1, 0), (1, 0), (0, 1)):
                for step in (1, 2):
                    nf, nr = f + df * step, r + dr * step
                    if 0 <= nf < size and 0 <= nr < size:
                        jumps.append(nr * size + nf)
                        if step == 1:
                            near.append(nr * size + nf)
            orth.append(tuple(sorted(near)))
            frog.append(tuple(sorted(jumps)))
        self.orth = tuple(orth)
        self.frog = tuple(frog)
        # Every window of three consecutive cells in a row or a column; a set is a
        # union of windows whose three faces agree, so runs of 4 and 5 come for free.
        windows = []
        for r in range(size):
            for f in range(size - 2):
                windows.append(tuple(r * size + f + k for k in range(3)))
        for f in range(size):
            for r in range(size - 2):
                windows.append(tuple((r + k) * size + f for k in range(3)))
        self.windows = tuple(windows)
        self.windows_by_cell = tuple(tuple(w for w in windows if i in w) for i in range(self.cells))


GEOMETRY = {size: Geometry(size) for size in sorted({variant.size for variant in VARIANTS.values()})}


class Termination(StrEnum):
    """How a game of Pond ends."""

    TARGET = "target"  # a player reached the target (more scored pieces wins; equal is a draw)
    ELIMINATION = "elimination"  # the player to move had no legal action and lost
    MOVE_LIMIT = "move_limit"  # the max_plies safety limit: a draw
    FORFEIT = FORFEIT  # a player resigned
    TIMEOUT = TIMEOUT  # a player let the deadline pass
    ABANDONED = ABANDONED  # a player let the deadline pass twice over: the game ended on time by itself
    AGREED = AGREED  # the players agreed to a draw


def _legacy_termination(reason: str) -> Termination:
    """Return the code of a format-1 result sentence."""
    if reason.startswith("The target of"):
        return Termination.TARGET
    if "has no legal action" in reason or "eliminated" in reason:
        return Termination.ELIMINATION
    if reason.startswith("Ended by the move limit"):
        return Termination.MOVE_LIMIT
    return Termination(legacy_forfeit_code(reason))


class PondMove(NamedTuple):
    """A Pond action: ``frm`` is -1 for placing an egg on ``to``."""

    frm: int
    to: int


@dataclass(frozen=True, slots=True)
class PondEvent:
    """What one ply did, kept in the state for the summary line and the picture."""

    player: int
    move: PondMove
    actor: int  # the acting piece's value: an egg, a tadpole or a frog
    developed: tuple[int, ...]
    scored: tuple[tuple[int, int], ...]  # (cell, piece value as it scored)
    gains: tuple[int, int]

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-safe dict of this event."""
        return {
            "player": self.player,
            "move": list(self.move),
            "actor": self.actor,
            "developed": list(self.developed),
            "scored": [list(pair) for pair in self.scored],
            "gains": list(self.gains),
        }

    @classmethod
    def from_json(cls, data: Any) -> PondEvent:
        """Rebuild an event saved by :meth:`to_json` (on the largest board); raise :class:`InvalidState`."""
        # The event reader lives with the other save readers, which build on the values defined here.
        from engines.pond.saves import _event_from_json

        return _event_from_json(data, GEOMETRY[5])


def seat_names(players: int) -> tuple[str, ...]:
    """Name the seats: light moves first."""
    return SEATS
