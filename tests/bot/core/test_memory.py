"""Memory stays flat: nothing is kept per move or per posted board.

The two leaks seen with tracemalloc under load: every (match, version) state kept by the match service,
and every posted board's buttons (with what they reference) kept by discord.py's view store.
"""

from __future__ import annotations

import pytest

from bot.core import service_core as service_module
from tests.bot_world import World


async def play(world: World, channel: int, moves: int) -> None:
    people = await world.start_pond(channel)
    for _ in range(moves):
        current = await world.bot.service.current(channel)
        if current is None or current[1] is None:
            return
        state = current[1]
        parts = state.move_text(state.legal_moves()[0]).split()
        person = people[state.to_move or 0]
        if parts[0] == "place":
            await world.command(person, channel, "pond", "place", cell=parts[1])
        else:
            await world.command(person, channel, "pond", "move", from_=parts[1], to=parts[2])


async def test_the_service_keeps_one_state_per_match_however_many_moves(world: World) -> None:
    await play(world, 2991, 8)
    await play(world, 2992, 3)
    states = world.bot.service.core._states
    assert len(states) == 2  # one per match: its newest version
    record = await world.bot.store.matches.open_match(2991)
    assert record is not None and states[record.id][0] == record.version


async def test_the_state_cache_is_bounded(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service_module, "STATE_CACHE", 2)
    for channel in (2993, 2994, 2995):
        await play(world, channel, 1)
    assert len(world.bot.service.core._states) == 2


async def test_posted_boards_and_challenges_leave_nothing_in_discords_view_store(world: World) -> None:
    store = world.bot._connection._view_store
    before = len(store._views), len(store._synced_message_views)
    await play(world, 2996, 6)
    await world.command((await world.seats(2996))[0], 2996, "pond", "resign")
    assert (len(store._views), len(store._synced_message_views)) == before
