"""Summer's board card: cells, pieces, every kind of last-move mark, header, status, geometry, sizes and limits."""

from __future__ import annotations

import io
import math
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from engines import GAMES
from engines.summer import SummerState, new
from i18n.summer import header_facts
from render import render, render_image
from render.__main__ import main
from render.draw import pill_sprite, player_row_height
from render.summer import (
    BADGE_COLLIDED,
    BADGE_MERGED,
    MINUS_FILL,
    MINUS_INK,
    PLUS_FILL,
    PLUS_INK,
    START_FILL,
    _rows,
    _sizes,
    _weight_size,
    goal_gains,
    last_move_text,
    layout,
    marks_of,
    piece_sprite,
    status_names,
    status_text,
)
from render.text import text_width
from render.theme import DEFAULT_THEME as THEME
from tests import ROOT

NAMES = ("Ana", "Bo")
TOLERANCE = 14  # colours survive the palette mapping only approximately

# A 4x4 board with a known terrain: rank 2 is + - + -, rank 3 is - + - +.
FOUR = {"size": 4, "weights": [1, 2, 3, 4], "black_weights": [4, 3, 2, 1], "terrain": ["....", "+-+-", "-+-+", "...."]}
# A 3x3 board whose middle rank is all plus, for the endings.
THREE = {"size": 3, "weights": [1, 2, 3], "black_weights": [3, 1, 2], "terrain": ["...", "+++", "..."]}


def decode(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG"
        return image.convert("RGB")


def near(actual: tuple[int, ...], expected: tuple[int, ...], tolerance: int = TOLERANCE) -> bool:
    return max(abs(a - e) for a, e in zip(actual, expected, strict=True)) <= tolerance


def grey(rgb: tuple[int, int, int]) -> float:
    return 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]


def play(*moves: str, **options: Any) -> SummerState:
    state = new(**options)
    for move in moves:
        state = state.play(move)
    return state


def walk(state: SummerState, plies: int, seed: int = 1) -> SummerState:
    """Play up to ``plies`` seeded random moves."""
    rng = random.Random(seed)
    for _ in range(plies):
        if not state.legal_moves():
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


def center(state: SummerState, name: str) -> tuple[int, int]:
    return layout(state.size, state.shape == "hex", THEME).board.centers[state.parse_cell(name)]


def mark_pixels(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    """Count the pixels of the mark colour inside ``box``."""
    crop = image.crop(box)
    getter = getattr(crop, "get_flattened_data", None) or crop.getdata
    return sum(1 for p in getter() if near(p, THEME.mark, 10))


def board_box(state: SummerState) -> tuple[int, int, int, int]:
    board = layout(state.size, state.shape == "hex", THEME).board
    return (board.left, board.top, board.right, board.bottom)


# -- cells and pieces -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", ["square", "hex"])
def test_plus_and_minus_cells_differ_by_colour_and_by_symbol(shape: str) -> None:
    state = play("a1-a2", board=shape, **FOUR)  # a1 is now an empty start-row cell
    image = decode(render(state, players=NAMES, last_move=False))
    symbol = _sizes(4, shape == "hex", THEME)[1]
    up, side = round(symbol * 0.25), round(symbol * 0.3)
    for name, fill, ink, plus in (("c2", PLUS_FILL, PLUS_INK, True), ("b2", MINUS_FILL, MINUS_INK, False)):
        x, y = center(state, name)
        assert near(image.getpixel((x, y)), ink), name  # the sign's middle
        assert near(image.getpixel((x + side, y + side)), fill), name  # the cell around it
        # Only the plus sign has a vertical bar: the two cells differ by shape, not by colour alone.
        assert near(image.getpixel((x, y - up)), ink if plus else fill), name
    assert near(image.getpixel(center(state, "a1")), START_FILL)


def test_cell_colours_stay_apart_in_greyscale() -> None:
    levels = {"plus": grey(PLUS_FILL), "start": grey(START_FILL), "minus": grey(MINUS_FILL)}
    assert levels["plus"] - levels["start"] > 25 and levels["start"] - levels["minus"] > 25
    white, black = grey(THEME.seat_fill[0]), grey(THEME.seat_fill[1])
    assert white - levels["plus"] > 45 and levels["minus"] - black > 45
    # The signs stand out from their own cells in greyscale as well.
    assert abs(grey(PLUS_INK) - levels["plus"]) > 40 and abs(grey(MINUS_INK) - levels["minus"]) > 40


@pytest.mark.parametrize("shape", ["square", "hex"])
def test_pieces_show_their_side_and_a_piece_on_a_signed_cell_keeps_its_sign(shape: str) -> None:
    state = play("b1-a2", board=shape, **FOUR)  # White's 2 lands on the plus cell a2 and weighs 3
    image = decode(render(state, players=NAMES, last_move=False))
    diameter = _sizes(4, shape == "hex", THEME)[0]
    below = round(diameter * 0.3)  # under the weight, inside the disc
    for name, seat in (("a1", 0), ("a2", 0), ("d4", 1)):
        x, y = center(state, name)
        assert near(image.getpixel((x, y + below)), THEME.seat_fill[seat]), name
    # The chip up-left of the piece on a2 repeats the cell's sign in the cell's colour.
    board = layout(4, shape == "hex", THEME).board
    chip = board.corner(state.parse_cell("a2"), -1)
    assert near(image.getpixel(chip), (20, 52, 36), 30)  # the plus chip's ink at its middle


def test_weights_are_large_and_fit_their_disc() -> None:
    diameter = 60
    ink = THEME.seat_text[0]
    sprite = piece_sprite(0, 8, diameter, THEME)
    rows = [y for y in range(diameter) if any(near(sprite.getpixel((x, y))[:3], ink, 40) for x in range(diameter))]
    assert max(rows) - min(rows) > diameter * 0.35  # the digit is over a third of the disc's height
    for weight in (1, 12, 288, 9999):
        text = str(weight)
        assert text_width(text, _weight_size(text, diameter)) <= diameter * 0.76
    assert piece_sprite(0, 7, diameter, THEME).tobytes() != piece_sprite(0, 1, diameter, THEME).tobytes()
    assert piece_sprite(0, 7, diameter, THEME).tobytes() != piece_sprite(1, 7, diameter, THEME).tobytes()


# -- the last move ------------------------------------------------------------------------------------------------

# Every kind of ply, found on the FOUR board: moves, what the marks hold, and the caption.
PLIES = [
    ("classic", ["a1-a2"], (None, 1, None), "White a1-a2 (1): +1 → 2"),
    ("classic", ["b1-b2"], (None, -1, None), "White b1-b2 (2): −1 → 1"),
    ("classic", ["a1-b2"], (None, -1, (0, 1)), "White a1-b2 (1): −1 → 0, removed"),
    ("classic", ["a1-b1", "a4-a3", "b1-a1"], (None, 0, None), "White b1-a1 (3)"),
    ("classic", ["a1-b1"], (BADGE_MERGED, 0, None), "White a1-b1: merged 1 + 2 = 3"),
    ("classic", ["b1-a2", "a4-a3", "a1-a2"], (BADGE_MERGED, 1, None), "White a1-a2: merged 1 + 3 = 4, +1 → 5"),
    ("classic", ["b1-b2", "a4-a3", "c1-b2"], (BADGE_MERGED, -1, None), "White c1-b2: merged 3 − 1 = 2, −1 → 1"),
    (
        "classic",
        ["b1-b2", "a4-a3", "b2-a3", "b4-a3"],
        (BADGE_MERGED, -1, (1, 1)),
        "Black b4-a3: merged 3 − 2 = 1, −1 → 0, removed",
    ),
    ("classic", ["a1-b1", "a4-a3", "b1-c1"], (None, 0, (0, 3)), "White b1-c1: 3 onto own 3, both removed"),
    ("classic", ["a1-a2", "b4-a3", "a2-a3"], (None, 0, (1, 2)), "White a2-a3: 2 onto Black's 2, both removed"),
    (
        "classic",
        ["b1-c2", "c4-c3", "c2-c3"],
        (BADGE_COLLIDED, -1, None),
        "White c2-c3: hit Black's 1, 3 − 1 = 2, −1 → 1",
    ),
    (
        "classic",
        ["b1-c2", "d4-d3", "c2-d3"],
        (BADGE_COLLIDED, 1, None),
        "White c2-d3: hit Black's 2, 3 − 2 = 1, +1 → 2",
    ),
    ("classic", ["a1-a2", "a4-a3", "a2-a3"], (BADGE_COLLIDED, 0, None), "White a2-a3: 2 hit 3, Black keeps 3 − 2 = 1"),
    (
        "classic",
        ["b1-a2", "b4-a3", "a2-a3"],
        (BADGE_COLLIDED, -1, (0, 1)),
        "White a2-a3: hit Black's 2, 3 − 2 = 1, −1 → 0, removed",
    ),
    ("field", ["a1-a2", "a4-b3", "a2-b3"], (BADGE_COLLIDED, 1, None), "White a2-b3: field win 2 + 5 = 7, +1 → 8"),
]


@pytest.mark.parametrize("mode, moves, marks, caption", PLIES, ids=[p[3] for p in PLIES])
def test_every_kind_of_ply_has_its_marks_and_caption(
    mode: str, moves: list[str], marks: tuple[Any, ...], caption: str
) -> None:
    state = play(*moves, mode=mode, **FOUR)
    found = marks_of(state)
    assert found is not None and (found.badge, found.modifier, found.ghost) == marks
    assert last_move_text(state) == caption


@pytest.mark.parametrize("shape", ["square", "hex"])
def test_the_last_move_is_outlined_with_an_arrow(shape: str) -> None:
    state = play("b1-a2", board=shape, **FOUR)
    image = decode(render(state, players=NAMES))
    board = layout(4, shape == "hex", THEME).board
    # The arrow's dot sits on the centre of the cell the piece left.
    assert near(image.getpixel(center(state, "b1")), THEME.mark)
    # Both cells are ringed; no other cell is.
    ring = max(4, board.pitch // 20)
    for name in ("b1", "a2", "c3"):
        x, y = center(state, name)
        edge = board.radius + board.pitch * 0.02
        ringed = mark_pixels(image, (round(x - edge), round(y - edge), round(x + edge), round(y + edge)))
        assert (ringed > 8 * ring) == (name != "c3"), name
    # The +1 pill replaces the plus chip up-left of the piece that gained.
    x, y = board.corner(state.parse_cell("a2"), -1)
    assert mark_pixels(image, (x - 20, y - 12, x + 20, y + 12)) > 60


def test_marks_sit_away_from_the_arrow() -> None:
    # Black comes down from above: its badge and pill go below the piece, where the arrow is not.
    state = play("b1-c2", "d4-d3", "c2-d3", "a4-a3", **FOUR)
    assert state.last is not None and state.last.modifier == -1
    image = decode(render(state, players=NAMES))
    board = layout(4, False, THEME).board
    cell = state.parse_cell("a3")
    x, y = board.corner(cell, -1, below=True)
    assert mark_pixels(image, (x - 12, y - 8, x + 12, y + 8)) > 60
    x, y = board.corner(cell, -1)
    assert mark_pixels(image, (x - 12, y - 8, x + 12, y + 8)) == 0


@pytest.mark.parametrize(
    "moves, badge",
    [(["a1-b1"], True), (["a1-a2", "a4-a3", "a2-a3"], True), (["a1-b1", "a4-a3", "b1-c1"], False)],
)
def test_badges_and_ghosts_are_drawn(moves: list[str], badge: bool) -> None:
    state = play(*moves, **FOUR)
    image = decode(render(state, players=NAMES))
    board = layout(4, False, THEME).board
    to = state.last.move.to if state.last else 0
    x, y = board.corner(to, 1)
    assert (mark_pixels(image, (x - 12, y - 12, x + 12, y + 12)) > 40) == badge
    marks = marks_of(state)
    if marks is not None and marks.ghost is not None:
        # A removed piece is a faded ghost under an amber cross: neither the bare cell nor a solid piece.
        cx, cy = board.centers[to]
        pixel = image.getpixel((cx + round(board.radius * 0.55), cy))
        assert not near(pixel, THEME.seat_fill[marks.ghost[0]], 30) and not near(pixel, START_FILL, 6)
        assert near(image.getpixel((cx, cy)), THEME.mark)


def test_without_last_move_nothing_is_marked() -> None:
    state = play("a1-a2", "a4-a3", "a2-a3", **FOUR)
    image = decode(render(state, players=NAMES, last_move=False))
    assert mark_pixels(image, board_box(state)) == 0
    lay = layout(4, False, THEME)
    assert mark_pixels(image, (0, lay.caption_top, image.width, lay.caption_top + THEME.font_small + 4)) == 0
    marked = decode(render(state, players=NAMES))
    assert mark_pixels(marked, (0, lay.caption_top, image.width, lay.caption_top + THEME.font_small + 4)) > 100


# -- header and status --------------------------------------------------------------------------------------------


def test_goal_gains_match_the_change_in_goal_totals() -> None:
    for seed, options in enumerate([{"size": 3}, {"size": 4, "board": "hex"}, {"size": 5, "mode": "field"}]):
        state = new(seed=seed, **options)
        rng = random.Random(seed)
        while state.legal_moves():
            after = state.play(rng.choice(state.legal_moves()))
            then, now = state.goal_totals(), after.goal_totals()
            assert goal_gains(after) == (now[0] - then[0], now[1] - then[1])
            state = after
    assert goal_gains(new(size=3)) == (0, 0)


def test_header_rows_say_pieces_arrivals_goal_totals_and_the_turn() -> None:
    # White's only piece, a 4, reaches rank 3 (+4): Black, with one of three pieces home, has one last move.
    state = play("a1-b1", "a3-a2", "c1-b2", "a2-b1", "b2-a3", **THREE)
    assert state.black_last_move
    white, black = _rows(state, NAMES, goal_gains(state), THEME)
    assert (white.score, white.gain, white.active, white.tag) == (4, 4, False, None)
    assert [text for _, text in white.facts] == ["1 in play", "all on goal"]
    assert white.score_text == "score 4"
    assert (black.score, black.gain, black.active, black.tag) == (1, 0, True, "last move")
    assert [text for _, text in black.facts] == ["3 in play", "1 on goal"]
    over = state.play("b1-a1")
    white, black = _rows(over, NAMES, goal_gains(over), THEME)
    assert (white.tag, black.tag, white.active, black.active) == ("winner", None, False, False)
    # A collision on Black's goal row costs Black weight there: the header shows the loss.
    hit = play("a1-b1", "a3-a2", "b1-b2", "a2-b1", "b2-a3", "b1-c1", **THREE)
    assert goal_gains(hit) == (0, -3)


def row_marker(image: Image.Image, seat: int) -> tuple[int, int, int]:
    height = player_row_height(THEME)
    y0 = layout(3, False, THEME).header_top + seat * height
    return image.getpixel((THEME.padding + 4, y0 + (height - 8) // 2))


def test_the_turn_bar_follows_the_turn() -> None:
    first = decode(render(play("a1-b1", **THREE), players=NAMES))
    second = decode(render(play("a1-b1", "a3-a2", **THREE), players=NAMES))
    assert near(row_marker(first, 1), THEME.mark) and not near(row_marker(first, 0), THEME.mark)
    assert near(row_marker(second, 0), THEME.mark) and not near(row_marker(second, 1), THEME.mark)


STATUSES = [
    ([], "Ana to move · move 1 · move limit 36"),
    (["a1-b1"], "Bo to move · move 2 · move limit 36"),
    (["a1-b1", "a3-a2", "c1-b2", "a2-b1", "b2-a3"], "White has arrived: Bo has one last move"),
    (["a1-b1", "a3-a2", "c1-b2", "a2-b1", "b2-a3", "b1-a1"], "Ana wins 4 – 1 · Black made its last move"),
    (["a1-b1", "a3-a2", "b1-b2", "a2-b1", "b2-a3", "b1-c1"], "Ana wins 4 – 1 · Black stopped White's last piece"),
    (["a1-b1", "a3-a2", "b1-c1"], "White has no pieces: Bo has one last move"),
    (["a1-b1", "a3-a2", "b1-c1", "a2-a1"], "Bo wins 4 – 0 · White has no pieces left"),
    (["a1-b1", "a3-b3", "b1-a1", "b3-c3"], "Draw 0 – 0 · Black has no pieces left"),
    (["b1-a2", "a3-b2", "a2-b3", "b2-a1", "b3-c3"], "Bo wins 3 – 0 · all Black pieces on rank 1"),
]


@pytest.mark.parametrize("moves, text", STATUSES, ids=[s[1] for s in STATUSES])
def test_status_lines(moves: list[str], text: str) -> None:
    assert status_text(play(*moves, **THREE), NAMES) == text


def test_status_lines_for_the_move_limit_and_forfeits() -> None:
    limit = play("a1-a2", "a3-a2", "b1-b2", max_plies=3, **THREE)
    assert limit.outcome() is not None
    assert status_text(limit, NAMES).endswith("· move limit reached")
    resigned = play("a1-b1", **THREE).forfeit(0, "forfeit")
    assert status_text(resigned, NAMES) == "Bo wins · Ana resigned"


def test_long_names_leave_the_end_of_the_status_line_whole() -> None:
    long = ("Bartholomew the Magnificent of Somewhere", "Dagny Taggart-Rearden the Second")
    room = THEME.width - 2 * THEME.padding
    state = walk(new(seed=3, size=12, max_plies=60), 60)
    assert state.outcome() is not None
    stopped = play("a1-b1", "a3-a2", "b1-b2", "a2-b1", "b2-a3", "b1-c1", **THREE)
    for position in (new(size=12), state, play("a1-b1", "a3-a2", "b1-c1", **THREE), stopped):
        text = status_text(position, status_names(long, THEME))
        assert text_width(text, 18) <= room, text  # the card shrinks a status line to 18 px before cutting it


# -- geometry, sizes, determinism -----------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [3, 6, 7, 12])
@pytest.mark.parametrize("shape", ["square", "hex"])
def test_the_engines_neighbours_are_neighbours_in_the_picture(size: int, shape: str) -> None:
    state = new(size=size, board=shape)
    board = layout(size, shape == "hex", THEME).board
    allowed = [board.pitch] if shape == "hex" else [board.pitch, board.pitch * math.sqrt(2)]
    for player in (0, 1):
        for cell, targets in enumerate(state.geometry.targets[player]):
            for to in targets:
                distance = math.dist(board.centers[cell], board.centers[to])
                assert min(abs(distance - a) for a in allowed) <= 1.5, (cell, to, distance)
    # Cells never overlap: every pair of centres is at least a pitch apart (less rounding).
    centers = board.centers
    closest = min(math.dist(a, b) for i, a in enumerate(centers) for b in centers[i + 1 :])
    assert closest >= board.pitch - 1.5


@pytest.mark.parametrize("size", [3, 12])
@pytest.mark.parametrize("shape", ["square", "hex"])
def test_boards_fit_the_card_with_their_coordinates_and_goal_flags(size: int, shape: str) -> None:
    state = walk(new(seed=size, size=size, board=shape), 7)
    lay = layout(size, shape == "hex", THEME)
    image = decode(render(state, players=NAMES))
    assert image.size == (THEME.width, lay.height) and lay.height > THEME.width
    board = lay.board
    assert board.left > THEME.font_coordinate and board.right < image.width - THEME.font_coordinate
    assert lay.caption_top + THEME.font_small < board.top < board.bottom < lay.legend_top

    def labelled(box: tuple[int, int, int, int]) -> bool:
        crop = image.crop(box)
        getter = getattr(crop, "get_flattened_data", None) or crop.getdata
        return any(near(p, THEME.coordinate, 40) for p in getter())

    label = THEME.font_coordinate + 16
    for i in range(size):
        x, _ = board.centers[i]
        assert labelled((x - 8, board.bottom, x + 8, board.bottom + label)), f"file {i} below"
        if shape == "hex":
            x, _ = board.centers[(size - 1) * size + i]
            assert labelled((x - 8, board.top - label, x + 8, board.top)), f"file {i} above"
        _, y = board.centers[i * size]
        assert labelled((board.left - label - 12, y - 8, board.left - 4, y + 8)), f"rank {i}"
    # White's flag beside rank N, Black's beside rank 1.
    for seat, rank in ((0, size - 1), (1, 0)):
        _, y = board.centers[rank * size]
        crop = image.crop((board.right + 4, y - 16, image.width, y + 16))
        getter = getattr(crop, "get_flattened_data", None) or crop.getdata
        assert any(near(p, THEME.seat_fill[seat], 20) for p in getter()), seat


@pytest.mark.parametrize("shape", ["square", "hex"])
def test_large_cards_are_deterministic_small_and_faithful_to_their_palette(shape: str) -> None:
    state = walk(new(seed=8, size=12, board=shape, mode="field"), 90)
    names = ["Ана", "Zoë 🎲"]
    first = render(state, players=names)
    assert first == render(state, players=names)
    assert len(first) < 100_000
    # The fixed palette holds every colour the card uses: mapping changes pixels only slightly.
    exact = render_image(state, players=names)
    mapped = decode(first)
    diffs = [abs(a - b) for a, b in zip(exact.tobytes(), mapped.tobytes(), strict=True)]
    assert sum(diffs) / len(diffs) < 2.5 and sorted(diffs)[int(len(diffs) * 0.999)] <= 24


def test_summer_is_drawn_through_the_registry_with_seat_names_by_default() -> None:
    start = GAMES["summer"].new(seed=4, board="hex")
    state = start.play(start.legal_moves()[0])
    assert render(state) == render(state, players=["White", "Black"])
    assert render(state) != render(state, players=NAMES)


def test_the_command_line_draws_summer(tmp_path: Path) -> None:
    out = tmp_path / "summer.png"
    argv = ["summer", "--seed", "5", "--option", "board=hex", "--option", "size=6", "c1-c2", "--out", str(out)]
    assert main(argv) == 0
    state = GAMES["summer"].new(seed=5, board="hex", size=6).play("c1-c2")
    assert out.read_bytes() == render(state)


@pytest.mark.subprocess
def test_importing_the_renderer_loads_nothing() -> None:
    code = (
        "import render, render.summer as s;"
        "print(*(f.cache_info().currsize for f in (s.static_card, s.terrain_card, s.piece_sprite, s.palette)))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "0", "0", "0"]


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("en", ("12 in play", "12 on goal", "all on goal", "none left", "score")),
        ("ru", ("12 в игре", "12 у цели", "все у цели", "не осталось", "очки")),
        ("fr", ("12 en jeu", "12 au but", "toutes au but", "plus aucune", "points")),
    ],
)
def test_the_header_says_what_each_counter_counts_and_fits_a_phone(locale: str, words: tuple[str, ...]) -> None:
    """Every number is named: "○ ×10 0 arrived goal 0" said numbers without saying what they count."""
    start = new(size=12)
    pieces, home, label = header_facts(start, 0, locale)
    assert (pieces, home) == (words[0], words[1].replace("12", "0"))
    assert label == words[4]
    # Every piece on its goal row (Black's start row), then none left.
    arrived = replace(start, board=tuple(3 if c >= 132 else 0 for c in range(144)))
    assert header_facts(arrived, 0, locale)[1] == words[2]
    assert header_facts(replace(start, board=tuple(-1 if v < 0 else 0 for v in start.board)), 0, locale)[1] == words[3]
    # The widest likely line (12 in play, all on goal, a two-digit score and gain) fits the 720 px header: in
    # English and Russian at full size, in French by the header shrinking line 2 (never below the small font).
    pill = pill_sprite("+14", THEME.font_small, THEME.mark, THEME.mark_edge, THEME.mark_edge, THEME).width

    def right_edge(size: int) -> float:
        x = THEME.padding + 38 + 54 + 14 + 4 + 26 + 4 + text_width(words[0], size) + 22
        return x + text_width(words[2], size) + 22 + text_width(f"{label} 99", size) + 10 + pill

    room = THEME.width - THEME.padding - 14
    assert right_edge(THEME.font_small) <= room
    assert locale == "fr" or right_edge(THEME.font_body) <= room, (locale, right_edge(THEME.font_body))


# -- one story about the hex rows, marks clear of the weights, weights to read, the player named --------------------


def words(path: str) -> str:
    return " ".join((ROOT / path).read_text(encoding="utf-8").split())


@pytest.mark.parametrize("size", [4, 8, 12])
def test_the_picture_shifts_the_hex_ranks_that_the_rules_and_the_notation_name(size: int) -> None:
    from bot.games.summer import RULES
    from i18n.catalog import pgettext

    board = layout(size, True, THEME).board
    for rank in range(size):
        shift = board.centers[rank * size][0] - board.centers[0][0]
        # Ranks 2, 4, 6… (rank index 1, 3, 5…) sit half a cell to the right; ranks 1, 3, 5… straight.
        assert shift == (board.pitch // 2 if rank % 2 else 0), rank + 1
    assert (
        "ranks 1, 3, 5 … (the bottom row and every second row after it) sit straight, ranks 2, 4, 6 … are shifted"
        in words("docs/summer.md")
    )
    assert "горизонтали 2, 4, 6 … сдвинуты на полклетки вправо" in words("docs/ru/summer.md")
    assert "les rangées 2, 4, 6 … décalées d'une demi-case vers la droite" in words("docs/fr/summer.md")
    assert "shifted half a cell to the right (rank 2, 4, 6 …)" in words("docs/notation.md")
    assert "(горизонтали 2, 4, 6 …)" in words("docs/ru/notation.md")
    assert "(rangées 2, 4, 6 …)" in words("docs/fr/notation.md")
    # What /summer rules shows, in each language.
    assert "ranks 2, 4, 6… shifted right" in RULES
    assert "2, 4, 6" in pgettext("ru", "rules:summer", RULES) and "2, 4, 6" in pgettext("fr", "rules:summer", RULES)
    assert "odd" not in RULES.lower()


def situations() -> list[SummerState]:
    """Return plies that put a badge and a ±1 pill on a piece, on the smallest, default and largest boards."""
    from render.gallery import BOARDS, find

    found = []
    for config, kind in [("square-8", "last-merged-minus"), ("square-8", "last-collided-plus"),
                         ("hex-8", "last-merged-minus"), ("hex-12", "last-merged"), ("hex-12", "last-collided"),
                         ("square-12", "last-collided"), ("square-3", "last-moved")]:  # fmt: skip
        board = next(b for b in BOARDS if b.config == config)
        found.append(find(board.new(), board.key, (kind,), board.games)[kind])
    return found  # type: ignore[return-value]


@pytest.mark.parametrize("state", situations(), ids=lambda s: f"{s.shape}-{s.size}-{s.last.action}")  # type: ignore[union-attr]
def test_badges_pills_and_chips_never_cover_a_pieces_weight(state: SummerState) -> None:
    from render.summer import weight_box

    marked = decode(render(state, players=NAMES))
    plain = decode(render(state, players=NAMES, last_move=False))
    board = layout(state.size, state.shape == "hex", THEME).board
    piece_px = _sizes(state.size, state.shape == "hex", THEME)[0]
    checked = 0
    for cell, value in enumerate(state.board):
        if not value:
            continue
        ink = THEME.seat_text[0 if value > 0 else 1]
        half_width, half_height = weight_box(abs(value), piece_px)
        x, y = board.centers[cell]
        box = (round(x - half_width), round(y - half_height), round(x + half_width) + 1, round(y + half_height) + 1)
        # Every pixel of the number, as the unmarked card draws it, is the same on the marked card.
        for image in (marked, plain):
            digits = [(px, py) for px in range(box[0], box[2]) for py in range(box[1], box[3])
                      if near(image.getpixel((px, py)), ink, 40)]  # fmt: skip
            assert len(digits) > 6, (state.cell_name(cell), value)
        for px, py in digits:
            assert near(marked.getpixel((px, py)), ink, 40) and near(plain.getpixel((px, py)), ink, 40)
        checked += 1
    assert checked >= 2


def test_the_weights_on_the_largest_hex_board_are_large_enough_to_read() -> None:
    piece_px = _sizes(12, True, THEME)[0]
    assert piece_px >= 38
    assert _weight_size("7", piece_px) >= 22 and _weight_size("12", piece_px) >= 20
    # The square 12x12 board, for comparison, is no better off.
    assert _weight_size("12", piece_px) >= _weight_size("12", _sizes(12, False, THEME)[0])


@pytest.mark.parametrize("locale", ["en", "ru", "fr"])
def test_the_caption_names_the_player_and_wraps_rather_than_cut(locale: str) -> None:
    from render.summer import caption_lines, caption_names

    state = play("b1-c2", "d4-d3", "c2-d3", "a4-a3", **FOUR)  # Black (Bo) collides, −1
    assert last_move_text(state, NAMES).startswith("Bo a4-a3")
    white = play("b1-c2", "c4-c3", "c2-c3", **FOUR)
    assert last_move_text(white, NAMES) == "Ana c2-c3: hit Bo's 1, 3 − 1 = 2, −1 → 1"
    assert "Black" not in last_move_text(white, NAMES, locale) and "Noir" not in last_move_text(white, NAMES, locale)
    long = ("Anastasia Featherstonehaugh", "Cyrus the Magnificent of Persia")
    caption = last_move_text(white, caption_names(long, THEME), locale)
    size, lines = caption_lines(caption, THEME)
    room = THEME.width - 2 * THEME.padding
    assert all(text_width(line, size) <= room for line in lines) and size >= 18
    assert " ".join(lines).split() == caption.split()
    assert lines[-1].endswith("1")  # the end of the arithmetic is there
    # The card draws it: with a two-line caption the board moves down and the card grows by one line.
    image = decode(render(white, players=long, locale=locale))
    short = decode(render(white, players=NAMES, locale=locale))
    assert image.height - short.height == (len(lines) - 1) * (size + 2)
