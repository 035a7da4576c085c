"""Azul's components and values: colours, counts, the wall's layout, bit tables, moves, boards and events."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from typing import Any, NamedTuple

from engines.base import (
    ABANDONED,
    FORFEIT,
    TIMEOUT,
    OptionSpec,
    legacy_forfeit_code,
)

_TWO64 = 1 << 64
# Rng.below's rejection limit for every bag size (a bag holds at most 100 tiles).
_MAX_BAG = 100
_LIMITS = (0, *(_TWO64 - _TWO64 % n for n in range(1, _MAX_BAG + 1)))
_tuple_new = tuple.__new__

# -- the components -----------------------------------------------------------

COLOURS = ("blue", "yellow", "red", "black", "white")
LETTERS = "byrkw"  # k for black, as on the rulebook's wall
SPACE_LETTERS = "byrkw."  # indexed by a space's value: a colour; -1 (empty) and MARKER give "."
BLUE, YELLOW, RED, BLACK, WHITE = range(5)
MARKER = 5  # the first-player marker's value on a floor line
MARKER_LETTER = "m"
FLOOR_LETTERS = LETTERS + MARKER_LETTER  # indexed by a floor space's value
TILES_PER_COLOUR = 20
FACTORY_SIZE = 4
FACTORIES = {2: 5, 3: 7, 4: 9}
FLOOR_SPACES = 7
FLOOR_PENALTIES = (1, 1, 2, 2, 2, 3, 3)
# Points lost for 0..7 occupied floor spaces.
FLOOR_LOSS = tuple(sum(FLOOR_PENALTIES[:n]) for n in range(FLOOR_SPACES + 1))
ROW_BONUS, COLUMN_BONUS, COLOUR_BONUS = 2, 7, 10
DEFAULT_MAX_ROUNDS = 100
WALLS = ("colour", "grey")

# Move numbering, shared with the text: the centre is source 0, factories 1..9;
# pattern lines 1..5, the floor line is destination 6; grey-wall tiling moves
# have source WALL.
CENTRE = 0
FLOOR = 6
WALL = -1

# DECIDED: a full pattern line is not offered as a destination (choosing it would
# send every tile to the floor, the same as choosing the floor).
OFFER_FULL_LINES = False
# DECIDED (grey wall): a complete line with exactly one legal wall space is tiled
# without asking; with two or more the player chooses.
AUTO_TILE_FORCED = True

OFFER, TILING, OVER = "offer", "tiling", "over"
PHASES = (OFFER, TILING, OVER)

OPTIONS = (
    OptionSpec("first_player", None, "Seat (0 = player 1) who starts; drawn from the seed by default.", None, 0, 3),
    OptionSpec("wall", "colour", "Wall side: colour (printed colours) or grey (free placement).", WALLS),
    OptionSpec("max_rounds", DEFAULT_MAX_ROUNDS, "Safety limit: the game ends after this many rounds.", None, 1, 1000),
)

# Colour-wall layout: row r, column c holds colour (c - r) mod 5, so colour k sits in column (k + r) mod 5.
WALL_COLOUR = tuple(tuple((c - r) % 5 for c in range(5)) for r in range(5))
WALL_COLUMN = tuple(tuple((k + r) % 5 for k in range(5)) for r in range(5))

EMPTY5 = (0, 0, 0, 0, 0)
NO_LINES = (-1, -1, -1, -1, -1)
EMPTY_WALL = (-1,) * 25
# A board's ``free`` mask has bit 5 * colour + row set while that wall row may still take that colour.
ALL_FREE = (1 << 25) - 1
ROW_BITS = tuple(sum(1 << (5 * k + r) for k in range(5)) for r in range(5))
# Colour-wall scoring from a board's ``free`` mask: ``placed = ALL_FREE ^ free`` has bit 5 * colour + row set for
# every tile on the wall, and on the coloured wall a tile's colour and row give its column.
_COLOUR_ROW_BITS = sum(1 << (5 * k) for k in range(5))  # bit 5 * colour of each colour, for a row shifted to 0
# _ROW_SPACES[row][placed >> row & _COLOUR_ROW_BITS]: the row's occupied columns, bit c for column c.
_ROW_SPACES = tuple(
    {
        sum(1 << (5 * k) for k in range(5) if mask >> k & 1): sum(
            1 << WALL_COLUMN[row][k] for k in range(5) if mask >> k & 1
        )
        for mask in range(32)
    }
    for row in range(5)
)
# _COLUMN_BITS[column]: the bits of ``placed`` that can fall in that column; _COLUMN_SPACES[column][placed &
# _COLUMN_BITS[column]]: the column's occupied rows, bit r for row r.
_COLUMN_BITS = tuple(sum(1 << (5 * WALL_COLOUR[row][column] + row) for row in range(5)) for column in range(5))
_COLUMN_SPACES = tuple(
    {sum(1 << (5 * WALL_COLOUR[row][column] + row) for row in range(5) if mask >> row & 1): mask for mask in range(32)}
    for column in range(5)
)
# _RUN_LENGTH[mask][i]: the length of the run of set bits of a 5-bit ``mask`` through bit i (0 when i is clear).
_RUN_LENGTH = tuple(
    tuple(
        max(
            (
                end - start
                for start in range(i + 1)
                for end in range(i + 1, 6)
                if all(mask >> j & 1 for j in range(start, end))
            ),
            default=0,
        )
        for i in range(5)
    )
    for mask in range(32)
)
# For every possible ``Board.line_counts``: the rows (as ROW_BITS masks) of the empty pattern lines, of the
# part-filled ones and of the full ones.
_LINE_TESTS: tuple[Callable[[int, int], bool], ...] = (
    lambda n, size: n == 0,
    lambda n, size: 0 < n < size,
    lambda n, size: n == size,
)
_LINE_ROWS = {
    counts: tuple(sum(ROW_BITS[row] for row in range(5) if test(counts[row], row + 1)) for test in _LINE_TESTS)
    for counts in itertools.product(*(range(row + 2) for row in range(5)))
}
# For every possible ``Board.line_colours``: bit 5 * colour + row for each pattern line holding a colour.
_LINE_COLOUR_BITS = {
    colours: sum(1 << (5 * colour + row) for row, colour in enumerate(colours) if colour >= 0)
    for colours in itertools.product(range(-1, 5), repeat=5)
}
# For every possible ``Board.line_counts``: the complete pattern lines (rows from 0, top first), and the counts
# once they are emptied.
_COMPLETE_LINES = {
    counts: (
        tuple(row for row in range(5) if counts[row] == row + 1),
        tuple(0 if n == row + 1 else n for row, n in enumerate(counts)),
    )
    for counts in itertools.product(*(range(row + 2) for row in range(5)))
}


class Termination(StrEnum):
    """How a game of Azul ends."""

    WALL_ROW = "wall_row"  # a player completed a wall row: the game ended after that round's tiling
    ROUND_LIMIT = "round_limit"  # the max_rounds safety limit
    NO_TILES = "no_tiles"  # no tile was left to fill the factories (a safety rule)
    FORFEIT = FORFEIT  # the last but one player resigned (with two players: the other resigned)
    TIMEOUT = TIMEOUT  # the last but one player let the deadline pass
    ABANDONED = ABANDONED  # the last but one player let the deadline pass twice over (nobody claimed)


def _legacy_termination(reason: str) -> Termination:
    """Return the code of a format-1 result sentence."""
    if reason.startswith("A wall row is complete"):
        return Termination.WALL_ROW
    if reason.startswith("Ended by the round limit"):
        return Termination.ROUND_LIMIT
    if reason.startswith("Ended as no tile is left"):
        return Termination.NO_TILES
    return Termination(legacy_forfeit_code(reason))


def seat_names(players: int) -> tuple[str, ...]:
    """Name the seats in turn order: ``player 1``, ``player 2``, ..."""
    return tuple(f"player {i + 1}" for i in range(players))


def tiles_text(counts: Sequence[int]) -> str:
    """Return tile counts as letters in colour order, e.g. ``(2, 0, 1, 0, 0)`` -> ``'bbr'``."""
    b, y, r, k, w = counts
    return "b" * b + "y" * y + "r" * r + "k" * k + "w" * w


# -- values ------------------------------------------------------------------


class AzulMove(NamedTuple):
    """A move: take tiles (``source`` 0 centre or factory 1..9) or, in the grey wall, tile a line.

    A take moves every tile of ``colour`` from ``source`` to pattern line
    ``line`` (1..5) or to the floor (``line == FLOOR``).  A grey-wall tiling move
    has ``source == WALL`` and puts pattern line ``line``'s ``colour`` tile in
    wall column ``column`` (1..5).
    """

    source: int
    colour: int
    line: int
    column: int = 0


class Board(NamedTuple):
    """One player's board; rows, lines and columns are indexed from 0 at the top left.

    ``line_colours[i]`` is the colour in pattern line ``i + 1`` (-1 when empty)
    and ``line_counts[i]`` how many tiles it holds (at most ``i + 1``).  ``wall``
    holds 25 spaces row by row, each a colour or -1.  ``floor`` lists the floor
    spaces from the left: colours, or :data:`MARKER`.  ``free`` is derived from
    the wall: bit ``5 * colour + row`` is set while that row lacks that colour.
    """

    score: int
    line_colours: tuple[int, ...]
    line_counts: tuple[int, ...]
    wall: tuple[int, ...]
    floor: tuple[int, ...]
    free: int

    def complete_rows(self) -> int:
        """Count the wall's complete horizontal rows."""
        # A row is complete exactly when it holds all five colours, so none is still free.
        free = self.free
        return sum(1 for bits in ROW_BITS if not free & bits)

    def bonuses(self) -> tuple[int, int, int]:
        """Return the end-of-game counts: complete rows, complete columns, complete colours."""
        wall = self.wall
        count = wall.count
        # Sums of truths, written out: every game's end counts them for every player.
        columns = (
            (-1 not in wall[0::5])
            + (-1 not in wall[1::5])
            + (-1 not in wall[2::5])
            + (-1 not in wall[3::5])
            + (-1 not in wall[4::5])
        )
        colours = (count(0) == 5) + (count(1) == 5) + (count(2) == 5) + (count(3) == 5) + (count(4) == 5)
        return self.complete_rows(), columns, colours


def bonus_points(counts: tuple[int, int, int]) -> int:
    """Return the end-of-game bonus for (complete rows, columns, colours)."""
    rows, columns, colours = counts
    return ROW_BONUS * rows + COLUMN_BONUS * columns + COLOUR_BONUS * colours


def wall_free(wall: tuple[int, ...]) -> int:
    """Return the ``free`` mask of a wall (see :class:`Board`)."""
    free = ALL_FREE
    for i, colour in enumerate(wall):
        if colour >= 0:
            free &= ~(1 << (5 * colour + i // 5))
    return free


EMPTY_BOARD = Board(0, NO_LINES, EMPTY5, EMPTY_WALL, (), ALL_FREE)


class Placement(NamedTuple):
    """A tile moved to a wall during tiling (``row`` and ``column`` count from 1)."""

    player: int
    row: int
    column: int
    colour: int
    points: int


class Discard(NamedTuple):
    """A complete grey-wall line whose colour had no legal space: its ``tiles`` went to the floor (and the lid)."""

    player: int
    row: int
    colour: int
    tiles: int


class ScoreStep(NamedTuple):
    """How one player's score changed in one ply: ``before`` + ``gain`` − ``penalty`` + ``bonus`` = ``after``.

    ``gain`` is what the ply's wall tiles scored, ``penalty`` the floor's printed cost and ``bonus`` the
    end-of-game bonus.  A score stops at 0: when the floor took more than the player had, ``clipped`` is true and
    the sum reads ``before + gain − penalty → after``.  ``before`` is ``None`` only in an event loaded from a save
    made before the engine kept it, when the save cannot tell it (see :func:`_legacy_scores`).
    """

    before: int | None
    gain: int
    penalty: int
    bonus: int
    after: int
    clipped: bool


class AzulEvent(NamedTuple):
    """What the last ply did, for the summary line and the picture (a named tuple: every ply makes one).

    A take fills ``move``, ``taken`` (tiles taken), ``to_line`` / ``to_floor`` /
    ``to_lid`` (where they went) and ``marker`` (the first-player marker was
    taken); the tiles filled the mover's pattern-line spaces from ``line_start``
    (0 is the space by the wall) and floor spaces from ``floor_start`` (the
    marker first), see :meth:`line_spaces` and :meth:`floor_spaces`;
    ``marker_held`` says the marker was taken onto a full floor and is held
    beside it.  A grey-wall tiling move fills ``move`` only.  ``placements`` and
    ``discards`` are the wall tiling this ply caused (every player's).  When a
    round's tiling finished, ``round_ended`` is that round's number,
    ``penalties`` the floor points each player lost (as printed) and ``clipped``
    whether the floor took more than the player had (the score stopped at 0);
    when the game ended, ``bonuses`` holds each player's (complete rows,
    columns, colours).  A ply that ran wall tiling keeps every player's score
    ``before`` and ``after`` it (:meth:`score_step` puts them together).  A
    player leaving has ``move is None`` and how they left in ``left``
    (``forfeit`` or ``timeout``).
    """

    player: int
    move: AzulMove | None
    taken: int = 0
    to_line: int = 0
    to_floor: int = 0
    to_lid: int = 0
    marker: bool = False
    placements: tuple[Placement, ...] = ()
    discards: tuple[Discard, ...] = ()
    round_ended: int = 0
    penalties: tuple[int, ...] = ()
    bonuses: tuple[tuple[int, int, int], ...] = ()
    left: str = ""
    line_start: int = 0
    floor_start: int = 0
    marker_held: bool = False
    before: tuple[int | None, ...] = ()
    after: tuple[int, ...] = ()
    clipped: tuple[bool, ...] = ()

    def line_spaces(self) -> tuple[int, ...]:
        """Return the mover's pattern-line spaces (0 by the wall) that the take's tiles filled."""
        return tuple(range(self.line_start, self.line_start + self.to_line))

    def floor_spaces(self) -> tuple[int, ...]:
        """Return the mover's floor spaces (0 at the left) that the take filled: the marker, then tiles."""
        count = self.to_floor + (1 if self.marker and not self.marker_held else 0)
        return tuple(range(self.floor_start, self.floor_start + count))

    def score_step(self, player: int) -> ScoreStep | None:
        """Return how this ply changed ``player``'s score, or ``None`` if it did not."""
        if not self.after:
            return None
        gain = sum(p.points for p in self.placements if p.player == player)
        penalty = self.penalties[player] if self.penalties else 0
        bonus = bonus_points(self.bonuses[player]) if self.bonuses else 0
        if not (gain or penalty or bonus):
            return None
        clipped = self.clipped[player] if self.clipped else False
        return ScoreStep(self.before[player], gain, penalty, bonus, self.after[player], clipped)

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-safe dict of this event."""
        return {
            "player": self.player,
            "move": None if self.move is None else list(self.move),
            "taken": self.taken,
            "to_line": self.to_line,
            "to_floor": self.to_floor,
            "to_lid": self.to_lid,
            "marker": self.marker,
            "placements": [list(p) for p in self.placements],
            "discards": [list(d) for d in self.discards],
            "round_ended": self.round_ended,
            "penalties": list(self.penalties),
            "bonuses": [list(b) for b in self.bonuses],
            "left": self.left,
            "line_start": self.line_start,
            "floor_start": self.floor_start,
            "marker_held": self.marker_held,
            "before": list(self.before),
            "after": list(self.after),
            "clipped": list(self.clipped),
        }

    @classmethod
    def from_json(cls, data: Any) -> AzulEvent:
        """Rebuild an event saved by :meth:`to_json`; raise :class:`InvalidState` if malformed."""
        # An event alone does not say how many play: a round's end lists one penalty per player.
        penalties = data.get("penalties") if isinstance(data, Mapping) else None
        players = len(penalties) if isinstance(penalties, list) and len(penalties) in FACTORIES else max(FACTORIES)
        after = data.get("after") if isinstance(data, Mapping) else None
        if isinstance(after, list) and len(after) in FACTORIES:
            players = len(after)
        # The event reader lives with the other save readers, which build on the values defined here.
        from engines.azul.saves import _event_from_json

        return _event_from_json(data, players, FACTORIES[players])


# Every take move, precomputed so that generating moves allocates nothing:
# TAKES[source][colour][mask] lists the moves to the pattern lines in the 5-bit
# ``mask`` (bit i = line i + 1), then to the floor, in sorted order.
TAKES = tuple(
    tuple(
        tuple(
            (
                *tuple(AzulMove(source, colour, i + 1) for i in range(5) if mask >> i & 1),
                AzulMove(source, colour, FLOOR),
            )
            for mask in range(32)
        )
        for colour in range(5)
    )
    for source in range(max(FACTORIES.values()) + 1)
)
