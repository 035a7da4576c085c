"""The boards' PNG writer (render.png): every file decodes, with Pillow, to exactly the palette image written."""

from __future__ import annotations

import io
import random
import zlib

import pytest
from PIL import Image

from engines import GAMES
from render import render, render_picture
from render.draw import encode_png
from render.png import chunk, palette_png
from render.theme import DEFAULT_THEME


def decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def random_palette_image(width: int, height: int, colours: int, seed: int) -> Image.Image:
    rng = random.Random(seed)
    image = Image.new("P", (width, height))
    image.putdata([rng.randrange(colours) for _ in range(width * height)])
    image.putpalette([rng.randrange(256) for _ in range(3 * colours)])
    return image


@pytest.mark.parametrize(
    ("width", "height", "colours"), [(1, 1, 1), (3, 2, 2), (17, 5, 16), (64, 9, 17), (33, 40, 256)]
)
def test_every_size_and_palette_decodes_to_the_same_indices_and_colours(width: int, height: int, colours: int) -> None:
    image = random_palette_image(width, height, colours, seed=width * height)
    png = palette_png(image)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    back = decoded(png)
    assert back.size == (width, height) and back.mode == "P"
    assert back.tobytes() == image.tobytes()
    assert back.convert("RGB").tobytes() == image.convert("RGB").tobytes()
    assert palette_png(image) == png  # deterministic


def test_chunks_carry_their_length_and_crc() -> None:
    made = chunk(b"IEND", b"")
    assert made == b"\x00\x00\x00\x00IEND" + zlib.crc32(b"IEND").to_bytes(4, "big")
    data = b"\x01\x02\x03"
    made = chunk(b"tEXt", data)
    assert made[:4] == b"\x00\x00\x00\x03" and made[8:11] == data
    assert made[11:] == zlib.crc32(b"tEXt" + data).to_bytes(4, "big")


@pytest.mark.parametrize("mode", ["RGB", "L"])
def test_only_palette_images_are_written(mode: str) -> None:
    with pytest.raises(ValueError, match="palette image"):
        palette_png(Image.new(mode, (2, 2)))


def positions(game: str, count: int, seed: int) -> list:
    rng = random.Random(seed)
    spec = GAMES[game]
    found = []
    state = spec.new(players=spec.min_players, seed=seed)
    while len(found) < count:
        moves = state.legal_moves()
        if not moves:
            state = spec.new(players=spec.min_players, seed=rng.randrange(1000))
            continue
        state = state.play(rng.choice(moves))
        if rng.random() < 0.15:
            found.append(state)
    return found


@pytest.mark.parametrize("game", sorted(GAMES))
def test_boards_are_the_pixels_pillows_own_writer_would_have_written(game: str) -> None:
    """Each board's file decodes to the quantised picture, as Pillow's PNG writer (zlib) would have stored it."""
    names = ["Ana", "Bo", "Cy", "Dee"]
    for state in positions(game, 4, seed=7):
        picture = render_picture(state, players=names[: state.players], locale="ru")
        assert picture.palette is not None
        quantised = picture.image.quantize(palette=picture.palette, dither=Image.Dither.NONE)
        pillow = io.BytesIO()
        quantised.save(pillow, format="PNG", compress_level=3)
        ours = encode_png(picture, DEFAULT_THEME)
        assert decoded(ours).convert("RGB").tobytes() == decoded(pillow.getvalue()).convert("RGB").tobytes()
        assert render(state, players=names[: state.players], locale="ru") == ours
