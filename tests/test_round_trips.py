"""Round trips to the database per move, on both backends (issue 32): a plain move must not creep back up.

Counted by :attr:`bot.storage.database.Database.round_trips` (every statement, ``BEGIN`` and ``COMMIT`` included)
around one ``/pond place`` through the real command tree: finding the match, the move's write with its log row
and announcement, and the announcement leaving the outbox once posted.
"""

from __future__ import annotations

from tests.bot_world import ANA, BO, World

# PostgreSQL: the read that finds the match, one statement for the move, its log row and its announcement, and
# the delivered announcement's DELETE.  SQLite: the same read and DELETE, and BEGIN, three writes and COMMIT.
MOST = {"postgresql": 3, "sqlite": 7}


async def move_trips(world: World, channel: int) -> int:
    record, state = await world.bot.service.running(channel, "pond")
    mover = {ANA.id: ANA, BO.id: BO}[record.players[state.to_move].user_id]
    cell = state.move_text(next(m for m in state.legal_moves() if m.frm < 0)).split()[1]
    before = len(await world.bot.service.store.log(record.id))
    database = world.bot.service.store.database
    counted = database.round_trips
    calls = await world.command(mover, channel, "pond", "place", cell=cell)
    trips = database.round_trips - counted
    assert len(await world.bot.service.store.log(record.id)) == before + 1, calls  # the move was saved
    assert any(c.board for c in calls if c.kind in ("message", "followup")) or world.recorder.boards(channel)
    return trips


async def test_a_plain_move_takes_few_round_trips(world: World) -> None:
    channel = 3200
    await world.start_pond(channel)
    await move_trips(world, channel)  # the first move of a match also reads whether it is an event game (once)
    trips = [await move_trips(world, channel) for _ in range(4)]
    backend = world.bot.service.store.database.dialect
    assert max(trips) <= MOST[backend], trips
