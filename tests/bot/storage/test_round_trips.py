"""Round trips to the database per move, on both backends: a plain move must not creep back up.

Counted by :attr:`bot.storage.database.Database.round_trips` (every statement, ``BEGIN`` and ``COMMIT`` included)
around one ``/pond place`` through the real command tree: finding the match, the move's write with its log row
and announcement, and the announcement leaving the outbox once posted.
"""

from __future__ import annotations

import random

import pytest

from bot.core.service import MatchService
from bot.storage import MatchStore, Seat, StaleMatch
from bot.storage.records import MatchStatus, Notice, NoticeKind, TurnKind
from tests.bot_world import ANA, BO, World

ANA_SEAT, BO_SEAT = Seat(ANA.id, "Ana"), Seat(BO.id, "Bo")
NOTICE = Notice(NoticeKind.TURN, mentions=(BO.id,))

# The read that finds the match, the move's write with its log row and its announcement (PostgreSQL: one
# statement; SQLite: its whole transaction in one hand-off to the connection's thread), and the delivered
# announcement's DELETE.
MOST = {"postgresql": 3, "sqlite": 3}


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
    # The first move too: the read that finds the match also says it is no event game (no query for its pairing).
    trips = [await move_trips(world, channel) for _ in range(5)]
    backend = world.bot.service.store.database.dialect
    assert max(trips) <= MOST[backend], trips


async def test_a_move_from_a_stale_read_is_refused_and_leaves_no_trace(database: str) -> None:
    """Two presses read the same version: one move, one log row and one announcement; the other is refused."""
    store = await MatchStore.open(database)
    service = MatchService(store.matches, rng=random.Random(1), clock=lambda: 1000.0)
    try:
        asked = await service.challenge(
            guild_id=1, channel_id=40, game="pond", challenger=ANA_SEAT, opponents=[BO_SEAT], options={}
        )
        answer = await service.answer(asked.record.id, BO_SEAT, True)
        record, state = answer.record, answer.state
        assert record.status == MatchStatus.ACTIVE and state is not None
        pending = len(await store.matches.pending_announcements())
        mover = record.players[state.to_move]
        first, second = (state.move_text(m) for m in state.legal_moves()[:2])
        fields = {"state": state.play(first).to_json(), "deadline": 2000.0}
        press = {"kind": TurnKind.MOVE, "seat": state.to_move, "user_id": mover.user_id, "now": 1000.0}
        moved, announced = await store.matches.append(record, text=first, announce=[NOTICE], **press, **fields)
        assert moved.version == record.version + 1 and [a.version for a in announced] == [moved.version]
        assert announced[0].seq == 1 and moved.state == fields["state"]
        with pytest.raises(StaleMatch):
            await store.matches.append(record, text=second, announce=[NOTICE], **press, **fields)
        assert [entry.text for entry in await store.matches.log(record.id)] == [first]
        assert len(await store.matches.pending_announcements()) == pending + 1
        assert (await store.matches.get(record.id)).version == moved.version
    finally:
        await store.close()
