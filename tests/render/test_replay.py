"""Animated replays: frames, holds, sampling, size bounds, determinism and the command line."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from PIL import Image

from engines import GAMES, GameState
from engines.record import format_record, new_record
from render import render_picture
from render.__main__ import main as render_main
from render.replay import (
    FINAL_MS,
    FRAME_BOX,
    FRAME_MS,
    GIF_COLOURS,
    START_MS,
    caption,
    draw_frame,
    frame_layout,
    gif_palette,
    replay_gif,
    sampling_note,
    shown_plies,
)
from render.theme import DEFAULT_THEME

NAMES = ["Ana", "Bo"]


def random_game(name: str, seed: int, plies: int | None = None, **options: object) -> tuple[list[GameState], list[str]]:
    """Play a seeded random game (to the end, or ``plies`` plies); return its states and move texts."""
    rng = random.Random(seed)
    state = GAMES[name].new(seed=seed, **options)
    states, moves = [state], []
    while state.legal_moves() and (plies is None or len(moves) < plies):
        move = rng.choice(state.legal_moves())
        moves.append(state.move_text(move))
        state = state.play(move)
        states.append(state)
    return states, moves


def frames_of(gif: bytes) -> list[tuple[Image.Image, int]]:
    """Decode every frame of ``gif`` as RGB, with its duration in milliseconds."""
    frames = []
    with Image.open(io.BytesIO(gif)) as image:
        assert image.format == "GIF" and image.is_animated == (image.n_frames > 1)
        for index in range(image.n_frames):
            image.seek(index)
            frames.append((image.convert("RGB"), image.info["duration"]))
    return frames


def expected_frame(state: GameState, text: str, note: str = "") -> Image.Image:
    """What a frame should show: the live board, scaled, with its caption band, in the GIF's palette."""
    picture = render_picture(state, players=NAMES)
    assert picture.palette is not None
    layout = frame_layout(picture.image.size, DEFAULT_THEME, FRAME_BOX, lines=2 if note else 1)
    palette, _ = gif_palette(bytes(picture.palette.getpalette() or []))
    frame = draw_frame(picture.image, layout, DEFAULT_THEME, text, note)
    return frame.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")


def test_one_frame_per_ply_showing_each_position_with_a_longer_final_hold() -> None:
    states, moves = random_game("pond", 3, plies=6, variant="mini")
    gif = replay_gif(states, players=NAMES, moves=moves)
    frames = frames_of(gif)
    assert len(frames) == len(states) == 7
    assert [duration for _, duration in frames] == [START_MS, *[FRAME_MS] * 5, FINAL_MS]
    assert FINAL_MS > FRAME_MS
    # Changed regions drawn over the previous frame rebuild every position exactly.
    for ply, (image, _) in enumerate(frames):
        wanted = expected_frame(states[ply], caption(ply, 6, moves[ply - 1] if ply else None))
        assert image.tobytes() == wanted.tobytes(), f"frame {ply} differs"


def test_frames_fit_a_phone_screen_and_keep_the_cards_shape() -> None:
    states, _ = random_game("azul", 1, plies=2, players=4)
    with Image.open(io.BytesIO(replay_gif(states))) as image:
        width, height = image.size
    card = render_picture(states[0]).image
    assert width <= FRAME_BOX[0] and height <= FRAME_BOX[1]
    assert height == FRAME_BOX[1]  # four-player Azul is tall: its height sets the scale
    assert abs(width / card.width - (height - 40) / card.height) < 0.05


def test_a_finished_game_ends_on_its_result_and_the_replay_is_deterministic() -> None:
    states, moves = random_game("querni", 2)
    assert states[-1].outcome() is not None
    first = replay_gif(states, players=NAMES, moves=moves)
    assert first == replay_gif(states, players=NAMES, moves=moves)
    final, duration = frames_of(first)[-1]
    assert duration == FINAL_MS
    assert final.tobytes() == expected_frame(states[-1], caption(len(moves), len(moves), moves[-1])).tobytes()


def test_a_long_game_is_sampled_and_says_so() -> None:
    states, moves = random_game("pond", 5, plies=40)
    gif = replay_gif(states, players=NAMES, moves=moves, max_frames=10)
    frames = frames_of(gif)
    assert shown_plies(40, 4) == [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40]
    assert len(frames) == 11
    assert sampling_note(4) == "every 4th move shown"
    with Image.open(io.BytesIO(gif)) as image:
        assert image.info["comment"] == b"Tabula replay of Pond: 40 moves, every 4th move shown"
    image, _ = frames[3]
    assert image.tobytes() == expected_frame(states[12], caption(12, 40, moves[11]), "every 4th move shown").tobytes()
    # The note is a second line in the mark colour at the bottom, only when the replay is sampled.
    band = image.crop((0, image.height - 30, image.width, image.height))
    unsampled = frames_of(replay_gif(states[:13], players=NAMES, moves=moves[:12]))[-1][0]
    plain_band = unsampled.crop((0, unsampled.height - 30, unsampled.width, unsampled.height))
    assert unsampled.height < image.height
    assert amber_pixels(band) > 50 and amber_pixels(plain_band) == 0


def amber_pixels(image: Image.Image) -> int:
    red, green, blue = DEFAULT_THEME.mark
    data = image.tobytes()
    pixels = zip(data[0::3], data[1::3], data[2::3], strict=True)
    return sum(1 for r, g, b in pixels if abs(r - red) < 40 and abs(g - green) < 40 and abs(b - blue) < 60)


def test_a_replay_over_its_byte_budget_shows_fewer_moves_until_it_fits() -> None:
    states, moves = random_game("summer", 2, plies=60, size=6)
    assert len(states) > 20
    roomy = replay_gif(states, moves=moves)
    budget = len(roomy) // 3
    tight = replay_gif(states, moves=moves, max_bytes=budget)
    assert len(tight) <= budget
    assert len(frames_of(tight)) < len(frames_of(roomy)) == len(states)
    with Image.open(io.BytesIO(tight)) as image:
        assert b"move shown" in image.info["comment"]


def test_a_game_without_moves_is_one_still_frame() -> None:
    state = GAMES["pond"].new(seed=1)
    frames = frames_of(replay_gif([state]))
    assert len(frames) == 1 and frames[0][1] == FINAL_MS


def test_bad_arguments_are_refused() -> None:
    states, moves = random_game("pond", 1, plies=3)
    with pytest.raises(ValueError, match="3 plies need 3 move texts, not 2"):
        replay_gif(states, moves=moves[:2])
    with pytest.raises(ValueError, match="at least the starting position"):
        replay_gif([])


def test_the_gif_palette_makes_room_for_transparency() -> None:
    colours = bytes(value for index in range(128) for value in (index * 2, 255 - index, (index * 7) % 256))
    palette, table = gif_palette(colours)
    assert len(table) == 64 * 3
    assert len(palette.getpalette() or []) == GIF_COLOURS * 3
    # Frames quantised with it never use the transparent index 63.
    states, _ = random_game("azul", 2, plies=3, players=2)
    picture = render_picture(states[-1])
    assert picture.palette is not None
    shared, _ = gif_palette(bytes(picture.palette.getpalette() or []))
    assert picture.image.quantize(palette=shared, dither=Image.Dither.NONE).getextrema()[1] < GIF_COLOURS


def test_the_command_line_writes_the_same_bytes_as_the_function(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    states, moves = random_game("pond", 4, plies=5, variant="mini")
    expected = replay_gif(states, players=NAMES, moves=moves)
    out = tmp_path / "replay.gif"
    argv = ["pond", "-o", "variant=mini", "--seed", "4", "--names", *NAMES, "--replay", str(out), "--", *moves]
    assert render_main(argv) == 0
    assert out.read_bytes() == expected
    assert f"{out}: {len(expected):,} bytes after 5 moves." in capsys.readouterr().out
    # The same game from a match record: game, options, seed and names come from its header.
    record = tmp_path / "match.txt"
    record.write_text(format_record(new_record("pond", moves, options={"variant": "mini"}, seed=4, names=NAMES)))
    from_file = tmp_path / "from-file.gif"
    assert render_main(["--moves-file", str(record), "--replay", str(from_file)]) == 0
    assert from_file.read_bytes() == expected
    assert render_main(["--moves-file", str(record), "--seed", "5", "--replay", str(from_file)]) == 2
    assert "records seed 4, but seed 5" in capsys.readouterr().err
