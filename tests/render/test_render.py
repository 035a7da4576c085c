"""The rendering foundation: the render() contract, shared helpers, thread safety and the command line."""

from __future__ import annotations

import dataclasses
import io
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

import render
from engines import GAMES
from render import NoRenderer, has_renderer, render_image, render_picture, renderer_for
from render.__main__ import main
from render.draw import Grid, Picture, PlayerRow, arrow_sprite, draw_player_rows, encode_png, paste_arrow, pill_sprite
from render.legend import MEANINGS, key_words, legend_for
from render.text import clean_text, ellipsize, fit_size, has_glyph, text_width
from render.theme import DEFAULT_THEME, Theme
from tests import ROOT

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def decode(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        image.load()
        return image


def midgame(game: str = "pond", plies: int = 14) -> object:
    state = GAMES[game].new(seed=3)
    for i in range(plies):
        moves = state.legal_moves()
        state = state.play(moves[(i * 7919) % len(moves)])
    return state


def test_render_returns_a_palette_png_of_the_right_size() -> None:
    png = render.render(midgame(), players=["Ana", "Bo"])
    assert png.startswith(PNG_SIGNATURE)
    image = decode(png)
    assert image.mode == "P"
    assert 600 <= image.width <= 1200 and image.width == DEFAULT_THEME.width
    assert image.height > image.width  # a tall card suits a phone's chat column


def test_render_is_deterministic() -> None:
    state = midgame()
    assert render.render(state, players=["Ana", "Bo"]) == render.render(state, players=["Ana", "Bo"])
    assert render.render(state) == render.render(state, players=None)
    assert render.render(state) != render.render(state, players=["Ana", "Bo"])


def test_default_names_are_the_seat_names() -> None:
    state = midgame()
    assert render.render(state) == render.render(state, players=["Light", "Dark"])


@pytest.mark.parametrize(
    ("meaning", "played", "better", "entries"),
    [
        ("review", True, True, [("move played", "mark"), ("better move", "better_mark")]),
        ("review", True, False, [("move played", "mark")]),
        ("review", False, True, [("better move", "better_mark")]),
        ("review", False, False, []),
        ("hint", False, True, [("suggested move", "better_mark")]),
        ("preview", True, False, [("your move", "mark")]),
    ],
)
def test_a_marked_boards_legend_has_an_entry_for_each_colour_drawn(
    meaning: str, played: bool, better: bool, entries: list[tuple[str, str]]
) -> None:
    keys = legend_for(meaning, played=played, better=better, theme=DEFAULT_THEME)
    assert [(key.words, key.theme.mark) for key in keys] == [
        (words, getattr(DEFAULT_THEME, colour)) for words, colour in entries
    ]


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("en", ["move played", "better move", "suggested move", "your move"]),
        ("ru", ["сыгранный ход", "лучший ход", "подсказка", "ваш ход"]),
        ("fr", ["coup joué", "meilleur coup", "coup suggéré", "votre coup"]),
    ],
)
def test_the_legend_says_each_meaning_in_every_language(locale: str, words: list[str]) -> None:
    keys = [
        *legend_for("review", played=True, better=True, theme=DEFAULT_THEME),
        *legend_for("hint", played=False, better=True, theme=DEFAULT_THEME),
        *legend_for("preview", played=True, better=False, theme=DEFAULT_THEME),
    ]
    assert [key_words(key, locale) for key in keys] == words


@pytest.mark.parametrize(
    ("meaning", "played", "better"),
    [("lesson", True, True), ("Review", True, False), ("", True, False), ("hint", True, True), ("preview", True, True)],
)
def test_a_marked_board_refuses_an_unknown_meaning_and_a_mark_its_meaning_cannot_name(
    meaning: str, played: bool, better: bool
) -> None:
    state: Any = midgame()
    moves = state.legal_moves()
    with pytest.raises(ValueError, match=repr(meaning) if meaning not in MEANINGS else "marks no"):
        render.render_marked(
            state,
            played=moves[0] if played else None,
            better=moves[-1] if better else None,
            meaning=meaning,
        )


def test_renderers_are_found_by_the_games_name_only_for_registered_games() -> None:
    assert has_renderer("pond") and renderer_for("pond").__name__ == "render_pond"
    # render/ holds helper modules too: only a registered game's name finds a renderer.
    assert not has_renderer("draw") and not has_renderer("theme") and not has_renderer("nothing")
    with pytest.raises(NoRenderer, match="no game"):
        renderer_for("text")


def test_a_game_without_a_picture_is_refused() -> None:
    @dataclasses.dataclass
    class Fake:
        game: str = "nothing"
        players: int = 2

    with pytest.raises(NoRenderer):
        render.render(Fake())  # type: ignore[arg-type]


def test_render_image_is_the_unmapped_picture() -> None:
    state = midgame()
    image = render_image(state)
    assert image.mode == "RGB"
    picture = render_picture(state)
    assert picture.palette is not None and picture.palette.mode == "P"
    assert encode_png(picture, DEFAULT_THEME) == render.render(state)


def test_adaptive_palette_encoding_when_a_game_brings_none() -> None:
    image = Image.new("RGB", (64, 32), (10, 20, 30))
    ImageDraw.Draw(image).ellipse((4, 4, 28, 28), fill=(250, 200, 40))
    png = encode_png(Picture(image), DEFAULT_THEME)
    decoded = decode(png).convert("RGB")
    assert decoded.getpixel((16, 16)) == (250, 200, 40) and decoded.getpixel((60, 30)) == (10, 20, 30)


def test_rendering_from_threads_gives_the_same_bytes() -> None:
    states = [midgame(plies=n) for n in (3, 9, 15, 21)]
    theme = dataclasses.replace(DEFAULT_THEME, name="threads")  # fresh caches, so threads race to fill them
    serial = [render.render(state, players=["Ана", "Bo"], theme=theme) for state in states]
    theme2 = dataclasses.replace(DEFAULT_THEME, name="threads-2")
    with ThreadPoolExecutor(max_workers=4) as pool:
        threaded = list(pool.map(lambda s: render.render(s, players=["Ана", "Bo"], theme=theme2), states * 3))
    assert threaded == serial * 3


@pytest.mark.subprocess
def test_assets_are_loaded_lazily() -> None:
    code = (
        "import render, render.text as t, render.pond as p;"
        "print(t._font_bytes.cache_info().currsize, t.font.cache_info().currsize,"
        " p.static_card.cache_info().currsize, p.piece_sprite.cache_info().currsize)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "0", "0", "0"]


def test_theme_is_frozen_and_hashable() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT_THEME.width = 800  # type: ignore[misc]
    assert hash(DEFAULT_THEME) == hash(Theme())
    wide = DEFAULT_THEME.with_width(900)
    assert decode(render.render(midgame(), theme=wide)).width == 900


def test_seat_colours_differ_in_greyscale() -> None:
    def grey(rgb: tuple[int, int, int]) -> float:
        return 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]

    theme = DEFAULT_THEME
    light, dark, board = grey(theme.seat_fill[0]), grey(theme.seat_fill[1]), grey(theme.cell)
    assert light - board > 60 and board - dark > 60
    assert abs(grey(theme.mark) - board) > 40


# -- text -----------------------------------------------------------------------------------------------------------


def test_text_drops_what_the_font_cannot_draw() -> None:
    assert clean_text("Zoë \ue000  Ана\u200b") == "Zoë Ана"
    assert has_glyph("Ж") and has_glyph("é") and not has_glyph("\ue000") and not has_glyph("\u0378")
    assert clean_text("\ue000\ue001") == ""


def test_ellipsize_and_fit() -> None:
    text = "A very long display name for a phone"
    short = ellipsize(text, 25, 150)
    assert short.endswith("…") and text_width(short, 25) <= 150
    assert ellipsize("Bo", 25, 150) == "Bo"
    size = fit_size(text, 30, 300, 12)
    assert size < 30 and text_width(text, size) <= 300
    assert fit_size(text, 30, 10, 18) == 18


# -- drawing helpers ------------------------------------------------------------------------------------------------


def test_grid_puts_rank_one_at_the_bottom() -> None:
    grid = Grid(files=5, ranks=5, cell=40, left=10, top=20)
    assert grid.box(0, 0) == (10, 180, 50, 220)
    assert grid.box(4, 4) == (170, 20, 210, 60)
    assert grid.center(2, 2) == (110, 120)
    assert (grid.width, grid.height, grid.right, grid.bottom) == (200, 200, 210, 220)


@pytest.mark.parametrize("tip", [(120, 0), (0, -120), (-60, 0), (85, 85)])
def test_arrow_ends_at_its_tip(tip: tuple[int, int]) -> None:
    theme = DEFAULT_THEME
    image = Image.new("RGB", (400, 400), (0, 128, 0))
    start = (200, 200)
    end = (start[0] + tip[0], start[1] + tip[1])
    paste_arrow(image, start, end, 12, theme)
    assert image.getpixel(start) == theme.mark
    # Just short of the tip is still the arrow; well past it is untouched.
    length = max(abs(tip[0]), abs(tip[1]))
    back = (round(end[0] - tip[0] * 6 / length), round(end[1] - tip[1] * 6 / length))
    past = (round(end[0] + tip[0] * 20 / length), round(end[1] + tip[1] * 20 / length))
    assert image.getpixel(back) != (0, 128, 0)
    assert image.getpixel(past) == (0, 128, 0)
    sprite, origin = arrow_sprite(tip[0], tip[1], 12, theme)
    assert sprite.mode == "RGBA" and 0 <= origin[0] < sprite.width and 0 <= origin[1] < sprite.height


def test_player_rows_draw_names_and_the_turn_bar() -> None:
    theme = DEFAULT_THEME
    image = Image.new("RGB", (theme.width, 300), theme.background)
    rows = [
        PlayerRow("Ana", 0, None, 3, 10, active=True),
        PlayerRow("An extremely long name that cannot possibly fit on one line", 1, None, 12, 20, gain=2, tag="winner"),
    ]
    bottom = draw_player_rows(image, rows, 10, theme)
    assert bottom == 10 + 2 * (theme.font_body * 2 + 50)
    assert image.getpixel((theme.padding + 4, 10 + 30)) == theme.mark
    assert image.getpixel((theme.padding + 4, bottom - 40)) == theme.panel
    # The long name's chip stops before the right edge of its row.
    assert image.getpixel((image.width - theme.padding - 3, bottom - 60)) == theme.panel


def test_pill_holds_its_text() -> None:
    pill = pill_sprite("+1", 21, (255, 255, 255), (0, 0, 0), (255, 184, 28), DEFAULT_THEME)
    assert pill.mode == "RGBA" and pill.width > pill.height > 21


# -- command line ---------------------------------------------------------------------------------------------------


def test_cli_writes_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.png"
    code = main(["pond", "-o", "variant=large", "--names", "Ana", "Bo", "--out", str(out), "place c3", "place c4"])
    assert code == 0
    assert decode(out.read_bytes()).size[0] == DEFAULT_THEME.width
    printed = capsys.readouterr().out
    assert "after 2 moves. Bo placed an egg on c4" in printed and "Ana to move." in printed
    assert "Dark" not in printed and "Light" not in printed
    state = GAMES["pond"].new(variant="large").play("place c3").play("place c4")
    assert out.read_bytes() == render.render(state, players=["Ana", "Bo"])


@pytest.mark.parametrize(
    "argv, message",
    [
        (["pond", "place b2", "place b2"], "b2 is occupied"),
        (["pond", "plaice b2"], "I can't read"),
        (["pond", "--option", "variant=huge"], "variant must be one of"),
        (["chess"], "Unknown game"),
        # An extra name is not read as a move: --names takes exactly one name per seat.
        (["pond", "--names", "Ana", "Bo", "place b2"], "--names needs one name per seat (2 players), but got 3"),
        (["azul", "--players", "3", "--names", "Ana", "Bo"], "(3 players), but got 2"),
    ],
)
def test_cli_reports_bad_input_with_exit_code_2(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, "--out", str(tmp_path / "x.png")]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_cli_names_end_at_two_dashes_and_default_to_the_seats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "board.png"
    assert main(["pond", "--out", str(out), "--names", "Ana", "Bo", "--", "place b2"]) == 0
    assert capsys.readouterr().out.endswith("after 1 move. Ana placed an egg on b2. Bo to move.\n")
    assert out.read_bytes() == render.render(GAMES["pond"].new().play("place b2"), players=["Ana", "Bo"])
    assert main(["pond", "--out", str(out), "place b2"]) == 0
    assert "Light placed an egg on b2. Dark to move." in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["pond", "-o", "variant", "--out", str(out)])
    assert "key=value, not 'variant'" in capsys.readouterr().err


@pytest.mark.subprocess
def test_cli_runs_as_a_module(tmp_path: Path) -> None:
    out = tmp_path / "b.png"
    done = subprocess.run(
        [sys.executable, "-m", "render", "pond", "--seed", "7", "--out", str(out), "place b2", "place c3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert out.read_bytes().startswith(PNG_SIGNATURE)
    bad = subprocess.run(
        [sys.executable, "-m", "render", "pond", "move a1 a2"], cwd=ROOT, capture_output=True, text=True
    )
    assert bad.returncode == 2 and "no piece on a1" in bad.stderr


# -- status lines keep what matters, whatever the names and the language -------------------------------------------

LONG_NAMES = ("Anastasia Featherstonehaugh", "Cyrus the Magnificent of Persia")


def _long_name_positions(game: str) -> list[Any]:
    """Return a game's start and a finished position (the longest status lines)."""
    from render.gallery import BOARDS, _situations

    board = next(b for b in BOARDS if b.game == game)
    found = _situations(board, quick=False)
    return [found["start"], *(state for kind, state in found.items() if kind.startswith("end-"))]


@pytest.mark.parametrize("game", ["pond", "querni"])
@pytest.mark.parametrize("locale", ["en", "ru", "fr"])
def test_a_long_name_is_cut_in_the_status_and_the_rest_is_whole(game: str, locale: str) -> None:
    import importlib

    from render.draw import status_height
    from render.text import wrap

    module = importlib.import_module(f"render.{game}")
    theme = DEFAULT_THEME
    room = theme.width - 2 * theme.padding
    for state in _long_name_positions(game):
        cut = tuple(ellipsize(name, theme.font_body, module.STATUS_NAME_WIDTH) for name in LONG_NAMES)
        status = module.status_text(state, cut, locale)
        whole = module.status_text(state, ("Ana", "Bo"), locale)
        # What follows the names is the same as with short names: nothing of it is cut.
        assert status.replace(cut[0], "Ana").replace(cut[1], "Bo") == whole
        size = fit_size(status, theme.font_body, room, theme.font_small)
        lines = [status] if text_width(status, size) <= room else wrap(status, theme.font_small, room)
        assert all(text_width(line, min(size, theme.font_small) if len(lines) > 1 else size) <= room for line in lines)
        assert len(lines) <= 2 and status_height(theme.width, status, theme) <= 2 * (theme.font_small + 2)
        # The card draws it: with the name cut, a status that fits one line leaves the card as with short names.
        image = render_image(state, players=LONG_NAMES, locale=locale)
        assert image.width == theme.width
        if len(lines) == 1:
            assert image.height == render_image(state, players=("Ana", "Bo"), locale=locale).height
