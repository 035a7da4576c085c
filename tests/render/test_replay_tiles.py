"""Replays drawn tile by tile show exactly the frames of drawing every board whole (render.replay_tiles)."""

from __future__ import annotations

import io
import itertools
import random

import pytest
from PIL import Image, ImageChops, ImageDraw

import render.replay as replay
from engines import GAMES, GameState
from render import render_picture
from render.replay import (
    FINAL_MS,
    FRAME_BOX,
    FRAME_MS,
    START_MS,
    caption,
    draw_frame,
    frame_layout,
    gif_palette,
    replay_gif,
    sampling_note,
    sampling_step,
    shown_plies,
)
from render.replay_tiles import BoardTiles, tile_grid
from render.theme import DEFAULT_THEME, Theme

NAMES = ("Ana", "Bartholomew", "Chidi", "Dagny")


def random_game(name: str, seed: int, players: int = 2, plies: int | None = None, **options: object) -> list[GameState]:
    rng = random.Random(seed)
    state = GAMES[name].new(players=players, seed=seed, **options)
    states = [state]
    while state.legal_moves() and (plies is None or len(states) <= plies):
        state = state.play(rng.choice(state.legal_moves()))
        states.append(state)
    return states


def decoded_frames(gif: bytes) -> list[tuple[bytes, int]]:
    frames = []
    with Image.open(io.BytesIO(gif)) as image:
        for index in range(image.n_frames):
            image.seek(index)
            frames.append((image.convert("RGB").tobytes(), image.info["duration"]))
    return frames


def whole_frames(states: list[GameState], max_frames: int = 300, box: tuple[int, int] = FRAME_BOX) -> list[bytes]:
    """Every frame as drawing and mapping each board whole gives it (no tiles, no changed regions)."""
    players = NAMES[: states[0].players]
    plies = len(states) - 1
    step = sampling_step(plies, max_frames)
    note = sampling_note(step)
    first = render_picture(states[0], players=players)
    assert first.palette is not None
    palette, _ = gif_palette(bytes(first.palette.getpalette() or [])[: 3 * 256])
    layout = frame_layout(first.image.size, DEFAULT_THEME, box, lines=2 if note else 1)
    frames = []
    for ply in shown_plies(plies, step):
        board = render_picture(states[ply], players=players).image
        frame = draw_frame(board, layout, DEFAULT_THEME, caption(ply, plies, None), note)
        frames.append(frame.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB").tobytes())
    return frames


GAMES_PLAYED = [
    ("pond", 1, 2, 40, {}, 0),
    ("pond", 2, 2, None, {"variant": "mini"}, 0),
    ("pond", 3, 2, 30, {"variant": "large"}, 0),
    ("azul", 1, 2, 45, {}, 0),  # Azul's card grows at a round's start: frames drawn whole, then tiles again
    ("azul", 2, 3, 30, {}, 0),
    ("azul", 3, 4, 30, {}, 0),
    ("querni", 4, 2, 40, {}, 0),
    ("summer", 1, 2, None, {"size": 8}, 80),  # the band-wise scaler of before got this game's last frame wrong
    ("summer", 5, 2, 40, {"size": 12}, 0),
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "seed", "players", "plies", "options", "start"), GAMES_PLAYED)
def test_every_decoded_frame_is_the_whole_board_scaled_and_mapped(
    name: str, seed: int, players: int, plies: int | None, options: dict[str, object], start: int
) -> None:
    states = random_game(name, seed, players, plies, **options)[start:]
    gif = replay_gif(states, players=NAMES[:players])
    frames = decoded_frames(gif)
    wanted = whole_frames(states)
    assert len(frames) == len(wanted) == len(states)
    for ply, ((pixels, _), expected) in enumerate(zip(frames, wanted, strict=True)):
        assert pixels == expected, f"{name} ply {ply} differs"
    assert [duration for _, duration in frames] == [START_MS, *[FRAME_MS] * (len(states) - 2), FINAL_MS]


def test_sampled_and_smaller_replays_are_exact_too() -> None:
    states = random_game("pond", 6, plies=50)
    frames = decoded_frames(replay_gif(states, players=NAMES[:2], max_frames=12, box=(360, 640)))
    assert [pixels for pixels, _ in frames] == whole_frames(states, max_frames=12, box=(360, 640))


def test_a_caption_whose_ink_reaches_over_the_board_gets_a_frame_drawn_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    states = random_game("pond", 7, plies=8)
    plain = whole_frames(states)
    draw_caption = replay._draw_caption

    def reaching(draw: ImageDraw.ImageDraw, layout: replay.Layout, theme: Theme, words: str, note: str) -> None:
        draw_caption(draw, layout, theme, words, note)
        if words.startswith("Move 4 "):  # a bar from the band up over the board
            draw.rectangle((10, layout.board_height - 12, 60, layout.board_height + 3), fill=(250, 20, 20))

    monkeypatch.setattr(replay, "_draw_caption", reaching)
    frames = [pixels for pixels, _ in decoded_frames(replay_gif(states, players=NAMES[:2]))]
    wanted = whole_frames(states)
    assert frames == wanted
    assert wanted[4] != plain[4] and wanted[3:4] + wanted[5:] == plain[3:4] + plain[5:]


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("box", [FRAME_BOX, (360, 640)])
@pytest.mark.parametrize("lines", [1, 2])
def test_tiles_scale_like_the_whole_board(name: str, box: tuple[int, int], lines: int) -> None:
    board = render_picture(GAMES[name].new(players=GAMES[name].max_players, seed=3)).image
    layout = frame_layout(board.size, DEFAULT_THEME, box, lines)
    size = (round(board.width * layout.scale), round(board.height * layout.scale))
    rng = random.Random(11)
    noise = Image.frombytes("RGB", board.size, rng.randbytes(board.width * board.height * 3))
    for image in (board, noise):
        assembled = Image.new("RGB", size)
        for row in tile_grid(board.size, size):
            for tile in row:
                part = image
                for step_size, source in tile.steps:
                    part = part.resize(step_size, Image.Resampling.BOX, box=source)
                assembled.paste(part.crop(tile.crop) if tile.crop else part, tile.box[:2])
        assert assembled.tobytes() == image.resize(size, Image.Resampling.BOX).tobytes()


def test_board_tiles_bring_the_frame_to_each_board_and_say_where() -> None:
    states = random_game("summer", 8, plies=30, size=6)
    boards = [render_picture(state, players=NAMES[:2]).image for state in states]
    first = render_picture(states[0], players=NAMES[:2])
    assert first.palette is not None
    palette, _ = gif_palette(bytes(first.palette.getpalette() or [])[: 3 * 256])
    size = (boards[0].width // 2, boards[0].height // 2)

    def mapped(board: Image.Image) -> Image.Image:
        return board.resize(size, Image.Resampling.BOX).quantize(palette=palette, dither=Image.Dither.NONE)

    frame = Image.new("P", (size[0] + 10, size[1] + 5), 0)
    frame.paste(mapped(boards[0]), (10, 5))
    tiles = BoardTiles(boards[0], size, palette, frame, (10, 5))
    for before, board in itertools.pairwise(boards):
        shown = frame.copy()
        top = tiles.update(board)
        assert frame.crop((10, 5, size[0] + 10, size[1] + 5)).tobytes() == mapped(board).tobytes()
        found = ImageChops.difference(shown, frame).getbbox()
        assert found is None or (top is not None and top <= found[1])
        assert (top is None) == (before.tobytes() == board.tobytes())
    assert tiles.update(boards[-1]) is None  # the same board again: nothing to redo
    # Into another frame, whatever it shows: every tile, from its looks or scaled anew; then on from there.
    other = Image.new("P", frame.size, 7)
    tiles.redraw(boards[3], other)
    assert other.crop((10, 5, size[0] + 10, size[1] + 5)).tobytes() == mapped(boards[3]).tobytes()
    tiles.update(boards[4])
    assert other.crop((10, 5, size[0] + 10, size[1] + 5)).tobytes() == mapped(boards[4]).tobytes()
    with pytest.raises(ValueError, match="RGB"):
        tiles.update(boards[-1].crop((0, 0, 10, 10)))
