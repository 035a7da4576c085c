"""Querni's board and values: squares, pieces, the neighbour tables, moves, routes and events."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from itertools import pairwise
from typing import Any, NamedTuple

from engines.base import (
    ABANDONED,
    AGREED,
    FORFEIT,
    TIMEOUT,
    GameError,
    InvalidOption,
    InvalidState,
    OptionSpec,
    legacy_forfeit_code,
    slot_constructor,
)

SEATS = ("blue", "red")
LETTERS = "BR"
FILES = "abcdefghij"
WIDTH = 10
HEIGHT = 7
CELLS = WIDTH * HEIGHT
PIECES = 16  # numbered pieces per side
MIN_CHAIN = 3  # a chain, and a removal, is at least this many consecutive numbers

# DECIDED start squares: blue on files b-i of ranks 1-2, red on files b-i of ranks 6-7.
START_SQUARES = (
    tuple(r * WIDTH + f for r in (0, 1) for f in range(1, 9)),
    tuple(r * WIDTH + f for r in (5, 6) for f in range(1, 9)),
)

ISOLATION_RULES = ("any_stranded", "no_triple_left")
DRAW_COUNTS = ("plies", "moves")
DEFAULT_DRAW_PLIES = 30

OPTIONS = (
    OptionSpec(
        "layout",
        None,
        "Custom start, squares to pieces such as {'d2': 'B4', 'e3': 'R5'}; pieces left out count as removed.",
    ),
    OptionSpec(
        "isolation",
        "any_stranded",
        "When a removal loses: any_stranded (a number left in a run under 3) or no_triple_left.",
        ISOLATION_RULES,
    ),
    OptionSpec("draw_plies", DEFAULT_DRAW_PLIES, "Turns in a row without a removal that draw the game.", None, 1, 1000),
    OptionSpec("draw_count", "plies", "Count draw_plies in plies (one player's turn) or full moves.", DRAW_COUNTS),
)


class Termination(StrEnum):
    """How a game of Querni ends."""

    CLEARED = "cleared"  # the mover removed their last piece and wins
    STRANDED = "stranded"  # (any_stranded) the mover's removal left a number in a run under three: they lose
    NO_TRIPLE = "no_triple"  # (no_triple_left) the mover's removal left no three consecutive numbers: they lose
    NO_REMOVAL = "no_removal"  # draw_plies turns (or full moves) without a removal: a draw
    FORFEIT = FORFEIT  # a player resigned
    TIMEOUT = TIMEOUT  # a player let the deadline pass
    ABANDONED = ABANDONED  # a player let the deadline pass twice over: the game ended on time by itself
    AGREED = AGREED  # the players agreed to a draw


def _legacy_termination(reason: str) -> Termination:
    """Return the code of a format-1 result sentence."""
    if "removed all their pieces" in reason:
        return Termination.CLEARED
    if "'s removal stranded" in reason:
        return Termination.STRANDED
    if "'s removal left no three consecutive numbers" in reason:
        return Termination.NO_TRIPLE
    if reason.startswith("No chain was removed"):
        return Termination.NO_REMOVAL
    return Termination(legacy_forfeit_code(reason))


# Verdicts of :func:`judge_removal`.
STRANDS, SAFE, WINS = -1, 0, 1


# -- the board ------------------------------------------------------------------
#
# A cell holds 0 (empty) or a piece value 16 * colour + number: blue 1..16, red 17..32.
# Cells are numbered rank-major from a1 = 0 to j7 = 69, so moves sort by square.

EMPTY = 0
COLOUR = (-1, *(v // PIECES for v in range(PIECES * 2)))
NUMBER = (0, *(v % PIECES + 1 for v in range(PIECES * 2)))
NAMES = tuple(f"{FILES[c % WIDTH]}{c // WIDTH + 1}" for c in range(CELLS))
INDEX = {name: c for c, name in enumerate(NAMES)}
DIRECTIONS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


def _tables() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[tuple[int, int], ...], ...]]:
    """Build the king-neighbour and jump tables of the 10x7 board."""
    near: list[tuple[int, ...]] = []
    jumps: list[tuple[tuple[int, int], ...]] = []
    for c in range(CELLS):
        f, r = c % WIDTH, c // WIDTH
        one, two = [], []
        for df, dr in DIRECTIONS:
            if 0 <= f + df < WIDTH and 0 <= r + dr < HEIGHT:
                one.append((r + dr) * WIDTH + f + df)
                if 0 <= f + 2 * df < WIDTH and 0 <= r + 2 * dr < HEIGHT:
                    two.append(((r + dr) * WIDTH + f + df, (r + 2 * dr) * WIDTH + f + 2 * df))
        near.append(tuple(sorted(one)))
        jumps.append(tuple(two))
    return tuple(near), tuple(jumps)


# NEAR[c]: king neighbours of c, sorted; JUMPS[c]: (jumped square, landing square) pairs.
NEAR, JUMPS = _tables()
NEAR_SET = tuple(frozenset(n) for n in NEAR)
NO_CELLS: frozenset[int] = frozenset()

# Link bit n - 1 (n = 1..15) says numbers n and n + 1 of one colour stand king-adjacent.
LINK_BITS = (1 << (PIECES - 1)) - 1


def piece_code(value: int) -> str:
    """Return the text of a cell's content: ``B4``, ``R12`` or ``..`` for empty."""
    if value == EMPTY:
        return ".."
    return f"{LETTERS[COLOUR[value]]}{NUMBER[value]}"


_PIECE_RE = re.compile(r"^(b|blue|r|red)\s*(\d{1,2})$")


def piece_value(colour: int, number: int) -> int:
    """Return the cell value of ``colour``'s piece ``number``."""
    return colour * PIECES + number


def _parse_piece(text: Any, error: type[GameError]) -> int:
    """Return the value of a piece written like ``B4`` or ``red 12``; raise ``error`` otherwise."""
    match = _PIECE_RE.match(" ".join(text.lower().split())) if isinstance(text, str) else None
    if not match or not 1 <= int(match.group(2)) <= PIECES:
        if error is InvalidOption:
            raise InvalidOption("{text!r} is not a Querni piece; write B1 to B16 or R1 to R16.", text=str(text)[:20])
        raise InvalidState("{text!r} is not a Querni piece; write B1 to B16 or R1 to R16.", text=str(text)[:20])
    return piece_value(0 if match.group(1)[0] == "b" else 1, int(match.group(2)))


class QuerniMove(NamedTuple):
    """One turn: a move ``frm`` -> ``to`` and/or a removal ``lo``..``hi``; absent parts are -1."""

    frm: int
    to: int
    lo: int
    hi: int


PASS = QuerniMove(-1, -1, -1, -1)
_new_tuple = tuple.__new__
# Every plain move object, built once: legal-move lists reuse them instead of allocating.
_PLAIN = tuple(_new_tuple(QuerniMove, (frm, to, -1, -1)) for frm in range(CELLS) for to in range(CELLS))


# _PLAIN_FROM[start][end]: the plain move from ``start`` to ``end``.
_PLAIN_FROM = tuple(_PLAIN[start * CELLS : (start + 1) * CELLS] for start in range(CELLS))
# _AROUND[n]: the link bits of piece n, to n - 1 and to n + 1 (the only links moving it can change).
_AROUND = (0, *(((1 << (n - 2)) if n > 1 else 0) | ((1 << (n - 1)) if n < PIECES else 0) for n in range(1, PIECES + 1)))


# _BEFORE_PREV[n]: the link bit of n - 2 and n - 1; _AFTER_NEXT[n]: that of n + 1 and n + 2 (0 if off the ends).
_BEFORE_PREV = (0, *((1 << (n - 3)) if n > 2 else 0 for n in range(1, PIECES + 1)))
_AFTER_NEXT = (0, *((1 << n) if n < PIECES - 1 else 0 for n in range(1, PIECES + 1)))
# NEAR_BOTH[a * CELLS + b]: the squares next to both a and b.
NEAR_BOTH = tuple(NEAR_SET[a] & NEAR_SET[b] or NO_CELLS for a in range(CELLS) for b in range(CELLS))


def _runs_to_ranges(mask: int) -> tuple[tuple[int, int], ...]:
    """List every ``(lo, hi)`` with ``hi - lo >= 2`` whose links are all set in ``mask``, sorted."""
    ranges = []
    for lo in range(1, PIECES - 1):
        hi = lo
        while hi < PIECES and mask >> (hi - 1) & 1:
            hi += 1
            if hi - lo >= MIN_CHAIN - 1:
                ranges.append((lo, hi))
    return tuple(ranges)


# Removable ranges and removal-only moves for each 15-bit link mask, filled on first use.
_RANGES: list[tuple[tuple[int, int], ...] | None] = [None] * (LINK_BITS + 1)
_REMOVE_ONLY: dict[int, tuple[QuerniMove, ...]] = {}


def _ranges(mask: int) -> tuple[tuple[int, int], ...]:
    """Return the removable ranges of a link mask, computing them once."""
    found = _RANGES[mask]
    if found is None:
        found = _RANGES[mask] = _runs_to_ranges(mask)
    return found


def _link_mask(where: tuple[int, ...] | list[int], base: int) -> int:
    """Return the link bits of the colour whose values start after ``base``."""
    mask = 0
    here = where[base + 1]
    for n in range(1, PIECES):
        there = where[base + n + 1]
        if here >= 0 and there >= 0 and there in NEAR_SET[here]:
            mask |= 1 << (n - 1)
        here = there
    return mask


# STEP_JUMP[c]: for each king neighbour of c, sorted, (neighbour, the square behind it or -1 off the board).
STEP_JUMP = tuple(tuple((n, dict(JUMPS[c]).get(n, -1)) for n in NEAR[c]) for c in range(CELLS))


# _generate's area marks: an area's number (below 254), an empty square of no area yet, an occupied square.
_OPEN, _BLOCKED = 255, 254
_AREA_MARKS = bytes((_OPEN, *[_BLOCKED] * 255))  # a board's bytes translated: 0 (empty) -> _OPEN, a piece -> _BLOCKED
# _STEP_JUMP_MARKED[c]: STEP_JUMP[c] with a landing off the board at CELLS, which the marks hold as occupied.
_STEP_JUMP_MARKED = tuple(tuple((mid, CELLS if land < 0 else land) for mid, land in pairs) for pairs in STEP_JUMP)


def jumped_squares(path: tuple[int, ...]) -> tuple[int, ...]:
    """Return the squares a path of landings jumped over, one per jump (empty for a step)."""
    out = []
    for a, b in pairwise(path):
        if b not in NEAR_SET[a]:
            out.append(((a // WIDTH + b // WIDTH) // 2) * WIDTH + (a % WIDTH + b % WIDTH) // 2)
    return tuple(out)


def is_step(path: tuple[int, ...]) -> bool:
    """Tell whether a path of landings is one step (a jump always lands two squares away)."""
    return len(path) == 2 and path[1] in NEAR_SET[path[0]]


class Route(NamedTuple):
    """How a move's piece gets to its square: every landing, start first, and the squares it jumped over."""

    path: tuple[int, ...]
    jumped: tuple[int, ...]

    @property
    def stepped(self) -> bool:
        """Tell whether the piece gets there by one step rather than by jumps."""
        return is_step(self.path)

    @property
    def jumps(self) -> int:
        """Return how many jumps it takes (0 for a step)."""
        return len(self.jumped)


@dataclass(frozen=True, slots=True)
class QuerniEvent:
    """What one ply did, kept in the state for the summary line and the picture.

    ``path`` is every landing of the moved piece from its start to its end
    (``()`` if nothing moved); ``removed`` the removed chain as ``(number,
    square)`` pairs, the square being where that piece stood when it left;
    ``counter`` the plies without a removal after this ply.
    """

    player: int
    move: QuerniMove
    piece: int  # number of the moved piece, 0 if nothing moved
    path: tuple[int, ...]
    removed: tuple[tuple[int, int], ...]
    counter: int

    @property
    def jumped(self) -> tuple[int, ...]:
        """Return the squares jumped over, one per jump (empty for a step)."""
        return jumped_squares(self.path)

    @property
    def stepped(self) -> bool:
        """Tell whether the piece moved by one step (``False`` for jumps, or when no piece moved)."""
        return is_step(self.path)

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-safe dict of this event."""
        return {
            "player": self.player,
            "move": list(self.move),
            "piece": self.piece,
            "path": list(self.path),
            "removed": [list(pair) for pair in self.removed],
            "counter": self.counter,
        }

    @classmethod
    def from_json(cls, data: Any) -> QuerniEvent:
        """Rebuild an event saved by :meth:`to_json`; raise :class:`InvalidState` if malformed."""
        # The event reader lives with the other save readers, which build on the values defined here.
        from engines.querni.saves import _event_from_json

        return _event_from_json(data)


_make_event = slot_constructor(QuerniEvent)


def seat_names(players: int) -> tuple[str, ...]:
    """Name the seats: blue moves first."""
    return SEATS
