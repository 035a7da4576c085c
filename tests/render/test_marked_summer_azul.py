"""A review's boards for Summer and Azul: the position before a move, the move played and the better one marked.

Through :func:`render.render_marked`: the played move in the usual mark colour (amber), the better one in
blue, each only where the move is (what the move would set off — points, round-end tiling — is not drawn), both
seen where they share a cell, a factory or a line; a card without marks stays as it was; the legend says what
each colour drawn means, for a review, a hint and a preview (:mod:`tests.render.legend_checks`).
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PIL import Image, ImageChops

from engines import GAMES
from engines.azul import CENTRE, FLOOR, WALL, AzulEvent, AzulState
from engines.summer import SummerEvent, SummerState
from render import azul as azul_render
from render import better_theme, render, render_marked, renderer_for
from render import summer as summer_render
from render.azul.layout import KEY_LINE as AZUL_KEY_LINE
from render.summer import static as summer_static
from render.theme import DEFAULT_THEME as THEME
from tests.render.legend_checks import board_words, check_fits, check_legend

Box = tuple[int, int, int, int]
AMBER, BLUE = THEME.mark, THEME.better_mark
TOLERANCE = 24  # the picture's adaptive palette moves colours a little


def decode(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG"
        return image.convert("RGB")


def count_near(image: Image.Image, colour: tuple[int, int, int], box: Box) -> int:
    """Count the pixels of ``image`` inside ``box`` within TOLERANCE of ``colour`` in every channel."""
    region = image.crop(box)
    bands = [
        band.point(lambda v, c=c: 255 if abs(v - c) <= TOLERANCE else 0)
        for band, c in zip(region.split(), colour, strict=True)
    ]
    both = ImageChops.multiply(ImageChops.multiply(bands[0], bands[1]), bands[2])
    return sum(both.histogram()[255:])


def gained(image: Image.Image, plain: Image.Image, colour: tuple[int, int, int], box: Box) -> int:
    """Return how many more pixels near ``colour`` ``image`` has in ``box`` than ``plain`` (the card without marks)."""
    return count_near(image, colour, box) - count_near(plain, colour, box)


def inside(box: Box, regions: list[Box]) -> bool:
    """Tell whether every pixel of ``box`` lies in the union of ``regions`` (checked pixel row by row)."""
    x0, y0, x1, y1 = box
    for y in range(y0, y1):
        spans = sorted((r[0], r[2]) for r in regions if r[1] <= y < r[3])
        x = x0
        for left, right in spans:
            if left > x:
                break
            x = max(x, right)
        if x < x1:
            return False
    return True


def changed(a: Image.Image, b: Image.Image) -> list[Box]:
    """Return the boxes of the pixel rows where ``a`` and ``b`` differ, one box per run of changed pixels in a row."""
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v else 0)
    boxes = []
    width = diff.width
    data = diff.tobytes()
    for y in range(diff.height):
        row = data[y * width : (y + 1) * width]
        x = row.find(b"\xff")
        while x >= 0:
            end = row.find(b"\x00", x)
            end = width if end < 0 else end
            boxes.append((x, y, end, y + 1))
            x = row.find(b"\xff", end)
    return boxes


def random_positions(game: str, seed: int, options: dict[str, Any], plies: int = 400) -> Iterator[Any]:
    """Yield the positions of one random game, from the start."""
    state = GAMES[game].new(seed=seed, **options)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.outcome() is not None:
            return
        yield state
        state = state.play(rng.choice(state.legal_moves()))


def find_pair(
    game: str, options: dict[str, Any], wanted: Callable[[Any, Any, Any], bool], skip: int = 0
) -> tuple[Any, Any, Any]:
    """Return a position from random play and two of its moves whose events satisfy ``wanted(state, a, b)``."""
    for seed in range(30):
        for ply, state in enumerate(random_positions(game, seed, options)):
            if ply < skip:
                continue
            moves = state.legal_moves()
            events = {move: state.play(move).last_event for move in moves}
            for a in moves:
                for b in moves:
                    if a != b and wanted(state, events[a], events[b]):
                        return state, a, b
    raise AssertionError("no such position in 30 random games")


def check_marked(before: Any, played: Any, better: Any, regions: list[Box], locale: str) -> None:
    """Check render_marked's picture of ``before``: it decodes, and amber / blue are drawn in ``regions`` only."""
    plain = decode(render_marked(before, locale=locale, players=None))
    png = render_marked(before, played=played, better=better, locale=locale)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    image = decode(png)
    assert image.size == plain.size
    assert png == render_marked(before, played=played, better=better, locale=locale)  # pure
    for move, colour in ((played, AMBER), (better, BLUE)):
        more = sum(gained(image, plain, colour, box) for box in regions)
        assert more >= 150 if move is not None else more <= 5, (colour, more)
    # Exactly: the picture changes only where the moves are.
    marks = tuple(
        (before.play(before.parse_move(m) if isinstance(m, str) else m).last_event, t)
        for m, t in ((played, THEME), (better, better_theme(THEME)))
        if m is not None
    )
    names = tuple(f"Player {i + 1}" for i in range(before.players))
    renderer = renderer_for(before.game)
    with_marks = renderer(before, players=names, last_move=False, theme=THEME, locale=locale, marks=marks).image
    without = renderer(before, players=names, last_move=False, theme=THEME, locale=locale).image
    diff = changed(with_marks, without)
    assert diff
    assert all(inside(box, regions) for box in diff)


WHICH = [("played", True, False), ("better", False, True), ("both", True, True)]


# -- Summer ----------------------------------------------------------------------------------------------------------


def summer_region(state: SummerState, event: SummerEvent) -> Box:
    """Return the box around a move's two cells (and the badge beside the target), a cell's width out."""
    board = summer_render.layout(state.size, state.shape == "hex", THEME).board
    frm, to = event.move
    (x0, y0), (x1, y1) = board.centers[frm], board.centers[to]
    pad = board.pitch
    return (min(x0, x1) - pad, min(y0, y1) - pad, max(x0, x1) + pad, max(y0, y1) + pad)


SUMMER_BOARDS = [
    ("square", {}),
    ("hex", {"board": "hex"}),
    ("field", {"mode": "field"}),
    ("hex-12", {"size": 12, "board": "hex"}),
    ("square-5", {"size": 5}),
]


def _summer_any(state: SummerState, a: SummerEvent, b: SummerEvent) -> bool:
    return a.move[0] != b.move[0] and a.move[1] != b.move[1]


@pytest.mark.parametrize(("board", "options"), SUMMER_BOARDS, ids=[b for b, _ in SUMMER_BOARDS])
@pytest.mark.parametrize(("which", "with_played", "with_better"), WHICH, ids=[w for w, _, _ in WHICH])
def test_summer_marks_the_played_move_amber_and_the_better_one_blue(
    board: str, options: dict[str, Any], which: str, with_played: bool, with_better: bool
) -> None:
    locale = {"square": "en", "hex": "ru", "field": "fr"}.get(board, "en")
    state, a, b = find_pair("summer", options, _summer_any, skip=12)
    played, better = (a if with_played else None), (b if with_better else None)
    regions = [summer_region(state, state.play(m).last_event) for m in (played, better) if m is not None]
    check_marked(state, played, better, regions, locale)


@pytest.mark.parametrize("locale", ["en", "ru", "fr"])
@pytest.mark.parametrize("shape", ["square", "hex"])
def test_summer_moves_from_one_cell_both_show(locale: str, shape: str) -> None:
    """Two moves of the same piece: the later one rings the piece inside the earlier one's outline."""

    def same_from(state: SummerState, a: SummerEvent, b: SummerEvent) -> bool:
        return a.move[0] == b.move[0] and a.resident != 0

    state, a, b = find_pair("summer", {"board": shape}, same_from, skip=6)
    regions = [summer_region(state, state.play(m).last_event) for m in (a, b)]
    check_marked(state, a, b, regions, locale)
    # The shared cell holds both colours.
    image = decode(render_marked(state, played=a, better=b, locale=locale))
    plain = decode(render_marked(state, locale=locale))
    board = summer_render.layout(state.size, shape == "hex", THEME).board
    x, y = board.centers[a.frm]
    cell = (x - board.pitch // 2, y - board.pitch // 2, x + board.pitch // 2, y + board.pitch // 2)
    assert gained(image, plain, AMBER, cell) > 30
    # The later move rings the piece: blue on its rim on the side away from both arrows.
    piece_px = summer_render._sizes(state.size, shape == "hex", THEME)[0]
    radius = piece_px // 2
    away = [(bx - x, by - y) for bx, by in (board.centers[a.to], board.centers[b.to])]
    sx, sy = min(((1, 0), (-1, 0), (0, 1), (0, -1)), key=lambda d: max(d[0] * u + d[1] * v for u, v in away))
    rx, ry = x + sx * radius, y + sy * radius
    rim = (rx - 5, ry - 5, rx + 5, ry + 5)
    assert gained(image, plain, BLUE, rim) > 10


def test_summer_moves_onto_one_piece_get_a_badge_each() -> None:
    """Two moves onto the same piece: each would meet it, so each has a badge, in its own colour."""

    def same_to(state: SummerState, a: SummerEvent, b: SummerEvent) -> bool:
        return a.move[1] == b.move[1] and a.resident != 0 and a.move[0] != b.move[0]

    state, a, b = find_pair("summer", {}, same_to)
    proposals = summer_render.proposals_of([(state.play(m).last_event, t) for m, t in ((a, THEME), (b, THEME))])
    assert [p.badge is not None for p in proposals] == [True, True]
    assert [p.shared_to for p in proposals] == [False, True]
    regions = [summer_region(state, state.play(m).last_event) for m in (a, b)]
    check_marked(state, a, b, regions, "en")


def test_summer_marks_leave_the_header_and_the_caption_alone() -> None:
    """The card of the position before the move: no caption, no goal-row change, the mover's turn."""
    state, a, b = find_pair("summer", {}, _summer_any, skip=20)
    names = ("Player 1", "Player 2")
    marks = ((state.play(a).last_event, THEME), (state.play(b).last_event, better_theme(THEME)))
    picture = summer_render.render_summer(state, players=names, last_move=False, marks=marks)
    plain = summer_render.render_summer(state, players=names, last_move=False)
    board = summer_render.layout(state.size, False, THEME).board
    top = board.top - board.frame
    assert (
        picture.image.crop((0, 0, THEME.width, top)).tobytes() == plain.image.crop((0, 0, THEME.width, top)).tobytes()
    )


# -- Azul ------------------------------------------------------------------------------------------------------------


def azul_layout(state: AzulState, locale: str) -> azul_render.Layout:
    """Return the card's layout as _compose lays it out (the texts may wrap to more lines)."""
    names = tuple(f"Player {i + 1}" for i in range(state.players))
    theme = azul_render.azul_theme(THEME)
    texts = azul_render.card_texts(state, names, theme, locale)
    extra = (texts.status_lines - 1) * (theme.font_small + 2) + (len(texts.caption) - 1) * (texts.caption_size + 2)
    return azul_render.layout(state.players, theme, extra)


def azul_regions(state: AzulState, event: AzulEvent, locale: str) -> list[Box]:
    """Return where a move may be marked: its source, and the mover's pattern lines and floor (or wall row)."""
    lay = azul_layout(state, locale)
    move = event.move
    assert move is not None
    panel, dx, dy = lay.panel, lay.panel_left, lay.panel_tops[event.player]
    out = 24  # rings around a source, a later one further out
    regions: list[Box] = []
    if move.source > 0:
        cx, cy = lay.factories[move.source - 1]
        half = lay.disc // 2 + out
        regions.append((cx - half, cy - half, cx + half, cy + half))
    elif move.source == CENTRE:
        x0, y0, x1, y1 = lay.centre_box
        regions.append((x0, y0 - 12, x1, y1 + 12))
    lines = panel.lines
    left, top = lines[4][-1][0], lines[0][0][1]
    regions.append((dx + left - 10, dy + top - 10, dx + lines[0][0][2] + 10, dy + lines[4][0][3] + 10))
    if move.source == WALL:
        wall = panel.wall[move.line - 1][move.column - 1]
        regions.append((dx + wall[0] - 10, dy + wall[1] - 10, dx + wall[2] + 10, dy + wall[3] + 10))
    floor = panel.floor
    regions.append((dx + floor[0][0] - 10, dy + floor[0][1] - 10, dx + floor[-1][2] + 10, dy + floor[0][3] + 10))
    return regions


def _azul_takes(state: AzulState, a: AzulEvent, b: AzulEvent) -> bool:
    assert a.move is not None and b.move is not None
    return a.move.source != b.move.source and a.move.line != b.move.line and a.move.line != FLOOR


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(("which", "with_played", "with_better"), WHICH, ids=[w for w, _, _ in WHICH])
def test_azul_marks_the_played_move_amber_and_the_better_one_blue(
    players: int, which: str, with_played: bool, with_better: bool
) -> None:
    locale = {2: "en", 3: "ru", 4: "fr"}[players]
    state, a, b = find_pair("azul", {"players": players}, _azul_takes, skip=players + 1)
    played, better = (a if with_played else None), (b if with_better else None)
    regions = [
        r for m in (played, better) if m is not None for r in azul_regions(state, state.play(m).last_event, locale)
    ]
    check_marked(state, played, better, regions, locale)


@pytest.mark.parametrize("locale", ["en", "ru", "fr"])
def test_azul_two_takes_from_one_factory_both_show(locale: str) -> None:
    """The same tiles of one factory, to two lines: two rings round the factory and its tiles, one per line."""

    def same_factory(state: AzulState, a: AzulEvent, b: AzulEvent) -> bool:
        assert a.move is not None and b.move is not None
        return (
            a.move.source == b.move.source > 0
            and a.move.colour == b.move.colour
            and a.to_line > 0
            and b.to_line > 0
            and a.move.line != b.move.line
        )

    state, a, b = find_pair("azul", {"players": 2}, same_factory)
    regions = [r for m in (a, b) for r in azul_regions(state, state.play(m).last_event, locale)]
    check_marked(state, a, b, regions, locale)
    image = decode(render_marked(state, played=a, better=b, locale=locale))
    plain = decode(render_marked(state, locale=locale))
    lay = azul_layout(state, locale)
    cx, cy = lay.factories[a.source - 1]
    half = lay.disc // 2 + 20
    factory = (cx - half, cy - half, cx + half, cy + half)
    assert gained(image, plain, AMBER, factory) > 100
    assert gained(image, plain, BLUE, factory) > 100
    # Each line to fill has its own colour.
    panel, dx, dy = lay.panel, lay.panel_left, lay.panel_tops[state.turn]
    for move, colour, other in ((a, AMBER, BLUE), (b, BLUE, AMBER)):
        row = panel.lines[move.line - 1]
        # The ring's ends, level with the line (a ring round the next line reaches into the gap between them).
        line = (dx + row[-1][0] - 8, dy + row[0][1] + 6, dx + row[0][2] + 8, dy + row[0][3] - 6)
        assert gained(image, plain, colour, line) > 40
        assert gained(image, plain, other, line) < 10


def test_azul_takes_from_the_centre_ring_its_group_and_the_marker() -> None:
    def centre_first(state: AzulState, a: AzulEvent, b: AzulEvent) -> bool:
        assert a.move is not None and b.move is not None
        return a.move.source == b.move.source == CENTRE and a.marker and a.move.colour != b.move.colour

    state, a, b = find_pair("azul", {"players": 3}, centre_first)
    regions = [r for m in (a, b) for r in azul_regions(state, state.play(m).last_event, "en")]
    check_marked(state, a, b, regions, "en")
    lay = azul_layout(state, "en")
    image, plain = decode(render_marked(state, played=a, better=b)), decode(render_marked(state))
    marker, groups = azul_render.centre_places(lay, state.centre, True, azul_render.azul_theme(THEME))
    assert marker is not None
    token = (marker[0] - 14, marker[1] - 14, marker[2] + 14, marker[3] + 14)
    assert gained(image, plain, AMBER, token) > 30 and gained(image, plain, BLUE, token) > 30  # both take it
    for move, colour in ((a, AMBER), (b, BLUE)):
        box = next(box for c, _, box in groups if c == move.colour)
        assert gained(image, plain, colour, (box[0] - 8, box[1] - 8, box[2] + 8, box[3] + 8)) > 40


def test_azul_a_move_that_ends_the_round_draws_nothing_of_the_round_end() -> None:
    """No wall tiling, no points and no floor penalty for a move not made: only its source and spaces."""

    def ends_round(state: AzulState, a: AzulEvent, b: AzulEvent) -> bool:
        assert a.move is not None and b.move is not None
        return bool(a.round_ended and b.round_ended and a.placements) and a.move.line != b.move.line

    state, a, b = find_pair("azul", {"players": 2}, ends_round, skip=8)
    # azul_regions leaves out the wall and the name, score and tag column: nothing may change there.
    regions = [r for m in (a, b) for r in azul_regions(state, state.play(m).last_event, "en")]
    check_marked(state, a, b, regions, "en")


def test_azul_grey_wall_columns_both_show_and_the_choices_give_way() -> None:
    """Two wall columns for the line to tile: each ringed in its colour; the other legal columns' amber outlines
    (the choice a plain card offers) give way, so that amber means the move played."""

    def columns(state: AzulState, a: AzulEvent, b: AzulEvent) -> bool:
        assert a.move is not None and b.move is not None
        choices = state.wall_columns(state.turn, a.move.line) if a.move.source == WALL else ()
        return a.move.source == b.move.source == WALL and len(choices) >= 3

    state, a, b = find_pair("azul", {"players": 3, "wall": "grey"}, columns)
    png = render_marked(state, played=a, better=b, locale="fr")
    image, plain = decode(png), decode(render_marked(state, locale="fr"))
    assert image.size == plain.size
    lay = azul_layout(state, "fr")
    panel, dx, dy = lay.panel, lay.panel_left, lay.panel_tops[state.turn]

    def space(column: int) -> Box:
        x0, y0, x1, y1 = panel.wall[a.line - 1][column - 1]
        return (dx + x0 - 6, dy + y0 - 6, dx + x1 + 6, dy + y1 + 6)

    assert count_near(image, AMBER, space(a.column)) > 40
    assert gained(image, plain, BLUE, space(b.column)) > 40
    other = next(c for c in state.wall_columns(state.turn, a.line) if c not in (a.column, b.column))
    assert count_near(plain, AMBER, space(other)) > 40
    assert count_near(image, AMBER, space(other)) < 5
    # Nothing changes off the line to tile and its wall row.
    row = panel.lines[a.line - 1]
    band = (dx + row[-1][0] - 10, dy + row[0][1] - 12, dx + panel.wall[0][4][2] + 10, dy + row[0][3] + 12)
    names = ("Player 1", "Player 2", "Player 3")
    marks = ((state.play(a).last_event, THEME), (state.play(b).last_event, better_theme(THEME)))
    marked = azul_render.render_azul(state, players=names, last_move=False, locale="fr", marks=marks).image
    unmarked = azul_render.render_azul(state, players=names, last_move=False, locale="fr").image
    assert all(inside(box, [band]) for box in changed(marked, unmarked))


# -- both --------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["summer", "azul"])
def test_marks_leave_the_cached_cards_as_they_were(game: str) -> None:
    """Drawing marks must not draw into a cached card: the plain picture is the same bytes after as before."""
    state = next(s for i, s in enumerate(random_positions(game, 3, {})) if i == 9)
    before = render(state, players=["Ana", "Bo"])
    moves = state.legal_moves()
    render_marked(state, played=moves[0], better=moves[-1], players=["Ana", "Bo"])
    assert render(state, players=["Ana", "Bo"]) == before


# -- the legend --------------------------------------------------------------------------------------------------------


def summer_key_line(state: SummerState, locale: str) -> Box:
    """Return the box of a marked Summer card's legend line that says what its colours mean (the second)."""
    lay = summer_render.layout(state.size, state.shape == "hex", THEME, 0, True)  # a marked card has no caption
    middle = lay.legend_top + summer_render.LEGEND_LINE // 2 + summer_render.LEGEND_LINE
    return (0, middle - 20, THEME.width, middle + 20)


def azul_key_line(state: AzulState, locale: str) -> Box:
    """Return the box of a marked Azul card's legend line that says what its colours mean (under the key)."""
    middle = azul_layout(state, locale).legend_mid + AZUL_KEY_LINE
    return (0, middle - 20, THEME.width, middle + 20)


LEGEND_SCENES = {
    "summer": (lambda: find_pair("summer", {}, _summer_any, skip=12), summer_key_line, ("Player 1", "Player 2")),
    "summer-hex": (
        lambda: find_pair("summer", {"board": "hex"}, _summer_any, skip=12),
        summer_key_line,
        ("Player 1", "Player 2"),
    ),
    "azul": (
        lambda: find_pair("azul", {"players": 4}, _azul_takes, skip=5),
        azul_key_line,
        ("Player 1", "Player 2", "Player 3", "Player 4"),
    ),
}


@pytest.mark.parametrize(("scene", "locale"), [("summer", "fr"), ("azul", "ru")])
def test_each_meaning_says_its_words_beside_a_sample_in_its_colour(
    scene: str, locale: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    find, key_line, names = LEGEND_SCENES[scene]
    state, played, better = find()
    check_legend(monkeypatch, state, played, better, key_line(state, locale), locale, names)


@pytest.mark.parametrize("locale", ["en", "ru", "fr"])
@pytest.mark.parametrize("scene", sorted(LEGEND_SCENES))
def test_the_legend_of_a_review_fits_the_card_in_every_language(scene: str, locale: str) -> None:
    find, key_line, names = LEGEND_SCENES[scene]
    state, played, better = find()
    check_fits(state, played, better, key_line(state, locale), locale, names)


def test_an_ordinary_summer_board_calls_its_mark_the_last_move_and_a_marked_one_does_not() -> None:
    state, a, b = find_pair("summer", {}, _summer_any, skip=12)
    assert "last move" in board_words(summer_static, lambda: render(state))
    marked = board_words(summer_static, lambda: render_marked(state, played=a, better=b))
    # What a marked board cannot show is left out: it draws no removed piece.
    assert "merged" in marked and "last move" not in marked and "removed" not in marked
