"""Azul: draft tiles from factory displays, fill pattern lines, tile a wall.

Rules in brief (``docs/azul.md`` gives them in full).  2 to 4 players;
100 tiles, 20 each of blue, yellow, red, black and white, start in the bag; there
are 5, 7 or 9 factories (2, 3 or 4 players), each filled with 4 tiles per round.
A round has two phases:

* **Factory offer.**  In seat order from the round's first player, a player takes
  every tile of one colour from one factory (the rest of that factory goes to the
  centre) or from the centre (the first to do so this round also takes the
  first-player marker, which goes on their floor line first).  The tiles go into
  one pattern line (line *n* holds *n* tiles of a single colour, and never a
  colour that wall row *n* already has) or straight to the floor line; whatever
  does not fit falls to the floor, and past the floor's 7 spaces into the lid.
  The phase ends when the factories and the centre are empty.
* **Wall tiling** (automatic on the coloured wall).  Each player's complete pattern lines, top to
  bottom, move one tile to the wall space of that colour in that row, scoring 1
  when it touches nothing, else the length of its horizontal run plus that of its
  vertical run (each counted only when 2 or longer); the line's other tiles go to
  the lid.  The floor then costs 1 1 2 2 2 3 3 points by occupied space (the
  marker counts; a score never drops below 0).  The marker's holder starts the
  next round, whose factories are refilled in order from the bag, pouring the lid
  into the bag when it runs out.

The game ends after the tiling in which a player completed a wall row: +2 per
complete row, +7 per complete column, +10 per colour with all five tiles.  Most
points wins, then more complete rows; still tied, the victory is shared.  SAFETY:
the game also ends (scored as usual) after ``max_rounds`` rounds, and when no tile
is left to fill a factory.

Project rulings (DECIDED): the first player is drawn from the seed unless the
option ``first_player`` gives a seat; a full pattern line is not offered
(:data:`OFFER_FULL_LINES`); the marker taken onto a full floor is held but costs
nothing; when nobody took from the centre the same player starts the next round.

Grey wall (option ``wall="grey"``): a tile may go on any free space of its row
whose column does not already hold its colour, so tiling asks for decisions.
After the offer, players tile in seat order from the round's first player, each
top to bottom; a complete line whose colour has no legal space goes to the floor
by itself, one with a single legal space is placed by itself
(:data:`AUTO_TILE_FORCED`), and otherwise the player to move chooses the column
with ``wall 3 c2`` (line 3's tile to row 3, column 2).

Leaving (``forfeit``): with two players the other wins.  With three or four the
leaver's board stops taking part (its pattern-line and floor tiles go to the lid,
its wall and score stay as they were; it no longer counts for the end), the
others play on with the same factories, and the leavers rank after every
remaining player, the latest to leave first.  If the leaver held the marker, the
next remaining seat starts the next round.  The last player left wins on the
scores as they stand (no end-of-game bonuses).

Notation: factories ``f1``.. and the centre ``c``; colours ``blue yellow red
black white``; destinations pattern lines ``1``..``5`` or ``floor``.  ``f3 red 4``
takes all red from factory 3 into pattern line 4; ``c blue floor`` puts the
centre's blue tiles on the floor line.  Input is lenient: ``Factory 3 R line 4``,
``centre k f`` (``b y r k w``, k for black), ``f3 red -> 4``, ``red from f3 to
line 4``.  Grey-wall tiling: ``wall 3 c2``; also ``row 3 column 2``, or just
``c2`` for the line waiting to be tiled.

>>> state = new(players=2, seed=16, first_player=0)
>>> state.factory_text(1), state.move_text(state.legal_moves()[0])
('byyr', 'f1 blue 1')
>>> state = state.play("F1 y 2").play("centre B floor")
>>> state.centre_text(), state.boards[1].floor, state.scores()
('r', (5, 0), (0, 0))
>>> state.ply, state.last_event.taken, state.last_event.marker
(2, 1, True)
"""

from __future__ import annotations

import itertools
import operator
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from engines.base import (
    ABANDONED,
    FORFEIT,
    SAVE_FORMAT,
    TIMEOUT,
    GameSpec,
    IllegalMove,
    InvalidMoveText,
    InvalidOption,
    InvalidState,
    OptionSpec,
    Outcome,
    check_forfeit,
    check_players,
    check_seed,
    forfeit_code,
    int_list,
    keyword_replace,
    legacy_forfeit_code,
    load_saved,
    outcome_by_keys,
    resolve_options,
    saved_options,
)
from engines.rng import MASK, Rng

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
_LINE_ROWS = {
    counts: tuple(
        sum(ROW_BITS[row] for row in range(5) if test(counts[row], row + 1))
        for test in (lambda n, size: n == 0, lambda n, size: 0 < n < size, lambda n, size: n == size)
    )
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


# -- reading move text -----------------------------------------------------------

_ALLOWED_TEXT = re.compile(r"[a-z0-9 ,>:.\-]*")
_TOKEN = re.compile(r"[a-z]+|\d+")
_FILLER = frozenset(("take", "takes", "all", "the", "from", "to", "into", "onto", "on", "in", "tiles", "of", "and"))
_CENTRE_WORDS = frozenset(("c", "centre", "center", "middle", "mid"))
_FACTORY_WORDS = frozenset(("f", "factory", "fac", "fact", "display"))
_FLOOR_WORDS = frozenset(("floor", "f", "fl", "flr", "floorline"))
_LINE_WORDS = frozenset(("line", "l", "ln", "row", "pattern", "patternline"))
_WALL_WORDS = frozenset(("wall", "w", "tile", "place"))
_COLUMN_WORDS = frozenset(("c", "col", "column"))
_COLOUR_WORDS: dict[str, int] = {}
for _k, _name in enumerate(COLOURS):
    _COLOUR_WORDS.update({_name: _k, _name + "s": _k, LETTERS[_k]: _k})
_COLOUR_WORDS.update({"blk": BLACK, "yel": YELLOW, "wht": WHITE})


# -- the state ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AzulState:
    """An immutable Azul position.  Build one with :func:`new` or :func:`from_json`.

    What a renderer reads: ``factories`` (per factory, tile counts by colour),
    ``centre`` (counts), ``marker`` (-1 in the centre, else the seat holding it;
    it also appears as :data:`MARKER` on that player's floor unless the floor was
    full), ``boards`` (a :class:`Board` per seat), ``bag`` and ``lid`` (counts),
    ``round``, ``phase`` (``offer``, ``tiling`` in the grey wall, ``over``),
    ``left`` (seats that left, in order) and ``last`` (an :class:`AzulEvent`).
    Colours are indexes into :data:`COLOURS`.  ``first_player`` is the option as
    given; ``starter`` is the seat that began the current round.
    """

    players: int
    seed: int
    grey_wall: bool
    first_player: int | None
    max_rounds: int
    round: int
    phase: str
    turn: int
    starter: int
    rng: int
    bag: tuple[int, ...]
    lid: tuple[int, ...]
    factories: tuple[tuple[int, ...], ...]
    centre: tuple[int, ...]
    marker: int
    boards: tuple[Board, ...]
    left: tuple[int, ...] = ()
    result: Outcome | None = None
    last: AzulEvent | None = None
    ply: int = 0
    _legal: tuple[AzulMove, ...] | None = field(default=None, compare=False, repr=False)

    game = "azul"

    # -- reading the position -------------------------------------------------

    @property
    def last_event(self) -> AzulEvent | None:
        """Return what the last ply did, or who left (``None`` before the first ply)."""
        return self.last

    @property
    def to_move(self) -> int | None:
        """Return the seat to move (or to choose a wall column); None once the game is over."""
        return None if self.result is not None else self.turn

    def scores(self) -> tuple[int, ...]:
        """Return each player's points so far (end-of-game bonuses are added when the game ends)."""
        return tuple(board.score for board in self.boards)

    def outcome(self) -> Outcome | None:
        """Return how the game ended, or None while it runs."""
        return self.result

    def options(self) -> dict[str, Any]:
        """Return the game's options as given to :func:`new`."""
        return {
            "first_player": self.first_player,
            "wall": "grey" if self.grey_wall else "colour",
            "max_rounds": self.max_rounds,
        }

    def victory(self) -> tuple[int, int, int | None]:
        """Return how a game that ended on the wall was won: the winners' points, their complete rows,
        and the most complete rows among the other players tied on points (``None`` if nobody else was).
        """
        result = self.result
        if result is None:
            raise ValueError("The game is not over.")
        scores = self.scores()
        best = scores[result.winners[0]]
        rows = self.boards[result.winners[0]].complete_rows()
        others = [
            self.boards[p].complete_rows()
            for p in self.active_players()
            if scores[p] == best and p not in result.winners
        ]
        return best, rows, max(others) if others else None

    def active_players(self) -> tuple[int, ...]:
        """Return the seats still taking part, in seat order."""
        return tuple(p for p in range(self.players) if p not in self.left)

    @property
    def bag_count(self) -> int:
        """Return the number of tiles in the bag."""
        return sum(self.bag)

    @property
    def lid_count(self) -> int:
        """Return the number of tiles in the box lid."""
        return sum(self.lid)

    def tile_counts(self) -> tuple[int, ...]:
        """Count every tile of the game by colour: bag, lid, table and boards (always 20 of each)."""
        pieces = [tiles_text(tiles) for tiles in self.factories]
        pieces.append(tiles_text(self.centre))
        for board in self.boards:
            pieces.append("".join(map(SPACE_LETTERS.__getitem__, board.wall + board.floor)))
            pieces.extend(LETTERS[k] * n for k, n in zip(board.line_colours, board.line_counts, strict=True))
        text = "".join(pieces)
        return tuple(self.bag[k] + self.lid[k] + text.count(letter) for k, letter in enumerate(LETTERS))

    def factory_text(self, number: int) -> str:
        """Return factory ``number``'s tiles as letters, e.g. ``'bbry'`` (empty string when empty)."""
        return tiles_text(self.factories[number - 1])

    def centre_text(self) -> str:
        """Return the centre's tiles as letters (the marker is not a tile; see ``marker``)."""
        return tiles_text(self.centre)

    def pending_line(self) -> int:
        """Return the pattern line (1..5) the player to move must tile now; 0 outside the grey-wall tiling."""
        if self.phase != TILING:
            return 0
        counts = self.boards[self.turn].line_counts
        return next(i + 1 for i in range(5) if counts[i] == i + 1)

    def wall_columns(self, player: int, line: int) -> tuple[int, ...]:
        """Return the wall columns (1..5) where ``player``'s complete ``line`` could be tiled now."""
        board = self.boards[player]
        row = line - 1
        colour = board.line_colours[row]
        if colour < 0:
            return ()
        if self.grey_wall:
            return tuple(c + 1 for c in grey_columns(board.wall, row, colour))
        column = WALL_COLUMN[row][colour]
        return (column + 1,) if board.wall[5 * row + column] < 0 else ()

    def legal_moves(self) -> tuple[AzulMove, ...]:
        """Return every legal move, sorted; empty exactly when the game is over."""
        legal = self._legal
        if legal is None:
            if self.phase == OFFER:
                legal = self._take_moves()
            elif self.phase == TILING:
                line = self.pending_line()
                colour = self.boards[self.turn].line_colours[line - 1]
                legal = tuple(AzulMove(WALL, colour, line, c) for c in self.wall_columns(self.turn, line))
            else:
                legal = ()
            _set_legal(self, legal)
        return legal

    def _take_moves(self) -> tuple[AzulMove, ...]:
        """Return every legal take, in sorted order, from precomputed tables and move tuples (the hot path)."""
        board = self.boards[self.turn]
        # ``accept`` gets bit 5 * colour + line for every (colour, pattern line) pair that can take tiles: every
        # colour its wall row still lacks on an empty line, the line's own colour on a part-filled one.
        empty, partial, full = _LINE_ROWS[board.line_counts]
        if OFFER_FULL_LINES:
            partial |= full
        accept = board.free & empty | _LINE_COLOUR_BITS[board.line_colours] & partial
        a0 = accept & 31
        a1 = accept >> 5 & 31
        a2 = accept >> 10 & 31
        a3 = accept >> 15 & 31
        a4 = accept >> 20
        moves: list[AzulMove] = []
        extend = moves.extend
        for source, tiles in enumerate((self.centre, *self.factories)):
            if tiles is not EMPTY5:
                b, y, r, k, w = tiles
                table = TAKES[source]
                if b:
                    extend(table[0][a0])
                if y:
                    extend(table[1][a1])
                if r:
                    extend(table[2][a2])
                if k:
                    extend(table[3][a3])
                if w:
                    extend(table[4][a4])
        return tuple(moves)

    # -- notation -------------------------------------------------------------

    def move_text(self, move: AzulMove) -> str:
        """Return the canonical text of ``move``: ``f3 red 4``, ``c blue floor`` or ``wall 3 c2``."""
        source, colour, line, column = move
        if source == WALL:
            return f"wall {line} c{column}"
        where = "c" if source == CENTRE else f"f{source}"
        return f"{where} {COLOURS[colour]} {'floor' if line == FLOOR else line}"

    def parse_move(self, text: str) -> AzulMove:
        """Read a move leniently (case, spaces, words like 'factory' or 'line'); raise :class:`GameError`."""
        if not isinstance(text, str):
            raise InvalidMoveText(
                "A move must be text; "
                "write a move like 'f3 red 4' (factory 3, all red, to pattern line 4) or 'c blue floor'."
            )
        clean = " ".join(text.lower().split())
        if len(clean) > 40:
            raise InvalidMoveText(
                "That move is too long; "
                "write a move like 'f3 red 4' (factory 3, all red, to pattern line 4) or 'c blue floor'."
            )
        if not _ALLOWED_TEXT.fullmatch(clean):
            raise InvalidMoveText(
                "I can't read {text!r}; "
                "write a move like 'f3 red 4' (factory 3, all red, to pattern line 4) or 'c blue floor'.",
                text=text.strip()[:40],
            )
        tokens = [t for t in _TOKEN.findall(clean) if t not in _FILLER]
        if not tokens:
            raise InvalidMoveText(
                "That move is empty; "
                "write a move like 'f3 red 4' (factory 3, all red, to pattern line 4) or 'c blue floor'."
            )
        first = tokens[0]
        # "w" alone is white; "w3 c2" (w then a number) is a wall move.
        walled = first in _WALL_WORDS and (first != "w" or (len(tokens) > 1 and tokens[1].isdigit()))
        tiling = self.phase == TILING and (first in _COLUMN_WORDS or first in _LINE_WORDS or first.isdigit())
        if walled or tiling:
            return self._parse_wall(tokens, text)
        return self._parse_take(tokens, text)

    def _parse_take(self, tokens: list[str], text: str) -> AzulMove:
        # Either "source colour destination" (f3 red 4) or "colour source destination" (red from f3 to 4):
        # colour words and source words never overlap, so the order is never ambiguous.
        colour = _COLOUR_WORDS.get(tokens[0])
        if colour is None and len(tokens) > 1 and (tokens[1] in _CENTRE_WORDS or tokens[1] in _FACTORY_WORDS):
            raise InvalidMoveText(
                "{word!r} is not a tile colour; the colours are blue, yellow, red, black or white (b, y, r, k, w).",
                word=tokens[0],
            )
        if colour is not None:
            source, rest = self._parse_source(tokens[1:])
        else:
            source, rest = self._parse_source(tokens)
            if not rest:
                raise InvalidMoveText("Say which colour to take: blue, yellow, red, black or white (b, y, r, k, w).")
            colour = _COLOUR_WORDS.get(rest[0])
            if colour is None:
                raise InvalidMoveText(
                    "{word!r} is not a tile colour; the colours are blue, yellow, red, black or white (b, y, r, k, w).",
                    word=rest[0],
                )
            rest = rest[1:]
        if len(rest) == 1 and rest[0] in _FLOOR_WORDS:
            return AzulMove(source, colour, FLOOR)
        while rest and rest[0] in _LINE_WORDS:  # "line 4", "pattern line 4"
            rest = rest[1:]
        if len(rest) == 1 and rest[0].isdigit():
            line = int(rest[0])
            if not 1 <= line <= 5:
                raise InvalidMoveText("Pattern lines are numbered 1 to 5 from the top; or write 'floor'.")
            return AzulMove(source, colour, line)
        if not rest:
            raise InvalidMoveText("Say where the tiles go: a pattern line 1 to 5 or 'floor'.")
        raise InvalidMoveText(
            "I can't read {text!r}; "
            "write a move like 'f3 red 4' (factory 3, all red, to pattern line 4) or 'c blue floor'.",
            text=text.strip()[:40],
        )

    def _parse_source(self, tokens: list[str]) -> tuple[int, list[str]]:
        """Read the centre or a factory at the start of ``tokens``; return it and the tokens after it."""
        if tokens and tokens[0] in _CENTRE_WORDS:
            return CENTRE, tokens[1:]
        if len(tokens) > 1 and tokens[0] in _FACTORY_WORDS and tokens[1].isdigit():
            factories = len(self.factories)
            source = int(tokens[1])
            if not 1 <= source <= factories:
                raise InvalidMoveText(
                    "There is no factory {source}; this game has factories 1 to {factories}.",
                    source=source,
                    factories=factories,
                )
            return source, tokens[2:]
        raise InvalidMoveText(
            "Say where you take from, a factory like 'f3' or the centre 'c'; "
            "write a move like 'f3 red 4' (factory 3, all red, to pattern line 4) or 'c blue floor'."
        )

    def _parse_wall(self, tokens: list[str], text: str) -> AzulMove:
        if tokens[0] in _WALL_WORDS or tokens[0] in _LINE_WORDS:
            tokens = tokens[1:]
        numbers = [t for t in tokens if t not in _COLUMN_WORDS and t not in _LINE_WORDS]
        if not all(t.isdigit() for t in numbers) or not 1 <= len(numbers) <= 2:
            raise InvalidMoveText(
                "I can't read {text!r}; tile a line like 'wall 3 c2' (line 3 to column 2).", text=text.strip()[:40]
            )
        if self.phase != TILING:
            raise self._not_tiling()
        pending = self.pending_line()
        line = int(numbers[0]) if len(numbers) == 2 else pending
        column = int(numbers[-1])
        if not 1 <= line <= 5 or not 1 <= column <= 5:
            raise InvalidMoveText("Wall rows and columns are numbered 1 to 5.")
        return AzulMove(WALL, self.boards[self.turn].line_colours[line - 1], line, column)

    # -- playing --------------------------------------------------------------

    def play(self, move: AzulMove | str) -> AzulState:
        """Return the state after ``move`` (a move or its text); raise :class:`GameError` if it is illegal."""
        if type(move) is not AzulMove:
            if isinstance(move, str):
                move = self.parse_move(move)
            elif not isinstance(move, AzulMove):
                raise InvalidMoveText("That is not an Azul move.")
        if self.result is not None:
            raise IllegalMove("The game is over.")
        if self.phase == TILING:
            return self._tile(move)
        return self._take(move)

    def _not_tiling(self) -> IllegalMove:
        """Explain that a wall move is not played now."""
        if self.grey_wall:
            return IllegalMove("Lines are tiled after the factory offer, when the factories and the centre are empty.")
        return IllegalMove("On the coloured wall, tiling is automatic at the end of each round.")

    def _check_take(self, move: AzulMove) -> int:
        """Raise :class:`IllegalMove` unless ``move`` is a legal take; return the number of tiles taken."""
        source, colour, line, column = move
        if source == WALL or column:
            raise self._not_tiling()
        if type(colour) is not int or not 0 <= colour < 5:
            raise IllegalMove(
                "That is not a tile colour; the colours are blue, yellow, red, black or white (b, y, r, k, w)."
            )
        name = COLOURS[colour]
        factories = len(self.factories)
        if source == CENTRE:
            taken = self.centre[colour]
            if not taken:
                raise IllegalMove("The centre has no {colour} tiles.", colour=name)
        elif type(source) is int and 1 <= source <= factories:
            tiles = self.factories[source - 1]
            taken = tiles[colour]
            if not taken:
                if tiles == EMPTY5:
                    raise IllegalMove("Factory {source} is empty.", source=source)
                raise IllegalMove("Factory {source} has no {colour} tiles.", source=source, colour=name)
        else:
            raise IllegalMove(
                "There is no factory {source}; this game has factories 1 to {factories}.",
                source=source,
                factories=factories,
            )
        if line != FLOOR:
            if type(line) is not int or not 1 <= line <= 5:
                raise IllegalMove("Pattern lines are numbered 1 to 5 from the top; or choose the floor.")
            board = self.boards[self.turn]
            row = line - 1
            held = board.line_counts[row]
            if held:
                if board.line_colours[row] != colour:
                    raise IllegalMove(
                        "Line {line} already holds {colour}.", line=line, colour=COLOURS[board.line_colours[row]]
                    )
                if held == line and not OFFER_FULL_LINES:
                    raise IllegalMove("Line {line} is already full; choose another line or the floor.", line=line)
            elif not board.free >> (5 * colour + row) & 1:
                raise IllegalMove("Your wall's row {line} already has {colour}.", line=line, colour=name)
        return taken

    def _take(self, move: AzulMove) -> AzulState:
        """Play a take; rebuild only the mover's board and the table."""
        source, colour, line, column = move
        player = self.turn
        board = self.boards[player]
        factories = self.factories
        centre = self.centre
        # The usual case, a move as legal_moves gives it, is checked here; anything else goes through the full
        # check, which names what is wrong (and lets through only what is legal after all).
        taken = 0
        if type(source) is int and type(colour) is int and 0 <= colour < 5 and not column:
            if source == CENTRE:
                taken = centre[colour]
            elif 0 < source <= len(factories):
                taken = factories[source - 1][colour]
            if taken and line != FLOOR:
                row = line - 1
                if type(line) is not int or not 0 <= row < 5:
                    taken = 0
                else:
                    held = board.line_counts[row]
                    if held:
                        if held >= line or board.line_colours[row] != colour:
                            taken = 0
                    elif not board.free >> (5 * colour + row) & 1:
                        taken = 0
        if not taken:
            taken = self._check_take(move)
        marker = self.marker
        took_marker = False
        if source == CENTRE:
            emptied = list(centre)  # a list and one tuple: cheaper than slices around the new item
            emptied[colour] = 0
            centre = tuple(emptied)
            if marker < 0:
                marker = player
                took_marker = True
        else:
            rest = factories[source - 1]
            b, y, r, k, w = centre
            rb, ry, rr, rk, rw = rest
            centre = (
                b + rb if colour else b,
                y + ry if colour != 1 else y,
                r + rr if colour != 2 else r,
                k + rk if colour != 3 else k,
                w + rw if colour != 4 else w,
            )
            displays = list(factories)
            displays[source - 1] = EMPTY5
            factories = tuple(displays)

        floor_start = len(board.floor)
        held = took_marker and floor_start >= FLOOR_SPACES
        line_start = 0 if line == FLOOR else board.line_counts[line - 1]
        board, to_line, to_floor = board_after_take(board, colour, line, taken, took_marker)
        to_lid = taken - to_line - to_floor
        lid = self.lid
        if to_lid:
            lid_list = list(lid)
            lid_list[colour] += to_lid
            lid = tuple(lid_list)
        boards_list = list(self.boards)
        boards_list[player] = board
        boards = tuple(boards_list)
        # An AzulEvent with every field given (the end-of-round fields empty), built without its keyword constructor.
        event = _tuple_new(
            AzulEvent,
            (
                player,
                move,
                taken,
                to_line,
                to_floor,
                to_lid,
                took_marker,
                (),
                (),
                0,
                (),
                (),
                "",
                line_start,
                floor_start,
                held,
                (),
                (),
                (),
            ),
        )

        if centre == EMPTY5 and factories.count(EMPTY5) == len(factories):
            return self._end_offer(boards, lid, marker, event)
        turn = player + 1 if player + 1 < self.players else 0
        if self.left:
            turn = _next_active(player, self.players, self.left)
        return _after_take(self, turn, lid, factories, centre, marker, boards, event, self.ply + 1)

    def _end_offer(self, boards: tuple[Board, ...], lid: tuple[int, ...], marker: int, event: AzulEvent) -> AzulState:
        """Run wall tiling once the table is empty (all of it, or up to a grey-wall choice)."""
        draft = _Tiling(self, boards, lid, marker, self.ply + 1)
        return draft.run(event)

    def _tile(self, move: AzulMove) -> AzulState:
        """Play a grey-wall tiling choice, then carry on tiling."""
        source, colour, line, column = move
        pending = self.pending_line()
        if source != WALL:
            raise IllegalMove("The factory offer is over; tile your line {line}, e.g. 'wall {line} c1'.", line=pending)
        if line != pending:
            if type(line) is int and 1 <= line <= 5 and self.boards[self.turn].line_counts[line - 1] == line:
                raise IllegalMove("Lines are tiled from the top: tile line {line} first.", line=pending)
            raise IllegalMove("Your line {line} is the one to tile now.", line=pending)
        board = self.boards[self.turn]
        if colour != board.line_colours[line - 1]:
            raise IllegalMove(
                "Your line {line} holds {colour}.", line=line, colour=COLOURS[board.line_colours[line - 1]]
            )
        if type(column) is not int or not 1 <= column <= 5:
            raise IllegalMove("Wall columns are numbered 1 to 5.")
        if board.wall[5 * (line - 1) + column - 1] >= 0:
            raise IllegalMove("Row {line}, column {column} of your wall is already tiled.", line=line, column=column)
        if column not in self.wall_columns(self.turn, line):
            raise IllegalMove(
                "Column {column} of your wall already has {colour}.", column=column, colour=COLOURS[colour]
            )
        draft = _Tiling(self, self.boards, self.lid, self.marker, self.ply + 1)
        draft.place(self.turn, line - 1, column - 1)
        return draft.run(AzulEvent(self.turn, move))

    def forfeit(self, player: int, how: str = FORFEIT) -> AzulState:
        """Return the state after ``player`` leaves the game: ``how`` is ``forfeit`` (resigned) or ``timeout``.

        With two players the other wins; with more, see the module docstring.
        """
        check_forfeit(self.result, player, self.players)
        if player in self.left:
            raise IllegalMove("Player {number} has already left the game.", number=player + 1)
        if forfeit_code(how) not in (FORFEIT, TIMEOUT, ABANDONED):
            raise IllegalMove("Azul has no draw by agreement.")
        kind = Termination(forfeit_code(how))
        left = (*self.left, player)
        event = AzulEvent(player, None, left=str(kind))
        remaining = [p for p in range(self.players) if p not in left]
        if len(remaining) == 1:
            winner = remaining[0]
            keys = tuple((1, 0) if p == winner else (0, left.index(p)) for p in range(self.players))
            result = outcome_by_keys(keys, self.scores(), kind)
            return _replace(self, phase=OVER, left=left, result=result, last=event, _legal=())
        # The leaver's tiles in play go back to the box lid; their wall and score stay as they were.
        board = self.boards[player]
        lid = list(self.lid)
        for row in range(5):
            if board.line_counts[row]:
                lid[board.line_colours[row]] += board.line_counts[row]
        for tile in board.floor:
            if tile != MARKER:
                lid[tile] += 1
        board = board._replace(line_colours=NO_LINES, line_counts=EMPTY5, floor=())
        boards = (*self.boards[:player], board, *self.boards[player + 1 :])
        turn = self.turn if self.turn != player else _next_active(player, self.players, left)
        state = _replace(self, turn=turn, lid=tuple(lid), boards=boards, left=left, last=event)
        if self.phase == TILING:
            # The leaver may have been the one choosing; carry on with whoever is next.
            return _Tiling(state, boards, tuple(lid), self.marker, self.ply).run(event)
        return state

    # -- text -----------------------------------------------------------------

    def board_text(self) -> str:
        """Return the position as plain text."""
        names = seat_names(self.players)
        if self.phase == OVER:
            head = f"Azul, game over after round {self.round}"
        else:
            doing = "factory offer" if self.phase == OFFER else f"wall tiling (line {self.pending_line()})"
            head = f"Azul, round {self.round}, {doing}: {names[self.turn]} to move"
        lines = [f"{head}; bag {self.bag_count}, lid {self.lid_count}."]
        empty = "dots empty spaces" if self.grey_wall else "lower case the colour of an empty wall space"
        lines.append(f"(capitals are tiles, {empty}, M the first-player marker)")
        factories = "  ".join(f"f{i + 1} {tiles_text(tiles).upper() or '-'}" for i, tiles in enumerate(self.factories))
        lines.append(f"factories: {factories}")
        centre = tiles_text(self.centre).upper() or "-"
        lines.append(f"centre: {centre}" + (" + first-player marker" if self.marker < 0 else ""))
        for p, board in enumerate(self.boards):
            status = " (left the game)" if p in self.left else ""
            holder = " (first-player marker)" if self.marker == p else ""
            lines.append(f"{names[p]}{status}{holder}: {board.score} points")
            for row in range(5):
                n = board.line_counts[row]
                pattern = "." * (row + 1 - n) + (LETTERS[board.line_colours[row]].upper() * n if n else "")
                wall = " ".join(self._wall_char(board, row, c) for c in range(5))
                lines.append(f"  {row + 1} {pattern:>5} | {wall}")
            floor = " ".join(FLOOR_LETTERS[t] for t in board.floor).upper() or "-"
            lines.append(f"  floor: {floor}" + (f" (−{FLOOR_LOSS[len(board.floor)]})" if board.floor else ""))
        return "\n".join(lines)

    def _wall_char(self, board: Board, row: int, column: int) -> str:
        colour = board.wall[5 * row + column]
        if colour >= 0:
            return LETTERS[colour].upper()
        return "." if self.grey_wall else LETTERS[WALL_COLOUR[row][column]]

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-safe dict from which :func:`from_json` rebuilds this state exactly."""
        return {
            "game": "azul",
            "format": SAVE_FORMAT,
            "seed": self.seed,
            "players": self.players,
            "options": self.options(),
            "round": self.round,
            "phase": self.phase,
            "turn": self.turn,
            "starter": self.starter,
            "rng": self.rng,
            "bag": list(self.bag),
            "lid": list(self.lid),
            "factories": [tiles_text(tiles) for tiles in self.factories],
            "centre": tiles_text(self.centre),
            "marker": self.marker,
            "boards": [_board_to_json(board) for board in self.boards],
            "left": list(self.left),
            "ply": self.ply,
            "result": None if self.result is None else self.result.to_json(),
            "last": None if self.last is None else self.last.to_json(),
        }


class _Draft:
    """A state under construction: :class:`AzulState`'s slots without the frozen guard.

    Every ply builds a state of 21 fields.  Set through the frozen dataclass's slot descriptors each field costs a
    call; here they are plain attribute stores.  Once every slot is filled, assigning ``__class__`` (which Python
    allows between classes with the same slots) makes the object the immutable :class:`AzulState` it was built as.
    Nothing else ever sees a draft.
    """

    __slots__ = AzulState.__slots__


_new_object = object.__new__
_SCORE = operator.attrgetter("score")  # a board's score
_RUNS = tuple(tuple((colour,) * n for n in range(FLOOR_SPACES + 1)) for colour in range(5))  # (colour,) * n


def _after_take(
    state: AzulState,
    turn: int,
    lid: tuple[int, ...],
    factories: tuple[tuple[int, ...], ...],
    centre: tuple[int, ...],
    marker: int,
    boards: tuple[Board, ...],
    last: AzulEvent,
    ply: int,
) -> AzulState:
    """Return ``state`` after a take that leaves tiles on the table: the table, a board, the turn and the event."""
    new: Any = _new_object(_Draft)
    new.players = state.players
    new.seed = state.seed
    new.grey_wall = state.grey_wall
    new.first_player = state.first_player
    new.max_rounds = state.max_rounds
    new.round = state.round
    new.phase = state.phase
    new.turn = turn
    new.starter = state.starter
    new.rng = state.rng
    new.bag = state.bag
    new.lid = lid
    new.factories = factories
    new.centre = centre
    new.marker = marker
    new.boards = boards
    new.left = state.left
    new.result = state.result
    new.last = last
    new.ply = ply
    new._legal = None
    new.__class__ = AzulState
    return new  # type: ignore[no-any-return]


def _next_round(
    state: AzulState,
    starter: int,
    rng: int,
    bag: tuple[int, ...],
    lid: tuple[int, ...],
    factories: tuple[tuple[int, ...], ...],
    boards: tuple[Board, ...],
    last: AzulEvent,
    ply: int,
) -> AzulState:
    """Return ``state`` at the start of its next round's factory offer, ``starter`` to move."""
    new: Any = _new_object(_Draft)
    new.players = state.players
    new.seed = state.seed
    new.grey_wall = state.grey_wall
    new.first_player = state.first_player
    new.max_rounds = state.max_rounds
    new.round = state.round + 1
    new.phase = OFFER
    new.turn = starter
    new.starter = starter
    new.rng = rng
    new.bag = bag
    new.lid = lid
    new.factories = factories
    new.centre = EMPTY5
    new.marker = -1
    new.boards = boards
    new.left = state.left
    new.result = state.result
    new.last = last
    new.ply = ply
    new._legal = None
    new.__class__ = AzulState
    return new  # type: ignore[no-any-return]


def board_after_take(board: Board, colour: int, line: int, taken: int, took_marker: bool) -> tuple[Board, int, int]:
    """Return the mover's board after taking ``taken`` tiles of ``colour`` into ``line`` (or the floor), with
    the first-player marker when ``took_marker``; and how many tiles went to the line and to the floor (the rest
    go to the lid).  The marker goes to the floor unless it is full; tiles past the floor's spaces go to the lid.
    """
    score, line_colours, line_counts, wall, floor, free = board  # one unpacking: cheaper than six attributes
    if took_marker and len(floor) < FLOOR_SPACES:
        floor += (MARKER,)
    to_line = 0
    if line != FLOOR:
        row = line - 1
        line_start = line_counts[row]
        to_line = line - line_start
        if taken < to_line:
            to_line = taken
        if to_line:
            if not line_start:  # a part-filled line already holds this colour
                colours = list(line_colours)
                colours[row] = colour
                line_colours = tuple(colours)
            counts = list(line_counts)
            counts[row] = line_start + to_line
            line_counts = tuple(counts)
    dropped = taken - to_line
    to_floor = FLOOR_SPACES - len(floor)
    if dropped < to_floor:
        to_floor = dropped
    if to_floor:
        floor += _RUNS[colour][to_floor]
    return _tuple_new(Board, (score, line_colours, line_counts, wall, floor, free)), to_line, to_floor


def _next_active(player: int, players: int, left: tuple[int, ...]) -> int:
    """Return the next seat after ``player`` that still takes part."""
    for step in range(1, players + 1):
        seat = (player + step) % players
        if seat not in left:
            return seat
    raise AssertionError("no player left")  # callers end the game before this can happen


def _first_active_from(seat: int, players: int, left: tuple[int, ...]) -> int:
    """Return ``seat`` if it still takes part, else the next seat that does."""
    return seat if seat not in left else _next_active(seat, players, left)


def grey_columns(wall: Sequence[int], row: int, colour: int) -> list[int]:
    """Return the columns (0..4) where the grey wall's ``row`` may take ``colour``: free, and lacking it."""
    return [c for c in range(5) if wall[5 * row + c] < 0 and colour not in wall[c::5]]


def tile_points(wall: Sequence[int], row: int, column: int) -> int:
    """Score a tile just placed at ``row``, ``column`` (from 0) of ``wall`` (which already holds it)."""
    # Count the run through the tile across (left, then right) and down (up, then down), by space index.
    here = 5 * row + column
    start = here - column
    across = 1
    i = here - 1
    while i >= start and wall[i] >= 0:
        across += 1
        i -= 1
    i = here + 1
    end = start + 5
    while i < end and wall[i] >= 0:
        across += 1
        i += 1
    down = 1
    i = here - 5
    while i >= 0 and wall[i] >= 0:
        down += 1
        i -= 5
    i = here + 5
    while i < 25 and wall[i] >= 0:
        down += 1
        i += 5
    # Alone: 1.  Otherwise each run of 2 or more counts its length.
    if across == 1:
        return down
    return across if down == 1 else across + down


def fill_factories(
    bag: tuple[int, ...], lid: tuple[int, ...], rng: int, factories: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], int]:
    """Fill ``factories`` displays in order, 4 random tiles each, from the bag (counts by colour).

    When the bag runs out the lid is poured into it and filling goes on; when
    both are empty the remaining displays stay empty.  Return the displays, the
    bag, the lid and the generator's new state.
    """
    # Rng.below inlined (the same SplitMix64 stream and rejection rule): a round draws up to 36 tiles.  The bag's
    # counts and the display's tiles are kept in locals, one per colour: no list to index on every draw.
    state = rng & MASK
    nb, ny, nr, nk, nw = bag
    in_bag = nb + ny + nr + nk + nw
    filled: list[tuple[int, ...]] = []
    for _ in range(factories):
        tb = ty = tr = tk = tw = 0
        for _ in range(FACTORY_SIZE):
            if not in_bag:
                lb, ly, lr, lk, lw = lid
                in_bag = lb + ly + lr + lk + lw
                if not in_bag:
                    break
                nb, ny, nr, nk, nw = lid  # the lid is poured into the bag
                lid = EMPTY5
            state = (state + 0x9E3779B97F4A7C15) & MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            z ^= z >> 31
            limit = _LIMITS[in_bag] if in_bag <= _MAX_BAG else _TWO64 - _TWO64 % in_bag
            while z >= limit:  # rejected (for a bag of at most 100 tiles, about once in 10 ** 17 draws): draw again
                state = (state + 0x9E3779B97F4A7C15) & MASK
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
                z ^= z >> 31
            # The pick-th tile of the bag, counting through the colours in order.
            pick = z % in_bag
            in_bag -= 1
            if pick < nb:
                nb -= 1
                tb += 1
            elif pick < nb + ny:
                ny -= 1
                ty += 1
            elif pick < nb + ny + nr:
                nr -= 1
                tr += 1
            elif pick < nb + ny + nr + nk:
                nk -= 1
                tk += 1
            else:
                nw -= 1
                tw += 1
        filled.append((tb, ty, tr, tk, tw))
    return tuple(filled), (nb, ny, nr, nk, nw), tuple(lid), state


class _Tiling:
    """Mutable scratch for the end of a round; it never escapes the ply that made it."""

    __slots__ = ("boards", "discards", "lid", "marker", "placements", "ply", "state")

    def __init__(
        self, state: AzulState, boards: tuple[Board, ...], lid: tuple[int, ...], marker: int, ply: int
    ) -> None:
        self.state = state
        self.ply = ply  # the ply count of the state being made
        self.boards = list(boards)
        self.lid = list(lid)
        self.marker = marker
        self.placements: list[Placement] = []
        self.discards: list[Discard] = []

    def place(self, player: int, row: int, column: int) -> None:
        """Move the tile of ``player``'s complete line ``row`` to the wall and score it."""
        board = self.boards[player]
        colour = board.line_colours[row]
        wall = list(board.wall)
        wall[5 * row + column] = colour
        points = tile_points(wall, row, column)
        self.lid[colour] += row  # the line held row + 1 tiles; one went to the wall
        self.boards[player] = Board(
            board.score + points,
            (*board.line_colours[:row], -1, *board.line_colours[row + 1 :]),
            (*board.line_counts[:row], 0, *board.line_counts[row + 1 :]),
            tuple(wall),
            board.floor,
            board.free & ~(1 << (5 * colour + row)),
        )
        self.placements.append(Placement(player, row + 1, column + 1, colour, points))

    def place_all(self, player: int) -> None:
        """On the coloured wall, tile every complete line of ``player``, top to bottom (as :meth:`place` would)."""
        board = self.boards[player]
        rows, counts = _COMPLETE_LINES[board.line_counts]
        if not rows:
            return
        wall = list(board.wall)
        colours = list(board.line_colours)
        score, free, lid, placements = board.score, board.free, self.lid, self.placements
        for row in rows:
            colour = colours[row]
            column = WALL_COLUMN[row][colour]
            wall[5 * row + column] = colour
            free &= ~(1 << (5 * colour + row))
            # tile_points(wall, row, column), read from ``free`` (on this wall a colour's row fixes its column).
            placed = ALL_FREE ^ free
            across = _RUN_LENGTH[_ROW_SPACES[row][placed >> row & _COLOUR_ROW_BITS]][column]
            down = _RUN_LENGTH[_COLUMN_SPACES[column][placed & _COLUMN_BITS[column]]][row]
            points = down if across == 1 else across if down == 1 else across + down
            lid[colour] += row  # the line held row + 1 tiles; one went to the wall
            score += points
            colours[row] = -1
            placements.append(_tuple_new(Placement, (player, row + 1, column + 1, colour, points)))
        self.boards[player] = _tuple_new(Board, (score, tuple(colours), counts, tuple(wall), board.floor, free))

    def discard(self, player: int, row: int) -> None:
        """Send a complete line with no legal wall space to the floor (overflow to the lid)."""
        board = self.boards[player]
        colour = board.line_colours[row]
        count = row + 1
        to_floor = min(count, FLOOR_SPACES - len(board.floor))
        self.lid[colour] += count - to_floor
        self.boards[player] = board._replace(
            line_colours=(*board.line_colours[:row], -1, *board.line_colours[row + 1 :]),
            line_counts=(*board.line_counts[:row], 0, *board.line_counts[row + 1 :]),
            floor=board.floor + (colour,) * to_floor,
        )
        self.discards.append(Discard(player, row + 1, colour, count))

    def waiting(self) -> int:
        """Tile every line that needs no decision; return the seat that must choose, or -1."""
        state = self.state
        players, left = state.players, state.left
        grey = state.grey_wall
        start = _first_active_from(state.starter, players, left)
        for step in range(players):
            player = (start + step) % players
            if player in left:
                continue
            if not grey:
                self.place_all(player)
                continue
            for row in range(5):
                board = self.boards[player]
                if board.line_counts[row] != row + 1:
                    continue
                colour = board.line_colours[row]
                if grey:
                    columns = grey_columns(board.wall, row, colour)
                    if len(columns) > 1 or (columns and not AUTO_TILE_FORCED):
                        return player
                    if not columns:
                        self.discard(player, row)
                        continue
                    column = columns[0]
                else:
                    column = WALL_COLUMN[row][colour]
                self.place(player, row, column)
        return -1

    def run(self, event: AzulEvent) -> AzulState:
        """Tile what needs no decision, then wait for a choice or finish the round; return the new state."""
        state = self.state
        chooser = self.waiting()
        placements = event.placements + tuple(self.placements)
        discards = (*event.discards, *self.discards)
        before = tuple(map(_SCORE, state.boards))
        if chooser >= 0:
            after = tuple(board.score for board in self.boards)
            event = _with(event, placements=placements, discards=discards, before=before, after=after)
            return _replace(
                state,
                phase=TILING,
                turn=chooser,
                lid=tuple(self.lid),
                factories=(EMPTY5,) * len(state.factories),
                centre=EMPTY5,
                marker=self.marker,
                boards=tuple(self.boards),
                last=event,
                ply=self.ply,
            )
        return self._finish(event, placements, discards, before)

    def _finish(
        self,
        event: AzulEvent,
        placements: tuple[Placement, ...],
        discards: tuple[Discard, ...],
        before: tuple[int, ...],
    ) -> AzulState:
        """Charge the floors, then end the game or refill the factories for the next round."""
        state = self.state
        players, left = state.players, state.left
        lid = self.lid
        boards = self.boards
        penalties = [0] * players
        clipped = [False] * players
        row0, row1, row2, row3, row4 = ROW_BITS
        wall_row = False
        for player in range(players):
            board = boards[player]
            if player in left:
                continue
            floor = board.floor
            if floor:
                penalty = penalties[player] = FLOOR_LOSS[len(floor)]
                for tile in floor:
                    if tile != MARKER:
                        lid[tile] += 1
                score = board.score
                clipped[player] = score < penalty
                board = boards[player] = _tuple_new(
                    Board, (max(0, score - penalty), board.line_colours, board.line_counts, board.wall, (), board.free)
                )
            free = board.free
            if not (free & row0 and free & row1 and free & row2 and free & row3 and free & row4):
                wall_row = True  # a complete wall row: some row lacks no colour
        ending: Termination | None = None
        # Tiling only happens once the table is empty.
        factories: tuple[tuple[int, ...], ...] = (EMPTY5,) * len(state.factories)
        bag, rng = state.bag, state.rng
        lid_t = tuple(lid)
        if wall_row:
            ending = Termination.WALL_ROW
        elif state.round >= state.max_rounds:
            ending = Termination.ROUND_LIMIT
        else:
            factories, bag, lid_t, rng = fill_factories(bag, lid_t, rng, len(factories))
            if factories.count(EMPTY5) == len(factories):
                ending = Termination.NO_TILES
        holder = self.marker if self.marker >= 0 else state.starter
        starter = _first_active_from(holder, players, left)
        if ending is None:
            event = _with_round(
                event,
                placements,
                discards,
                state.round,
                tuple(penalties),
                event.bonuses,
                before,
                tuple(map(_SCORE, boards)),
                tuple(clipped),
            )
            return _next_round(state, starter, rng, bag, lid_t, factories, tuple(boards), event, self.ply)
        bonuses = [(0, 0, 0)] * players
        for p in range(players):
            if p in left:
                continue
            board = boards[p]
            counts = bonuses[p] = board.bonuses()
            boards[p] = _tuple_new(Board, (board.score + bonus_points(counts), *board[1:]))
        final = tuple(boards)
        after = tuple(map(_SCORE, final))
        event = _with_round(
            event, placements, discards, state.round, tuple(penalties), tuple(bonuses), before, after, tuple(clipped)
        )
        result = final_outcome(final, left, players, ending)
        return _replace(
            state,
            phase=OVER,
            turn=starter,
            rng=rng,
            bag=bag,
            lid=lid_t,
            factories=factories,
            centre=EMPTY5,
            marker=self.marker,
            boards=final,
            result=result,
            last=event,
            ply=self.ply,
            _legal=(),
        )


def _with(event: AzulEvent, **changes: Any) -> AzulEvent:
    """Return a copy of ``event`` with some fields changed."""
    return event._replace(**changes)


def _with_round(
    event: AzulEvent,
    placements: tuple[Placement, ...],
    discards: tuple[Discard, ...],
    round_ended: int,
    penalties: tuple[int, ...],
    bonuses: tuple[tuple[int, int, int], ...],
    before: tuple[int, ...],
    after: tuple[int, ...],
    clipped: tuple[bool, ...],
) -> AzulEvent:
    """Return ``event`` with its wall-tiling fields set: :func:`_with` without the keywords, for every round's end."""
    player, move, taken, to_line, to_floor, to_lid, marker = event[:7]
    left, line_start, floor_start, marker_held = event[12:16]
    return _tuple_new(
        AzulEvent,
        (
            player,
            move,
            taken,
            to_line,
            to_floor,
            to_lid,
            marker,
            placements,
            discards,
            round_ended,
            penalties,
            bonuses,
            left,
            line_start,
            floor_start,
            marker_held,
            before,
            after,
            clipped,
        ),
    )


def final_outcome(boards: tuple[Board, ...], left: tuple[int, ...], players: int, ending: Termination) -> Outcome:
    """Rank the remaining players by (score, complete rows); leavers come last, the latest leaver first."""
    keys = []
    for p in range(players):
        board = boards[p]
        keys.append((0, left.index(p), 0) if p in left else (1, board.score, board.complete_rows()))
    return outcome_by_keys(tuple(keys), tuple(map(_SCORE, boards)), ending)


# -- starting and loading -------------------------------------------------------------


def _options(players: Any, seed: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """Check the player count, the seed and the options; return the options with defaults filled in."""
    check_players(players, 2, 4)
    check_seed(seed)
    if isinstance(options.get("wall"), str):
        spelled = options["wall"].strip().lower()
        options = {**options, "wall": {"color": "colour", "gray": "grey"}.get(spelled, spelled)}
    opts = resolve_options(OPTIONS, options)
    if opts["first_player"] is not None and opts["first_player"] >= players:
        raise InvalidOption("first_player must be a seat from 0 to {last}.", last=players - 1)
    return opts


def new(players: int = 2, seed: int = 0, **options: Any) -> AzulState:
    """Start a game of Azul; options: ``first_player``, ``wall`` (colour or grey), ``max_rounds``."""
    opts = _options(players, seed, options)
    first_option = opts["first_player"]
    generator = Rng(seed)
    # The draw is made even when the option decides, so a seed always deals the same tiles.
    drawn = generator.below(players)
    first = drawn if first_option is None else first_option
    full_bag = (TILES_PER_COLOUR,) * 5
    factories, bag, lid, rng = fill_factories(full_bag, EMPTY5, generator.state, FACTORIES[players])
    return AzulState(
        players=players,
        seed=seed,
        grey_wall=opts["wall"] == "grey",
        first_player=first_option,
        max_rounds=opts["max_rounds"],
        round=1,
        phase=OFFER,
        turn=first,
        starter=first,
        rng=rng,
        bag=bag,
        lid=lid,
        factories=factories,
        centre=EMPTY5,
        marker=-1,
        boards=(EMPTY_BOARD,) * players,
    )


def from_json(data: Mapping[str, Any]) -> AzulState:
    """Rebuild a state saved by :meth:`AzulState.to_json`, rejecting anything impossible."""
    return load_saved("Azul", _from_json, data)


def _board_to_json(board: Board) -> dict[str, Any]:
    """Return one board in the saved format: letters, ``.`` for empty, ``m`` for the marker."""
    wall = "".join(map(SPACE_LETTERS.__getitem__, board.wall))
    return {
        "score": board.score,
        "lines": [LETTERS[k] * n for k, n in zip(board.line_colours, board.line_counts, strict=True)],
        "wall": [wall[0:5], wall[5:10], wall[10:15], wall[15:20], wall[20:25]],
        "floor": "".join(map(FLOOR_LETTERS.__getitem__, board.floor)),
    }


def _counts(value: Any, what: str) -> tuple[int, ...]:
    counts = int_list(value, what)
    if len(counts) != 5 or any(n < 0 for n in counts):
        raise InvalidState("The saved {what} must be five tile counts, one per colour.", what=what)
    return tuple(counts)


_TILES_TEXT = re.compile("(b*)(y*)(r*)(k*)(w*)")


def _letters(value: Any, what: str, most: int) -> tuple[int, ...]:
    """Return tile counts of a letter string in colour order such as ``'bbr'``."""
    match = _TILES_TEXT.fullmatch(value) if isinstance(value, str) and len(value) <= most else None
    if match is None:
        raise InvalidState(
            "The saved {what} is not a string of at most {most} tile letters (b, y, r, k, w in order).",
            what=what,
            most=most,
        )
    return tuple(map(len, match.groups()))


_COLOUR_WALL_TEXT = re.compile("".join(f"[.{LETTERS[WALL_COLOUR[r][c]]}]" for r in range(5) for c in range(5)))
_GREY_WALL_TEXT = re.compile("[.byrkw]{25}")
# The five pattern lines joined by "|": line n holds up to n tiles of one colour.
_LINES_TEXT = re.compile(r"\|".join(f"(b{{0,{n}}}|y{{0,{n}}}|r{{0,{n}}}|k{{0,{n}}}|w{{0,{n}}})" for n in range(1, 6)))
_FLOOR_TEXT = re.compile(f"[byrkw{MARKER_LETTER}]{{0,{FLOOR_SPACES}}}")
_SPACE_VALUE = {letter: k for k, letter in enumerate(LETTERS)} | {".": -1, MARKER_LETTER: MARKER}


_ROW_COLOURS: dict[str, int] = {}
# _SPREAD[mask] moves colour bit k of a 5-bit mask to bit 5 * k, the layout of ``Board.free``.
_replace = keyword_replace(AzulState)
_set_legal = AzulState.__dict__["_legal"].__set__  # the cache's slot, as object.__setattr__ would set it
_SPREAD = tuple(sum(1 << (5 * k) for k in range(5) if mask >> k & 1) for mask in range(32))


def _row_colours(spaces: str) -> int:
    """Return the colours present in five wall spaces as a 5-bit mask, or -1 if a colour repeats."""
    mask = _ROW_COLOURS.get(spaces)
    if mask is None:
        tiles = [_SPACE_VALUE[ch] for ch in spaces if ch != "."]
        mask = sum(1 << k for k in set(tiles)) if len(set(tiles)) == len(tiles) else -1
        _ROW_COLOURS[spaces] = mask  # at most 6 ** 5 different texts
    return mask


def _board_from_json(data: Any, grey: bool, seat: int) -> Board:
    """Rebuild one board, checking its wall, pattern lines and floor."""
    if type(data) is not dict and not isinstance(data, Mapping):
        raise InvalidState("The saved board of player {number} is not an object.", number=seat + 1)
    score, lines, rows, floor_text = data["score"], data["lines"], data["wall"], data["floor"]
    if type(score) is not int or score < 0:
        raise InvalidState("The saved score of player {number} is not a whole number of points.", number=seat + 1)
    # str.join refuses anything but strings; from_json turns that TypeError into InvalidState.
    if type(rows) is not list or list(map(len, rows)) != [5, 5, 5, 5, 5]:
        raise InvalidState(
            "The saved wall of player {number}'s board is not five rows of five spaces.", number=seat + 1
        )
    text = "".join(rows)
    if not (_GREY_WALL_TEXT if grey else _COLOUR_WALL_TEXT).fullmatch(text):
        raise InvalidState("The saved wall of player {number}'s board holds a tile where none can be.", number=seat + 1)
    wall = tuple(map(_SPACE_VALUE.__getitem__, text))
    free = ALL_FREE
    for r, row in enumerate(rows):
        present = _row_colours(row)
        if grey and (present < 0 or _row_colours(text[r::5]) < 0):
            raise InvalidState(
                "The saved wall of player {number}'s board repeats a colour in a row or a column.", number=seat + 1
            )
        free &= ~(_SPREAD[present] << r)
    if type(lines) is not list or len(lines) != 5:
        raise InvalidState("The saved pattern lines of player {number}'s board are not five lines.", number=seat + 1)
    if _LINES_TEXT.fullmatch("|".join(lines)) is None:
        raise InvalidState("The saved pattern lines of player {number}'s board are impossible.", number=seat + 1)
    colours = tuple(_SPACE_VALUE[line[0]] if line else -1 for line in lines)
    counts = tuple(map(len, lines))
    for i, colour in enumerate(colours):
        if colour >= 0 and not free >> (5 * colour + i) & 1:
            raise InvalidState(
                "Pattern line {line} of player {number}'s board holds a colour its wall row already has.",
                line=i + 1,
                number=seat + 1,
            )
    if not isinstance(floor_text, str) or not _FLOOR_TEXT.fullmatch(floor_text) or floor_text.count(MARKER_LETTER) > 1:
        raise InvalidState("The saved floor line of player {number}'s board is impossible.", number=seat + 1)
    floor = tuple(map(_SPACE_VALUE.__getitem__, floor_text))
    return Board(score, colours, counts, wall, floor, free)


def _seat(value: Any, players: int, what: str) -> int:
    if type(value) is not int or not 0 <= value < players:
        raise InvalidState("The saved {what} is not a seat of this game.", what=what)
    return value


def _from_json(data: Mapping[str, Any]) -> AzulState:
    """Rebuild a state; any impossibility raises :class:`InvalidState`."""
    options = saved_options(data, "azul", "Azul")
    players, seed = data["players"], data["seed"]
    try:
        opts = _options(players, seed, options)
    except InvalidOption as exc:
        raise InvalidState("The saved options are impossible: {error}", error=exc) from None
    grey, max_rounds = opts["wall"] == "grey", opts["max_rounds"]
    round_, phase, rng = data["round"], data["phase"], data["rng"]
    if type(round_) is not int or not 1 <= round_ <= max_rounds:
        raise InvalidState("The saved round number is impossible.")
    if phase not in PHASES or (phase == TILING and not grey):
        raise InvalidState("The saved phase is impossible.")
    if type(rng) is not int or not 0 <= rng < 2**64:
        raise InvalidState("The saved generator state is impossible.")
    turn = _seat(data["turn"], players, "player to move")
    starter = _seat(data["starter"], players, "first player")
    marker = data["marker"]
    if marker != -1:
        marker = _seat(marker, players, "marker holder")
    bag, lid = _counts(data["bag"], "bag"), _counts(data["lid"], "lid")
    factories_data = data["factories"]
    if not isinstance(factories_data, list) or len(factories_data) != FACTORIES[players]:
        raise InvalidState(
            "A {players}-player game has {factories} factories.", players=players, factories=FACTORIES[players]
        )
    factories = tuple(_letters(text, "factory", FACTORY_SIZE) for text in factories_data)
    centre = _letters(data["centre"], "centre", 5 * TILES_PER_COLOUR)
    boards_data = data["boards"]
    if not isinstance(boards_data, list) or len(boards_data) != players:
        raise InvalidState("The saved game does not have one board per player.")
    boards = tuple(_board_from_json(b, grey, i) for i, b in enumerate(boards_data))
    left_list = int_list(data["left"], "leavers")
    if len(set(left_list)) != len(left_list) or any(not 0 <= p < players for p in left_list):
        raise InvalidState("The saved list of players who left is impossible.")
    left = tuple(left_list)

    # Every one of the 100 tiles is somewhere, exactly once (the texts were all checked above).
    pieces = [*factories_data, data["centre"]]
    for board_data in boards_data:
        pieces += board_data["wall"]
        pieces += board_data["lines"]
        pieces.append(board_data["floor"])
    text = "".join(pieces)
    for colour, letter in enumerate(LETTERS):
        total = bag[colour] + lid[colour] + text.count(letter)
        if total != TILES_PER_COLOUR:
            raise InvalidState(
                "The saved game has {total} {colour} tiles instead of {expected}.",
                total=total,
                colour=COLOURS[colour],
                expected=TILES_PER_COLOUR,
            )
    carriers = [p for p, board in enumerate(boards) if MARKER in board.floor]
    if len(carriers) > 1 or (carriers and carriers[0] != marker):
        raise InvalidState("The first-player marker is on the wrong floor line.")
    # A holder without the marker on their floor took it onto a full floor (or has left the game).
    if phase != OVER and marker >= 0 and not carriers and marker not in left and len(boards[marker].floor) < 7:
        raise InvalidState("The first-player marker's holder does not have it on their floor line.")

    version = data["format"]
    legacy = _legacy_termination if version == 1 else None
    result = None if data["result"] is None else Outcome.from_json(data["result"], players, Termination, legacy)
    last = None
    if data["last"] is not None:
        last = _event_from_json(data["last"], players, len(factories), version, boards, grey)
        if last.after and last.after != tuple(board.score for board in boards):
            raise InvalidState("The saved last move's scores do not match the boards.")
    # Format 1 did not count plies: such a game counts them from where it was saved.
    ply = 0 if version == 1 else data["ply"]
    if type(ply) is not int or ply < 0:
        raise InvalidState("The saved ply count is impossible.")
    state = AzulState(
        players=players,
        seed=seed,
        grey_wall=grey,
        first_player=opts["first_player"],
        max_rounds=max_rounds,
        round=round_,
        phase=phase,
        turn=turn,
        starter=starter,
        rng=rng,
        bag=bag,
        lid=lid,
        factories=factories,
        centre=centre,
        marker=marker,
        boards=boards,
        left=left,
        result=result,
        last=last,
        ply=ply,
    )
    active = [p for p in range(players) if p not in left]
    if (phase == OVER) != (result is not None):
        raise InvalidState("The saved phase and result disagree.")
    if result is not None:
        if result.scores != state.scores():
            raise InvalidState("The saved result does not match the scores.")
        return state
    if len(active) < 2:
        raise InvalidState("The saved game should be over: fewer than two players remain.")
    if turn in left:
        raise InvalidState("The saved player to move has left the game.")
    if any(any(boards[p].line_counts) or boards[p].floor for p in left):
        raise InvalidState("A player who left still has tiles in play.")
    if last is None and (round_ != 1 or phase != OFFER or marker != -1 or turn != starter or centre != EMPTY5):
        raise InvalidState("The saved game has no last move but is not at its start.")
    table_empty = centre == EMPTY5 and all(tiles == EMPTY5 for tiles in factories)
    if phase == OFFER:
        if table_empty:
            raise InvalidState("The saved factory offer has no tiles left to take.")
        if any(boards[p].complete_rows() for p in active):
            raise InvalidState("The saved game should be over: a wall row is complete.")
    else:
        if not table_empty:
            raise InvalidState("The saved wall tiling still has tiles on the table.")
        draft = _Tiling(state, boards, lid, marker, state.ply)
        if draft.waiting() != turn or draft.placements or draft.discards:
            raise InvalidState("The saved wall tiling is not waiting for this player.")
    return state


def _event_from_json(
    data: Any,
    players: int,
    factories: int,
    version: int = SAVE_FORMAT,
    boards: tuple[Board, ...] | None = None,
    grey: bool = False,
) -> AzulEvent:
    """Rebuild the last ply's event, checking its ranges.

    An event saved before the engine kept where the take's tiles went and the scores around the ply (it has no
    ``after``) gets them from the saved ``boards`` when they are given (see :func:`_legacy_event`).
    """
    if not isinstance(data, Mapping):
        raise InvalidState("The saved last move is not an object.")
    player = data["player"]
    _seat(player, players, "last mover")
    move_data = data["move"]
    move = None
    if move_data is not None:
        values = int_list(move_data, "last move")
        if len(values) != 4:
            raise InvalidState("The saved last move is malformed.")
        move = AzulMove(*values)
        source, colour, line, column = move
        if source == WALL:
            ok = 0 <= colour < 5 and 1 <= line <= 5 and 1 <= column <= 5
        else:
            ok = 0 <= source <= factories and 0 <= colour < 5 and 1 <= line <= FLOOR and column == 0
        if not ok:
            raise InvalidState("The saved last move is impossible.")
    numbers = [data[name] for name in ("taken", "to_line", "to_floor", "to_lid", "round_ended")]
    if any(type(n) is not int or n < 0 for n in numbers) or type(data["marker"]) is not bool:
        raise InvalidState("The saved last move's counts are malformed.")
    taken, to_line, to_floor, to_lid, round_ended = numbers
    if taken != to_line + to_floor + to_lid or taken > 4 * factories * 5:
        raise InvalidState("The saved last move's tile counts do not add up.")
    left = data["left"]
    if version == 1 and isinstance(left, str) and left:
        left = legacy_forfeit_code(left)  # format 1 kept the bot's sentence ("Bo resigned.")
    if not isinstance(left, str) or (move is None) != bool(left) or left not in ("", FORFEIT, TIMEOUT, ABANDONED):
        raise InvalidState("The saved last move's leaving reason is malformed.")
    placements = []
    for item in _list(data["placements"], "placements"):
        values = int_list(item, "placement")
        if len(values) != 5:
            raise InvalidState("A saved placement is malformed.")
        placement = Placement(*values)
        if not (0 <= placement.player < players and 1 <= placement.row <= 5 and 1 <= placement.column <= 5):
            raise InvalidState("A saved placement is off the wall.")
        if not (0 <= placement.colour < 5 and 1 <= placement.points <= 10):
            raise InvalidState("A saved placement is impossible.")
        placements.append(placement)
    discards = []
    for item in _list(data["discards"], "discards"):
        values = int_list(item, "discard")
        if len(values) != 4:
            raise InvalidState("A saved discard is malformed.")
        discard = Discard(*values)
        if not (0 <= discard.player < players and 1 <= discard.row <= 5 and 0 <= discard.colour < 5):
            raise InvalidState("A saved discard is impossible.")
        if discard.tiles != discard.row:
            raise InvalidState("A saved discard is impossible.")
        discards.append(discard)
    penalties = tuple(int_list(data["penalties"], "penalties"))
    if penalties and (len(penalties) != players or any(not 0 <= n <= FLOOR_LOSS[-1] for n in penalties)):
        raise InvalidState("The saved floor penalties are impossible.")
    if bool(penalties) != bool(round_ended):
        raise InvalidState("The saved round end is malformed.")
    bonuses = []
    for item in _list(data["bonuses"], "bonuses"):
        values = int_list(item, "bonus")
        if len(values) != 3 or any(not 0 <= n <= 5 for n in values):
            raise InvalidState("A saved bonus is impossible.")
        bonuses.append((values[0], values[1], values[2]))
    if bonuses and (len(bonuses) != players or not round_ended):
        raise InvalidState("The saved bonuses are impossible.")
    event = AzulEvent(
        player=player,
        move=move,
        taken=taken,
        to_line=to_line,
        to_floor=to_floor,
        to_lid=to_lid,
        marker=data["marker"],
        placements=tuple(placements),
        discards=tuple(discards),
        round_ended=round_ended,
        penalties=penalties,
        bonuses=tuple(bonuses),
        left=left,
    )
    if "after" in data:
        return _event_details(event, data, players)
    return event if boards is None else _legacy_event(event, boards, grey)


def _event_details(event: AzulEvent, data: Mapping[str, Any], players: int) -> AzulEvent:
    """Add the saved landing spaces and scores to ``event``, checking that they agree with the rules."""
    line_start, floor_start, held = data["line_start"], data["floor_start"], data["marker_held"]
    if type(line_start) is not int or type(floor_start) is not int or type(held) is not bool:
        raise InvalidState("The saved last move's landing spaces are malformed.")
    move = event.move
    line = move.line if move is not None and move.source != WALL and move.line != FLOOR else 0
    if not (line_start == event.to_line == 0 or (line_start >= 0 and line_start + event.to_line <= line)):
        raise InvalidState("The saved last move's pattern-line spaces are impossible.")
    if held and not event.marker:
        raise InvalidState("The saved last move holds a marker it did not take.")
    event = event._replace(line_start=line_start, floor_start=floor_start, marker_held=held)
    if floor_start < 0 or floor_start + len(event.floor_spaces()) > FLOOR_SPACES:
        raise InvalidState("The saved last move's floor spaces are impossible.")
    before_data = _list(data["before"], "scores before the last move")
    if any(n is not None and (type(n) is not int or n < 0) for n in before_data):
        raise InvalidState("The saved scores before the last move are impossible.")
    before: tuple[int | None, ...] = tuple(before_data)
    after = tuple(int_list(data["after"], "scores after the last move"))
    clipped = tuple(_list(data["clipped"], "clipped scores"))
    if len(before) != len(after) or len(after) not in (0, players) or any(n < 0 for n in after):
        raise InvalidState("The saved scores around the last move are impossible.")
    if any(type(c) is not bool for c in clipped) or len(clipped) != (players if event.round_ended else 0):
        raise InvalidState("The saved clipped scores are impossible.")
    event = event._replace(before=before, after=after, clipped=clipped)
    for p, was in enumerate(before):
        step = event.score_step(p)
        if step is None:
            if was != after[p]:
                raise InvalidState("The saved scores around the last move do not add up.")
            continue
        if was is None:  # kept by a save made before the engine knew it (see _legacy_scores)
            continue
        total = was + step.gain - step.penalty
        if step.clipped != (total < 0) or step.after != max(0, total) + step.bonus:
            raise InvalidState("The saved scores around the last move do not add up.")
    return event


def _legacy_event(event: AzulEvent, boards: tuple[Board, ...], grey: bool) -> AzulEvent:
    """Fill in what an event saved before the engine kept it lacks, from the saved boards after the ply.

    Such a save says where the take's tiles went and the scores around the ply only through the boards, so they
    are worked out from them as the text and the picture did then: a save shows and reads exactly as before.
    """
    changes: dict[str, Any] = {}
    move = event.move
    mover = event.player
    if move is not None and move.source != WALL:
        board = boards[mover]
        if move.line != FLOOR and event.to_line:
            emptied = any(p.player == mover and p.row == move.line for p in event.placements) or any(
                d.player == mover and d.row == move.line for d in event.discards
            )
            filled = move.line if emptied else board.line_counts[move.line - 1]
            changes["line_start"] = max(0, filled - event.to_line)
        if not event.round_ended:  # the round's end emptied the floor: nothing is left to tell
            on_floor = event.marker and MARKER in board.floor
            changes["marker_held"] = event.marker and not on_floor
            count = event.to_floor + (1 if on_floor else 0)
            # Grey-wall lines that went to the floor in this ply came after the take's tiles.
            later = sum(d.tiles for d in event.discards if d.player == mover)
            changes["floor_start"] = max(count, len(board.floor) - later) - count
    if event.placements or event.discards or event.round_ended:
        changes.update(_legacy_scores(event, boards, grey))
    return event._replace(**changes) if changes else event


def _legacy_scores(event: AzulEvent, boards: tuple[Board, ...], grey: bool) -> dict[str, Any]:
    """Return the scores around an old save's ply (``before``, ``after``, ``clipped``) as far as its boards tell.

    Without a clip they add up backwards from the score after.  When the floor took a score to 0 the score before
    is only known in round 1 of the coloured wall (every tile of the round was scored in that ply, from 0);
    otherwise it is ``None`` and the score counts as clipped.
    """
    after = tuple(board.score for board in boards)
    before: list[int | None] = []
    clipped: list[bool] = []
    for p, score in enumerate(after):
        gain = sum(pl.points for pl in event.placements if pl.player == p)
        penalty = event.penalties[p] if event.penalties else 0
        before_bonus = score - (bonus_points(event.bonuses[p]) if event.bonuses else 0)
        if not penalty or before_bonus > 0:
            was = before_bonus + penalty - gain
            before.append(was if was >= 0 else None)
            clipped.append(False)
        elif event.round_ended == 1 and not grey:
            before.append(0)
            clipped.append(gain < penalty)
        else:
            before.append(None)
            clipped.append(True)
    return {"before": tuple(before), "after": after, "clipped": tuple(clipped) if event.round_ended else ()}


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidState("The saved {what} are not a list.", what=what)
    return value


SPEC = GameSpec(
    name="azul",
    title="Azul",
    min_players=2,
    max_players=4,
    new=new,
    from_json=from_json,
    seat_names=seat_names,
    options=OPTIONS,
    test_configs=({}, {"wall": "grey"}),
    bench_configs=((2, {}), (4, {})),
)
