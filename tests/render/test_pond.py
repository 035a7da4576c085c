"""Pond's board card: pixels at known cells, marks of the last move, header, endings, both board sizes."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from engines import GAMES
from engines.pond import GEOMETRY, PondState, from_json
from render import render
from render.draw import player_row_height
from render.pond import layout, piece_sprite, status_text
from render.theme import DEFAULT_THEME as THEME

NAMES = ("Ana", "Bo")
# Colours survive the palette mapping only approximately.
TOLERANCE = 14


def decode(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG"
        return image.convert("RGB")


def pixels(image: Image.Image) -> list[Any]:
    """Return an image's pixels in order (``getdata`` is deprecated from Pillow 13 on)."""
    getter = getattr(image, "get_flattened_data", None) or image.getdata
    return list(getter())


def near(actual: tuple[int, ...], expected: tuple[int, ...], tolerance: int = TOLERANCE) -> bool:
    return max(abs(a - e) for a, e in zip(actual, expected, strict=True)) <= tolerance


def play(*moves: str, **options: Any) -> PondState:
    state = GAMES["pond"].new(**options)
    for move in moves:
        state = state.play(move)
    assert isinstance(state, PondState)
    return state


def position(rows: list[str], **fields: Any) -> PondState:
    """Build a standard-board state from rows drawn rank 4 first, as in the rules' examples."""
    data: dict[str, Any] = {
        "game": "pond",
        "format": 1,
        "seed": 0,
        "options": {"variant": "standard", "spawn": 13, "target": 10, "max_plies": 300},
        "board": [row.split() for row in reversed(rows)],
        "turn": 0,
        "ply": 0,
        "result": None,
        "last": None,
    }
    data.update(fields)
    return from_json(data)


# Worked example 1 of the rules: light's egg on b3 develops b4, c3, b2 and file c scores (dark +1, light +2).
EXAMPLE_1 = [".. dE dT ..", ".. .. lE ..", ".. lF lT ..", ".. .. .. .."]


def cell_center(state: PondState, name: str) -> tuple[int, int]:
    cell = GEOMETRY[state.size].index[name]
    return layout(state.size, THEME).grid.center(cell % state.size, cell // state.size)


def cell_box(state: PondState, name: str) -> tuple[int, int, int, int]:
    cell = GEOMETRY[state.size].index[name]
    return layout(state.size, THEME).grid.box(cell % state.size, cell // state.size)


def row_marker(image: Image.Image, seat: int) -> tuple[int, int, int]:
    """Return the pixel where the turn bar of ``seat``'s header row is drawn."""
    height = player_row_height(THEME)
    y0 = layout(4, THEME).header_top + seat * height
    return image.getpixel((THEME.padding + 4, y0 + (height - 8) // 2))


def board_pixels(image: Image.Image, state: PondState) -> list[tuple[int, int, int]]:
    grid = layout(state.size, THEME).grid
    crop = image.crop((grid.left, grid.top, grid.right, grid.bottom))
    return pixels(crop)


def test_empty_board_shows_cell_colours_and_no_marks() -> None:
    state = play()
    image = decode(render(state, players=NAMES))
    for name in ("a1", "b2", "d4", "c3"):
        pixel = image.getpixel(cell_center(state, name))
        assert near(pixel, THEME.cell) or near(pixel, THEME.cell_alt), name
    assert not any(near(p, THEME.mark, 10) for p in board_pixels(image, state))


def test_pieces_show_their_seat_colour_at_the_cell_centre() -> None:
    state = play("place b2", "place c2", "place b1", "place d4")  # b2 is now a light frog, c2 a dark egg
    image = decode(render(state, players=NAMES))
    assert near(image.getpixel(cell_center(state, "b2")), THEME.seat_fill[0])
    assert near(image.getpixel(cell_center(state, "b1")), THEME.seat_fill[0])
    assert near(image.getpixel(cell_center(state, "c2")), THEME.seat_fill[1])
    assert near(image.getpixel(cell_center(state, "d4")), THEME.seat_fill[1])


def test_the_three_faces_have_different_shapes() -> None:
    masks = []
    for value in (1, 2, 3):  # light egg, tadpole, frog
        alpha = piece_sprite(value, 100, THEME).getchannel("A")
        masks.append([a > 128 for a in pixels(alpha)])
    # Silhouettes differ in at least a tenth of the sprite's pixels, pair by pair.
    for i in range(3):
        for j in range(i + 1, 3):
            assert sum(a != b for a, b in zip(masks[i], masks[j], strict=True)) > 1000


def test_a_placement_outlines_the_target_cell() -> None:
    state = play("place b2")
    image = decode(render(state, players=NAMES))
    x0, y0, x1, y1 = cell_box(state, "b2")
    # The ring sits just inside the cell's edge, on all four sides.
    width = max(5, (x1 - x0) // 22)
    ring = 4 + 2 + width // 2
    mid_x, mid_y = (x0 + x1) // 2, (y0 + y1) // 2
    for point in ((x0 + ring, mid_y), (x1 - 1 - ring, mid_y), (mid_x, y0 + ring), (mid_x, y1 - 1 - ring)):
        assert near(image.getpixel(point), THEME.mark), point
    # No other cell is marked.
    bx0, by0, _, by1 = cell_box(state, "c3")
    assert not near(image.getpixel((bx0 + ring, (by0 + by1) // 2)), THEME.mark)


def test_without_last_move_nothing_is_marked() -> None:
    state = play("place b2", "place c2")
    image = decode(render(state, players=NAMES, last_move=False))
    assert not any(near(p, THEME.mark, 10) for p in board_pixels(image, state))
    assert near(image.getpixel(cell_center(state, "b2")), THEME.seat_fill[0])


def test_a_frog_hop_draws_an_arrow_from_the_start_cell_and_badges_the_hopped_piece() -> None:
    state = play("place b2", "place c2", "place b1", "place d4", "move b2 d2")
    image = decode(render(state, players=NAMES))
    start = cell_center(state, "b2")
    # The start cell is empty: the arrow's dot is drawn on its centre.
    assert near(image.getpixel(start), THEME.mark)
    # The shaft runs on the edge between b2 and c2, before the hopped piece covers it.
    x0, _, _, _ = cell_box(state, "c2")
    assert near(image.getpixel((x0, start[1])), THEME.mark)
    # The hopped dark egg became a dark tadpole and carries the "grew" badge in its top-right corner.
    assert near(image.getpixel(cell_center(state, "c2")), THEME.seat_fill[1])
    _, by0, bx1, _ = cell_box(state, "c2")
    badge = max(24, layout(4, THEME).grid.cell // 4)
    assert near(image.getpixel((bx1 - 6 - badge // 2, by0 + 6 + badge * 8 // 10)), THEME.mark)
    # The frog stands on d2, outlined.
    assert near(image.getpixel(cell_center(state, "d2")), THEME.seat_fill[0])


def test_a_tadpole_move_draws_an_arrow() -> None:
    state = play("place b2", "place c2", "move b2 b3")
    assert state.last is not None and state.last.actor == 2
    image = decode(render(state, players=NAMES))
    sx, sy = cell_center(state, "b2")
    _, ty = cell_center(state, "b3")
    # Along the arrow, between the start dot and the head, every pixel on the line is the mark colour.
    for y in range(sy, (sy + ty) // 2, -4):
        assert near(image.getpixel((sx, y)), THEME.mark), y


def test_scored_pieces_leave_ghosts_with_a_plus_one_in_the_owners_colours() -> None:
    state = position(EXAMPLE_1, spawn=[10, 11], scored=[0, 0]).play("place b3")
    assert state.last is not None and {c for c, _ in state.last.scored} == {10, 6, 14}  # c2, c3, c4
    image = decode(render(state, players=NAMES))
    for name, owner in (("c4", 1), ("c3", 0), ("c2", 0)):
        pixel = image.getpixel(cell_center(state, name))
        # A ghost: neither the empty cell nor the solid piece, but in between.
        fill = THEME.seat_fill[owner]
        assert not near(pixel, fill, 30), name
        assert not (near(pixel, THEME.cell, 6) or near(pixel, THEME.cell_alt, 6)), name
        x0, y0, _, _ = cell_box(state, name)
        # The pill's own background, in the owner's fill colour, just right of its border.
        assert near(image.getpixel((x0 + 8 + 5, y0 + 8 + 16)), fill, 20), name
    # Gains show in the header as well; scores read 2 and 1.
    assert state.scored == (2, 1)


def test_the_header_follows_the_turn() -> None:
    first = decode(render(play("place b2"), players=NAMES))
    second = decode(render(play("place b2", "place c3"), players=NAMES))
    # Dark is to move after one ply, light after two: the turn bar moves between the rows.
    assert near(row_marker(first, 1), THEME.mark) and not near(row_marker(first, 0), THEME.mark)
    assert near(row_marker(second, 0), THEME.mark) and not near(row_marker(second, 1), THEME.mark)
    top = layout(4, THEME).status_top
    assert first.crop((0, 0, first.width, top)) != second.crop((0, 0, second.width, top))


def test_status_line_texts() -> None:
    assert status_text(play(), NAMES) == "Ana to move · move 1 · move limit 300"
    won = position(EXAMPLE_1, spawn=[2, 3], scored=[8, 8]).play("place b3")
    assert status_text(won, NAMES) == "Ana wins 10 – 9 · target reached"
    level = position(EXAMPLE_1, spawn=[2, 2], scored=[8, 9]).play("place b3")
    assert status_text(level, NAMES) == "Draw 10 – 10 · target reached"
    limit = play("place a1", "place d4", "place b3", max_plies=3)
    assert status_text(limit, NAMES) == "Draw 0 – 0 · ended by the move limit (3 moves)"
    resigned = play("place b2").forfeit(1, "forfeit")
    assert status_text(resigned, NAMES) == "Ana wins · Bo resigned"


def test_elimination_names_the_player_without_an_action() -> None:
    state = position(
        ["lT dE .. ..", "dE .. .. ..", ".. .. .. ..", ".. .. .. lE"],
        options={"variant": "standard", "spawn": 5, "target": 10, "max_plies": 300},
        spawn=[0, 3],
        scored=[3, 0],
        ply=12,
        result={"winners": [1], "scores": [3, 0], "reason": "Light is eliminated.", "places": [2, 1]},
        last={"player": 1, "move": [-1, 8], "actor": 4, "developed": [], "scored": [], "gains": [0, 0]},
    )
    assert status_text(state, NAMES) == "Bo wins · Ana had no legal action"
    image = decode(render(state, players=NAMES))
    assert image.size[0] == THEME.width


def test_an_ended_game_shows_no_turn_marker() -> None:
    state = position(EXAMPLE_1, spawn=[2, 3], scored=[8, 8]).play("place b3")
    image = decode(render(state, players=NAMES))
    assert not near(row_marker(image, 0), THEME.mark) and not near(row_marker(image, 1), THEME.mark)
    playing = decode(render(play("place b2"), players=NAMES))
    top = layout(4, THEME).status_top
    assert image.crop((0, 0, image.width, top)) != playing.crop((0, 0, image.width, top))


@pytest.mark.parametrize("variant, size", [("standard", 4), ("mini", 4), ("large", 5)])
def test_board_sizes(variant: str, size: int) -> None:
    state = play("place a1", f"place {'abcde'[size - 1]}{size}", variant=variant)
    image = decode(render(state, players=NAMES))
    assert 600 <= image.width <= 1200
    assert image.height == layout(size, THEME).height
    grid = layout(size, THEME).grid
    assert grid.files == grid.ranks == size
    assert near(image.getpixel(cell_center(state, "a1")), THEME.seat_fill[0])
    assert near(image.getpixel(cell_center(state, f"{'abcde'[size - 1]}{size}")), THEME.seat_fill[1])
    # The board is centred and fits the card with room for the coordinates.
    assert grid.left > THEME.font_coordinate and grid.right < image.width - THEME.font_coordinate


@pytest.mark.parametrize("size", [4, 5])
def test_every_file_and_rank_is_labelled(size: int) -> None:
    image = decode(render(play(variant="large" if size == 5 else "standard"), players=NAMES))
    grid = layout(size, THEME).grid
    label = THEME.font_coordinate + 16
    for i in range(size):
        x0, _, x1, y1 = grid.box(i, 0)
        below = image.crop((x0, y1, x1, y1 + label))
        assert any(near(p, THEME.coordinate, 40) for p in pixels(below)), f"file {i}"
        _, y0, _, y1 = grid.box(0, i)
        beside = image.crop((grid.left - label - 12, y0, grid.left - 4, y1))
        assert any(near(p, THEME.coordinate, 40) for p in pixels(beside)), f"rank {i}"


def test_pond_cards_are_deterministic_and_small() -> None:
    state = position(EXAMPLE_1, spawn=[10, 11], scored=[0, 0]).play("place b3")
    first = render(state, players=("Ана", "Zoë 🎲"))
    assert first == render(state, players=("Ана", "Zoë 🎲"))
    assert len(first) < 60_000
    assert decode(first).size == (THEME.width, layout(4, THEME).height)
