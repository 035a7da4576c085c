"""The worker pool behind rendering and the computer: real processes, and recovery when one dies."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from bot.delivery.rendering import BoardRenderer
from bot.delivery.workers import RemoteTraceback, WorkerDied, WorkerPool
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


def echo_bytes(size: int, seed: int) -> bytes:
    """A long answer (bigger than the socket's buffers and the bot's read buffer)."""
    return bytes((seed + i) % 251 for i in range(size))


def slow_answer(seconds: float, value: str) -> str:
    import time

    time.sleep(seconds)
    return value


def refuse(what: str) -> None:
    raise ValueError(f"no {what}")


async def test_answers_of_any_size_come_back_whole_and_to_their_own_callers() -> None:
    pool = WorkerPool("test", 2)
    try:
        sizes = [0, 1, 7, 40_000, 300_000, 2_000_000, 12]
        answers = await asyncio.gather(*(pool.run(echo_bytes, size, n) for n, size in enumerate(sizes)))
        assert [len(answer) for answer in answers] == sizes
        assert all(answer == echo_bytes(size, n) for n, (answer, size) in enumerate(zip(answers, sizes, strict=True)))
        assert pool.handed == 0 and pool.waiting == 0
    finally:
        pool.stop()


async def test_an_error_in_a_worker_reaches_its_caller_with_the_workers_traceback_and_the_worker_lives_on() -> None:
    pool = WorkerPool("test", 1)
    try:
        with pytest.raises(ValueError, match="no luck") as raised:
            await pool.run(refuse, "luck")
        assert isinstance(raised.value.__cause__, RemoteTraceback) and "refuse" in str(raised.value.__cause__)
        first = pool.pids()
        assert await pool.run(str.upper, "still here") == "STILL HERE" and pool.pids() == first
    finally:
        pool.stop()


async def test_a_caller_that_gives_up_leaves_the_next_answers_in_order() -> None:
    pool = WorkerPool("test", 1)
    try:
        slow = asyncio.ensure_future(pool.run(slow_answer, 0.3, "slow"))
        quick = asyncio.ensure_future(pool.run(slow_answer, 0.0, "quick"))  # handed to the same process, after
        await asyncio.sleep(0.1)
        slow.cancel()
        assert await quick == "quick"  # the slow answer arrived first and was dropped
        assert await pool.run(slow_answer, 0.0, "next") == "next"
    finally:
        pool.stop()


async def test_stopped_workers_end_and_a_stopped_pool_refuses_work() -> None:
    pool = WorkerPool("test", 2)
    await asyncio.gather(pool.run(slow_answer, 0.05, "a"), pool.run(slow_answer, 0.05, "b"))
    processes = pool.running_processes()
    assert len(processes) == 2
    pool.stop()
    assert pool.pids() == [] and not any(process.is_alive() for process in processes)
    with pytest.raises(WorkerDied):
        await pool.run(str.upper, "late")
