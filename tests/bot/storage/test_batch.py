"""A move's write as one batch (SQLite: one hand-off to the connection's thread), and knowing a match is no event game
from the read that found it, on both backends."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.core import tournament_formats as f
from bot.core.service import MatchService
from bot.core.tournaments import TournamentService
from bot.storage import IntegrityError, MatchStore, Seat, StaleMatch
from bot.storage.database import SQLiteDatabase, SQLiteWorker, Step
from bot.storage.match_base import _COLUMNS, _decode, _notice_values, _outbox_values, _update_sql
from bot.storage.move_write import MoveWrite
from bot.storage.records import MatchStatus, Notice, NoticeKind, TurnKind

ANA, BO = Seat(100000000000000001, "Ana"), Seat(100000000000000002, "Bo")
GUILD = 1 << 22


@pytest.fixture
async def store(database: str):
    opened = await MatchStore.open(database)
    yield opened
    await opened.close()


async def meta(store: MatchStore) -> dict[str, str]:
    rows = await store.database.rows("SELECT key, value FROM bot_meta WHERE key LIKE 'batch%' ORDER BY key")
    return {str(key): str(value) for key, value in rows}


async def test_a_batch_commits_all_its_steps_and_returns_each_ones_rows(store: MatchStore) -> None:
    insert = "INSERT INTO bot_meta (key, value) VALUES (?, ?) RETURNING key"
    found = await store.database.batch([Step(insert, ("batch-a", "1")), Step(insert, ("batch-b", "2"))])
    assert found == [[("batch-a",)], [("batch-b",)]]
    assert await meta(store) == {"batch-a": "1", "batch-b": "2"}


async def test_a_required_step_without_a_row_rolls_the_whole_batch_back(store: MatchStore) -> None:
    steps = [
        Step("INSERT INTO bot_meta (key, value) VALUES (?, ?) RETURNING key", ("batch-a", "1")),
        Step("UPDATE bot_meta SET value = ? WHERE key = ? RETURNING key", ("2", "batch-none"), required=True),
        Step("INSERT INTO bot_meta (key, value) VALUES (?, ?) RETURNING key", ("batch-b", "1")),
    ]
    assert await store.database.batch(steps) is None
    assert await meta(store) == {}
    # The connection is usable afterwards (no transaction left open).
    await store.set_meta("batch-c", "3")
    assert await meta(store) == {"batch-c": "3"}


async def test_a_failing_step_rolls_the_whole_batch_back_and_raises(store: MatchStore) -> None:
    insert = "INSERT INTO bot_meta (key, value) VALUES (?, ?)"
    with pytest.raises(IntegrityError):
        await store.database.batch([Step(insert, ("batch-a", "1")), Step(insert, ("batch-a", "2"))])
    assert await meta(store) == {}
    await store.set_meta("batch-b", "1")
    assert await meta(store) == {"batch-b": "1"}


async def test_moves_without_announcements_and_a_stale_one_leave_exact_rows(store: MatchStore) -> None:
    """The batched write: the log numbers moves in order, announcements carry the new version and the move's number,
    and a write from a stale read changes nothing."""
    service = MatchService(store.matches, rng=random.Random(2), clock=lambda: 1000.0)
    asked = await service.challenge(
        guild_id=GUILD, channel_id=41, game="pond", challenger=ANA, opponents=[BO], options={}
    )
    answer = await service.answer(asked.record.id, BO, True)
    record, state = answer.record, answer.state
    assert state is not None
    seen = record
    for number in range(1, 4):
        move = state.move_text(state.legal_moves()[0])
        state = state.play(move)
        notices = [Notice(NoticeKind.TURN, mentions=(ANA.user_id,))] * (number - 1)  # none, one, then two
        press = {"kind": TurnKind.MOVE, "seat": 0, "user_id": ANA.user_id, "now": 1000.0 + number}
        moved, announced = await store.matches.append(
            seen, text=move, announce=notices, state=state.to_json(), deadline=5000.0 + number, **press
        )
        assert moved.version == seen.version + 1 and moved.updated_at == 1000.0 + number
        assert moved.deadline == 5000.0 + number and moved.state == state.to_json()
        assert [(a.version, a.seq, a.channel_id, a.guild_id) for a in announced] == [
            (moved.version, number, 41, GUILD)
        ] * (number - 1)
        with pytest.raises(StaleMatch):
            await store.matches.append(seen, text=move, announce=notices, state=state.to_json(), **press)
        seen = moved
    assert [entry.seq for entry in await store.matches.log(record.id)] == [1, 2, 3]
    assert (await store.matches.get(record.id)) == seen


async def test_a_match_read_without_a_pairing_needs_no_query_for_it_and_an_event_game_keeps_its_own(
    store: MatchStore,
) -> None:
    clock = iter(range(1_800_000_000, 1_900_000_000))
    service = MatchService(store.matches, extras=store.extras, clock=lambda: float(next(clock)), rng=random.Random(3))
    events = TournamentService(
        store.tournaments, forfeit=service.withdraw, clock=lambda: float(next(clock)), rng=random.Random(4)
    )
    event = await events.create(
        guild_id=GUILD, channel_id=555, organiser_id=7, name="Spring", game="pond", format=f.SWISS, turn_seconds=3600
    )
    for n in range(1, 5):
        await events.join(event.id, 100000000000001000 + n, f"P{n}")
    await events.start(event.id, 7, can_manage=True)
    pairings = [p for p in await store.tournaments.pairings(event.id) if p.match_id is not None]
    assert pairings
    event_game = pairings[0]
    asked = await service.challenge(
        guild_id=GUILD, channel_id=42, game="pond", challenger=ANA, opponents=[BO], options={}
    )
    await service.answer(asked.record.id, BO, True)

    # A second process (or a restart) knows neither match yet: it reads the pairing, found or not.
    fresh = MatchStore(store.database)
    counted = store.database.round_trips
    assert await fresh.tournaments.pairing_of_match(asked.record.id) is None
    assert store.database.round_trips == counted + 1

    # Found by a command (in its channel, or by its ID): the ordinary match's pairing needs no query.
    (found,) = await fresh.matches.open_matches_at(42)
    assert found.id == asked.record.id
    counted = store.database.round_trips
    assert await fresh.tournaments.pairing_of_match(asked.record.id) is None
    assert store.database.round_trips == counted
    # The event game, read the same ways, still has its pairing.
    assert event_game.match_id is not None
    got = await fresh.matches.get(event_game.match_id)
    assert got is not None and got.status == MatchStatus.ACTIVE
    assert await fresh.matches.running_matches_of(GUILD, event_game.players[0])
    assert await fresh.tournaments.pairing_of_match(event_game.match_id) == event_game


async def announced_moves(store: MatchStore, count: int) -> list[int]:
    """A running match with ``count`` moves, each with its announcement in the outbox; their IDs."""
    service = MatchService(store.matches, rng=random.Random(5), clock=lambda: 1000.0)
    asked = await service.challenge(
        guild_id=GUILD, channel_id=43, game="pond", challenger=ANA, opponents=[BO], options={}
    )
    answer = await service.answer(asked.record.id, BO, True)
    record, state = answer.record, answer.state
    assert state is not None
    ids = []
    for _ in range(count):
        move = state.move_text(state.legal_moves()[0])
        state = state.play(move)
        press = {"kind": TurnKind.MOVE, "seat": 0, "user_id": ANA.user_id, "now": 1000.0}
        record, announced = await store.matches.append(
            record, text=move, announce=[Notice(NoticeKind.TURN)], state=state.to_json(), **press
        )
        ids += [a.id for a in announced]
    return ids


async def test_announcements_delivered_together_leave_the_outbox_in_fewer_statements(store: MatchStore) -> None:
    ids = await announced_moves(store, 6)
    counted = store.database.round_trips
    await asyncio.gather(*(store.matches.mark_delivered(i) for i in ids))
    # The first DELETE goes alone; the five delivered while it was on its way leave in one more.
    assert store.database.round_trips - counted == 2
    pending = {a.id for a in await store.matches.pending_announcements()}
    assert not pending & set(ids)


async def test_when_a_delete_fails_the_announcements_waiting_for_it_still_leave(
    store: MatchStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = await announced_moves(store, 4)
    write = store.database.write
    failures = iter([True, True])

    async def failing(sql: str, params: Sequence[Any] = ()) -> None:
        if next(failures, False):
            raise OSError("connection lost")
        await write(sql, params)

    monkeypatch.setattr(store.database, "write", failing)
    results = await asyncio.gather(*(store.matches.mark_delivered(i) for i in ids), return_exceptions=True)
    # The first alone and the batch of the other three both failed: each of those three goes again alone.
    assert [type(r) for r in results] == [OSError, OSError, type(None), type(None)]
    pending = {a.id for a in await store.matches.pending_announcements()}
    assert pending & set(ids) == {ids[0], ids[1]}


async def test_a_transaction_on_sqlite_sends_its_begin_with_its_first_statement(store: MatchStore) -> None:
    """SQLite: n statements cost n + 1 hand-offs (BEGIN rides with the first, then COMMIT); none cost nothing."""
    database = store.database
    counted = database.round_trips
    async with database.transaction():
        pass
    empty = database.round_trips - counted
    counted = database.round_trips
    async with database.transaction() as db:
        await db.execute("INSERT INTO bot_meta (key, value) VALUES (?, ?)", ("batch-a", "1"))
        await db.execute("INSERT INTO bot_meta (key, value) VALUES (?, ?)", ("batch-b", "2"))
    two = database.round_trips - counted
    assert (empty, two) == ((0, 3) if database.dialect == "sqlite" else (2, 4))
    assert await meta(store) == {"batch-a": "1", "batch-b": "2"}


async def test_a_transaction_that_fails_or_is_cancelled_leaves_nothing_and_no_transaction_open(
    store: MatchStore,
) -> None:
    with pytest.raises(IntegrityError):
        async with store.database.transaction() as db:
            await db.execute("INSERT INTO bot_meta (key, value) VALUES (?, ?)", ("batch-a", "1"))
            await db.execute("INSERT INTO bot_meta (key, value) VALUES (?, ?)", ("batch-a", "2"))
    entered = asyncio.Event()

    async def stopped_midway() -> None:
        async with store.database.transaction() as db:
            await db.execute("INSERT INTO bot_meta (key, value) VALUES (?, ?)", ("batch-b", "1"))
            entered.set()
            await asyncio.sleep(10)

    task = asyncio.create_task(stopped_midway())
    await entered.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await store.set_meta("batch-c", "1")  # a new transaction starts cleanly
    assert await meta(store) == {"batch-c": "1"}


async def test_a_call_queued_to_the_sqlite_thread_runs_even_when_its_waiter_is_cancelled() -> None:
    """Once queued, a call runs (a BEGIN riding with it is then known to be open), and calls run in order."""
    worker = SQLiteWorker()
    release = threading.Event()
    ran: list[str] = []
    try:
        blocking = worker.run(release.wait, 5.0)
        queued = worker.run(ran.append, "queued")
        after = worker.run(ran.append, "after")
        queued.cancel()
        release.set()
        assert await blocking is True
        await after
        assert ran == ["queued", "after"]
        with pytest.raises(ZeroDivisionError):
            await worker.run(divmod, 1, 0)
    finally:
        worker.stop()


async def test_a_commit_that_fails_on_sqlite_is_rolled_back_and_the_next_transaction_starts_clean(
    tmp_path: Path,
) -> None:
    """A deferred foreign key makes the COMMIT itself fail: nothing is kept and no transaction is left open."""
    opened = await MatchStore.open(str(tmp_path / "commit.sqlite3"))
    try:
        database = opened.database
        assert isinstance(database, SQLiteDatabase)
        with pytest.raises(Exception, match="FOREIGN KEY"):
            async with database.transaction() as db:
                await db.execute("PRAGMA defer_foreign_keys = ON")
                await db.execute("INSERT INTO bot_meta (key, value) VALUES (?, ?)", ("batch-lost", "1"))
                await db.execute(
                    "INSERT INTO moves (match_id, seq, kind, seat, user_id, text, created_at) "
                    "VALUES (?, 1, 'move', 0, 1, 'a1', 0)",
                    (987654321,),
                )
        assert not await database.worker.run(lambda: database.connection.in_transaction)
        await opened.set_meta("batch-kept", "1")
        assert await meta(opened) == {"batch-kept": "1"}
    finally:
        await opened.close()


async def test_every_form_of_a_moves_write_leaves_the_same_rows(store: MatchStore) -> None:
    """A move's write is described once (bot.storage.move_write): the batch, the same statements in a transaction
    and PostgreSQL's single statement write the same log row and announcements, and return the same match."""
    service = MatchService(store.matches, rng=random.Random(3), clock=lambda: 1000.0)
    forms = ["batch", "transaction"] + (["one statement"] if store.database.dialect == "postgresql" else [])
    notices = [Notice(NoticeKind.TURN, mentions=(ANA.user_id,)), Notice(NoticeKind.CLOSE, board=False)]
    written = []
    for channel, form in enumerate(forms, 51):
        asked = await service.challenge(
            guild_id=GUILD, channel_id=channel, game="pond", challenger=ANA, opponents=[BO], options={}
        )
        record = (await service.answer(asked.record.id, BO, True)).record
        update, values = _update_sql({"deadline": 7000.0}, 1001.0, record)
        move = {"kind": "move", "seat": 0, "user_id": ANA.user_id, "text": "a1", "created_at": 1001.0}
        write = MoveWrite(update, values, record.id, move, [_notice_values(n) for n in notices], _outbox_values(1001.0))
        if form == "batch":
            found = await store.database.batch(write.steps())
            assert found is not None
            returned = found[0][0]
        elif form == "transaction":
            async with store.database.transaction() as db:
                returned = (await db.execute_fetchall(write.update, write.update_params))[0]
                for step in write.after_update():
                    await db.execute_fetchall(step.sql, step.params)
        else:
            sql, params = write.one_statement(_COLUMNS)
            returned = (await store.database.rows(sql, params))[0][: len(_COLUMNS.split(","))]
        moves = await store.database.rows(
            "SELECT seq, kind, seat, user_id, text, created_at FROM moves WHERE match_id = ?", (record.id,)
        )
        outbox = await store.database.rows(
            "SELECT channel_id, guild_id, kind, version, seq, mentions, board, detail, status, attempts, next_at "
            "FROM outbox WHERE match_id = ? AND version > ? ORDER BY id",
            (record.id, record.version),
        )
        match = _decode(returned)
        assert (match.version, match.deadline, match.updated_at) == (record.version + 1, 7000.0, 1001.0)
        written.append((moves, [row[2:] for row in outbox], [row[:2] == (channel, GUILD) for row in outbox]))
    assert len(written[0][1]) == 2
    assert all(found == written[0] for found in written[1:])
    assert written[0][2] == [True, True]
