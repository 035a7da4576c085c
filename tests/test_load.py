"""A short run of the load benchmark as a reliability test: concurrent matches, nothing lost or doubled."""

from __future__ import annotations

from pathlib import Path

from bench.load import Load, Patch


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
