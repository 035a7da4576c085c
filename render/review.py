"""The review's evaluation graph: each player's chance, move by move, with the game's turning points marked.

Pure, like the boards: the same review, names, theme and language give the same bytes.  The card is the
boards' width (720 px, about 360 points on a phone) and every word is at least the theme's small size.

* x is the number of moves played (0: the start), y each player's value from :meth:`ai.review.Review.curve`:
  with two players the chance to win, with three or four (Azul) the expected standing, the share of
  opponents the player is expected to beat; the axis caption says which (words from :mod:`i18n.review`).
* One line per player in the seat's colours of the boards (:attr:`Theme.seat_fill`), drawn over a wider line
  in the seat's edge colour, so the dark seat reads on the dark card and the pale one on light marks; the
  legend shows each line beside the player's name chip, as the boards' player rows draw it.
* A dashed 50 % line; each turning point (:meth:`ai.review.Review.turning_points`) is a dashed amber line at
  the move, a ring on the mover's line and a numbered pill above the plot: marked by shape and number, not
  by colour alone.

The lines are drawn at twice the size and reduced, for smooth edges; the PNG has an adaptive palette.

>>> from ai.review import Judgement, Review
>>> judged = Judgement(0, 0, "place b2", "place c2", (0.5, 0.5), (0.3, 0.7), 0.5, 0.3, 12)
>>> png = render_review_graph(Review("pond", 2, 40, (judged,), (0.0, 1.0)), players=["Ana", "Bo"])
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", png == render_review_graph(
...     Review("pond", 2, 40, (judged,), (0.0, 1.0)), players=["Ana", "Bo"])
(True, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from PIL import Image, ImageDraw

from ai.review import Review
from i18n.catalog import locale_for
from i18n.review import graph_title, marks_note, move_axis, value_axis
from render.draw import Picture, display_name, draw_name_chip, encode_png, new_card, pill_sprite
from render.text import draw_text, ellipsize, fit_size, text_width
from render.theme import DEFAULT_THEME, RGB, Theme

SCALE = 2  # the plot is drawn this many times larger, then reduced
PLOT_HEIGHT = 330
LEGEND_ROW = 46
LINE = 4  # a player's line, in output pixels (its edge adds 2 on each side)
EDGE = 2
SAMPLE = 34  # the legend's line sample
TICK_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 500)
MOST_TICKS = 8


def _tick_step(moves: int) -> int:
    """The spacing of the x axis's numbers: the smallest round step that needs at most :data:`MOST_TICKS`."""
    return next((step for step in TICK_STEPS if moves / step <= MOST_TICKS), TICK_STEPS[-1])


def _percent(value: int) -> str:
    return f"{value}\u00a0%"


def _dashed(
    draw: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float], fill: RGB, width: int, dash: int
) -> None:
    """Draw a dashed straight line from ``start`` to ``end`` (horizontal or vertical)."""
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0)
    if length == 0:
        return
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    position = 0.0
    while position < length:
        stop = min(length, position + dash)
        draw.line((x0 + ux * position, y0 + uy * position, x0 + ux * stop, y0 + uy * stop), fill=fill, width=width)
        position += dash * 2


def _core(fill: RGB, theme: Theme) -> int:
    """A line's inner width: wider for a seat darker than the plot, whose line reads as its light edges around it."""
    return LINE + 2 if sum(fill) < sum(theme.panel) else LINE


def _seat_line(draw: ImageDraw.ImageDraw, points: Sequence[tuple[float, float]], seat: int, theme: Theme) -> None:
    """Draw a player's line: a wide line in the seat's edge colour, the seat's fill over it, round ends."""
    fill = theme.seat_fill[seat % len(theme.seat_fill)]
    edge = theme.seat_edge[seat % len(theme.seat_edge)]
    core = _core(fill, theme)
    for colour, width in ((edge, (core + 2 * EDGE) * SCALE), (fill, core * SCALE)):
        if len(points) > 1:
            draw.line(list(points), fill=colour, width=width, joint="curve")
        radius = width / 2
        for x, y in (points[0], points[-1]):
            draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour)


def _legend(image: Image.Image, names: Sequence[str], top: int, theme: Theme) -> int:
    """Draw each player's line sample and name chip, two to a row; return the y below the legend."""
    draw = ImageDraw.Draw(image)
    pad = theme.padding
    column = (image.width - 2 * pad) // 2
    for seat, name in enumerate(names):
        row, col = divmod(seat, 2)
        x = pad + col * column
        mid = top + row * LEGEND_ROW + LEGEND_ROW // 2
        fill = theme.seat_fill[seat % len(theme.seat_fill)]
        edge = theme.seat_edge[seat % len(theme.seat_edge)]
        core = _core(fill, theme)
        half = core // 2 + EDGE
        draw.rounded_rectangle((x, mid - half, x + SAMPLE, mid + half), radius=half, fill=edge)
        draw.rounded_rectangle((x + EDGE, mid - core // 2, x + SAMPLE - EDGE, mid + core // 2), radius=2, fill=fill)
        draw_name_chip(draw, name, seat, x + SAMPLE + 10, mid, column - SAMPLE - 22, theme)
    rows = (len(names) + 1) // 2
    return top + rows * LEGEND_ROW


class Layout(NamedTuple):
    """Where the graph card's parts go, in card pixels (tests read it too)."""

    height: int
    legend_top: int
    caption_y: int
    pills_top: int
    pill_height: int
    plot: tuple[int, int, int, int]  # the plot's panel: left, top, right, bottom
    left: int  # x of move 0
    step: float  # pixels per move
    ticks_y: int
    axis_y: int
    note_y: int
    pills: tuple[tuple[int, float, int], ...]  # each turning point: (move, x, row of pills)


def graph_layout(review: Review, theme: Theme = DEFAULT_THEME) -> Layout:
    """Lay out the graph card of ``review``: the rows of legend, the turning points' pills, the plot, the axes."""
    pad, small = theme.padding, theme.font_small
    width = theme.width
    moves = max(1, len(review.curve()) - 1)
    legend_top = pad + theme.font_title + 12
    caption_y = legend_top + ((review.players + 1) // 2) * LEGEND_ROW + 8
    pills_top = caption_y + small + 14
    pill_height = math.ceil(small * 1.45)
    left = pad + math.ceil(text_width(_percent(100), small)) + 12
    step = (width - pad - 14 - left) / moves
    # Close turning points stack their pills in rows, so that no number hides another.
    rows: list[list[tuple[float, float]]] = []
    pills: list[tuple[int, float, int]] = []
    for move in (ply + 1 for ply in review.turning_points()):
        x = left + move * step
        half = (text_width(str(move), small) + small * 0.9) / 2 + 4
        row = next(
            (i for i, taken in enumerate(rows) if all(x + half < a or x - half > b for a, b in taken)), len(rows)
        )
        if row == len(rows):
            rows.append([])
        rows[row].append((x - half, x + half))
        pills.append((move, x, row))
    plot_top = pills_top + len(rows) * (pill_height + 4) + (6 if rows else 0)
    plot_bottom = plot_top + PLOT_HEIGHT
    ticks_y = plot_bottom + 8
    axis_y = ticks_y + small + 12
    note_y = axis_y + small + 10
    height = (note_y + small + 6 if pills else axis_y + small + 6) + pad
    return Layout(
        height,
        legend_top,
        caption_y,
        pills_top,
        pill_height,
        (pad, plot_top, width - pad, plot_bottom),
        left,
        step,
        ticks_y,
        axis_y,
        note_y,
        tuple(pills),
    )


def review_graph_picture(
    review: Review, *, players: Sequence[str], theme: Theme = DEFAULT_THEME, locale: str = "en"
) -> Picture:
    """Draw the evaluation graph card (see the module's docstring)."""
    locale = locale_for(locale)
    seats = review.players
    names = [display_name(name, f"#{seat + 1}") for seat, name in enumerate(list(players)[:seats])]
    names += [f"#{seat + 1}" for seat in range(len(names), seats)]
    curve = review.curve()
    moves = max(1, len(curve) - 1)
    turning = [ply + 1 for ply in review.turning_points()]
    by_move = {judged.ply + 1: judged for judged in review.judgements}
    layout = graph_layout(review, theme)
    pad, small, muted = theme.padding, theme.font_small, theme.text_muted
    width, height = theme.width, layout.height
    room = width - 2 * pad
    left, step = layout.left, layout.step
    right = left + moves * step
    title = graph_title(locale)
    caption_y, plot_top = layout.caption_y, layout.plot[1]
    ticks_y, axis_y, note_y = layout.ticks_y, layout.axis_y, layout.note_y
    image = new_card(width, height, theme)
    draw = ImageDraw.Draw(image)

    size = fit_size(title, theme.font_title, room, small)
    draw_text(draw, (pad, pad + theme.font_title), ellipsize(title, size, room), size, theme.text)
    _legend(image, names, layout.legend_top, theme)
    caption = value_axis(seats, locale)
    size = fit_size(caption, small, room, small)
    draw_text(draw, (pad, caption_y), ellipsize(caption, size, room), size, muted, anchor="lt")

    # The plot, drawn at SCALE times its size on its own image, then reduced into the card.
    box = layout.plot
    plot = Image.new("RGB", ((box[2] - box[0]) * SCALE, (box[3] - box[1]) * SCALE), theme.background)
    pen = ImageDraw.Draw(plot)
    inner_top, inner_bottom = 10, PLOT_HEIGHT - 10

    def at(move: float, value: float) -> tuple[float, float]:
        y = inner_bottom - max(0.0, min(1.0, value)) * (inner_bottom - inner_top)
        return ((left + move * step - box[0]) * SCALE, y * SCALE)

    pen.rounded_rectangle((0, 0, plot.width - 1, plot.height - 1), radius=10 * SCALE, fill=theme.panel)
    for value in (0.0, 0.25, 0.75, 1.0):
        pen.line((at(0, value), at(moves, value)), fill=theme.panel_active, width=2 * SCALE)
    _dashed(pen, at(0, 0.5), at(moves, 0.5), muted, 2 * SCALE, 8 * SCALE)
    for move in turning:
        _dashed(pen, at(move, 1.0), at(move, 0.0), theme.mark, 2 * SCALE, 6 * SCALE)
    for seat in range(seats):
        points = [at(index, point[seat]) for index, point in enumerate(curve) if seat < len(point)]
        if points:
            _seat_line(pen, points, seat, theme)
    for move in turning:
        judged = by_move.get(move)
        if judged is None or move >= len(curve):
            continue
        x, y = at(move, curve[move][judged.player])
        for colour, radius in ((theme.mark_edge, 11), (theme.mark, 8), (theme.mark_edge, 4)):
            r = radius * SCALE
            pen.ellipse((x - r, y - r, x + r, y + r), fill=colour)
    image.paste(plot.reduce(SCALE), (box[0], box[1]))

    for value in (0, 50, 100):
        y = plot_top + inner_bottom - value / 100 * (inner_bottom - inner_top)
        draw_text(draw, (left - 10, y), _percent(value), small, muted, anchor="rm")
    tick = _tick_step(moves)
    for move in range(0, moves + 1, tick):
        draw_text(draw, (left + move * step, ticks_y), str(move), small, muted, anchor="mt")
    draw_text(draw, ((left + right) / 2, axis_y), ellipsize(move_axis(locale), small, room), small, muted, anchor="mt")
    ink = theme.mark_edge
    for move, x, row in layout.pills:
        pill = pill_sprite(str(move), small, theme.mark, ink, ink, theme)
        y = layout.pills_top + row * (layout.pill_height + 4)
        image.paste(pill, (round(x - pill.width / 2), y), pill)
    if turning:
        note = marks_note(locale)
        size = fit_size(note, small, room, small)
        draw_text(draw, (pad, note_y), ellipsize(note, size, room), size, muted, anchor="lt")
    return Picture(image, None)


def render_review_graph(
    review: Review, *, players: Sequence[str], theme: Theme = DEFAULT_THEME, locale: str = "en"
) -> bytes:
    """Return the review's evaluation graph as PNG bytes (same inputs, same bytes)."""
    return encode_png(review_graph_picture(review, players=players, theme=theme, locale=locale), theme)


def review_graph_image(
    review: Review, *, players: Sequence[str], theme: Theme = DEFAULT_THEME, locale: str = "en"
) -> Image.Image:
    """Return the evaluation graph as an RGB image, before palette mapping (previews and tests)."""
    return review_graph_picture(review, players=players, theme=theme, locale=locale).image


__all__ = ["Layout", "graph_layout", "render_review_graph", "review_graph_image", "review_graph_picture"]
