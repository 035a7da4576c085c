"""A short run of the load benchmark as a reliability test: concurrent matches, nothing lost or doubled."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.load import Load, Patch, due_while_moving

pytestmark = pytest.mark.slow  # seconds of real concurrent load each


async def test_concurrent_matches_through_the_whole_turn_path_replay_exactly(tmp_path: Path, database: str) -> None:
    patch = Patch()
    # Boards drawn in a real worker process; on a SQLite file and on PostgreSQL.
    load = Load(tmp_path, 30, seed=3, render_processes=1, database=database)
    try:
        await load.start(patch)
        row = await load.run(1.5, None)
        verified = await load.verify()
    finally:
        await load.stop()
        patch.undo()
    assert row["moves"] > 30 and row["refused"] == 0
    assert verified["replayed_matches"] >= 30


async def test_reminders_and_endings_falling_due_while_moves_arrive_are_each_handled_once() -> None:
    row = await due_while_moving(matches=5, idle=12, seconds=4.5, offered=50.0, turn_seconds=2.0)
    # Every idle match's turn ended (4 s in; Azul for three plays on), and reminders were posted (1.5 s in, in a
    # window of 0.5 s before the deadline, after which none is sent: two sweeps of every 0.25 s even on a busy
    # machine; a window of 0.2 s was missed once in CI).
    # Inside, the run checked each reminder was posted exactly once and nothing is left to deliver.
    assert row["idle_turns_ended"] >= 12 and row["reminders_posted"] >= 1
    assert row["replayed_matches"] >= 17 and row["moves"] > 5


async def test_a_challenge_a_killed_process_left_unanswered_is_answered_not_duplicated(tmp_path: Path) -> None:
    """A process killed between its challenge and its answer leaves a pending challenge; the next plays it."""
    from bot.storage.records import Seat

    patch = Patch()
    load = Load(tmp_path, 1, seed=5, render_processes=0)
    try:
        await load.start(patch)
        a, b = load.people[:2]
        pending = await load.bot.service.challenge(
            guild_id=1, channel_id=77, game="pond", challenger=Seat(a.id, a.name),
            opponents=[Seat(b.id, b.name)], options={},
        )  # fmt: skip
        match_id, ply, outcome = await load.one_move(77)
    finally:
        await load.stop()
        patch.undo()
    assert (match_id, ply, outcome) == (pending.record.id, 0, "followup")
