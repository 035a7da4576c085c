"""Querni's board picture.

The card shows, top to bottom: one row per player (name chip in the seat's
colour, the seat's piece shape, pieces removed out of 16 with a bar, whose turn
it is or who won), a status line, the draw counter as text and as a bar of one
segment per ply (while the game is on), the 10x7 board with its coordinates
(rank 1 at the bottom, blue's side), and a legend of the marks. A game lost by
stranding rings the stranded pieces in amber.

Seats differ by shape as well as colour: blue pieces are discs, red pieces
rounded squares.  Blue is a light sky blue with dark numbers and a dark edge,
red a deep red with cream numbers and a cream edge, so the seats stay apart in
greyscale and for colour-blind players, and each number reads on its own fill.
Querni names its seats by colour, so the card always uses these two colours,
whatever the theme's first two seat colours are.

The last ply is marked by shape: a thin amber outline on the square the piece
left, an arrow for every step or jump of its path (each jump landing starts the
next arrow with a dot), a thick outline on the square it reached, and each
piece of a chain removed in that ply as a faded ghost with its number, the
ghosts joined in number order.

A review draws moves that were not played the same way, on the position before them (``marks``), each in its own
mark colour (the played move amber, the better one blue): the outline of the start, the arrows of the path, the
lit end square (the moved piece's ghost in a thick outline if it leaves in the chain), and each piece of the chain
it would remove as its ghost in a ring, the rings joined in number order.  Where two moves meet, the second's lit
square or ring sits inside the first's, its start outline covers half of the first's, and an arrow or link they
share runs twice, side by side.  Under the legend of the marks, a line says what each colour drawn means
(``move played``, ``better move``, or a hint's or a preview's words: :mod:`render.legend`).

>>> from engines import GAMES
>>> state = GAMES["querni"].new(seed=4).play("b2-b3")
>>> picture = render_querni(state, players=("Ana", "Bo"), last_move=True)
>>> picture.image.mode, picture.image.size
('RGB', (720, 888))
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.querni import SEATS, QuerniEvent, QuerniState
from render.draw import Picture, display_name
from render.legend import Key
from render.querni.card import (
    SEGMENTED_COUNTER,
    STATUS_NAME_WIDTH,
    _compose,
    _rows,
    palette,
    status_text,
    stranded_cells,
)
from render.querni.layout import PIECE_SHARE, RANK_ROOM, Layout, layout, piece_size, static_card
from render.querni.showcase import BENCH_CONFIGS, GALLERY_CLEARING, REPLAY_CASES, gallery
from render.querni.sprites import (
    BLUE_EDGE,
    BLUE_FILL,
    BLUE_INK,
    GHOST_OPACITY,
    OUTLINE,
    RED_EDGE,
    RED_FILL,
    RED_INK,
    SHAPES,
    blank_sprite,
    ghost_sprite,
    piece_sprite,
    querni_theme,
)
from render.text import ellipsize
from render.theme import DEFAULT_THEME, Theme


def render_querni(
    state: QuerniState,
    *,
    players: Sequence[str] | None = None,
    last_move: bool = True,
    theme: Theme = DEFAULT_THEME,
    locale: str = "en",
    marks: Sequence[tuple[QuerniEvent, Theme]] = (),
    legend: Sequence[Key] | None = None,
) -> Picture:
    """Draw a Querni position (see the module docstring for what the card shows).

    ``marks`` are moves of ``state`` to show as the events they would make, each in its theme's mark colour
    (a review's played and better move); the header claims none of them.  ``legend`` says what their colours
    mean (:func:`render.legend.legend_for`, a key per mark), on a line under the legend of the marks, but for a
    pass, which marks nothing; None for an ordinary board.
    """
    theme = querni_theme(theme)
    marks = tuple((event, querni_theme(mark_theme)) for event, mark_theme in marks)
    names = tuple(
        display_name(players[i] if players and i < len(players) else "", SEATS[i].capitalize()) for i in (0, 1)
    )
    event = state.last if last_move else None
    # Long names are cut in the status line, so that what happens after them stays readable.
    status = status_text(state, tuple(ellipsize(name, theme.font_body, STATUS_NAME_WIDTH) for name in names), locale)
    rows = _rows(state, names, event, theme, locale)
    # The pieces a marked move would remove show as ghosts, as those of a last move do (drawn with its marks).
    leaving = {cell for mark, _ in marks for _, cell in mark.removed}
    board = tuple(0 if cell in leaving else value for cell, value in enumerate(state.board))
    keys = None
    if legend is not None:
        keys = tuple(key for key, (mark, _) in zip(legend, marks, strict=True) if mark.path or mark.removed)
    image = _compose(theme, rows, status, state, board, event, locale, marks, keys)
    return Picture(image, palette(theme))


__all__ = [
    "BENCH_CONFIGS",
    "BLUE_EDGE",
    "BLUE_FILL",
    "BLUE_INK",
    "GALLERY_CLEARING",
    "GHOST_OPACITY",
    "OUTLINE",
    "PIECE_SHARE",
    "RANK_ROOM",
    "RED_EDGE",
    "RED_FILL",
    "RED_INK",
    "REPLAY_CASES",
    "SEGMENTED_COUNTER",
    "SHAPES",
    "STATUS_NAME_WIDTH",
    "Layout",
    "blank_sprite",
    "gallery",
    "ghost_sprite",
    "layout",
    "palette",
    "piece_size",
    "piece_sprite",
    "querni_theme",
    "render_querni",
    "static_card",
    "status_text",
    "stranded_cells",
]
