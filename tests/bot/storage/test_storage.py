"""The match store on both backends (SQLite, PostgreSQL): schema, version checks, the log replaying to the state."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

import pytest

from bot.core.refusals import Refusal
from bot.core.service import MatchService
from bot.storage import ChannelBusy, Matches, MatchStore, Seat, StaleMatch, migrations
from engines import GAMES

ANA, BO = Seat(1, "Ana"), Seat(2, "Bo")


@pytest.fixture
async def store(database: str):
    opened = await MatchStore.open(database)
    yield opened.matches
    await opened.close()


async def new_challenge(store: Matches, channel: int = 10):
    return await store.create_challenge(
        guild_id=1,
        channel_id=channel,
        game="pond",
        options={},
        seed=5,
        players=[ANA, BO],
        invited=[BO.user_id],
        expires_at=100.0,
        now=1.0,
    )


async def test_the_schema_is_migrated_with_wal_and_foreign_keys(tmp_path: Path) -> None:
    path = tmp_path / "fresh.sqlite3"
    store = await MatchStore.open(str(path))
    assert await store.schema_version() == max(number for number, _ in migrations())
    await store.close()
    again = await MatchStore.open(str(path))  # migrating twice is harmless
    await again.close()
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {row[0] for row in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"matches", "moves", "bot_meta"} <= tables


async def test_one_open_match_per_channel_is_enforced_by_the_database(store: Matches) -> None:
    await new_challenge(store, 10)
    with pytest.raises(ChannelBusy):
        await new_challenge(store, 10)
    await new_challenge(store, 11)


async def test_stale_writes_are_refused(store: Matches) -> None:
    record = await new_challenge(store)
    updated = await store.update(record, invited=(), now=2.0)
    assert updated.version == record.version + 1 and updated.invited == ()
    with pytest.raises(StaleMatch):
        await store.update(record, status="declined", now=3.0)
    with pytest.raises(StaleMatch):
        await store.append(record, kind="move", seat=0, user_id=1, text="place a1", now=3.0)
    assert await store.log(record.id) == []  # the refused append left no trace


async def test_a_failed_transaction_leaves_nothing_behind(store: Matches) -> None:
    record = await new_challenge(store)
    with pytest.raises(ValueError):
        await store.update(record, colour="red", now=2.0)
    assert (await store.get(record.id)).version == record.version


async def test_the_move_log_replays_to_the_stored_state_on_random_games(database: str) -> None:
    store = await MatchStore.open(database)
    service = MatchService(store.matches, rng=random.Random(1), clock=lambda: 1000.0)
    rng = random.Random(9)
    try:
        for game_number in range(12):
            channel = 100 + game_number
            variant = ("standard", "mini", "large")[game_number % 3]
            record = (
                await service.challenge(
                    guild_id=1,
                    channel_id=channel,
                    game="pond",
                    challenger=ANA,
                    opponents=[BO],
                    options={"variant": variant},
                )
            ).record
            answer = await service.answer(record.id, BO, True)
            record, state = answer.record, answer.state
            while state.outcome() is None:
                if rng.random() < 0.004:
                    turn = await service.resign(channel, record.players[state.to_move].user_id)
                else:
                    mover = record.players[state.to_move].user_id
                    turn = await service.play(channel, mover, state.move_text(rng.choice(state.legal_moves())))
                record, state = turn.record, turn.state
            stored = await store.matches.get(record.id)
            assert stored.status == "finished" and stored.result == state.outcome().to_json()
            rebuilt = await service.replay(stored)
            assert rebuilt.to_json() == stored.state
            assert GAMES["pond"].from_json(stored.state) == rebuilt
    finally:
        await store.close()


async def test_many_concurrent_moves_in_many_channels_keep_every_game_consistent(database: str) -> None:
    store = await MatchStore.open(database)
    service = MatchService(store.matches, rng=random.Random(2), clock=lambda: 1000.0)
    channels = list(range(200, 220))
    ids = {}
    try:
        for channel in channels:
            record = (
                await service.challenge(
                    guild_id=1, channel_id=channel, game="pond", challenger=ANA, opponents=[BO], options={}
                )
            ).record
            await service.answer(record.id, BO, True)
            ids[channel] = record.id

        async def storm(channel: int, seed: int) -> None:
            rng = random.Random(seed)
            for _ in range(30):
                try:
                    record, state = await service.running(channel)
                except Refusal:
                    return  # the game ended
                text = state.move_text(rng.choice(state.legal_moves()))
                # Both players fire at once; only the one whose turn it is may succeed.
                await asyncio.gather(
                    *(service.play(channel, seat.user_id, text) for seat in record.players), return_exceptions=True
                )

        await asyncio.gather(*(storm(channel, channel) for channel in channels))
        for channel in channels:
            record = await store.matches.get(ids[channel])
            assert (await service.replay(record)).to_json() == record.state
            assert len(await store.matches.log(record.id)) == GAMES["pond"].from_json(record.state).ply
    finally:
        await store.close()


async def test_a_refusal_never_writes(store: Matches) -> None:
    service = MatchService(store, rng=random.Random(3), clock=lambda: 5.0)
    answer = await service.challenge(guild_id=1, channel_id=9, game="pond", challenger=ANA, opponents=[BO], options={})
    answer = await service.answer(answer.record.id, BO, True)
    version = answer.record.version
    waiting = answer.record.players[1].user_id
    with pytest.raises(Refusal):
        await service.play(9, waiting, "place a1")
    with pytest.raises(Exception, match="not on this"):
        await service.play(9, answer.record.players[0].user_id, "place q9")
    assert (await store.open_match(9)).version == version
