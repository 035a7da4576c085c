"""The worker pool behind rendering and the computer: real processes, and recovery when one dies."""

from __future__ import annotations

import os
from pathlib import Path

from bot.delivery.rendering import BoardRenderer
from bot.delivery.workers import WorkerPool
from engines import GAMES


def die_once(marker: str) -> str:
    """Kill the worker the first time (as a crash would), answer the second time."""
    if not os.path.exists(marker):
        Path(marker).touch()
        os._exit(1)
    return f"answered by {os.getpid()}"


async def test_a_dead_worker_is_replaced_and_the_work_retried(tmp_path: Path) -> None:
    pool = WorkerPool("test", 1)
    try:
        answer = await pool.run(die_once, str(tmp_path / "died"))
    finally:
        pool.close()
    assert answer.startswith("answered by") and not answer.endswith(str(os.getpid()))


async def test_boards_render_the_same_in_a_worker_process_and_in_a_thread() -> None:
    state = GAMES["pond"].new().play("place b2")
    in_process, in_thread = BoardRenderer(1), BoardRenderer(0)
    try:
        assert await in_process.png(state, ["Ana", "Bo"]) == await in_thread.png(state, ["Ana", "Bo"])
    finally:
        in_process.close()
