"""Two shard processes share one PostgreSQL; one is killed with SIGKILL mid-game and restarted (bench.shards, short)."""

from __future__ import annotations

import pytest

from bench import shards


@pytest.mark.subprocess
def test_two_shard_processes_one_killed_and_restarted_lose_and_double_nothing(postgres_database: str) -> None:
    row = shards.run(seconds=3.0, matches=3, database=postgres_database)
    # verify() inside run() asserted every match replays to its state with one log row per move, and that
    # every move a player saw confirmed is in the log; here: both shards played, and the restart resumed.
    by_shard = {p["shard"]: p for p in row["processes"]}
    assert by_shard[0]["moves"] > 0 and by_shard[1]["moves"] > 0
    assert by_shard[0]["resumed_posts"] > 0  # the dead process's pending announcements, picked up on restart
    assert row["pending_posts_left"] == 0
    assert row["logged_moves"] >= row["confirmed_moves"] > 0
    assert row["logged_moves"] - row["confirmed_moves"] <= 3  # at most one move in flight per match at the kill
