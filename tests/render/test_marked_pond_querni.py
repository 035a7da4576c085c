"""A review's boards for Pond and Querni: the position before a move, the played move amber, the better one blue.

Each picture goes through :func:`render.render_marked` and is read back from its PNG: the pixels in each mark
colour must lie on the squares of that move (its start, end, path, what it grows, scores or removes) and be
plentiful on each square it marks; the header must say what the position says, not what a move would do; the
legend must say what each colour drawn means, for a review, a hint and a preview (:mod:`tests.render.legend_checks`).
"""

from __future__ import annotations

import io
import itertools
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

import pytest
from PIL import Image, ImageChops

import render.pond as pond_card
import render.querni as querni_card
from engines import GAMES, GameState
from engines.pond import PondEvent, PondState
from engines.querni import WIDTH, QuerniEvent, QuerniState
from render import render, render_marked, renderer_for
from render.draw import Grid, status_height
from render.legend import Key, key_words
from render.querni.layout import KEY_LINE
from render.theme import DEFAULT_THEME as THEME
from tests.render.legend_checks import board_words, check_fits, check_legend, forget_static_cards

NAMES = ("Ana", "Bo")
LOCALES = ("en", "ru", "fr")
# A colour survives the adaptive palette only approximately.
TOLERANCE = 8
Box = tuple[int, int, int, int]


def decode(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG"
        return image.convert("RGB")


def mask(image: Image.Image, colour: tuple[int, int, int]) -> Image.Image:
    """Return a mask of the pixels of ``image`` that are ``colour`` (255) and those that are not (0)."""
    channels = ImageChops.difference(image, Image.new("RGB", image.size, colour)).split()
    furthest = ImageChops.lighter(ImageChops.lighter(channels[0], channels[1]), channels[2])
    return furthest.point(lambda v: 255 if v <= TOLERANCE else 0)


def count(found: Image.Image, area: Box) -> int:
    """Return how many pixels of ``area`` a mask holds."""
    return found.crop(area).histogram()[255]


def span(a: Box, b: Box) -> Box:
    """Return the smallest box holding ``a`` and ``b``: where a line between them runs."""
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


# -- the two games, as the tests see them ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """How a test finds a game's board on its card, the squares a move marks, and two moves worth comparing."""

    name: str
    grid: Callable[[Any, str], Grid]
    squares: Callable[[Any, Grid], tuple[list[Box], list[Box]]]  # (every box the move may mark, each it must mark)
    end: Callable[[Any], int]  # the square a move's marks centre on: where it lands, or its chain's first
    played: Callable[[Any], bool]  # whether a move's event fits the played move of these tests
    better: Callable[[Any], bool]


def pond_grid(state: PondState, locale: str) -> Grid:
    status = pond_card.status_text(state, NAMES, locale)
    extra = max(0, status_height(THEME.width, status, THEME) - THEME.font_body)
    return pond_card.layout(state.size, THEME, extra).grid


def pond_squares(event: PondEvent, grid: Grid) -> tuple[list[Box], list[Box]]:
    size = grid.files

    def box(cell: int) -> Box:
        return grid.box(cell % size, cell // size)

    marked = [box(event.move.to), *(box(cell) for cell in event.developed), *(box(c) for c, _ in event.scored)]
    if event.move.frm < 0:
        return marked, marked
    # A moving piece: its start is marked too, and its arrow runs between the two cells.
    marked.append(box(event.move.frm))
    return [*marked, span(box(event.move.frm), box(event.move.to))], marked


def pond_end(event: PondEvent) -> int:
    return event.move.to


def querni_grid(state: QuerniState, locale: str) -> Grid:
    theme = querni_card.querni_theme(THEME)
    status = querni_card.status_text(state, NAMES, locale)
    extra = max(0, status_height(theme.width, status, theme) - theme.font_body)
    return querni_card.layout(theme, extra).grid


def querni_squares(event: QuerniEvent, grid: Grid) -> tuple[list[Box], list[Box]]:
    def box(cell: int) -> Box:
        return grid.box(cell % WIDTH, cell // WIDTH)

    path, chain = event.path, [cell for _, cell in event.removed]
    boxes = [span(box(a), box(b)) for a, b in itertools.pairwise(path)]
    boxes += [box(cell) for cell in (*path, *chain)] + [span(box(a), box(b)) for a, b in itertools.pairwise(chain)]
    return boxes, [box(cell) for cell in (*path[:1], *path[-1:], *chain)]


def querni_end(event: QuerniEvent) -> int:
    return event.path[-1] if event.path else event.removed[0][1]


POND = Game(
    "pond",
    pond_grid,
    pond_squares,
    pond_end,
    played=lambda event: event.move.frm < 0,  # an egg placed
    better=lambda event: event.move.frm >= 0,  # a piece moved
)
QUERNI = Game(
    "querni",
    querni_grid,
    querni_squares,
    querni_end,
    played=lambda event: len(event.path) > 2 or (bool(event.path) and not event.removed),  # a move
    better=lambda event: bool(event.removed),  # a removal, with or without a move
)
# The same games wanting a better move that scores (Pond) or removes a chain without moving (Querni).
POND_SCORING = replace(POND, better=lambda event: event.move.frm >= 0 and bool(event.scored))
QUERNI_REMOVAL = replace(QUERNI, better=lambda event: bool(event.removed) and not event.path)
BOARDS = [
    (POND, {}),
    (POND_SCORING, {"variant": "mini"}),
    (POND_SCORING, {"variant": "large"}),
    (QUERNI, {}),
    (QUERNI_REMOVAL, {"isolation": "no_triple_left", "draw_count": "moves"}),
    (QUERNI, {"layout": querni_card.GALLERY_CLEARING}),
]


def positions(game: Game, options: dict[str, Any]) -> Iterator[tuple[GameState, Any, Any]]:
    """Yield running positions of random games with a played and a better move on different end squares."""
    for seed in range(60):
        state = GAMES[game.name].new(seed=seed, **options)
        rng = random.Random(seed)
        for _ in range(rng.randrange(4, 40)):
            moves = state.legal_moves()
            if state.outcome() is not None:
                break
            state = state.play(moves[rng.randrange(len(moves))])
        if state.outcome() is not None:
            continue
        events = {move: state.play(move).last_event for move in state.legal_moves()}
        played = [move for move, event in events.items() if game.played(event)]
        better = [move for move, event in events.items() if game.better(event)]
        for a in played:
            for b in better:
                if game.end(events[a]) != game.end(events[b]):
                    yield state, a, b
                    break
            else:
                continue
            break


def scene(game: Game, options: dict[str, Any]) -> tuple[GameState, Any, Any]:
    first = next(positions(game, options), None)
    assert first is not None, f"no position of {game.name} {options} has the moves this test wants"
    return first


@dataclass
class Marks:
    """Where each mark colour shows on one picture's board (masks of the whole card, zero off the board)."""

    amber: Image.Image
    blue: Image.Image


def board_marks(image: Image.Image, grid: Grid) -> Marks:
    board = Image.new("L", image.size, 0)
    board.paste(255, (grid.left, grid.top, grid.right, grid.bottom))
    return Marks(
        ImageChops.multiply(mask(image, THEME.mark), board), ImageChops.multiply(mask(image, THEME.better_mark), board)
    )


def check_move(found: Image.Image, state: GameState, move: Any, game: Game, grid: Grid) -> None:
    """Check that a move's mark pixels lie on its squares, and that each square it marks holds many of them."""
    boxes, marked = game.squares(state.play(move).last_event, grid)
    astray = found.copy()
    for box in boxes:
        astray.paste(0, box)
    assert astray.getbbox() is None, f"{state.move_text(move)}: mark pixels off its squares, in {astray.getbbox()}"
    for box in marked:
        assert count(found, box) >= 60, (state.move_text(move), box)


# -- the tests ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize(("game", "options"), BOARDS, ids=lambda v: v.name if isinstance(v, Game) else str(v))
def test_the_played_move_is_amber_and_the_better_one_blue_on_their_own_squares(
    game: Game, options: dict[str, Any], locale: str
) -> None:
    state, played, better = scene(game, options)
    grid = game.grid(state, locale)
    plain = board_marks(decode(render_marked(state, players=NAMES, locale=locale)), grid)
    assert plain.amber.getbbox() is None and plain.blue.getbbox() is None  # nothing marked, no mark colour

    alone = board_marks(decode(render_marked(state, played=played, players=NAMES, locale=locale)), grid)
    assert alone.blue.getbbox() is None
    check_move(alone.amber, state, played, game, grid)

    hint = board_marks(decode(render_marked(state, better=state.move_text(better), players=NAMES, locale=locale)), grid)
    assert hint.amber.getbbox() is None
    check_move(hint.blue, state, better, game, grid)

    both = board_marks(decode(render_marked(state, played=played, better=better, players=NAMES, locale=locale)), grid)
    check_move(both.amber, state, played, game, grid)
    check_move(both.blue, state, better, game, grid)


@pytest.mark.parametrize(("game", "options"), BOARDS[:1] + BOARDS[3:4], ids=["pond", "querni"])
def test_the_same_move_played_and_better_shows_both_colours_on_its_end_square(
    game: Game, options: dict[str, Any]
) -> None:
    state, played, _ = scene(game, options)
    grid = game.grid(state, "en")
    marks = board_marks(decode(render_marked(state, played=played, better=played, players=NAMES)), grid)
    cell = game.end(state.play(played).last_event)
    end = grid.box(cell % grid.files, cell // grid.files)
    assert count(marks.amber, end) >= 60
    assert count(marks.blue, end) >= 60


@pytest.mark.parametrize("game", [POND, QUERNI], ids=["pond", "querni"])
def test_two_moves_from_one_square_show_both_colours_on_it(game: Game) -> None:
    """Two moves of one piece: the start square's outline shows both colours, not the second's alone."""
    for state, _, _ in positions(game, {}):
        events = {move: state.play(move).last_event for move in state.legal_moves()}
        starts: dict[int, list[Any]] = {}
        for move, event in events.items():
            start = event.move.frm if game is POND else (event.path[0] if event.path else -1)
            if start >= 0 and not (game is QUERNI and event.removed):
                starts.setdefault(start, []).append(move)
        pair = next((moves for moves in starts.values() if len(moves) > 1), None)
        if pair is not None:
            break
    else:
        pytest.fail("no position with two moves of one piece")
    grid = game.grid(state, "en")
    start = pair[0].frm
    start_box = grid.box(start % grid.files, start // grid.files)
    image = decode(render_marked(state, played=pair[0], better=pair[1], players=NAMES))
    assert count(mask(image, THEME.mark), start_box) >= 40
    assert count(mask(image, THEME.better_mark), start_box) >= 40


@pytest.mark.parametrize(("game", "options"), [BOARDS[0], BOARDS[3]], ids=["pond", "querni"])
def test_the_header_claims_none_of_the_moves(game: Game, options: dict[str, Any]) -> None:
    """Above the board, a marked picture is the position's own picture: no gain, no turn passed on."""
    state, played, better = scene(game, options)
    renderer = renderer_for(game.name)
    plain = renderer(state, players=NAMES, last_move=False).image
    marks = tuple((state.play(move).last_event, THEME) for move in (played, better))
    marked = renderer(state, players=NAMES, last_move=False, marks=marks).image
    top = game.grid(state, "en").top
    assert marked.crop((0, 0, marked.width, top)).tobytes() == plain.crop((0, 0, plain.width, top)).tobytes()
    assert marked.tobytes() != plain.tobytes()


@pytest.mark.parametrize(("game", "options"), [BOARDS[1], BOARDS[3]], ids=["pond", "querni"])
def test_marks_leave_the_cached_board_and_the_ordinary_picture_as_they_were(
    game: Game, options: dict[str, Any]
) -> None:
    state, played, better = scene(game, options)
    before = render(state, players=NAMES, locale="fr")
    render_marked(state, played=played, better=better, players=NAMES, locale="fr")
    assert render(state, players=NAMES, locale="fr") == before
    renderer = renderer_for(game.name)
    assert renderer(state, players=NAMES, marks=()).image.tobytes() == renderer(state, players=NAMES).image.tobytes()


def test_a_querni_pass_marks_nothing_and_a_move_beside_it_still_shows() -> None:
    state, played, _ = scene(QUERNI, {})
    grid = QUERNI.grid(state, "en")
    marks = board_marks(decode(render_marked(state, played="pass", better=played, players=NAMES)), grid)
    assert marks.amber.getbbox() is None
    check_move(marks.blue, state, played, QUERNI, grid)


# -- the legend --------------------------------------------------------------------------------------------------------


def pond_key_line(state: PondState, locale: str) -> Box:
    """Return the box of a marked Pond card's legend line that says what its colours mean (the second)."""
    status = pond_card.status_text(state, NAMES, locale)
    extra = max(0, status_height(THEME.width, status, THEME) - THEME.font_body)
    lay = pond_card.layout(state.size, THEME, extra, True)
    middle = lay.legend_top + 20 + pond_card.LEGEND_LINE
    return (0, middle - 22, THEME.width, middle + 22)


def querni_key_line(state: QuerniState, locale: str) -> Box:
    """Return the box of a marked Querni card's legend line that says what its colours mean (under the marks')."""
    theme = querni_card.querni_theme(THEME)
    status = querni_card.status_text(state, NAMES, locale)
    extra = max(0, status_height(theme.width, status, theme) - theme.font_body)
    middle = querni_card.layout(theme, extra, True).legend_mid + KEY_LINE
    return (0, middle - 22, THEME.width, middle + 22)


KEY_LINES = {"pond": pond_key_line, "querni": querni_key_line}


@pytest.mark.parametrize(("game", "options", "locale"), [(POND, {}, "en"), (QUERNI, {}, "ru")], ids=["pond", "querni"])
def test_each_meaning_says_its_words_beside_a_sample_in_its_colour(
    game: Game, options: dict[str, Any], locale: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    state, played, better = scene(game, options)
    check_legend(monkeypatch, state, played, better, KEY_LINES[game.name](state, locale), locale, NAMES)


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize(("game", "options"), [BOARDS[0], BOARDS[3]], ids=["pond", "querni"])
def test_the_legend_of_a_review_fits_the_card_in_every_language(
    game: Game, options: dict[str, Any], locale: str
) -> None:
    state, played, better = scene(game, options)
    check_fits(state, played, better, KEY_LINES[game.name](state, locale), locale, NAMES)


def test_an_ordinary_pond_board_calls_its_mark_the_last_move_and_a_marked_one_does_not() -> None:
    state, played, better = scene(POND, {})
    assert "last move" in board_words(pond_card, lambda: render(state, players=NAMES))
    marked = board_words(pond_card, lambda: render_marked(state, played=played, better=better, players=NAMES))
    assert "grew" in marked and "last move" not in marked


def test_a_querni_pass_has_no_entry_in_the_legend(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pass marks nothing, so the legend says nothing of its colour (and draws the marks' parts in the other)."""
    state, _, better = scene(QUERNI, {})
    asked: list[str] = []

    def recording(key: Key, language: str) -> str:
        asked.append(key.words)
        return key_words(key, language)

    monkeypatch.setattr("render.legend.key_words", recording)
    forget_static_cards()
    image = decode(render_marked(state, played="pass", better=better, players=NAMES))
    assert asked == ["better move"]
    legend = image.crop((0, querni_key_line(state, "en")[1] - 44, image.width, image.height))
    assert count(mask(legend, THEME.mark), (0, 0, legend.width, legend.height)) == 0
