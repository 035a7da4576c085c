"""Summer's board picture.

The card shows, top to bottom: one row per player (name chip in the seat's
colours, pieces on the board and how many have arrived, the goal-row total and
what the last ply changed in it, whose turn it is or who won), a status line
(whose turn, Black's one last move once White has arrived, or the result and
why), a line saying what the last move did, the board with its coordinates, and
a legend with the game's mode.

The board is square, or hexagonal: rows of pointed-top hexagons, rank 1 and
every second rank after it (1, 3, 5…) straight, ranks 2, 4, 6… shifted half a
cell to the right, as the rules and the notation say.  File letters run along the bottom (and along the top of the hex
board, whose columns slant), rank numbers up the left side; a flag in each
side's colours marks the row that side is racing to.

Cells differ by symbol as well as colour: plus cells are light green with a
``+``, minus cells dark violet with a ``−``, the two start rows plain slate.  A
piece standing on a plus or minus cell carries a small chip with the symbol, so
the cell's kind stays readable under it.  Pieces are discs with their weight
in large type, cream with a near-black edge (White) or near-black with a cream
edge (Black), so the sides stay apart in greyscale.

The last ply is marked by shape: a thin amber outline and an arrow from the
cell the piece left, a thick outline on the cell it went to, and a badge for
what happened there: two joined rings (merged), a burst (collided, including a
field-mode win), a cross over a faded ghost (removed: equal weights, or a
weight brought to 0), and a ``+1`` or ``−1`` pill when the cell changed the
mover's weight.  The badge and the pill sit clear of the piece's weight, which
they never cover.  A caption that does not fit on one line wraps to a second
one and the board moves down to make room.

A review's board (``marks=``) shows the position before a move with moves marked
on it, each in its own mark colour (the move played amber, a better one blue):
the same outlines, an arrow running between the two pieces' weights (the piece
has not left yet) and a merged or collided badge where it would meet a piece.
What the move would remove or change (ghosts, ``±1``) is not drawn.  A later
move on a cell an earlier one outlines rings the piece there instead.  The legend
says on a line of its own what each colour drawn means (``move played``,
``better move``, or a hint's or a preview's words: :mod:`render.legend`)
instead of ``last move``.

>>> from engines import GAMES
>>> state = GAMES["summer"].new(size=3, weights=[1, 2, 3], black_weights=[3, 1, 2], terrain=["...", "+-+", "..."])
>>> state = state.play("c1-b2")
>>> picture = render_summer(state, players=("Ana", "Bo"), last_move=True)
>>> picture.image.mode, picture.image.width
('RGB', 720)
>>> last_move_text(state, ("Ana", "Bo"))
'Ana c1-b2 (3): −1 → 2'
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.summer import SummerEvent, SummerState
from render.draw import Picture, display_name
from render.legend import Key
from render.summer.card import (
    _compose,
    _rows,
    _seat,
    caption_lines,
    caption_names,
    goal_gains,
    last_move_text,
    palette,
    status_names,
    status_text,
    text_extra,
)
from render.summer.layout import (
    CORNER,
    LEGEND_LINE,
    LEGEND_LINES,
    Board,
    Layout,
    hexagon_points,
    layout,
    make_board,
    mark_spot,
)
from render.summer.layout import _sizes as _sizes
from render.summer.marks import BADGE_SPOTS, Marks, Proposal, marks_of, proposals_of
from render.summer.showcase import BENCH_CONFIGS, GALLERY_MARKS, REPLAY_CASES, gallery
from render.summer.sprites import (
    BADGE_COLLIDED,
    BADGE_MERGED,
    CHIP_INK,
    GHOST_OPACITY,
    HEX_PIECE_SHARE,
    MINUS,
    MINUS_FILL,
    MINUS_INK,
    PIECE_SHARE,
    PLUS_FILL,
    PLUS_INK,
    START_FILL,
    badge_sprite,
    chip_sprite,
    cross_sprite,
    flag_sprite,
    ghost_sprite,
    piece_sprite,
    removed_icon,
    ring_sprite,
    swatch_sprite,
    symbol_sprite,
    weight_box,
)
from render.summer.sprites import _weight_size as _weight_size
from render.summer.static import hex_pad_sprite, mode_line, move_line, static_card, terrain_card
from render.theme import DEFAULT_THEME, Theme


def render_summer(
    state: SummerState,
    *,
    players: Sequence[str] | None = None,
    last_move: bool = True,
    theme: Theme = DEFAULT_THEME,
    locale: str = "en",
    marks: Sequence[tuple[SummerEvent, Theme]] = (),
    legend: Sequence[Key] | None = None,
) -> Picture:
    """Draw a Summer position (see the module docstring for what the card shows).

    ``marks`` are moves to show on this position, each as the event it would make and the theme whose mark
    colour draws it (a review's played and better moves): outlines, an arrow and a badge, as for a last ply.
    ``legend`` says what their colours mean (:func:`render.legend.legend_for`), in place of the legend's
    ``last move``; None for an ordinary board.
    """
    names = tuple(display_name(players[i] if players and i < len(players) else "", _seat(i)) for i in (0, 1))
    hexagonal = state.shape == "hex"
    last = marks_of(state) if last_move else None
    gains = goal_gains(state) if last_move else (0, 0)
    image = _compose(
        state.size,
        hexagonal,
        state.mode,
        state.terrain,
        theme,
        _rows(state, names, gains, theme, locale),
        status_text(state, status_names(names, theme), locale),
        last_move_text(state, caption_names(names, theme), locale) if last_move else "",
        state.board,
        [last] if last is not None else [],
        locale,
        proposals_of(marks),
        None if legend is None else tuple(legend),
    )
    return Picture(image, palette(state.size, hexagonal, theme))


__all__ = [
    "BADGE_COLLIDED",
    "BADGE_MERGED",
    "BADGE_SPOTS",
    "BENCH_CONFIGS",
    "CHIP_INK",
    "CORNER",
    "GALLERY_MARKS",
    "GHOST_OPACITY",
    "HEX_PIECE_SHARE",
    "LEGEND_LINE",
    "LEGEND_LINES",
    "MINUS",
    "MINUS_FILL",
    "MINUS_INK",
    "PIECE_SHARE",
    "PLUS_FILL",
    "PLUS_INK",
    "REPLAY_CASES",
    "START_FILL",
    "Board",
    "Layout",
    "Marks",
    "Proposal",
    "badge_sprite",
    "caption_lines",
    "caption_names",
    "chip_sprite",
    "cross_sprite",
    "flag_sprite",
    "gallery",
    "ghost_sprite",
    "goal_gains",
    "hex_pad_sprite",
    "hexagon_points",
    "last_move_text",
    "layout",
    "make_board",
    "mark_spot",
    "marks_of",
    "mode_line",
    "move_line",
    "palette",
    "piece_sprite",
    "proposals_of",
    "removed_icon",
    "render_summer",
    "ring_sprite",
    "static_card",
    "status_names",
    "status_text",
    "swatch_sprite",
    "symbol_sprite",
    "terrain_card",
    "text_extra",
    "weight_box",
]
