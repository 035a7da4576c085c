"""Azul's board card: tiles by colour and letter, the table, every player's board, the marks of the last ply, texts."""

from __future__ import annotations

import dataclasses
import io
import itertools
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from PIL import Image, ImageChops

from engines import azul
from engines.azul import CENTRE, FLOOR, WALL, AzulEvent, AzulMove, AzulState, Placement
from engines.base import Outcome
from i18n import azul as azul_texts
from render import render, render_image
from render.azul import (
    DISC_FILL,
    GHOST_OPACITY,
    GREY_SPACE,
    MARKER_FILL,
    SLOT_FILL,
    TILE_FILL,
    TILE_INK,
    Layout,
    Marks,
    azul_theme,
    board_marks,
    card_texts,
    factory_tile_boxes,
    last_text,
    layout,
    score_parts,
    status_text,
    tile_sprite,
)
from render.theme import DEFAULT_THEME
from tests import ROOT

THEME = azul_theme(DEFAULT_THEME)
NAMES = ("Ana", "Bo", "Cy", "Dee")
# Colours survive the palette mapping only approximately.
TOLERANCE = 14
EMPTY_WALL = ["....."] * 5
SOME_LAST = AzulEvent(0, AzulMove(1, azul.BLUE, FLOOR), 1, 0, 1).to_json()


# -- helpers --------------------------------------------------------------------------------------------------------


def decode(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG" and image.mode == "P"
        return image.convert("RGB")


def pixels(image: Image.Image) -> list[Any]:
    """Return an image's pixels in order (``getdata`` is deprecated from Pillow 13 on)."""
    getter = getattr(image, "get_flattened_data", None) or image.getdata
    return list(getter())


def card(state: AzulState, **kwargs: Any) -> Image.Image:
    return decode(render(state, players=NAMES[: state.players], **kwargs))


def near(actual: tuple[int, ...], expected: tuple[int, ...], tolerance: int = TOLERANCE) -> bool:
    return max(abs(a - e) for a, e in zip(actual, expected, strict=True)) <= tolerance


def blend(a: tuple[int, ...], b: tuple[int, ...], t: float) -> tuple[int, ...]:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))


def grey(rgb: tuple[int, ...]) -> float:
    return 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]


def contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    """Return the WCAG contrast ratio of two colours."""

    def luminance(rgb: tuple[int, ...]) -> float:
        channels = [v / 255 for v in rgb[:3]]
        r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def board(score: int = 0, lines: tuple[str, ...] = ("",) * 5, wall: list[str] | None = None, floor: str = "") -> dict:
    """Return one board in the saved format (pattern lines as letters, ``m`` the marker on the floor)."""
    return {"score": score, "lines": list(lines), "wall": wall or EMPTY_WALL, "floor": floor}


def position(
    players: int = 2,
    *,
    boards: list[dict] | None = None,
    factories: list[str] | None = None,
    centre: str = "",
    turn: int = 0,
    marker: int = -1,
    phase: str = "offer",
    left: tuple[int, ...] = (),
    wall: str = "colour",
) -> AzulState:
    """Build a mid-game position through ``from_json``; the bag holds every tile not placed elsewhere."""
    boards = boards or [board() for _ in range(players)]
    factories = (factories or []) + [""] * (azul.FACTORIES[players] - len(factories or []))
    text = "".join(factories) + centre + "".join("".join(b["wall"]) + "".join(b["lines"]) + b["floor"] for b in boards)
    return azul.from_json(
        {
            "game": "azul", "format": 1, "seed": 1, "players": players,
            "options": {"first_player": None, "wall": wall, "max_rounds": 100},
            "round": 2, "phase": phase, "turn": turn, "starter": turn, "rng": 12345,
            "bag": [20 - text.count(letter) for letter in azul.LETTERS], "lid": [0] * 5,
            "factories": factories, "centre": centre, "marker": marker, "boards": boards, "left": list(left),
            "result": None, "last": SOME_LAST,
        }
    )  # fmt: skip


def card_layout(state: AzulState, names: tuple[str, ...] = NAMES) -> Layout:
    """Return the layout of ``state``'s card: it grows by the lines a wrapped status or caption takes."""
    texts = card_texts(state, names[: state.players], THEME)
    extra = (texts.status_lines - 1) * (THEME.font_small + 2) + (len(texts.caption) - 1) * (texts.caption_size + 2)
    return layout(state.players, THEME, extra)


def panel_box(state: AzulState, player: int, box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """Return a box of a player's panel layout in card pixels."""
    lay = card_layout(state)
    dx, dy = lay.panel_left, lay.panel_tops[player]
    return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


def line_box(state: AzulState, player: int, line: int, space: int) -> tuple[int, int, int, int]:
    """Return the box of a pattern line's space, counted from the wall side."""
    return panel_box(state, player, layout(state.players, THEME).panel.lines[line - 1][space])


def wall_box(state: AzulState, player: int, row: int, column: int) -> tuple[int, int, int, int]:
    return panel_box(state, player, layout(state.players, THEME).panel.wall[row - 1][column - 1])


def floor_box(state: AzulState, player: int, space: int) -> tuple[int, int, int, int]:
    return panel_box(state, player, layout(state.players, THEME).panel.floor[space])


def fill_at(image: Image.Image, box: tuple[int, int, int, int]) -> tuple[int, int, int]:
    """Return a pixel of a tile's fill: inside its edge, clear of its letter."""
    return image.getpixel((box[0] + 6, box[1] + 6))


def ring_at(image: Image.Image, box: tuple[int, int, int, int]) -> tuple[int, int, int]:
    """Return the pixel just left of a box, where a last-ply ring around it is amber."""
    return image.getpixel((box[0] - 2, (box[1] + box[3]) // 2))


def bar_at(image: Image.Image, state: AzulState, player: int) -> tuple[int, int, int]:
    """Return the pixel where the turn bar of a player's panel is drawn."""
    lay = card_layout(state)
    return image.getpixel((lay.panel_left + 4, lay.panel_tops[player] + lay.panel.height // 2))


def random_states(players: int, count: int, seed: int, **options: Any) -> list[AzulState]:
    """Return positions spread over random games (finished ones included)."""
    rng = random.Random(seed)
    states: list[AzulState] = []
    game = 0
    while len(states) < count:
        state = azul.new(players=players, seed=game, **options)
        game += 1
        while state.legal_moves():
            state = state.play(rng.choice(state.legal_moves()))
            if rng.random() < 0.04:
                states.append(state)
        states.append(state)
    return states[:count]


# -- tiles ----------------------------------------------------------------------------------------------------------


def test_tile_colours_differ_in_greyscale_and_every_letter_reads_on_its_tile() -> None:
    greys = sorted(grey(fill) for fill in TILE_FILL)
    assert min(b - a for a, b in itertools.pairwise(greys)) >= 40
    assert all(contrast(fill, ink) >= 4.5 for fill, ink in zip(TILE_FILL, TILE_INK, strict=True))
    # The letters themselves are drawn: each tile sprite holds ink-coloured pixels, and the five differ.
    sprites = [tile_sprite(k, 36, THEME) for k in range(5)]
    for k, sprite in enumerate(sprites):
        ink = [p for p in pixels(sprite.convert("RGB")) if near(p, TILE_INK[k], 30)]
        assert len(ink) > 25, azul.COLOURS[k]
    assert len({sprite.tobytes() for sprite in sprites}) == 5


def test_the_start_shows_every_factory_tile_in_its_colour_and_the_marker_in_the_centre() -> None:
    state = azul.new(players=2, seed=16, first_player=0)
    image = card(state)
    lay = card_layout(state)
    for number, tiles in enumerate(state.factories, start=1):
        colours = [k for k in range(5) for _ in range(tiles[k])]
        for colour, box in zip(colours, factory_tile_boxes(lay, number), strict=True):
            assert near(fill_at(image, box), TILE_FILL[colour]), (number, colour)
    x0, y0, _, y1 = lay.centre_box
    # The marker sits first in the centre's tray, after the "c" label.
    row = [image.getpixel((x, (y0 + y1) // 2 + 12)) for x in range(x0, x0 + 160)]
    assert any(near(p, MARKER_FILL) for p in row)
    # Every pattern line and floor space is empty; every empty wall space shows its colour faintly.
    for line in range(1, 6):
        assert near(fill_at(image, line_box(state, 0, line, 0)), SLOT_FILL)
    for row_, column in ((1, 1), (3, 4), (5, 2)):
        colour = azul.WALL_COLOUR[row_ - 1][column - 1]
        faint = fill_at(image, wall_box(state, 1, row_, column))
        assert near(faint, blend(THEME.panel, TILE_FILL[colour], 0.2), 8)
        assert not near(faint, TILE_FILL[colour], 60)


def test_boards_show_lines_wall_floor_and_the_grey_wall_numbers() -> None:
    boards = [
        board(12, ("r", "", "kk", "", "wwwww"), ["b....", ".....", "..b..", ".....", "....b"], "mry"),
        board(3, ("", "yy", "", "", ""), EMPTY_WALL, ""),
    ]
    state = position(boards=boards, factories=["bbyy"], centre="k", marker=0)
    image = card(state)
    assert near(fill_at(image, line_box(state, 0, 1, 0)), TILE_FILL[azul.RED])
    assert near(fill_at(image, line_box(state, 0, 3, 1)), TILE_FILL[azul.BLACK])
    assert near(fill_at(image, line_box(state, 0, 3, 2)), SLOT_FILL)  # line 3 holds two of three
    assert all(near(fill_at(image, line_box(state, 0, 5, i)), TILE_FILL[azul.WHITE]) for i in range(5))
    for row in (1, 3, 5):
        assert near(fill_at(image, wall_box(state, 0, row, row)), TILE_FILL[azul.BLUE])
    x0, y0, x1, _ = floor_box(state, 0, 0)
    assert near(image.getpixel(((x0 + x1) // 2, y0 + 3)), MARKER_FILL)  # the round marker, first on the floor
    assert near(fill_at(image, floor_box(state, 0, 1)), TILE_FILL[azul.RED], 20)
    assert near(fill_at(image, floor_box(state, 0, 3)), SLOT_FILL)
    # Grey wall: empty spaces are grey, whatever colour the coloured wall would print there.
    grey_state = position(boards=[board(), board()], factories=["bbyy"], wall="grey")
    image = card(grey_state)
    assert near(fill_at(image, wall_box(grey_state, 0, 1, 1)), blend(THEME.panel_active, GREY_SPACE, 0.8), 8)
    assert near(fill_at(image, wall_box(grey_state, 1, 2, 3)), blend(THEME.panel, GREY_SPACE, 0.8), 8)


def test_the_player_to_move_has_the_bar_and_a_player_who_left_a_dark_panel() -> None:
    state = azul.new(players=4, seed=2)
    image = card(state)
    for player in range(4):
        assert near(bar_at(image, state, player), THEME.mark) == (player == state.turn)
    gone = state.turn
    after = state.forfeit(gone, "forfeit")
    image = card(after)
    assert near(bar_at(image, after, after.turn), THEME.mark) and after.turn != gone
    lay = card_layout(after)
    assert near(image.getpixel((lay.panel_left + 30, lay.panel_tops[gone] + 8)), THEME.background, 4)
    assert near(image.getpixel((lay.panel_left + 30, lay.panel_tops[after.turn] + 8)), THEME.panel_active, 4)


# -- the last ply ---------------------------------------------------------------------------------------------------


def test_a_factory_take_rings_the_factory_ghosts_the_tiles_and_rings_their_new_spaces() -> None:
    state = azul.new(players=2, seed=16, first_player=0)  # f1 holds b y y r
    after = state.play("f1 y 2")
    image = card(after)
    lay = card_layout(after)
    cx, cy = lay.factories[0]
    ring = [image.getpixel((cx, cy - lay.disc // 2 - 5 + dy)) for dy in range(-3, 4)]
    assert any(near(p, THEME.mark) for p in ring)
    boxes = factory_tile_boxes(lay, 1)
    ghost = blend(DISC_FILL, TILE_FILL[azul.YELLOW], GHOST_OPACITY)
    assert near(fill_at(image, boxes[0]), ghost, 20) and near(fill_at(image, boxes[1]), ghost, 20)
    assert near(fill_at(image, boxes[2]), DISC_FILL)  # the rest went to the centre: nothing there
    assert near(fill_at(image, line_box(after, 0, 2, 0)), TILE_FILL[azul.YELLOW])
    assert near(ring_at(image, line_box(after, 0, 2, 1)), THEME.mark)
    # Another factory, and the other player's lines, carry no ring.
    cx, cy = lay.factories[1]
    assert not any(near(image.getpixel((cx, cy - lay.disc // 2 - 5 + dy)), THEME.mark, 30) for dy in range(-3, 4))
    assert not near(ring_at(image, line_box(after, 1, 2, 1)), THEME.mark, 30)
    # Without the last move, nothing is marked.
    plain = card(after, last_move=False)
    assert not near(ring_at(plain, line_box(after, 0, 2, 1)), THEME.mark, 30)
    assert near(fill_at(plain, boxes[0]), DISC_FILL)


def test_a_centre_take_with_the_marker_rings_the_floor_spaces_it_reached() -> None:
    state = azul.new(players=2, seed=16, first_player=0).play("f1 y 1")  # 1 yellow falls to the floor
    image = card(state)
    assert near(ring_at(image, floor_box(state, 0, 0)), THEME.mark)
    after = state.play("c b 1")  # the centre's blue, with the marker, onto the second player's line 1
    image = card(after)
    assert near(ring_at(image, line_box(after, 1, 1, 0)), THEME.mark)
    assert near(ring_at(image, floor_box(after, 1, 0)), THEME.mark)  # the marker's space
    x0, y0, x1, _ = floor_box(after, 1, 0)
    assert near(image.getpixel(((x0 + x1) // 2, y0 + 3)), MARKER_FILL)
    # The first player's floor keeps its tile, unmarked now.
    assert not near(ring_at(image, floor_box(after, 0, 0)), THEME.mark, 30)


def test_marks_for_every_kind_of_take() -> None:
    boards = [board(0, ("", "r", "", "", ""), EMPTY_WALL, "kkkkk"), board()]
    state = position(boards=boards, factories=["rrrk", "bbyy"], centre="w")
    # Overflow: 3 red into line 2 (holding 1): 1 fits, 2 to the floor (the 6th and 7th spaces), none to the lid.
    after = state.play("f1 r 2")
    marks = board_marks(after, 0, after.last)  # type: ignore[arg-type]
    assert marks.line == 2 and marks.line_spaces == (1,) and marks.floor_spaces == (5, 6)
    assert last_text(after, NAMES) == "Ana took 3 red from f1 → line 2 (2 to floor)."
    # Onto a full floor: the lid takes the rest.
    lid = position(boards=[board(0, floor="kkkkkkk"), board()], factories=["rrrk"], centre="w").play("f1 r floor")
    marks = board_marks(lid, 0, lid.last)  # type: ignore[arg-type]
    assert marks.floor_spaces == () and lid.last.to_lid == 3  # type: ignore[union-attr]
    assert last_text(lid, NAMES) == "Ana took 3 red from f1 → floor (3 to lid)."
    # The marker taken onto a full floor is held: it shows by the name, ringed.
    held = position(boards=[board(0, floor="kkkkkkk"), board()], factories=["rrrk"], centre="w").play("c w 1")
    marks = board_marks(held, 0, held.last)  # type: ignore[arg-type]
    assert marks.marker_held and marks.line_spaces == (0,) and marks.floor_spaces == ()
    assert last_text(held, NAMES) == "Ana took 1 white from c → line 1 (+ marker)."
    # Nothing of the mover's shows on the other board.
    assert board_marks(after, 1, after.last) == Marks()  # type: ignore[arg-type]


def test_the_end_of_a_round_rings_wall_tiles_and_shows_gains_and_floor_penalties() -> None:
    boards = [board(5, ("b", "ww", "", "", ""), EMPTY_WALL, "k"), board(0, ("", "", "", "", ""), EMPTY_WALL, "")]
    state = position(boards=boards, centre="y", marker=-1)
    after = state.play("c y 3")  # the last tiles: the round ends and lines 1 and 2 go to the wall
    event = after.last
    assert event is not None and event.round_ended == 2
    marks = board_marks(after, 0, event)
    assert [(p.row, p.column) for p in marks.placed] == [(1, 1), (2, 1)]
    assert marks.gain == 3 and marks.penalty == 2  # 1 + 2 (worked example 4); floor: k and the marker
    assert marks.line_spaces == (0,) and marks.line == 3 and marks.floor_spaces == ()
    image = card(after)
    assert near(fill_at(image, wall_box(after, 0, 1, 1)), TILE_FILL[azul.BLUE])
    assert near(ring_at(image, wall_box(after, 0, 1, 1)), THEME.mark)
    assert near(ring_at(image, wall_box(after, 0, 2, 1)), THEME.mark)
    assert not near(ring_at(image, wall_box(after, 0, 3, 1)), THEME.mark, 30)
    # The penalty pill covers the emptied floor's middle space.
    plain = card(after, last_move=False)
    assert image.crop(floor_box(after, 0, 3)).tobytes() != plain.crop(floor_box(after, 0, 3)).tobytes()
    assert last_text(after, NAMES) == "Ana took 1 yellow from c → line 3 (+ marker) · round 2 scored."


def test_the_grey_wall_outlines_the_line_to_tile_and_its_legal_columns() -> None:
    boards = [board(0, ("", "", "kkk", "", ""), ["b....", ".....", ".....", ".....", "..r.."]), board()]
    state = position(boards=boards, centre="y", wall="grey")
    after = state.play("c y floor")  # the table is empty: line 3's black needs a column
    assert after.phase == azul.TILING and after.pending_line() == 3
    image = card(after)
    columns = after.wall_columns(0, 3)
    assert columns == (1, 2, 3, 4, 5)
    for column in columns:
        box = wall_box(after, 0, 3, column)
        assert near(image.getpixel((box[0] - 2, (box[1] + box[3]) // 2)), THEME.mark), column
    line = line_box(after, 0, 3, 2)
    assert near(image.getpixel((line[0] - 2, (line[1] + line[3]) // 2)), THEME.mark)
    assert status_text(after, NAMES) == "Round 2 · Ana: choose the wall column for line 3"
    placed = after.play("wall 3 c3")
    image = card(placed)
    assert near(fill_at(image, wall_box(placed, 0, 3, 3)), TILE_FILL[azul.BLACK])
    assert near(ring_at(image, wall_box(placed, 0, 3, 3)), THEME.mark)
    assert board_marks(placed, 0, placed.last).line_spaces == (0, 1, 2)  # type: ignore[arg-type]
    assert last_text(placed, NAMES).startswith("Ana tiled line 3 in column 3 (+")


def test_a_grey_line_with_no_space_is_crossed_out() -> None:
    state = position(factories=["bbyy"], wall="grey")
    event = AzulEvent(1, AzulMove(WALL, azul.RED, 1, 5), discards=(azul.Discard(0, 2, azul.RED, 2),))
    shown = dataclasses.replace(state, last=event)
    assert board_marks(shown, 0, event).discarded == (2,)
    assert "Ana's line 2 red → floor" in last_text(shown, NAMES)
    image = card(shown)
    x0, y0, x1, y1 = line_box(shown, 0, 2, 0)
    assert near(image.getpixel(((x0 + x1) // 2, (y0 + y1) // 2)), THEME.mark)
    assert not near(card(shown, last_move=False).getpixel(((x0 + x1) // 2, (y0 + y1) // 2)), THEME.mark, 30)


# -- texts ----------------------------------------------------------------------------------------------------------


def test_status_and_last_lines() -> None:
    state = azul.new(players=3, seed=4, first_player=1)
    assert status_text(state, NAMES) == "Round 1 · Bo to move"
    assert last_text(state, NAMES).startswith("A new game")
    left = state.forfeit(2, "forfeit")
    assert last_text(left, NAMES) == "Cy left the game; the others play on."
    over = left.forfeit(0, "forfeit")
    assert status_text(over, NAMES) == "Bo wins with 0 · the last player left"
    assert last_text(over, NAMES) == "Ana left the game."


def ended(reason: azul.Termination, winners: tuple[int, ...], scores: tuple[int, ...]) -> AzulState:
    state = azul.new(players=2, seed=1)
    result = Outcome(winners, scores, reason, tuple(1 if p in winners else 2 for p in range(2)))
    boards = tuple(b._replace(score=s) for b, s in zip(state.boards, scores, strict=True))
    # Made up: the last round cost Ana 1 on the floor and each player has one complete row (+2).
    before = (scores[0] - 2 + 1, scores[1] - 2)
    event = AzulEvent(
        0,
        AzulMove(CENTRE, 0, FLOOR),
        1,
        0,
        1,
        round_ended=5,
        penalties=(1, 0),
        bonuses=((1, 0, 0),) * 2,
        before=before,
        after=scores,
        clipped=(False, False),
    )
    return dataclasses.replace(state, phase=azul.OVER, result=result, boards=boards, last=event)


@pytest.mark.parametrize(
    "state, expected",
    [
        (ended(azul.Termination.WALL_ROW, (0,), (40, 31)),
         "Ana wins with 40 · a wall row is complete"),
        (ended(azul.Termination.WALL_ROW, (0, 1), (40, 40)),
         "Ana and Bo share the win with 40 · a wall row is complete"),
        (ended(azul.Termination.ROUND_LIMIT, (1,), (3, 9)),
         "Bo wins with 9 · round limit 100 (safety rule)"),
        (ended(azul.Termination.NO_TILES, (1,), (3, 9)),
         "Bo wins with 9 · no tiles left (safety rule)"),
    ],
)  # fmt: skip
def test_the_result_line_names_the_winner_and_why(state: AzulState, expected: str) -> None:
    assert status_text(state, NAMES) == expected
    image = card(state)  # the tags and bonuses draw without trouble
    assert image.width == 720


def test_a_finished_game_tags_no_one_to_move_and_shows_bonuses() -> None:
    state = ended(azul.Termination.WALL_ROW, (0,), (40, 31))
    image = card(state)
    assert not near(bar_at(image, state, 0), THEME.mark, 30) and not near(bar_at(image, state, 1), THEME.mark, 30)
    assert board_marks(state, 0, state.last).bonus == 2  # type: ignore[arg-type]


def test_undrawable_names_fall_back_to_the_seat_and_long_names_are_cut() -> None:
    state = azul.new(players=2, seed=3)
    assert render(state, players=["\ue000\ue001", "Player 2"]) == render(state)
    long = "Bartholomew the Magnificent of the Northern Reaches"
    assert render(state, players=[long, "Bo"]) != render(state, players=["Bartholomew", "Bo"])
    text = status_text(state, ["Ana", "Bo"])
    assert text.endswith("to move")


# -- the card as a whole --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players, height", [(2, 810), (3, 1172), (4, 1402)])
def test_cards_are_deterministic_small_and_one_size_per_player_count(players: int, height: int) -> None:
    states = random_states(players, 6, seed=players) + random_states(players, 3, seed=9, wall="grey")
    sizes = set()
    for state in states:
        png = render(state, players=NAMES[:players])
        assert png == render(state, players=NAMES[:players])
        assert len(png) < 150 * 1024
        # A caption too long for one line wraps, and the card grows by the lines it needs.
        texts = card_texts(state, NAMES[:players], THEME)
        sizes.add((decode(png).size, (len(texts.caption) - 1) * (texts.caption_size + 2)))
    assert {size for size, _ in sizes} == {(720, height + extra) for _, extra in sizes}
    assert ((720, height), 0) in sizes


def test_the_fixed_palette_keeps_the_colours() -> None:
    for state in random_states(4, 3, seed=11) + random_states(2, 2, seed=12, wall="grey"):
        drawn = render_image(state, players=NAMES[: state.players])
        shown = decode(render(state, players=NAMES[: state.players]))
        # Each pixel's largest channel error, counted in a histogram.
        red, green, blue = ImageChops.difference(drawn, shown).split()
        histogram = ImageChops.lighter(ImageChops.lighter(red, green), blue).histogram()
        total = drawn.width * drawn.height
        assert sum(histogram[13:]) <= total // 100 and sum(histogram[4:]) <= total // 2


def test_rendering_from_threads_gives_the_same_bytes() -> None:
    states = random_states(4, 4, seed=5)
    theme = dataclasses.replace(DEFAULT_THEME, name="azul-threads")  # fresh caches, so threads race to fill them
    serial = [render(state, players=NAMES, theme=theme) for state in states]
    theme2 = dataclasses.replace(DEFAULT_THEME, name="azul-threads-2")
    with ThreadPoolExecutor(max_workers=4) as pool:
        threaded = list(pool.map(lambda s: render(s, players=NAMES, theme=theme2), states * 2))
    assert threaded == serial * 2


def test_a_wider_theme_scales_the_boards() -> None:
    state = azul.new(players=2, seed=1)
    wide = decode(render(state, theme=DEFAULT_THEME.with_width(900)))
    assert wide.width == 900 and wide.height > 810


@pytest.mark.subprocess
def test_assets_are_loaded_lazily() -> None:
    code = (
        "import render, render.azul as a;"
        "print(a.static_card.cache_info().currsize, a.tile_sprite.cache_info().currsize,"
        " a.panel_base.cache_info().currsize, a.palette.cache_info().currsize)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "0", "0", "0"]


def test_events_of_other_players_are_not_marked_on_a_board() -> None:
    event = AzulEvent(1, AzulMove(WALL, azul.RED, 2, 3), placements=(Placement(1, 2, 3, azul.RED, 1),))
    state = dataclasses.replace(azul.new(players=2, seed=1, wall="grey"), last=event)
    assert board_marks(state, 0, event) == Marks()
    assert board_marks(state, 1, event).placed == event.placements


# -- what a phone player must not miss -----------------------------------------------------------------------------


def round_ends(players: int, count: int, seed: int, **options: Any) -> list[AzulState]:
    """Return positions just after a round's end, from random games."""
    rng = random.Random(seed)
    found: list[AzulState] = []
    game = 0
    while len(found) < count:
        state = azul.new(players=players, seed=game, **options)
        game += 1
        while state.legal_moves() and len(found) < count:
            state = state.play(rng.choice(state.legal_moves()))
            if state.last is not None and state.last.round_ended:
                found.append(state)
    return found


LONG_NAMES = ("Cyrus the Magnificent of Persia", "Анастасия Преображенская", "Bartholomew Higginbottom", "Dee")


@pytest.mark.parametrize("locale", ["en", "ru", "fr"])
def test_a_long_caption_wraps_and_keeps_the_rounds_scoring(locale: str) -> None:
    from render.gallery import BOARDS, find
    from render.text import ellipsize, text_width

    board = next(b for b in BOARDS if b.config == "4p-colour")
    state = find(board.new(), board.key, ("round-end-floor",))["round-end-floor"]
    texts = card_texts(state, LONG_NAMES, THEME, locale)
    room = THEME.width - 2 * THEME.padding
    assert all(text_width(line, texts.caption_size) <= room for line in texts.caption)
    # Nothing is cut but the names: every word of the caption is on the card, the round's scoring at the end.
    cut = [ellipsize(name, THEME.font_small, 150) for name in LONG_NAMES]
    whole = last_text(state, cut, locale)
    assert " ".join(texts.caption).replace(" · ", " ").split() == whole.replace(" · ", " ").split()
    assert state.last is not None
    scored = {"en": "round {n} scored", "ru": "раунд {n} подсчитан", "fr": "manche {n} décomptée"}[locale]
    assert scored.format(n=state.last.round_ended) in texts.caption[-1]
    image = decode(render(state, players=LONG_NAMES, locale=locale))
    extra = (len(texts.caption) - 1) * (texts.caption_size + 2)
    assert image.size == (720, layout(4, THEME, extra).height)


def test_the_score_line_adds_up_to_the_new_score() -> None:
    checked = clipped = 0
    states = round_ends(2, 12, 1) + round_ends(4, 12, 2) + round_ends(3, 6, 3, wall="grey")
    for state in states:
        for player in range(state.players):
            change = azul_texts.score_change(state, player)
            if change is None:
                continue
            parts = score_parts(change, change.after)
            numbers = [int(text.replace("\u2212", "-")) for text, kind in parts if kind != "sign"]
            if change.clipped:
                clipped += 1
                # The floor took more than the player had: the sum says "→ 0", never "=".
                assert parts[-1] == ("\u2192", "sign") and change.after == change.bonus
                assert change.before is not None and change.before + change.gain < change.penalty
            else:
                checked += 1
                assert parts[-1] == ("=", "sign") and sum(numbers) == change.after == state.boards[player].score
                assert change.before is not None and change.before >= 0
    assert checked >= 10 and clipped >= 3


def test_a_clipped_floor_shows_the_arrow_and_the_caption_says_why() -> None:
    boards = [board(0, ("b", "", "", "", ""), EMPTY_WALL, "kkkkkk"), board(5, ("", "", "", "", ""), EMPTY_WALL, "")]
    state = position(boards=boards, centre="y", marker=-1).play("c y floor")
    change = azul_texts.score_change(state, 0)
    # Ana had 0: + 1 for the blue of line 1, − 14 for the full floor, and the score stops at 0.
    assert change == azul.ScoreStep(before=0, gain=1, penalty=14, bonus=0, after=0, clipped=True)
    assert score_parts(change, 0) == [("0", "was"), ("+1", "gain"), ("\u221214", "loss"), ("\u2192", "sign")]
    assert last_text(state, NAMES).endswith("round 2 scored (scores stop at 0).")
    assert last_text(state, NAMES, "ru").endswith("(счёт не ниже 0).")
    assert last_text(state, NAMES, "fr").endswith("(score minimum 0).")
    # Bo lost nothing: his line is the score alone; Ana's shows the gain in amber left of the score.
    assert azul_texts.score_change(state, 1) is None
    image, plain = card(state), card(state, last_move=False)
    lay = card_layout(state)
    x0 = lay.panel_left + lay.panel.column_left
    band = (x0, lay.panel_tops[0] + lay.panel.score_mid - 12, x0 + 120, lay.panel_tops[0] + lay.panel.score_mid + 12)
    assert any(near(p, THEME.mark, 40) for p in pixels(image.crop(band)))
    assert not any(near(p, THEME.mark, 40) for p in pixels(plain.crop(band)))


def test_a_full_floor_charged_in_full_reads_as_a_plain_sum() -> None:
    boards = [board(20, ("b", "", "", "", ""), EMPTY_WALL, "kk"), board()]
    state = position(boards=boards, centre="y", marker=-1).play("c y floor")
    change = azul_texts.score_change(state, 0)
    # 20, + 1 for the blue of line 1, − the floor's k, k, the yellow and the marker (−1 −1 −2 −2).
    assert change is not None and not change.clipped
    assert (change.before, change.gain, change.penalty, change.after) == (20, 1, 6, 15)
    assert score_parts(change, change.after) == [
        ("20", "was"),
        ("+1", "gain"),
        (f"\u2212{change.penalty}", "loss"),
        ("=", "sign"),
    ]
