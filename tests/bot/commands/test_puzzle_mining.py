"""A server's finished games become its puzzles without anyone asking, end to end: a match finishes, its mining
is queued in the same transaction, the background runner mines it a slice at a time, and ``/puzzle`` shows the
puzzle with its source; a restart in the middle loses nothing; another server never sees it."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from ai.puzzles import wins_at_once
from bot.core.mining import MINE
from bot.core.puzzles import shipped_puzzles
from bot.storage import Seat
from bot.storage.puzzle_store import SHIPPED
from tests.bot_world import ANA, BO, Clock, World, only
from tests.harness import GUILD_ID as GUILD
from tests.harness import Recorder, install, option

CHANNEL = 4800


@pytest.fixture
async def mining_world(database: str, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[World]:
    recorder = Recorder()
    install(monkeypatch, recorder)
    running = await World.start(database, recorder, Clock(), mining=True)
    yield running
    await running.stop()
    assert not recorder.refused


async def play_out(world: World, game: str, channel: int, seed: int, **options: str) -> int:
    """Play a whole game between Ana and Bo through the match service, with seeded random legal moves that take
    a win at once whenever one is there (as people mostly do); return the match's id."""
    service = world.bot.service
    challenge = await service.challenge(
        guild_id=GUILD, channel_id=channel, game=game, challenger=Seat(ANA.id, ANA.name),
        opponents=[Seat(BO.id, BO.name)], options=options,
    )  # fmt: skip
    await service.answer(challenge.record.id, Seat(BO.id, BO.name), True)
    rng = random.Random(seed)
    while True:
        record, state = await service.running(channel)
        assert state.to_move is not None
        moves = [state.move_text(move) for move in state.legal_moves()]
        winning = [move for move in moves if wins_at_once(state, move)]
        safe = [move for move in moves if state.play(move).outcome() is None] or moves
        move = winning[0] if winning else rng.choice(safe)
        turn = await service.play(channel, record.players[state.to_move].user_id, move)
        if turn.record.status == "finished":
            return record.id


async def mined(world: World, match_id: int, seconds: float = 120.0) -> int:
    """Wait until the background runner has mined ``match_id`` to the end; return the puzzles it found."""
    for _ in range(int(seconds * 20)):
        kept = await world.bot.store.mining.get(match_id)
        if kept is not None and kept.complete:
            return kept.found
        await asyncio.sleep(0.05)
    raise AssertionError(f"match {match_id} was not mined in {seconds} s")


async def test_a_finished_game_is_mined_without_anyone_asking_and_its_puzzle_is_shown(mining_world: World) -> None:
    world = mining_world
    match_id = await play_out(world, "pond", CHANNEL, seed=1, variant="mini")
    queued = await world.bot.store.database.rows(
        "SELECT kind, owner_id, priority FROM background_jobs WHERE subject = ? AND kind = ?", (match_id, MINE)
    )
    assert [tuple(row) for row in queued][:1] == [(MINE, 0, 2)]  # queued with the finish, nobody's, unasked
    found = await mined(world, match_id)
    assert found >= 1
    calls = await world.discord.command(ANA, CHANNEL, "puzzle", "", [option("game", "pond")])
    message = only(calls, "followup")
    assert message.ephemeral and message.board is not None
    assert f"game #{match_id}" in message.content and "Ana" in message.content and "Bo" in message.content


async def test_mining_goes_on_after_a_restart_and_stores_each_puzzle_once(mining_world: World) -> None:
    world = mining_world
    match_id = await play_out(world, "pond", CHANNEL, seed=1, variant="mini")
    await world.bot.parts.runner.stop()  # as at a stop: the slice in hand is dropped and its job put back
    before = await world.bot.store.mining.get(match_id)
    world = await world.restart()
    try:
        found = await mined(world, match_id)
        assert found >= 1 and (before is None or not before.complete or before.found == found)
        rows = await world.bot.store.database.rows(
            "SELECT key, COUNT(*) FROM puzzles WHERE match_id = ? GROUP BY key", (match_id,)
        )
        assert len(rows) == found and all(int(count) == 1 for _, count in rows)
        jobs = await world.bot.store.database.rows(
            "SELECT state FROM background_jobs WHERE kind = ? AND subject = ?", (MINE, match_id)
        )
        assert [state for (state,) in jobs] == ["done"]
    finally:
        await world.stop()


async def test_a_new_server_starts_with_the_shipped_puzzles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shipped = shipped_puzzles()
    if not shipped:
        pytest.skip("no shipped puzzle sets in this checkout")
    recorder = Recorder()
    install(monkeypatch, recorder)
    world = await World.start(tmp_path / "tabula.sqlite3", recorder, Clock(), shipped=True)
    try:
        assert await world.bot.store.puzzles.count(SHIPPED) == len({p.key for p in shipped})
        game = shipped[0].game
        calls = await world.discord.command(ANA, CHANNEL, "puzzle", "", [option("game", game)])
        message = only(calls, "followup")
        assert "From a game the computer played against itself." in message.content and message.board is not None
    finally:
        await world.stop()
