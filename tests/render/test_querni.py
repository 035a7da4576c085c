"""Querni's board card: pieces by colour, shape and number, the marks of the last ply, ghosts, the draw counter."""

from __future__ import annotations

import io
import subprocess
import sys
from typing import Any

import pytest
from PIL import Image

from engines import querni as q
from engines.querni import QuerniState
from render import render, render_picture
from render.draw import player_row_height
from render.querni import (
    BLUE_FILL,
    RED_FILL,
    blank_sprite,
    layout,
    piece_size,
    piece_sprite,
    querni_theme,
    status_text,
)
from render.theme import DEFAULT_THEME
from tests import ROOT

NAMES = ("Ana", "Bo")
THEME = querni_theme(DEFAULT_THEME)
LAY = layout(THEME)
# Colours survive the palette mapping only approximately.
TOLERANCE = 14

# Worked example 1 of the rules: the blue piece on c3 can jump c3-e5-g5-e3-c5 over d4, f5, f4 and d4 again.
EXAMPLE_1 = {"c3": "B1", "d4": "R2", "f5": "B5", "g4": "R6", "f4": "B7", "a7": "R1", "h1": "B2", "i1": "B3"}
# Worked example 2: blue 4 to 7 form a chain over d2 e3 e4 f5; 8 on h5 does not touch 7.  Blue's 1-3 and 9
# are added so that removing 4-6 strands nothing.
EXAMPLE_2 = {"d2": "B4", "e3": "B5", "e4": "B6", "f5": "B7", "h5": "B8", "a1": "B1", "b1": "B2", "c1": "B3", "j1": "B9"}


def decode(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG" and image.mode == "P"
        return image.convert("RGB")


def pixels(image: Image.Image) -> list[Any]:
    """Return an image's pixels in order (``getdata`` is deprecated from Pillow 13 on)."""
    getter = getattr(image, "get_flattened_data", None) or image.getdata
    return list(getter())


def near(actual: tuple[int, ...], expected: tuple[int, ...], tolerance: int = TOLERANCE) -> bool:
    return max(abs(a - e) for a, e in zip(actual, expected, strict=True)) <= tolerance


def card(state: QuerniState, **kwargs: Any) -> Image.Image:
    return decode(render(state, players=NAMES, **kwargs))


def center(name: str) -> tuple[int, int]:
    cell = q.INDEX[name]
    return LAY.grid.center(cell % q.WIDTH, cell // q.WIDTH)


def box(name: str) -> tuple[int, int, int, int]:
    cell = q.INDEX[name]
    return LAY.grid.box(cell % q.WIDTH, cell // q.WIDTH)


def body(name: str) -> tuple[int, int]:
    """Return a point inside the piece on ``name`` but below its number: where the piece's fill shows."""
    x, y = center(name)
    return x, y + round(piece_size(THEME) * 0.34)


def is_cell(pixel: tuple[int, int, int], tolerance: int = 6) -> bool:
    return near(pixel, THEME.cell, tolerance) or near(pixel, THEME.cell_alt, tolerance)


def board_pixels(image: Image.Image) -> list[tuple[int, int, int]]:
    grid = LAY.grid
    return pixels(image.crop((grid.left, grid.top, grid.right, grid.bottom)))


def grey(rgb: tuple[int, ...]) -> float:
    return 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]


def luminance(rgb: tuple[int, ...]) -> float:
    """Relative luminance as WCAG defines it."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def row_marker(image: Image.Image, seat: int) -> tuple[int, int, int]:
    """Return the pixel where the turn bar of ``seat``'s header row is drawn."""
    height = player_row_height(THEME)
    y0 = LAY.header_top + seat * height
    return image.getpixel((THEME.padding + 4, y0 + (height - 8) // 2))


def counter_segment(image: Image.Image, index: int, limit: int) -> tuple[int, int, int]:
    """Return the middle pixel of segment ``index`` of the draw counter's bar."""
    x0, y0, x1, y1 = LAY.counter_bar
    gap = 3 if limit <= 40 else 2
    seg = (x1 - x0 - gap * (limit - 1)) / limit
    return image.getpixel((round(x0 + index * (seg + gap) + seg / 2), (y0 + y1) // 2))


# -- pieces ------------------------------------------------------------------------------------------------------------


def test_the_start_shows_every_piece_in_its_colour_on_its_square() -> None:
    state = q.new(seed=4)
    image = card(state)
    assert image.size == (DEFAULT_THEME.width, LAY.height)
    for cell, value in enumerate(state.board):
        name = q.NAMES[cell]
        if value:
            colour = q.COLOUR[value]
            assert near(image.getpixel(body(name)), THEME.seat_fill[colour]), name
        else:
            assert is_cell(image.getpixel(center(name))), name
    # Nothing of a last move yet: no mark colour on the board.
    assert not any(near(p, THEME.mark, 10) for p in board_pixels(image))


def test_seats_are_blue_and_red_apart_in_greyscale_and_each_number_reads_on_its_piece() -> None:
    assert THEME.seat_fill[:2] == (BLUE_FILL, RED_FILL)
    blue, red, board = grey(BLUE_FILL), grey(RED_FILL), grey(THEME.cell)
    assert blue - board > 40 and board - red > 30
    # Each piece's edge stands out from the board even where its fill does not.
    assert abs(grey(THEME.seat_edge[1]) - board) > 80 and abs(grey(THEME.seat_edge[0]) - board) > 80
    for seat in (0, 1):
        assert contrast(THEME.seat_fill[seat], THEME.seat_text[seat]) >= 4.5, seat
    # Name chips are drawn in the same seat colours.
    assert querni_theme(DEFAULT_THEME.with_width(900)).seat_fill[:2] == (BLUE_FILL, RED_FILL)


def test_the_two_seats_have_different_shapes() -> None:
    masks = [[a > 128 for a in pixels(blank_sprite(seat, 100, THEME).getchannel("A"))] for seat in (0, 1)]
    # A disc and a rounded square differ in their four corners: several hundred pixels of a 100 px sprite.
    assert sum(a != b for a, b in zip(*masks, strict=True)) > 600
    # The square's corner is inside the piece, the disc's is not.
    corner = (12, 12)
    assert blank_sprite(1, 100, THEME).getpixel(corner)[3] > 200
    assert blank_sprite(0, 100, THEME).getpixel(corner)[3] < 30


@pytest.mark.parametrize("seat", [0, 1])
def test_every_number_is_drawn_in_the_seats_ink_and_all_sixteen_differ(seat: int) -> None:
    size = piece_size(THEME)
    sprites = [piece_sprite(seat, n, size, THEME) for n in range(1, q.PIECES + 1)]
    assert len({sprite.tobytes() for sprite in sprites}) == q.PIECES
    ink = THEME.seat_text[seat]
    for number, sprite in enumerate(sprites, start=1):
        middle = sprite.crop((size // 4, size // 4, size * 3 // 4, size * 3 // 4))
        inked = sum(1 for p in pixels(middle) if near(p[:3], ink, 30) and p[3] == 255)
        assert inked > 20, number
    # Two-digit numbers stay clear of the piece's edge: a ring of fill is left on either side of "16".
    row = [sprites[15].getpixel((x, size // 2)) for x in range(size)]
    fill = THEME.seat_fill[seat]
    assert near(row[size // 2 - round(size * 0.36)][:3], fill, 30) and near(
        row[size // 2 + round(size * 0.36)][:3], fill, 30
    )


# -- the last ply ------------------------------------------------------------------------------------------------------


def test_a_step_outlines_the_start_and_lights_the_end_square() -> None:
    state = q.new(seed=4).play("b2-b3")
    image = card(state)
    x0, y0, _, y1 = box("b2")
    # The start's outline just inside the cell edge, on the left side; its centre holds the arrow's dot.
    assert near(image.getpixel((x0 + 3 + 2 + 1, (y0 + y1) // 2)), THEME.mark)
    assert near(image.getpixel(center("b2")), THEME.mark)
    # The end square is filled with the mark colour around the piece.
    ex0, ey0, _, _ = box("b3")
    assert near(image.getpixel((ex0 + 8, ey0 + 8)), THEME.mark)
    assert near(image.getpixel(body("b3")), BLUE_FILL)
    # No other square is marked.
    assert is_cell(image.getpixel((box("c3")[0] + 8, box("c3")[1] + 8)))


def test_a_jump_sequence_draws_every_landing_and_passes_under_the_jumped_pieces() -> None:
    state = q.new(layout=EXAMPLE_1)
    after = state.play("c3-c5")
    assert after.last is not None and [q.NAMES[c] for c in after.last.path] == ["c3", "e5", "g5", "e3", "c5"]
    image = card(after)
    # The start and every intermediate landing are empty squares holding an arrow's dot.
    for name in ("c3", "e5", "g5", "e3"):
        assert near(image.getpixel(center(name)), THEME.mark), name
    # The jumped pieces keep their own colours: the arrows pass under them.
    assert near(image.getpixel(body("d4")), RED_FILL)
    assert near(image.getpixel(body("f5")), BLUE_FILL)
    assert near(image.getpixel(body("f4")), BLUE_FILL)
    # Between the landings the shafts show, e.g. halfway from c3 to the jumped d4.
    (ax, ay), (bx, by) = center("c3"), center("d4")
    assert near(image.getpixel(((3 * ax + bx) // 4, (3 * ay + by) // 4)), THEME.mark)
    # The piece ended on c5, its square lit.
    x0, y0, _, _ = box("c5")
    assert near(image.getpixel((x0 + 8, y0 + 8)), THEME.mark)
    assert near(image.getpixel(body("c5")), BLUE_FILL)


def test_a_removed_chain_shows_ghosts_for_one_ply_only() -> None:
    state = q.new(layout={**EXAMPLE_2, "j7": "R1", "i7": "R2"}).play("h5-g5 x4-6")
    assert state.last is not None and [q.NAMES[c] for _, c in state.last.removed] == ["d2", "e3", "e4"]
    image = card(state)
    for name in ("d2", "e3", "e4"):
        pixel = image.getpixel(body(name))
        # A ghost: neither the empty square nor the solid piece, but in between.
        assert not near(pixel, BLUE_FILL, 30) and not is_cell(pixel), name
        assert state.board[q.INDEX[name]] == q.EMPTY
    # The ghost keeps its number in the ink colour.
    x, y = center("e3")
    around = image.crop((x - 12, y - 12, x + 12, y + 12))
    assert sum(1 for p in pixels(around) if near(p, THEME.seat_text[0], 60)) > 15
    # The header shows what the ply removed.
    assert state.outcome() is None and state.removed == (7 + 3, 14)
    # One ply later the ghosts are gone.
    later = card(state.play("j7-j6"))
    for name in ("d2", "e3", "e4"):
        assert is_cell(later.getpixel(body(name))), name


def test_a_piece_that_moved_and_left_in_the_chain_is_outlined_not_filled() -> None:
    state = q.new(layout={**EXAMPLE_2, "j7": "R1"}).play("h5-g5 x4-6")
    image = card(state)
    # g5 holds the moved 8, so it is lit; the doctest's c3-e5 x1-3 removes the mover itself.
    assert near(image.getpixel((box("g5")[0] + 8, box("g5")[1] + 8)), THEME.mark)
    gone = q.new(layout={"c3": "B1", "d4": "B2", "e4": "B3", "j7": "R1", "a1": "B5", "b1": "B6", "c1": "B7"})
    image = card(gone.play("c3-e5 x1-3"))
    x0, y0, _, _ = box("e5")
    # Its ghost covers the middle of the outline's sides; the outline shows beyond the ghost's round edge.
    assert near(image.getpixel((x0 + 3 + 2 + 2, y0 + 12)), THEME.mark)
    assert not near(image.getpixel((x0 + 16, y0 + 16)), THEME.mark, 40)


def test_without_the_last_move_nothing_is_marked() -> None:
    state = q.new(layout=EXAMPLE_2 | {"j7": "R1"}).play("h5-g5 x4-6")
    image = card(state, last_move=False)
    assert not any(near(p, THEME.mark, 10) for p in board_pixels(image))
    assert is_cell(image.getpixel(body("e3")))


def test_a_pass_marks_nothing_on_the_board_but_counts() -> None:
    state = q.new(seed=1).play("pass")
    image = card(state)
    assert not any(near(p, THEME.mark, 10) for p in board_pixels(image))
    assert near(counter_segment(image, 0, 30), THEME.text) and near(counter_segment(image, 1, 30), THEME.panel)


# -- header, status and counter ----------------------------------------------------------------------------------------


def test_the_header_follows_the_turn() -> None:
    first = card(q.new(seed=2))
    second = card(q.new(seed=2).play("pass"))
    assert near(row_marker(first, 0), THEME.mark) and not near(row_marker(first, 1), THEME.mark)
    assert near(row_marker(second, 1), THEME.mark) and not near(row_marker(second, 0), THEME.mark)


def test_the_draw_counter_fills_a_segment_per_ply_and_turns_amber_near_the_end() -> None:
    state = q.new(seed=5)
    for _ in range(27):
        state = state.play("pass")
    image = card(state)
    assert all(near(counter_segment(image, i, 30), THEME.text) for i in range(25))
    assert all(near(counter_segment(image, i, 30), THEME.mark) for i in (25, 26))
    assert all(near(counter_segment(image, i, 30), THEME.panel) for i in (27, 28, 29))
    # A removal empties the bar again.
    removed = q.new(layout=EXAMPLE_2 | {"j7": "R1"}).play("x4-6")
    assert near(counter_segment(card(removed), 0, 30), THEME.panel)


def test_a_long_draw_limit_gets_a_continuous_bar() -> None:
    state = q.new(seed=5, draw_plies=100, draw_count="moves").play("pass")
    image = card(state)
    x0, y0, x1, y1 = LAY.counter_bar
    assert near(image.getpixel((x0 + 1, (y0 + y1) // 2)), THEME.text)
    assert near(image.getpixel((x1 - 2, (y0 + y1) // 2)), THEME.panel)


STRANDING = {"a1": "B1", "b1": "B2", "c1": "B3", "d1": "B4", "e1": "B5", "a3": "B9", "b3": "B10", "c3": "B11"}
FIVE_IN_A_ROW = {"a1": "B1", "b1": "B2", "c1": "B3", "d1": "B4", "e1": "B5", "j7": "R1"}
CLEARING = {"c3": "B1", "d4": "B2", "e4": "B3", "j7": "R1"}


@pytest.mark.parametrize(
    ("state", "expected"),
    [
        (q.new(seed=1), "Ana (blue) to move · move 1"),
        (q.new(seed=1).play("pass"), "Bo (red) to move · move 2"),
        (q.new(layout=CLEARING).play("c3-e5 x1-3"), "Ana wins · all 16 pieces removed"),
        (q.new(layout=STRANDING | {"j7": "R1"}).play("x2-4"), "Bo wins · Ana stranded 1, 5"),
        (q.new(layout=FIVE_IN_A_ROW, isolation="no_triple_left").play("x2-4"), "Bo wins · Ana left no three in a row"),
        (q.new(seed=3, draw_plies=2).play("pass").play("pass"), "Draw 0 – 0 · no chain removed for 2 moves"),
        (
            q.new(seed=3, draw_plies=1, draw_count="moves").play("pass").play("pass"),
            "Draw 0 – 0 · no chain removed for 1 full move",
        ),
        (q.new(seed=3).play("pass").forfeit(1, "forfeit"), "Ana wins · Bo resigned"),
        # A forfeit right after the loser's own safe removal is still told as a forfeit.
        (
            q.new(layout=EXAMPLE_2 | {"j7": "R1"}).play("x4-6").forfeit(0, "timeout"),
            "Bo wins · Ana ran out of time; Bo claimed the win",
        ),
    ],
)
def test_status_line_texts(state: QuerniState, expected: str) -> None:
    assert status_text(state, NAMES) == expected


def test_the_seat_colour_is_not_repeated_after_a_default_name() -> None:
    assert status_text(q.new(seed=1), ("Blue", "Red")) == "Blue to move · move 1"


def test_an_ended_game_tags_the_winner_and_shows_no_turn_marker() -> None:
    state = q.new(layout=STRANDING | {"j7": "R1"}).play("x2-4")
    image = card(state)
    assert not near(row_marker(image, 0), THEME.mark) and not near(row_marker(image, 1), THEME.mark)
    playing = card(q.new(layout=STRANDING | {"j7": "R1"}).play("x9-11"))
    top = LAY.status_top
    assert image.crop((0, 0, image.width, top)) != playing.crop((0, 0, image.width, top))


def test_every_file_and_rank_is_labelled() -> None:
    image = card(q.new(seed=0))
    grid = LAY.grid
    label = THEME.font_coordinate + 16
    for i in range(q.WIDTH):
        x0, _, x1, y1 = grid.box(i, 0)
        assert any(near(p, THEME.coordinate, 40) for p in pixels(image.crop((x0, y1, x1, y1 + label)))), i
    for i in range(q.HEIGHT):
        _, y0, _, y1 = grid.box(0, i)
        beside = image.crop((grid.left - label - 12, y0, grid.left - 4, y1))
        assert any(near(p, THEME.coordinate, 40) for p in pixels(beside)), i


# -- the contract ------------------------------------------------------------------------------------------------------


def test_cards_are_deterministic_small_and_of_one_size() -> None:
    positions = [
        q.new(seed=9),
        q.new(layout=EXAMPLE_1).play("c3-c5"),
        q.new(layout=EXAMPLE_2 | {"j7": "R1"}).play("h5-g5 x4-6"),
        q.new(layout=STRANDING | {"j7": "R1"}).play("x2-4"),
    ]
    for state in positions:
        first = render(state, players=("Ана", "Zoë 🎲 with a name far too long for any phone screen"))
        assert first == render(state, players=("Ана", "Zoë 🎲 with a name far too long for any phone screen"))
        assert len(first) < 80_000
        assert decode(first).size == (DEFAULT_THEME.width, LAY.height)
    picture = render_picture(positions[0])
    assert picture.palette is not None and picture.image.mode == "RGB"
    assert render(positions[0]) == render(positions[0], players=["Blue", "Red"])


def test_a_wider_theme_scales_the_board() -> None:
    wide = DEFAULT_THEME.with_width(900)
    image = decode(render(q.new(seed=1), theme=wide))
    assert image.width == 900
    assert layout(querni_theme(wide)).grid.cell > LAY.grid.cell


@pytest.mark.subprocess
def test_assets_are_loaded_lazily() -> None:
    code = (
        "import render, render.querni as r;"
        "print(r.static_card.cache_info().currsize, r.piece_sprite.cache_info().currsize,"
        " r.palette.cache_info().currsize)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "0", "0"]


def test_a_stranding_ending_rings_the_stranded_pieces_and_drops_the_draw_counter() -> None:
    """Why the game ended shows: the numbers that lost are marked; what no longer matters (the counter) is gone."""
    playing = q.new(layout=STRANDING | {"j7": "R1"}).play("pass")
    ended = q.new(layout=STRANDING | {"j7": "R1"}).play("x2-4")
    assert ended.stranded(0) == (1, 5)
    before, after = card(playing), card(ended)
    ring, reach = max(5, LAY.grid.cell // 12), LAY.grid.cell / 2 - 1
    for name in ("a1", "e1"):
        x, y = center(name)
        # The ring's middle, left and right of the piece: amber once stranded, not before the end.
        for dx in (-1, 1):
            point = (round(x + dx * (reach - ring / 2)), y)
            assert near(after.getpixel(point), THEME.mark), name
            assert not near(before.getpixel(point), THEME.mark), name
    # Pieces that were not stranded get no ring.
    x, y = center("a3")
    assert not near(after.getpixel((round(x - reach + ring / 2), y)), THEME.mark)
    # The draw counter's bar is drawn while playing (one filled segment after the pass), not after the end.
    x0, y0, x1, y1 = LAY.counter_bar
    assert near(counter_segment(before, 0, 30), THEME.text)
    bar = pixels(after.crop((x0, y0, x1, y1)))
    assert not any(near(p, THEME.panel, 3) or near(p, THEME.text, 3) for p in bar)


def test_the_draw_counter_says_moves_as_the_status_line_does() -> None:
    from i18n.querni import board_counter_text

    one = q.new(seed=1).play("pass")
    assert board_counter_text(one) == "1 of 30 moves without a removal"
    assert board_counter_text(one, "ru") == "1 из 30 ходов без снятия"
    assert board_counter_text(one, "fr") == "1 coup sur 30 sans retrait"
    rounds = q.new(seed=1, draw_count="moves").play("pass")
    assert board_counter_text(rounds) == "1 move without a removal (a draw after 30 by each player)"
    assert board_counter_text(rounds.play("pass")) == "2 moves without a removal (a draw after 30 by each player)"
