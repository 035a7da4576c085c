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

from engines.azul.moves import MOVES
from engines.azul.saves import from_json, new
from engines.azul.state import AzulState
from engines.azul.tables import (
    ALL_FREE,
    AUTO_TILE_FORCED,
    BLACK,
    BLUE,
    CENTRE,
    COLOUR_BONUS,
    COLOURS,
    COLUMN_BONUS,
    DEFAULT_MAX_ROUNDS,
    EMPTY5,
    EMPTY_BOARD,
    EMPTY_WALL,
    FACTORIES,
    FACTORY_SIZE,
    FLOOR,
    FLOOR_LETTERS,
    FLOOR_LOSS,
    FLOOR_PENALTIES,
    FLOOR_SPACES,
    LETTERS,
    MARKER,
    MARKER_LETTER,
    NO_LINES,
    OFFER,
    OFFER_FULL_LINES,
    OPTIONS,
    OVER,
    PHASES,
    RED,
    ROW_BITS,
    ROW_BONUS,
    SPACE_LETTERS,
    TAKES,
    TILES_PER_COLOUR,
    TILING,
    WALL,
    WALL_COLOUR,
    WALL_COLUMN,
    WALLS,
    WHITE,
    YELLOW,
    AzulEvent,
    AzulMove,
    Board,
    Discard,
    Placement,
    ScoreStep,
    Termination,
    bonus_points,
    seat_names,
    tiles_text,
    wall_free,
)
from engines.azul.tiling import board_after_take, fill_factories, final_outcome, grey_columns, tile_points
from engines.base import GameSpec

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
    moves=MOVES,
)

__all__ = [
    "ALL_FREE",
    "AUTO_TILE_FORCED",
    "BLACK",
    "BLUE",
    "CENTRE",
    "COLOURS",
    "COLOUR_BONUS",
    "COLUMN_BONUS",
    "DEFAULT_MAX_ROUNDS",
    "EMPTY5",
    "EMPTY_BOARD",
    "EMPTY_WALL",
    "FACTORIES",
    "FACTORY_SIZE",
    "FLOOR",
    "FLOOR_LETTERS",
    "FLOOR_LOSS",
    "FLOOR_PENALTIES",
    "FLOOR_SPACES",
    "LETTERS",
    "MARKER",
    "MARKER_LETTER",
    "MOVES",
    "NO_LINES",
    "OFFER",
    "OFFER_FULL_LINES",
    "OPTIONS",
    "OVER",
    "PHASES",
    "RED",
    "ROW_BITS",
    "ROW_BONUS",
    "SPACE_LETTERS",
    "SPEC",
    "TAKES",
    "TILES_PER_COLOUR",
    "TILING",
    "WALL",
    "WALLS",
    "WALL_COLOUR",
    "WALL_COLUMN",
    "WHITE",
    "YELLOW",
    "AzulEvent",
    "AzulMove",
    "AzulState",
    "Board",
    "Discard",
    "Placement",
    "ScoreStep",
    "Termination",
    "board_after_take",
    "bonus_points",
    "fill_factories",
    "final_outcome",
    "from_json",
    "grey_columns",
    "new",
    "seat_names",
    "tile_points",
    "tiles_text",
    "wall_free",
]
