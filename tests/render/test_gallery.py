"""The gallery: ``python -m render --gallery DIR`` writes every game's boards, valid PNGs, and a page showing them."""

from __future__ import annotations

import importlib
import io
from pathlib import Path

import pytest
from PIL import Image

from engines import GAMES
from engines.base import AGREED
from render.__main__ import main
from render.gallery import BOARDS, LIMITS, Scene, scenes

pytestmark = pytest.mark.gallery


def test_the_quick_gallery_writes_valid_pngs_and_an_index(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--gallery", str(tmp_path), "--quick"]) == 0
    chosen = scenes(quick=True)
    files = sorted(path.name for path in tmp_path.glob("*.png"))
    assert files == sorted(scene.file for scene in chosen)
    assert {scene.game for scene in chosen} == set(GAMES)
    assert {scene.locale for scene in chosen} == {"en", "ru"}
    for name in files:
        data = (tmp_path / name).read_bytes()
        with Image.open(io.BytesIO(data)) as image:
            image.verify()
        with Image.open(io.BytesIO(data)) as image:
            assert image.format == "PNG" and image.width == 720
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert all(f'src="{name}"' in page for name in files)
    assert 'name="viewport"' in page and "width: 360px" in page
    assert f"{len(files)} boards" in capsys.readouterr().out


def test_the_full_gallery_covers_every_situation_it_promises() -> None:
    chosen = scenes()
    names = [scene.file for scene in chosen]
    assert len(names) == len(set(names)), "two pictures share a file name"
    shown = {(scene.game, scene.config, scene.situation) for scene in chosen}
    for board in BOARDS:
        for situation in ("start", *board.wanted, *(s for s, _ in board.staged), "end-forfeit", "end-timeout"):
            assert (board.game, board.config, situation) in shown, (board.config, situation)
    for game, (_, limit) in LIMITS.items():
        assert any(scene.game == game and scene.situation == limit for scene in chosen), limit
    for game in GAMES:
        texts = {(scene.locale, scene.name_set) for scene in chosen if scene.game == game}
        assert {("en", "long"), ("en", "scripts"), ("ru", "long"), ("fr", "long"), ("fr", "short")} <= texts
    # Two to four players, both walls, square and hex, the smallest and largest boards.
    configs = {scene.config for scene in chosen}
    assert {"2p-colour", "3p-colour", "4p-colour", "4p-grey", "square-3", "square-12", "hex-8", "hex-12"} <= configs
    assert {"mini", "large"} <= configs


def ended_in_gallery(chosen: list[Scene]) -> dict[str, set[str]]:
    """Return, per game, the ways its gallery's finished boards ended (their outcomes' codes)."""
    ended: dict[str, set[str]] = {game: set() for game in GAMES}
    for scene in chosen:
        outcome = scene.state.outcome()
        if outcome is not None:
            ended[scene.game].add(str(outcome.termination))
    return ended


def test_every_way_every_game_ends_has_a_board_in_the_gallery() -> None:
    chosen = scenes()
    ended = ended_in_gallery(chosen)
    for game, spec in GAMES.items():
        codes = {str(code) for code in importlib.import_module(spec.new.__module__).Termination}
        assert codes <= ended[game], (game, sorted(codes - ended[game]))
        # Each under the name that says how it ended.
        named = {scene.situation for scene in chosen if scene.game == game and scene.state.outcome() is not None}
        assert {f"end-{code}" for code in codes} <= named, game


def test_only_two_player_games_with_a_draw_by_agreement_show_one() -> None:
    agreed = [scene for scene in scenes() if scene.situation == f"end-{AGREED}"]
    assert agreed and all(len(scene.names) == 2 for scene in agreed)
    for scene in agreed:
        outcome = scene.state.outcome()
        assert outcome is not None and outcome.termination == AGREED and outcome.is_draw, scene.file


def test_the_gallery_shows_azul_ended_with_no_tiles_left() -> None:
    from render.azul import no_tiles_left

    state = no_tiles_left()
    outcome = state.outcome()
    assert outcome is not None and outcome.termination == "no_tiles"
    assert sum(state.bag) == 0 and sum(state.lid) == 0 and all(not any(f) for f in state.factories)
    assert any(scene.state.to_json() == state.to_json() and scene.situation == "end-no_tiles" for scene in scenes())


def test_a_gallery_that_cannot_be_written_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert main(["--gallery", str(blocker / "inside"), "--quick"]) == 2
    assert "Cannot write the gallery" in capsys.readouterr().err


def test_no_board_in_the_gallery_speaks_of_plies() -> None:
    import re

    import i18n
    from i18n.querni import board_counter_text

    jargon = re.compile(r"\bpl(y|ies)\b|полуход|demi-coup", re.IGNORECASE)
    for scene in scenes():
        texts = [i18n.status_text(scene.state, scene.names, scene.locale),
                 i18n.caption_text(scene.state, scene.names, scene.locale)]  # fmt: skip
        if scene.game == "querni":
            texts.append(board_counter_text(scene.state, scene.locale))  # type: ignore[arg-type]
        for text in texts:
            assert not jargon.search(text), (scene.file, text)
