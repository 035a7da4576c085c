"""Azul's board picture.

The card shows, top to bottom: a status line (the round and who is to move, or
the result), a line saying what the last ply did, the factory displays
(``f1``.. as in the move notation) and the centre (``c``: one tile per colour
with its count, and the first-player marker while it is there), then one panel
per player, and a key to the tile letters.

A player's panel holds the pattern lines (numbered 1 to 5, filling from the
right towards the wall), the wall (on the coloured side its empty spaces show
their colour faintly; on the grey side their column number), the name in the
seat's chip, the score, and the floor line with the penalty printed over each
space.  The player to move has a lighter panel with an amber bar and a
``to move`` tag; a player who left has a darker panel and a ``left`` tag.

Tiles are double-coded for colour-blind players and greyscale: each carries its
letter (``B`` blue, ``Y`` yellow, ``R`` red, ``K`` black, ``W`` white), and the
five fills differ in lightness as well as hue.  The marker is a round token
marked ``1``, never a square tile.

The last ply is marked by shape: an amber ring around the factory (or the centre
group) the tiles came from, with faded ghosts of the taken tiles; an amber ring
around the pattern-line and floor spaces they went to; a ring around every tile
that went to a wall this ply, the floor penalty over the emptied floor
(``−2 floor``) and, at the end, the bonus.  The score line then shows the sum
that makes the new score, ``5 +7 −2 = 10`` (gains in amber); when the floor
took more than the player had, it reads ``3 +1 −14 → 0`` and the caption says
that scores stop at 0.  During a
grey-wall tiling the line to tile and its legal wall spaces are outlined in amber
with their column numbers.

A review's board (``marks=``) shows the position before a move with moves marked
on it, each in its own mark colour (the move played amber, a better one blue):
a ring round the factory (or the centre's group, and the marker) and round each
tile the take would lift, and on the mover's panel a ring round the pattern-line
and floor spaces the tiles would fill (or, tiling a grey wall, the line and the
wall space).  What the move would set off — wall tiling at the round's end,
points, penalties — is not drawn.  A later move's ring goes further out round a
source it shares and further in within a target it shares.  Under the key to the
tiles, below every panel, a line says what each colour drawn means (``move played``,
``better move``, or a hint's or a preview's words: :mod:`render.legend`), each
after a ringed space in its colour.

>>> from engines import GAMES
>>> state = GAMES["azul"].new(players=4, seed=3).play("f1 yellow 1")
>>> picture = render_azul(state, players=("Ana", "Bo", "Cy", "Dee"), last_move=True)
>>> picture.image.mode, picture.image.size
('RGB', (720, 1402))
>>> last_text(state, ("Ana", "Bo", "Cy", "Dee"))
'Bo took 2 yellow from f1 → line 1 (1 to floor).'

"""

from __future__ import annotations

from collections.abc import Sequence

from engines.azul import AzulEvent, AzulState
from i18n.azul import seat
from render.azul.card import SOURCE_STEP, TARGET_STEP, CardTexts, _compose, card_texts, last_text, palette, status_text
from render.azul.layout import (
    FACTORY_ROWS,
    PANEL_ACTIVE,
    PANEL_IDLE,
    PANEL_LEFT,
    Box,
    Layout,
    PanelLayout,
    factory_tile_boxes,
    layout,
    panel_base,
    panel_layout,
    static_card,
)
from render.azul.panel import Marks, board_marks, score_parts
from render.azul.showcase import BENCH_CONFIGS, REPLAY_CASES, gallery, no_tiles_left
from render.azul.sprites import (
    DASH,
    DISC_EDGE,
    DISC_FILL,
    FAINT_FILL,
    FAINT_LETTER,
    FLOOR_DASH,
    GHOST_OPACITY,
    GREY_SPACE,
    LABEL_FONT,
    MARKER_EDGE,
    MARKER_FILL,
    MARKER_INK,
    NUMBER_FONT,
    PENALTY_FONT,
    PILL_FONT,
    PNG_COLOURS,
    SLOT_EDGE,
    SLOT_FILL,
    TILE_EDGE,
    TILE_FILL,
    TILE_INK,
    TILE_SHAPE,
    azul_theme,
    disc_sprite,
    ghost_marker_sprite,
    ghost_sprite,
    marker_sprite,
    ring_sprite,
    tile_sprite,
)
from render.azul.table import centre_places
from render.draw import Picture, display_name
from render.legend import Key
from render.theme import DEFAULT_THEME, Theme


def render_azul(
    state: AzulState,
    *,
    players: Sequence[str] | None = None,
    last_move: bool = True,
    theme: Theme = DEFAULT_THEME,
    locale: str = "en",
    marks: Sequence[tuple[AzulEvent, Theme]] = (),
    legend: Sequence[Key] | None = None,
) -> Picture:
    """Draw an Azul position (see the module docstring for what the card shows).

    ``marks`` are moves to show on this position, each as the event it would make and the theme whose mark
    colour draws it (a review's played and better moves): where the tiles come from and where they would go.
    ``legend`` says what their colours mean (:func:`render.legend.legend_for`), on a line under the key to the
    tiles; None for an ordinary board.
    """
    theme = azul_theme(theme)
    names = tuple(
        display_name(players[i] if players and i < len(players) else "", seat(locale, i)) for i in range(state.players)
    )
    event = state.last if last_move else None
    keys = None if legend is None else tuple(legend)
    return Picture(_compose(state, names, event, theme, locale, proposals=marks, legend=keys), palette(theme))


__all__ = [
    "BENCH_CONFIGS",
    "DASH",
    "DISC_EDGE",
    "DISC_FILL",
    "FACTORY_ROWS",
    "FAINT_FILL",
    "FAINT_LETTER",
    "FLOOR_DASH",
    "GHOST_OPACITY",
    "GREY_SPACE",
    "LABEL_FONT",
    "MARKER_EDGE",
    "MARKER_FILL",
    "MARKER_INK",
    "NUMBER_FONT",
    "PANEL_ACTIVE",
    "PANEL_IDLE",
    "PANEL_LEFT",
    "PENALTY_FONT",
    "PILL_FONT",
    "PNG_COLOURS",
    "REPLAY_CASES",
    "SLOT_EDGE",
    "SLOT_FILL",
    "SOURCE_STEP",
    "TARGET_STEP",
    "TILE_EDGE",
    "TILE_FILL",
    "TILE_INK",
    "TILE_SHAPE",
    "Box",
    "CardTexts",
    "Layout",
    "Marks",
    "PanelLayout",
    "azul_theme",
    "board_marks",
    "card_texts",
    "centre_places",
    "disc_sprite",
    "factory_tile_boxes",
    "gallery",
    "ghost_marker_sprite",
    "ghost_sprite",
    "last_text",
    "layout",
    "marker_sprite",
    "no_tiles_left",
    "palette",
    "panel_base",
    "panel_layout",
    "render_azul",
    "ring_sprite",
    "score_parts",
    "static_card",
    "status_text",
    "tile_sprite",
]
