"""An event's standings as a picture: rank, name, points, tie-breaks and each round's result, the leader marked.

Pure, like the boards: the same rows give the same bytes, drawn with the boards' theme and font.  The card is
720 px wide (a phone shows it about 360 points wide), so every word is at least the theme's small size.  The
words (the title, the column heads) come from the caller, already in the server's language; the round
results are marks: W, D, L, B (bye), ``-`` (not played) or a place at a table (1–4), each on a chip of its own
colour; the letter drawn on a chip is the caller's (``labels``: the server's language's letters, ru В/Н/П, fr
G/N/P), the mark itself when none is given.  The leader's row
has a gold bar and a filled rank badge, so it is marked by shape, not colour alone.

>>> row = StandingRow(1, "Ana", "2½", ("3", "1½"), ("W", "D", "W"), leader=True)
>>> png = render_standings("Spring Pond", "after round 3 of 5", ("Pts", "BH", "SB"), [row])
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", png == render_standings("Spring Pond", "after round 3 of 5",
...                                                            ("Pts", "BH", "SB"), [row])
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from PIL import Image, ImageDraw

from render.draw import Picture, encode_png, new_card
from render.text import draw_text, ellipsize, fit_size
from render.theme import DEFAULT_THEME, RGB, Theme

ROW_HEIGHT = 80
HEAD_HEIGHT = 92
COLUMN = 84  # each number column
MAX_ROWS = 64  # a longer field is cut (the text standings list everyone)

# Each result mark's chip colour; the letter on it says the same thing.
CHIPS: dict[str, RGB] = {"W": (74, 160, 96), "D": (120, 128, 140), "L": (176, 74, 70), "B": (70, 120, 180)}
PLACE_CHIPS: tuple[RGB, ...] = ((196, 150, 40), (120, 128, 140), (150, 104, 70), (96, 84, 110))
GOLD: RGB = (255, 196, 40)


class StandingRow(NamedTuple):
    """One line of the standings, as the caller says it."""

    rank: int
    name: str
    points: str
    tiebreaks: tuple[str, ...]
    results: tuple[str, ...]
    leader: bool = False
    withdrawn: bool = False
    labels: tuple[str, ...] = ()  # the letter drawn on each result's chip (default: the mark itself)


def _chip(mark: str) -> RGB:
    if mark in CHIPS:
        return CHIPS[mark]
    if mark.isdigit() and 1 <= int(mark) <= len(PLACE_CHIPS):
        return PLACE_CHIPS[int(mark) - 1]
    return (70, 76, 86)


def standings_picture(
    title: str, subtitle: str, heads: Sequence[str], rows: Sequence[StandingRow], *, theme: Theme = DEFAULT_THEME
) -> Picture:
    """Draw the standings card."""
    shown = list(rows[:MAX_ROWS])
    width = theme.width
    height = HEAD_HEIGHT + ROW_HEIGHT * max(len(shown), 1) + theme.padding
    image = new_card(width, height, theme)
    draw = ImageDraw.Draw(image)
    pad = theme.padding
    size = fit_size(title, theme.font_title, width - 2 * pad, theme.font_small)
    draw_text(draw, (pad, pad + theme.font_title), ellipsize(title, size, width - 2 * pad), size, theme.text)
    draw_text(
        draw,
        (pad, HEAD_HEIGHT - 14),
        ellipsize(subtitle, theme.font_small, width / 2),
        theme.font_small,
        theme.text_muted,
    )
    columns = [width - pad - COLUMN * (len(heads) - i) + COLUMN // 2 for i in range(len(heads))]
    for x, head in zip(columns, heads, strict=True):
        label = ellipsize(head, theme.font_small, COLUMN - 6)
        draw_text(draw, (x, HEAD_HEIGHT - 14), label, theme.font_small, theme.text_muted, anchor="ms")
    name_left = pad + 58
    name_room = columns[0] - COLUMN // 2 - name_left - 8
    for index, row in enumerate(shown):
        top = HEAD_HEIGHT + index * ROW_HEIGHT
        fill = theme.panel_active if row.leader else theme.panel
        draw.rounded_rectangle((pad, top + 4, width - pad, top + ROW_HEIGHT - 4), radius=10, fill=fill)
        if row.leader:
            draw.rounded_rectangle((pad, top + 4, pad + 8, top + ROW_HEIGHT - 4), radius=4, fill=GOLD)
        centre = (pad + 34, top + 30)
        if row.leader:
            draw.ellipse((centre[0] - 19, centre[1] - 19, centre[0] + 19, centre[1] + 19), fill=GOLD)
        else:
            draw.ellipse(
                (centre[0] - 19, centre[1] - 19, centre[0] + 19, centre[1] + 19), outline=theme.text_muted, width=2
            )
        badge = theme.background if row.leader else theme.text
        draw_text(draw, centre, str(row.rank), theme.font_small, badge, anchor="mm")
        name = row.name + (" ✕" if row.withdrawn else "")
        colour = theme.text_muted if row.withdrawn else theme.text
        draw_text(draw, (name_left, top + 38), ellipsize(name, theme.font_body, name_room), theme.font_body, colour)
        values = (row.points, *row.tiebreaks)
        for i, (x, value) in enumerate(zip(columns, values, strict=False)):
            size = theme.font_body if i == 0 else theme.font_small
            draw_text(draw, (x, top + 38), ellipsize(value, size, COLUMN - 6), size, theme.text, anchor="ms")
        labels = row.labels if len(row.labels) == len(row.results) else row.results
        _chips(draw, row.results, labels, name_left, top + 46, name_room, theme)
    return Picture(image)


def _chips(
    draw: ImageDraw.ImageDraw,
    results: Sequence[str],
    labels: Sequence[str],
    left: int,
    top: int,
    room: int,
    theme: Theme,
) -> None:
    """Each round's result as a small chip coloured by its mark, with its label's letter, in order, as many as fit."""
    step = 32
    fits = max(1, room // step)
    shown = list(zip(results, labels, strict=True))[-fits:]
    for i, (mark, label) in enumerate(shown):
        x = left + i * step
        draw.rounded_rectangle((x, top, x + step - 4, top + 26), radius=5, fill=_chip(mark))
        draw_text(draw, (x + (step - 4) / 2, top + 13), label[:1], theme.font_small - 2, (250, 250, 246), anchor="mm")


def render_standings(
    title: str, subtitle: str, heads: Sequence[str], rows: Sequence[StandingRow], *, theme: Theme = DEFAULT_THEME
) -> bytes:
    """The standings card as PNG bytes (same inputs, same bytes)."""
    return encode_png(standings_picture(title, subtitle, heads, rows, theme=theme), theme)


def standings_image(
    title: str, subtitle: str, heads: Sequence[str], rows: Sequence[StandingRow], *, theme: Theme = DEFAULT_THEME
) -> Image.Image:
    """The standings card as an RGB image (previews and tests)."""
    return standings_picture(title, subtitle, heads, rows, theme=theme).image
