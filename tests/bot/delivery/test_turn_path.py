"""The turn path's shortcuts change nothing players see: a board's alt text made beside its picture."""

from __future__ import annotations

import random

import pytest

from bot.delivery.rendering import BoardRenderer, draw, draw_from_json, draw_with_alt
from engines import GAMES
from i18n.describe import alt_text


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
def test_a_board_drawn_with_its_alt_text_is_the_same_board_and_text(language: str) -> None:
    state = GAMES["pond"].new().play("place b2")
    png, alt = draw_with_alt(state, ("Ana", "Bo"), language)
    assert png == draw(state, ("Ana", "Bo"), language)
    assert alt == alt_text(state, ["Ana", "Bo"], language) and "Ana" in alt


async def test_the_renderer_answers_the_picture_and_its_description_in_one_trip() -> None:
    state = GAMES["azul"].new(players=3, seed=2)
    renderer = BoardRenderer(0)
    names = ["Ana", "Bo", "Cy"]
    calls = 0
    real = renderer.workers.run

    async def counting(function, *args, **kwargs):  # type: ignore[no-untyped-def]
        nonlocal calls
        calls += 1
        return await real(function, *args, **kwargs)

    renderer.workers.run = counting  # type: ignore[method-assign]
    png, alt = await renderer.board(state, names, "ru")
    assert calls == 1
    assert png == await renderer.png(state, names, "ru") and alt == alt_text(state, names, "ru")


def test_a_description_that_fails_leaves_the_picture_and_says_none(monkeypatch: pytest.MonkeyPatch) -> None:
    import i18n.describe

    def broken(*args: object, **kwargs: object) -> str:
        raise RuntimeError("no words")

    monkeypatch.setattr(i18n.describe, "alt_text", broken)
    state = GAMES["pond"].new()
    png, alt = draw_with_alt(state, ("Ana", "Bo"))
    assert alt is None and png == draw(state, ("Ana", "Bo"))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_board_drawn_from_its_state_json_is_the_same_board_and_text(game: str) -> None:
    spec = GAMES[game]
    rng = random.Random(7)
    state = spec.new(players=spec.max_players, seed=11)
    names = ("Ana", "Bo", "Cy", "Dee")[: spec.max_players]
    for ply in range(40):
        if state.outcome() is not None:
            break
        state = state.play(rng.choice(state.legal_moves()))
        if ply % 13 == 3:  # a few positions per game: drawing is the slow part
            assert draw_from_json(game, state.to_json(), names, "fr") == draw_with_alt(state, names, "fr")


async def test_boards_go_to_the_worker_processes_as_their_json_and_come_back_the_same() -> None:
    state = GAMES["querni"].new(seed=5)
    state = state.play(state.legal_moves()[0])
    in_process, in_thread = BoardRenderer(1), BoardRenderer(0)
    try:
        assert await in_process.board(state, ["Ana", "Bo"], "ru") == await in_thread.board(state, ["Ana", "Bo"], "ru")
    finally:
        in_process.workers.stop()
