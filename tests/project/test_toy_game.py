"""A game kept outside Tabula's packages works in every layer with only its own modules (``tests/toy``).

Toy is registered for these tests only (``engines.GAMES`` patched); its engine names ``parts="tests.toy"``, and
every layer finds its part there by the game's name: the picture, the texts and alt text, the catalogs, the
computer, the gallery, the command tree and the match service.  Nothing in Tabula's own code was changed for it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

import i18n
from ai import choose_move, think
from engines import GAMES
from engines.base import FORFEIT
from i18n.describe import alt_text
from i18n.errors import error_text
from render import render, renderer_for
from tests.bot_world import ANA, BO, Clock, World, only
from tests.harness import Call, Person, Recorder, install, option
from tests.project.test_parts import missing_parts
from tests.toy.engine import SPEC, ToyState
from tests.toy.games import RULES

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Register Toy beside Tabula's games for one test."""
    monkeypatch.setitem(GAMES, "toy", SPEC)
    yield


@pytest.fixture
async def world(toy: None, database: str, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[World]:
    """A running bot (as in conftest) started with Toy registered, so its command tree has ``/toy``."""
    recorder = Recorder()
    install(monkeypatch, recorder)
    running = await World.start(database, recorder, Clock())
    yield running
    await running.stop()


async def toy_command(world: World, person: Person, channel: int, sub: str, **options: Any) -> list[Call]:
    """Send ``/toy sub`` with its options typed as Discord types them (user 6, integer 4, string 3)."""
    users = [value for value in options.values() if isinstance(value, Person)]
    opts = [
        option(name, str(value.id), kind=6)
        if isinstance(value, Person)
        else option(name, value, kind=4 if isinstance(value, int) else 3)
        for name, value in options.items()
    ]
    return await world.discord.command(person, channel, "toy", sub, opts, users=users)


def test_toy_has_every_part(toy: None) -> None:
    assert missing_parts("toy") == []
    assert renderer_for("toy").__module__ == "tests.toy.render" and i18n.texts_for("toy").__name__ == "tests.toy.i18n"


def test_toy_is_drawn_described_and_explained(toy: None) -> None:
    state = SPEC.new(seed=1, stones=6).play("take 2")
    png = render(state, players=["Ana", "Bo"], locale="ru")
    assert png.startswith(PNG) and png == render(state, players=["Ana", "Bo"], locale="ru")
    assert i18n.summary_text(state, ["Ana", "Bo"]) == "Ana took 2 stones."
    described = alt_text(state, ["Ana", "Bo"], "fr")
    assert "Bo to move · 4 stones left" in described and "Pile: 4. Taken: Ana 2, Bo 0." in described
    ended = state.forfeit(1, FORFEIT)
    assert i18n.result_text(ended, ["Ana", "Bo"]) == "Bo resigned."
    with pytest.raises(Exception) as refused:
        state.play("take 4")
    assert error_text(refused.value, "ru") == "Take 1 to 3 stones; 4 are left."


def test_toy_reaches_the_catalogs(toy: None) -> None:
    from bot.client import TabulaBot
    from bot.settings import Settings
    from bot.text import catalogs

    assert ("rules:toy", RULES, "/toy rules") in catalogs.rules_strings()
    template = catalogs.build_template(TabulaBot(Settings()).describe())
    keys = {(message.context, message.id if isinstance(message.id, str) else message.id[0]) for message in template}
    assert ("game:toy", "{name} took the last stone and wins.") in keys  # its texts
    assert ("alt", "Pile: {stones}. Taken: {first} {a}, {second} {b}.") in keys  # its alt text
    assert ("error", "Take 1 to {most} stones; {left} are left.") in keys  # its engine's refusals
    # Its commands' descriptions, from the command tree the catalogs walk.
    assert any("/toy" in comment for message in template for comment in message.auto_comments)


def test_the_computer_plays_toy_with_its_knowledge(toy: None) -> None:
    state = SPEC.new(seed=3, stones=10)
    # 10 stones, 1 to 3 a turn: taking 2 leaves a multiple of 4, the winning move.
    assert choose_move(state, level="medium", seed=1) == 2
    text = think("toy", state.to_json(), "easy", seed=5, iterations=20)
    assert state.parse_move(text) in state.legal_moves()


def test_the_computer_reviews_toy_and_draws_its_moves(toy: None) -> None:
    from ai.review import review_game
    from bot.commands.reviews import draw_marked, draw_review, hint_and_board

    state = SPEC.new(seed=3, stones=10)
    states, moves = [state], []
    for move in (1, 3, 2, 1, 3):  # 10 stones: taking 1 first hands the opponent the win (2 leaves 8)
        moves.append(state.move_text(move))
        state = state.play(move)
        states.append(state)
    review = review_game(states, moves, iterations=200, seed=1)
    first = review.judgements[0]
    assert first.best == "take 2" and first.verdict in {"mistake", "blunder"}
    assert review.final is not None and review.summary(0).moves == 3
    graph, alt = draw_review(review.to_json(), ["Ana", "Bo"], "en")
    assert graph.startswith(PNG) and "Ana" in alt
    plain = render(states[0], players=["Ana", "Bo"], last_move=False)
    marked = draw_marked(states[0], first.played, first.best, ["Ana", "Bo"], "en", "review")
    assert marked.startswith(PNG) and marked != plain
    suggestion, board = hint_and_board(states[0], ["Ana", "Bo"], "en", 1, 200)
    assert suggestion["best"] == "take 2" and board.startswith(PNG)


def test_toy_shows_in_the_gallery(toy: None) -> None:
    from render.gallery import boards, scenes

    assert [board.config for board in boards() if board.game == "toy"] == ["standard"]
    shown = [scene for scene in scenes(quick=True) if scene.game == "toy"]
    assert {scene.situation for scene in shown} == {"start", "last-take-3"}
    assert all(render(scene.state, players=scene.names, locale=scene.locale).startswith(PNG) for scene in shown)


async def test_a_whole_game_of_toy_through_the_command_tree(world: World) -> None:
    channel = 2701
    groups = {command.name for command in world.bot.tree.get_commands()}
    assert "toy" in groups
    reply = only(await toy_command(world, ANA, channel, "start", opponent=BO, stones=7), "reply")
    assert "Toy" in reply.content and "stones 7" in reply.content
    accept = next(cid for cid in reply.custom_ids if ":accept:" in cid)
    first = only(await world.discord.press(BO, channel, accept), "message")
    assert first.files["board.png"].startswith(PNG) and "plays first" in first.content
    people = {ANA.id: ANA, BO.id: BO}
    first_player, _ = await world.seats(channel)
    refused = only(await toy_command(world, first_player, channel, "take", count=5), "reply")
    assert refused.ephemeral and "Take 1 to 3 stones; 7 are left." in refused.content
    while True:
        current = await world.bot.service.current(channel)
        if current is None:
            break
        record, state = current
        assert isinstance(state, ToyState)
        if state.outcome() is not None:
            break
        mover = people[record.players[state.to_move].user_id]
        calls = await toy_command(world, mover, channel, "take", count=min(2, state.stones))
        posted = calls[-1]
        assert posted.files["board.png"].startswith(PNG) and "took" in posted.content
    finished = await world.bot.service.store.get(record.id)
    assert finished.status == "finished"
    assert "took the last stone and wins." in posted.content
    assert (await world.bot.service.replay(finished)).to_json() == finished.state


async def test_a_game_of_toy_against_the_computer(world: World) -> None:
    channel = 2702
    calls = await toy_command(world, ANA, channel, "start", difficulty="easy", stones=5)
    assert "Tabula (easy)" in only(calls, "followup").content
    record = await world.bot.service.store.open_match(channel)
    assert record is not None and record.status == "active" and not record.rated
    for _ in range(10):  # Ana takes one stone a turn; the computer answers each at once
        current = await world.bot.service.current(channel)
        if current is None or current[1].outcome() is not None:
            break
        assert current[0].players[current[1].to_move].user_id == ANA.id, "the computer must have moved by now"
        await toy_command(world, ANA, channel, "take", count=1)
    finished = await world.bot.service.store.get(record.id)
    assert finished.status == "finished"
